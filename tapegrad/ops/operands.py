"""Turning user arguments into tensors of one dtype, following PyTorch's promotion rules."""
import numbers

import numpy as np

from .. import dtypes
from ..tensor import Tensor

__all__ = ["as_tensor_operand", "promote", "cast_operand", "scalar_tensor", "broadcast_error",
           "CPP_TYPE_NAMES"]

# How PyTorch's C++ spells each dtype, which some of its messages print ("float != double").
CPP_TYPE_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double",
                  "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int",
                  "uint8": "unsigned char", "bool": "bool"}


def scalar_tensor(value, dtype):
    """A Python number as a 0-d tensor that needs no grad (what PyTorch calls a wrapped number)."""
    return wrapped_number(value, dtype.numpy)


_wrapped = {}  # (type, value, numpy dtype) -> read-only 0-d tensor, shared by every op using it


def wrapped_number(value, np_dtype):
    """A cached read-only 0-d tensor for ``value``: ``x * 2`` in a loop makes no new array.

    Zeros and NaNs bypass the cache: ``-0.0 == 0.0`` would share one entry (losing the sign) and
    ``nan != nan`` would never hit. A Python int out of the dtype's range wraps around, as in
    PyTorch (``uint8_tensor + -1`` adds 255).
    """
    if value == 0 or value != value:
        return Tensor._make(_number_array(value, np_dtype))
    key = (type(value), value, np_dtype)
    tensor = _wrapped.get(key)
    if tensor is None:
        if len(_wrapped) >= 4096:
            _wrapped.clear()
        array = _number_array(value, np_dtype)
        array.flags.writeable = False
        tensor = _wrapped[key] = Tensor._make(array)
    return tensor


def _number_array(value, np_dtype):
    try:
        return np.array(value, dtype=np_dtype)
    except OverflowError:
        return np.array(value).astype(np_dtype)


def as_tensor_operand(value):
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (numbers.Number, np.generic)):
        return scalar_tensor(value, dtypes.result_type(value))
    if isinstance(value, np.ndarray):
        return Tensor._make(value)
    raise TypeError(f"expected a Tensor or a number, got {type(value).__name__}")


def promote(a, b):
    """Two operands as tensors of their common dtype.

    The common cases take a fast path: two tensors of one dtype, and a float tensor with a Python
    number. Everything else goes through ``dtypes.result_type`` and a differentiable cast.
    """
    a_is_tensor, b_is_tensor = isinstance(a, Tensor), isinstance(b, Tensor)
    if a_is_tensor and b_is_tensor:
        if a._array.dtype is b._array.dtype or a._array.dtype == b._array.dtype:
            return a, b
    elif a_is_tensor and type(b) in (float, int) and a._array.dtype.kind == "f":
        return a, wrapped_number(b, a._array.dtype)
    elif b_is_tensor and type(a) in (float, int) and b._array.dtype.kind == "f":
        return wrapped_number(a, b._array.dtype), b
    result = dtypes.result_type(a, b)
    return cast_operand(a, result), cast_operand(b, result)


def cast_operand(value, dtype):
    """A tensor or number as a tensor of ``dtype`` (a differentiable cast for tensors)."""
    if not isinstance(value, Tensor):
        if not isinstance(value, (numbers.Number, np.generic)):
            raise TypeError(f"unsupported operand type: {type(value).__name__}")
        return scalar_tensor(value, dtype)
    if value._array.dtype == dtype.numpy:
        return value
    from .elementwise import to_dtype
    return to_dtype(value, dtype)


def broadcast_error(inputs, params):
    """PyTorch's message for shapes that do not broadcast, naming the first mismatch."""
    a, b = inputs[0]._array.shape, inputs[1]._array.shape
    for i in range(1, max(len(a), len(b)) + 1):
        sa = a[-i] if i <= len(a) else 1
        sb = b[-i] if i <= len(b) else 1
        if sa != sb and sa != 1 and sb != 1:
            return (f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at "
                    f"non-singleton dimension {max(len(a), len(b)) - i}")
    return f"shapes {list(a)} and {list(b)} are not broadcastable"
