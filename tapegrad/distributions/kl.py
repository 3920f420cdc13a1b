"""``kl_divergence(p, q)``: closed-form KL(p ‖ q) looked up by the pair of distribution types."""
import math
import warnings

from .. import autograd, ops
from ..ops.gamma_functions import digamma, lgamma
from .bernoulli import Bernoulli
from .categorical import Categorical
from .continuous_bernoulli import ContinuousBernoulli
from .counts import Binomial, Geometric, Poisson
from .exp_family import ExponentialFamily
from .exponential import Exponential, Pareto
from .gamma import Beta, Dirichlet, Gamma
from .independent import Independent
from .location_scale import Cauchy, Gumbel, HalfNormal, Laplace
from .multivariate_normal import (LowRankMultivariateNormal, MultivariateNormal, _lowrank_logdet,
                                  _lowrank_mahalanobis)
from .normal import Normal
from .one_hot import OneHotCategorical
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform
from .utils import euler_constant, fill_masked_, solve_lower, sum_rightmost

__all__ = ["kl_divergence", "register_kl"]

_KL_REGISTRY = {}
_KL_MEMOIZE = {}  # (type_p, type_q) -> the function dispatch chose, or None for no match


def register_kl(type_p, type_q):
    """Decorator registering ``fun(p, q)`` as the KL divergence of a pair of types. Like
    PyTorch's, it rejects only arguments that are not classes at all."""
    if not (isinstance(type_p, type) and isinstance(type_q, type)):
        raise TypeError("issubclass() arg 1 must be a class")

    def decorator(fun):
        _KL_REGISTRY[type_p, type_q] = fun
        _KL_MEMOIZE.clear()  # a new pair may change which one is most specific
        return fun
    return decorator


def _precedes(first, second):
    """PyTorch's lexicographic subclass order on pairs of types: the first position decides
    unless it names the same class in both pairs."""
    for x, y in zip(first, second):
        if not issubclass(x, y):
            return False
        if x is not y:
            break
    return True


def _most_specific(pairs):
    """The least of ``pairs`` in registration order under ``_precedes``, as ``min`` finds it (the
    order is partial, so ties go to the pair registered first)."""
    best = pairs[0]
    for pair in pairs[1:]:
        if pair != best and _precedes(pair, best):
            best = pair
    return best


def _dispatch(type_p, type_q):
    """The function registered for the most specific pair of base classes of ``(type_p,
    type_q)``, ordered by p first; a RuntimeWarning when ordering by q first picks another one."""
    matches = [(p, q) for p, q in _KL_REGISTRY if issubclass(type_p, p) and issubclass(type_q, q)]
    if not matches:
        return None
    left_p, left_q = _most_specific(matches)
    right_q, right_p = _most_specific([(q, p) for p, q in matches])
    if _KL_REGISTRY[left_p, left_q] is not _KL_REGISTRY[right_p, right_q]:
        warnings.warn(f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). "
                      f"Please register_kl({left_p.__name__}, {right_q.__name__})",
                      RuntimeWarning, stacklevel=2)  # reported in kl_divergence, as PyTorch does
    return _KL_REGISTRY[left_p, left_q]


def kl_divergence(p, q):
    """KL(p ‖ q), one value per batch element."""
    types = type(p), type(q)
    if types not in _KL_MEMOIZE:
        _KL_MEMOIZE[types] = _dispatch(*types)
    fun = _KL_MEMOIZE[types]
    if fun is None:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type {types[0].__name__} "
                                  f"and q type {types[1].__name__}")
    return fun(p, q)


def softplus(x):
    """log(1 + eˣ), computed without overflow."""
    return x.clamp(min=0) + (-x.abs()).exp().log1p()


def _event_shape_error(kinds):
    """PyTorch's text, with the indentation its line continuation carries into the message."""
    return (f"KL-divergence between two {kinds} with" + " " * 26
            + "different event shapes cannot be computed")


def _replace_where(mask, value, tensor):
    """``tensor`` with ``value`` where ``mask`` holds (no gradient flows there), written in
    place as PyTorch writes it."""
    return fill_masked_(tensor, mask, value)


def _inf_where(mask, tensor):
    """``tensor`` with inf where ``mask`` holds, out of place (WhereBackward0): PyTorch's
    continuous-Bernoulli/uniform divergences select rather than assign."""
    return ops.where(mask, ops.full_like(tensor, math.inf), tensor)


