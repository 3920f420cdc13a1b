# Variational posteriors three ways: factorised Normal summed by hand, Independent(Normal, 1),
# and a diagonal MultivariateNormal; log_prob / entropy / rsample shapes and gradients agree.
import torch
import torch.nn.functional as F
from torch.distributions import Normal, Independent, MultivariateNormal

torch.set_printoptions(precision=4)
D = 4
mu = torch.tensor([0.5, -1.0, 0.0, 2.0], requires_grad=True)
rho = torch.tensor([-1.0, 0.0, 0.5, -0.5], requires_grad=True)
sigma = F.softplus(rho)

q_fact = Normal(mu, sigma)
q_ind = Independent(Normal(mu, sigma), 1)
q_mvn = MultivariateNormal(mu, scale_tril=torch.diag(sigma))
q_cov = MultivariateNormal(mu, covariance_matrix=torch.diag_embed(sigma ** 2))

for name, q in [("fact", q_fact), ("ind", q_ind), ("mvn", q_mvn)]:
    print(f"{name:5s} batch={tuple(q.batch_shape)} event={tuple(q.event_shape)}")
print(q_ind)
print(q_mvn)

w = torch.stack([torch.linspace(-1, 1, D), torch.cos(torch.arange(D, dtype=torch.float32))])
lp_fact = q_fact.log_prob(w).sum(-1)
lp_ind = q_ind.log_prob(w)
lp_mvn = q_mvn.log_prob(w)
print("log_prob", *(f"{v:.3f}" for v in torch.cat([lp_fact, lp_ind, lp_mvn]).tolist()))
print("agree", torch.allclose(lp_fact, lp_ind), torch.allclose(lp_ind, lp_mvn, atol=1e-5),
      torch.allclose(q_cov.log_prob(w), lp_ind, atol=1e-5))

print("entropy", f"{q_fact.entropy().sum().item():.5f}", f"{q_ind.entropy().item():.5f}",
      f"{q_mvn.entropy().item():.5f}")

g_ind = torch.autograd.grad(lp_ind.sum(), (mu, rho), retain_graph=True)
g_mvn = torch.autograd.grad(lp_mvn.sum(), (mu, rho))
print("grad mu ", g_ind[0])
print("grad rho", g_ind[1])
print("grads agree", all(torch.allclose(a, b, atol=1e-5) for a, b in zip(g_ind, g_mvn)))

# reparameterised samples: shapes and gradient paths (values depend on the RNG)
s = q_ind.rsample((3,))
print("rsample", s.shape, s.requires_grad, q_ind.sample((2, 5)).shape, q_ind.sample().requires_grad)
print("has_rsample", q_fact.has_rsample, q_ind.has_rsample, q_mvn.has_rsample)
print("mvn rsample", q_mvn.rsample(torch.Size([6])).shape)

# moments
print("mean", q_ind.mean.detach(), "stddev", q_ind.stddev.detach(), sep="\n")
print("mvn variance", q_mvn.variance.detach())
print("mvn cov diag", q_cov.covariance_matrix.diagonal().detach())
print("mvn precision", q_mvn.precision_matrix.diagonal().detach())

# batch of posteriors (e.g. one per output unit) folded with Independent
loc = torch.arange(6.0).reshape(2, 3) / 10
q_batch = Independent(Normal(loc, torch.full((2, 3), 0.5)), 1)
print(q_batch.batch_shape, q_batch.event_shape, q_batch.log_prob(torch.zeros(3)))
q_all = Independent(Normal(loc, torch.full((2, 3), 0.5)), 2)
print(q_all.batch_shape, q_all.event_shape, q_all.log_prob(torch.zeros(2, 3)))
print("expand", q_batch.expand(torch.Size([5, 2])).batch_shape)
try:
    q_batch.log_prob(torch.zeros(4))
except ValueError as e:
    print(type(e).__name__, e)
try:
    Independent(Normal(loc, 1.0), 3)
except ValueError as e:
    print(type(e).__name__, e)
