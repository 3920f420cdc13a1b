"""Distributions of counts: Poisson, binomial, geometric and negative binomial. Their samples
are PyTorch's draws from tapegrad's generator (integer-valued, in the parameters' dtype)."""
import numbers

from .. import ops
from ..autograd import grad_mode
from ..nn.functional import binary_cross_entropy_with_logits, logsigmoid
from ..ops.gamma_functions import lgamma
from . import constraints
from ._discrete import LazyProbsOrLogits, ProbsOrLogits, check_one_of, store_probs_or_logits
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .gamma import Gamma
from .utils import broadcast_all, draw, finfo, lazy_property

__all__ = ["Poisson", "Binomial", "Geometric", "NegativeBinomial"]


def _poisson(rate):
    """One Poisson draw per element of the tensor ``rate``, in its dtype."""
    return ops.poisson(rate.detach())


class Poisson(ExponentialFamily):
    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        batch_shape = () if isinstance(rate, numbers.Number) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=()):
        return _poisson(self.rate.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return ops.xlogy(value, rate) - rate - lgamma(value + 1)

    @property
    def _natural_params(self):
        return (self.rate.log(),)

    def _log_normalizer(self, x):
        return x.exp()


class _CountOfTrials(ProbsOrLogits, Distribution):
    """``total_count`` trials with success probability ``probs`` (or log-odds ``logits``)."""
    _is_binary = True

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        check_one_of(probs, logits)
        total_count, self._param = broadcast_all(total_count, probs if probs is not None
                                                 else logits)
        self.total_count = total_count.type_as(self._param)
        if probs is not None:
            self.probs = self._param
        else:
            self.logits = self._param
        super().__init__(self._param.size(), validate_args=validate_args)


class Binomial(_CountOfTrials):
    """The number of successes in ``total_count`` independent trials."""
    arg_constraints = {"total_count": constraints.nonnegative_integer,
                       "probs": constraints.unit_interval, "logits": constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        super().__init__(total_count, probs, logits, validate_args)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with grad_mode.no_grad():
            return ops.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        n, logits = self.total_count, self.logits
        # n · log(1 + e^logits) without overflow, less log n!, summed in PyTorch's order: the
        # log-factorials cancel exactly where the probability is 1 (an exact 0, not a denormal)
        normalizer = (n * (logits.clamp(min=0) + logits - logits.clamp(max=0)) / 2
                      + n * (-logits.abs()).exp().log1p() - lgamma(n + 1))
        return value * logits - lgamma(value + 1) - lgamma(n - value + 1) - normalizer

    def _homogeneous_count(self, what):
        total_count = int(self.total_count.max())
        if not self.total_count.min() == total_count:
            raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
        return total_count

    def entropy(self):
        self._homogeneous_count("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(log_prob.exp() * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        total_count = self._homogeneous_count("enumerate_support")
        values = ops.arange(1 + total_count, dtype=self._param.dtype)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values


class NegativeBinomial(_CountOfTrials):
    """The number of successes before ``total_count`` failures."""
    arg_constraints = {"total_count": constraints.greater_than_eq(0),
                       "probs": constraints.half_open_interval(0.0, 1.0),
                       "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        super().__init__(total_count, probs, logits, validate_args)  # named in a TypeError

    @property
    def mean(self):
        return self.total_count * self.logits.exp()

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / (-self.logits).sigmoid()

    @lazy_property
    def _gamma(self):
        return Gamma(concentration=self.total_count, rate=(-self.logits).exp(),
                     validate_args=False)

    def sample(self, sample_shape=()):
        """A Poisson draw with a gamma-distributed rate."""
        with grad_mode.no_grad():
            return _poisson(self._gamma.sample(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_unnormalized = (self.total_count * logsigmoid(-self.logits)
                            + value * logsigmoid(self.logits))
        log_normalization = (-lgamma(self.total_count + value) + lgamma(1.0 + value)
                             + lgamma(self.total_count))
        log_normalization = log_normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return log_unnormalized - log_normalization


class Geometric(LazyProbsOrLogits, Distribution):
    """The number of failures before the first success."""
    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer
    _is_binary = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        super().__init__(store_probs_or_logits(self, probs, logits), validate_args=validate_args)
        if self._validate_args and probs is not None:
            valid = self.probs > 0
            if not bool(valid.all()):
                raise ValueError(
                    f"Expected parameter probs ({type(self.probs).__name__} of shape "
                    f"{tuple(self.probs.shape)}) of distribution {self!r} to be positive but "
                    f"found invalid values:\n{self.probs.detach()[~valid]}")

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return ops.zeros_like(self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        tiny = float(finfo(self.probs.dtype).tiny)
        dtype = self.probs.dtype
        uniform = draw(lambda generator, size: generator.uniform(size, dtype.numpy, tiny, 1),
                       shape, dtype)
        with grad_mode.no_grad():
            return (uniform.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.masked_fill((probs == 1) & (value == 0), 0.0)
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs,
                                                reduction="none") / self.probs
