"""``channel_shuffle`` (ShuffleNet's): the channels (dim 1), read as ``groups`` rows of
``C / groups``, are transposed — one reshape-transpose-reshape on numpy. Its gradient is the
inverse shuffle, a channel shuffle with ``C / groups`` groups; a primitive so that it records
``ChannelShuffleBackward0`` as PyTorch does. Its result has the input's channels-last layout
(2-d or 3-d), as ATen's."""
from ..memory_format import laid_out_as
from .registry import OTHER, primitive

__all__ = ["channel_shuffle"]


@primitive("channel_shuffle", node="ChannelShuffleBackward0", group=OTHER)
def _channel_shuffle(x, *, groups):
    batch, channels, *spatial = x.shape
    grouped = x.reshape(batch, groups, channels // groups, *spatial)
    return laid_out_as(grouped.swapaxes(1, 2).reshape(x.shape), x)


@_channel_shuffle.vjp
def _(ctx, grad, groups):
    return _channel_shuffle(grad, groups=ctx.input_shapes[0][1] // groups)


def channel_shuffle(input, groups):
    """Interleave the ``groups`` channel groups of ``input`` (N, C, *), checked as ATen."""
    if input.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    channels = input.shape[1]
    if channels % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {channels} "
                           f"channels and {groups} groups.")
    return _channel_shuffle(input, groups=groups)
