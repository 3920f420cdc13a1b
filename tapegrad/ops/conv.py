"""2-D convolution (plain and transposed) and max pooling as primitives, computed by im2col on
strided views.

``sliding_window_view`` gives every receptive field of the padded input as a view (no copy); one
reshape gathers them into a matrix (im2col) and one batched matmul per call does the arithmetic.

A convolution is linear in its input and in its weight, so its backward needs exactly two more
primitives: ``convolution_input_grad`` (col2im of ``grad @ W``) and ``convolution_weight_grad``
(``grad.T @ cols``). Their own rules are the same three operations again, so the set is closed
under differentiation and higher derivatives work.

A transposed convolution is the input gradient of a plain one (``grad @ W``, col2im'd onto the
larger plane), so, as in PyTorch, it is the same ``convolution`` primitive with
``transposed=True`` and its rules are the same three operations with roles exchanged.

Geometry travels as parameters: ``stride`` and ``dilation`` as (h, w), ``padding`` as
(top, bottom, left, right) — asymmetric for ``padding="same"`` with an even kernel.
"""
import functools

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .. import dtypes
from ..tensor import Tensor
from .activation import require_floating
from .padding import constant_pad_nd
from .registry import OTHER, primitive
from .shape import _index_backward

__all__ = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "max_pool2d"]


# ------------------------------------------------------------------------------- geometry

def _pair(value, name):
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, (int, np.integer)) for v in pair):
        raise ValueError(f"{name} must be an int or a pair of ints, got {value!r}")
    return tuple(int(v) for v in pair)


def _windows(padded, kernel, stride, dilation):
    """(N, C, OH, OW, KH, KW): every receptive field of ``padded`` (N, C, H, W), as a view."""
    span = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    view = sliding_window_view(padded, span, axis=(2, 3))
    return view[:, :, ::stride[0], ::stride[1], ::dilation[0], ::dilation[1]]


def _pad(a, padding, value=0.0):
    top, bottom, left, right = padding
    if not any(padding):
        return a
    return np.pad(a, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=value)


