"""``pixel_shuffle`` and ``pixel_unshuffle``: channels traded for resolution, and back.

Each is one reshape-transpose-reshape on numpy, and each is the other's gradient; they are
primitives (not compositions of views) so that they record ``PixelShuffleBackward0`` and
``PixelUnshuffleBackward0`` as PyTorch does. A channels-last input gives a channels-last result;
ATen's kernels refuse a channels-last 3-d one. ATen's ``pixel_unshuffle`` returns an empty input
unchanged (a clone, its shape kept), so the gradient of an empty ``pixel_shuffle`` fails the
engine's shape check, as in PyTorch.
"""
import numpy as np

from ..memory_format import channels_last_3d, laid_out_as, suggested
from .registry import OTHER, primitive

__all__ = ["pixel_shuffle", "pixel_unshuffle"]


@primitive("pixel_shuffle", node="PixelShuffleBackward0", group=OTHER)
def _pixel_shuffle(x, *, factor):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r)."""
    *batch, channels, height, width = x.shape
    n = len(batch)
    blocks = x.reshape(*batch, channels // factor ** 2, factor, factor, height, width)
    blocks = blocks.transpose(*range(n + 1), n + 3, n + 1, n + 4, n + 2)
    shuffled = blocks.reshape(*batch, channels // factor ** 2, height * factor, width * factor)
    return laid_out_as(np.ascontiguousarray(shuffled), x)  # (a reshape may keep a view)


@primitive("pixel_unshuffle", node="PixelUnshuffleBackward0", group=OTHER)
def _pixel_unshuffle(x, *, factor):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W); an empty input's clone, as ATen."""
    if not x.size:
        return x.copy()
    *batch, channels, height, width = x.shape
    n = len(batch)
    blocks = x.reshape(*batch, channels, height // factor, factor, width // factor, factor)
    blocks = blocks.transpose(*range(n + 1), n + 2, n + 4, n + 1, n + 3)
    unshuffled = blocks.reshape(*batch, channels * factor ** 2, height // factor, width // factor)
    return laid_out_as(np.ascontiguousarray(unshuffled), x)


@_pixel_shuffle.vjp
def _(ctx, grad, factor):
    return _fitted(pixel_unshuffle(grad, factor), ctx.input_shapes[0], "PixelShuffleBackward0")


@_pixel_unshuffle.vjp
def _(ctx, grad, factor):
    return _fitted(pixel_shuffle(grad, factor), ctx.input_shapes[0], "PixelUnshuffleBackward0")


def _fitted(grad, shape, node):
    """The engine's check of a gradient's shape: only an empty one can differ (see above)."""
    if tuple(grad.shape) != tuple(shape):
        raise RuntimeError(f"Function {node} returned an invalid gradient at index 0 - got "
                           f"{list(grad.shape)} but expected shape compatible with {list(shape)}")
    return grad


def _check_layout(input):
    """ATen's CPU kernels run contiguous and channels-last inputs only (empty ones never
    reach them)."""
    if input.numel() and suggested(input._array) is channels_last_3d:
        raise RuntimeError("Unsupported memory format. Supports only ChannelsLast, Contiguous")


def _check(input, factor, name, factor_name):
    if input.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input "
                           f"with {input.dim()} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {factor_name}, but got {factor}")


def pixel_shuffle(input, upscale_factor):
    _check(input, upscale_factor, "pixel_shuffle", "upscale_factor")
    channels = input.shape[-3]
    if channels % upscale_factor ** 2:
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible "
                           f"by the square of upscale_factor, but input.size(-3)={channels} is "
                           f"not divisible by {upscale_factor ** 2}")
    _check_layout(input)
    return _pixel_shuffle(input, factor=upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    _check(input, downscale_factor, "pixel_unshuffle", "downscale_factor")
    for name, axis in (("height", -2), ("width", -1)):
        if input.shape[axis] % downscale_factor:
            raise RuntimeError(f"pixel_unshuffle expects {name} to be divisible by "
                               f"downscale_factor, but input.size({axis})={input.shape[axis]} is "
                               f"not divisible by {downscale_factor}")
    _check_layout(input)
    return _pixel_unshuffle(input, factor=downscale_factor)