@register_kl(Normal, Normal)
def _kl_normal_normal(p, q):
    variance_ratio = (p.scale / q.scale).pow(2)
    mean_term = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (variance_ratio + mean_term - 1 - variance_ratio.log())


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p, q):
    terms = p.probs * (p.logits - q.logits)
    terms = _replace_where((q.probs == 0).expand_as(terms), math.inf, terms)
    terms = _replace_where((p.probs == 0).expand_as(terms), 0.0, terms)
    return terms.sum(-1)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p, q):
    ones = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    ones = _replace_where(p.probs == 0, 0.0, _replace_where(q.probs == 0, math.inf, ones))
    zeros = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    zeros = _replace_where(p.probs == 1, 0.0, _replace_where(q.probs == 1, math.inf, zeros))
    return ones + zeros


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p, q):
    result = ((q.high - q.low) / (p.high - p.low)).log()
    return _replace_where((q.low > p.low) | (q.high < p.high), math.inf, result)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariate_normal(p, q):
    """½ (tr(Σq⁻¹ Σp) + (μq − μp)ᵀ Σq⁻¹ (μq − μp) − n) + log √det Σq − log √det Σp."""
    if p.event_shape != q.event_shape:
        raise ValueError(_event_shape_error("Multivariate Normals"))
    n = p.event_shape[0]
    diff = q.loc - p.loc  # mismatched batch shapes fail here, with PyTorch's message
    batch = tuple(diff.shape[:-1])
    q_factor = q._unbroadcasted_scale_tril.expand(batch + (n, n))
    p_factor = p._unbroadcasted_scale_tril.expand(batch + (n, n))
    trace = solve_lower(q_factor, p_factor).pow(2).sum((-2, -1))
    mahalanobis = q.mahalanobis(diff)
    return q.half_log_det() - p.half_log_det() + 0.5 * (trace + mahalanobis - n)


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrank_lowrank(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError(_event_shape_error("Low Rank Multivariate Normals"))
    log_det_ratio = (_lowrank_logdet(q._unbroadcasted_cov_diag, q._capacitance_tril)
                     - _lowrank_logdet(p._unbroadcasted_cov_diag, p._capacitance_tril))
    mahalanobis = _lowrank_mahalanobis(q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag,
                                       q.loc - p.loc, q._capacitance_tril)
    # tr(Σq⁻¹ Σp) through Woodbury: Σq⁻¹ = Dq⁻¹ − Aᵀ A with A = Lc⁻¹ Wqᵀ Dq⁻¹
    qWt_qDinv = q._unbroadcasted_cov_factor.mT / q._unbroadcasted_cov_diag.unsqueeze(-2)
    A = solve_lower(q._capacitance_tril.expand(tuple(qWt_qDinv.shape[:-2])
                                               + tuple(q._capacitance_tril.shape[-2:])), qWt_qDinv)
    p_diag, p_factor = p._unbroadcasted_cov_diag, p._unbroadcasted_cov_factor
    trace = ((p_diag / q._unbroadcasted_cov_diag).sum(-1)
             + (p_factor * q._unbroadcasted_cov_diag.rsqrt().unsqueeze(-1)).pow(2).sum((-2, -1))
             - (A * p_diag.sqrt().unsqueeze(-2)).pow(2).sum((-2, -1))
             - (A @ p_factor).pow(2).sum((-2, -1)))
    return 0.5 * (log_det_ratio + trace + mahalanobis - p.event_shape[0])


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_expfamily_expfamily(p, q):
    """The Bregman divergence of the log normalizer between the natural parameters."""
    if type(p) is not type(q):
        raise NotImplementedError("The cross KL-divergence between different exponential "
                                  "families cannot                             be computed "
                                  "using Bregman divergences")
    p_params = [param.detach().requires_grad_() for param in p._natural_params]
    q_params = q._natural_params
    log_normalizer = p._log_normalizer(*p_params)
    gradients = autograd.grad(log_normalizer.sum(), p_params, create_graph=True)
    result = q._log_normalizer(*q_params) - log_normalizer
    for p_param, q_param, gradient in zip(p_params, q_params, gradients):
        result = result - sum_rightmost((q_param - p_param) * gradient, len(q.event_shape))
    return result


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p, q):
    rate_ratio = q.rate / p.rate
    return -rate_ratio.log() + rate_ratio - 1


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p, q):
    return (q.concentration * (p.rate / q.rate).log()
            + lgamma(q.concentration) - lgamma(p.concentration)
            + (p.concentration - q.concentration) * digamma(p.concentration)
            + (q.rate - p.rate) * (p.concentration / p.rate))


