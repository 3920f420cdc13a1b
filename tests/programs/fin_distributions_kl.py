# Comparing return-distribution models with torch.distributions: closed-form KL divergences,
# entropies, LogNormal price distributions, TransformedDistribution, and kl errors users hit.
import torch
from torch.distributions import (Normal, LogNormal, StudentT, Laplace, Gamma, Exponential, Uniform,
                                 MultivariateNormal, Independent, TransformedDistribution, kl_divergence,
                                 Beta, Poisson, Chi2, HalfNormal, Gumbel)
from torch.distributions.transforms import ExpTransform, AffineTransform

torch.set_printoptions(precision=5)
dtype = torch.float64
p = Normal(torch.tensor([0.0, 0.001], dtype=dtype), torch.tensor([0.01, 0.02], dtype=dtype))
q = Normal(torch.tensor(0.0005, dtype=dtype), torch.tensor(0.015, dtype=dtype))
print("KL N||N", kl_divergence(p, q))
print("KL N||N rev", kl_divergence(q, p))
print("entropy N", p.entropy())

ln = LogNormal(torch.tensor(0.05, dtype=dtype), torch.tensor(0.2, dtype=dtype))
print("lognormal mean", ln.mean, "var", ln.variance, "mode", ln.mode)
print("lognormal entropy", ln.entropy())
print("lognormal cdf", ln.cdf(torch.tensor([0.8, 1.0, 1.2], dtype=dtype)))
print("lognormal icdf", ln.icdf(torch.tensor([0.05, 0.5, 0.95], dtype=dtype)))
ln2 = LogNormal(torch.tensor(0.0, dtype=dtype), torch.tensor(0.25, dtype=dtype))
print("KL LN||LN", kl_divergence(ln, ln2))

# S_T = S0 * exp(N) as a TransformedDistribution
S0 = 100.0
price_dist = TransformedDistribution(Normal(torch.tensor(0.01, dtype=dtype), torch.tensor(0.2, dtype=dtype)),
                                     [ExpTransform(), AffineTransform(0.0, S0)])
grid = torch.tensor([80.0, 100.0, 120.0], dtype=dtype)
print("price log_prob", price_dist.log_prob(grid))
print("price cdf", price_dist.cdf(grid))
print("P(S_T>110)", 1 - price_dist.cdf(torch.tensor(110.0, dtype=dtype)))

lap = Laplace(torch.tensor(0.0, dtype=dtype), torch.tensor(0.01, dtype=dtype))
print("KL Lap||N", kl_divergence(lap, Normal(torch.tensor(0.0, dtype=dtype), torch.tensor(0.014, dtype=dtype))))
g1, g2 = Gamma(torch.tensor(2.0), torch.tensor(3.0)), Gamma(torch.tensor(3.0), torch.tensor(2.0))
print("KL Gamma", kl_divergence(g1, g2), "entropy", g1.entropy())
print("KL Exp", kl_divergence(Exponential(torch.tensor(2.0)), Exponential(torch.tensor(0.5))))
print("KL Exp||Gamma", kl_divergence(Exponential(torch.tensor(2.0)), g2))
print("KL U||N", kl_divergence(Uniform(torch.tensor(-1.0), torch.tensor(1.0)), Normal(torch.tensor(0.0), torch.tensor(1.0))))
print("KL Beta", kl_divergence(Beta(torch.tensor(2.0), torch.tensor(5.0)), Beta(torch.tensor(1.0), torch.tensor(1.0))))
print("KL Poisson", kl_divergence(Poisson(torch.tensor(3.0)), Poisson(torch.tensor(4.0))))
print("Chi2", Chi2(torch.tensor(4.0)).mean, Chi2(torch.tensor(4.0)).log_prob(torch.tensor(2.0)))
print("HalfNormal", HalfNormal(torch.tensor(1.0)).entropy(), HalfNormal(torch.tensor(1.0)).cdf(torch.tensor(1.0)))
print("Gumbel", Gumbel(torch.tensor(0.0), torch.tensor(1.0)).mean, Gumbel(torch.tensor(0.0), torch.tensor(1.0)).entropy())

cov1 = torch.tensor([[1.0, 0.3], [0.3, 2.0]], dtype=dtype)
cov2 = torch.tensor([[1.5, -0.2], [-0.2, 1.0]], dtype=dtype)
m1 = MultivariateNormal(torch.zeros(2, dtype=dtype), cov1)
m2 = MultivariateNormal(torch.ones(2, dtype=dtype), cov2)
print("KL MVN", kl_divergence(m1, m2))
ind = Independent(Normal(torch.zeros(2, dtype=dtype), cov1.diagonal().sqrt()), 1)
print("Independent", ind.batch_shape, ind.event_shape, ind.log_prob(torch.ones(2, dtype=dtype)))
print("KL Ind||Ind", kl_divergence(ind, Independent(Normal(torch.ones(2, dtype=dtype), torch.ones(2, dtype=dtype)), 1)))

# gradient of KL wrt sigma (variational-style)
s = torch.tensor(0.5, dtype=dtype, requires_grad=True)
kl = kl_divergence(Normal(torch.tensor(0.0, dtype=dtype), s), Normal(torch.tensor(0.0, dtype=dtype), torch.tensor(1.0, dtype=dtype)))
kl.backward()
print("dKL/dsigma", s.grad)

try:
    kl_divergence(StudentT(torch.tensor(3.0)), Normal(torch.tensor(0.0), torch.tensor(1.0)))
except NotImplementedError as e:
    print("NotImplementedError", e)
try:
    Normal(torch.tensor(0.0), torch.tensor(-1.0))
except ValueError as e:
    print("ValueError", e)
try:
    LogNormal(torch.tensor(0.0), torch.tensor(1.0)).log_prob(torch.tensor(-1.0))
except ValueError as e:
    print("ValueError", e)
print(price_dist.support, ln.support, lap.support)
print(repr(ln), repr(g1))
