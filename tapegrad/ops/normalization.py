"""Normalisation primitives: layer, group and batch norm as one op each, as PyTorch's
``native_layer_norm``, ``native_group_norm`` and ``native_batch_norm``.

As a composite, a normalisation records eight nodes and makes four passes over memory; as one
primitive it records ``NativeLayerNormBackward0`` / ``NativeBatchNormBackward0``. The backward
rules recompute the statistics with tapegrad ops (cheap next to the normalisation itself), so
they are differentiable again and double backward needs nothing more.

Layer norm normalises each sample over its trailing dimensions; batch norm (in training) each
channel (dim 1) over all the other dimensions. Both share ``_normalized_backward``. Batch
norm's forward and running statistics follow ATen's CPU arithmetic to the last bit in float32:
its order of accumulation (``_batch_statistics``) and its fused ``x * alpha + beta``.
"""
import math

import numpy as np

from ..autograd import grad_mode
from .. import _runtime, dtypes
from .conv import _is_channels_last
from .activation import require_floating
from .half_precision import in_float32
from .registry import OTHER, primitive

__all__ = ["check_dtypes", "layer_norm", "group_norm", "batch_norm_train", "batch_norm_eval", "update_running_stats"]


def check_dtypes(kernel, input, *parameters):
    """ATen's checks on a CPU normalisation's operands, in its order: parameters (weight, bias,
    running statistics; ``None`` when not given) of another dtype than the input are "mixed" —
    allowed only as float32 parameters of a half-precision input — and the kernel itself
    exists for floating inputs only."""
    given = [p for p in parameters if p is not None]
    if any(p._array.dtype != input._array.dtype for p in given):
        if any(p._array.dtype != np.float32 for p in given):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if input._array.dtype != np.float16:
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    require_floating(input, kernel)


def _normalized_backward(ctx, grad, x, weight, dims, reduce_dims, eps, stats_dtype=None):
    """Gradients of ``normalize(x over dims) * weight + bias`` for x, weight and bias; weight and
    bias gradients are summed over ``reduce_dims`` (then shaped as ``ctx`` says they were).
    A float16 input's are computed in float32 and rounded once, as PyTorch's kernels do (its
    squares would overflow float16), from the statistics as the forward kernel saved them (in
    ``stats_dtype``, when given)."""
    if x.dtype != dtypes.float16:
        return _normalized_gradients(ctx, grad, x, weight, dims, reduce_dims, eps)
    gradients = _normalized_gradients(ctx, grad.float(), x.float(), weight.float(), dims,
                                      reduce_dims, eps, stats_dtype=stats_dtype)
    return tuple(None if g is None else g.to(dtype)
                 for g, dtype in zip(gradients, (x.dtype, weight.dtype, weight.dtype)))


def _normalized_gradients(ctx, grad, x, weight, dims, reduce_dims, eps, stats_dtype=None):
    mean = x.mean(dims, keepdim=True)
    centered = x - mean
    inverse_std = ((centered * centered).mean(dims, keepdim=True) + eps).rsqrt()
    if stats_dtype is not None and stats_dtype != x.dtype:
        mean, inverse_std = (_rounded_to(s, stats_dtype) for s in (mean, inverse_std))
        centered = x - mean
    normalized = centered * inverse_std
    need_x, need_weight, need_bias = ctx.needs_input_grad
    grad_x = grad_weight = grad_bias = None
    if need_x:
        grad_normalized = grad * weight
        grad_x = inverse_std * (grad_normalized - grad_normalized.mean(dims, keepdim=True)
                                - normalized * (grad_normalized * normalized).mean(dims,
                                                                                   keepdim=True))
    if need_weight:
        grad_weight = _summed(grad * normalized, reduce_dims, ctx.input_shapes[1])
    if need_bias:
        grad_bias = _summed(grad, reduce_dims, ctx.input_shapes[2])
    return grad_x, grad_weight, grad_bias


def _statistics_dtype(x, mixed):
    """The dtype ATen's normalisation kernels save their mean and inverse standard deviation
    in: the parameters' — float32 when they are mixed with a float16 input."""
    return dtypes.float32 if mixed else x.dtype


def _rounded_to(value, dtype):
    """``value`` rounded to ``dtype`` and back (a differentiable identity up to rounding)."""
    return value.to(dtype).to(value.dtype)


def _summed(values, dims, shape):
    return (values.sum(dims) if dims else values).reshape(shape)


def _normalized_dims(ndim, normalized_ndim):
    return tuple(range(ndim - normalized_ndim, ndim))


