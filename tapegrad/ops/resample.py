"""Resampling primitives: ``interpolate``'s upsampling kernels, ``affine_grid`` and
``grid_sample``, as PyTorch's ``upsample_*``, ``affine_grid_generator`` and ``grid_sampler_2d``/``3d``.

Interpolation is separable: along each spatial axis, output position ``i`` is a weighted sum of a
few input positions (one for nearest, two for linear, four for cubic). The forward gathers those
taps; the backward is the transposed map, a (small, dense) ``(out, in)`` matrix per axis. Both
are linear in their tensor, so each is the other's vjp and the pair is closed under
differentiation. The index arithmetic runs in the input's float type, as ATen's does, so
the picked taps and weights agree with PyTorch's to the last bit; uint8 images take ATen's
fixed-point path (int16 weights, rounding between the axis passes).

``grid_sample`` gathers, per output point, the product of each axis's taps: one (nearest), two
(bilinear, trilinear for 5-D inputs) or four (bicubic) per axis. Its backward is
one primitive giving both gradients — scattered into the input's pixels, and the taps' value
differences for the grid — with no derivative of its own, as in PyTorch.
"""
import functools
import itertools
import math

import numpy as np

from ..dtypes import SCALAR_TYPE_NAMES
from ..memory_format import laid_out_as
from ..tensor import Tensor
from .registry import OTHER, primitive

__all__ = ["upsample", "affine_grid", "grid_sample"]

_CUBIC_A = -0.75
_MODE_NODES = {"nearest": "Nearest", "nearest-exact": "NearestExact", "linear": "Linear",
               "bicubic": "Bicubic"}
_LINEAR_NODES = {1: "Linear", 2: "Bilinear", 3: "Trilinear"}


# ------------------------------------------------------------------------------ interpolation

def _source_scale(in_size, out_size, scale, align_corners, dtype):
    """ATen's ``area_pixel_compute_scale``: input pixels per output pixel."""
    if align_corners:
        return dtype((in_size - 1) / (out_size - 1)) if out_size > 1 else dtype(0)
    return dtype(1.0 / scale) if scale is not None and scale > 0 else dtype(in_size / out_size)


@functools.lru_cache(maxsize=256)
def _axis_taps(mode, in_size, out_size, scale, align_corners, dtype_name):
    """(out, k) input indices and (out, k) weights: output ``i`` is ``sum_k w[i,k] x[taps[i,k]]``
    along one axis."""
    dtype = np.dtype(dtype_name).type
    dst = np.arange(out_size, dtype=dtype)
    if mode in ("nearest", "nearest-exact"):
        step = np.float32(1.0 / scale if scale is not None and scale > 0 else in_size / out_size)
        offset = np.float32(0.5 if mode == "nearest-exact" else 0.0)
        if mode == "nearest" and out_size == in_size:
            src = np.arange(out_size)
        elif mode == "nearest" and out_size == 2 * in_size:
            src = np.arange(out_size) >> 1
        else:
            src = np.floor((dst.astype(np.float32) + offset) * step).astype(np.int64)
        taps = np.minimum(src, in_size - 1)[:, None]
        return taps, np.ones((out_size, 1), dtype)
    step = _source_scale(in_size, out_size, scale, align_corners, dtype)
    if mode in _AA_FILTERS:
        return _antialias_taps(mode, in_size, out_size, step, dtype)
    real = step * dst if align_corners else _fused_multiply_add(step, dst + dtype(0.5),
                                                                 dtype(-0.5))
    if mode == "linear":
        real = np.maximum(real, dtype(0))
        first = real.astype(np.int64)
        fraction = np.clip(real - first, 0, 1).astype(dtype)
        second = first + (first < in_size - 1)
        return np.stack([first, second], 1), np.stack([1 - fraction, fraction], 1)
    first = np.floor(real).astype(np.int64)
    t = (real - first).astype(dtype)
    taps = np.clip(first[:, None] + np.arange(-1, 3), 0, in_size - 1)
    return taps, np.stack([_cubic_far(t + 1), _cubic_near(t), _cubic_near(1 - t),
                           _cubic_far(2 - t)], 1).astype(dtype)


