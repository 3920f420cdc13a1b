"""Pooling over 1, 2 or 3 spatial dimensions: max and average pooling, adaptive pooling, max
unpooling and power-average (LP) pooling.

Every kernel here is written once for any number of spatial dimensions; PyTorch names its nodes
by rank (``MaxPool2DWithIndicesBackward0``, ``AvgPool3DBackward0``), so each primitive is
registered once per rank, 2 and 3, by a factory. The 1-d forms are the 2-d primitives over a unit
height, as in PyTorch (``SqueezeBackward1`` on top).

* Max pooling takes each window's argmax over the ``-inf``-padded input's strided windows; its
  gradient goes back to those positions (recomputed from the saved input).
* Average pooling sums each window and divides by the count PyTorch divides by; being linear, its
  gradient is a second primitive (the col2im of the spread gradient) whose own gradient is the
  first again.
* Adaptive pooling splits each spatial dimension into ``output_size`` bins as PyTorch does (bin i
  spans [floor(i·n/m), ceil((i+1)·n/m)), neighbours may overlap). The average gathers every bin
  and adds it up element by element, then divides, as ATen's loops do, so its roundings are
  PyTorch's; its gradient adds each input's shares in the same order. The maximum gathers
  every bin (padded to the widest by repeating its last position, which never changes a
  maximum) and takes the argmax; the positions are an integer primitive's output and the
  values a gather at them, whose gradient is a scatter-add back — so the compiler traces it
  like any other op.
* Every gradient is a primitive of its own that takes the input as well (PyTorch's
  ``XxxBackwardBackward0``), so under create_graph it stays connected to the input.
* ``max_unpool`` scatters values to the flat positions max pooling returned; its gradient gathers
  from them.
"""
import functools
import math

import numpy as np

from .. import dtypes
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .conv import _col2im, _in_layout_of, _is_channels_last, _pad, _pair, _single, _windows
from .creation import rand, zeros, zeros_like
from .half_precision import in_float32
from .registry import OTHER, primitive
from .shape import _index, _index_backward, gather

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices",
           "max_pool2d_with_indices", "max_pool3d_with_indices", "avg_pool1d", "avg_pool2d",
           "avg_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
           "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
           "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
           "adaptive_max_pool3d_with_indices", "max_unpool1d", "max_unpool2d", "max_unpool3d",
           "lp_pool1d", "lp_pool2d", "lp_pool3d", "fractional_max_pool2d",
           "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
           "fractional_max_pool3d_with_indices"]

_RANKS = (2, 3)
_COUNT_WORDS = {1: "one", 2: "two", 3: "three"}


# ------------------------------------------------------------------------------- geometry

