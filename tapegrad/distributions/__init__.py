"""``tapegrad.distributions``: probability distributions with PyTorch's API — sampling (with
``rsample`` differentiable through the reparameterization), ``log_prob``, ``entropy``, moments
and ``kl_divergence``. Samples come from tapegrad's generator (``tapegrad.manual_seed``)."""
from . import constraints
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .gamma import Beta, Dirichlet, Gamma
from .kl import kl_divergence, register_kl
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .uniform import Uniform

__all__ = ["Distribution", "Normal", "Uniform", "Bernoulli", "Categorical", "MultivariateNormal",
           "Gamma", "Dirichlet", "Beta", "kl_divergence", "register_kl", "constraints"]