def _im2col(x, kernel, stride, padding, dilation, groups):
    """(G, N*OH*OW, C/G*KH*KW) patches, and the output's spatial size (OH, OW)."""
    windows = _windows(_pad(x, padding), kernel, stride, dilation)
    n, c, oh, ow, kh, kw = windows.shape
    grouped = windows.reshape(n, groups, c // groups, oh, ow, kh, kw)
    cols = grouped.transpose(1, 0, 3, 4, 2, 5, 6).reshape(groups, n * oh * ow, -1)
    return cols, (oh, ow)


def _grad_as_rows(grad, groups):
    """(N, O, OH, OW) as (G, N*OH*OW, O/G): the layout ``cols @ W.T`` produces."""
    n, o, oh, ow = grad.shape
    return grad.reshape(n, groups, o // groups, oh, ow).transpose(1, 0, 3, 4, 2).reshape(
        groups, n * oh * ow, o // groups)


# --------------------------------------------------------------------------- convolution

def _signals_too(forward):
    """A 2-d convolution forward that also takes 1-d signals ((N, C, L) arrays, ``*_shape``
    parameters of three sizes): computed with a unit height that the result drops, so conv1d is
    the same primitive and records ConvolutionBackward0, as in PyTorch."""
    @functools.wraps(forward)
    def either(*arrays, **params):
        if arrays[0].ndim != 3:
            return forward(*arrays, **params)
        arrays = [a[:, :, None, :] if a.ndim == 3 else a for a in arrays]  # a bias stays 1-d
        params = {name: value[:2] + (1,) + value[2:] if name.endswith("_shape") else value
                  for name, value in params.items()}
        return forward(*arrays, **params)[:, :, 0, :]
    return either


@primitive("convolution", node="ConvolutionBackward0", group=OTHER, saves=("x", "w"),
           saves_for={"x": ("w",), "w": ("x",)})
@_signals_too
def _convolution(x, w, b=None, *, stride, padding, dilation, groups, transposed=False,
                 output_padding=(0, 0)):
    if transposed:
        out = _adjoint(x, w, _transposed_size(x.shape[2:], w.shape[2:], stride, padding,
                                              dilation, output_padding),
                       stride, padding, dilation, groups)
    else:
        cols, (oh, ow) = _im2col(x, w.shape[2:], stride, padding, dilation, groups)
        o = w.shape[0]
        rows = cols @ w.reshape(groups, o // groups, -1).transpose(0, 2, 1)  # (G, N*OH*OW, O/G)
        out = rows.reshape(groups, x.shape[0], oh, ow, o // groups).transpose(1, 0, 4, 2, 3)
        out = np.ascontiguousarray(out).reshape(x.shape[0], o, oh, ow)
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


def _transposed_size(size, kernel, stride, padding, dilation, output_padding):
    """The (H, W) a transposed convolution produces from an (H, W) input."""
    top, bottom, left, right = padding
    return tuple((n - 1) * s - before - after + d * (k - 1) + 1 + extra for n, k, s, d, extra,
                 (before, after) in zip(size, kernel, stride, dilation, output_padding,
                                        ((top, bottom), (left, right))))


@_convolution.vjp
def _(ctx, grad, stride, padding, dilation, groups, transposed=False, output_padding=(0, 0)):
    x, w = ctx.saved
    geometry = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
    needs = ctx.needs_input_grad
    if transposed:
        # The adjoint of a transposed convolution is the plain one; an output padding of a
        # stride or more gives it extra windows at the far end, which belong to no input pixel.
        extra = tuple(p // s for p, s in zip(output_padding, stride))[-(grad.dim() - 2):]
        grads = (
            _far_end_cropped(_convolution(grad, w, **geometry), extra) if needs[0] else None,
            _convolution_weight_grad(_far_end_padded(x, extra), grad,
                                     weight_shape=ctx.input_shapes[1], **geometry)
            if needs[1] else None,
        )
    else:
        grads = (
            _convolution_input_grad(grad, w, input_shape=ctx.input_shapes[0], **geometry)
            if needs[0] else None,
            _convolution_weight_grad(grad, x, weight_shape=ctx.input_shapes[1], **geometry)
            if needs[1] else None,
        )
    if len(needs) == 3:
        grads += (grad.sum((0, *range(2, grad.dim()))) if needs[2] else None,)
    return grads


def _far_end_cropped(a, extra):
    if not any(extra):
        return a
    return a[(..., *(slice(0, n - e) for n, e in zip(a.shape[2:], extra)))]


def _far_end_padded(a, extra):
    if not any(extra):
        return a
    return constant_pad_nd(a, tuple(p for e in reversed(extra) for p in (0, e)))


@primitive("convolution_input_grad", node="ConvolutionBackwardBackward0", group=OTHER,
           saves=("grad", "w"))
@_signals_too
def _convolution_input_grad(grad, w, *, input_shape, stride, padding, dilation, groups):
    """The input's gradient: ``grad @ W`` scattered back onto the receptive fields (col2im)."""
    return _adjoint(grad, w, input_shape[2:], stride, padding, dilation, groups)


def _adjoint(grad, w, size, stride, padding, dilation, groups):
    """The convolution's adjoint in its input, onto an (H, W) plane: ``grad @ W`` per group,
    each row added back onto the receptive field it came from."""
    n, o, oh, ow = grad.shape
    _, c_per_group, kh, kw = w.shape
    cols = _grad_as_rows(grad, groups) @ w.reshape(groups, o // groups, -1)
    cols = cols.reshape(groups, n, oh, ow, c_per_group, kh, kw).transpose(1, 0, 4, 5, 6, 2, 3)
    return _col2im(cols.reshape(n, groups * c_per_group, kh, kw, oh, ow), size, stride, padding,
                   dilation)


def _col2im(cols, size, stride, padding, dilation):
    """The adjoint of ``_windows``: (N, C, KH, KW, OH, OW) values summed onto the (H, W) plane
    positions they were taken from (what falls into the padding is dropped)."""
    n, c, kh, kw, oh, ow = cols.shape
    height, width = size
    top, bottom, left, right = padding
    padded = np.zeros((n, c, height + top + bottom, width + left + right), dtype=cols.dtype)
    for i in range(kh):
        rows = slice(i * dilation[0], i * dilation[0] + stride[0] * (oh - 1) + 1, stride[0])
        for j in range(kw):
            columns = slice(j * dilation[1], j * dilation[1] + stride[1] * (ow - 1) + 1, stride[1])
            padded[:, :, rows, columns] += cols[:, :, i, j]
    return padded[:, :, top:top + height, left:left + width]


@_convolution_input_grad.vjp
def _(ctx, upstream, input_shape, **geometry):
    grad, w = ctx.saved
    need_grad, need_w = ctx.needs_input_grad
    return (_convolution(upstream, w, **geometry) if need_grad else None,
            _convolution_weight_grad(grad, upstream, weight_shape=ctx.input_shapes[1], **geometry)
            if need_w else None)


@primitive("convolution_weight_grad", node="ConvolutionBackwardBackward0", group=OTHER,
           saves=("grad", "x"))
@_signals_too
def _convolution_weight_grad(grad, x, *, weight_shape, stride, padding, dilation, groups):
    """The weight's gradient: ``grad.T @ cols``, per group."""
    cols, _ = _im2col(x, weight_shape[2:], stride, padding, dilation, groups)
    per_group = _grad_as_rows(grad, groups).transpose(0, 2, 1) @ cols
    return per_group.reshape(weight_shape)


@_convolution_weight_grad.vjp
def _(ctx, upstream, weight_shape, **geometry):
    grad, x = ctx.saved
    need_grad, need_x = ctx.needs_input_grad
    return (_convolution(x, upstream, **geometry) if need_grad else None,
            _convolution_input_grad(grad, upstream, input_shape=ctx.input_shapes[1], **geometry)
            if need_x else None)


def _conv_padding(padding, kernel, dilation, stride):
    if padding == "valid":
        return (0, 0, 0, 0)
    if padding == "same":
        if stride != (1, 1):
            raise ValueError("padding='same' is not supported for strided convolutions")
        total = [d * (k - 1) for k, d in zip(kernel, dilation)]
        return (total[0] // 2, total[0] - total[0] // 2, total[1] // 2, total[1] - total[1] // 2)
    if isinstance(padding, str):
        raise ValueError(f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}")
    ph, pw = _pair(padding, "padding")
    return (ph, ph, pw, pw)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D cross-correlation of (N, C, H, W) or (C, H, W) ``input`` with (O, C/groups, KH, KW)."""
    if input.dim() == 3:
        return conv2d(input.unsqueeze(0), weight, bias, stride, padding, dilation,
                      groups).squeeze(0)
    return _convolve(input, weight, bias, _pair(stride, "stride"), padding,
                     _pair(dilation, "dilation"), groups, spatial=2)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D cross-correlation of (N, C, L) or (C, L) ``input`` with (O, C/groups, K): the same
    primitive as conv2d, over a unit height."""
    if input.dim() == 2:
        return conv1d(input.unsqueeze(0), weight, bias, stride, padding, dilation,
                      groups).squeeze(0)
    padding = padding if isinstance(padding, str) else (0, _single(padding, "padding"))
    return _convolve(input, weight, bias, (1, _single(stride, "stride")), padding,
                     (1, _single(dilation, "dilation")), groups, spatial=1)


def _single(value, name):
    """A 1-d layer's size argument: an int or a sequence of one."""
    return _pair(value[0] if isinstance(value, (tuple, list)) and len(value) == 1 else value,
                 name)[0]


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transpose of conv2d for (N, C, H, W) or (C, H, W) ``input`` and (C, O/groups, KH, KW)
    ``weight``: each input pixel stamps the kernel, scaled, onto the output."""
    if input.dim() == 3:
        return conv_transpose2d(input.unsqueeze(0), weight, bias, stride, padding, output_padding,
                                groups, dilation).squeeze(0)
    ph, pw = _pair(_not_a_string(padding, "conv_transpose2d"), "padding")
    return _convolve_transposed(input, weight, bias, _pair(stride, "stride"), (ph, ph, pw, pw),
                                _pair(output_padding, "output_padding"),
                                _pair(dilation, "dilation"), groups, spatial=2)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transpose of conv1d for (N, C, L) or (C, L) ``input``: conv_transpose2d's primitive
    over a unit height."""
    if input.dim() == 2:
        return conv_transpose1d(input.unsqueeze(0), weight, bias, stride, padding, output_padding,
                                groups, dilation).squeeze(0)
    pad = _single(_not_a_string(padding, "conv_transpose1d"), "padding")
    return _convolve_transposed(input, weight, bias, (1, _single(stride, "stride")),
                                (0, 0, pad, pad), (0, _single(output_padding, "output_padding")),
                                (1, _single(dilation, "dilation")), groups, spatial=1)


def _not_a_string(padding, name):
    """A transposed convolution has no "same" or "valid" padding."""
    if isinstance(padding, str):
        raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
    return padding


def _convolve_transposed(input, weight, bias, stride, padding, output_padding, dilation, groups,
                         spatial):
    _check_conv(input, weight, bias, groups, spatial, transposed=True)
    _check_geometry(stride, padding, dilation)
    if any(extra >= s and extra >= d for extra, s, d in zip(output_padding, stride, dilation)):
        raise RuntimeError(
            "output padding must be smaller than either stride or dilation, but got "
            f"output_padding_height: {output_padding[0]} output_padding_width: "
            f"{output_padding[1]} stride_height: {stride[0]} stride_width: {stride[1]} "
            f"dilation_height: {dilation[0]} dilation_width: {dilation[1]}")
    kernel = (1,) * (2 - spatial) + tuple(weight.shape[2:])
    sizes = (1,) * (2 - spatial) + tuple(input.shape[2:])
    out = _transposed_size(sizes, kernel, stride, padding, dilation, output_padding)
    if min(out) < 1:
        shown = 2 - spatial
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, sizes[shown:]))})"
                           f". Calculated output size per channel: "
                           f"({' x '.join(map(str, out[shown:]))}). Output size is too small")
    inputs = (input, weight) if bias is None else (input, weight, bias.to(input.dtype))
    return _convolution(*inputs, stride=stride, padding=padding, dilation=dilation, groups=groups,
                        transposed=True, output_padding=output_padding)


def _convolve(input, weight, bias, stride, padding, dilation, groups, spatial):
    """Checks as PyTorch's conv{spatial}d, then the primitive (geometry as (h, w) pairs; a 1-d
    signal has a unit height)."""
    _check_conv(input, weight, bias, groups, spatial)
    kernel = (1,) * (2 - spatial) + tuple(weight.shape[2:])
    sizes = (1,) * (2 - spatial) + tuple(input.shape[2:])
    padding = _conv_padding(padding, kernel, dilation, stride)
    _check_geometry(stride, padding, dilation)
    spans = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    padded = (sizes[0] + padding[0] + padding[1], sizes[1] + padding[2] + padding[3])
    if padded[0] < spans[0] or padded[1] < spans[1]:
        shown = 2 - spatial  # a 1-d signal's unit height is not shown
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded[shown:]))})."
            f" Kernel size: ({' x '.join(map(str, spans[shown:]))}). Kernel size can't be "
            "greater than actual input size")
    inputs = (input, weight) if bias is None else (input, weight, bias)
    return _convolution(*inputs, stride=stride, padding=padding, dilation=dilation, groups=groups)


