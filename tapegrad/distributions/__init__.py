"""``tapegrad.distributions``: probability distributions with PyTorch's API — sampling (with
``rsample`` differentiable through the reparameterization), ``log_prob``, ``entropy``, moments,
``kl_divergence``, transforms and ``TransformedDistribution``, and ``biject_to`` /
``transform_to`` for constrained parameters. Samples come from tapegrad's generator
(``tapegrad.manual_seed``)."""
from . import constraints, transforms
from .bernoulli import Bernoulli
from .categorical import Categorical
from .constraint_registry import biject_to, transform_to
from .continuous_bernoulli import ContinuousBernoulli
from .counts import Binomial, Geometric, NegativeBinomial, Poisson
from .distribution import Distribution
from .exp_family import ExponentialFamily
from .exponential import Exponential, GeneralizedPareto, Pareto, Weibull
from .gamma import Beta, Chi2, Dirichlet, Gamma, InverseGamma
from .independent import Independent
from .kl import kl_divergence, register_kl
from .kumaraswamy import Kumaraswamy
from .location_scale import (Cauchy, Gumbel, HalfCauchy, HalfNormal, Laplace, LogisticNormal,
                             LogNormal)
from .mixture_same_family import MixtureSameFamily
from .multivariate_normal import LowRankMultivariateNormal, MultivariateNormal
from .normal import Normal
from .one_hot import Multinomial, OneHotCategorical, OneHotCategoricalStraightThrough
from .relaxed import (ExpRelaxedCategorical, LogitRelaxedBernoulli, RelaxedBernoulli,
                      RelaxedOneHotCategorical)
from .student_t import FisherSnedecor, StudentT
from .transformed_distribution import TransformedDistribution
from .transforms import (AbsTransform, AffineTransform, CatTransform, ComposeTransform,
                         CumulativeDistributionTransform, ExpTransform, IndependentTransform,
                         LowerCholeskyTransform, PositiveDefiniteTransform, PowerTransform,
                         ReshapeTransform, SigmoidTransform, SoftmaxTransform, SoftplusTransform,
                         StackTransform, StickBreakingTransform, TanhTransform, Transform,
                         identity_transform)
from .uniform import Uniform
from .von_mises import VonMises

# PyTorch's names for ``from torch.distributions import *`` (not the modules ``constraints`` and
# ``transforms``, nor ``ExpRelaxedCategorical`` and ``LogitRelaxedBernoulli``).
__all__ = [
    "Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2", "ContinuousBernoulli",
    "Dirichlet", "Distribution", "Exponential", "ExponentialFamily", "FisherSnedecor", "Gamma",
    "GeneralizedPareto", "Geometric", "Gumbel", "HalfCauchy", "HalfNormal", "Independent",
    "InverseGamma", "Kumaraswamy", "Laplace", "LogNormal", "LogisticNormal",
    "LowRankMultivariateNormal", "MixtureSameFamily", "Multinomial", "MultivariateNormal",
    "NegativeBinomial", "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough",
    "Pareto", "RelaxedBernoulli", "RelaxedOneHotCategorical", "StudentT", "Poisson", "Uniform",
    "VonMises", "Weibull", "TransformedDistribution", "biject_to", "kl_divergence",
    "register_kl", "transform_to"]
__all__.extend(transforms.__all__)
