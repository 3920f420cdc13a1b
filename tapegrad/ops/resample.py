"""Resampling primitives: ``interpolate``'s upsampling kernels, ``affine_grid`` and
``grid_sample``, as PyTorch's ``upsample_*``, ``affine_grid_generator`` and ``grid_sampler_2d``/``3d``.

Interpolation is separable: along each spatial axis, output position ``i`` is a weighted sum of a
few input positions (one for nearest, two for linear, four for cubic). The forward gathers those
taps; the backward is the transposed map, scattering each output's gradient into its taps. Both
are linear in their tensor, so each is the other's vjp and the pair is closed under
differentiation. The index arithmetic runs in the input's float type, as ATen's does, so
the picked taps and weights agree with PyTorch's to the last bit; uint8 images take ATen's
fixed-point path (int16 weights, rounding between the axis passes).

Float32 results are PyTorch's bit for bit: each kernel's choice (ATen picks between a generic
separable kernel and a channels-last one by sizes, layout and thread count), its order of
accumulation, and its roundings are followed, including where its compiled code fuses a
multiply and an add into one rounding (``_fused_multiply_add``; the AVX-512 build, as here).

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
from .._runtime import get_num_threads
from ..memory_format import channels_last, channels_last_3d, is_in, laid_out_as, suggested
from ..tensor import Tensor
from .registry import OTHER, primitive

__all__ = ["upsample", "affine_grid", "grid_sample"]

_CUBIC_A = -0.75
_VECTOR_BYTES = 64  # PyTorch's CPU kernels run on AVX-512 here: 16 floats per vector
_MODE_NODES = {"nearest": "Nearest", "nearest-exact": "NearestExact", "linear": "Linear",
               "bicubic": "Bicubic", "lanczos": "Lanczos"}
_LINEAR_NODES = {1: "Linear", 2: "Bilinear", 3: "Trilinear"}


# ------------------------------------------------------------------------------ interpolation

def _source_scale(in_size, out_size, scale, align_corners, dtype):
    """ATen's ``area_pixel_compute_scale``: input pixels per output pixel."""
    if align_corners:
        return dtype((in_size - 1) / (out_size - 1)) if out_size > 1 else dtype(0)
    return dtype(1.0 / scale) if scale is not None and scale > 0 else dtype(in_size / out_size)


@functools.lru_cache(maxsize=256)
def _axis_taps(mode, in_size, out_size, scale, align_corners, dtype_name, fused=True):
    """(out, k) input indices and (out, k) weights: output ``i`` is ``sum_k w[i,k] x[taps[i,k]]``
    along one axis. ``fused``: the arithmetic of ATen's vectorised kernels, compiled with FMA
    contraction (otherwise its portable code's, one rounding per operation)."""
    dtype = np.dtype(dtype_name).type
    dst = np.arange(out_size, dtype=dtype)
    if mode in ("nearest", "nearest-exact"):
        step = np.float32(1.0 / scale if scale is not None and scale > 0 else in_size / out_size)
        offset = np.float32(0.5 if mode == "nearest-exact" else 0.0)
        src = np.floor((dst.astype(np.float32) + offset) * step).astype(np.int64)
        return np.minimum(src, in_size - 1)[:, None], np.ones((out_size, 1), dtype)
    if out_size == in_size and mode == "linear":  # ATen's compute_source_index_and_lambda
        same = np.arange(out_size)
        return np.stack([same, same], 1), np.stack([np.ones(out_size, dtype),
                                                    np.zeros(out_size, dtype)], 1)
    step = _source_scale(in_size, out_size, scale, align_corners, dtype)
    if mode in _AA_FILTERS:
        return _antialias_taps(mode, in_size, out_size, step, dtype)
    multiply_add = _fused_multiply_add if fused else _multiply_add
    real = step * dst if align_corners else multiply_add(step, dst + dtype(0.5), dtype(-0.5))
    if mode == "linear":
        real = np.maximum(real, dtype(0))
        first = real.astype(np.int64)
        fraction = np.clip(real - first, 0, 1).astype(dtype)
        second = first + (first < in_size - 1)
        return np.stack([first, second], 1), np.stack([1 - fraction, fraction], 1)
    first = np.minimum(np.floor(real).astype(np.int64), in_size - 1)  # guard_index_and_lambda
    t = np.clip(real - first.astype(dtype), dtype(0), dtype(1)).astype(dtype)
    taps = np.clip(first[:, None] + np.arange(-1, 3), 0, in_size - 1)
    return taps, _upsample_cubic_coefficients(t, multiply_add)


def _upsample_cubic_coefficients(t, multiply_add):
    """ATen's ``get_cubic_upsample_coefficients`` for the four taps at fraction ``t``, rounded
    as its compiled kernel rounds them: each polynomial's first two Horner steps by
    ``multiply_add`` (fused in the vectorised kernels), its last not; the last tap's argument
    is ``(1 - t) + 1``."""
    a = t.dtype.type(_CUBIC_A)
    one = t.dtype.type(1)

    def near(x):
        return multiply_add(a + 2, x, -(a + 3)) * x * x + one

    def far(x):
        return multiply_add(multiply_add(a, x, -5 * a), x, 8 * a) * x - 4 * a

    rest = one - t
    return np.stack([far(t + one), near(t), near(rest), far(rest + one)], 1).astype(t.dtype)


