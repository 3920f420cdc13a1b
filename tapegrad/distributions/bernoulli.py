"""The Bernoulli distribution: 1 with probability ``probs``, else 0."""
from .. import ops
from ..nn.functional import binary_cross_entropy_with_logits
from . import constraints
from ._discrete import ProbsOrLogits, store_probs_or_logits
from .exp_family import ExponentialFamily
from .utils import broadcast_all

__all__ = ["Bernoulli"]


class Bernoulli(ProbsOrLogits, ExponentialFamily):
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _is_binary = True
    _mean_carrier_measure = 0

    def __init__(self, probs=None, logits=None, validate_args=None):
        super().__init__(store_probs_or_logits(self, probs, logits), validate_args=validate_args)

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs.dtype)
        return ops.where(self.probs == 0.5, ops.full_like(mode, float("nan")), mode)

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return ops.bernoulli(self.probs.detach().expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        return x.exp().log1p()

    def enumerate_support(self, expand=True):
        values = ops.arange(2, dtype=self._param.dtype)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values
