# Custom torch.distributions classes for Bayes by Backprop: a Normal subclass parametrised by
# (mu, rho) with sigma = softplus(rho), a scale-mixture prior written as a Distribution subclass
# with its own expand(), and what happens when a subclass with a custom __init__ lacks expand().
import math
import torch
import torch.nn.functional as F
from torch.distributions import Distribution, Normal, Independent, constraints, kl_divergence


class VariationalNormal(Normal):
    """q(w) = N(mu, softplus(rho)^2)."""

    def __init__(self, mu, rho, validate_args=None):
        self.rho = rho
        super().__init__(mu, F.softplus(rho), validate_args=validate_args)


class ScaleMixturePrior(Distribution):
    arg_constraints = {"pi": constraints.unit_interval}
    support = constraints.real

    def __init__(self, pi, sigma1, sigma2, validate_args=None):
        self.pi = torch.as_tensor(pi, dtype=torch.float32)
        self.sigma1, self.sigma2 = sigma1, sigma2
        super().__init__(self.pi.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(ScaleMixturePrior, _instance)
        new.pi = self.pi.expand(batch_shape)
        new.sigma1, new.sigma2 = self.sigma1, self.sigma2
        super(ScaleMixturePrior, new).__init__(torch.Size(batch_shape), validate_args=False)
        new._validate_args = self._validate_args
        return new

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        a = Normal(0.0, self.sigma1).log_prob(value) + torch.log(self.pi)
        b = Normal(0.0, self.sigma2).log_prob(value) + torch.log1p(-self.pi)
        return torch.logaddexp(a, b)

    @property
    def mean(self):
        return torch.zeros_like(self.pi)

    @property
    def variance(self):
        return self.pi * self.sigma1 ** 2 + (1 - self.pi) * self.sigma2 ** 2


mu = torch.linspace(-0.2, 0.2, 6).reshape(2, 3).requires_grad_()
rho = torch.full((2, 3), -3.0, requires_grad=True)
q = VariationalNormal(mu, rho)
prior = ScaleMixturePrior(0.25, 1.0, math.exp(-6))
print(q)
print(prior, prior.batch_shape, prior.event_shape)
print("prior var", f"{prior.variance.item():.6f}", "stddev", f"{prior.stddev.item():.6f}")

eps = torch.cos(torch.arange(6.0)).reshape(2, 3)
w = q.loc + q.scale * eps  # reparameterised sample from fixed noise
log_q = q.log_prob(w).sum()
log_p = prior.log_prob(w).sum()
print(f"log q {log_q.item():.4f}  log p {log_p.item():.4f}")
(log_q - log_p).backward()
print("d mu", mu.grad)
print("d rho", rho.grad)

big = prior.expand((2, 3))
print("expanded", type(big).__name__, big.batch_shape, big.log_prob(w.detach()).shape)
print("independent", Independent(prior.expand((3,)), 1).log_prob(torch.zeros(3)).item() > 0)
print("kl vs N(0,1)", kl_divergence(q, Normal(0.0, 1.0)).sum().item() > 0)

for bad in (lambda: q.expand((4, 2, 3)), lambda: ScaleMixturePrior(1.5, 1.0, 0.1)):
    try:
        bad()
    except (NotImplementedError, ValueError) as e:
        print(type(e).__name__, str(e).splitlines()[0])


class PlainPrior(Distribution):
    arg_constraints = {}
    support = constraints.real

    def log_prob(self, value):
        return -0.5 * value ** 2


pp = PlainPrior(torch.Size([3]))
print(pp, pp.batch_shape, pp.log_prob(torch.ones(3)))
try:
    pp.expand((2, 3))
except NotImplementedError as e:
    print("NotImplementedError", repr(str(e)))
try:
    pp.sample()
except NotImplementedError as e:
    print("NotImplementedError", repr(str(e)))