def _multiply_add(a, b, c):
    return a * b + c


def _fused_multiply_add(a, b, c):
    """``a * b + c`` rounded once, as ATen's kernels (compiled with FMA contraction) compute it:
    exactly for float32, through float64; other types keep numpy's two roundings."""
    if np.result_type(a, b, c) != np.float32:
        return a * b + c
    return (np.asarray(a, np.float64) * np.asarray(b, np.float64) + c).astype(np.float32)


def _antialias_window(mode, in_size, out_size, step, dtype):
    """Per output: the filter's centre, its first input and the count of inputs it covers
    (ATen's xmin, xsize), the filter's ``invscale``, and the windows' common span."""
    width = _AA_FILTERS[mode][1]
    support = dtype(width * 0.5 * float(step) if step >= 1 else width * 0.5)
    invscale = dtype(1.0 / float(step)) if step >= 1 else dtype(1)
    span = math.ceil(support) * 2 + 1
    center = (float(step) * (np.arange(out_size) + 0.5)).astype(dtype)
    first = np.maximum(((center - support).astype(np.float64) + 0.5).astype(np.int64), 0)
    last = ((center + support).astype(np.float64) + 0.5).astype(np.int64)
    count = np.clip(np.minimum(last, in_size) - first, 0, span)
    return center, first, count, invscale, span


@functools.lru_cache(maxsize=256)
def _antialias_counts(mode, in_size, out_size, scale, align_corners, dtype_name):
    """How many inputs each output of an antialiasing axis sums (0 past them)."""
    dtype = np.dtype(dtype_name).type
    step = _source_scale(in_size, out_size, scale, align_corners, dtype)
    return _antialias_window(mode, in_size, out_size, step, dtype)[2]


def _antialias_taps(mode, in_size, out_size, step, dtype):
    """ATen's ``_compute_weights_aa``: when downsampling, the filter is stretched by the scale
    (support ``taps/2 * scale``), each output averaging every input it covers; the weights are
    normalised to sum to one. The float arithmetic follows ATen's, C++ promotions included."""
    filter = _AA_FILTERS[mode][0]
    center, first, count, invscale, span = _antialias_window(mode, in_size, out_size, step,
                                                             dtype)
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
    """Keys' cubic with a = -0.5 (PIL's), ATen's antialiasing bicubic filter, each polynomial
    rounded as its compiled kernel evaluates it (Horner steps fused)."""
    a, one = x.dtype.type(-0.5), x.dtype.type(1)
    near = _fused_multiply_add(_fused_multiply_add(a + 2, x, -(a + 3)) * x, x, one)
    far = _fused_multiply_add(_fused_multiply_add(_fused_multiply_add(a, x, -5 * a), x, 8 * a),
                              x, -4 * a)
    return np.where(x < 1, near, np.where(x < 2, far, 0))


def _lanczos_filter(x):
    """Lanczos-3, ``sinc(x) sinc(x / 3)`` within three pixels, ATen's antialiasing lanczos."""
    x = x.astype(np.float64)
    return np.where(x < 3, np.sinc(x) * np.sinc(x / 3), 0)


_AA_FILTERS = {"linear_aa": (_linear_filter, 2), "bicubic_aa": (_cubic_filter, 4),
               "lanczos_aa": (_lanczos_filter, 6)}


def _cubic_far(x, a=_CUBIC_A):
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a


def _axis_matrix(mode, in_size, out_size, scale, align_corners, dtype_name, half_1d,
                 size_shortcuts):
    """The ``(out, in)`` matrix of one axis's map (repeated taps add up)."""
    taps, weights = _kernel_taps(mode, in_size, out_size, scale, align_corners, dtype_name,
                                 half_1d, size_shortcuts)
    matrix = np.zeros((out_size, in_size), weights.dtype)
    np.add.at(matrix, (np.arange(out_size)[:, None], taps), weights)
    return matrix


def _resample_forward(x, *, mode, plan, align_corners):
    """Resample each spatial axis in turn; ``plan`` holds (in_size, out_size, scale) per axis."""
    if x.dtype == np.uint8 and mode not in ("nearest", "nearest-exact"):
        return laid_out_as(_resample_uint8(x, mode, plan, align_corners), x)
    if mode == "linear" and _uses_channels_last_linear(x, plan):
        return laid_out_as(_linear_per_pixel(x, plan, align_corners), x)
    source, x = x, _in_opmath(x)
    size_shortcuts = mode == "nearest" and _vectorised_kernel(source, plan)
    # ATen's kernels resample the last axis first (its innermost loop)
    for axis, (in_size, out_size, scale) in reversed(list(enumerate(plan, x.ndim - len(plan)))):
        if mode in _AA_FILTERS and in_size == out_size:
            continue  # ATen's separable antialiasing kernel skips an axis of unchanged size
        taps, weights = _kernel_taps(mode, in_size, out_size, scale, align_corners,
                                     x.dtype.name, _half_1d(source, plan), size_shortcuts)
        weights = _stored_weights(weights, source.dtype, mode)
        shape = [1] * x.ndim
        shape[axis] = out_size
        terms = [(np.take(x, taps[:, k], axis), weights[:, k].reshape(shape))
                 for k in range(taps.shape[1])]
        if mode in _AA_FILTERS:
            counts = _antialias_counts(mode, in_size, out_size, scale, align_corners,
                                       x.dtype.name)
            x = _antialias_sum(terms, counts.reshape(shape))
        else:
            x = _weighted_sum(terms)
    if mode in _AA_FILTERS and _one_column_rows_repeat(source, plan):
        x = np.repeat(x[..., :1, :], x.shape[-2], axis=-2)
    return laid_out_as(x.astype(source.dtype, copy=False), source)  # channels_last stays


