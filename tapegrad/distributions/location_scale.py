"""Location–scale families on the real line (Laplace, Cauchy, Gumbel) and the distributions of
``|X|``, ``e^X`` and the stick-breaking of X for normal or Cauchy X (HalfNormal, HalfCauchy,
LogNormal, LogisticNormal)."""
import math
import numbers

from .. import ops
from . import constraints
from .distribution import Distribution
from .normal import Normal
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform, AffineTransform, ExpTransform, StickBreakingTransform
from .uniform import Uniform
from .utils import broadcast_all, draw, euler_constant, finfo

__all__ = ["Laplace", "Cauchy", "Gumbel", "HalfNormal", "HalfCauchy", "LogNormal",
           "LogisticNormal"]


class _LocationScale(Distribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        both_numbers = isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number)
        super().__init__(() if both_numbers else self.loc.size(), validate_args=validate_args)

    @property
    def mode(self):
        return self.loc

    def rsample(self, sample_shape=()):
        """``loc + scale · ε`` with ε from the standard member of the family."""
        noise = draw(self._standard, self._extended_shape(sample_shape), self.loc.dtype)
        return self.loc + noise * self.scale


class Laplace(_LocationScale):
    """Density ``e^(−|x − loc| / scale) / (2 scale)``."""

    def __init__(self, loc, scale, validate_args=None):  # its own, for TypeError's wording
        super().__init__(loc, scale, validate_args)

    def rsample(self, sample_shape=()):
        """By inversion, as PyTorch: ``loc − scale · sign(u) · log1p(−|u|)`` for u uniform on
        (eps − 1, 1)."""
        eps = float(finfo(self.loc.dtype).eps)
        dtype = self.loc.dtype
        u = draw(lambda generator, size: generator.uniform(size, dtype.numpy, eps - 1, 1),
                 self._extended_shape(sample_shape), dtype)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    @property
    def mean(self):
        return self.loc

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return 2 ** 0.5 * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -(2 * self.scale).log() - (value - self.loc).abs() / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        offset = value - self.loc
        return 0.5 - 0.5 * offset.sign() * (-offset.abs() / self.scale).expm1()

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * (-2 * term.abs()).log1p()

    def entropy(self):
        return 1 + (2 * self.scale).log()


class Cauchy(_LocationScale):
    """Density ``1 / (π scale (1 + ((x − loc) / scale)²))``: no mean, infinite variance."""

    def __init__(self, loc, scale, validate_args=None):  # its own, for TypeError's wording
        super().__init__(loc, scale, validate_args)

    @staticmethod
    def _standard(generator, size):
        return generator.cauchy(size, 0.0, 1.0)

    @property
    def mean(self):
        return ops.full(self._extended_shape(), math.nan, dtype=self.loc.dtype)

    @property
    def variance(self):
        return ops.full(self._extended_shape(), math.inf, dtype=self.loc.dtype)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (-math.log(math.pi) - self.scale.log()
                - ((value - self.loc) / self.scale).pow(2).log1p())

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.loc) / self.scale).atan() / math.pi + 0.5

    def icdf(self, value):
        return (math.pi * (value - 0.5)).tan() * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()


class Gumbel(TransformedDistribution):
    """``loc − scale · log(−log U)`` for U uniform."""
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        info = finfo(self.loc.dtype)
        tiny, almost_one = float(info.tiny), 1 - float(info.eps)
        if isinstance(loc, numbers.Number) and isinstance(scale, numbers.Number):
            base_dist = Uniform(tiny, almost_one, validate_args=validate_args)
        else:
            base_dist = Uniform(ops.full_like(self.loc, tiny), ops.full_like(self.loc, almost_one),
                                validate_args=validate_args)
        transforms = [ExpTransform().inv, AffineTransform(loc=0, scale=-ops.ones_like(self.scale)),
                      ExpTransform().inv, AffineTransform(loc=loc, scale=-self.scale)]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Gumbel, _instance)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return y - y.exp() - self.scale.log()

    @property
    def mean(self):
        return self.loc + self.scale * euler_constant

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return math.pi / math.sqrt(6) * self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def entropy(self):
        return self.scale.log() + (1 + euler_constant)


class _Folded(TransformedDistribution):
    """``|X|`` for X symmetric about 0 with the given scale: twice the density on x ≥ 0."""
    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None):
        super().__init__(self._base(0, scale, validate_args=False), AbsTransform(),
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(
            self._library_class(), _instance))

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mode(self):
        return ops.zeros_like(self.scale)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = self._as_value(value)
        log_prob = self.base_dist.log_prob(value) + math.log(2)
        return ops.where(value >= 0, log_prob, -math.inf)

    def _as_value(self, value):
        return value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)


class HalfNormal(_Folded):
    _base = Normal

    def __init__(self, scale, validate_args=None):  # its own, for TypeError's wording
        super().__init__(scale, validate_args)

    @property
    def mean(self):
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self):
        return self.scale.pow(2) * (1 - 2 / math.pi)


class HalfCauchy(_Folded):
    _base = Cauchy

    def __init__(self, scale, validate_args=None):  # its own, for TypeError's wording
        super().__init__(scale, validate_args)

    def _as_value(self, value):
        """As PyTorch: a number, or a value of another dtype, in the scale's dtype."""
        return ops.as_tensor(value, dtype=self.scale.dtype)

    @property
    def mean(self):
        return ops.full(self._extended_shape(), math.inf, dtype=self.scale.dtype)

    @property
    def variance(self):
        return self.base_dist.variance


class LogNormal(TransformedDistribution):
    """``e^X`` for X ~ Normal(loc, scale)."""
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        super().__init__(Normal(loc, scale, validate_args=validate_args), ExpTransform(),
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(LogNormal,
                                                                                _instance))

    @property
    def loc(self):
        return self.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.scale

    @property
    def mean(self):
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self):
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self):
        scale_sq = self.scale.pow(2)
        return scale_sq.expm1() * (2 * self.loc + scale_sq).exp()

    def entropy(self):
        return self.base_dist.entropy() + self.loc


class LogisticNormal(TransformedDistribution):
    """Points of the simplex: the stick-breaking transform of a normal vector."""
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base_dist = Normal(loc, scale, validate_args=validate_args)
        if not base_dist.batch_shape:
            base_dist = base_dist.expand([1])
        super().__init__(base_dist, StickBreakingTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(LogisticNormal,
                                                                                _instance))

    @property
    def loc(self):
        return self.base_dist.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.base_dist.scale