def _pool_output_size(size, kernel, stride, pad, dilation, ceil_mode):
    span = dilation * (kernel - 1) + 1
    numerator = size + 2 * pad - span
    out = (-(-numerator // stride) if ceil_mode else numerator // stride) + 1
    if ceil_mode and (out - 1) * stride >= size + pad:  # the last window must start inside
        out -= 1
    return out


def _pool_sizes(value, spatial, name, argument, must="must either be", omitted=False):
    """A pooling's size argument as a ``spatial``-tuple: an int, or a sequence of one or
    ``spatial`` ints (ATen's message for anything else)."""
    values = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if len(values) not in (1, spatial):
        either = must + " omitted," if omitted else must
        raise RuntimeError(f"{name}: {argument} {either} a single int, or a tuple of "
                           f"{_COUNT_WORDS[spatial]} ints")
    return tuple(int(v) for v in values) * (spatial // len(values))


def _padding_with_ceil_room(sizes, kernel, stride, pad, dilation, out):
    """(before, after) per dimension, flattened: ``pad`` on both sides, and further after for
    ceil mode's last windows (which never reach past where they start inside)."""
    return tuple(p for n, k, s, q, d, o in zip(sizes, kernel, stride, pad, dilation, out)
                 for p in (q, max(q, (o - 1) * s + d * (k - 1) + 1 - n - q)))


def _check_half_kernel_padding(pad, kernel, dilation):
    """ATen's output-size helper's check: against the kernel's dilated span."""
    for p, k, d in zip(pad, kernel, dilation):
        if p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={d}")


def _check_pool_rank(input, spatial):
    ranks = (spatial + 1, spatial + 2)
    if input.dim() not in ranks:
        raise RuntimeError(f"non-empty {ranks[0]}D or {ranks[1]}D (batch mode) tensor expected "
                           "for input")


def _check_pool_shape(input, kernel, pad, dilation, name, whole_kernel=False):
    """ATen's ``pool2d_shape_check``/``pool3d_shape_check``, after the output-size helper's
    checks: positive kernel and dilation, only the batch dimension empty, (``whole_kernel``,
    3-d averages: a kernel within the unpadded input,) then the padding against the undilated
    kernel."""
    spatial = len(kernel)
    if min(kernel) < 1:
        shown = " ".join(f"k{axis}: {k}" for axis, k in zip("THW"[-spatial:], kernel))
        raise RuntimeError(f"kernel size should be greater than zero, but got {shown}")
    if min(dilation) < 1:
        shown = " ".join(f"dilation{axis}: {d}" for axis, d in zip("THW"[-spatial:], dilation))
        raise RuntimeError(f"dilation should be greater than zero, but got {shown}")
    if 0 in input.shape[-spatial - 1:]:
        if spatial == 3:  # (ATen shows the empty dimension's length, not its index)
            raise RuntimeError(f"{name}(): Expected input's non-batch dimensions to have "
                               f"positive length, but input has a shape of {list(input.shape)} "
                               "and non-batch dimension 0 has length zero!")
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{list(input.shape)}")
    sizes = input.shape[-spatial:]
    if whole_kernel and any(n < k for n, k in zip(sizes, kernel)):
        raise RuntimeError(f"input image (T: {sizes[0]} H: {sizes[1]} W: {sizes[2]}) smaller "
                           f"than kernel size (kT: {kernel[0]} kH: {kernel[1]} kW: "
                           f"{kernel[2]})")
    if any(p > k // 2 for p, k in zip(pad, kernel)):
        if spatial == 3:
            (kt, kh, kw), (pt, ph, pw) = kernel, pad
            shown = f"kT: {kt} kW: {kw} kH: {kh} padT: {pt} padW: {pw} padH: {ph}"
        else:
            (kh, kw), (ph, pw) = kernel, pad
            shown = f"padW = {pw}, padH = {ph}, kW = {kw}, kH = {kh}"
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but "
                           f"got {shown}")


def _lowest(dtype):
    """What pads max pooling's input: below every value of ``dtype``."""
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _one_int(value, name, argument):
    """A 1-d pooling's size argument as its binding reads it: an int or a sequence of one."""
    if isinstance(value, (tuple, list)) and len(value) != 1:
        raise RuntimeError(f"{name}() argument '{argument}' should contain one int (got "
                           f"{len(value)})")
    return _single(value, argument)


def _unit_height(value, name, argument):
    """A 1-d pooling's size argument as the 2-d pooling over a unit height takes it."""
    return (1, _one_int(value, name, argument))


# max_pool1d's own kernel words its size checks differently per argument.
_MAX_POOL1D_SIZE_RULES = {"kernel_size": "an int, list of ints or tuple of ints",
                          "stride": "None, an int, list of ints, or tuple of ints",
                          "padding": "an int, list of ints, or tuple of ints",
                          "dilation": "an int, list of ints or tuple of ints"}


def _max_pool1d_size(value, argument):
    if isinstance(value, (tuple, list)) and len(value) != 1:
        raise RuntimeError(f"max_pool1d() {argument} must be {_MAX_POOL1D_SIZE_RULES[argument]} "
                           f"of size 1 but got size {len(value)}")
    return _single(value, argument)


# ---------------------------------------------------------------------------- max pooling

def _pool_indices(x, kernel, stride, padding, dilation):
    """Each window's maximum over the last ``len(kernel)`` dimensions of ``x`` (any leading
    ones), and its position as a flat index into the spatial volume."""
    spatial = len(kernel)
    lowest = _lowest(x.dtype)
    windows = _windows(_pad(x, padding, lowest), kernel, stride, dilation)
    out = windows.shape[-2 * spatial:-spatial]
    flat = windows.reshape(*windows.shape[:-spatial], math.prod(kernel))
    best = flat.argmax(axis=-1)
    values = np.take_along_axis(flat, best[..., None], axis=-1)[..., 0]
    bottom = values == lowest
    if bottom.any():  # a window of nothing but the lowest value: its first in-bound position
        inside = _windows(_pad(np.ones(x.shape[-spatial:], bool), padding, False), kernel,
                          stride, dilation)  # (*O, *K)
        first = inside.reshape(*out, math.prod(kernel)).argmax(-1)
        best = np.where(bottom, first, best)
    offsets = np.unravel_index(best, kernel)
    sizes = x.shape[-spatial:]
    position = 0
    for axis, (o, s, d, before, size) in enumerate(zip(out, stride, dilation, padding[::2],
                                                       sizes)):
        start = (np.arange(o) * s - before).reshape((o,) + (1,) * (spatial - 1 - axis))
        position = position * size + start + offsets[axis] * d
    return values, position


def _in_2d_layout_of(out, like, spatial):
    """``out`` channels-last when ``like``, a 4-d batch of 2-d planes, is, else contiguous:
    ATen's 2-d average, adaptive and unpooling kernels keep the layout, its 3-d ones do not
    (not even of one unbatched 4-d volume laid out so)."""
    if spatial == 2 and like.ndim == 4 and _is_channels_last(like):
        return _in_layout_of(out, like)
    return np.ascontiguousarray(out)


def _max_pool_primitive(spatial):
    name, node = f"max_pool{spatial}d", f"MaxPool{spatial}DWithIndicesBackward"

    @primitive(name, node=node + "0", group=OTHER, saves=("x",))
    def forward(x, kernel, stride, padding, dilation):
        return _in_layout_of(_pool_indices(x, kernel, stride, padding, dilation)[0], x)

    def maxima(x, kernel, stride, padding, dilation):
        """Each window maximum's place in ``x`` viewed as (planes, volume), as an index key."""
        _, positions = _pool_indices(x, kernel, stride, padding, dilation)
        planes = math.prod(x.shape[:-spatial])
        return (planes, math.prod(x.shape[-spatial:])), (
            np.arange(planes).reshape(-1, *(1,) * spatial),
            positions.reshape(planes, *positions.shape[-spatial:]))

    @primitive(name + "_backward", node=node + "Backward0", group=OTHER, saves=("x",))
    def backward(grad, x, *, kernel, stride, padding, dilation):
        """The gradient goes to each window's maximum, the positions recomputed from the input.
        Takes the input itself, so the node has PyTorch's two edges."""
        flat, key = maxima(x, kernel, stride, padding, dilation)
        planes = grad.reshape(flat[0], *grad.shape[-spatial:])
        return _in_layout_of(_index_backward.forward(planes, shape=flat, key=key).reshape(x.shape),
                             x)

    @forward.vjp
    def _(ctx, grad, **geometry):
        (x,) = ctx.saved
        return backward(grad, x, **geometry)

    @backward.vjp
    def _(ctx, upstream, **geometry):
        """Linear in the gradient: the upstream values at the maxima; zero for the input."""
        (x,) = ctx.saved
        need_grad, need_x = ctx.needs_input_grad
        flat, key = maxima(x._array, **geometry)
        picked = _index(upstream.reshape(flat), key=key) if need_grad else None
        return (None if picked is None else picked.reshape(ctx.input_shapes[0]),
                zeros_like(x) if need_x else None)

    return forward


_MAX_POOLS = {spatial: _max_pool_primitive(spatial) for spatial in _RANKS}


def _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, spatial,
              with_indices=True):
    """Values and indices (None unless ``with_indices``) of max_pool{spatial}d (2 or 3), with
    ATen's checks in its order."""
    name = f"max_pool{spatial}d"
    kernel = _pool_sizes(kernel_size, spatial, name, "kernel_size")
    stride = kernel if stride is None or stride == [] else _pool_sizes(
        stride, spatial, name, "stride", omitted=True)
    pad = _pool_sizes(padding, spatial, name, "padding")
    dilation = _pool_sizes(dilation, spatial, name, "dilation", must="must be either")
    if spatial == 3 and input.dim() == 4 and _is_channels_last(input._array):
        # (ATen's 3-d kernel picks its loop by the layout first, and has none for this one)
        raise RuntimeError("Unsupported memory format. Supports only ChannelsLast3d, Contiguous")
    _check_pool_rank(input, spatial)
    if min(stride) == 0:
        raise RuntimeError("stride should not be zero")
    _check_half_kernel_padding(pad, kernel, dilation)
    _check_pool_shape(input, kernel, pad, dilation,
                      "max_pool3d_with_indices_out_cpu_template" if spatial == 3 else name)
    sizes = input.shape[-spatial:]
    out = [_pool_output_size(*geometry, ceil_mode)
           for geometry in zip(sizes, kernel, stride, pad, dilation)]
    if min(out) < 1:
        channels = input.shape[-spatial - 1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, [channels, *sizes]))}). "
                           f"Calculated output size: ({'x'.join(map(str, [channels, *out]))})"
                           ". Output size is too small")
    if input._array.dtype == np.bool_:
        raise NotImplementedError(f"\"{name}\" not implemented for 'Bool'")
    geometry = dict(kernel=kernel, stride=stride, dilation=dilation,
                    padding=_padding_with_ceil_room(sizes, kernel, stride, pad, dilation, out))
    values = _MAX_POOLS[spatial](input, **geometry)
    if not with_indices:
        return values, None
    _, positions = _pool_indices(input._array, **geometry)
    return values, Tensor._make(_in_layout_of(positions.astype(dtypes.int64.numpy), input._array))


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """Maximum over each window of (N, C, H, W) or (C, H, W) ``input`` (-inf pads the borders),
    and its flat position in the (H, W) plane."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 2)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """max_pool2d_with_indices over (N, C, D, H, W) or (C, D, H, W) ``input``."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 3)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False, return_indices=False):
    """max_pool2d_with_indices over a unit height, as PyTorch computes it."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(input.shape)}")
    stride = kernel_size if stride is None or stride == [] else stride
    values, indices = _max_pool(
        input.unsqueeze(-2), _unit_height(kernel_size, "max_pool1d", "kernel_size"),
        _unit_height(stride, "max_pool1d", "stride"),
        (0, _one_int(padding, "max_pool1d", "padding")),
        _unit_height(dilation, "max_pool1d", "dilation"), ceil_mode, 2)
    return values.squeeze(-2), indices.squeeze(-2)


def _values_or_both(with_indices):
    """The plain form of a ``*_with_indices`` pooling: the values, or both for
    ``return_indices=True``."""
    @functools.wraps(with_indices)
    def pool(*args, **kwargs):
        values, indices = with_indices(*args, **kwargs)
        return (values, indices) if _returns_indices(with_indices, args, kwargs) else values
    pool.__name__ = pool.__qualname__ = with_indices.__name__[:-len("_with_indices")]
    return pool


def _returns_indices(function, args, kwargs):
    position = function.__code__.co_varnames.index("return_indices")
    return bool(args[position] if len(args) > position else kwargs.get("return_indices", False))


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Values only: ATen's own 1-d kernel's checks (no integers), then the 2-d one's path."""
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    if input.dim() not in (2, 3) or 0 in input.shape[-2 if input.dim() == 3 else 0:]:
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(input.shape)}")
    kernel = _max_pool1d_size(kernel_size, "kernel_size")
    step = kernel if stride is None or stride == [] else _max_pool1d_size(stride, "stride")
    pad, spacing = _max_pool1d_size(padding, "padding"), _max_pool1d_size(dilation, "dilation")
    for what, value, smallest in (("kernel_size", kernel, 1), ("stride", step, 1),
                                  ("padding", pad, 0), ("dilation", spacing, 1)):
        if value < smallest:
            condition = "be non-negative" if smallest == 0 else "be greater than zero"
            raise RuntimeError(f"max_pool1d() {what} must {condition}, but got {value}")
        if what == "padding" and pad > kernel // 2:
            raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, "
                               f"but got padding={pad} and kernel_size={kernel}")
    out = _pool_output_size(input.shape[-1], kernel, step, pad, spacing, ceil_mode)
    if out < 1:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    if input._array.dtype.kind not in "f":
        raise NotImplementedError(f'"max_pool1d_impl" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[input._array.dtype.name]}'")
    return _max_pool(input.unsqueeze(-2), (1, kernel), (1, step), (0, pad), (1, spacing),
                     ceil_mode, 2, with_indices=False)[0].squeeze(-2)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    values, indices = _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 2,
                                return_indices)
    return (values, indices) if return_indices else values


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    values, indices = _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 3,
                                return_indices)
    return (values, indices) if return_indices else values


