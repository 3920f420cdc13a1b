"""``unfold`` (im2col) and ``fold`` (col2im) as a pair of primitives, each the other's gradient.

``unfold`` lays every receptive field of an (N, C, H, W) image out as a column of an
(N, C*KH*KW, L) matrix; ``fold`` sums such columns back onto the image (overlaps add up). Both
are the convolution's own helpers (``ops.conv._windows`` and ``ops.conv._col2im``); a 3-d
(unbatched) input is handled inside the primitive, which records ``Im2ColBackward0`` /
``Col2ImBackward0`` as PyTorch does.
"""
import collections.abc
import functools

import numpy as np

from ..tensor import _LEGACY_TYPE_NAMES
from .conv import _col2im, _pad, _windows
from .registry import OTHER, primitive
from .signatures import int_list

__all__ = ["unfold", "fold"]


def _batched(unbatched_ndim):
    """Lets a forward take an unbatched input: computed with a batch of one that it drops."""
    def decorate(forward):
        @functools.wraps(forward)
        def either(a, **geometry):
            if a.ndim == unbatched_ndim:
                return forward(a[None], **geometry)[0]
            return forward(a, **geometry)
        return either
    return decorate


def _four_sided(padding):
    return (padding[0], padding[0], padding[1], padding[1])


@primitive("im2col", node="Im2ColBackward0", group=OTHER)
@_batched(3)
def _unfold(x, *, kernel, dilation, padding, stride):
    windows = _windows(_pad(x, _four_sided(padding)), kernel, stride, dilation)
    n, c, oh, ow, kh, kw = windows.shape
    return np.ascontiguousarray(windows.transpose(0, 1, 4, 5, 2, 3)).reshape(n, c * kh * kw,
                                                                            oh * ow)


@primitive("col2im", node="Col2ImBackward0", group=OTHER)
@_batched(2)
def _fold(cols, *, output_size, kernel, dilation, padding, stride):
    n, rows, _ = cols.shape
    kh, kw = kernel
    oh, ow = _blocks(output_size, kernel, dilation, padding, stride)
    return _col2im(cols.reshape(n, rows // (kh * kw), kh, kw, oh, ow), output_size, stride,
                   _four_sided(padding), dilation)


@_unfold.vjp
def _(ctx, grad, **geometry):
    return _fold(grad, output_size=ctx.input_shapes[0][-2:], **geometry)


@_fold.vjp
def _(ctx, grad, output_size, **geometry):
    return _unfold(grad, **geometry)


def _blocks(size, kernel, dilation, padding, stride):
    """How many windows fit along each dimension."""
    return tuple((n + 2 * p - d * (k - 1) - 1) // s + 1
                 for n, k, d, p, s in zip(size, kernel, dilation, padding, stride))


def _int_list(value, name, position, function):
    """``value`` read as ``F.unfold`` passes it on, ``_pair(value)``, and as the argument parser
    reads an int list: an int twice, else the iterable's items."""
    items = tuple(value) if isinstance(value, collections.abc.Iterable) else (value, value)
    return int_list(items, function, name, position)


def _int_pairs(function, **arguments):
    """Each of ``arguments`` (in the kernel's positional order, after the input) as a pair of
    ints: all parsed first, then each one's length checked, as ATen does."""
    pairs = {name: _int_list(value, name, position, function)
             for position, (name, value) in enumerate(arguments.items(), 2)}
    for name, pair in pairs.items():
        if len(pair) != 2:
            raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(pair)}")
    return pairs


def _geometry(function, kernel_size, dilation, padding, stride,
              order=("kernel", "dilation", "padding", "stride"), **leading):
    """The four size arguments as pairs (and any ``leading`` ones, col2im's output size),
    checked as ATen checks them, in ``order`` (im2col's; col2im checks the stride second)."""
    pairs = _int_pairs(function, **leading, kernel_size=kernel_size, dilation=dilation,
                       padding=padding, stride=stride)
    values = dict(kernel=pairs.pop("kernel_size"), **pairs)
    for key in order:
        name, pair = {"kernel": "kernel size"}.get(key, key), values[key]
        smallest = 0 if key == "padding" else 1
        if min(pair) < smallest:
            short = {"kernel": "kernel", "padding": "pad"}.get(key, key)
            condition = "non-negative" if smallest == 0 else "greater than zero"
            raise RuntimeError(f"{name} should be {condition}, but got {short}_height: "
                               f"{pair[0]} {short}_width: {pair[1]}")
    return values


def _require_kernel_type(input, kernel):
    """ATen's im2col / col2im kernels exist for floating, complex and bool tensors only."""
    dtype = input._array.dtype
    if dtype.kind in "iu":
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[dtype.name]}'")


def _sizes_text(geometry, *keys):
    """``kernel_size=(2, 2), dilation=(1, 1), ...`` as ATen's messages list them."""
    return ", ".join(f"{'kernel_size' if key == 'kernel' else key}={geometry[key]}"
                     for key in keys)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C, H, W) or (C, H, W) -> (N, C*KH*KW, L): each sliding block as a column."""
    geometry = _geometry("im2col", kernel_size, dilation, padding, stride)  # checked first
    if input.dim() < 3:  # ATen reads sizes 1 and 2 before it checks the rank
        input.size(1), input.size(2)
    if input.dim() not in (3, 4) or 0 in input.shape[1:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and "
                           f"other non-zero dimensions for input, but got: {list(input.shape)}")
    blocks = _blocks(input.shape[-2:], **geometry)
    if min(blocks) < 1:
        raise RuntimeError(
            f"Given input with spatial size {tuple(input.shape[-2:])}, "
            f"{_sizes_text(geometry, 'kernel', 'dilation', 'padding')}, "
            f"calculated shape of the array of sliding blocks as {blocks}, but its "
            "components must be at least one.")
    _require_kernel_type(input, "im2col_out_cpu")
    return _unfold(input, **geometry)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C*KH*KW, L) or (C*KH*KW, L) -> (N, C, H, W): the columns summed back onto the image."""
    geometry = _geometry("col2im", kernel_size, dilation, padding, stride,
                         order=("kernel", "stride", "dilation", "padding"),
                         output_size=output_size)
    output_size = geometry.pop("output_size")
    if input.dim() not in (2, 3) or 0 in input.shape[-2:]:
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch "
                           f"size and non-zero dimensions for input, but got: {list(input.shape)}")
    kh, kw = geometry["kernel"]
    rows, length = input.shape[-2:]
    if rows % (kh * kw):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of "
                           f"kernel_size, but got input.size(1)={rows} and "
                           f"kernel_size={geometry['kernel']}.")
    blocks = _blocks(output_size, **geometry)
    if blocks[0] * blocks[1] != length or min(blocks) < 1:
        raise RuntimeError(
            f"Given output_size={output_size}, "
            f"{_sizes_text(geometry, 'kernel', 'dilation', 'padding', 'stride')}, "
            "expected size of input's dimension 2 to match the calculated number of sliding blocks "
            f"{blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got input.size(2)={length}.")
    _require_kernel_type(input, "col2im_out_cpu")
    return _fold(input, output_size=output_size, **geometry)