def _one_column_rows_repeat(x, plan):
    """ATen's quirk: its antialiasing row pass, writing a contiguous one-column output, walks
    the rows with the first row's window, so every row repeats the first (channels-last
    outputs are walked by channel and come out right)."""
    (in_h, out_h, _), (_, out_w, _) = plan
    return out_w == 1 and in_h != out_h and suggested(x) is not channels_last


def _vectorised_kernel(x, plan):
    """Whether ATen runs its channels-last (vectorised) nearest or bilinear kernel rather than
    the generic one: for 2-d outputs of height + width <= 128, and for channels-last inputs of
    more than 3 channels (the only 3-d case)."""
    channels = x.shape[1]
    if len(plan) == 2:
        return (channels > 3 and is_in(x, channels_last)) or plan[0][1] + plan[1][1] <= 128
    return len(plan) == 3 and channels > 3 and is_in(x, channels_last_3d)


def _uses_channels_last_linear(x, plan):
    """Whether ATen resizes this float image (or volume) with its channels-last (bi/tri)linear
    kernel, one pass over the corners: where the vectorised kernel runs, and for 3-channel
    images on one thread."""
    if len(plan) == 1 or x.dtype not in (np.float32, np.float64):
        return False
    return _vectorised_kernel(x, plan) or (len(plan) == 2 and x.shape[1] == 3
                                           and get_num_threads() == 1)


