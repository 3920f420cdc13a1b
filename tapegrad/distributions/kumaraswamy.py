"""The Kumaraswamy distribution on (0, 1): like Beta, but with a closed-form cdf, so sampled as
``(1 − (1 − U)^(1/b))^(1/a)`` for U uniform."""

import math

from .. import ops
from ..ops.gamma_functions import digamma, lgamma
from . import constraints
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform
from .uniform import Uniform
from .utils import broadcast_all, euler_constant, fill_masked_

__all__ = ["Kumaraswamy"]


def _moments(a, b, n):
    """E[Xⁿ] = b · B(1 + n/a, b)."""
    arg1 = 1 + n / a
    return b * (lgamma(arg1) + lgamma(b) - lgamma(arg1 + b)).exp()


class Kumaraswamy(TransformedDistribution):
    arg_constraints = {"concentration1": constraints.positive,
                       "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base_dist = Uniform(ops.full_like(self.concentration0, 0),
                            ops.full_like(self.concentration0, 1), validate_args=validate_args)
        transforms = [PowerTransform(exponent=self.concentration0.reciprocal()),
                      AffineTransform(loc=1.0, scale=-1.0),
                      PowerTransform(exponent=self.concentration1.reciprocal())]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        return _moments(self.concentration1, self.concentration0, 1)

    @property
    def mode(self):
        a, b = self.concentration1, self.concentration0
        log_mode = b.reciprocal() * (-b).log1p() - (-b * a).log1p()
        return fill_masked_(log_mode, (b < 1) | (a < 1), math.nan).exp()

    @property
    def variance(self):
        return _moments(self.concentration1, self.concentration0, 2) - self.mean.pow(2)

    def entropy(self):
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        h0 = digamma(self.concentration0 + 1) + euler_constant
        return t0 + t1 * h0 - self.concentration1.log() - self.concentration0.log()