@register_kl(Beta, Beta)
def _kl_beta_beta(p, q):
    sum_p = p.concentration1 + p.concentration0
    sum_q = q.concentration1 + q.concentration0
    t1 = lgamma(q.concentration1) + lgamma(q.concentration0) + lgamma(sum_p)
    t2 = lgamma(p.concentration1) + lgamma(p.concentration0) + lgamma(sum_q)
    t3 = (p.concentration1 - q.concentration1) * digamma(p.concentration1)
    t4 = (p.concentration0 - q.concentration0) * digamma(p.concentration0)
    t5 = (sum_q - sum_p) * digamma(sum_p)
    return t1 - t2 + t3 + t4 + t5


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p, q):
    sum_p = p.concentration.sum(-1)
    sum_q = q.concentration.sum(-1)
    t1 = lgamma(sum_p) - lgamma(sum_q)
    t2 = (lgamma(p.concentration) - lgamma(q.concentration)).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = digamma(p.concentration) - digamma(sum_p).unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    return (-scale_ratio.log() + loc_abs_diff / q.scale
            + scale_ratio * (-loc_abs_diff / p.scale).exp() - 1)


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p, q):
    return (((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
            - (4 * p.scale * q.scale).log())


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p, q):
    ct1 = p.scale / q.scale
    ct2 = q.loc / q.scale
    ct3 = p.loc / q.scale
    t1 = -ct1.log() - ct2 + ct3
    t2 = ct1 * euler_constant
    t3 = (ct2 + lgamma(1 + ct1) - ct3).exp()
    return t1 + t2 + t3 - (1 + euler_constant)


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p, q):
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p, q):
    scale_ratio = p.scale / q.scale
    alpha_ratio = q.alpha / p.alpha
    result = q.alpha * scale_ratio.log() - alpha_ratio.log() + alpha_ratio - 1
    return _replace_where(p.support.lower_bound < q.support.lower_bound, math.inf, result)


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p, q):
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p, q):
    if bool((p.total_count < q.total_count).any()):
        raise NotImplementedError("KL between Binomials where q.total_count > p.total_count is "
                                  "not implemented")
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p()
                          - (-q.probs).log1p())
    return _replace_where(p.total_count > q.total_count, math.inf, kl)


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p, q):
    return -p.entropy() - (-q.probs).log1p() / p.probs - q.logits


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehotcategorical_onehotcategorical(p, q):
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_continuous_bernoulli_continuous_bernoulli(p, q):
    cross = p.mean * (p.logits - q.logits)
    own = p._cont_bern_log_norm() + (-p.probs).log1p()
    other = -q._cont_bern_log_norm() - (-q.probs).log1p()
    return cross + own + other  # PyTorch's grouping: its graph ends in AddBackward0


@register_kl(Independent, Independent)
def _kl_independent_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p, q):
    """Equal bijections leave the KL divergence of the base distributions unchanged."""
    if p.transforms != q.transforms or p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p, q):
    ratio = q.rate / p.rate
    return (-q.concentration * ratio.log() + ratio + lgamma(q.concentration)
            + q.concentration * euler_constant - (1 + euler_constant))


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.concentration / p.rate


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p, q):
    var_normal = q.scale.pow(2)
    rate_sqr = p.rate.pow(2)
    t1 = 0.5 * (rate_sqr * var_normal * 2 * math.pi).log()
    return t1 - 1 + (rate_sqr.reciprocal() - q.loc / p.rate + q.loc.pow(2) * 0.5) / var_normal


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p, q):
    var_normal = q.scale.pow(2)
    ratio = p.scale.pow(2) / var_normal
    t1 = 0.5 * (2 * ratio / math.pi).log()
    t234 = 0.5 * p.loc.pow(2) - p.loc * q.loc + 0.5 * q.loc.pow(2)
    return -t1 + ratio + t234 / var_normal - 1


@register_kl(Normal, Laplace)
def _kl_normal_laplace(p, q):
    loc_diff = p.loc - q.loc
    t1 = (p.scale / q.scale).log()
    t2 = math.sqrt(2 / math.pi) * p.scale * (-0.5 * (loc_diff / p.scale).pow(2)).exp()
    t3 = loc_diff * ops.erf(math.sqrt(0.5) * (loc_diff / p.scale))
    return -t1 + (t2 + t3) / q.scale - 0.5 * (1 + math.log(0.5 * math.pi))