def _fused_multiply_add(a, b, c):
    """``a * b + c`` rounded once, as ATen's kernels (compiled with FMA contraction) compute it:
    exactly for float32, through float64; other types keep numpy's two roundings."""
    if np.result_type(a, b, c) != np.float32:
        return a * b + c
    return (np.asarray(a, np.float64) * np.asarray(b, np.float64) + c).astype(np.float32)


def _antialias_taps(mode, in_size, out_size, step, dtype):
    """ATen's ``_compute_weights_aa``: when downsampling, the filter is stretched by the scale
    (support ``taps/2 * scale``), each output averaging every input it covers; the weights are
    normalised to sum to one. The float arithmetic follows ATen's, C++ promotions included."""
    filter, width = _AA_FILTERS[mode]
    support = dtype(width * 0.5 * float(step) if step >= 1 else width * 0.5)
    invscale = dtype(1.0 / float(step)) if step >= 1 else dtype(1)
    span = math.ceil(support) * 2 + 1
    center = (float(step) * (np.arange(out_size) + 0.5)).astype(dtype)
    first = np.maximum(((center - support).astype(np.float64) + 0.5).astype(np.int64), 0)
    last = ((center + support).astype(np.float64) + 0.5).astype(np.int64)
    count = np.clip(np.minimum(last, in_size) - first, 0, span)
    offsets = np.arange(span)
    taps = first[:, None] + offsets
    distance = ((taps.astype(dtype) - center[:, None]).astype(np.float64) + 0.5) * float(invscale)
    weights = np.where(offsets < count[:, None], filter(np.abs(distance.astype(dtype))), 0)
    weights = weights.astype(dtype)
    total = np.cumsum(weights, axis=1, dtype=dtype)[:, -1:]  # summed in order, as ATen
    weights = np.where(total != 0, weights / np.where(total != 0, total, 1), weights)
    return np.minimum(taps, in_size - 1), weights.astype(dtype)


def _linear_filter(x):
    return np.where(x < 1, 1 - x, 0)


def _cubic_filter(x):
    """Keys' cubic with a = -0.5 (PIL's), ATen's antialiasing bicubic filter."""
    return np.where(x < 1, _cubic_near(x, -0.5), np.where(x < 2, _cubic_far(x, -0.5), 0))


_AA_FILTERS = {"linear_aa": (_linear_filter, 2), "bicubic_aa": (_cubic_filter, 4)}


def _cubic_near(x, a=_CUBIC_A):
    return ((a + 2) * x - (a + 3)) * x * x + 1


def _cubic_far(x, a=_CUBIC_A):
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a


def _axis_matrix(mode, in_size, out_size, scale, align_corners, dtype_name, half_1d=False):
    """The ``(out, in)`` matrix of one axis's map (repeated taps add up)."""
    taps, weights = _kernel_taps(mode, in_size, out_size, scale, align_corners, dtype_name,
                                 half_1d)
    matrix = np.zeros((out_size, in_size), weights.dtype)
    np.add.at(matrix, (np.arange(out_size)[:, None], taps), weights)
    return matrix


def _resample_forward(x, *, mode, plan, align_corners):
    """Resample each spatial axis in turn; ``plan`` holds (in_size, out_size, scale) per axis."""
    if x.dtype == np.uint8 and mode not in ("nearest", "nearest-exact"):
        return laid_out_as(_resample_uint8(x, mode, plan, align_corners), x)
    source, x = x, _in_opmath(x)
    # ATen's kernels resample the last axis first (its innermost loop)
    for axis, (in_size, out_size, scale) in reversed(list(enumerate(plan, x.ndim - len(plan)))):
        taps, weights = _kernel_taps(mode, in_size, out_size, scale, align_corners,
                                     x.dtype.name, _half_1d(source, plan))
        shape = [1] * x.ndim
        shape[axis] = out_size
        terms = [(np.take(x, taps[:, k], axis), weights[:, k].reshape(shape))
                 for k in range(taps.shape[1])]
        x = _weighted_sum(terms, mode)
    return laid_out_as(x.astype(source.dtype, copy=False), source)  # channels_last stays


def _weighted_sum(terms, mode):
    """``sum(value * weight)``; a linear tap pair rounded as ATen's kernel computes it,
    ``fma(v0, w0, v1 * w1)``."""
    if mode == "linear":
        (v0, w0), (v1, w1) = terms
        return _fused_multiply_add(v0, w0, v1 * w1)
    return sum(value * weight for value, weight in terms)