# ------------------------------------------------------------------------ average pooling

def _avg_pool_counts(size, kernel, stride, pad, out, count_include_pad):
    """Along one dimension, what each window's sum is divided by: its extent clipped to the
    padded input, or to the input itself when padding does not count."""
    start = np.arange(out) * stride - pad
    end = np.minimum(start + kernel, size + pad)
    if count_include_pad:
        return end - start
    return np.minimum(end, size) - np.maximum(start, 0)


def _avg_divisor(sizes, out, kernel, stride, padding, count_include_pad, divisor_override,
                 dtype):
    """What each output's window sum is divided by (an array over the output volume, or one
    number)."""
    if divisor_override:
        return dtype.type(divisor_override)
    counts = [_avg_pool_counts(*geometry, count_include_pad)
              for geometry in zip(sizes, kernel, stride, padding[::2], out)]
    return functools.reduce(np.multiply.outer, counts).astype(dtype)


def _avg_pool_primitive(spatial):
    name, node = f"avg_pool{spatial}d", f"AvgPool{spatial}DBackward"

    @primitive(name, node=node + "0", group=OTHER, saves=("x",))
    @in_float32
    def forward(x, *, kernel, stride, padding, count_include_pad, divisor_override):
        windows = _windows(_pad(x, padding), kernel, stride, (1,) * spatial)
        sums = windows.sum(axis=tuple(range(-spatial, 0)))
        integral = x.dtype.kind != "f"  # ATen's int64 kernel divides with truncation
        divisor = _avg_divisor(x.shape[-spatial:], sums.shape[-spatial:], kernel, stride,
                               padding, count_include_pad, divisor_override,
                               np.dtype(np.int64) if integral else x.dtype)
        means = np.trunc(sums / divisor).astype(x.dtype) if integral else sums / divisor
        return _in_2d_layout_of(means, x, spatial)

    @primitive(name + "_backward", node=node + "Backward0", group=OTHER)
    def backward(grad, x, *, kernel, stride, padding, count_include_pad, divisor_override):
        """Each output's gradient spread evenly over its window (col2im of the spread). Takes
        the input itself, not only its shape, so the node has PyTorch's two edges."""
        input_shape = x.shape
        sizes, out = input_shape[-spatial:], grad.shape[-spatial:]
        spread = grad / _avg_divisor(sizes, out, kernel, stride, padding, count_include_pad,
                                     divisor_override, grad.dtype)
        planes = math.prod(grad.shape[:-spatial])
        cols = np.broadcast_to(spread.reshape(1, planes, *(1,) * spatial, *out),
                               (1, planes, *kernel, *out))
        return _in_2d_layout_of(
            _col2im(cols, sizes, stride, padding, (1,) * spatial).reshape(input_shape), x,
            spatial)

    @forward.vjp
    def _(ctx, grad, **geometry):
        (x,) = ctx.saved
        return backward(grad, x, **geometry)

    @backward.vjp
    def _(ctx, grad, **geometry):
        need_x = ctx.needs_input_grad[1]
        zeros = Tensor._make(np.zeros(ctx.input_shapes[1], ctx.input_dtypes[1])) if need_x else None
        return forward(grad, **geometry), zeros

    return forward


