"""Constraints: the valid values of a distribution's parameters and samples.

``check(value)`` gives a boolean tensor (one entry per batch element); the reprs are PyTorch's,
because they appear in validation errors.
"""
import numpy as np

from .. import dtypes, ops
from ..ops.matrix_functions import cholesky_ex
from .utils import format_value

__all__ = ["Constraint", "real", "real_vector", "positive", "nonnegative", "unit_interval",
           "simplex", "boolean", "one_hot", "interval", "half_open_interval", "integer_interval",
           "nonnegative_integer", "positive_integer", "greater_than", "greater_than_eq",
           "less_than", "multinomial", "independent", "dependent", "dependent_property",
           "is_dependent", "square", "symmetric", "positive_semidefinite", "positive_definite",
           "lower_cholesky", "lower_triangular", "corr_cholesky", "cat", "stack",
           "MixtureSameFamilyConstraint"]


class Constraint:
    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self):
        return _shown_name(self) + "()"


def _shown_name(constraint):
    """The class name as PyTorch's reprs show it: without its first character, which for the
    library's own classes is the leading underscore (a user's ``Ordered`` shows as ``rdered``)."""
    return type(constraint).__name__[1:]


class _Dependent(Constraint):
    """Depends on other parameters: cannot be checked on its own."""

    def __init__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        self._is_discrete = is_discrete
        self._event_dim = event_dim

    @property
    def is_discrete(self):
        if self._is_discrete is NotImplemented:
            raise NotImplementedError(".is_discrete cannot be determined statically")
        return self._is_discrete

    @property
    def event_dim(self):
        if self._event_dim is NotImplemented:
            raise NotImplementedError(".event_dim cannot be determined statically")
        return self._event_dim

    def __call__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        return _Dependent(is_discrete=is_discrete, event_dim=event_dim)

    def check(self, value):
        raise ValueError("Cannot determine validity of dependent constraint")


