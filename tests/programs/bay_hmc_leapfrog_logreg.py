# Hamiltonian Monte Carlo for Bayesian logistic regression written by hand: potential from
# Normal prior log_prob + Bernoulli(logits) log-likelihood, gradients via torch.autograd.grad,
# leapfrog integration and a Metropolis accept step (momenta and uniforms from fixed sequences).
import math
import torch
from torch.distributions import Normal, Bernoulli

torch.set_default_dtype(torch.float64)
n = 30
t = torch.linspace(-2, 2, n)
X = torch.stack([torch.ones(n), t, t.sin()], dim=1)
y = ((t + 0.4 * torch.cos(5 * t)) > 0).double()
prior = Normal(torch.zeros(3), torch.full((3,), 2.0))


def potential(w):
    return -(prior.log_prob(w).sum() + Bernoulli(logits=X @ w).log_prob(y).sum())


def grad_potential(w):
    w = w.detach().requires_grad_(True)
    u = potential(w)
    (g,) = torch.autograd.grad(u, w)
    return u.detach(), g


def leapfrog(w, p, step, n_steps):
    _, g = grad_potential(w)
    p = p - 0.5 * step * g
    for i in range(n_steps):
        w = w + step * p
        _, g = grad_potential(w)
        if i != n_steps - 1:
            p = p - step * g
    p = p - 0.5 * step * g
    return w, -p


w = torch.zeros(3)
samples, accepted = [], 0
for it in range(40):
    p0 = torch.sin(torch.arange(3.0) * 2.1 + it * 1.3)
    u0, _ = grad_potential(w)
    w_new, p_new = leapfrog(w, p0, step=0.1, n_steps=10)
    u1, _ = grad_potential(w_new)
    h0 = u0 + 0.5 * p0.dot(p0)
    h1 = u1 + 0.5 * p_new.dot(p_new)
    log_u = math.log(0.05 + 0.9 * (0.5 + 0.5 * math.sin(it * 0.77)))
    if log_u < (h0 - h1).item():
        w, accepted = w_new, accepted + 1
    samples.append(w)
    if it % 10 == 9:
        print(f"iter {it + 1}: U={potential(w).item():.4f} dH={(h1 - h0).item():+.5f} acc={accepted}")

S = torch.stack(samples[10:])
print("samples", S.shape)
print("posterior mean", S.mean(0).round(decimals=3))
print("posterior std ", S.std(0).round(decimals=3))
print("corr", torch.corrcoef(S.T).round(decimals=2))
xs = torch.stack([torch.ones(3), torch.tensor([-1.5, 0.0, 1.5]), torch.tensor([-1.5, 0.0, 1.5]).sin()], 1)
pred = torch.sigmoid(S @ xs.T).mean(0)
print("predictive", pred.round(decimals=3))
q = torch.quantile(S[:, 1], torch.tensor([0.1, 0.5, 0.9]))
print("slope quantiles", q.round(decimals=3))