@register_kl(Normal, Gumbel)
def _kl_normal_gumbel(p, q):
    mean_scale_ratio = p.loc / q.scale
    var_scale_sqr_ratio = (p.scale / q.scale).pow(2)
    loc_scale_ratio = q.loc / q.scale
    t1 = var_scale_sqr_ratio.log() * 0.5
    t3 = (-mean_scale_ratio + 0.5 * var_scale_sqr_ratio + loc_scale_ratio).exp()
    return -t1 + mean_scale_ratio - loc_scale_ratio + t3 - 0.5 * (1 + math.log(2 * math.pi))


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    width = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / width).log()
    t2 = width.pow(2) / 12
    t3 = ((p.high + p.low - 2 * q.loc) / 2).pow(2)
    return t1 + 0.5 * (t2 + t3) / q.scale.pow(2)


# -- pairs of different families (PyTorch's registry) ------------------------------------------

def _x_log_x(x):
    return ops.xlogy(x, x)  # 0 at x = 0


def _register_infinite(type_p, types_q, parameter):
    """KL(p ‖ q) is infinite when q's support leaves out part of p's: infs shaped like
    ``p.<parameter>``."""
    def kl(p, q):
        return ops.full_like(getattr(p, parameter), math.inf)
    for type_q in types_q:
        register_kl(type_p, type_q)(kl)


_register_infinite(Exponential, (Beta, ContinuousBernoulli, Pareto, Uniform), "rate")
_register_infinite(Gamma, (Beta, ContinuousBernoulli, Pareto, Uniform), "concentration")
_register_infinite(Gumbel, (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform),
                   "loc")
_register_infinite(Laplace, (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform),
                   "loc")
_register_infinite(Normal, (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform),
                   "loc")
_register_infinite(Pareto, (Beta, ContinuousBernoulli, Uniform), "scale")
_register_infinite(Poisson, (Bernoulli, Binomial), "rate")
_register_infinite(Beta, (Pareto,), "concentration1")
_register_infinite(ContinuousBernoulli, (Pareto,), "probs")


@register_kl(Bernoulli, Poisson)
def _kl_bernoulli_poisson(p, q):
    return -p.entropy() - (p.probs * q.rate.log() - q.rate)


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_continuous_bernoulli(p, q):
    return -p.entropy() - p.mean * q.logits - (-q.probs).log1p() - q._cont_bern_log_norm()


@register_kl(Beta, Exponential)
def _kl_beta_exponential(p, q):
    return (-p.entropy() - q.rate.log()
            + q.rate * (p.concentration1 / (p.concentration1 + p.concentration0)))


@register_kl(Beta, Gamma)
def _kl_beta_gamma(p, q):
    total = p.concentration1 + p.concentration0
    t2 = lgamma(q.concentration) - q.concentration * q.rate.log()
    t3 = (q.concentration - 1) * (digamma(p.concentration1) - digamma(total))
    return -p.entropy() + t2 - t3 + q.rate * p.concentration1 / total


@register_kl(Beta, Normal)
def _kl_beta_normal(p, q):
    total = p.concentration1 + p.concentration0
    mean = p.concentration1 / total
    var_normal = q.scale.pow(2)
    t2 = 0.5 * (var_normal * 2 * math.pi).log()
    t3 = (mean * (1 - mean) / (total + 1) + mean.pow(2)) * 0.5
    return -p.entropy() + t2 + (t3 - q.loc * mean + q.loc.pow(2) * 0.5) / var_normal


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    outside = (q.low > p.support.lower_bound) | (q.high < p.support.upper_bound)
    return _replace_where(outside, math.inf, result)


@register_kl(ContinuousBernoulli, Exponential)
def _kl_continuous_bernoulli_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_continuous_bernoulli_normal(p, q):
    t2 = 0.5 * (math.log(2.0 * math.pi) + (q.loc / q.scale).square()) + q.scale.log()
    t3 = (p.variance + p.mean.square() - 2.0 * q.loc * p.mean) / (2.0 * q.scale.square())
    return -p.entropy() + t2 + t3