class _DependentProperty(property, _Dependent):
    """A property of a distribution (its support computed from its parameters) that reads as a
    dependent constraint on the class."""

    def __init__(self, fn=None, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        property.__init__(self, fn)
        _Dependent.__init__(self, is_discrete=is_discrete, event_dim=event_dim)

    def __call__(self, fn):
        return _DependentProperty(fn, is_discrete=self._is_discrete, event_dim=self._event_dim)


def is_dependent(constraint):
    return isinstance(constraint, _Dependent)


class _IndependentConstraint(Constraint):
    """``base_constraint`` over the last ``reinterpreted_batch_ndims`` dimensions as a whole."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def is_discrete(self):
        return self.base_constraint.is_discrete

    @property
    def event_dim(self):
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        if result.dim() < self.reinterpreted_batch_ndims:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        result = result.reshape(result.shape[:result.dim() - self.reinterpreted_batch_ndims]
                                + (-1,))
        return result.all(-1)

    def __repr__(self):
        return f"{_shown_name(self)}({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class _Real(Constraint):
    def check(self, value):
        return ~ops.isnan(value)


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _OneHot(Constraint):
    is_discrete = True
    event_dim = 1

    def check(self, value):
        is_boolean = (value == 0) | (value == 1)
        return is_boolean.all(-1) & value.sum(-1).eq(1)


class _IntegerGreaterThan(Constraint):
    """Integers ``>= lower_bound``."""
    is_discrete = True

    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return (value % 1 == 0) & (value >= self.lower_bound)

    def __repr__(self):
        return f"{_shown_name(self)}(lower_bound={format_value(self.lower_bound)})"


class _Multinomial(Constraint):
    """Non-negative counts summing to at most ``upper_bound`` (PyTorch's weaker check)."""
    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return (value >= 0).all(dim=-1) & (value.sum(dim=-1) <= self.upper_bound)


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return self.lower_bound < value

    def __repr__(self):
        return f"{_shown_name(self)}(lower_bound={format_value(self.lower_bound)})"


class _LessThan(Constraint):
    def __init__(self, upper_bound):
        self.upper_bound = upper_bound

    def check(self, value):
        return value < self.upper_bound

    def __repr__(self):
        return f"{_shown_name(self)}(upper_bound={format_value(self.upper_bound)})"


class _GreaterThanEq(_GreaterThan):
    def check(self, value):
        return self.lower_bound <= value

    def __repr__(self):
        return f"{_shown_name(self)}(lower_bound={format_value(self.lower_bound)})"


class _Interval(Constraint):
    """``lower_bound <= value <= upper_bound``."""

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self):
        return (f"{_shown_name(self)}(lower_bound={format_value(self.lower_bound)}, "
                f"upper_bound={format_value(self.upper_bound)})")


class _HalfOpenInterval(_Interval):
    """``lower_bound <= value < upper_bound``."""

    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & super().check(value)


class _Simplex(Constraint):
    """Non-negative vectors summing to one (over the last dimension)."""
    event_dim = 1

    def check(self, value):
        return ops.all(value >= 0, dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
real = _Real()
real_vector = independent(real, 1)
boolean = _Boolean()
one_hot = _OneHot()
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
unit_interval = _Interval(0.0, 1.0)
simplex = _Simplex()
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
interval = _Interval
half_open_interval = _HalfOpenInterval
integer_interval = _IntegerInterval
multinomial = _Multinomial


class _Square(Constraint):
    event_dim = 2

    def check(self, value):
        return ops.full(tuple(value.shape[:-2]), value.shape[-2] == value.shape[-1],
                        dtype=dtypes.bool)


class _Symmetric(_Square):
    def check(self, value):
        matrices = value.detach().numpy()
        if matrices.shape[-2] != matrices.shape[-1]:
            return super().check(value)
        return ops.tensor(np.isclose(matrices, np.swapaxes(matrices, -1, -2),
                                     atol=1e-6).all((-2, -1)))


class _PositiveSemidefinite(_Symmetric):
    """Symmetric matrices whose eigenvalues are all non-negative."""

    def check(self, value):
        symmetric = super().check(value)
        if not bool(symmetric.all()):
            return symmetric
        smallest = np.linalg.eigvalsh(value.detach().numpy()).min(-1)
        return ops.tensor(smallest >= 0)


class _PositiveDefinite(_Symmetric):
    """Symmetric matrices with a Cholesky factor, as PyTorch asks ``cholesky_ex`` (so a nearly
    singular matrix, or one with an infinite diagonal, passes or fails as there)."""

    def check(self, value):
        symmetric = super().check(value)
        if not bool(symmetric.all()):
            return symmetric
        return cholesky_ex(value.detach()).info == 0


class _LowerCholesky(Constraint):
    """Lower-triangular matrices with a positive diagonal."""
    event_dim = 2

    def check(self, value):
        matrices = value.detach().numpy()
        lower = (np.tril(matrices) == matrices).all((-2, -1))
        positive_diagonal = (np.diagonal(matrices, axis1=-2, axis2=-1) > 0).all(-1)
        return ops.tensor(lower & positive_diagonal)


class _CorrCholesky(_LowerCholesky):
    """Cholesky factors of correlation matrices: lower Cholesky factors whose rows have unit
    Euclidean norm (up to ten machine epsilons per column), so ``L Lᵀ`` has a unit diagonal."""

    def check(self, value):
        tolerance = float(np.finfo(value.dtype.numpy).eps) * value.shape[-1] * 10
        row_norms = np.linalg.norm(value.detach().numpy(), axis=-1)
        unit_rows = ops.tensor((np.abs(row_norms - 1.0) <= tolerance).all(-1))
        return super().check(value) & unit_rows


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value):
        return (value.tril() == value).reshape(value.shape[:-2] + (-1,)).all(-1)


square = _Square()
symmetric = _Symmetric()
positive_semidefinite = _PositiveSemidefinite()
positive_definite = _PositiveDefinite()
lower_cholesky = _LowerCholesky()
corr_cholesky = _CorrCholesky()
lower_triangular = _LowerTriangular()


class MixtureSameFamilyConstraint(Constraint):
    """A component's constraint, checked on a value broadcast against every component."""

    def __init__(self, base_constraint):
        self.base_constraint = base_constraint

    @property
    def is_discrete(self):
        return self.base_constraint.is_discrete

    @property
    def event_dim(self):
        return self.base_constraint.event_dim

    def check(self, value):
        result = self.base_constraint.check(value.unsqueeze(-1 - self.event_dim))
        if value.dim() < self.event_dim:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        kept = value.dim() - self.event_dim
        return result.reshape(tuple(result.shape[:kept]) + (-1,)).all(-1)

    def __repr__(self):
        return f"MixtureSameFamilyConstraint({self.base_constraint!r})"


def _check_dim(dim, value):
    if not -value.dim() <= dim < value.dim():
        raise AssertionError(f"dim {dim} out of range for value with {value.dim()} dimensions")


class _Cat(Constraint):
    """``cseq[i]`` on the i-th block (of ``lengths[i]`` entries) along ``dim``."""

    def __init__(self, cseq, dim=0, lengths=None):
        self.cseq = list(cseq)
        self.lengths = [1] * len(self.cseq) if lengths is None else list(lengths)
        if len(self.lengths) != len(self.cseq):
            raise AssertionError(f"lengths ({len(self.lengths)}) must match cseq "
                                 f"({len(self.cseq)})")
        self.dim = dim

    @property
    def is_discrete(self):
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self):
        return max(c.event_dim for c in self.cseq)

    def check(self, value):
        _check_dim(self.dim, value)
        starts = np.cumsum([0] + self.lengths[:-1])
        return ops.cat([c.check(value.narrow(self.dim, int(start), length))
                        for c, start, length in zip(self.cseq, starts, self.lengths)], self.dim)


class _Stack(Constraint):
    """``cseq[i]`` on the i-th slice along ``dim``."""

    def __init__(self, cseq, dim=0):
        self.cseq = list(cseq)
        self.dim = dim

    @property
    def is_discrete(self):
        return any(c.is_discrete for c in self.cseq)

    @property
    def event_dim(self):
        dim = max(c.event_dim for c in self.cseq)
        return dim + 1 if self.dim + dim < 0 else dim

    def check(self, value):
        _check_dim(self.dim, value)
        slices = [value.select(self.dim, i) for i in range(value.size(self.dim))]
        return ops.stack([c.check(v) for v, c in zip(slices, self.cseq)], self.dim)


cat = _Cat
stack = _Stack
