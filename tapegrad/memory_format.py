"""Memory formats: the order a tensor's elements are laid out in, independent of its shape.

``contiguous_format`` is row-major; ``channels_last`` (4-d) and ``channels_last_3d`` (5-d) keep
the channels innermost (NHWC under an NCHW shape); ``preserve_format`` keeps whatever layout
the source has (numpy's ``order="K"``). numpy arrays carry strides, so these are layouts of the
array itself, as in PyTorch.
"""
import numpy as np

__all__ = ["memory_format", "contiguous_format", "channels_last", "channels_last_3d",
           "preserve_format"]


class memory_format:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")

_CHANNELS_LAST_RANK = {channels_last: 4, channels_last_3d: 5}


def _channels_innermost(ndim):
    return (0, *range(2, ndim), 1)


def _check_rank(array, format):
    rank = _CHANNELS_LAST_RANK.get(format)
    if rank is not None and array.ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {format.name} format")


def copy_in(array, format):
    """A copy of ``array`` laid out in ``format`` (None: preserve)."""
    if format is None or format is preserve_format:
        return array.copy(order="K")
    if format is contiguous_format:
        return np.array(array, order="C", copy=True)
    _check_rank(array, format)
    order = _channels_innermost(array.ndim)
    return np.ascontiguousarray(array.transpose(order)).transpose(np.argsort(order))


def is_in(array, format):
    """Whether ``array`` is laid out densely in ``format``."""
    if format is None or format is contiguous_format or format is preserve_format:
        return array.flags.c_contiguous
    if array.ndim != _CHANNELS_LAST_RANK.get(format):
        return False
    return array.transpose(_channels_innermost(array.ndim)).flags.c_contiguous