@register_kl(ContinuousBernoulli, Uniform)
def _kl_continuous_bernoulli_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    outside = (q.low >= p.support.lower_bound) | (q.high <= p.support.upper_bound)
    return _inf_where(outside, result)


@register_kl(Exponential, Gumbel)
def _kl_exponential_gumbel(p, q):
    scale_rate_prod = p.rate * q.scale
    loc_scale_ratio = q.loc / q.scale
    t1 = scale_rate_prod.log() - 1
    t2 = loc_scale_ratio.exp() * scale_rate_prod / (scale_rate_prod + 1)
    return t1 - loc_scale_ratio + t2 + scale_rate_prod.reciprocal()


@register_kl(Gamma, Gumbel)
def _kl_gamma_gumbel(p, q):
    beta_scale_prod = p.rate * q.scale
    loc_scale_ratio = q.loc / q.scale
    t1 = ((p.concentration - 1) * digamma(p.concentration) - lgamma(p.concentration)
          - p.concentration)
    t2 = beta_scale_prod.log() + p.concentration / beta_scale_prod
    t3 = (loc_scale_ratio.exp() * (1 + beta_scale_prod.reciprocal()).pow(-p.concentration)
          - loc_scale_ratio)
    return t1 + t2 + t3


@register_kl(Gamma, Normal)
def _kl_gamma_normal(p, q):
    var_normal = q.scale.pow(2)
    beta_sqr = p.rate.pow(2)
    t1 = (0.5 * (beta_sqr * var_normal * 2 * math.pi).log() - p.concentration
          - lgamma(p.concentration))
    t2 = 0.5 * (p.concentration.pow(2) + p.concentration) / beta_sqr
    t3 = q.loc * p.concentration / p.rate
    t4 = 0.5 * q.loc.pow(2)
    return t1 + (p.concentration - 1) * digamma(p.concentration) + (t2 - t3 + t4) / var_normal


@register_kl(Gumbel, Normal)
def _kl_gumbel_normal(p, q):
    param_ratio = p.scale / q.scale
    t1 = (param_ratio / math.sqrt(2 * math.pi)).log()
    t2 = (math.pi * param_ratio * 0.5).pow(2) / 3
    t3 = ((p.loc + p.scale * euler_constant - q.loc) / q.scale).pow(2) * 0.5
    return -t1 + t2 + t3 - (euler_constant + 1)


@register_kl(Pareto, Exponential)
def _kl_pareto_exponential(p, q):
    scale_rate_prod = p.scale * q.rate
    t1 = (p.alpha / scale_rate_prod).log()
    t3 = p.alpha * scale_rate_prod / (p.alpha - 1)
    return _replace_where(p.alpha <= 1, math.inf, t1 - p.alpha.reciprocal() + t3 - 1)


@register_kl(Pareto, Gamma)
def _kl_pareto_gamma(p, q):
    common_term = p.scale.log() + p.alpha.reciprocal()
    t1 = p.alpha.log() - common_term
    t2 = lgamma(q.concentration) - q.concentration * q.rate.log()
    t3 = (1 - q.concentration) * common_term
    t4 = q.rate * p.alpha * p.scale / (p.alpha - 1)
    return _replace_where(p.alpha <= 1, math.inf, t1 + t2 + t3 + t4 - 1)


@register_kl(Pareto, Normal)
def _kl_pareto_normal(p, q):
    var_normal = 2 * q.scale.pow(2)
    common_term = p.scale / (p.alpha - 1)
    t1 = (math.sqrt(2 * math.pi) * q.scale * p.alpha / p.scale).log()
    t3 = p.alpha * common_term.pow(2) / (p.alpha - 2)
    t4 = (p.alpha * common_term - q.loc).pow(2)
    result = t1 - p.alpha.reciprocal() + (t3 + t4) / var_normal - 1
    return _replace_where(p.alpha <= 2, math.inf, result)


@register_kl(Uniform, Beta)
def _kl_uniform_beta(p, q):
    width = p.high - p.low
    t2 = (q.concentration1 - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t3 = (q.concentration0 - 1) * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + width) / width
    t4 = (lgamma(q.concentration1) + lgamma(q.concentration0)
          - lgamma(q.concentration1 + q.concentration0))
    outside = (p.high > q.support.upper_bound) | (p.low < q.support.lower_bound)
    return _replace_where(outside, math.inf, t3 + t4 - width.log() - t2)


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_continuous_bernoulli(p, q):
    result = -p.entropy() - p.mean * q.logits - (-q.probs).log1p() - q._cont_bern_log_norm()
    outside = (p.high >= q.support.upper_bound) | (p.low <= q.support.lower_bound)
    return _inf_where(outside, result)