def _linear_per_pixel(x, plan, align_corners):
    """ATen's channels-last (bi/tri)linear kernel: each output is its 4 or 8 corners weighted
    by products of the axes' weights (first axis first). Whole vectors of channels (512-bit
    lanes, as PyTorch's AVX-512 build) sum the corners last to first, the remaining channels
    first to last; both with the compiler's fused multiply-adds."""
    spatial = len(plan)
    per_axis = [_axis_taps("linear", n, m, s, align_corners, x.dtype.name) for n, m, s in plan]
    terms = []
    for corner in itertools.product((0, 1), repeat=spatial):
        index, weight = [slice(None), slice(None)], 1
        for axis, ((taps, weights), k) in enumerate(zip(per_axis, corner)):
            shape = [1] * spatial
            shape[axis] = -1
            index.append(taps[:, k].reshape(shape))
            weight = weight * weights[:, k].reshape(shape)
        terms.append((x[tuple(index)], weight))
    channels = x.shape[1]
    vectorised = channels - channels % (_VECTOR_BYTES // x.itemsize)
    return np.concatenate([_weighted_sum([(v[:, :vectorised], w) for v, w in reversed(terms)]),
                           _weighted_sum([(v[:, vectorised:], w) for v, w in terms])], 1)


def _antialias_sum(terms, counts):
    """ATen's antialiasing loop ``out = v0 * w0; out += vj * wj`` over each output's ``count``
    taps, as compiled: blocks of four products rounded and added in turn, the last
    ``(count - 1) % 4`` fused into the sum (taps past the count weigh 0)."""
    (value, weight), *rest = terms
    total = value * weight
    blocked = 4 * ((counts - 1) // 4)
    for j, (value, weight) in enumerate(rest, 1):
        total = np.where(j <= blocked, total + value * weight,
                         _fused_multiply_add(value, weight, total))
    return total


def _weighted_sum(terms):
    """``sum(value * weight)`` rounded as ATen's generic kernel computes it: the first two
    products fused, ``fma(v0, w0, v1 * w1)``, then each further product fused into the sum."""
    (value, weight), *rest = terms
    if not rest:
        return value * weight
    (second, second_weight), *rest = rest
    total = _fused_multiply_add(value, weight, second * second_weight)
    for value, weight in rest:
        total = _fused_multiply_add(value, weight, total)
    return total


def _resample_uint8(x, mode, plan, align_corners):
    """ATen's uint8 kernel: separable passes, the last axis first, each with weights in int16
    fixed point, rounded and clamped to 0..255 before the next pass."""
    axes = list(enumerate(plan, x.ndim - len(plan)))
    for axis, (in_size, out_size, scale) in reversed(axes):
        if in_size == out_size:
            continue  # ATen skips an axis whose size does not change, whatever the scale
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
                    "bicubic_aa": "compute_index_ranges_weights",
                    "lanczos_aa": "compute_index_ranges_weights"}


def _check_dtype(input, mode, spatial):
    """Floating inputs resample in every mode (but half ones not with antialiasing); uint8
    images in the nearest modes and the 2-D (bi)linear and bicubic ones; other dtypes not at
    all (ATen's kernel names the dtype)."""
    dtype = input._array.dtype
    if input.is_floating_point() and not (dtype == np.float16 and mode in _AA_FILTERS):
        return
    if dtype == np.uint8 and (mode in ("nearest", "nearest-exact") or spatial == 2):
        return
    kernel = _INTEGER_KERNELS[mode]
    if spatial == 2 and mode in ("nearest", "nearest-exact", "linear"):
        kernel = f"upsample_{'bilinear' if mode == 'linear' else 'nearest'}2d_channels_last"
    raise NotImplementedError(f'"{kernel}" not implemented for '
                              f"'{SCALAR_TYPE_NAMES[dtype.name]}'")


def _resample_transposed(grad, *, mode, plan, align_corners):
    """The transpose of ``_resample_forward``: each output's gradient back to its taps."""
    if mode in _SCATTERED and grad.dtype in (np.float32, np.float64):
        per_axis = [_kernel_taps(mode, n, m, s, align_corners, grad.dtype.name, False,
                                 mode == "nearest") for n, m, s in plan]
        return laid_out_as(_scatter_in_output_order(grad, per_axis, plan), grad)
    if mode == "bicubic" and grad.dtype in (np.float32, np.float64):
        return laid_out_as(_bicubic_backward(grad, plan, align_corners), grad)
    source, grad = grad, _in_opmath(grad)
    for axis, (in_size, out_size, scale) in enumerate(plan, grad.ndim - len(plan)):
        # ATen's nearest backward kernels all take the size shortcuts
        matrix = _axis_matrix(mode, in_size, out_size, scale, align_corners, grad.dtype.name,
                              _half_1d(source, plan), mode == "nearest")
        grad = np.moveaxis(np.moveaxis(grad, axis, -1) @ matrix, -1, axis)
    return laid_out_as(grad.astype(source.dtype, copy=False), source)


_SCATTERED = ("nearest", "nearest-exact", "linear", "linear_aa", "bicubic_aa", "lanczos_aa")


def _bicubic_backward(grad, plan, align_corners):
    """ATen's bicubic backward (portable code, no fused multiply-adds): an unchanged size
    copies the gradient; otherwise each output, in raster order, adds ``(g * wy) * wx`` into
    its 16 taps, the column tap outer and the row tap inner."""
    if all(n == m for n, m, _ in plan):
        return grad.copy()
    per_axis = [_axis_taps("bicubic", n, m, s, align_corners, grad.dtype.name, fused=False)
                for n, m, s in plan]
    return _scatter_in_output_order(grad, per_axis, plan, fused=False)


def _scatter_in_output_order(grad, per_axis, plan, fused=True):
    """ATen's backward kernels: output positions in raster order, each adding its gradient
    times each tap's weight into its taps in turn. ``fused`` (the nearest, linear and
    antialiasing kernels): the axes' weights multiplied first to last, times the gradient in
    a fused multiply-add, the last axis's tap varying fastest; otherwise (bicubic) the
    gradient multiplied by each axis's weight in turn and added, the first axis's tap
    fastest. The additions into one input pixel happen in that order, so they are replayed
    rank by rank, every pixel's k-th contribution at once."""
    spatial = len(plan)
    in_sizes = [n for n, _, _ in plan]
    corner_axes = list(range(spatial)) if fused else list(reversed(range(spatial)))
    grid = [m for _, m, _ in plan] + [per_axis[axis][0].shape[1] for axis in corner_axes]
    targets, axis_weights = 0, []
    for axis, (taps, weights) in enumerate(per_axis):  # (out..., corner...) grids
        shape = [1] * (2 * spatial)
        shape[axis] = taps.shape[0]
        shape[spatial + corner_axes.index(axis)] = taps.shape[1]
        targets = targets * in_sizes[axis] + taps.reshape(shape)
        axis_weights.append(np.broadcast_to(weights.reshape(shape), grid).reshape(-1))
    targets = np.broadcast_to(targets, grid).reshape(-1)
    sources = np.arange(targets.size) // math.prod(grid[spatial:])
    order = np.argsort(targets, kind="stable")  # by pixel, raster order within each
    firsts = np.searchsorted(targets[order], targets[order], side="left")
    ranks = np.empty_like(order)
    ranks[order] = np.arange(order.size) - firsts
    rows = grad.reshape(*grad.shape[:2], math.prod(grad.shape[2:]))
    total = np.zeros((*grad.shape[:2], math.prod(in_sizes)), grad.dtype)
    for rank in range(ranks.max() + 1):
        pick = ranks == rank
        into, value = targets[pick], rows[..., sources[pick]]
        if fused:
            weight = functools.reduce(np.multiply, [w[pick] for w in axis_weights])
            total[..., into] = _fused_multiply_add(weight, value, total[..., into])
        else:
            for weights in axis_weights:
                value = value * weights[pick]
            total[..., into] += value
    return total.reshape(*grad.shape[:2], *in_sizes)


def _half_1d(x, plan):
    """Whether ATen's 1-d half kernel computes this resampling (its 2-d one does not)."""
    return x.dtype == np.float16 and len(plan) == 1


def _kernel_taps(mode, in_size, out_size, scale, align_corners, dtype_name, half_1d,
                 size_shortcuts):
    """``_axis_taps``, with a 1-d half kernel's linear weights where it applies, and the
    nearest kernels' ``nearest_idx`` shortcuts (``size_shortcuts``): an axis of unchanged size
    copied, a doubled one indexed ``i >> 1``, whatever the scale factor."""
    if size_shortcuts and out_size in (in_size, 2 * in_size):
        taps = np.arange(out_size)[:, None] >> (out_size != in_size)
        return taps, np.ones((out_size, 1), np.dtype(dtype_name))
    taps, weights = _axis_taps(mode, in_size, out_size, scale, align_corners, dtype_name)
    if half_1d and mode == "linear":
        weights = _half_linear_weights(weights)
    return taps, weights


def _stored_weights(weights, source_dtype, mode):
    """The generic bicubic kernel stores its weights in the input's type (a half input's
    rounded to half) and sums in float32."""
    if mode == "bicubic" and source_dtype == np.float16:
        return weights.astype(np.float16).astype(np.float32)
    return weights


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
                    for mode in ("bicubic", "linear_aa", "bicubic_aa", "lanczos_aa")})


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
    coords = np.meshgrid(*(_grid_axis(n, align_corners, dtype) for n in spatial), indexing="ij")
    columns = [c.ravel() for c in reversed(coords)] + [np.ones(math.prod(spatial), dtype)]
    return np.stack(columns, 1)


