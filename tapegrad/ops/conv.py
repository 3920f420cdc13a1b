"""Convolution (plain and transposed) over 1, 2 or 3 spatial dimensions as one primitive,
computed by im2col on strided views.

``sliding_window_view`` gives every receptive field of the padded input as a view (no copy); one
reshape gathers them into a matrix (im2col) and one batched matmul per call does the arithmetic.
Nothing here depends on the number of spatial dimensions: the windows, the matrices and col2im
are written for any.

A convolution is linear in its input and in its weight, so its backward needs exactly two more
primitives: ``convolution_input_grad`` (col2im of ``grad @ W``) and ``convolution_weight_grad``
(``grad.T @ cols``). Their own rules are the same three operations again, so the set is closed
under differentiation and higher derivatives work.

A transposed convolution is the input gradient of a plain one (``grad @ W``, col2im'd onto the
larger volume), so, as in PyTorch, it is the same ``convolution`` primitive with
``transposed=True`` and its rules are the same three operations with roles exchanged.

Geometry travels as parameters: ``stride``, ``dilation`` and ``output_padding`` with one entry
per spatial dimension, ``padding`` as (before, after) per dimension, flattened — asymmetric for
``padding="same"`` with an even kernel.

A float16 convolution (and its gradients) is computed in float32 and rounded once, as ATen's CPU
kernels accumulate it.
"""
import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .. import _runtime
from ..memory_format import channels_last as _CHANNELS_LAST, channels_last_3d as _CHANNELS_LAST_3D
from ..memory_format import contiguous_format as _CONTIGUOUS, in_format_strides, suggested
from .._warnings import warn_at_caller
from .activation import require_floating
from .half_precision import in_float32
from .padding import constant_pad_nd
from .registry import OTHER, primitive

__all__ = ["conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
           "conv_transpose3d"]


# ------------------------------------------------------------------------------- geometry

def _pair(value, name):
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, (int, np.integer)) for v in pair):
        raise ValueError(f"{name} must be an int or a pair of ints, got {value!r}")
    return tuple(int(v) for v in pair)


def _single(value, name):
    """A 1-d layer's size argument: an int or a sequence of one."""
    return _pair(value[0] if isinstance(value, (tuple, list)) and len(value) == 1 else value,
                 name)[0]


def _ntuple(value, n, name):
    """A size argument of an n-d layer as an n-tuple of ints (an int stands for all n)."""
    if n == 1:
        return (_single(value, name),)
    if n == 2:
        return _pair(value, name)
    values = (value,) * n if isinstance(value, int) else tuple(value)
    if len(values) != n or not all(isinstance(v, (int, np.integer)) for v in values):
        raise ValueError(f"{name} must be an int or a tuple of {n} ints, got {value!r}")
    return tuple(int(v) for v in values)


def _spatial_axes(a, spatial):
    return tuple(range(a.ndim - spatial, a.ndim))


def _windows(padded, kernel, stride, dilation):
    """(N, C, *O, *K): every receptive field of ``padded`` (N, C, *S), as a view."""
    span = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    view = sliding_window_view(padded, span, axis=_spatial_axes(padded, len(kernel)))
    return view[(Ellipsis, *(slice(None, None, s) for s in stride), *(slice(None, None, d)
                                                                      for d in dilation))]


def _pad(a, padding, value=0.0):
    """``a`` (N, C, *S) padded by ``padding``, (before, after) per spatial dimension, flattened."""
    if not any(padding):
        return a
    pairs = tuple(zip(padding[::2], padding[1::2]))
    return np.pad(a, ((0, 0),) * (a.ndim - len(pairs)) + pairs, constant_values=value)