_AVG_POOLS = {spatial: _avg_pool_primitive(spatial) for spatial in _RANKS}


def _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
              divisor_override, spatial):
    """avg_pool{spatial}d (2 or 3), with ATen's checks in its order."""
    name = f"avg_pool{spatial}d"
    must = "must be" if spatial == 3 else "must either be"
    kernel = _pool_sizes(kernel_size, spatial, name, "kernel_size", must)
    stride = kernel if stride is None or stride == [] else _pool_sizes(
        stride, spatial, name, "stride", must, omitted=True)
    pad = _pool_sizes(padding, spatial, name, "padding", must)
    if divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    _check_pool_rank(input, spatial)
    if min(stride) == 0:
        raise RuntimeError("stride should not be zero")
    _check_half_kernel_padding(pad, kernel, (1,) * spatial)
    _check_pool_shape(input, kernel, pad, (1,) * spatial, name, whole_kernel=spatial == 3)
    sizes = input.shape[-spatial:]
    out = [_pool_output_size(n, k, s, p, 1, ceil_mode)
           for n, k, s, p in zip(sizes, kernel, stride, pad)]
    if min(out) < 1:
        channels = input.shape[-spatial - 1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, [channels, *sizes]))}). "
                           f"Calculated output size: ({'x'.join(map(str, [channels, *out]))})"
                           ". Output size is too small")
    _check_avg_pool_dtype(input, spatial)
    return _AVG_POOLS[spatial](
        input, kernel=kernel, stride=stride,
        padding=_padding_with_ceil_room(sizes, kernel, stride, pad, (1,) * spatial, out),
        count_include_pad=bool(count_include_pad), divisor_override=divisor_override)


def _check_avg_pool_dtype(input, spatial):
    """ATen averages floating types and int64 only (and in 3-d no float16 on the CPU); its
    error names the kernel it picked."""
    dtype = input._array.dtype
    if (dtype.kind == "f" and not (spatial == 3 and dtype == np.float16)) or dtype == np.int64:
        return
    if spatial == 3:
        kernel = "avg_pool3d_out_frame"
    else:
        kernel = "avg_pool2d_channels_last" if _is_channels_last(input._array) else "avg_pool2d"
    raise NotImplementedError(f'"{kernel}" not implemented for '
                              f"'{dtypes.SCALAR_TYPE_NAMES[dtype.name]}'")


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """The mean of each window of (N, C, H, W) or (C, H, W) ``input``: its sum over the
    zero-padded input divided by the count PyTorch divides each window by."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 2)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """avg_pool2d over (N, C, D, H, W) or (C, D, H, W) ``input``."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 3)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """avg_pool2d over a unit height, as PyTorch computes it."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor "
                           "for argument #1 'self' (while checking arguments for avg_pool1d)")
    stride = kernel_size if stride is None or stride == [] else stride
    return avg_pool2d(input.unsqueeze(-2), _unit_height(kernel_size, "avg_pool1d", "kernel_size"),
                      _unit_height(stride, "avg_pool1d", "stride"),
                      (0, _one_int(padding, "avg_pool1d", "padding")), ceil_mode,
                      count_include_pad).squeeze(-2)


# ----------------------------------------------------------------------- power-average