def _grid_axis(n, align_corners, dtype):
    """ATen's ``linspace_from_neg_one``: ``linspace(-1, 1, n)`` as its kernel rounds it (each
    half stepped from its own end, fused), scaled by ``(n - 1) / n`` unless aligned; a unit
    axis sits at the centre."""
    dtype = np.dtype(dtype).type
    if n <= 1:
        return np.zeros(n, dtype)
    step = dtype(2) / dtype(n - 1)
    index = np.arange(n)
    from_start = _fused_multiply_add(step, index.astype(dtype), dtype(-1))
    from_end = _fused_multiply_add(-step, (n - 1 - index).astype(dtype), dtype(1))
    points = np.where(index < n // 2, from_start, from_end).astype(dtype)
    return points if align_corners else points * dtype(n - 1) / dtype(n)


@primitive("affine_grid_generator", node="AffineGridGeneratorBackward0", group=OTHER)
def _affine_grid(theta, *, size, align_corners):
    n, _, *spatial = size
    base = _base_grid(spatial, align_corners, theta.dtype)
    return _batched_matmul(base, theta.transpose(0, 2, 1)).reshape(n, *spatial, len(spatial))


def _batched_matmul(base, right):
    """``base @ right`` for each batch, rounded as ATen's ``bmm``: below 400 multiply-adds per
    matrix its own loop (products added in turn), above them BLAS (fused, in turn)."""
    terms = [base[:, k, None] * right[:, k, None, :] for k in range(base.shape[1])]
    if base.shape[1] * base.shape[0] * right.shape[2] >= 400:
        total = terms[0]
        for k in range(1, base.shape[1]):
            total = _fused_multiply_add(base[:, k, None], right[:, k, None, :], total)
        return total
    return functools.reduce(np.add, terms)


@_affine_grid.vjp
def _(ctx, grad, size, align_corners):
    """``grad^T @ base`` per batch, as ATen's ``bmm`` rounds it: below 400 multiply-adds its
    own loop adds the points' products in turn (replayed here), above them BLAS."""
    n, _, *spatial = size
    base = _base_grid(spatial, align_corners, ctx.input_dtypes[0])
    points = grad.reshape(n, math.prod(spatial), len(spatial))
    if base.size * len(spatial) >= 400 or base.dtype not in (np.float32, np.float64):
        return points.transpose(1, 2).matmul(Tensor._make(base))
    total = points[:, 0, :, None] * Tensor._make(base[0])
    for p in range(1, base.shape[0]):
        total = total + points[:, p, :, None] * Tensor._make(base[p])
    return total


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


def _source_coords(coord, size, padding_mode, align_corners, vectorised):
    """Pixel coordinates of normalised ``coord`` after padding, and d(pixel)/d(coord).
    ``vectorised``: as ATen's 2-d kernel unnormalises, ``fma(coord + 1, size / 2, -0.5)``;
    otherwise as its portable 3-d one, ``((coord + 1) * size - 1) / 2``."""
    scale = (size - 1) / 2 if align_corners else size / 2
    if align_corners:
        pixel = (coord + 1) * (size - 1) / 2
    elif vectorised:
        pixel = _fused_multiply_add(coord + 1, coord.dtype.type(scale), coord.dtype.type(-0.5))
    else:
        pixel = ((coord + 1) * size - 1) / 2
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


def _grid_axis_taps(pixel, mode, size, padding_mode, align_corners, fused_cubic=False):
    """One axis's taps: (index, weight, cubic's coefficient gradient or None) per tap, arrays
    over the grid points.

    Nearest takes one tap, linear two, cubic four (ATen's coefficients, A = -0.75, and minus
    their derivatives; ``fused_cubic``: every Horner step fused, as ATen's backward computes
    them when the input needs no gradient). Cubic sampling pads each tap's index rather than
    the coordinate, as ATen's ``get_value_bounded``."""
    if mode == "nearest":
        return [(np.rint(pixel).astype(np.int64), np.ones_like(pixel), None)]
    first = np.floor(pixel)
    t = pixel - first
    first = first.astype(np.int64)
    if mode == "bilinear":
        return [(first, 1 - t, None), (first + 1, t, None)]
    far = _fused_cubic_far if fused_cubic else _cubic_far
    weights = (far(t + 1), _fused_cubic_near(t), _fused_cubic_near(1 - t), far(2 - t))
    slopes = _cubic_coefficient_grads(t, _fused_multiply_add if fused_cubic else _multiply_add)
    return [(_padded_index(first + k - 1, size, padding_mode, align_corners), weight, slope)
            for k, (weight, slope) in enumerate(zip(weights, slopes))]


def _fused_cubic_far(x):
    a = x.dtype.type(_CUBIC_A)
    inner = _fused_multiply_add(_fused_multiply_add(a, x, -5 * a), x, 8 * a)
    return _fused_multiply_add(inner, x, -4 * a)


def _fused_cubic_near(x):
    """The near cubic as ATen's vectorised grid sampler rounds it (its far one rounds each
    step: the compiler fuses there only the exact products of constants)."""
    a = x.dtype.type(_CUBIC_A)
    return _fused_multiply_add(_fused_multiply_add(a + 2, x, -(a + 3)) * x, x, x.dtype.type(1))


def _cubic_coefficient_grads(t, multiply_add):
    """ATen's ``get_cubic_coefficients_grad`` at fraction ``t`` (minus each tap weight's
    derivative), its Horner steps by ``multiply_add`` (the compiler fuses them in some of its
    kernels, in others only exact products of constants, so not at all)."""
    a = t.dtype.type(_CUBIC_A)
    three, two, ten, eight = (t.dtype.type(k) for k in (3, 2, 10, 8))
    x0, x1, x2, x3 = -1 - t, 0 - t, 1 - t, 2 - t
    return (multiply_add(multiply_add(-three * a, x0, -ten * a), x0, -eight * a),
            multiply_add(-three * (a + 2), x1, -two * (a + 3)) * x1,
            multiply_add(three * (a + 2), x2, -two * (a + 3)) * x2,
            multiply_add(multiply_add(three * a, x3, -ten * a), x3, eight * a))


def _padded_index(index, size, padding_mode, align_corners):
    """An integer tap position after ``padding_mode`` (ATen's ``compute_coordinates``)."""
    if padding_mode == "zeros":
        return index
    position = index.astype(np.float64)
    if padding_mode == "reflection":
        position = (_reflect(position, 0, 2 * (size - 1)) if align_corners else
                    _reflect(position, -1, 2 * size - 1))[0]
    return np.clip(position, 0, size - 1).astype(np.int64)


def _per_axis_taps(sizes, grid, mode, padding_mode, align_corners, fused_cubic=False):
    """Each spatial axis's taps (``_grid_axis_taps``) and d(pixel)/d(grid)."""
    per_axis, slopes = [], []
    for axis, size in enumerate(sizes):
        coord = grid[..., len(sizes) - 1 - axis]
        pixel, slope = _source_coords(coord, size, "zeros" if mode == "bicubic" else padding_mode,
                                      align_corners, len(sizes) == 2)
        per_axis.append(_grid_axis_taps(pixel, mode, size, padding_mode, align_corners,
                                        fused_cubic))
        slopes.append(slope)
    return per_axis, slopes


def _sampling_taps(input_shape, grid, mode, padding_mode, align_corners):
    """Per tap (the product of every axis's taps, the last axis's fastest): flat pixel
    positions (0 where outside), weights (0 where outside; the axes' weights multiplied x
    first, as ATen) and the in-bounds mask.

    The grid's last dimension lists coordinates x, y (, z): the spatial axes last to first."""
    sizes = input_shape[2:]
    per_axis, _ = _per_axis_taps(sizes, grid, mode, padding_mode, align_corners)
    taps = []
    for combination in itertools.product(*per_axis):
        inside, flat = True, 0
        for (index, _, _), size in zip(combination, sizes):
            inside = inside & (index >= 0) & (index < size)
            flat = flat * size + np.clip(index, 0, size - 1)
        weight = functools.reduce(np.multiply, [w for _, w, _ in reversed(combination)])
        taps.append((np.where(inside, flat, 0), weight * inside, inside))
    return taps


def _gathered(x, flat):
    """(N, C, *out): ``x`` (N, C, *spatial) at flat spatial positions ``flat`` (N, *out)."""
    n, c = x.shape[:2]
    rows = x.reshape(n, c, math.prod(x.shape[2:]))
    return np.take_along_axis(rows, flat.reshape(n, 1, math.prod(flat.shape[1:])), 2).reshape(n, c, *flat.shape[1:])


def _grid_sampler_forward(x, grid, *, mode, padding_mode, align_corners):
    """The taps' values times their weights, summed as ATen sums them: its vectorised 2-d
    kernel fusing each product into the sum, its portable 3-d one adding them in turn."""
    if mode == "bicubic":
        return _bicubic_sample(x, grid, padding_mode, align_corners).astype(x.dtype, copy=False)
    (flat, weight, _), *rest = _sampling_taps(x.shape, grid, mode, padding_mode, align_corners)
    out = _gathered(x, flat) * weight[:, None]
    for flat, weight, _ in rest:
        value = _gathered(x, flat)
        out = (_fused_multiply_add(value, weight[:, None], out) if x.ndim == 4
               else out + value * weight[:, None])
    return out.astype(x.dtype, copy=False)


def _bicubic_sample(x, grid, padding_mode, align_corners):
    """ATen's vectorised bicubic sampler: each of the four rows summed along x as compiled,
    ``fma(v0, c0, v1 * c1) + v2 * c2 + v3 * c3``, then the rows along y, each product fused in
    turn into ``r0 * c0``."""
    height, width = x.shape[2:]
    (rows, cols), _ = _per_axis_taps((height, width), grid, "bicubic", padding_mode,
                                     align_corners)

    def tap(row, col):
        inside = (row[0] >= 0) & (row[0] < height) & (col[0] >= 0) & (col[0] < width)
        flat = np.where(inside, np.clip(row[0], 0, height - 1) * width
                        + np.clip(col[0], 0, width - 1), 0)
        return _gathered(x, flat) * inside[:, None]

    def along_x(row):
        (v0, c0), (v1, c1), (v2, c2), (v3, c3) = [(tap(row, col), col[1][:, None])
                                                  for col in cols]
        return _fused_multiply_add(v0, c0, v1 * c1) + v2 * c2 + v3 * c3

    (r0, c0), *rest = [(along_x(row), row[1][:, None]) for row in rows]
    out = r0 * c0
    for r, c in rest:
        out = _fused_multiply_add(r, c, out)
    return out


def _grid_sampler_backward(grad, x, grid, *, mode, padding_mode, align_corners,
                           input_grad=True):
    """Both gradients: scattered into the input's pixels, and the taps' value differences
    (with the coordinates' slopes) for the grid. ``input_grad``: whether the input needs its
    gradient (ATen compiles the two cases apart)."""
    if not grad.size:  # an empty batch, channel or grid: nothing to scatter (ATen's loops skip)
        return np.zeros(x.shape, x.dtype), np.zeros(grid.shape, x.dtype)
    if mode == "bilinear":
        return _bilinear_sampler_backward(grad, x, grid, padding_mode, align_corners)
    if mode == "bicubic":
        return _bicubic_sampler_backward(grad, x, grid, padding_mode, align_corners,
                                         input_grad)
    (flat, _, inside), = _sampling_taps(x.shape, grid, mode, padding_mode, align_corners)
    points = math.prod(grid.shape[1:-1])  # nearest: each point's gradient to its pixel, in turn
    grad_x = _scatter_in_sequence(x.shape, flat.reshape(x.shape[0], points),
                                  grad.reshape(*grad.shape[:2], points) * inside.reshape(
                                      x.shape[0], 1, points), np.arange(points))
    return grad_x, np.zeros(grid.shape, x.dtype)  # the grid's gradient is zero


def _scatter_in_sequence(shape, targets, contributions, sequence):
    """(N, C, *spatial) sums of ``contributions`` (N, C, K) into flat pixels ``targets``
    (N, K), added one by one in the order of ``sequence`` (K), as ATen's loops add them."""
    n, c, *sizes = shape
    order = np.argsort(sequence, kind="stable")
    total = np.zeros((n, c, math.prod(sizes)), contributions.dtype)
    for b in range(n):
        np.add.at(total[b], (slice(None), targets[b][order]), contributions[b][:, order])
    return total.reshape(shape)


def _bilinear_sampler_backward(grad, x, grid, padding_mode, align_corners):
    """ATen's bilinear backward, rounded as its kernels round: the input's gradient adds each
    corner's ``weight * g`` in ATen's order; the grid's gradient sums, channel by channel and
    corner by corner, the value differences times the other axes' weights and ``g``, then
    scales by d(pixel)/d(grid). The 2-d kernel is vectorised (a 256-bit vector of grid points
    at a time, ATen's AVX2 build of it; corner-major within them, fused multiply-adds), the 3-d
    one portable (point by point)."""
    n, c, *sizes = x.shape
    spatial = len(sizes)
    per_axis, slopes = _per_axis_taps(sizes, grid, "bilinear", padding_mode, align_corners)
    taps = _sampling_taps(x.shape, grid, "bilinear", padding_mode, align_corners)
    points = math.prod(grid.shape[1:-1])
    targets = np.stack([flat for flat, _, _ in taps], -1).reshape(n, -1)
    weights = np.stack([weight for _, weight, _ in taps], -1).reshape(n, 1, -1)
    contributions = weights * np.repeat(grad.reshape(n, c, points), len(taps), -1)
    sequence = (np.arange(points * len(taps)) if spatial == 3
                else _chunk_tap_lane_order(points, len(taps), 32 // x.itemsize))
    grad_x = _scatter_in_sequence(x.shape, targets, contributions, sequence)
    values = [_gathered(x, flat) * inside[:, None] for flat, _, inside in taps]
    axis_weights = [[weight for _, weight, _ in axis_taps] for axis_taps in per_axis]
    coordinate_grad = (_vectorised_pixel_grad if spatial == 2 else _portable_pixel_grad)
    grad_grid = np.stack([coordinate_grad(grad, values, axis_weights, axis) * slopes[axis]
                          for axis in reversed(range(spatial))], -1)
    return grad_x, grad_grid


def _bicubic_sampler_backward(grad, x, grid, padding_mode, align_corners, input_grad):
    """ATen's vectorised bicubic backward: for each vector of grid points, channel and tap
    (column outer, row inner), ``(g * cx) * cy`` scattered into the (padded) tap, and
    ``gx -= ((v * g) * cx') * cy``, ``gy -= ((v * g) * cy') * cx`` fused; then the grid's
    gradients scaled by d(pixel)/d(grid) (the padding does not enter it). Compiled without
    the input's gradient, its coefficients come out fully fused."""
    n, c, height, width = x.shape
    points = math.prod(grid.shape[1:-1])
    (rows, cols), _ = _per_axis_taps((height, width), grid, "bicubic", padding_mode,
                                     align_corners, fused_cubic=not input_grad)
    flat_grad = grad.reshape(n, c, points)
    gx = np.zeros((n, points), x.dtype)
    gy = np.zeros((n, points), x.dtype)
    taps = [(col, row) for col in cols for row in rows]  # ATen's i (x) outer, j (y) inner
    targets, contributions, values = [], [], []
    for (col, x_weight, _), (row, y_weight, _) in taps:
        inside = (row >= 0) & (row < height) & (col >= 0) & (col < width)
        flat = np.where(inside, np.clip(row, 0, height - 1) * width + np.clip(col, 0, width - 1),
                        0).reshape(n, points)
        targets.append(flat)
        contributions.append(flat_grad * (x_weight * inside).reshape(n, 1, points)
                             * y_weight.reshape(n, 1, points))
        values.append((_gathered(x, flat.reshape(row.shape))
                       * inside[:, None]).reshape(n, c, points))
    for ch in range(c):  # channel by channel, tap by tap
        for value, ((_, x_weight, x_grad), (_, y_weight, y_grad)) in zip(values, taps):
            scaled = value[:, ch] * flat_grad[:, ch]
            gx = _fused_multiply_add(-(scaled * x_grad.reshape(n, points)),
                                     y_weight.reshape(n, points), gx)
            gy = _fused_multiply_add(-(scaled * y_grad.reshape(n, points)),
                                     x_weight.reshape(n, points), gy)
    grad_x = _scatter_in_sequence(
        x.shape, np.stack(targets, -1).reshape(n, -1),
        np.stack(contributions, -1).reshape(n, c, -1),
        _chunk_tap_lane_order(points, len(taps), 32 // x.itemsize))
    scales = [np.float32((size - 1) / 2 if align_corners else size / 2).astype(x.dtype)
              for size in (width, height)]
    return grad_x, np.stack([gx * scales[0], gy * scales[1]], -1).reshape(grid.shape)


def _chunk_tap_lane_order(points, taps, lanes):
    """Sequence numbers, flattened (point, tap), of ATen's vectorised scatter: grid points in
    chunks of a vector's lanes, tap by tap within a chunk, lane by lane within a tap."""
    point = np.arange(points).reshape(-1, 1)
    chunk, lane = point // lanes, point % lanes
    return ((chunk * taps + np.arange(taps)) * lanes + lane).ravel()


def _vectorised_pixel_grad(grad, values, axis_weights, axis):
    """d(loss)/d(pixel) along ``axis`` (0: y, 1: x) as ATen's 2-d kernel computes it, channel
    by channel: ``fma((v_hi1 - v_lo1), w1, (v_hi0 - v_lo0) * w0) * g`` fused into the sum, the
    pairs differing along ``axis`` and weighted by the other axis's weights."""
    nw, ne, sw, se = values
    pairs = ((nw, ne), (sw, se)) if axis == 1 else ((nw, sw), (ne, se))
    w0, w1 = axis_weights[1 - axis]
    total = np.zeros((grad.shape[0],) + grad.shape[2:], grad.dtype)
    for ch in range(grad.shape[1]):
        (lo0, hi0), (lo1, hi1) = [(lo[:, ch], hi[:, ch]) for lo, hi in pairs]
        inner = _fused_multiply_add(hi1 - lo1, w1, (hi0 - lo0) * w0)
        total = _fused_multiply_add(inner, grad[:, ch], total)
    return total


def _portable_pixel_grad(grad, values, axis_weights, axis):
    """d(loss)/d(pixel) along ``axis`` as ATen's 3-d kernel computes it: for each channel and
    corner in turn, ``value * (the other axes' weights, x first) * g`` added (high corner) or
    subtracted (low corner)."""
    total = np.zeros((grad.shape[0],) + grad.shape[2:], grad.dtype)
    corners = list(itertools.product((0, 1), repeat=len(axis_weights)))
    for ch in range(grad.shape[1]):
        for value, corner in zip(values, corners):
            term = value[:, ch]
            for other in reversed(range(len(axis_weights))):
                if other != axis:
                    term = term * axis_weights[other][corner[other]]
            term = term * grad[:, ch]
            total = total + term if corner[axis] else total - term
    return total


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
    return _BACKWARDS[ctx.primitive](grad, x, grid, input_grad=ctx.needs_input_grad[0],
                                     **params)


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
