# BoTorch-style Monte-Carlo acquisition without BoTorch: quasi-MC standard normal base samples from
# an unscrambled SobolEngine pushed through Normal.icdf, joint posterior of q candidate points,
# reparameterised samples mean + L eps, and qEI / qUCB / qPI estimates with gradients w.r.t. X.
import math
import torch
from torch.distributions import Normal
from torch.quasirandom import SobolEngine

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)


def kern(a, b, ls=0.5):
    return torch.exp(-0.5 * torch.cdist(a, b) ** 2 / ls ** 2)


X = torch.tensor([[0.1, 0.2], [0.4, 0.9], [0.8, 0.5], [0.3, 0.5], [0.9, 0.1]])
y = (torch.sin(5 * X[:, 0]) * torch.cos(3 * X[:, 1])).squeeze()
L = torch.linalg.cholesky(kern(X, X) + 1e-4 * torch.eye(5))
alpha = torch.cholesky_solve(y.unsqueeze(-1), L)


def joint_posterior(Xq):
    Ks = kern(X, Xq)
    mean = (Ks.mT @ alpha).squeeze(-1)
    v = torch.linalg.solve_triangular(L, Ks, upper=False)
    cov = kern(Xq, Xq) - v.mT @ v
    return mean, cov


q, num_samples = 2, 128
engine = SobolEngine(dimension=q, scramble=False)
engine.fast_forward(1)  # skip the all-zero point (icdf(0) = -inf)
u = engine.draw(num_samples, dtype=torch.float64)
base = Normal(0.0, 1.0).icdf(u.clamp(1e-6, 1 - 1e-6))
print("base samples", base.shape, base[:4])
print(f"mean {base.mean(0).abs().max().item():.4f} std {base.std(0)}")

Xq = torch.tensor([[0.25, 0.3], [0.6, 0.7]], requires_grad=True)
mean, cov = joint_posterior(Xq)
Lq = torch.linalg.cholesky(cov + 1e-8 * torch.eye(q))
samples = mean + base @ Lq.mT  # (num_samples, q)
best_f = y.max()
qei = (samples - best_f).clamp_min(0).max(-1).values.mean()
beta = 0.2
qucb = (mean + math.sqrt(beta * math.pi / 2) * (samples - mean).abs()).max(-1).values.mean()
qpi = torch.sigmoid((samples - best_f) / 1e-3).max(-1).values.mean()
print(f"qEI {qei.item():.5f} qUCB {qucb.item():.5f} qPI {qpi.item():.4f}")
qei.backward()
print("dqEI/dX", Xq.grad)

# analytic EI for q=1 against the QMC estimate
x1 = torch.tensor([[0.25, 0.3]])
m1, c1 = joint_posterior(x1)
s1 = c1.diagonal().clamp_min(1e-12).sqrt()
z = (m1 - best_f) / s1
n = Normal(0.0, 1.0)
ei = s1 * (z * n.cdf(z) + n.log_prob(z).exp())
u1 = SobolEngine(1, scramble=False)
u1.fast_forward(1)
e1 = n.icdf(u1.draw(1023, dtype=torch.float64).clamp(1e-9, 1 - 1e-9))
ei_mc = (m1 + s1 * e1 - best_f).clamp_min(0).mean()
print(f"EI analytic {ei.item():.5f} QMC {ei_mc.item():.5f}")
print("engine generated", engine.num_generated, u1.num_generated)