def _resample_uint8(x, mode, plan, align_corners):
    """ATen's uint8 kernel: separable passes, the last axis first, each with weights in int16
    fixed point, rounded and clamped to 0..255 before the next pass."""
    axes = list(enumerate(plan, x.ndim - len(plan)))
    for axis, (in_size, out_size, scale) in reversed(axes):
        if in_size == out_size and scale is None:
            continue  # ATen skips an axis whose size does not change
        taps, weights = _axis_taps(mode, in_size, out_size, scale, align_corners, "float64")
        precision = _fixed_point_precision(weights)
        fixed = np.where(weights < 0, weights * (1 << precision) - 0.5,
                         weights * (1 << precision) + 0.5).astype(np.int64)
        shape = [1] * x.ndim
        shape[axis] = out_size
        total = sum(np.take(x, taps[:, k], axis).astype(np.int64) * fixed[:, k].reshape(shape)
                    for k in range(taps.shape[1]))
        x = np.clip((total + (1 << (precision - 1))) >> precision, 0, 255).astype(np.uint8)
    return x


def _fixed_point_precision(weights):
    """The most fraction bits that keep twice the largest weight below 2**15 (int16 weights)."""
    largest = float(np.max(weights))
    precision = 0
    while precision < 22 and int(0.5 + largest * (1 << (precision + 1))) < (1 << 15):
        precision += 1
    return precision


_INTEGER_KERNELS = {"nearest": "compute_indices_weights_nearest",
                    "nearest-exact": "compute_indices_weights_nearest",
                    "linear": "compute_indices_weights_linear",
                    "bicubic": "compute_indices_weights_cubic",
                    "linear_aa": "compute_index_ranges_weights",
                    "bicubic_aa": "compute_index_ranges_weights"}


def _check_dtype(input, mode, spatial):
    """Floating inputs resample in every mode; uint8 images in the nearest modes and the 2-D
    (bi)linear and bicubic ones; other dtypes not at all (ATen's kernel names the dtype)."""
    if input.is_floating_point():
        return
    dtype = input._array.dtype
    if dtype == np.uint8 and (mode in ("nearest", "nearest-exact") or spatial == 2):
        return
    kernel = _INTEGER_KERNELS[mode]
    if spatial == 2 and mode in ("nearest", "nearest-exact", "linear"):
        kernel = f"upsample_{'bilinear' if mode == 'linear' else 'nearest'}2d_channels_last"
    raise NotImplementedError(f'"{kernel}" not implemented for '
                              f"'{SCALAR_TYPE_NAMES[dtype.name]}'")


def _resample_transposed(grad, *, mode, plan, align_corners):
    """The transpose of ``_resample_forward``: each output's gradient back to its taps."""
    source, grad = grad, _in_opmath(grad)
    for axis, (in_size, out_size, scale) in enumerate(plan, grad.ndim - len(plan)):
        matrix = _axis_matrix(mode, in_size, out_size, scale, align_corners, grad.dtype.name,
                              _half_1d(source, plan))
        grad = np.moveaxis(np.moveaxis(grad, axis, -1) @ matrix, -1, axis)
    return laid_out_as(grad.astype(source.dtype, copy=False), source)


def _half_1d(x, plan):
    """Whether ATen's 1-d half kernel computes this resampling (its 2-d one does not)."""
    return x.dtype == np.float16 and len(plan) == 1


def _kernel_taps(mode, in_size, out_size, scale, align_corners, dtype_name, half_1d):
    """``_axis_taps``, with a 1-d half kernel's linear weights where it applies."""
    taps, weights = _axis_taps(mode, in_size, out_size, scale, align_corners, dtype_name)
    if half_1d and mode == "linear":
        weights = _half_linear_weights(weights)
    return taps, weights


def _half_linear_weights(weights):
    """(1 - t, t) as ATen's 1-d linear kernel has them for half: t, from a float32 coordinate,
    rounded to half and 1 - t taken in half (its 2-d kernel keeps float32 weights); the
    weighted sum is in float32 either way."""
    near = weights[:, 1].astype(np.float16)
    return np.stack([np.float16(1) - near, near], 1).astype(np.float32)


