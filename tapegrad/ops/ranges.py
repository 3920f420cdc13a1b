"""``torch.range``, arange's deprecated inclusive sibling, and ``nextafter``, the next float."""
import builtins
import math
import numbers

import numpy as np

from .. import dtypes
from .._warnings import warn_at_caller
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .creation import _finish, _numpy_dtype
from .inplace import written_back

__all__ = ["range", "nextafter", "nextafter_"]


_MISSING = object()  # a required argument left out: PyTorch's own message, not Python's


def range(start=_MISSING, end=_MISSING, step=1, *, dtype=None, device=None, requires_grad=False):
    """``start, start + step, ...`` up to and including ``end``, in the default dtype unless
    ``dtype`` says otherwise."""
    start, end, step = _range_numbers(start, end, step)
    warn_at_caller("torch.range is deprecated and will be removed in a future release because its "
                   "behavior is inconsistent with Python's range builtin. Instead, use "
                   "torch.arange, which produces values in [start, end).")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    count = builtins.int(math.floor((end - start) / step)) + 1
    values = start + np.arange(count, dtype=np.float64) * step
    return _finish(values.astype(_numpy_dtype(dtype)), requires_grad, device)


def _range_numbers(start, end, step):
    """``start``, ``end`` and ``step`` as PyTorch's argument parser reads its Numbers (a 0-d
    tensor needing no gradient gives its value; a complex one must be real), with its errors."""
    missing = ["start", "end"] if start is _MISSING else ["end"] if end is _MISSING else []
    if missing:
        names = ", ".join(f'"{name}"' for name in missing)
        raise TypeError(f"range() missing {len(missing)} required positional argument"
                        f"{'s' if len(missing) == 1 else ''}: {names}")
    return tuple(_number(name, position, value)
                 for position, (name, value) in enumerate(
                     (("start", start), ("end", end), ("step", step)), 1))


def _number(name, position, value):
    """One Number argument of ``range``, or the parser's error naming it."""
    if isinstance(value, Tensor) and not value._array.ndim and not value.requires_grad:
        value = value.item()
    if isinstance(value, Tensor) or not isinstance(value, numbers.Number):
        raise TypeError(f"range(): argument '{name}' (position {position}) must be Number, not "
                        f"{type(value).__name__}")
    if isinstance(value, complex):
        if value.imag:
            raise RuntimeError("value cannot be converted to type double without overflow")
        return value.real
    return value


def nextafter(input, other):
    """The next floating-point value after ``input`` towards ``other`` (not differentiable)."""
    if not isinstance(other, Tensor):
        raise TypeError("nextafter(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    common = dtypes.result_type(input, other).numpy
    if common.kind != "f":
        raise NotImplementedError(f'"nextafter_cpu" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[common.name]}'")
    return Tensor._make(np.asarray(np.nextafter(input._array.astype(common),
                                                other._array.astype(common))))


nextafter_ = written_back(nextafter)