def _check_geometry(stride, padding, dilation):
    if min(stride) < 1:
        raise RuntimeError("non-positive stride is not supported")
    if min(padding) < 0:
        raise RuntimeError("negative padding is not supported")
    if min(dilation) < 1:
        raise RuntimeError(f"dilation should be greater than zero, but got {list(dilation)}")


# The element types as ATen's convolution messages name them (C++ type names).
_CPP_TYPE_NAMES = {"float64": "double", "float32": "float", "float16": "c10::Half",
                   "int64": "long int", "int32": "int", "int16": "short int",
                   "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _check_dtypes(input, weight, bias, transposed):
    """ATen's dtype checks, in its order: a convolution's bias must match the input (a
    transposed one's is cast); bool inputs (and, transposed, integers but int64) have no
    kernel; then the weight must match the input."""
    if not transposed and bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(f"Input type ({_CPP_TYPE_NAMES[input.dtype.name]}) and bias type "
                           f"({_CPP_TYPE_NAMES[bias.dtype.name]}) should be the same")
    kind = input._array.dtype
    if kind == np.bool_ or (transposed and kind.kind in "iu" and kind != np.int64):
        require_floating(input, "slow_conv_transpose2d_out_cpu" if transposed
                         else "slow_conv2d_cpu")
    if weight.dtype != input.dtype:
        if kind == np.float16:
            raise RuntimeError(f"Input type ({input.type()}) and weight type ({weight.type()}) "
                               "should be the same or input should be a MKLDNN tensor and weight "
                               "is a dense tensor")
        raise RuntimeError(f"expected scalar type {input.type()[6:-6]} but found "
                           f"{weight.type()[6:-6]}")


def _check_conv(input, weight, bias, groups, spatial, transposed=False):
    name = f"conv_transpose{spatial}d" if transposed else f"conv{spatial}d"
    if input.dim() != spatial + 2:
        raise RuntimeError(f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) input "
                           f"to {name}, but got input of size: {list(input.shape)}")
    if weight.dim() != spatial + 2:
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-"
                           f"dimensional weight {list(weight.shape)}, but got {input.dim()}-"
                           f"dimensional input of size {list(input.shape)} instead")
    _check_dtypes(input, weight, bias, transposed)
    if groups < 1:
        raise RuntimeError("non-positive groups is not supported")
    channels = input.shape[1]
    if transposed:
        out_channels = weight.shape[1] * groups
        if weight.shape[0] % groups:
            raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by "
                               f"{groups} at dimension 0, but got weight of size "
                               f"[{list(weight.shape)}] instead")
        if weight.shape[0] != channels:
            raise RuntimeError(
                f"Given transposed=1, weight of size {list(weight.shape)}, expected input"
                f"{list(input.shape)} to have {weight.shape[0]} channels, but got {channels} "
                "channels instead")
    else:
        out_channels = weight.shape[0]
        if channels % groups or out_channels % groups:
            raise RuntimeError(f"Given groups={groups}, expected input channels and output "
                               "channels to be divisible by groups")
        if weight.shape[1] * groups != channels:
            raise RuntimeError(
                f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
                f"{list(input.shape)} to have {weight.shape[1] * groups} channels, but got "
                f"{channels} channels instead")
    if bias is not None and tuple(bias.shape) != (out_channels,):
        raise RuntimeError(f"Given {'transposed=1, ' if transposed else ''}weight of size "
                           f"{list(weight.shape)}, expected bias to be 1-dimensional with "
                           f"{out_channels} elements, but got bias of size {list(bias.shape)} "
                           "instead")


