"""PyTorch's complex-number API as it acts on real tensors (tapegrad has no complex dtypes).

Generic code calls ``x.conj()``, ``x.real`` or ``x.mH`` whatever the dtype; on a real tensor
PyTorch returns the tensor itself (no copy, no node), refuses ``imag``, and takes the angle of
a real number: 0 or pi.
"""

import numpy as np

from .. import dtypes
from . import elementwise as ew

__all__ = ["conj", "conj_physical", "conj_physical_", "resolve_conj", "resolve_neg", "is_conj",
           "is_neg", "real", "imag", "angle", "adjoint"]


def _the_input(input):
    """Conjugating a real tensor, or taking its real part, gives the tensor itself."""
    return input


def _false(input):
    """A real tensor is never a lazily conjugated or negated view."""
    return False


conj = conj_physical = conj_physical_ = resolve_conj = resolve_neg = real = _the_input
is_conj = is_neg = _false


def imag(input):
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


def _angle_values(a):
    """pi for a negative number, 0 otherwise, NaN for NaN; an integer's angle is a float in the
    default dtype, as PyTorch computes it."""
    if a.dtype.kind in "biu":
        a = a.astype(dtypes.get_default_dtype().numpy)
    return np.where(a < 0, a.dtype.type(np.pi), np.where(np.isnan(a), a, 0)).astype(a.dtype)


# A real angle is piecewise constant: its gradient is zero (AngleBackward0 says so).
angle = ew._constant_op("angle", "AngleBackward0", _angle_values,
                        "(3.141592653589793 if {0} < 0 else ({0} if {0} != {0} else 0.0))")


def adjoint(input):
    """The conjugate transpose of a (batch of) matrices: the transpose, for real tensors."""
    if input.dim() < 2:
        raise RuntimeError(f"tensor.adjoint() is only supported on matrices or batches of "
                           f"matrices. Got {input.dim()}-D tensor.")
    return input.transpose(-2, -1)
