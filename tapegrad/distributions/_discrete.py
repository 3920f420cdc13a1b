"""The shared parameterisation of discrete distributions: given ``probs`` or ``logits``, the
other is computed on first use (and stays differentiable)."""
import numbers

from .utils import broadcast_all, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["ProbsOrLogits", "check_one_of", "store_probs_or_logits"]


def check_one_of(probs, logits):
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


def store_probs_or_logits(distribution, probs, logits):
    """Keep the one parameter given (broadcast to a tensor) as ``probs`` or ``logits`` of an
    elementwise distribution, and return its batch shape (none for a number)."""
    check_one_of(probs, logits)
    given = probs if probs is not None else logits
    (distribution._param,) = broadcast_all(given)
    if probs is not None:
        distribution.probs = distribution._param
    else:
        distribution.logits = distribution._param
    return () if isinstance(given, numbers.Number) else distribution._param.size()


class LazyProbsOrLogits:
    """``probs`` and ``logits``, each computed from the other when first read."""
    _is_binary = False  # logits are log-odds (Bernoulli) rather than normalised log-probabilities

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=self._is_binary)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=self._is_binary)


class ProbsOrLogits(LazyProbsOrLogits):
    """With ``param_shape``, which PyTorch's Geometric alone of these lacks."""

    @property
    def param_shape(self):
        return self._param.size()
