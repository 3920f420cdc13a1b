"""``kl_divergence(p, q)``: closed-form KL(p ‖ q) looked up by the pair of distribution types."""
import math

from .. import ops
from ..ops.matrix import solve
from .bernoulli import Bernoulli
from .categorical import Categorical
from .distribution import Distribution
from .multivariate_normal import MultivariateNormal
from .normal import Normal
from .uniform import Uniform

__all__ = ["kl_divergence", "register_kl"]

_KL_REGISTRY = {}


def register_kl(type_p, type_q):
    """Decorator registering ``fun(p, q)`` as the KL divergence of a pair of types."""
    for name, given in (("type_p", type_p), ("type_q", type_q)):
        if not (isinstance(given, type) and issubclass(given, Distribution)):
            raise TypeError(f"Expected {name} to be a Distribution subclass but got {given}")

    def decorator(fun):
        _KL_REGISTRY[type_p, type_q] = fun
        return fun
    return decorator


def _lookup(type_p, type_q):
    """The registered function for the closest pair of base classes (by inheritance distance)."""
    matches = [(type_p.__mro__.index(p) + type_q.__mro__.index(q), p, q)
               for p, q in _KL_REGISTRY if issubclass(type_p, p) and issubclass(type_q, q)]
    if not matches:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type {type_p.__name__} "
                                  f"and q type {type_q.__name__}")
    _, p, q = min(matches, key=lambda match: match[0])
    return _KL_REGISTRY[p, q]


def kl_divergence(p, q):
    """KL(p ‖ q), one value per batch element."""
    return _lookup(type(p), type(q))(p, q)


def softplus(x):
    """log(1 + eˣ), computed without overflow."""
    return x.clamp(min=0) + (-x.abs()).exp().log1p()


def _replace_where(mask, value, tensor):
    """``tensor`` with ``value`` where ``mask`` holds (no gradient flows there)."""
    return ops.where(mask, ops.full_like(tensor, value), tensor)


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
        raise ValueError("KL-divergence between two Multivariate Normals with different event "
                         "shapes cannot be computed")
    n = p.event_shape[0]
    batch = tuple(ops.broadcast_shapes(p.batch_shape, q.batch_shape))
    q_factor = q._unbroadcasted_scale_tril.expand(batch + (n, n))
    p_factor = p._unbroadcasted_scale_tril.expand(batch + (n, n))
    trace = solve(q_factor, p_factor).pow(2).sum((-2, -1))
    mahalanobis = q.mahalanobis((q.loc - p.loc).expand(batch + (n,)))
    return q.half_log_det() - p.half_log_det() + 0.5 * (trace + mahalanobis - n)