def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, spatial):
    """``(sum of x**p over each window) ** (1/p)``, as PyTorch computes it: an average pool
    of ``x**p`` times the window's volume (negative sums, from odd powers, clipped to 0); an
    infinite ``p`` is the limit, a max pool of ``|x|`` (or minus one of ``-|x|``)."""
    average, maximum = _LP_POOL_PARTS[spatial]
    kernel = (_one_int(kernel_size, "avg_pool1d", "kernel_size"),) if spatial == 1 else (
        _pool_sizes(kernel_size, spatial, f"avg_pool{spatial}d", "kernel_size"))
    if norm_type == math.inf:
        return maximum(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -math.inf:
        return -maximum(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    stride = kernel_size if stride is None else stride
    out = average(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    scale = kernel_size if spatial == 1 else math.prod(kernel)  # (1-d: PyTorch's, as given)
    return (out.sign() * out.abs().relu()).mul(scale).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


_LP_POOL_PARTS = {1: (avg_pool1d, max_pool1d), 2: (avg_pool2d, max_pool2d),
                  3: (avg_pool3d, max_pool3d)}


# ------------------------------------------------------------------------ adaptive pooling

def _bins(size, bins):
    """Where each adaptive bin starts and (exclusively) ends along a dimension of ``size``."""
    index = np.arange(bins)
    return (index * size) // bins, -((-(index + 1) * size) // bins)


def _bins_holding(size, bins):
    """Along a dimension of ``size``, the range of bins [first, last) that hold each position
    (bins start and end in increasing order, so the bins holding a position are contiguous)."""
    start, end = _bins(size, bins)
    positions = np.arange(size)
    return np.searchsorted(end, positions, "right"), np.searchsorted(start, positions, "right")


def _sums_in_order(a, ranges):
    """Sums over boxes of the last ``len(ranges)`` dimensions of ``a``: box ``o`` spans
    ``[start[o_d], end[o_d])`` along dimension d, for ``ranges[d] = (start, end)``. Each box
    is added up one element after another in row-major order from zero, as ATen's loops add
    it (not pairwise), so the rounding is theirs. Vectorized over the boxes, gathered padded
    with zeros to the widest: adding zero changes no sum."""
    spatial = len(ranges)
    flat, inside = np.zeros((), np.int64), np.ones((), bool)  # (*boxes, *offsets) as axes fill in
    for axis, ((start, end), n) in enumerate(zip(ranges, a.shape[-spatial:])):
        positions = start[:, None] + np.arange((end - start).max(initial=1))
        shape = [1] * (2 * spatial)
        shape[axis], shape[spatial + axis] = positions.shape
        flat = flat * n + np.minimum(positions, n - 1).reshape(shape)
        inside = inside & (positions < end[:, None]).reshape(shape)
    flat, inside = (m.reshape(*m.shape[:spatial], math.prod(m.shape[spatial:]))
                    for m in np.broadcast_arrays(flat, inside))
    gathered = a.reshape(*a.shape[:-spatial], math.prod(a.shape[-spatial:]))[..., flat]
    terms = np.where(inside, gathered, 0).astype(a.dtype, copy=False)
    total = np.zeros(terms.shape[:-1], a.dtype)
    for offset in range(terms.shape[-1]):
        total += terms[..., offset]
    return total


def _bin_widths(sizes, output_size):
    return [end - start for start, end in map(_bins, sizes, output_size)]


def _divided_by_widths(a, widths):
    """``a`` divided by its bins' widths along one dimension after another: ATen's
    ``sum / kh / kw``, two roundings."""
    for axis, width in enumerate(widths):
        shape = [1] * len(widths)
        shape[axis] = len(width)
        a = a / width.astype(a.dtype).reshape(shape)
    return a


# ATen's vectorized loops step over 32 bytes of channels; a channels-last batch's leftover
# channels take the scalar loop.
_VECTOR_BYTES = 32


def _bin_means(sums, widths, channels_last):
    """Each bin's sum over its volume as ATen's kernel divides it. Its channels-last 2-d loop
    divides a whole vector of channels by the volume at once (one rounding), the channels
    left over after the last whole vector one dimension at a time, as the contiguous kernel
    does every channel."""
    means = _divided_by_widths(sums, widths)
    if channels_last:
        vectorized = sums.shape[1] - sums.shape[1] % (_VECTOR_BYTES // sums.dtype.itemsize)
        volumes = functools.reduce(np.multiply.outer, widths).astype(sums.dtype)
        means[:, :vectorized] = sums[:, :vectorized] / volumes
    return means


def _adaptive_avg_primitive(spatial):
    @primitive(f"adaptive_avg_pool{spatial}d", node=f"AdaptiveAvgPool{spatial}DBackward0",
               group=OTHER, saves=("x",))
    @in_float32
    def forward(x, *, output_size):
        sizes = x.shape[-spatial:]
        sums = _sums_in_order(x, list(map(_bins, sizes, output_size)))
        means = _bin_means(sums, _bin_widths(sizes, output_size),
                           spatial == 2 and _is_channels_last(x))
        return _in_2d_layout_of(means, x, spatial)

    @primitive(f"adaptive_avg_pool{spatial}d_backward",
               node=f"AdaptiveAvgPool{spatial}DBackwardBackward0", group=OTHER)
    def backward(grad, x):
        """Each output's gradient over its bin's widths, added into each input position of the
        bin in the order of the outputs, as ATen's loop does. Takes the input itself, not only
        its shape, so the node has PyTorch's two edges."""
        _check_nonempty_grad(grad, f"adaptive_avg_pool{spatial}d_backward")
        sizes, output_size = x.shape[-spatial:], grad.shape[-spatial:]
        shares = _divided_by_widths(grad, _bin_widths(sizes, output_size))
        return _in_2d_layout_of(
            _sums_in_order(shares, list(map(_bins_holding, sizes, output_size))), x, spatial)

    @forward.vjp
    def _(ctx, grad, output_size):
        (x,) = ctx.saved
        return backward(grad, x)

    @backward.vjp
    def _(ctx, upstream):
        need_grad, need_x = ctx.needs_input_grad
        return (forward(upstream, output_size=ctx.input_shapes[0][-spatial:]) if need_grad
                else None,
                zeros(ctx.input_shapes[1], dtype=ctx.input_dtypes[1]) if need_x else None)

    return forward


_ADAPTIVE_AVG_POOLS = {spatial: _adaptive_avg_primitive(spatial) for spatial in _RANKS}


def _output_size(output_size, shape, spatial, name):
    """``output_size`` as a tuple of ``spatial`` ints, None standing for the input's size."""
    if isinstance(output_size, int):
        return (output_size,) * spatial
    if spatial == 1:  # a 1-d pooling's binding takes a tuple of ints only
        _check_int_tuple(output_size, name)
        if len(output_size) != 1:
            raise RuntimeError(f"{name}() argument 'output_size' should contain one int (got "
                               f"{len(output_size)})")
        return tuple(output_size)
    if len(shape) <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    if len(output_size) != spatial:
        if name.startswith("adaptive_max"):
            raise RuntimeError(f"{name}(): internal error: output_size.size() must be {spatial}")
        raise RuntimeError(f"{name}: output_size must be {spatial}")
    return tuple(size if wanted is None else wanted
                 for wanted, size in zip(output_size, shape[-len(output_size):]))


def _check_int_tuple(output_size, name):
    """The binding's ``tuple of ints`` check of a 1-d pooling's ``output_size``."""
    if not isinstance(output_size, (tuple, list)):
        raise TypeError(f"{name}(): argument 'output_size' (position 2) must be tuple of ints, "
                        f"not {type(output_size).__name__}")
    for index, size in enumerate(output_size):
        if not isinstance(size, (int, np.integer)):
            raise TypeError(f"{name}(): argument 'output_size' (position 2) must be tuple of "
                            f"ints, but found element of type {type(size).__name__} at pos "
                            f"{index}")


def _check_output_size(input, output_size, name):
    if min(output_size) < 0:
        if name.startswith("adaptive_avg"):  # ATen's separators, as they are
            shown = ", ".join(map(str, output_size[:2])) + "".join(f",{n}"
                                                                    for n in output_size[2:])
            raise RuntimeError(f"{name}: elements of output_size must be greater than or equal "
                               f"to 0 but received {{{shown}}}")
        shape = [*input.shape[:-len(output_size)], *output_size]
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(output_size)}: "
                           f"{shape}")


def _check_adaptive_input(input, spatial, name, got="got", first=1):
    if input.dim() not in (spatial + 1, spatial + 2):
        raise RuntimeError(f"{name}(): Expected {spatial + 1}D or {spatial + 2}D tensor, but "
                           f"{got} {list(input.shape)}")
    _check_nonempty_from(input, first, name)


def _check_nonempty_from(input, first, name):
    """ATen refuses empty dimensions from ``first`` on: all but the first for most adaptive
    pools (so a batch-less input may have no channels), only the spatial ones for 2-d means."""
    for axis in range(first, input.dim()):
        if input.shape[axis] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {axis} being empty")


def _check_nonempty_grad(grad, name):
    """The adaptive poolings' backward kernels refuse an empty gradient but for its batch."""
    for axis in range(1, grad.ndim):
        if grad.shape[axis] == 0:
            raise RuntimeError(f"{name}(): Expected grad_output to have non-zero size for "
                               f"non-batch dimensions, but grad_output has sizes "
                               f"{list(grad.shape)} with dimension {axis} being empty")


def _check_1d(input, name):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor "
                           f"for argument #1 'self' (while checking arguments for {name})")


def _global_mean(input, spatial):
    """The plain mean ATen takes for a 1x1 output; of a channels-last batch it then restrides
    in place (``as_strided_``) to the strides of a fresh channels-last output."""
    out = input.mean(tuple(range(-spatial, 0)), keepdim=True)
    if input.dim() == spatial + 2 and _is_channels_last(input._array):
        c = out.shape[1]
        out.as_strided_(out.shape, (c, 1) + (c,) * spatial)
    return out


def _adaptive_avg_pool(input, output_size, spatial):
    """Means over adaptive bins of the last ``spatial`` dimensions; an output of ones is a
    plain mean (``MeanBackward1``), as in PyTorch."""
    name = f"adaptive_avg_pool{spatial}d"
    output_size = _output_size(output_size, input.shape, spatial, name)
    _check_output_size(input, output_size, name)
    if output_size == (1,) * spatial:  # (before ATen checks the input's rank)
        return _global_mean(input, spatial)
    _check_adaptive_input(input, spatial, name, first=input.dim() - 2 if spatial == 2 else 1)
    if not input.is_floating_point():  # ATen's kernels are for floating types only
        if spatial == 2 and math.prod(input.shape[:-spatial]) * math.prod(output_size) == 0:
            return zeros((*input.shape[:-spatial], *output_size), dtype=input.dtype)  # (first)
        kernel = f"{name}_cpu" if spatial == 3 else name
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{dtypes.SCALAR_TYPE_NAMES[input._array.dtype.name]}'")
    return _ADAPTIVE_AVG_POOLS[spatial](input, output_size=output_size)


def adaptive_avg_pool2d(input, output_size):
    return _adaptive_avg_pool(input, output_size, 2)


def adaptive_avg_pool3d(input, output_size):
    return _adaptive_avg_pool(input, output_size, 3)


def adaptive_avg_pool1d(input, output_size):
    _check_1d(input, "adaptive_avg_pool1d")
    (length,) = _output_size(output_size, input.shape, 1, "adaptive_avg_pool1d")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, length)).squeeze(-2)


