"""Fake quantization, as quantization-aware training uses it: values rounded to an integer grid
and back, in floating point (``torch.fake_quantize_per_tensor_affine`` / ``_per_channel_affine``).

``out = (clamp(round(x / scale) + zero_point, quant_min, quant_max) - zero_point) * scale``, with
round-half-to-even (a floating per-channel zero point is added before rounding). The gradient is
the straight-through estimator: the incoming gradient where ``x`` landed inside
``[quant_min, quant_max]``, zero where it was clamped. Scale and zero point get no gradient
(PyTorch's learnable variants are other functions).
"""
import numpy as np

from ..autograd import grad_mode
from ..dtypes import SCALAR_TYPE_NAMES
from ..tensor import Tensor
from .copies import rename_node
from .elementwise import ge, le, logical_and, reciprocal, round
from .registry import OTHER, primitive

__all__ = ["fake_quantize_per_tensor_affine", "fake_quantize_per_channel_affine"]


def _grid_positions(x, scale, zero_point):
    """``round(x / scale) + zero_point`` as the kernels compute it: times ``1 / scale`` in
    float32, rounded half to even; a floating zero point (per channel) is added before the
    rounding."""
    inverse = np.float32(1.0) / scale.astype(np.float32)
    if zero_point.dtype.kind == "f":
        return np.rint(x * inverse + zero_point)
    return np.rint(x * inverse) + zero_point


def _clamped(positions, quant_min, quant_max, per_channel):
    """Grid positions within ``[quant_min, quant_max]``. The per-tensor kernel clamps in floating
    point, where NaN goes to ``quant_min`` and infinities saturate; the per-channel one converts
    to int64 first, where NaN, infinities and whatever is beyond its range become its minimum,
    hence ``quant_min`` too."""
    if per_channel:
        positions = np.where(np.abs(positions) < 2.0 ** 63, positions, quant_min)
    return np.fmin(np.fmax(positions, quant_min), quant_max)


@primitive("fake_quantize", node="FakeQuantizePerChannelAffineCachemaskBackward0",
           group=OTHER, saves=("a", "scale", "zero_point"),
           nondifferentiable=("scale", "zero_point"))
def _fake_quantize(a, scale, zero_point, *, quant_min, quant_max, per_channel):
    """``a`` on the grid of ``scale`` and ``zero_point`` (broadcast against ``a``)."""
    grid = _clamped(_grid_positions(a, scale, zero_point), quant_min, quant_max, per_channel)
    return ((grid - zero_point) * scale).astype(a.dtype)


@_fake_quantize.vjp
def _(ctx, grad, quant_min, quant_max, per_channel):
    a, scale, zero_point = ctx.saved
    scaled = a * reciprocal(scale)  # the forward's positions, in tapegrad ops
    positions = (round(scaled + zero_point) if zero_point.dtype.is_floating_point
                 else round(scaled) + zero_point)
    inside = logical_and(ge(positions, quant_min), le(positions, quant_max))
    return grad * inside.to(grad.dtype), None, None


def _check_range(quant_min, quant_max):
    if quant_min > quant_max:
        raise RuntimeError("`quant_min` should be less than or         equal to `quant_max`.")


def _refuse_grad_of_qparams(function, scale, zero_point):
    """PyTorch's autograd refuses quantization parameters that require grad (the learnable
    variants are other functions), before any other check."""
    if not grad_mode.is_grad_enabled():
        return
    for name, qparam in (("scale", scale), ("zero_point", zero_point)):
        if isinstance(qparam, Tensor) and qparam.requires_grad:
            raise RuntimeError(f"The function '{function}' is not differentiable with respect to "
                               f"argument '{name}'. This input cannot have requires_grad True.")


def _refuse_integers(input, kernel):
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(input)}\'')


