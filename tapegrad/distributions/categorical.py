"""The categorical distribution over ``0 … K−1``, given (unnormalised) probabilities or logits
in the last dimension."""
import numpy as np

from .. import ops
from . import constraints
from ._discrete import ProbsOrLogits, check_one_of
from .distribution import Distribution

__all__ = ["Categorical"]


class Categorical(ProbsOrLogits, Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        check_one_of(probs, logits)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = self._param = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = self._param = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.dim() > 1 else ()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def mean(self):
        return ops.full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        return ops.full(self._extended_shape(), float("nan"), dtype=self.probs.dtype)

    def sample(self, sample_shape=()):
        count = int(np.prod(tuple(sample_shape), dtype=np.int64))
        probs_2d = self.probs.detach().reshape(-1, self._num_events)
        samples_2d = ops.multinomial(probs_2d, count, True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = ops.broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self):
        smallest = float(np.finfo(self.logits.dtype.numpy).min)
        p_log_p = self.logits.clamp(min=smallest) * self.probs
        return -p_log_p.sum(-1)

    def enumerate_support(self, expand=True):
        values = ops.arange(self._num_events)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values