@register_kl(Uniform, Exponential)
def _kl_uniform_exponential(p, q):
    result = q.rate * (p.high + p.low) / 2 - ((p.high - p.low) * q.rate).log()
    return _replace_where(p.low < q.support.lower_bound, math.inf, result)


@register_kl(Uniform, Gamma)
def _kl_uniform_gamma(p, q):
    width = p.high - p.low
    t2 = lgamma(q.concentration) - q.concentration * q.rate.log()
    t3 = (1 - q.concentration) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t4 = q.rate * (p.high + p.low) / 2
    return _replace_where(p.low < q.support.lower_bound, math.inf, -width.log() + t2 + t3 + t4)


@register_kl(Uniform, Gumbel)
def _kl_uniform_gumbel(p, q):
    common_term = q.scale / (p.high - p.low)
    high_loc_diff = (p.high - q.loc) / q.scale
    low_loc_diff = (p.low - q.loc) / q.scale
    t1 = common_term.log() + 0.5 * (high_loc_diff + low_loc_diff)
    return t1 - common_term * ((-high_loc_diff).exp() - (-low_loc_diff).exp())


@register_kl(Uniform, Pareto)
def _kl_uniform_pareto(p, q):
    width = p.high - p.low
    t1 = (q.alpha * q.scale.pow(q.alpha) * width).log()
    t2 = (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    return _replace_where(p.low < q.support.lower_bound, math.inf, t2 * (q.alpha + 1) - t1)


_LOWRANK_EVENT_SHAPE_ERROR = _event_shape_error("(Low Rank) Multivariate Normals")


def _trace_xxt(matrices):
    """tr(X Xᵀ) of each matrix in a batch."""
    return matrices.pow(2).sum((-2, -1))


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrank_multivariate_normal(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError(_LOWRANK_EVENT_SHAPE_ERROR)
    n = p.event_shape[0]
    log_det_ratio = 2 * q.half_log_det() - _lowrank_logdet(p._unbroadcasted_cov_diag,
                                                           p._capacitance_tril)
    batch = tuple(ops.broadcast_shapes(q._unbroadcasted_scale_tril.shape[:-2],
                                       p._unbroadcasted_cov_factor.shape[:-2]))
    q_factor = q._unbroadcasted_scale_tril.expand(batch + (n, n))
    p_cov_factor = p._unbroadcasted_cov_factor.expand(batch + (n, p.cov_factor.shape[-1]))
    p_cov_diag = p._unbroadcasted_cov_diag.sqrt().diag_embed().expand(batch + (n, n))
    trace = (_trace_xxt(solve_lower(q_factor, p_cov_factor))
             + _trace_xxt(solve_lower(q_factor, p_cov_diag)))
    mahalanobis = q.mahalanobis(q.loc - p.loc)
    return 0.5 * (log_det_ratio + trace + mahalanobis - n)


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_multivariate_normal_lowrank(p, q):
    if p.event_shape != q.event_shape:
        raise ValueError(_LOWRANK_EVENT_SHAPE_ERROR)
    log_det_ratio = (_lowrank_logdet(q._unbroadcasted_cov_diag, q._capacitance_tril)
                     - 2 * p.half_log_det())
    mahalanobis = _lowrank_mahalanobis(q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag,
                                       q.loc - p.loc, q._capacitance_tril)
    # tr(Σq⁻¹ Σp) through Woodbury: Σq⁻¹ = Dq⁻¹ − Aᵀ A with A = Lc⁻¹ Wqᵀ Dq⁻¹
    qWt_qDinv = q._unbroadcasted_cov_factor.mT / q._unbroadcasted_cov_diag.unsqueeze(-2)
    A = solve_lower(q._capacitance_tril.expand(tuple(qWt_qDinv.shape[:-2])
                                               + tuple(q._capacitance_tril.shape[-2:])), qWt_qDinv)
    p_factor = p._unbroadcasted_scale_tril
    trace = (_trace_xxt(p_factor * q._unbroadcasted_cov_diag.rsqrt().unsqueeze(-1))
             - _trace_xxt(A.matmul(p_factor)))
    return 0.5 * (log_det_ratio + trace + mahalanobis - p.event_shape[0])