def _im2col(x, kernel, stride, padding, dilation, groups):
    """(G, N*prod(O), C/G*prod(K)) patches, and the output's spatial size O."""
    windows = _windows(_pad(x, padding), kernel, stride, dilation)
    spatial = len(kernel)
    n, c = windows.shape[:2]
    out = windows.shape[2:2 + spatial]
    grouped = windows.reshape(n, groups, c // groups, *windows.shape[2:])
    order = (1, 0, *range(3, 3 + spatial), 2, *range(3 + spatial, 3 + 2 * spatial))
    patch = c // groups * math.prod(kernel)  # explicit: an empty batch leaves -1 ambiguous
    return grouped.transpose(order).reshape(groups, n * math.prod(out), patch), out


def _grad_as_rows(grad, groups):
    """(N, O, *OS) as (G, N*prod(OS), O/G): the layout ``cols @ W.T`` produces."""
    n, o, *size = grad.shape
    order = (1, 0, *range(3, 3 + len(size)), 2)
    return grad.reshape(n, groups, o // groups, *size).transpose(order).reshape(
        groups, n * math.prod(size), o // groups)


def _rows_as_output(rows, n, size, channels_last=False):
    """The inverse of ``_grad_as_rows``: (G, N*prod(OS), O/G) as a contiguous (N, O, *OS), or
    as (N, O, *OS) strided channels-last (free when there is one group)."""
    groups, _, per_group = rows.shape
    spatial = len(size)
    if channels_last:
        out = rows.reshape(groups, n, *size, per_group).transpose(1, *range(2, 2 + spatial), 0,
                                                                 2 + spatial)
        out = np.ascontiguousarray(out).reshape(n, *size, groups * per_group)
        return out.transpose(0, 1 + spatial, *range(1, 1 + spatial))
    order = (1, 0, 2 + spatial, *range(2, 2 + spatial))
    out = rows.reshape(groups, n, *size, per_group).transpose(order)
    return np.ascontiguousarray(out).reshape(n, groups * per_group, *size)


def _is_channels_last(a):
    """Whether (N, C, *S) ``a`` (2 or 3 spatial dimensions) is laid out channels-last, as
    PyTorch's ``suggest_memory_format`` reads its strides."""
    return suggested(a) is not _CONTIGUOUS


def _channels_last_if(wanted, out):
    """``out`` laid out channels-last when ``wanted`` (with the strides of ATen's fresh
    output, size-1 dims included), else as it is."""
    if not wanted or out.ndim not in (4, 5):
        return out
    return in_format_strides(out, _CHANNELS_LAST if out.ndim == 4 else _CHANNELS_LAST_3D)


def _in_layout_of(out, like):
    """``out`` laid out channels-last when ``like`` is (pooling keeps its input's layout)."""
    return _channels_last_if(_is_channels_last(like), out)


# --------------------------------------------------------------------------- convolution

@primitive("convolution", node="ConvolutionBackward0", group=OTHER, saves=("x", "w"),
           saves_for={"x": ("w",), "w": ("x",)})
@in_float32
def _convolution(x, w, b=None, *, stride, padding, dilation, groups, transposed=False,
                 output_padding=None, channels_last=False):
    """``channels_last``: ATen's memory format for the output and both gradients, chosen when
    the input or the weight is channels-last."""
    if transposed:
        out = _channels_last_if(channels_last, _adjoint(
            x, w, _transposed_size(x.shape[2:], w.shape[2:], stride, padding, dilation,
                                   output_padding), stride, padding, dilation, groups))
    else:
        cols, size = _im2col(x, w.shape[2:], stride, padding, dilation, groups)
        o = w.shape[0]
        rows = cols @ w.reshape(groups, o // groups, -1).transpose(0, 2, 1)  # (G, N*P, O/G)
        out = _rows_as_output(rows, x.shape[0], size, channels_last)
    if b is not None:
        out += b.reshape(1, -1, *(1,) * (out.ndim - 2))
    return out


def _transposed_size(size, kernel, stride, padding, dilation, output_padding):
    """The spatial size a transposed convolution produces from an input of spatial ``size``."""
    return tuple((n - 1) * s - before - after + d * (k - 1) + 1 + extra
                 for n, k, s, d, extra, before, after in zip(
                     size, kernel, stride, dilation, output_padding, padding[::2], padding[1::2]))


@_convolution.vjp
def _(ctx, grad, stride, padding, dilation, groups, transposed=False, output_padding=None,
      channels_last=False):
    x, w = ctx.saved
    geometry = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
    needs = ctx.needs_input_grad
    if transposed:
        # The adjoint of a transposed convolution is the plain one; an output padding of a
        # stride or more gives it extra windows at the far end, which belong to no input pixel.
        extra = tuple(p // s for p, s in zip(output_padding, stride))
        grads = (
            _far_end_cropped(_convolution(grad, w, channels_last=channels_last, **geometry),
                             extra) if needs[0] else None,
            _convolution_weight_grad(_far_end_padded(x, extra), grad,
                                     weight_shape=ctx.input_shapes[1],
                                     channels_last=channels_last, **geometry)
            if needs[1] else None,
        )
    else:
        grads = (
            _convolution_input_grad(grad, w, input_shape=ctx.input_shapes[0],
                                    channels_last=channels_last, **geometry)
            if needs[0] else None,
            _convolution_weight_grad(grad, x, weight_shape=ctx.input_shapes[1],
                                     channels_last=channels_last, **geometry)
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
@in_float32
def _convolution_input_grad(grad, w, *, input_shape, stride, padding, dilation, groups,
                            channels_last=False):
    """The input's gradient: ``grad @ W`` scattered back onto the receptive fields (col2im),
    channels-last when the forward's input or weight was (ATen's choice of memory format)."""
    return _channels_last_if(channels_last,
                             _adjoint(grad, w, input_shape[2:], stride, padding, dilation, groups))


def _adjoint(grad, w, size, stride, padding, dilation, groups):
    """The convolution's adjoint in its input, onto a volume of spatial ``size``: ``grad @ W``
    per group, each row added back onto the receptive field it came from."""
    n, o, *out = grad.shape
    _, c_per_group, *kernel = w.shape
    spatial = len(kernel)
    patch = c_per_group * math.prod(kernel)
    cols = _grad_as_rows(grad, groups) @ w.reshape(groups, o // groups, patch)
    cols = cols.reshape(groups, n, *out, c_per_group, *kernel)
    order = (1, 0, 2 + spatial, *range(3 + spatial, 3 + 2 * spatial), *range(2, 2 + spatial))
    return _col2im(cols.transpose(order).reshape(n, groups * c_per_group, *kernel, *out), size,
                   stride, padding, dilation)


def _col2im(cols, size, stride, padding, dilation):
    """The adjoint of ``_windows``: (N, C, *K, *O) values summed onto the positions of the
    spatial-``size`` volume they were taken from (what falls into the padding is dropped)."""
    spatial = len(size)
    n, c = cols.shape[:2]
    kernel, out = cols.shape[2:2 + spatial], cols.shape[2 + spatial:]
    before, after = padding[::2], padding[1::2]
    padded = np.zeros((n, c, *(m + b + a for m, b, a in zip(size, before, after))),
                      dtype=cols.dtype)
    for offsets in itertools.product(*map(range, kernel)):
        target = tuple(slice(i * d, i * d + s * (m - 1) + 1, s)
                       for i, d, s, m in zip(offsets, dilation, stride, out))
        padded[(Ellipsis, *target)] += cols[(slice(None), slice(None), *offsets)]
    inside = padded[(Ellipsis, *(slice(b, b + m) for b, m in zip(before, size)))]
    return np.ascontiguousarray(inside)  # (ATen's results are fresh, contiguous tensors)


@_convolution_input_grad.vjp
def _(ctx, upstream, input_shape, channels_last=False, **geometry):
    grad, w = ctx.saved
    need_grad, need_w = ctx.needs_input_grad
    return (_convolution(upstream, w, **geometry) if need_grad else None,
            _convolution_weight_grad(grad, upstream, weight_shape=ctx.input_shapes[1], **geometry)
            if need_w else None)


@primitive("convolution_weight_grad", node="ConvolutionBackwardBackward0", group=OTHER,
           saves=("grad", "x"))
@in_float32
def _convolution_weight_grad(grad, x, *, weight_shape, stride, padding, dilation, groups,
                             channels_last=False):
    """The weight's gradient: ``grad.T @ cols``, per group, channels-last as the forward's
    output when ``channels_last``."""
    cols, _ = _im2col(x, weight_shape[2:], stride, padding, dilation, groups)
    per_group = _grad_as_rows(grad, groups).transpose(0, 2, 1) @ cols
    return _channels_last_if(channels_last, per_group.reshape(weight_shape))


@_convolution_weight_grad.vjp
def _(ctx, upstream, weight_shape, channels_last=False, **geometry):
    grad, x = ctx.saved
    need_grad, need_x = ctx.needs_input_grad
    return (_convolution(x, upstream, **geometry) if need_grad else None,
            _convolution_input_grad(grad, upstream, input_shape=ctx.input_shapes[1], **geometry)
            if need_x else None)


# ------------------------------------------------------------------------------ functions

def _conv_padding(padding, kernel, dilation, stride):
    """``padding`` as (before, after) per spatial dimension, flattened."""
    if padding == "valid":
        return (0, 0) * len(kernel)
    if padding == "same":
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        totals = [d * (k - 1) for k, d in zip(kernel, dilation)]
        if any(total % 2 for total in totals):
            warn_at_caller("Using padding='same' with even kernel lengths and odd dilation may "
                           "require a zero-padded copy of the input be created")
        return tuple(p for total in totals for p in (total // 2, total - total // 2))
    if isinstance(padding, str):
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    return tuple(p for p in padding for _ in range(2))


def _conv_param(value, spatial, kernel_dims, name):
    """A size argument as ATen's convolution takes it: conv{spatial}d's binding makes an int
    ``spatial`` copies, then one value stands for every one of the weight's kernel dimensions."""
    values = [value] * spatial if isinstance(value, (int, np.integer)) else list(value)
    if len(values) == 1:
        values *= kernel_dims
    if len(values) != kernel_dims:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of "
                           f"{kernel_dims} values to match the convolution dimensions, but got "
                           f"{name}={values}")
    return tuple(int(v) for v in values)


def _layouts(input, weight, groups, stride, dilation, output_padding=None):
    """The memory-format parameter of ``_convolution``: ATen lays a convolution's output and
    gradients out channels-last when the input or the weight is, and its backend keeps that
    layout: every 2-d one does, but of the 3-d ones only oneDNN (``Slow3d`` and
    ``SlowTranspose3d`` make contiguous results)."""
    wanted = _is_channels_last(input._array) or _is_channels_last(weight._array)
    if wanted and input.dim() == 5:
        wanted = _uses_mkldnn(input, weight, groups, stride, dilation, output_padding)
    return dict(channels_last=wanted)


def _check_input_rank(input, spatial, name):
    if input.dim() not in (spatial + 1, spatial + 2):
        raise RuntimeError(f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) "
                           f"input to {name}, but got input of size: {list(input.shape)}")


def _convolve(input, weight, bias, stride, padding, dilation, groups, spatial):
    """conv{spatial}d: PyTorch's checks, in its order, then the primitive."""
    _check_input_rank(input, spatial, f"conv{spatial}d")
    if input.dim() == spatial + 1:
        return _convolve(input.unsqueeze(0), weight, bias, stride, padding, dilation, groups,
                         spatial).squeeze(0)
    _check_weight_and_groups(weight, groups)
    kernel_dims = weight.dim() - 2
    stride = _conv_param(stride, spatial, kernel_dims, "stride")
    if not isinstance(padding, str):
        padding = _conv_param(padding, spatial, kernel_dims, "padding")
    dilation = _conv_param(dilation, spatial, kernel_dims, "dilation")
    kernel = tuple(weight.shape[2:])
    if isinstance(padding, str):  # ATen's string-padding path checks this first
        _check_weight_rank(input, weight, spaced=False)
    if isinstance(padding, str):  # that path adds a bias of any floating type, cast
        bias = None if bias is None else bias.to(input.dtype)
    padding = _conv_padding(padding, kernel, dilation, stride)
    _check_bias_dtype(input, bias)
    _check_geometry(stride, padding, dilation)
    _check_shapes(input, weight, bias, groups)
    spans = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    padded = [n + before + after for n, before, after in zip(input.shape[2:], padding[::2],
                                                            padding[1::2])]
    if any(p < s for p, s in zip(padded, spans)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
            f"Kernel size: ({' x '.join(map(str, spans))}). Kernel size can't be greater than "
            "actual input size")
    weight = _checked_by_backend(input, weight, groups, stride, dilation, spatial)
    inputs = (input, weight) if bias is None else (input, weight, bias)
    return _convolution(*inputs, stride=stride, padding=padding, dilation=dilation, groups=groups,
                        **_layouts(input, weight, groups, stride, dilation))


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-D cross-correlation of (N, C, L) or (C, L) ``input`` with (O, C/groups, K)."""
    return _convolve(input, weight, bias, stride, padding, dilation, groups, spatial=1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-D cross-correlation of (N, C, H, W) or (C, H, W) ``input`` with (O, C/groups, KH, KW)."""
    return _convolve(input, weight, bias, stride, padding, dilation, groups, spatial=2)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-D cross-correlation of (N, C, D, H, W) or (C, D, H, W) ``input`` with
    (O, C/groups, KD, KH, KW)."""
    return _convolve(input, weight, bias, stride, padding, dilation, groups, spatial=3)


def _check_ints(name, key, value, position):
    """The binding's check of a ``tuple of ints`` argument's elements (worded as for a
    positional argument, the way the layers pass it)."""
    if isinstance(value, (tuple, list)):
        for index, element in enumerate(value):
            if not isinstance(element, (int, np.integer)) or isinstance(element, bool):
                raise TypeError(f"{name}(): argument '{key}' (position {position}) must be tuple "
                                f"of ints, but found element of type {type(element).__name__} "
                                f"at pos {index}")


def _convolve_transposed(input, weight, bias, stride, padding, output_padding, groups, dilation,
                         spatial):
    """conv_transpose{spatial}d: PyTorch's checks, in its order, then the primitive."""
    name = f"conv_transpose{spatial}d"
    if isinstance(padding, str):  # a transposed convolution has no "same" or "valid"
        raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
    _check_input_rank(input, spatial, name)
    if input.dim() == spatial + 1:
        return _convolve_transposed(input.unsqueeze(0), weight, bias, stride, padding,
                                    output_padding, groups, dilation, spatial).squeeze(0)
    for key, value, position in (("stride", stride, 4), ("padding", padding, 5),
                                 ("output_padding", output_padding, 6), ("dilation", dilation, 8)):
        _check_ints(name, key, value, position)
    _check_weight_and_groups(weight, groups)
    kernel_dims = weight.dim() - 2
    stride, padding, dilation, output_padding = (
        _conv_param(value, spatial, kernel_dims, key) for value, key in (
            (stride, "stride"), (padding, "padding"), (dilation, "dilation"),
            (output_padding, "output_padding")))
    padding = _conv_padding(padding, weight.shape[2:], dilation, stride)
    _check_geometry(stride, padding, dilation, output_padding)
    _check_shapes(input, weight, bias, groups, transposed=True)
    if input.numel() and min(dilation) > 0 and any(  # (a zero dilation: the backend's words)
            extra >= s and extra >= d for extra, s, d in zip(output_padding, stride, dilation)):
        shown = _as_shown(spatial, output_padding=output_padding, stride=stride,
                          dilation=dilation)
        raise RuntimeError("output padding must be smaller than either stride or dilation, but "
                           f"got {' '.join(f'{k}: {v}' for k, v in shown)}")
    weight = _checked_by_backend(input, weight, groups, stride, dilation, spatial,
                                 transposed=True, output_padding=output_padding)
    sizes = tuple(input.shape[2:])
    out = _transposed_size(sizes, weight.shape[2:], stride, padding, dilation, output_padding)
    if min(out) < 1:
        _check_transposed_output(input, weight, groups, stride, dilation, output_padding,
                                 sizes, out)
    inputs = (input, weight) if bias is None else (input, weight, bias.to(input.dtype))
    return _convolution(*inputs, stride=stride, padding=padding, dilation=dilation, groups=groups,
                        transposed=True, output_padding=output_padding,
                        **_layouts(input, weight, groups, stride, dilation, output_padding))


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transpose of conv1d for (N, C, L) or (C, L) ``input`` and (C, O/groups, K)."""
    return _convolve_transposed(input, weight, bias, stride, padding, output_padding, groups,
                                dilation, spatial=1)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transpose of conv2d for (N, C, H, W) or (C, H, W) ``input`` and (C, O/groups, KH, KW)
    ``weight``: each input pixel stamps the kernel, scaled, onto the output."""
    return _convolve_transposed(input, weight, bias, stride, padding, output_padding, groups,
                                dilation, spatial=2)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """The transpose of conv3d for (N, C, D, H, W) or (C, D, H, W) ``input`` and
    (C, O/groups, KD, KH, KW) ``weight``."""
    return _convolve_transposed(input, weight, bias, stride, padding, output_padding, groups,
                                dilation, spatial=3)


def _check_transposed_output(input, weight, groups, stride, dilation, output_padding, sizes,
                             out):
    """An output with no positions: oneDNN makes an empty result of one without any and fails
    to describe one of negative size; the native kernels refuse both (a 1-d convolution shown
    as the 2-d one of unit height it runs as)."""
    if _uses_mkldnn(input, weight, groups, stride, dilation, output_padding):
        if min(out) < 0:
            # (on oneDNN, the layout _layouts asks for is simply the operands')
            channels_last = _is_channels_last(input._array) or _is_channels_last(weight._array)
            raise RuntimeError(_negative_output_message(out) if channels_last else
                               "could not construct a memory descriptor using a format tag")
        return
    if len(sizes) == 1:
        sizes, out = (1, *sizes), (1, *out)
    raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, sizes))}). "
                       f"Calculated output size per channel: ({' x '.join(map(str, out))}). "
                       "Output size is too small")


def _negative_output_message(out):
    """How oneDNN fails on a channels-last output of a negative spatial size (measured on
    PyTorch 2.13, whatever the batch and channels): a zero before the first negative size lets
    the output be allocated and its strides are refused; else a size other than 1 overflows
    the allocation's element count; else the format tag is refused."""
    first = next(i for i, n in enumerate(out) if n < 0)
    if 0 in out[:first]:
        return "could not construct a memory descriptor using strides"
    if any(n >= 0 and n != 1 for n in out):
        return "numel: integer multiplication overflow"
    return "could not construct a memory descriptor using a format tag"


_DIMENSION_NAMES = ("depth", "height", "width")


def _as_shown(spatial, **values):
    """``name_depth: v`` pairs as ATen's messages list them: a 1-d convolution runs as a 2-d one
    over a unit height (stride and dilation 1, no output padding), which they show."""
    unit = {"stride": 1, "dilation": 1, "output_padding": 0}
    dims = max(spatial, 2)
    return [(f"{key}_{dim}", value)
            for key, sizes in values.items()
            for dim, value in zip(_DIMENSION_NAMES[-dims:],
                                  (unit[key],) * (dims - spatial) + tuple(sizes))]


def _check_geometry(stride, padding, dilation, output_padding=(0,)):
    """The signs of the size arguments, checked before any shape (a zero dilation passes
    here: the backend rejects it, in its own words, see ``_check_zero_dilation``)."""
    if min(padding) < 0:
        raise RuntimeError("negative padding is not supported")
    if min(output_padding) < 0:
        raise RuntimeError("negative output_padding is not supported")
    if min(stride) < 1:
        raise RuntimeError("non-positive stride is not supported")
    if min(dilation) < 0:
        raise RuntimeError("dilation should be greater than zero")


def _check_zero_dilation(dilation, spatial, mkldnn, transposed):
    """A zero dilation as the backend ATen picked rejects it."""
    if min(dilation) > 0:
        return
    if mkldnn:
        if transposed:
            raise RuntimeError("could not create a primitive descriptor for the deconvolution "
                               "forward propagation primitive. Run workload with environment "
                               "variable ONEDNN_VERBOSE=all to get additional diagnostic "
                               "information.")
        raise RuntimeError("non-positive dilation is not supported")
    if transposed:
        shown = ", ".join(f"{k}: {v}" for k, v in _as_shown(spatial, dilation=dilation))
        raise RuntimeError(f"dilation should be greater than zero, but got {shown}")
    shown = list(dilation) if spatial > 1 else [1, *dilation]
    raise RuntimeError(f"dilation should be greater than zero, but got {shown}")


# The element types as ATen's convolution messages name them (C++ type names).
_CPP_TYPE_NAMES = {"float64": "double", "float32": "float", "float16": "c10::Half",
                   "int64": "long int", "int32": "int", "int16": "short int",
                   "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _uses_mkldnn(input, weight, groups, stride, dilation, output_padding=None):
    """Whether ATen runs this convolution on oneDNN, whose dtype-mismatch message differs from
    the native kernels': never for a transposed one with an output padding of a stride or more,
    always for half, for float32 by ``use_mkldnn``'s size heuristic (a 1-d convolution counts as
    a 2-d one of unit height; of a 3-d one it reads the depth and height)."""
    if output_padding is not None and any(p >= s for p, s in zip(output_padding, stride)):
        return False
    kind = input._array.dtype
    if kind == np.float16:
        return True
    if kind != np.float32:
        return False
    n, c, *size = input.shape
    height, width = ([1] + list(weight.shape[2:]))[-2:]
    worth_it = (any(s != 1 for s in stride) or any(d != 1 for d in dilation) or n >= 16
                or width != 1 or height != 1 or _runtime.get_num_threads() > 1)
    not_tiny = (groups > 1 or (width > 3 and height > 3) or n > 1
                or n * c * math.prod(size[:2]) > 20480)
    return worth_it and not_tiny


def _check_bias_dtype(input, bias):
    """A convolution's bias must match the input (a transposed one's is cast), checked before
    anything else about the shapes."""
    if bias is not None and bias.dtype != input.dtype:
        raise RuntimeError(f"Input type ({_CPP_TYPE_NAMES[input.dtype.name]}) and bias type "
                           f"({_CPP_TYPE_NAMES[bias.dtype.name]}) should be the same")


def _checked_by_backend(input, weight, groups, stride, dilation, spatial, transposed=False,
                        output_padding=None):
    """``weight`` once the backend's checks pass. An empty input takes ATen's empty backend,
    which checks no dtypes: its result has the input's dtype. (It passes a zero dilation too,
    which the primitive cannot stride by: that is still refused.)"""
    if input.numel() == 0 and min(dilation) > 0:
        return weight.to(input.dtype)
    _check_backend(input, weight, groups, stride, dilation, spatial, transposed, output_padding)
    return weight


def _check_backend(input, weight, groups, stride, dilation, spatial, transposed=False,
                   output_padding=None):
    """The checks of the backend ATen picks, after every shape check: oneDNN checks the
    dtypes before a zero dilation, the native kernels after."""
    mkldnn = _uses_mkldnn(input, weight, groups, stride, dilation, output_padding)
    checks = [lambda: _check_dtypes(input, weight, transposed, spatial, mkldnn),
              lambda: _check_zero_dilation(dilation, spatial, mkldnn, transposed)]
    for check in checks if mkldnn else reversed(checks):
        check()


def _check_dtypes(input, weight, transposed, spatial, mkldnn):
    """Bool inputs (and, transposed, integers but int64) have no kernel; then the weight must
    match the input, worded as the chosen backend words it."""
    kind = input._array.dtype
    if kind == np.bool_ or (transposed and kind.kind in "iu" and kind != np.int64):
        volume = spatial == 3
        require_floating(input, ("slow_conv_transpose3d_out_cpu" if volume else
                                 "slow_conv_transpose2d_out_cpu") if transposed else
                         "compute_columns3d" if volume else "slow_conv2d_cpu")
    if weight.dtype != input.dtype:
        if mkldnn:
            raise RuntimeError(f"Input type ({input.type()}) and weight type ({weight.type()}) "
                               "should be the same or input should be a MKLDNN tensor and weight "
                               "is a dense tensor")
        raise RuntimeError(f"expected scalar type {input.type()[6:-6]} but found "
                           f"{weight.type()[6:-6]}")


def _check_weight_and_groups(weight, groups):
    """The first checks of ATen's convolution, before it reads any size argument."""
    if weight.dim() < 3:
        raise RuntimeError("weight should have at least three dimensions")
    if groups < 1:
        raise RuntimeError("non-positive groups is not supported")


def _check_weight_rank(input, weight, spaced=True):
    """``spaced``: the message's space before the weight's sizes, which ATen's string-padding
    path leaves out."""
    if weight.dim() != input.dim():
        raise RuntimeError(f"Expected {weight.dim()}-dimensional input for {weight.dim()}-"
                           f"dimensional weight{' ' if spaced else ''}{list(weight.shape)}, but "
                           f"got {input.dim()}-dimensional input of size {list(input.shape)} "
                           "instead")


def _check_shapes(input, weight, bias, groups, transposed=False):
    """ATen's ``check_shape_forward``: ranks, groups, channels, the bias's size."""
    _check_weight_rank(input, weight)
    channels = input.shape[1]
    if weight.shape[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at "
                           f"dimension 0, but got weight of size {list(weight.shape)} instead")
    if weight.shape[0] % groups:  # (PyTorch's message has the doubled brackets)
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by "
                           f"{groups} at dimension 0, but got weight of size "
                           f"[{list(weight.shape)}] instead")
    if transposed:
        out_channels = weight.shape[1] * groups
        if weight.shape[0] != channels:
            raise RuntimeError(
                f"Given transposed=1, weight of size {list(weight.shape)}, expected input"
                f"{list(input.shape)} to have {weight.shape[0]} channels, but got {channels} "
                "channels instead")
    else:
        out_channels = weight.shape[0]
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
