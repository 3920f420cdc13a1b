"""Bitwise operations (``&``, ``|``, ``^``, ``~``, ``<<``, ``>>``) on integer and bool tensors.

None is differentiable; they are primitives all the same, so that the compiler sees a mask built
with ``&`` as it sees a comparison. On bool tensors ``&``, ``|``, ``^`` and ``~`` are the logical
operations; a floating operand is refused with PyTorch's message, and so are two bool operands
of a shift (a bool shifted by a number shifts in int64).
"""
import numpy as np

from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .elementwise import _constant_op
from .inplace import _binary_inplace, apply_inplace
from .operands import NUMBER_EITHER, with_overloads
from .reduction import normalize_dims

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift",
           "bitwise_right_shift", "bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_not_",
           "bitwise_left_shift_", "bitwise_right_shift_", "hash_tensor"]


def _integral(kernel_name, ufunc, refused_kinds="fc"):
    """``ufunc`` refusing floating and complex operands (and those of other ``refused_kinds``) as
    PyTorch's CPU kernel ``kernel_name`` does."""
    def compute(*arrays):
        for array in arrays:
            if array.dtype.kind in refused_kinds:
                np.broadcast_shapes(*(a.shape for a in arrays))  # shapes first, as PyTorch
                raise NotImplementedError(f'"{kernel_name}" not implemented for '
                                          f"'{_LEGACY_TYPE_NAMES[array.dtype.name]}'")
        return ufunc(*arrays)
    if ufunc.nin == 2:
        return lambda a, b: compute(a, b)
    return lambda a: compute(a)


def _binary(name, node, kernel, lowering):
    """A bitwise primitive taking a number on either side of a tensor, not on both."""
    return with_overloads(_constant_op(name, node, kernel, lowering), NUMBER_EITHER)


bitwise_and = _binary("bitwise_and", "BitwiseAndBackward0",
                      _integral("bitwise_and_cpu", np.bitwise_and), "{0} & {1}")
bitwise_or = _binary("bitwise_or", "BitwiseOrBackward0",
                     _integral("bitwise_or_cpu", np.bitwise_or), "{0} | {1}")
bitwise_xor = _binary("bitwise_xor", "BitwiseXorBackward0",
                      _integral("bitwise_xor_cpu", np.bitwise_xor), "{0} ^ {1}")
bitwise_not = _constant_op("bitwise_not", "BitwiseNotBackward0",
                           _integral("bitwise_not_cpu", np.invert), None)
bitwise_left_shift = _binary("bitwise_left_shift", "BitwiseLeftShiftBackward0",
                             _integral("lshift_cpu", np.left_shift, "fcb"), "{0} << {1}")
bitwise_right_shift = _binary("bitwise_right_shift", "BitwiseRightShiftBackward0",
                              _integral("rshift_cpu", np.right_shift, "fcb"), "{0} >> {1}")


def _invert(input):
    """``~input``: PyTorch refuses a floating or complex tensor with a TypeError here (a
    NotImplementedError from ``bitwise_not``)."""
    if input._array.dtype.kind in "fc":
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


def hash_tensor(input, dim=None, *, keepdim=False, mode=0):
    """A checksum of ``input`` (over ``dim``, else all of it): the xor of its elements' 64-bit
    patterns, floats taken as float64 and integers as int64, read as uint64 — PyTorch's only
    ``mode``, 0. Not differentiable: the result is an integer."""
    if mode != 0:
        raise RuntimeError(f"Unknown hash_tensor mode: {mode}")
    a = input._array
    if a.dtype.kind == "c" or a.dtype == np.uint64:
        raise NotImplementedError(f'"xor_sum_cpu" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[a.dtype.name]}'")
    dims = normalize_dims(dim, a.ndim)
    _check_hashable(a, dims)
    bits = a.astype(np.float64 if a.dtype.kind == "f" else np.int64).view(np.uint64)
    return Tensor._make(np.asarray(np.bitwise_xor.reduce(bits, axis=dims, keepdims=keepdim)))


def _check_hashable(a, dims):
    """PyTorch refuses an empty reduction (xor has an identity, but its kernel checks)."""
    if dims is None and a.size == 0:
        raise RuntimeError("hash_tensor: Expected reduction dim to be specified for "
                           "input.numel() == 0. Specify the reduction dim with the 'dim' argument.")
    for d in dims or ():
        if a.shape[d] == 0:
            raise IndexError(f"hash_tensor: Expected reduction dim {d} to have non-zero size.")