def _mean(a, dims):
    """``a.mean(dims, keepdims=True)`` through the ufunc, silent on inf - inf (see the warning
    filter in elementwise.py)."""
    return np.add.reduce(a, axis=dims, keepdims=True) / math.prod(a.shape[d] for d in dims)


@primitive("layer_norm", node="NativeLayerNormBackward0", group=OTHER,
           saves=("x", "weight"))
@in_float32
def _layer_norm(x, weight, bias, normalized_ndim, eps, mixed=False):
    x = np.ascontiguousarray(x)  # ATen's kernel reads a contiguous copy: the output is C-ordered
    dims = _normalized_dims(x.ndim, normalized_ndim)
    mean = _mean(x, dims)
    centered = x - mean
    variance = _mean(centered * centered, dims)
    return centered / np.sqrt(variance + x.dtype.type(eps)) * weight + bias


@_layer_norm.vjp
def _(ctx, grad, normalized_ndim, eps, mixed=False):
    x, weight = ctx.saved
    dims = _normalized_dims(x.dim(), normalized_ndim)
    batch_dims = tuple(range(x.dim() - normalized_ndim))
    return _normalized_backward(ctx, grad, x, weight, dims, batch_dims, eps,
                                stats_dtype=_statistics_dtype(x, mixed))


def layer_norm(input, weight, bias, normalized_ndim, eps, mixed=False):
    """Normalise ``input`` over its last ``normalized_ndim`` dimensions (biased variance), then
    scale by ``weight`` and shift by ``bias`` — both tensors of the normalised shape, cast to
    the input's dtype; ``mixed`` when they were float32 parameters of a float16 input."""
    return _layer_norm(input, weight, bias, normalized_ndim=normalized_ndim, eps=eps,
                       mixed=mixed)