def _bin_positions(size, bins):
    """(bins, widest bin): each bin's positions, the shorter ones repeating their last."""
    start, end = _bins(size, bins)
    width = (end - start).max(initial=1)
    return np.minimum(start[:, None] + np.arange(width), end[:, None] - 1)


def _window_maxima(x, axis_positions):
    """The flat position (into the last ``len(axis_positions)`` dimensions of ``x``) of each
    window's maximum, the first on ties. A window takes, along spatial axis d, the positions
    ``axis_positions[d][..., o, :]`` ((..., O_d, K_d), leading dimensions as ``x``'s or none)."""
    spatial = len(axis_positions)
    sizes = x.shape[-spatial:]
    flat = np.zeros((1,) * (2 * spatial), dtype=np.int64)  # (..., *O, *K) as axes fill in
    for axis, (n, positions) in enumerate(zip(sizes, axis_positions)):
        shape = [1] * (2 * spatial)
        shape[axis], shape[spatial + axis] = positions.shape[-2:]
        flat = flat * n + positions.reshape(*positions.shape[:-2], *shape)
    lead = x.shape[:-spatial]
    flat = np.broadcast_to(flat, (*lead, *flat.shape[-2 * spatial:]))
    flat = flat.reshape(*flat.shape[:-spatial], math.prod(flat.shape[-spatial:]))
    windows = np.take_along_axis(x.reshape(*lead, math.prod(sizes)),
                                 flat.reshape(*lead, math.prod(flat.shape[len(lead):])),
                                 -1).reshape(flat.shape)
    best = windows.argmax(-1)[..., None]
    return np.take_along_axis(flat, best, -1)[..., 0].astype(np.int64)


def _flattened_spatial(a, spatial):
    """``a`` with its last ``spatial`` dimensions as one (sized explicitly: batches may be empty)."""
    return a.reshape(*a.shape[:-spatial], math.prod(a.shape[-spatial:]))


def _values_at_primitive(name, node, spatial, keeps_layout):
    """A primitive taking ``x``'s values at flat ``indices`` into its last ``spatial``
    dimensions: the positions travel as a tensor, so the gradient (added back at them; bins may
    overlap and pick one position twice) is written with tapegrad ops. ``keeps_layout``: the
    results of a channels-last 4-d ``x`` are channels-last (adaptive, not fractional, pooling)."""
    def laid_out(out, x):
        return _in_2d_layout_of(out, x, spatial) if keeps_layout else out

    @primitive(name, node=node, group=OTHER, saves=("x", "indices"),
               nondifferentiable=("indices",))
    def values_at(x, indices):
        picked = np.take_along_axis(_flattened_spatial(x, spatial),
                                    _flattened_spatial(indices, spatial), -1)
        return laid_out(picked.reshape(indices.shape), x)

    @primitive(name + "_backward", node=node[:-1] + "Backward0", group=OTHER,
               saves=("x", "indices"), nondifferentiable=("indices",))
    def backward(grad, x, indices):
        """``grad`` added back at the positions. Takes the input itself, so that under
        create_graph the gradient stays connected to it (with a zero derivative), as in PyTorch."""
        if name.startswith("adaptive"):
            _check_nonempty_grad(grad, name + "_backward")
        batch = x.shape[:-spatial]
        volume = np.zeros((*batch, math.prod(x.shape[-spatial:])), grad.dtype)
        positions = _flattened_spatial(indices, spatial)
        np.add.at(volume, (*np.indices(positions.shape, sparse=True)[:-1], positions),
                  _flattened_spatial(grad, spatial))
        return laid_out(volume.reshape(x.shape), x)

    @values_at.vjp
    def _(ctx, grad):
        x, indices = ctx.saved
        return backward(grad, x, indices), None

    @backward.vjp
    def _(ctx, upstream):
        x, indices = ctx.saved
        need_grad, need_x, _ = ctx.needs_input_grad
        return (values_at(upstream, indices) if need_grad else None,
                zeros_like(x) if need_x else None, None)

    return values_at


