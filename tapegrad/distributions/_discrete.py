"""The shared parameterisation of discrete distributions: given ``probs`` or ``logits``, the
other is computed on first use (and stays differentiable)."""
from .utils import lazy_property, logits_to_probs, probs_to_logits

__all__ = ["ProbsOrLogits", "check_one_of"]


def check_one_of(probs, logits):
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


class ProbsOrLogits:
    _is_binary = False  # logits are log-odds (Bernoulli) rather than normalised log-probabilities

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=self._is_binary)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=self._is_binary)

    @property
    def param_shape(self):
        return self._param.size()