def _grouped_shape(shape, groups):
    """(N, C, *spatial) as (N, G, C/G, *spatial): group norm's statistics run over dims 2.."""
    return (shape[0], groups, shape[1] // groups) + tuple(shape[2:])


@primitive("group_norm", node="NativeGroupNormBackward0", group=OTHER, saves=("x", "weight"))
@in_float32
def _group_norm(x, weight, bias, num_groups, eps, mixed=False):
    grouped = x.reshape(_grouped_shape(x.shape, num_groups))
    dims = tuple(range(2, grouped.ndim))
    centered = grouped - _mean(grouped, dims)
    variance = _mean(centered * centered, dims)
    normalized = (centered / np.sqrt(variance + x.dtype.type(eps))).reshape(x.shape)
    return normalized * _channel_view(weight, x.ndim) + _channel_view(bias, x.ndim)


@_group_norm.vjp
def _(ctx, grad, num_groups, eps, mixed=False):
    """The shared rule on the grouped view: statistics over dims 2.., the weight and bias
    gradients summed over the batch and spatial dims (then shaped (C,))."""
    x, weight = ctx.saved
    shape = _grouped_shape(ctx.input_shapes[0], num_groups)
    grouped_weight = weight.reshape((1, num_groups, -1) + (1,) * (len(shape) - 3))
    dims = tuple(range(2, len(shape)))
    reduce_dims = (0,) + tuple(range(3, len(shape)))
    grad_x, grad_weight, grad_bias = _normalized_backward(
        ctx, grad.reshape(shape), x.reshape(shape), grouped_weight, dims, reduce_dims, eps,
        stats_dtype=_statistics_dtype(x, mixed))
    return (None if grad_x is None else grad_x.reshape(ctx.input_shapes[0]), grad_weight,
            grad_bias)


def group_norm(input, weight, bias, num_groups, eps, mixed=False):
    """Normalise each sample's channels (dim 1, with the dimensions after it) in ``num_groups``
    groups, then scale by ``weight`` and shift by ``bias`` — per channel, both (C,), cast to the
    input's dtype; ``mixed`` when they were float32 parameters of a float16 input."""
    return _group_norm(input, weight, bias, num_groups=num_groups, eps=eps, mixed=mixed)


def _channel_view(vector, ndim):
    """A (C,) array or tensor shaped (1, C, 1, ...) to broadcast along dim 1 of ``ndim`` dims."""
    return vector.reshape((1, -1) + (1,) * (ndim - 2))


def _batch_dims(ndim):
    return (0,) + tuple(range(2, ndim))


@primitive("batch_norm", node="NativeBatchNormBackward0", group=OTHER, saves=("x", "weight"))
def _batch_norm_train(x, weight, bias, eps, mixed=False):
    if x.dtype == np.float16:
        return _half_batch_norm_train(x, weight, bias, eps)
    mean, squares = _batch_statistics(x)
    count = x.size // x.shape[1]
    inverse_std = (1 / np.sqrt((squares / x.dtype.type(count)).astype(np.float64) + eps))
    return _scaled_and_shifted(x, mean, inverse_std.astype(x.dtype), weight, bias)


def _batch_statistics(x):
    """Each channel's mean and sum of squared deviations from it, as ATen's CPU kernel adds
    them up (so the roundings are its). A channels-last batch — or one with a single value
    per sample and channel — is read row by row: each of ``get_num_threads()`` threads adds
    an even share of the rows in the input's dtype (the squares fused into the additions),
    and the shares are added in float64. Otherwise each channel's values are added one after
    another in float64."""
    channels = x.shape[1]
    count = x.size // channels
    if _is_channels_last(x) or count == x.shape[0]:
        shares = _thread_shares(np.moveaxis(x, 1, -1).reshape(count, channels))
        mean = (sum(_rows_summed(share) for share in shares) / count).astype(x.dtype)
        squares = sum(_squares_summed(share, mean) for share in shares)
        return mean, squares.astype(x.dtype)
    values = np.swapaxes(x, 0, 1).reshape(channels, count)
    mean = (_sum_in_float64(values) / count).astype(x.dtype)
    deviations = values - mean[:, None]
    return mean, _sum_in_float64(deviations * deviations).astype(x.dtype)


def _sum_in_float64(rows):
    """Each row's values added one after another in float64 (``cumsum`` adds in order, where
    ``sum`` adds pairwise)."""
    return rows.cumsum(axis=-1, dtype=np.float64)[..., -1]  # (a method: numpy warns as ours)


def _thread_shares(rows):
    """The rows ATen's ``parallel_for`` gives each thread: even chunks, rounded up."""
    threads = min(_runtime.get_num_threads(), len(rows))
    chunk = -(-len(rows) // threads)
    return [rows[start:start + chunk] for start in range(0, len(rows), chunk)]


def _rows_summed(rows):
    """A thread's buffer: its rows added one after another in their dtype."""
    return rows.cumsum(axis=0)[-1].astype(np.float64)


def _squares_summed(rows, mean):
    """A thread's buffer ``fma(x - mean, x - mean, buffer)``, row after row: for float32 exact
    in float64 (the product has 48 bits), then rounded once."""
    deviations = rows - mean
    wide = np.float64 if rows.dtype == np.float32 else rows.dtype
    buffer = np.zeros_like(mean)
    for deviation in deviations.astype(wide):
        buffer = (buffer + deviation * deviation).astype(rows.dtype)
    return buffer.astype(np.float64)


def _scaled_and_shifted(x, mean, inverse_std, weight, bias):
    """ATen's CPU batch-norm output ``x * alpha + beta`` per channel, ``alpha = inverse_std *
    weight`` and ``beta = bias - mean * alpha``; in float32 both are fused multiply-adds,
    rounded once: float64 holds the product of two float32 values exactly, so computing there
    and rounding to float32 gives the same result (barring a rare double rounding). Other
    dtypes take the plain products: numpy has no fused multiply-add to match float64's."""
    alpha = inverse_std * weight
    wide = np.float64 if x.dtype == np.float32 else x.dtype
    beta = (bias.astype(wide) - mean.astype(wide) * alpha.astype(wide)).astype(x.dtype)
    out = x.astype(wide) * _channel_view(alpha.astype(wide), x.ndim) + _channel_view(
        beta.astype(wide), x.ndim)
    return out.astype(x.dtype)


def _half_batch_norm_train(x, weight, bias, eps):
    """PyTorch's kernel for a float16 input: statistics computed in float32 but kept (the mean and
    the inverse standard deviation) in the parameters' dtype, normalisation in float32, the
    result rounded once."""
    stats = weight.dtype
    x32 = x.astype(np.float32)
    dims = _batch_dims(x.ndim)
    mean = _mean(x32, dims).astype(stats)
    centered = x32 - mean
    inverse_std = (1 / np.sqrt(_mean(centered * centered, dims) + np.float32(eps))).astype(stats)
    out = centered * inverse_std * _channel_view(weight, x.ndim) + _channel_view(bias, x.ndim)
    return out.astype(np.float16)


@_batch_norm_train.vjp
def _(ctx, grad, eps, mixed=False):
    x, weight = ctx.saved
    dims = _batch_dims(x.dim())
    return _normalized_backward(ctx, grad, x, _channel_view(weight, x.dim()), dims, dims, eps,
                                stats_dtype=_statistics_dtype(x, mixed))


@primitive("batch_norm_eval", node="NativeBatchNormBackward0", group=OTHER,
           saves=("x", "weight", "mean", "var"), nondifferentiable=("mean", "var"))
@in_float32
def _batch_norm_eval(x, weight, bias, mean, var, *, eps):
    if x.dtype == np.float32:
        return _float32_batch_norm_eval(x, weight, bias, mean, var, eps)
    scale = weight / np.sqrt(var + x.dtype.type(eps))
    return (x - _channel_view(mean, x.ndim)) * _channel_view(scale, x.ndim) + _channel_view(
        bias, x.ndim)


def _float32_batch_norm_eval(x, weight, bias, mean, var, eps):
    """ATen's float32 CPU kernel to the last bit: the fused form of the running statistics."""
    return _scaled_and_shifted(x, mean, 1 / np.sqrt(var + np.float32(eps)), weight, bias)


@_batch_norm_eval.vjp
def _(ctx, grad, eps):
    """With fixed statistics the op is affine in x: the gradients need no mean terms."""
    x, weight, mean, var = ctx.saved
    ndim = x.dim()
    inverse_std = _channel_view((var + eps).rsqrt(), ndim)
    need_x, need_weight, need_bias = ctx.needs_input_grad[:3]
    dims = _batch_dims(ndim)
    grad_x = (grad * _channel_view(weight, ndim) * inverse_std).to(x.dtype) if need_x else None
    grad_weight = ((grad * (x - _channel_view(mean, ndim)) * inverse_std).sum(dims).to(weight.dtype)
                   if need_weight else None)
    grad_bias = grad.sum(dims) if need_bias else None
    return grad_x, grad_weight, grad_bias, None, None


def batch_norm_train(input, weight, bias, eps, mixed=False):
    """Normalise each channel of ``input`` (dim 1) with this batch's statistics; ``mixed`` when
    the weight and bias were float32 parameters of a float16 input."""
    return _batch_norm_train(input, weight, bias, eps=eps, mixed=mixed)


def batch_norm_eval(input, weight, bias, running_mean, running_var, eps):
    """Normalise each channel of ``input`` with the given (running) statistics; a float16
    input's float32 statistics are used as they are (the kernel computes in float32)."""
    dtype = dtypes.float32 if input.dtype == dtypes.float16 else input.dtype
    return _batch_norm_eval(input, weight, bias, running_mean.to(dtype), running_var.to(dtype),
                            eps=eps)


def update_running_stats(input, running_mean, running_var, momentum):
    """``running = momentum batch + (1 - momentum) running``, the variance unbiased, off the
    tape. A float16 input's statistics are taken in float32 (x² overflows float16) and mixed in
    with tensor arithmetic."""
    with grad_mode.no_grad():
        if input.dtype == dtypes.float16:
            return _update_half_running_stats(input.float(), running_mean, running_var, momentum)
        # one operation, not numpy on the arrays: a traced training step must compute the
        # statistics from each call's batch, not keep the first call's as constants
        new_mean, new_var = _updated_running_stats(input, running_mean, running_var,
                                                   momentum=momentum)
        running_mean.copy_(new_mean)
        running_var.copy_(new_var)


@primitive("batch_norm_update_stats", node="BatchNormUpdateStatsBackward0", n_outputs=2)
def _updated_running_stats(x, running_mean, running_var, momentum):
    """The new running mean and variance, in the running statistics' dtype with the variance's
    sum in float64, as ATen's kernel (never differentiated: called under no_grad)."""
    mean, squares = _batch_statistics(x)
    count = x.size // x.shape[1]
    dtype = running_mean.dtype
    weight = dtype.type(momentum)
    keep = dtype.type(1) - weight
    unbiased = (squares / x.dtype.type(count - 1)).astype(np.float64)
    new_mean = weight * mean.astype(dtype) + keep * running_mean
    new_var = np.float64(weight) * unbiased + (keep * running_var).astype(np.float64)
    return new_mean.astype(dtype), new_var.astype(dtype)


@_updated_running_stats.vjp
def _(ctx, grad, momentum):
    return None, None, None  # statistics carry no gradient (nor forward-mode tangent)


def _update_half_running_stats(input, running_mean, running_var, momentum):
    dims = _batch_dims(input.dim())
    count = input.numel() // input.shape[1]
    with grad_mode.no_grad():
        mean = input.mean(dims)
        variance = input.var(dims, correction=0) * (count / (count - 1))
        running_mean.copy_(running_mean * (1 - momentum) + mean * momentum)
        running_var.copy_(running_var * (1 - momentum) + variance * momentum)
