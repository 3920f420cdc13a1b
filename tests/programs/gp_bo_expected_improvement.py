# Bayesian optimisation from scratch: GP posterior on a 1-D objective, expected improvement via
# torch.distributions.Normal(0, 1).cdf / log_prob().exp(), UCB, argmax over a linspace candidate
# grid, and a few BO iterations appending the chosen point.
import math
import torch
from torch.distributions import Normal

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4)


def objective(x):
    return -(torch.sin(3 * x) + 0.5 * x ** 2 - 0.3 * x)


def matern52(a, b, ls=0.4, var=1.0):
    r = torch.cdist(a, b) / ls
    s5 = math.sqrt(5.0)
    return var * (1 + s5 * r + 5.0 / 3.0 * r ** 2) * torch.exp(-s5 * r)


def posterior(X, y, Xs, noise=1e-4):
    K = matern52(X, X) + noise * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    y_mean = y.mean()
    alpha = torch.cholesky_solve((y - y_mean).unsqueeze(-1), L)
    Ks = matern52(X, Xs)
    mu = (Ks.mT @ alpha).squeeze(-1) + y_mean
    v = torch.linalg.solve_triangular(L, Ks, upper=False)
    var = (1.0 - (v ** 2).sum(0)).clamp_min(1e-12)
    return mu, var.sqrt()


def expected_improvement(mu, sigma, best, xi=0.01):
    normal = Normal(torch.zeros_like(mu), torch.ones_like(mu))
    z = (mu - best - xi) / sigma
    return (mu - best - xi) * normal.cdf(z) + sigma * normal.log_prob(z).exp()


def ucb(mu, sigma, beta=2.0):
    return mu + math.sqrt(beta) * sigma


X = torch.tensor([[-1.5], [0.0], [1.5]])
y = objective(X).squeeze(-1)
cand = torch.linspace(-2, 2, 201).unsqueeze(-1)
n01 = Normal(0.0, 1.0)
print(n01, n01.mean, n01.stddev)
print(n01.cdf(torch.tensor([-1.0, 0.0, 1.96])), n01.icdf(torch.tensor([0.025, 0.5])))
print(n01.log_prob(torch.tensor(0.0)), n01.entropy())

for it in range(6):
    mu, sigma = posterior(X, y, cand)
    ei = expected_improvement(mu, sigma, y.max())
    idx = ei.argmax()
    x_next = cand[idx]
    y_next = objective(x_next)
    print(f"iter {it}: next x={x_next.item():+.3f} EI={ei[idx].item():.5f} "
          f"y={y_next.item():+.4f} best={max(y.max().item(), y_next.item()):+.4f}")
    X = torch.cat([X, x_next.unsqueeze(0)])
    y = torch.cat([y, y_next])

mu, sigma = posterior(X, y, cand)
u = ucb(mu, sigma)
print("UCB argmax", cand[u.argmax()].item().__round__(3), "mu there", round(mu[u.argmax()].item(), 4))
print("best observed", X[y.argmax()], y.max())
print(mu[::50], sigma[::50])

# gradient of EI w.r.t. the candidate location, as in gradient-based acquisition optimisation
xq = torch.tensor([[0.37]], requires_grad=True)
m, s = posterior(X, y, xq)
acq = expected_improvement(m, s, y.max())
acq.sum().backward()
print(f"EI(0.37)={acq.item():.6f} dEI/dx={xq.grad.item():.6f}", acq.grad_fn.name())
