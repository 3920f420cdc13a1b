"""Student's t and Fisher–Snedecor's F distributions, sampled from normal and gamma draws."""
import math
import numbers

from .. import ops
from ..ops.gamma_functions import digamma, lgamma
from . import constraints
from .distribution import Distribution
from .gamma import Chi2, Gamma
from .utils import broadcast_all, fill_masked_, finfo

__all__ = ["StudentT", "FisherSnedecor"]


class StudentT(Distribution):
    """``loc + scale · X / √(Z / df)`` for X standard normal and Z ~ χ²(df)."""
    arg_constraints = {"df": constraints.positive, "loc": constraints.real,
                       "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    @property
    def mean(self):
        return fill_masked_(self.loc.clone(), self.df <= 1, math.nan)

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        """scale² df / (df - 2), computed only where df > 2 (so that df = 2 gives no nan
        gradient); inf for 1 < df <= 2, nan below."""
        finite = self.df > 2
        variance = self.df.clone()
        variance[finite] = self.scale[finite].pow(2) * self.df[finite] / (self.df[finite] - 2)
        return fill_masked_(fill_masked_(variance, ~finite, math.inf), self.df <= 1, math.nan)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        normal = ops.randn(shape, dtype=self.df.dtype)
        chi2 = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * normal * (chi2 / self.df).rsqrt()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        normalizer = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi)
                      + lgamma(0.5 * self.df) - lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * (y ** 2.0 / self.df).log1p() - normalizer

    def entropy(self):
        log_beta = lgamma(0.5 * self.df) + math.lgamma(0.5) - lgamma(0.5 * (self.df + 1))
        return (self.scale.log()
                + 0.5 * (self.df + 1) * (digamma(0.5 * (self.df + 1)) - digamma(0.5 * self.df))
                + 0.5 * self.df.log() + log_beta)


class FisherSnedecor(Distribution):
    """The ratio of two scaled χ² draws, ``(X₁ / df1) / (X₂ / df2)``."""
    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None):
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        both_numbers = isinstance(df1, numbers.Number) and isinstance(df2, numbers.Number)
        super().__init__(() if both_numbers else self.df1.size(), validate_args=validate_args)

    @property
    def mean(self):
        df2 = fill_masked_(self.df2.clone(), self.df2 <= 2, math.nan)
        return df2 / (df2 - 2)

    @property
    def mode(self):
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        return fill_masked_(mode, self.df1 <= 2, math.nan)

    @property
    def variance(self):
        df2 = fill_masked_(self.df2.clone(), self.df2 <= 4, math.nan)
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        tiny = float(finfo(self.df1.dtype).tiny)
        x1 = self._gamma1.rsample(sample_shape).view(shape)
        x2 = self._gamma2.rsample(sample_shape).view(shape).clamp(min=tiny)
        return (x1 / x2).clamp(min=tiny)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        ct1, ct2, ct3 = self.df1 * 0.5, self.df2 * 0.5, self.df1 / self.df2
        t1 = lgamma(ct1 + ct2) - lgamma(ct1) - lgamma(ct2)
        t2 = ct1 * ct3.log() + (ct1 - 1) * ops.log(value)  # a number refused, as PyTorch
        t3 = (ct1 + ct2) * (ct3 * value).log1p()
        return t1 + t2 - t3
