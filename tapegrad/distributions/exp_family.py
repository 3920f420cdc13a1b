"""``ExponentialFamily``: densities p(x) = h(x) exp(⟨θ, t(x)⟩ − F(θ)). Knowing the natural
parameters θ and the log normalizer F gives the entropy (and KL divergences between members of
one family) through the Bregman divergence of F, by automatic differentiation."""
from .. import autograd
from .distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    _abstract = True
    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        """E[log h(x)]."""
        raise NotImplementedError

    def entropy(self):
        """H = F(θ) − ⟨θ, ∇F(θ)⟩ − E[log h(x)]."""
        result = -self._mean_carrier_measure
        params = [p.detach().requires_grad_() for p in self._natural_params]
        log_normalizer = self._log_normalizer(*params)
        gradients = autograd.grad(log_normalizer.sum(), params, create_graph=True)
        result = result + log_normalizer
        for param, gradient in zip(params, gradients):
            result = result - (param * gradient).reshape(tuple(self._batch_shape) + (-1,)).sum(-1)
        return result
