# Extending kl_divergence for user distribution classes with @register_kl: dispatch to the most
# specific registered pair through subclassing, a generic Monte-Carlo-style fallback registered on
# (Distribution, Distribution), the ambiguity RuntimeWarning and how registering a tie-breaker fixes it.
import warnings
import torch
from torch.distributions import Distribution, Normal, Laplace, Independent, register_kl, kl_divergence


class TemperedNormal(Normal):
    """Normal whose KL terms are down-weighted by a temperature (cold posterior)."""
    def __init__(self, loc, scale, temperature=0.5):
        super().__init__(loc, scale)
        self.temperature = temperature


class RobustLaplace(Laplace):
    pass


def kl(p, q):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = kl_divergence(p, q)
        except NotImplementedError as e:
            value = f"NotImplementedError: {e}"
    msgs = [f"{w.category.__name__}: {w.message}" for w in caught]
    return value, msgs


p = TemperedNormal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
q = Normal(torch.tensor([0.5, 0.5]), torch.tensor([1.0, 1.0]))
r = RobustLaplace(torch.tensor([0.0, 0.0]), torch.tensor([1.0, 3.0]))
print("inherited", *kl(p, q))
print("inherited laplace", *kl(p, r))
print("unregistered", *kl(r, Independent(q, 1)))


@register_kl(TemperedNormal, Normal)
def _kl_tempered_normal(p, q):
    return p.temperature * kl_divergence(Normal(p.loc, p.scale), q)


print("specific", *kl(p, q))
print("base pair unchanged", *kl(Normal(p.loc, p.scale), q))


@register_kl(Distribution, Distribution)
def _kl_fallback(p, q):
    x = torch.linspace(-6, 6, 2001).reshape(-1, *([1] * len(p.batch_shape)))
    lp, lq = p.log_prob(x), q.log_prob(x)
    return (lp.exp() * (lp - lq)).sum(0) * (12 / 2000)


print("fallback", *kl(Laplace(torch.zeros(2), 1.0), Normal(torch.zeros(2), 1.0)))
print("fallback mixed", *kl(r, TemperedNormal(torch.zeros(2), torch.ones(2))))
print("registered still wins", *kl(Normal(0.0, 1.0), Normal(1.0, 1.0)))


@register_kl(TemperedNormal, Distribution)
def _kl_tempered_any(p, q):
    return p.temperature * _kl_fallback(p, q)


@register_kl(Distribution, RobustLaplace)
def _kl_any_robust(p, q):
    return torch.full(p.batch_shape, -1.0)


value, msgs = kl(p, r)
print("ambiguous", value, msgs)
value, msgs = kl(p, r)
print("second call", value, msgs)
register_kl(TemperedNormal, RobustLaplace)(_kl_any_robust)
print("tie broken", *kl(p, r))
print("other subclass pair", *kl(Normal(torch.zeros(2), 1.0), r))
print(*kl(TemperedNormal(0.0, 1.0), Normal(0.0, 1.0)))
