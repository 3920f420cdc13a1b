"""``torch.range``, arange's deprecated inclusive sibling, and ``nextafter``, the next float."""
import builtins
import math

import numpy as np

from .. import dtypes
from .._warnings import warn_at_caller
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .creation import _finish, _numpy_dtype
from .inplace import written_back

__all__ = ["range", "nextafter", "nextafter_"]


def range(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """``start, start + step, ...`` up to and including ``end``, in the default dtype unless
    ``dtype`` says otherwise."""
    warn_at_caller("torch.range is deprecated and will be removed in a future release because its "
                   "behavior is inconsistent with Python's range builtin. Instead, use "
                   "torch.arange, which produces values in [start, end).")
    if end is None:
        start, end = 0, start
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    count = builtins.int(math.floor((end - start) / step)) + 1
    values = start + np.arange(count, dtype=np.float64) * step
    return _finish(values.astype(_numpy_dtype(dtype)), requires_grad, device)


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