# ---------------------------------------------------------------------------- max pooling

def _pool_indices(x, kernel, stride, padding, dilation):
    """Each window's maximum, and its position as a flat index into the (H, W) plane."""
    windows = _windows(_pad(x, padding, -np.inf), kernel, stride, dilation)
    n, c, oh, ow, kh, kw = windows.shape
    flat = windows.reshape(n, c, oh, ow, kh * kw)
    best = flat.argmax(axis=-1)
    values = np.take_along_axis(flat, best[..., None], axis=-1)[..., 0]
    row = np.arange(oh)[:, None] * stride[0] + (best // kw) * dilation[0] - padding[0]
    col = np.arange(ow)[None, :] * stride[1] + (best % kw) * dilation[1] - padding[2]
    return values, row * x.shape[3] + col


@primitive("max_pool2d", node="MaxPool2DWithIndicesBackward0", group=OTHER, saves=("x",))
def _max_pool2d(x, kernel, stride, padding, dilation):
    return _pool_indices(x, kernel, stride, padding, dilation)[0]


@_max_pool2d.vjp
def _(ctx, grad, kernel, stride, padding, dilation):
    # The gradient goes to each window's maximum; the positions are recomputed from the input.
    (x,) = ctx.saved
    n, c, h, w = ctx.input_shapes[0]
    _, positions = _pool_indices(x._array, kernel, stride, padding, dilation)
    key = (np.arange(n)[:, None, None, None], np.arange(c)[None, :, None, None], positions)
    return _index_backward(grad, shape=(n, c, h * w), key=key).reshape(n, c, h, w)


def _pool_output_size(size, kernel, stride, pad, dilation, ceil_mode):
    span = dilation * (kernel - 1) + 1
    numerator = size + 2 * pad - span
    out = (-(-numerator // stride) if ceil_mode else numerator // stride) + 1
    if ceil_mode and (out - 1) * stride >= size + pad:  # the last window must start inside
        out -= 1
    return out


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Maximum over each window of (N, C, H, W) or (C, H, W) ``input``; -inf pads the borders."""
    if input.dim() == 3:
        result = max_pool2d(input.unsqueeze(0), kernel_size, stride, padding, dilation, ceil_mode,
                            return_indices)
        return (result[0][0], result[1][0]) if return_indices else result[0]
    if input.dim() != 4:
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    kernel = _pair(kernel_size, "kernel_size")
    stride = kernel if stride is None or stride == [] else _pair(stride, "stride")
    pad, dilation = _pair(padding, "padding"), _pair(dilation, "dilation")
    if any(p > k // 2 for p, k in zip(pad, kernel)):
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                           f"pad={pad[0]}, kernel_size={kernel[0]} and dilation={dilation[0]}")
    out = [_pool_output_size(input.shape[2 + i], kernel[i], stride[i], pad[i], dilation[i],
                             ceil_mode) for i in range(2)]
    if min(out) < 1:
        raise RuntimeError(f"Given input size: ({input.shape[1]}x{input.shape[2]}x"
                           f"{input.shape[3]}). Calculated output size: ({input.shape[1]}x{out[0]}x"
                           f"{out[1]}). Output size is too small")
    # Extra bottom/right padding makes the last (ceil-mode) window fit; it is never the maximum.
    extra = [max(0, (out[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1
                 - (input.shape[2 + i] + 2 * pad[i])) for i in range(2)]
    padding4 = (pad[0], pad[0] + extra[0], pad[1], pad[1] + extra[1])
    geometry = dict(kernel=kernel, stride=stride, padding=padding4, dilation=dilation)
    values = _max_pool2d(input, **geometry)
    if not return_indices:
        return values
    _, positions = _pool_indices(input._array, **geometry)
    return values, Tensor._make(positions.astype(dtypes.int64.numpy))
