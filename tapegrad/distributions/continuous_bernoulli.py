"""The continuous Bernoulli distribution on [0, 1]: density ∝ p^x (1 − p)^(1−x). Near p = ½
its normalizer and moments are 0/0 forms, replaced there by Taylor expansions."""
import math
import numbers

from .. import ops
from ..nn.functional import binary_cross_entropy_with_logits
from . import constraints
from ._discrete import check_one_of
from .exp_family import ExponentialFamily
from .utils import broadcast_all, clamp_probs, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["ContinuousBernoulli"]


class ContinuousBernoulli(ExponentialFamily):
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        check_one_of(probs, logits)
        given = probs if probs is not None else logits
        (self._param,) = broadcast_all(given)
        if probs is not None:
            if validate_args is not None and \
                    not bool(self.arg_constraints["probs"].check(self._param).all()):
                raise ValueError("The parameter probs has invalid values")
            self.probs = self._param = clamp_probs(self._param)
        else:
            self.logits = self._param
        self._lims = lims
        batch_shape = () if isinstance(given, numbers.Number) else self._param.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self):
        return self._param.size()

    def _outside_unstable_region(self):
        return (self.probs <= self._lims[0]) | (self.probs > self._lims[1])

    def _cut_probs(self):
        return ops.where(self._outside_unstable_region(), self.probs,
                         self._lims[0] * ops.ones_like(self.probs))

    def _cont_bern_log_norm(self):
        cut_probs = self._cut_probs()
        below_half = ops.where(cut_probs <= 0.5, cut_probs, ops.zeros_like(cut_probs))
        above_half = ops.where(cut_probs >= 0.5, cut_probs, ops.ones_like(cut_probs))
        log_norm = ((-cut_probs).log1p() - cut_probs.log()).abs().log() - ops.where(
            cut_probs <= 0.5, (-2.0 * below_half).log1p(), (2.0 * above_half - 1.0).log())
        x = (self.probs - 0.5).pow(2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return ops.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self):
        cut_probs = self._cut_probs()
        mus = cut_probs / (2.0 * cut_probs - 1.0) + 1.0 / ((-cut_probs).log1p() - cut_probs.log())
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * x.pow(2)) * x
        return ops.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self):
        return self.variance.sqrt()

    @property
    def variance(self):
        cut_probs = self._cut_probs()
        variances = (cut_probs * (cut_probs - 1.0) / (1.0 - 2.0 * cut_probs).pow(2)
                     + 1.0 / ((-cut_probs).log1p() - cut_probs.log()).pow(2))
        x = (self.probs - 0.5).pow(2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return ops.where(self._outside_unstable_region(), variances, taylor)

    def rsample(self, sample_shape=()):
        """The inverse cdf at uniform draws."""
        shape = self._extended_shape(sample_shape)
        return self.icdf(ops.rand(shape, dtype=self.probs.dtype))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return (-binary_cross_entropy_with_logits(logits, value, reduction="none")
                + self._cont_bern_log_norm())

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        cut_probs = self._cut_probs()
        cdfs = (cut_probs.pow(value) * (1.0 - cut_probs).pow(1.0 - value) + cut_probs - 1.0
                ) / (2.0 * cut_probs - 1.0)
        unbounded = ops.where(self._outside_unstable_region(), cdfs, value)
        return ops.where(value <= 0.0, ops.zeros_like(value),
                         ops.where(value >= 1.0, ops.ones_like(value), unbounded))

    def icdf(self, value):
        cut_probs = self._cut_probs()
        inverse = (((-cut_probs + value * (2.0 * cut_probs - 1.0)).log1p() - (-cut_probs).log1p())
                   / (cut_probs.log() - (-cut_probs).log1p()))
        return ops.where(self._outside_unstable_region(), inverse, value)

    def entropy(self):
        log_probs0 = (-self.probs).log1p()
        log_probs1 = self.probs.log()
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        outside = (x <= self._lims[0] - 0.5) | (x > self._lims[1] - 0.5)
        cut = ops.where(outside, x, (self._lims[0] - 0.5) * ops.ones_like(x))
        log_norm = cut.expm1().abs().log() - cut.abs().log()
        taylor = 0.5 * x + x.pow(2) / 24.0 - x.pow(4) / 2880.0
        return ops.where(outside, log_norm, taylor)
