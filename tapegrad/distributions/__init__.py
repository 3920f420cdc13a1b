"""``tapegrad.distributions``: probability distributions with PyTorch's API — sampling (with
``rsample`` differentiable through the reparameterization), ``log_prob``, ``entropy``, moments,
``kl_divergence``, transforms and ``TransformedDistribution``, and ``biject_to`` /
``transform_to`` for constrained parameters. Samples come from tapegrad's generator
(``tapegrad.manual_seed``)."""
import sys
import types

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
from .lkj_cholesky import LKJCholesky
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
                         CorrCholeskyTransform, CumulativeDistributionTransform, ExpTransform,
                         IndependentTransform, LowerCholeskyTransform, PositiveDefiniteTransform,
                         PowerTransform, ReshapeTransform, SigmoidTransform, SoftmaxTransform,
                         SoftplusTransform, StackTransform, StickBreakingTransform, TanhTransform,
                         Transform, identity_transform)
from .uniform import Uniform
from .von_mises import VonMises
from .wishart import Wishart

# PyTorch's names for ``from torch.distributions import *`` (not the modules ``constraints`` and
# ``transforms``, nor ``ExpRelaxedCategorical`` and ``LogitRelaxedBernoulli``).
__all__ = [
    "Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2", "ContinuousBernoulli",
    "Dirichlet", "Distribution", "Exponential", "ExponentialFamily", "FisherSnedecor", "Gamma",
    "GeneralizedPareto", "Geometric", "Gumbel", "HalfCauchy", "HalfNormal", "Independent",
    "InverseGamma", "Kumaraswamy", "LKJCholesky", "Laplace", "LogNormal", "LogisticNormal",
    "LowRankMultivariateNormal", "MixtureSameFamily", "Multinomial", "MultivariateNormal",
    "NegativeBinomial", "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough",
    "Pareto", "RelaxedBernoulli", "RelaxedOneHotCategorical", "StudentT", "Poisson", "Uniform",
    "VonMises", "Weibull", "Wishart", "TransformedDistribution", "biject_to", "kl_divergence",
    "register_kl", "transform_to"]
__all__.extend(transforms.__all__)


def _pytorch_module(name, *classes):
    """The module ``tapegrad.distributions.<name>`` holding ``classes``, registered for import:
    PyTorch keeps each distribution in a module of its own, and programs import from those
    (``from torch.distributions.relaxed_categorical import RelaxedOneHotCategorical``), while
    here related distributions share a file."""
    module = types.ModuleType(f"{__name__}.{name}", f"PyTorch's module for {classes[0].__name__}.")
    module.__all__ = [cls.__name__ for cls in classes]
    for cls in classes:
        setattr(module, cls.__name__, cls)
    sys.modules[module.__name__] = module
    return module


beta = _pytorch_module("beta", Beta)
binomial = _pytorch_module("binomial", Binomial)
cauchy = _pytorch_module("cauchy", Cauchy)
chi2 = _pytorch_module("chi2", Chi2)
dirichlet = _pytorch_module("dirichlet", Dirichlet)
fishersnedecor = _pytorch_module("fishersnedecor", FisherSnedecor)
generalized_pareto = _pytorch_module("generalized_pareto", GeneralizedPareto)
geometric = _pytorch_module("geometric", Geometric)
gumbel = _pytorch_module("gumbel", Gumbel)
half_cauchy = _pytorch_module("half_cauchy", HalfCauchy)
half_normal = _pytorch_module("half_normal", HalfNormal)
inverse_gamma = _pytorch_module("inverse_gamma", InverseGamma)
laplace = _pytorch_module("laplace", Laplace)
log_normal = _pytorch_module("log_normal", LogNormal)
logistic_normal = _pytorch_module("logistic_normal", LogisticNormal)
lowrank_multivariate_normal = _pytorch_module("lowrank_multivariate_normal",
                                              LowRankMultivariateNormal)
multinomial = _pytorch_module("multinomial", Multinomial)
negative_binomial = _pytorch_module("negative_binomial", NegativeBinomial)
one_hot_categorical = _pytorch_module("one_hot_categorical", OneHotCategorical,
                                      OneHotCategoricalStraightThrough)
pareto = _pytorch_module("pareto", Pareto)
poisson = _pytorch_module("poisson", Poisson)
relaxed_bernoulli = _pytorch_module("relaxed_bernoulli", LogitRelaxedBernoulli, RelaxedBernoulli)
relaxed_categorical = _pytorch_module("relaxed_categorical", ExpRelaxedCategorical,
                                      RelaxedOneHotCategorical)
studentT = _pytorch_module("studentT", StudentT)
weibull = _pytorch_module("weibull", Weibull)