def _in_opmath(x):
    """``x`` in the type ATen's kernels compute a half tensor in (float32, coordinates
    included), rounding only the result back."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _resampling_pair(mode, spatial):
    """The forward primitive and its transpose, named and recorded as PyTorch's."""
    base, antialias = mode.removesuffix("_aa"), mode.endswith("_aa")
    kind = _LINEAR_NODES[spatial] if base == "linear" else _MODE_NODES[base]
    name = f"upsample_{kind.lower()}{spatial}d"
    node = f"Upsample{kind}{spatial}D"
    if antialias:
        name, node = f"_{name}_aa", node + "Aa"
    forward = primitive(name, node=f"{node}Backward0", group=OTHER)(_resample_forward)
    backward = primitive(name + "_backward", node=f"{node}BackwardBackward0",
                         group=OTHER)(_resample_transposed)
    forward.vjp(lambda ctx, grad, **params: backward(grad, **params))
    backward.vjp(lambda ctx, grad, **params: forward(grad, **params))
    return forward


_RESAMPLERS = {(mode, spatial): _resampling_pair(mode, spatial)
               for mode in ("nearest", "nearest-exact", "linear") for spatial in (1, 2, 3)}
_RESAMPLERS.update({(mode, 2): _resampling_pair(mode, 2)
                    for mode in ("bicubic", "linear_aa", "bicubic_aa")})


def upsample(input, mode, output_size, scales, align_corners):
    """Resample the trailing ``len(output_size)`` axes of ``input`` to ``output_size``
    (``scales``: the user's scale factors, or Nones, which set the source positions)."""
    plan = tuple((int(n), int(m), None if s is None else float(s))
                 for n, m, s in zip(input.shape[2:], output_size, scales))
    _check_dtype(input, mode, len(plan))
    if min(min(n, m) for n, m, _ in plan) <= 0:
        names = "DHW"[-len(plan):]
        sizes = [", ".join(f"{name}: {step[k]}" for name, step in zip(names, plan)) for k in (0, 1)]
        joiner = " and " if len(plan) == 1 else " "  # ATen's 1-D message says "and"
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"({sizes[0]}){joiner}output ({sizes[1]})")
    return _RESAMPLERS[mode, len(plan)](input, mode=mode, plan=plan,
                                        align_corners=bool(align_corners))


# ------------------------------------------------------------------------------- affine grids

def _base_grid(spatial, align_corners, dtype):
    """(D*H*W, k+1) rows ``(x, y[, z], 1)`` of the normalised pixel centres (corners if
    aligned) of a grid of ``spatial`` sizes, x varying fastest."""
    def axis(n):
        if n <= 1:
            return np.zeros(n)  # ATen's linspace_from_neg_one: a unit axis sits at the centre
        points = np.linspace(-1, 1, n, dtype=np.float64)
        return points if align_corners else points * (n - 1) / n
    coords = np.meshgrid(*(axis(n) for n in spatial), indexing="ij")
    columns = [c.ravel() for c in reversed(coords)] + [np.ones(math.prod(spatial))]
    return np.stack(columns, 1).astype(dtype)


@primitive("affine_grid_generator", node="AffineGridGeneratorBackward0", group=OTHER)
def _affine_grid(theta, *, size, align_corners):
    n, _, *spatial = size
    base = _base_grid(spatial, align_corners, theta.dtype)
    return (base @ theta.transpose(0, 2, 1)).reshape(n, *spatial, len(spatial))


@_affine_grid.vjp
def _(ctx, grad, size, align_corners):
    n, _, *spatial = size
    base = Tensor._make(_base_grid(spatial, align_corners, ctx.input_dtypes[0]))
    return grad.reshape(n, math.prod(spatial), len(spatial)).transpose(1, 2).matmul(base)


def affine_grid(theta, size, align_corners):
    """(N, *spatial, k) sampling positions: the base grid of ``size`` moved by each k x (k+1)
    ``theta`` (k = 2 or 3)."""
    if theta.shape[0] != size[0]:  # ATen's batched matmul of the base grids by the thetas
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{size[0]}, {theta.shape[2]}] but got: "
                           f"[{theta.shape[0]}, {theta.shape[2]}].")
    return _affine_grid(theta, size=tuple(int(s) for s in size), align_corners=align_corners)


# ------------------------------------------------------------------------------ grid sampling

