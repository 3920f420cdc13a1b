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


def _element_strides(array):
    return tuple(s // array.itemsize for s in array.strides) if array.itemsize else array.strides


def _empty_strided(shape, strides, dtype):
    """A fresh array with exactly these (element) strides, which must be dense."""
    dtype = np.dtype(dtype)
    span = 1 + sum((n - 1) * s for n, s in zip(shape, strides)) if all(shape) else 0
    buffer = np.empty(span, dtype)
    return np.lib.stride_tricks.as_strided(buffer, shape, tuple(s * dtype.itemsize for s in strides))


def _format_strides(shape, format):
    """The (element) strides PyTorch gives a fresh ``shape`` tensor in channels-last ``format``:
    dense in channels-innermost order, size-1 dims included (8 channels of 1x1: (8, 1, 8, 8))."""
    strides, step = [0] * len(shape), 1
    for d in reversed(_channels_innermost(len(shape))):
        strides[d] = step
        step *= shape[d]
    return tuple(strides)


def _empty_in(shape, dtype, format):
    """A fresh array laid out in ``format``, with PyTorch's strides (size-1 dims included)."""
    if format not in _CHANNELS_LAST_RANK:
        return np.empty(shape, dtype)
    return _empty_strided(shape, _format_strides(shape, format), dtype)


def in_format_strides(array, format):
    """``array`` with exactly the strides of a fresh ``format`` tensor (copied unless it has
    them): ATen's kernels allocate their outputs so, and a size-1 dim's stride shows in
    ``stride()`` though ``is_contiguous`` ignores it."""
    if format in _CHANNELS_LAST_RANK and \
            _element_strides(array) != _format_strides(array.shape, format):
        return copy_in(array, format)
    return array


def is_non_overlapping_and_dense(array):
    """PyTorch's is_non_overlapping_and_dense: the strides are a permutation of dense ones."""
    sizes, strides = array.shape, _element_strides(array)
    if array.ndim == 1:
        return sizes[0] < 2 or strides[0] == 1
    step = 1
    for d in sorted((d for d in range(array.ndim) if sizes[d] >= 2), key=lambda d: strides[d]):
        if strides[d] != step:
            return False
        step *= sizes[d]
    return True


def _strides_like_channels_last(sizes, strides):
    """PyTorch's is_channels_last_strides_2d/3d: channels innermost, size-1 dims ambiguous."""
    if strides[1] == 0:
        return False
    low = 0
    for d in (1, *range(len(sizes) - 1, 1, -1), 0):
        if sizes[d] == 0 or strides[d] < low or (d == 0 and low == strides[1]):
            return False
        low = strides[d] * max(1, sizes[d])
    return True


def suggested(array):
    """PyTorch's suggest_memory_format: the format ``array``'s strides look like."""
    if array.ndim in (4, 5) and _strides_like_channels_last(array.shape, _element_strides(array)):
        return channels_last if array.ndim == 4 else channels_last_3d
    return contiguous_format


def laid_out_as(result, *sources):
    """``result`` in the channels-last format any of ``sources`` suggests (else unchanged), as
    ATen lays out the outputs of resampling, pooling and convolution kernels."""
    for source in sources:
        format = suggested(source)
        if format is not contiguous_format:
            return in_format_strides(result, format)
    return result


def copy_in(array, format, dtype=None):
    """A copy of ``array`` (cast to ``dtype``, if given) laid out in ``format`` (None: preserve,
    as PyTorch: the same strides when they are dense, otherwise the format they suggest)."""
    dtype = array.dtype if dtype is None else dtype
    if format is None or format is preserve_format:
        if array.flags.c_contiguous and 1 not in array.shape:
            return array.astype(dtype)  # C strides, the common case (size-1 dims: any stride)
        if is_non_overlapping_and_dense(array) and min(array.strides, default=0) >= 0:
            out = _empty_strided(array.shape, _element_strides(array), dtype)
            out[...] = array
            return out
        format = suggested(array)
    if format is contiguous_format:
        return np.array(array, dtype=dtype, order="C", copy=True)
    _check_rank(array, format)
    out = _empty_in(array.shape, dtype, format)
    out[...] = array
    return out


def is_in(array, format):
    """Whether ``array`` is laid out densely in ``format`` (PyTorch's is_contiguous: size-1
    dims may have any stride)."""
    if format is None or format is contiguous_format or format is preserve_format:
        return array.flags.c_contiguous
    if array.ndim != _CHANNELS_LAST_RANK.get(format):
        return False
    strides, step = _element_strides(array), 1
    for d in (1, *range(array.ndim - 1, 1, -1), 0):
        if array.shape[d] != 1:
            if strides[d] != step:
                return False
            step *= array.shape[d]
    return True
