# Exact Gaussian-process regression as in GP tutorials (GPyTorch-free, "GPs from scratch"):
# RBF kernel hyperparameters through softplus, negative log marginal likelihood via Cholesky +
# solve_triangular, the same value from MultivariateNormal.log_prob, and the predictive mean/var.
import math
import torch
import torch.nn.functional as F
from torch.distributions import MultivariateNormal

torch.set_default_dtype(torch.float64)
X = torch.linspace(0, 5, 25).unsqueeze(1)
y = torch.sin(1.5 * X).squeeze(1) + 0.1 * torch.cos(7 * X).squeeze(1)
Xs = torch.linspace(-0.5, 5.5, 7).unsqueeze(1)


def rbf(a, b, ls, var):
    d2 = torch.cdist(a / ls, b / ls) ** 2
    return var * torch.exp(-0.5 * d2)


raw_ls = torch.tensor(0.0, requires_grad=True)
raw_var = torch.tensor(0.0, requires_grad=True)
raw_noise = torch.tensor(-2.0, requires_grad=True)


def hyper():
    return F.softplus(raw_ls), F.softplus(raw_var), F.softplus(raw_noise) + 1e-4


def nlml():
    ls, var, noise = hyper()
    K = rbf(X, X, ls, var) + noise * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.linalg.solve_triangular(L, y.unsqueeze(1), upper=False)
    return 0.5 * (alpha ** 2).sum() + torch.log(torch.diagonal(L)).sum() + 0.5 * len(X) * math.log(2 * math.pi), K


loss, K = nlml()
print(f"initial nlml {loss.item():.4f}")
print(f"mvn nlml     {-MultivariateNormal(torch.zeros(len(X)), K).log_prob(y).item():.4f}")
print(f"scale_tril   {-MultivariateNormal(torch.zeros(len(X)), scale_tril=torch.linalg.cholesky(K)).log_prob(y).item():.4f}")
opt = torch.optim.LBFGS([raw_ls, raw_var, raw_noise], lr=0.5, max_iter=20, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    l, _ = nlml()
    l.backward()
    return l


for it in range(3):
    opt.step(closure)
    print(f"round {it} nlml {nlml()[0].item():.4f}")
ls, var, noise = hyper()
print(f"lengthscale {ls.item():.3f} variance {var.item():.3f} noise {noise.item():.5f}")

with torch.no_grad():
    K = rbf(X, X, ls, var) + noise * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    Ks = rbf(X, Xs, ls, var)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    mean = (Ks.T @ alpha).squeeze(1)
    v = torch.linalg.solve_triangular(L, Ks, upper=False)
    var_s = var - (v ** 2).sum(0)
    print(mean.round(decimals=3))
    print(var_s.clamp_min(0).sqrt().round(decimals=3))
    print((torch.sin(1.5 * Xs).squeeze(1) - mean).abs().max() < 0.2)
    post = MultivariateNormal(mean, rbf(Xs, Xs, ls, var) - v.T @ v + 1e-6 * torch.eye(len(Xs)))
    print(post.batch_shape, post.event_shape, post.stddev.round(decimals=3))
    Kinv = torch.cholesky_inverse(L)
    print(torch.allclose(Kinv @ K, torch.eye(len(X)), atol=1e-6))
    print(torch.logdet(K).item() - 2 * torch.log(L.diagonal()).sum().item() < 1e-8)