def fake_quantize_per_tensor_affine(input, scale, zero_point, quant_min, quant_max):
    """One ``scale`` and ``zero_point`` (numbers, or 0-d tensors) for the whole tensor."""
    tensor_qparams = isinstance(scale, Tensor) and isinstance(zero_point, Tensor)
    if not tensor_qparams and not isinstance(zero_point, int):
        raise TypeError(
            "fake_quantize_per_tensor_affine() received an invalid combination of arguments - "
            f"got (Tensor, {type(scale).__name__}, {type(zero_point).__name__}, int, int), but "
            "expected one of:\n * (Tensor input, Tensor scale, Tensor zero_point, int quant_min, "
            "int quant_max)\n * (Tensor input, float scale, int zero_point, int quant_min, int "
            "quant_max)\n")
    if tensor_qparams:
        _refuse_grad_of_qparams("_fake_quantize_per_tensor_affine_cachemask_tensor_qparams",
                                scale, zero_point)
    _check_range(quant_min, quant_max)
    if not tensor_qparams and not quant_min <= zero_point <= quant_max:
        raise RuntimeError("`zero_point` must be between `quant_min` and `quant_max`.")
    _refuse_integers(input, "fake_quantize_tensor_cachemask_kernel_type_handling")
    scale = Tensor._make(np.asarray(scale._array if tensor_qparams else scale, np.float32))
    zero_point = Tensor._make(np.asarray(
        zero_point._array if tensor_qparams else zero_point, np.int32))
    result = _fake_quantize(input, scale, zero_point, quant_min=quant_min, quant_max=quant_max,
                            per_channel=False)
    rename_node(result.grad_fn, "FakeQuantizePerTensorAffineCachemaskTensorQparamsBackward0"
                if tensor_qparams else "FakeQuantizePerTensorAffineCachemaskBackward0")
    return result


def fake_quantize_per_channel_affine(input, scale, zero_point, axis, quant_min, quant_max):
    """A ``scale`` and ``zero_point`` per index of dimension ``axis`` (1-D tensors); PyTorch's
    checks in its order."""
    _refuse_grad_of_qparams("fake_quantize_per_channel_affine_cachemask", scale, zero_point)
    if scale.dtype.is_floating_point and scale._array.dtype != np.float32:
        raise RuntimeError(f"Scale must be Float or BFloat16, found {_scalar_name(scale)}")
    if zero_point._array.dtype not in (np.int32, np.float32, np.float16):
        raise RuntimeError(f"Zero-point must be Int32, Float or Half, found "
                           f"{_scalar_name(zero_point)}")
    _check_qparam_shapes(input, scale, zero_point, axis)
    _check_range(quant_min, quant_max)
    if not zero_point.dtype.is_floating_point and zero_point.numel() and not (
            quant_min <= zero_point._array.min() and zero_point._array.max() <= quant_max):
        raise RuntimeError("`zero_point` must be between `quant_min` and `quant_max`.")
    if axis < 0:
        raise RuntimeError("`axis` must be between 0 and number of dimensions of input")
    _refuse_integers(input, "fake_quantize_channel_cachemask_cpu_type_handling")
    along_axis = [1] * input.dim()
    along_axis[axis] = -1
    return _fake_quantize(input, scale.reshape(along_axis), zero_point.reshape(along_axis),
                          quant_min=quant_min, quant_max=quant_max, per_channel=True)


def _check_qparam_shapes(input, scale, zero_point, axis):
    if scale.dim() != 1:
        raise RuntimeError("scale should be a 1-D tensor")
    if zero_point.dim() != 1:
        raise RuntimeError("zero point should be a 1-D tensor")
    if scale.numel() != zero_point.numel():
        raise RuntimeError("scale and zero-point need to have the same dimensions")
    if scale.numel() != input.shape[_wrapped_axis(axis, input.dim())]:
        raise RuntimeError("dimensions of scale and zero-point are not consistent with input "
                           "tensor")


def _wrapped_axis(axis, ndim):
    """``axis`` as ``input.size(axis)`` reads it, with its IndexErrors."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {axis} but tensor has no dimensions")
    if not -ndim <= axis < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                         f"{ndim - 1}], but got {axis})")
    return axis % ndim


def _scalar_name(tensor):
    """PyTorch's name of a dtype in these messages: Long, Double, …"""
    return SCALAR_TYPE_NAMES[str(tensor._array.dtype)]
