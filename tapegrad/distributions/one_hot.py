"""Distributions over one-hot vectors and count vectors, built on a ``Categorical``:
OneHotCategorical (with a straight-through variant) and Multinomial."""
from .. import ops
from ..nn.functional import one_hot
from ..ops.gamma_functions import lgamma
from ..tensor import Size
from . import constraints
from .categorical import Categorical
from .counts import Binomial
from .distribution import Distribution
from .utils import broadcast_all

__all__ = ["OneHotCategorical", "OneHotCategoricalStraightThrough", "Multinomial"]


class _OverCategories(Distribution):
    """Parameters are those of the wrapped ``Categorical``; events are vectors over its
    categories."""
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def _init_categorical(self, probs, logits, validate_args):
        self._categorical = Categorical(probs, logits)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    @property
    def _param(self):
        return self._categorical._param

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def param_shape(self):
        return self._categorical.param_shape


class OneHotCategorical(_OverCategories):
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._init_categorical(probs, logits, validate_args)

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        probs = self.probs
        return one_hot(probs.argmax(dim=-1), num_classes=probs.shape[-1]).to(probs.dtype)

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        indices = self._categorical.sample(sample_shape)
        return one_hot(indices, self._categorical._num_events).to(self.probs.dtype)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand=True):
        n = self._event_shape[0]
        values = ops.eye(n, dtype=self._param.dtype)
        values = values.view((n,) + (1,) * len(self._batch_shape) + (n,))
        return values.expand((n,) + tuple(self._batch_shape) + (n,)) if expand else values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """Samples whose gradient is that of the probabilities (the straight-through estimator)."""
    has_rsample = True

    def rsample(self, sample_shape=()):
        samples = self.sample(sample_shape)
        probs = self.probs
        return samples + (probs - probs.detach())


class Multinomial(_OverCategories):
    """Counts of each category in ``total_count`` independent categorical draws."""

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._init_categorical(probs, logits, validate_args)
        # PyTorch builds its binomial here, so a negative total_count fails its validation
        Binomial(total_count=total_count, probs=self.probs)

    @property
    def _binomial(self):
        return Binomial(total_count=self.total_count, probs=self.probs)

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        draws = self._categorical.sample(Size((self.total_count,) + tuple(sample_shape)))
        counts = one_hot(draws, self._categorical._num_events).sum(0)
        return counts.reshape(self._extended_shape(sample_shape)).type_as(self.probs)

    def entropy(self):
        n = ops.tensor(self.total_count)  # an integer: its lgamma is in the default dtype
        binomial = self._binomial
        support = binomial.enumerate_support(expand=False)[1:]
        binomial_probs = binomial.log_prob(support).exp()
        return (n * self._categorical.entropy() - lgamma(n + 1)
                + (binomial_probs * lgamma(support + 1)).sum([0, -1]))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        logits = logits.masked_fill((value == 0) & (logits == -float("inf")), 0.0)
        return (lgamma(value.sum(-1) + 1) - lgamma(value + 1).sum(-1)
                + (logits * value).sum(-1))
