"""Bitwise operations (``&``, ``|``, ``^``, ``~``, ``<<``, ``>>``) on integer and bool tensors.

None is differentiable; they are primitives all the same, so that the compiler sees a mask built
with ``&`` as it sees a comparison. On bool tensors ``&``, ``|``, ``^`` and ``~`` are the logical
operations; a floating operand is refused with PyTorch's message.
"""
import numpy as np

from ..tensor import _LEGACY_TYPE_NAMES
from .elementwise import _constant_op
from .inplace import _binary_inplace, apply_inplace

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift",
           "bitwise_right_shift", "bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_not_",
           "bitwise_left_shift_", "bitwise_right_shift_"]


def _integral(kernel_name, ufunc):
    """``ufunc`` refusing floating operands as PyTorch's CPU kernel ``kernel_name`` does."""
    def compute(*arrays):
        for array in arrays:
            if array.dtype.kind == "f":
                raise NotImplementedError(f'"{kernel_name}" not implemented for '
                                          f"'{_LEGACY_TYPE_NAMES[array.dtype.name]}'")
        return ufunc(*arrays)
    if ufunc.nin == 2:
        return lambda a, b: compute(a, b)
    return lambda a: compute(a)


bitwise_and = _constant_op("bitwise_and", "BitwiseAndBackward0",
                           _integral("bitwise_and_cpu", np.bitwise_and), "{0} & {1}")
bitwise_or = _constant_op("bitwise_or", "BitwiseOrBackward0",
                          _integral("bitwise_or_cpu", np.bitwise_or), "{0} | {1}")
bitwise_xor = _constant_op("bitwise_xor", "BitwiseXorBackward0",
                           _integral("bitwise_xor_cpu", np.bitwise_xor), "{0} ^ {1}")
bitwise_not = _constant_op("bitwise_not", "BitwiseNotBackward0",
                           _integral("bitwise_not_cpu", np.invert), None)
bitwise_left_shift = _constant_op("bitwise_left_shift", "BitwiseLeftShiftBackward0",
                                  _integral("lshift_cpu", np.left_shift), "{0} << {1}")
bitwise_right_shift = _constant_op("bitwise_right_shift", "BitwiseRightShiftBackward0",
                                   _integral("rshift_cpu", np.right_shift), "{0} >> {1}")


def _invert(input):
    """``~input``: PyTorch refuses a floating tensor with a TypeError here (a NotImplementedError
    from ``bitwise_not``)."""
    if input._array.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return bitwise_not(input)


bitwise_and_ = _binary_inplace(bitwise_and.primitive)
bitwise_or_ = _binary_inplace(bitwise_or.primitive)
bitwise_xor_ = _binary_inplace(bitwise_xor.primitive)
bitwise_left_shift_ = _binary_inplace(bitwise_left_shift.primitive)
bitwise_right_shift_ = _binary_inplace(bitwise_right_shift.primitive)


def bitwise_not_(input):
    return apply_inplace(bitwise_not.primitive, input, (), {})
