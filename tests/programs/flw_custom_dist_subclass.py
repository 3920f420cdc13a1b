# Writing new distributions the way torch.distributions' own modules are written (users copy
# LogNormal's pattern): a TransformedDistribution subclass with arg_constraints, expand via
# _get_checked_instance, a Distribution subclass with broadcast_all/rsample/_validate_sample,
# register_kl for the new pair, and a learnable custom Transform with cache and sign.
import math
import torch
import torch.nn as nn
from torch.distributions import (Distribution, Normal, TransformedDistribution, constraints,
                                 register_kl, kl_divergence)
from torch.distributions.transforms import SigmoidTransform, AffineTransform, Transform
from torch.distributions.utils import broadcast_all


class LogitNormal(TransformedDistribution):
    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        super().__init__(Normal(loc, scale, validate_args=validate_args), SigmoidTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LogitNormal, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def loc(self):
        return self.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.scale


class Gompertz(Distribution):
    arg_constraints = {"eta": constraints.positive, "b": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, eta, b, validate_args=None):
        self.eta, self.b = broadcast_all(eta, b)
        super().__init__(self.eta.shape, validate_args=validate_args)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        u = torch.linspace(0.05, 0.95, shape.numel()).reshape(shape)  # fixed "uniforms"
        return torch.log1p(-torch.log1p(-u) / self.eta) / self.b

    def log_prob(self, x):
        if self._validate_args:
            self._validate_sample(x)
        return torch.log(self.b) + torch.log(self.eta) + self.b * x + self.eta - self.eta * torch.exp(self.b * x)


@register_kl(LogitNormal, LogitNormal)
def _kl_logitnormal(p, q):
    return kl_divergence(p.base_dist, q.base_dist)


class LearnableAffine(Transform):
    domain = constraints.real
    codomain = constraints.real
    bijective = True

    def __init__(self, shift, log_scale, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.shift, self.log_scale = shift, log_scale

    @property
    def sign(self):
        return 1

    def _call(self, x):
        return x * self.log_scale.exp() + self.shift

    def _inverse(self, y):
        return (y - self.shift) * torch.exp(-self.log_scale)

    def log_abs_det_jacobian(self, x, y):
        return self.log_scale.expand(x.shape)


ln = LogitNormal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
print(ln, ln.batch_shape, ln.support, ln.loc, ln.scale)
v = torch.tensor([0.3, 0.8])
print(ln.log_prob(v), ln.cdf(v), ln.icdf(torch.tensor([0.5, 0.5])))
big = ln.expand((3, 2))
print(type(big).__name__, big.batch_shape, big.loc.shape, big.log_prob(v).shape)
print(kl_divergence(ln, LogitNormal(torch.zeros(2), torch.ones(2))))
try:
    LogitNormal(torch.zeros(2), -torch.ones(2), validate_args=True)
except ValueError as e:
    print(type(e).__name__, e)

g = Gompertz(torch.tensor([0.5, 1.0]), 2.0)
print(g.batch_shape, g.event_shape, g.b)
s = g.rsample((3,))
print(s.shape, s.round(decimals=4))
print(g.log_prob(s).round(decimals=4))
try:
    Gompertz(1.0, 1.0, validate_args=True).log_prob(torch.tensor([-1.0]))
except ValueError as e:
    print(type(e).__name__, str(e)[:120])
try:
    g.entropy()
except NotImplementedError as e:
    print("NotImplementedError", e)
print(g)

shift = nn.Parameter(torch.tensor([0.5, -0.5]))
log_scale = nn.Parameter(torch.tensor([0.1, -0.2]))
t = LearnableAffine(shift, log_scale, cache_size=1)
flow = TransformedDistribution(Normal(torch.zeros(2), torch.ones(2)), [t, SigmoidTransform()])
data = torch.tensor([[0.2, 0.6], [0.4, 0.7], [0.3, 0.9], [0.25, 0.5]])
opt = torch.optim.SGD([shift, log_scale], lr=0.1)
for step in range(20):
    loss = -flow.log_prob(data).sum(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0 or step == 19:
        print(f"step {step:2d} nll {loss.item():.4f} shift {shift.data.round(decimals=3).tolist()}")
y = t(torch.tensor([1.0, 2.0]))
print(t.inv(y), t.inv, t.inv.inv is t, t.sign, t.event_dim)
print(flow.support, flow.transforms)