def _adaptive_max_primitives(spatial):
    node = f"AdaptiveMaxPool{spatial}DBackward0"

    @primitive(f"adaptive_max_pool{spatial}d_indices", node=node, group=OTHER)
    def indices_of(x, *, output_size):
        """Where each bin's maximum is (integers: recorded by no node, traced by the compiler)."""
        return _in_2d_layout_of(_window_maxima(x, [_bin_positions(n, m) for n, m in
                                                   zip(x.shape[-spatial:], output_size)]), x,
                                spatial)

    return indices_of, _values_at_primitive(f"adaptive_max_pool{spatial}d", node, spatial,
                                            keeps_layout=True)


_ADAPTIVE_MAX_POOLS = {spatial: _adaptive_max_primitives(spatial) for spatial in _RANKS}


def _adaptive_max_pool(input, output_size, spatial):
    """Maxima over adaptive bins of the last ``spatial`` dimensions, and their flat positions
    in the spatial volume, as max pooling returns them."""
    name = f"adaptive_max_pool{spatial}d"
    _check_adaptive_input(input, spatial, name, got="got:")
    output_size = _output_size(output_size, input.shape, spatial, name)
    _check_output_size(input, output_size, name)
    if input._array.dtype.kind not in "f":  # ATen's kernels are for floating types only
        kernel = "adaptive_max_pool3d_cpu" if spatial == 3 else "adaptive_max_pool2d"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{dtypes.SCALAR_TYPE_NAMES[input._array.dtype.name]}'")
    indices_of, values_at = _ADAPTIVE_MAX_POOLS[spatial]
    indices = indices_of(input, output_size=output_size)
    return values_at(input, indices), indices


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max_pool(input, output_size, 2)


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max_pool(input, output_size, 3)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    _check_1d(input, "adaptive_max_pool1d")
    _check_nonempty_from(input, 1, "adaptive_max_pool1d")
    (length,) = _output_size(output_size, input.shape, 1, "adaptive_max_pool1d")
    values, indices = _adaptive_max_pool(input.unsqueeze(-2), (1, length), 2)
    return values.squeeze(-2), indices.squeeze(-2)


adaptive_max_pool1d = _values_or_both(adaptive_max_pool1d_with_indices)
adaptive_max_pool2d = _values_or_both(adaptive_max_pool2d_with_indices)
adaptive_max_pool3d = _values_or_both(adaptive_max_pool3d_with_indices)


# --------------------------------------------------------------------- fractional maxima

def _fractional_starts(samples, size, out, pool):
    """(..., out) window starts along one dimension of ``size`` for each plane's sample in
    [0, 1), as ATen generates them (in the input's precision): ``int((i + u) * alpha) -
    int(u * alpha)``, ``alpha = (size - pool) / (out - 1)``, the last window at the end."""
    last = np.full((*samples.shape, min(out, 1)), size - pool, dtype=np.int64)
    if out <= 1:  # (no window at all for an output size of 0)
        return last
    kind = samples.dtype.type
    alpha = kind(size - pool) / kind(out - 1)
    u = samples[..., None]
    steps = np.arange(out - 1).astype(samples.dtype)
    starts = ((steps + u) * alpha).astype(np.int64) - (u * alpha).astype(np.int64)
    return np.concatenate([starts, last], -1)


def _fractional_primitives(spatial):
    node = f"FractionalMaxPool{spatial}DBackward0"

    @primitive(f"fractional_max_pool{spatial}d_indices", node=node, group=OTHER,
               nondifferentiable=("samples",))
    def indices_of(x, samples, *, kernel, output_size):
        """Where each pseudo-random window's maximum is; ``samples`` (N, C, spatial) places
        the windows of each plane (the first for the last dimension in 2-d, as in ATen)."""
        order = (1, 0) if spatial == 2 else (0, 1, 2)
        positions = [_fractional_starts(samples[..., k], n, m, pool)[..., None] + np.arange(pool)
                     for k, n, m, pool in zip(order, x.shape[-spatial:], output_size, kernel)]
        return _window_maxima(x, positions)

    return indices_of, _values_at_primitive(f"fractional_max_pool{spatial}d", node, spatial,
                                            keeps_layout=False)


_FRACTIONAL_MAX_POOLS = {spatial: _fractional_primitives(spatial) for spatial in _RANKS}


def _fractional_max_pool(input, kernel_size, output_size, output_ratio, samples, spatial):
    """Maxima over windows of ``kernel_size`` placed pseudo-randomly so that the output has
    ``output_size`` (or ``output_ratio`` of the input's size), and their flat positions."""
    name = f"fractional_max_pool{spatial}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if len(output_ratio) > spatial:  # a bare number has no len(), as in PyTorch
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple "
                             "of Ints.")
        output_size = [int(n * r) for n, r in zip(input.shape[-spatial:], output_ratio)]
    sizes = _fractional_sizes(kernel_size, spatial, name, "kernel_size")
    output_size = _fractional_sizes(output_size, spatial, name, "output_size")
    if input.dim() not in (spatial + 1, spatial + 2):
        raise RuntimeError(f"{name}(): Expected {spatial + 1}D or {spatial + 2}D tensor, but got: "
                           f"{list(input.shape)}")
    batched = input if input.dim() == spatial + 2 else input.unsqueeze(0)
    if samples is None:
        samples = rand(batched.shape[0], batched.shape[1], spatial, dtype=input.dtype)
    elif samples.requires_grad:
        raise RuntimeError(f"The function '{name}' is not differentiable with respect to "
                           "argument 'random_samples'. This input cannot have requires_grad "
                           "True.")
    if samples.shape[2:] != (spatial,):
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {spatial}; got "
                           f"{samples.shape[2]}.")
    if samples.shape[0] < batched.shape[0]:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    names = ("height", "width") if spatial == 2 else ("time", "height", "width")
    checks = list(zip(names, input.shape[-spatial:], output_size, sizes))
    if spatial == 3:  # ATen checks the width before the height here
        checks[1:] = checks[:0:-1]
    for dimension, n, m, pool in checks:
        if m + pool - 1 > n - (spatial == 3):  # (ATen's 3-d check is strict: < n)
            where = f"{name}()" if spatial == 2 else f"{name}_out()"
            raise RuntimeError(f"{where}: pool {dimension} {pool} too large relative to input "
                               f"{dimension} {n}")
    indices_of, values_at = _FRACTIONAL_MAX_POOLS[spatial]
    indices = indices_of(batched, samples[:batched.shape[0]], kernel=sizes,
                         output_size=output_size)
    if batched is not input:
        indices = indices.squeeze(0)
    return values_at(input, indices), indices


