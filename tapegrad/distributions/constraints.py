"""Constraints: the valid values of a distribution's parameters and samples.

``check(value)`` gives a boolean tensor (one entry per batch element); the reprs are PyTorch's,
because they appear in validation errors.
"""
import numpy as np

from .. import ops
from .utils import format_value

__all__ = ["Constraint", "real", "real_vector", "positive", "unit_interval", "simplex", "boolean",
           "interval", "integer_interval", "greater_than", "less_than", "dependent",
           "is_dependent", "positive_definite", "lower_cholesky"]


class Constraint:
    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return type(self).__name__.lstrip("_") + "()"


class _Dependent(Constraint):
    """Depends on other parameters: cannot be checked on its own."""

    def check(self, value):
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint):
    return isinstance(constraint, _Dependent)


class _Real(Constraint):
    def check(self, value):
        return ~ops.isnan(value)


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def __repr__(self):
        return f"GreaterThan(lower_bound={format_value(self.lower_bound)})"


class _LessThan(Constraint):
    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return value < self.upper_bound

    def __repr__(self):
        return f"LessThan(upper_bound={format_value(self.upper_bound)})"


class _Interval(Constraint):
    """``lower_bound <= value <= upper_bound``."""

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return (f"{type(self).__name__.lstrip('_')}(lower_bound={format_value(self.lower_bound)}, "
                f"upper_bound={format_value(self.upper_bound)})")


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & super().check(value)


class _Simplex(Constraint):
    """Non-negative vectors summing to one (over the last dimension)."""
    event_dim = 1

    def check(self, value):
        return ops.all(value >= 0, dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _RealVector(Constraint):
    """Vectors of reals, checked as a whole over the last dimension."""
    event_dim = 1

    def check(self, value):
        return ops.all(~ops.isnan(value), dim=-1)

    def __repr__(self):
        return "IndependentConstraint(Real(), 1)"


dependent = _Dependent()
real = _Real()
real_vector = _RealVector()
boolean = _Boolean()
positive = _GreaterThan(0.0)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
greater_than = _GreaterThan
less_than = _LessThan
interval = _Interval
integer_interval = _IntegerInterval


class _PositiveDefinite(Constraint):
    """Symmetric matrices with a Cholesky factor (all eigenvalues positive)."""
    event_dim = 2

    def check(self, value):
        matrices = value.detach().numpy()
        symmetric = np.isclose(matrices, np.swapaxes(matrices, -1, -2), atol=1e-6).all((-2, -1))
        positive = np.linalg.eigvalsh(matrices).min(-1) > 0
        return ops.tensor(symmetric & positive)


class _LowerCholesky(Constraint):
    """Lower-triangular matrices with a positive diagonal."""
    event_dim = 2

    def check(self, value):
        matrices = value.detach().numpy()
        lower = (np.tril(matrices) == matrices).all((-2, -1))
        positive_diagonal = (np.diagonal(matrices, axis1=-2, axis2=-1) > 0).all(-1)
        return ops.tensor(lower & positive_diagonal)


positive_definite = _PositiveDefinite()
lower_cholesky = _LowerCholesky()
