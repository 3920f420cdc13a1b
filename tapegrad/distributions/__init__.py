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

__all__ = [
    "Distribution", "ExponentialFamily", "Normal", "Uniform", "Bernoulli", "Categorical",
    "MultivariateNormal", "LowRankMultivariateNormal", "Gamma", "Chi2", "InverseGamma",
    "Dirichlet", "Beta",
    "Exponential", "Weibull", "Pareto", "GeneralizedPareto", "Laplace", "Cauchy", "Gumbel",
    "HalfNormal", "HalfCauchy",
    "LogNormal", "LogisticNormal", "StudentT", "FisherSnedecor", "Kumaraswamy", "VonMises",
    "Poisson", "Binomial",
    "Geometric", "NegativeBinomial", "Multinomial", "OneHotCategorical",
    "OneHotCategoricalStraightThrough", "RelaxedBernoulli", "RelaxedOneHotCategorical",
    "LogitRelaxedBernoulli", "ExpRelaxedCategorical", "ContinuousBernoulli", "Independent",
    "TransformedDistribution", "MixtureSameFamily", "Transform", "ComposeTransform",
    "CatTransform", "StackTransform",
    "IndependentTransform", "ReshapeTransform", "ExpTransform", "PowerTransform",
    "SigmoidTransform", "SoftplusTransform", "TanhTransform", "AbsTransform", "AffineTransform",
    "SoftmaxTransform", "StickBreakingTransform", "LowerCholeskyTransform",
    "PositiveDefiniteTransform", "CumulativeDistributionTransform", "identity_transform",
    "biject_to", "transform_to", "kl_divergence", "register_kl", "constraints", "transforms"]
