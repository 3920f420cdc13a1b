"""Fake quantization, as quantization-aware training uses it: values rounded to an integer grid
and back, in floating point (``torch.fake_quantize_per_tensor_affine`` / ``_per_channel_affine``).

``out = (clamp(round(x / scale) + zero_point, quant_min, quant_max) - zero_point) * scale``, with
round-half-to-even. The gradient is the straight-through estimator: the incoming gradient where
``x`` landed inside ``[quant_min, quant_max]``, zero where it was clamped. Scale and zero point
get no gradient (PyTorch's learnable variants are other functions).
"""
import numpy as np

from ..dtypes import SCALAR_TYPE_NAMES
from ..tensor import Tensor
from .copies import rename_node
from .elementwise import ge, le, logical_and, reciprocal, round
from .registry import OTHER, primitive

__all__ = ["fake_quantize_per_tensor_affine", "fake_quantize_per_channel_affine"]


def _grid_positions(x, scale, zero_point):
    """``round(x / scale) + zero_point`` as the kernels compute it: times ``1 / scale`` in
    float32, rounded half to even."""
    inverse = np.float32(1.0) / scale.astype(np.float32)
    return np.rint(x * inverse) + zero_point


@primitive("fake_quantize", node="FakeQuantizePerChannelAffineCachemaskBackward0",
           group=OTHER, saves=("a", "scale", "zero_point"),
           nondifferentiable=("scale", "zero_point"))
def _fake_quantize(a, scale, zero_point, *, quant_min, quant_max):
    """``a`` on the grid of ``scale`` and ``zero_point`` (broadcast against ``a``)."""
    grid = np.clip(_grid_positions(a, scale, zero_point), quant_min, quant_max)
    return ((grid - zero_point) * scale).astype(a.dtype)


@_fake_quantize.vjp
def _(ctx, grad, quant_min, quant_max):
    a, scale, zero_point = ctx.saved
    positions = round(a * reciprocal(scale)) + zero_point  # (the forward's, in tapegrad ops)
    inside = logical_and(ge(positions, quant_min), le(positions, quant_max))
    return grad * inside.to(grad.dtype), None, None


def _check_range(quant_min, quant_max):
    if quant_min > quant_max:
        raise RuntimeError("`quant_min` should be less than or         equal to `quant_max`.")


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
    _check_range(quant_min, quant_max)
    if not tensor_qparams and not quant_min <= zero_point <= quant_max:
        raise RuntimeError("`zero_point` must be between `quant_min` and `quant_max`.")
    scale = Tensor._make(np.asarray(scale._array if tensor_qparams else scale, np.float32))
    zero_point = Tensor._make(np.asarray(
        zero_point._array if tensor_qparams else zero_point, np.int32))
    result = _fake_quantize(input, scale, zero_point, quant_min=quant_min, quant_max=quant_max)
    rename_node(result.grad_fn, "FakeQuantizePerTensorAffineCachemaskTensorQparamsBackward0"
                if tensor_qparams else "FakeQuantizePerTensorAffineCachemaskBackward0")
    return result


def fake_quantize_per_channel_affine(input, scale, zero_point, axis, quant_min, quant_max):
    """A ``scale`` and ``zero_point`` per index of dimension ``axis`` (1-D tensors)."""
    if scale.dtype.is_floating_point and scale._array.dtype != np.float32:
        raise RuntimeError(f"Scale must be Float or BFloat16, found {_scalar_name(scale)}")
    if zero_point._array.dtype not in (np.int32, np.float32, np.float16):
        raise RuntimeError(f"Zero-point must be Int32, Float or Half, found "
                           f"{_scalar_name(zero_point)}")
    _check_range(quant_min, quant_max)
    axis = _wrapped_axis(axis, input.dim())
    if (scale.dim() != 1 or zero_point.dim() != 1 or scale.numel() != zero_point.numel()
            or scale.numel() != input.shape[axis]):
        raise RuntimeError("dimensions of scale and zero-point are not consistent with input "
                           "tensor")
    along_axis = [1] * input.dim()
    along_axis[axis] = -1
    return _fake_quantize(input, scale.reshape(along_axis), zero_point.reshape(along_axis),
                          quant_min=quant_min, quant_max=quant_max)


def _wrapped_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                         f"{ndim - 1}], but got {axis})")
    return axis % ndim


def _scalar_name(tensor):
    """PyTorch's name of a dtype in these messages: Long, Double, …"""
    return SCALAR_TYPE_NAMES[str(tensor._array.dtype)]
