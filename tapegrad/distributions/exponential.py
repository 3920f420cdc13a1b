"""The exponential distribution, the Weibull and Pareto distributions built on it by
transforms, and the generalized Pareto distribution that extends it."""
import math
import numbers

from .. import ops
from ..ops.gamma_functions import lgamma
from ..tensor import Size
from . import constraints
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform, PowerTransform
from .utils import broadcast_all, draw, euler_constant

__all__ = ["Exponential", "Weibull", "Pareto", "GeneralizedPareto"]


class Exponential(ExponentialFamily):
    """Density ``rate · e^(−rate x)`` on x ≥ 0; samples are ``ε / rate`` with ε ~ Exp(1)."""
    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        batch_shape = () if isinstance(rate, numbers.Number) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def mode(self):
        return ops.zeros_like(self.rate)

    @property
    def stddev(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        noise = draw(lambda generator, size: generator.exponential(size), shape, self.rate.dtype)
        return noise / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - (-self.rate * value).exp()

    def icdf(self, value):
        return -(-value).log1p() / self.rate

    def entropy(self):
        return 1.0 - self.rate.log()

    @property
    def _natural_params(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -(-x).log()


class Weibull(TransformedDistribution):
    """``scale · E^(1/concentration)`` for E ~ Exp(1)."""
    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive

    def __init__(self, scale, concentration, validate_args=None):
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base_dist = Exponential(ops.ones_like(self.scale), validate_args=validate_args)
        super().__init__(base_dist, self._transforms(), validate_args=validate_args)

    def _transforms(self):
        return [PowerTransform(exponent=self.concentration_reciprocal),
                AffineTransform(loc=0, scale=self.scale)]

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Weibull, _instance)
        batch_shape = Size(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.concentration_reciprocal = new.concentration.reciprocal()
        TransformedDistribution.__init__(new, self.base_dist.expand(batch_shape),
                                         new._transforms(), validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        return self.scale * lgamma(1 + self.concentration_reciprocal).exp()

    @property
    def mode(self):
        return self.scale * ((self.concentration - 1) / self.concentration
                             ) ** self.concentration.reciprocal()

    @property
    def variance(self):
        return self.scale.pow(2) * (lgamma(1 + 2 * self.concentration_reciprocal).exp()
                                    - (2 * lgamma(1 + self.concentration_reciprocal)).exp())

    def entropy(self):
        return (euler_constant * (1 - self.concentration_reciprocal)
                + (self.scale * self.concentration_reciprocal).log() + 1)


class Pareto(TransformedDistribution):
    """``scale · e^E`` for E ~ Exp(alpha): support ``[scale, ∞)``."""
    arg_constraints = {"alpha": constraints.positive, "scale": constraints.positive}

    def __init__(self, scale, alpha, validate_args=None):
        self.scale, self.alpha = broadcast_all(scale, alpha)
        base_dist = Exponential(self.alpha, validate_args=validate_args)
        super().__init__(base_dist, [ExpTransform(), AffineTransform(loc=0, scale=self.scale)],
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Pareto, _instance)
        new.scale = self.scale.expand(batch_shape)
        new.alpha = self.alpha.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        a = self.alpha.clamp(min=1)
        return a * self.scale / (a - 1)

    @property
    def mode(self):
        return self.scale

    @property
    def variance(self):
        a = self.alpha.clamp(min=2)
        return self.scale.pow(2) * a / ((a - 1).pow(2) * (a - 2))

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        return constraints.greater_than_eq(self.scale)

    def entropy(self):
        return (self.scale / self.alpha).log() + (1 + self.alpha.reciprocal())


class GeneralizedPareto(Distribution):
    """Survival function ``(1 + ξ z)^(−1/ξ)`` for ``z = (x − loc) / scale`` (ξ the
    concentration; ξ = 0 is the shifted exponential). Sampled through its inverse cdf."""
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive,
                       "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        all_numbers = all(isinstance(v, numbers.Number) for v in (loc, scale, concentration))
        super().__init__(() if all_numbers else self.loc.size(), validate_args=validate_args)

    def _safe_concentration(self, zero=None):
        """ξ, with 1 where ξ ≈ 0 (those elements take the exponential branch instead).
        PyTorch's log densities compare ξ with a default-dtype ``tensor(0.0)`` (so a ξ of
        another dtype is refused: "Double did not match Float"); its icdf with zeros_like."""
        zero = ops.zeros_like(self.concentration) if zero is None else zero
        at_zero = ops.isclose(self.concentration, zero)
        return at_zero, ops.where(at_zero, ops.ones_like(self.concentration), self.concentration)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return self.icdf(ops.rand(shape, dtype=self.loc.dtype))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        at_zero, safe = self._safe_concentration(ops.tensor(0.0))
        y = 1 / safe + ops.ones_like(z)
        nonzero = ops.where(y == 0, y, y * (safe * z).log1p())
        return -self.scale.log() - ops.where(at_zero, z, nonzero)

    def log_survival_function(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        at_zero, safe = self._safe_concentration(ops.tensor(0.0))
        return ops.where(at_zero, -z, -(safe * z).log1p() / safe)

    def log_cdf(self, value):
        return (-self.log_survival_function(value).exp()).log1p()

    def cdf(self, value):
        return self.log_cdf(value).exp()

    def icdf(self, value):
        at_zero, safe = self._safe_concentration()
        log_u = (-value).log1p()
        return ops.where(at_zero, self.loc - self.scale * log_u,
                         self.loc + self.scale / safe * (-safe * log_u).expm1())

    @property
    def mean(self):
        valid = self.concentration < 1
        safe = ops.where(valid, self.concentration, ops.full_like(self.concentration, 0.5))
        result = self.loc + self.scale / (1 - safe)
        return ops.where(valid, result, ops.full_like(result, math.nan))

    @property
    def variance(self):
        valid = self.concentration < 0.5
        safe = ops.where(valid, self.concentration, ops.full_like(self.concentration, 0.25))
        result = self.scale ** 2 / ((1 - safe) ** 2 * (1 - 2 * safe))
        return ops.where(valid, result, ops.full_like(result, math.nan))

    def entropy(self):
        return (self.scale.log() + self.concentration + 1).broadcast_to(self._batch_shape)

    @property
    def mode(self):
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        """Bounded above by loc − scale/ξ for a negative ξ, however close to 0."""
        upper = ops.where(self.concentration < 0, self.loc - self.scale / self.concentration,
                          ops.full_like(self.loc, math.inf))
        return constraints.interval(self.loc, upper)