def _fractional_sizes(value, spatial, name, argument):
    values = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if len(values) not in (1, spatial):
        raise RuntimeError(f"{name}: {argument} must either be a single Int or tuple of Ints")
    return tuple(int(v) for v in values) * (spatial // len(values))


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, _random_samples,
                                2)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio, _random_samples,
                                3)


fractional_max_pool2d = _values_or_both(fractional_max_pool2d_with_indices)
fractional_max_pool3d = _values_or_both(fractional_max_pool3d_with_indices)


# ------------------------------------------------------------------------------ unpooling

def _max_unpool_primitive(spatial):
    @primitive(f"max_unpool{spatial}d", node=f"MaxUnpool{spatial}DBackward0", group=OTHER,
               saves=("indices",), nondifferentiable=("indices",))
    def forward(x, indices, *, output_size):
        batch, volume = x.shape[:-spatial], math.prod(x.shape[-spatial:])
        out = np.zeros((*batch, math.prod(output_size)), dtype=x.dtype)
        if out.shape[-1]:  # (nothing goes into an empty output: no index is looked at)
            np.put_along_axis(out, indices.reshape(*batch, volume), x.reshape(*batch, volume),
                              axis=-1)
        return _in_2d_layout_of(out.reshape(*batch, *output_size), x, spatial)

    @forward.vjp
    def _(ctx, grad, output_size):
        (indices,) = ctx.saved
        shape = ctx.input_shapes[0]
        if indices.numel() and not math.prod(output_size):  # (the forward checked no index)
            raise RuntimeError(f"index {indices.flatten()[0].item()} is out of bounds for "
                               f"dimension {grad.dim() - spatial} with size 0")
        return gather(grad.flatten(-spatial), -1, indices.flatten(-spatial)).reshape(shape), None

    return forward


_MAX_UNPOOLS = {spatial: _max_unpool_primitive(spatial) for spatial in _RANKS}


def _unpool_output_size(input, kernel, stride, padding, output_size):
    """PyTorch's: the size max pooling came from, or ``output_size`` if it is one it could."""
    spatial = len(kernel)
    default = [(n - 1) * s + k - 2 * p for n, k, s, p in zip(input.shape[-spatial:], kernel,
                                                              stride, padding)]
    if output_size is None:
        size = default
    else:
        if len(output_size) == spatial + 2:
            output_size = output_size[2:]
        if len(output_size) != spatial:
            raise ValueError(f"output_size should be a sequence containing {spatial} or "
                             f"{spatial + 2} elements, but it has a length of "
                             f"'{len(output_size)}'")
        for d, (wanted, n, s) in enumerate(zip(output_size, default, stride)):
            if not n - s < wanted < n + s:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between '
                                 f'{n - s} and {n + s})')
        size = output_size
    for d, n in enumerate(size):
        if n < 0:
            raise ValueError("max_unpooling: output_size must contain non-negative spatial "
                             f"dimensions, but got output_size[{d}]={n}")
    return tuple(size)


def _as_tuple(value, spatial, name):
    return (_single(value, name),) if spatial == 1 else _pair(value, name) if spatial == 2 else (
        _pool_sizes(value, spatial, "max_unpool3d", name))


def _unpool(input, indices, output_size):
    """Checks as ATen's max_unpool{2,3}d, then the primitive over the spatial ``output_size``."""
    spatial = len(output_size)
    if input.dim() not in (spatial + 1, spatial + 2):
        raise RuntimeError(f"Input to max_unpooling{spatial}d should be a {spatial + 1}d or "
                           f"{spatial + 2}d Tensor, but got a tensor with {input.dim()} "
                           "dimensions.")
    if indices.dtype != dtypes.int64:
        raise RuntimeError("elements in indices should be type int64" + (
            f" but got: {indices.type()[6:-6]}" if spatial == 2 else ""))
    if indices.shape != input.shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    positions = indices._array
    outside = (positions < 0) | (positions >= math.prod(output_size))
    if outside.any() and math.prod(output_size):  # (ATen puts nothing in an empty output)
        raise RuntimeError(f"Found an invalid max index: {positions[outside].flat[-1]} (output "
                           f"volumes are of size {'x'.join(map(str, output_size))})")
    return _MAX_UNPOOLS[spatial](input, indices, output_size=output_size)


def _max_unpool(input, indices, kernel_size, stride, padding, output_size, spatial):
    kernel = _as_tuple(kernel_size, spatial, "kernel_size")
    stride = kernel if stride is None else _as_tuple(stride, spatial, "stride")
    size = _unpool_output_size(input, kernel, stride, _as_tuple(padding, spatial, "padding"),
                               output_size)
    return _unpool(input, indices, size)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool2d(return_indices=True)``: each value put back at its index,
    zeros elsewhere."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool3d(return_indices=True)``."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """``max_unpool2d`` over a unit width, as PyTorch computes it."""
    kernel = _as_tuple(kernel_size, 1, "kernel_size")
    stride = kernel if stride is None else _as_tuple(stride, 1, "stride")
    (length,) = _unpool_output_size(input, kernel, stride, _as_tuple(padding, 1, "padding"),
                                    output_size)
    return _unpool(input.unsqueeze(-1), indices.unsqueeze(-1), (length, 1)).squeeze(-1)