def _reflect(coord, twice_low, twice_high):
    """ATen's ``reflect_coordinates`` and the derivative's sign."""
    if twice_low == twice_high:
        return np.zeros_like(coord), np.zeros_like(coord)
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    shifted = coord - low
    sign = np.where(shifted < 0, -1, 1).astype(coord.dtype)
    distance = np.abs(shifted)
    extra = np.fmod(distance, span)
    even = np.floor(distance / span) % 2 == 0
    return (np.where(even, extra + low, span - extra + low),
            np.where(even, sign, -sign).astype(coord.dtype))


def _source_coords(coord, size, padding_mode, align_corners):
    """Pixel coordinates of normalised ``coord`` after padding, and d(pixel)/d(coord)."""
    scale = (size - 1) / 2 if align_corners else size / 2
    pixel = ((coord + 1) * (size - 1) / 2 if align_corners else ((coord + 1) * size - 1) / 2)
    slope = np.full_like(coord, scale)
    if padding_mode == "reflection":
        pixel, sign = (_reflect(pixel, 0, 2 * (size - 1)) if align_corners else
                       _reflect(pixel, -1, 2 * size - 1))
        slope = slope * sign
    if padding_mode in ("border", "reflection"):
        inside = (pixel > 0) & (pixel < size - 1)
        pixel = np.clip(pixel, 0, size - 1)
        slope = slope * inside
    return pixel, slope


def _grid_axis_taps(pixel, mode, size, padding_mode, align_corners):
    """One axis's taps: (index, weight, d weight / d pixel) per tap, arrays over the grid points.

    Nearest takes one tap, linear two, cubic four (ATen's coefficients, A = -0.75). Cubic
    sampling pads each tap's index rather than the coordinate, as ATen's ``get_value_bounded``."""
    if mode == "nearest":
        return [(np.rint(pixel).astype(np.int64), np.ones_like(pixel), None)]
    first = np.floor(pixel)
    t = pixel - first
    first = first.astype(np.int64)
    if mode == "bilinear":
        return [(first, 1 - t, -np.ones_like(t)), (first + 1, t, np.ones_like(t))]
    weights = (_cubic_far(t + 1), _cubic_near(t), _cubic_near(1 - t), _cubic_far(2 - t))
    slopes = (_cubic_far_slope(t + 1), _cubic_near_slope(t), -_cubic_near_slope(1 - t),
              -_cubic_far_slope(2 - t))
    return [(_padded_index(first + k - 1, size, padding_mode, align_corners), weight, slope)
            for k, (weight, slope) in enumerate(zip(weights, slopes))]


def _cubic_near_slope(x):
    return (3 * (_CUBIC_A + 2) * x - 2 * (_CUBIC_A + 3)) * x


def _cubic_far_slope(x):
    return (3 * _CUBIC_A * x - 10 * _CUBIC_A) * x + 8 * _CUBIC_A


def _padded_index(index, size, padding_mode, align_corners):
    """An integer tap position after ``padding_mode`` (ATen's ``compute_coordinates``)."""
    if padding_mode == "zeros":
        return index
    position = index.astype(np.float64)
    if padding_mode == "reflection":
        position = (_reflect(position, 0, 2 * (size - 1)) if align_corners else
                    _reflect(position, -1, 2 * size - 1))[0]
    return np.clip(position, 0, size - 1).astype(np.int64)


def _sampling_taps(input_shape, grid, mode, padding_mode, align_corners):
    """Per tap (the product of every axis's taps): flat pixel positions (0 where outside),
    weights (0 where outside), the weight's derivative along each axis (None for nearest,
    whose gradient for the grid is zero) and the in-bounds mask; and d(pixel)/d(grid) per axis.

    The grid's last dimension lists coordinates x, y (, z): the spatial axes last to first."""
    sizes = input_shape[2:]
    per_axis, slopes = [], []
    for axis, size in enumerate(sizes):
        coord = grid[..., len(sizes) - 1 - axis]
        pixel, slope = _source_coords(coord, size, "zeros" if mode == "bicubic" else padding_mode,
                                      align_corners)
        per_axis.append(_grid_axis_taps(pixel, mode, size, padding_mode, align_corners))
        slopes.append(slope)
    taps = []
    for combination in itertools.product(*per_axis):
        inside, flat, weight = True, 0, 1
        for (index, axis_weight, _), size in zip(combination, sizes):
            inside = inside & (index >= 0) & (index < size)
            flat = flat * size + np.clip(index, 0, size - 1)
            weight = weight * axis_weight
        dweights = None if mode == "nearest" else [
            functools.reduce(np.multiply, [w if b != a else slope
                                           for b, (_, w, slope) in enumerate(combination)])
            for a in range(len(sizes))]
        taps.append((np.where(inside, flat, 0), weight * inside, dweights, inside))
    return taps, slopes


