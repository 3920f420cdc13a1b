# Variational GP classification (SVGP, Hensman et al. 2015) written by hand: whitened inducing
# variables q(v) = N(m, S S^T) with S a lower-triangular parameter (tril + softplus diagonal),
# KL via torch.distributions.kl_divergence of MultivariateNormals, a Bernoulli-probit expected
# log-likelihood with Gauss-Hermite quadrature (numpy hermgauss), Gamma hyperprior, Adam.
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Gamma, MultivariateNormal, Normal, kl_divergence

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)

gh_x, gh_w = np.polynomial.hermite.hermgauss(20)
gh_x, gh_w = torch.from_numpy(gh_x), torch.from_numpy(gh_w)
print(gh_x.dtype, gh_w.sum().item().__round__(6), round(math.sqrt(math.pi), 6))


class SVGP(nn.Module):
    def __init__(self, Z):
        super().__init__()
        m = Z.shape[0]
        self.Z = nn.Parameter(Z.clone())
        self.q_mu = nn.Parameter(torch.zeros(m))
        self.q_sqrt_raw = nn.Parameter(torch.eye(m) * 0.5413)  # softplus(0.5413) ~ 1
        self.raw_ls = nn.Parameter(torch.tensor(0.0))

    def q_sqrt(self):
        S = torch.tril(self.q_sqrt_raw, diagonal=-1)
        return S + torch.diag_embed(F.softplus(self.q_sqrt_raw.diagonal()))

    def kern(self, a, b):
        return torch.exp(-0.5 * torch.cdist(a, b).square() / F.softplus(self.raw_ls) ** 2)

    def predict_f(self, X):
        m = self.Z.shape[0]
        Kuu = self.kern(self.Z, self.Z) + 1e-6 * torch.eye(m)
        Luu = torch.linalg.cholesky(Kuu)
        A = torch.linalg.solve_triangular(Luu, self.kern(self.Z, X), upper=False)
        mean = A.T @ self.q_mu
        SA = self.q_sqrt().T @ A
        var = 1.0 - A.pow(2).sum(0) + SA.pow(2).sum(0)
        return mean, var

    def elbo(self, X, y):
        mean, var = self.predict_f(X)
        f = mean[:, None] + math.sqrt(2.0) * var.sqrt()[:, None] * gh_x[None, :]
        p = Normal(0.0, 1.0).cdf(f).clamp(1e-8, 1 - 1e-8)
        loglik = torch.where(y[:, None] > 0, p.log(), (1 - p).log())
        ell = (loglik * gh_w).sum(1) / math.sqrt(math.pi)
        q = MultivariateNormal(self.q_mu, scale_tril=self.q_sqrt())
        prior = MultivariateNormal(torch.zeros_like(self.q_mu), torch.eye(len(self.q_mu)))
        kl = kl_divergence(q, prior)
        hyper = Gamma(3.0, 3.0).log_prob(F.softplus(self.raw_ls))
        return ell.sum() - kl + hyper, kl


X = torch.linspace(-3, 3, 40).unsqueeze(-1)
y = (torch.sin(1.7 * X.squeeze(-1)) > 0.2).double()
model = SVGP(torch.linspace(-3, 3, 7).unsqueeze(-1))
print([(k, tuple(v.shape)) for k, v in model.state_dict().items()])
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(40):
    opt.zero_grad()
    elbo, kl = model.elbo(X, y)
    (-elbo).backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step:2d} elbo {elbo.item():9.4f} kl {kl.item():.4f} ls {F.softplus(model.raw_ls).item():.4f}")

with torch.no_grad():
    Xs = torch.tensor([[-2.5], [-1.0], [0.5], [1.2], [2.6]])
    mean, var = model.predict_f(Xs)
    prob = Normal(0.0, 1.0).cdf(mean / torch.sqrt(1 + var))
print("p(y=1|x*)", prob)
print("truth    ", (torch.sin(1.7 * Xs.squeeze(-1)) > 0.2).double())
print("q_sqrt lower", torch.equal(model.q_sqrt().triu(1), torch.zeros(7, 7)))