def _gathered(x, flat):
    """(N, C, *out): ``x`` (N, C, *spatial) at flat spatial positions ``flat`` (N, *out)."""
    n, c = x.shape[:2]
    rows = x.reshape(n, c, -1)
    return np.take_along_axis(rows, flat.reshape(n, 1, -1), 2).reshape(n, c, *flat.shape[1:])


def _grid_sampler_forward(x, grid, *, mode, padding_mode, align_corners):
    taps, _ = _sampling_taps(x.shape, grid, mode, padding_mode, align_corners)
    out = sum(_gathered(x, flat) * weight[:, None] for flat, weight, *_ in taps)
    return out.astype(x.dtype, copy=False)


def _grid_sampler_backward(grad, x, grid, *, mode, padding_mode, align_corners):
    """Both gradients in one pass over the taps: scattered into the input's pixels, and the
    taps' value differences (with the coordinates' slopes) for the grid."""
    n, c, *sizes = x.shape
    pixels = math.prod(sizes)
    taps, slopes = _sampling_taps(x.shape, grid, mode, padding_mode, align_corners)
    grad_x = np.zeros((c, n * pixels), x.dtype)
    grad_grid = np.zeros(grid.shape, x.dtype)
    batch_offset = (np.arange(n) * pixels).reshape(n, *[1] * (grid.ndim - 2))
    channels_last = np.moveaxis(grad, 1, 0).reshape(c, -1)
    for flat, weight, dweights, inside in taps:
        np.add.at(grad_x, (slice(None), (flat + batch_offset).ravel()),
                  channels_last * weight.ravel())
        if dweights is not None:
            value_grad = (grad * _gathered(x, flat)).sum(1) * inside
            for axis, (dweight, slope) in enumerate(zip(dweights, slopes)):
                grad_grid[..., len(sizes) - 1 - axis] += value_grad * dweight * slope
    grad_x = np.moveaxis(grad_x.reshape(c, n, *sizes), 0, 1)
    return np.ascontiguousarray(grad_x), grad_grid


# One pair of primitives per spatial rank, under PyTorch's names; the code is rank-generic.
_grid_sample_2d = primitive("grid_sampler_2d", node="GridSampler2DBackward0", group=OTHER,
                            saves=("x", "grid"))(_grid_sampler_forward)
_grid_sample_3d = primitive("grid_sampler_3d", node="GridSampler3DBackward0", group=OTHER,
                            saves=("x", "grid"))(_grid_sampler_forward)
_grid_sample_2d_backward = primitive("grid_sampler_2d_backward", node="NotImplemented",
                                     group=OTHER, n_outputs=None)(_grid_sampler_backward)
_grid_sample_3d_backward = primitive("grid_sampler_3d_backward", node="NotImplemented",
                                     group=OTHER, n_outputs=None)(_grid_sampler_backward)
_BACKWARDS = {_grid_sample_2d: _grid_sample_2d_backward, _grid_sample_3d: _grid_sample_3d_backward}


@_grid_sample_2d.vjp
@_grid_sample_3d.vjp
def _(ctx, grad, **params):
    x, grid = ctx.saved
    return _BACKWARDS[ctx.primitive](grad, x, grid, **params)


@_grid_sample_2d_backward.vjp
@_grid_sample_3d_backward.vjp
def _(ctx, grads, **params):
    """PyTorch has no derivative for ``grid_sampler_2d_backward`` (3d) either."""
    raise RuntimeError(f"derivative for aten::{ctx.primitive.name} is not implemented")


def grid_sample(input, grid, mode, padding_mode, align_corners):
    """Values of ``input`` (N, C, H, W) or (N, C, D, H, W) at the normalised positions ``grid``
    (N, Ho, Wo, 2) or (N, Do, Ho, Wo, 3)."""
    sample = _grid_sample_2d if input._array.ndim == 4 else _grid_sample_3d
    return sample(input, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners)
