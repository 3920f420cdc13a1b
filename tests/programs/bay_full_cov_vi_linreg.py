# Full-covariance Gaussian VI for Bayesian linear regression: a Cholesky factor built from an
# unconstrained vector (tril_indices + softplus diagonal), MultivariateNormal(scale_tril=...),
# analytic KL(q || prior) and expected log-likelihood, compared with the exact conjugate posterior.
import torch
import torch.nn.functional as F
from torch.distributions import MultivariateNormal, kl_divergence

torch.set_default_dtype(torch.float64)
n, d = 30, 3
t = torch.linspace(-1, 1, n)
X = torch.stack([torch.ones(n), t, t ** 2], 1)
y = 0.5 - 1.2 * t + 0.8 * t ** 2 + 0.1 * torch.sin(9 * t)
noise_var, prior_var = 0.05, 4.0
prior = MultivariateNormal(torch.zeros(d), prior_var * torch.eye(d))

rows, cols = torch.tril_indices(d, d)
print("tril_indices", rows.tolist(), cols.tolist())
mu = torch.zeros(d, requires_grad=True)
raw = torch.zeros(rows.numel(), requires_grad=True)


def scale_tril():
    L = torch.zeros(d, d)
    L = L.index_put((rows, cols), raw)
    diag = F.softplus(L.diagonal()) + 1e-5
    return L - torch.diag(L.diagonal()) + torch.diag(diag)


def neg_elbo():
    L = scale_tril()
    q = MultivariateNormal(mu, scale_tril=L)
    resid = y - X @ mu
    # E_q ||y - Xw||^2 = ||y - X mu||^2 + tr(X S X^T)
    exp_sq = resid.pow(2).sum() + (X @ L).pow(2).sum()
    exp_ll = -0.5 * n * torch.log(torch.tensor(2 * torch.pi * noise_var)) - 0.5 * exp_sq / noise_var
    return kl_divergence(q, prior) - exp_ll


opt = torch.optim.Adam([mu, raw], lr=0.1)
for step in range(600):
    loss = neg_elbo()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 150 == 0:
        print(f"step {step:3d} -elbo {loss.item():.4f}")

# exact posterior
S_inv = X.T @ X / noise_var + torch.eye(d) / prior_var
S = torch.linalg.inv(S_inv)
m = S @ X.T @ y / noise_var
print("exact mean", m.round(decimals=4))
print("vi mean   ", mu.detach().round(decimals=4))
L = scale_tril().detach()
print("vi cov close", torch.allclose(L @ L.T, S, atol=2e-3), (L @ L.T - S).abs().max().item() < 2e-3)
print("exact std", S.diagonal().sqrt().round(decimals=4))
exact = MultivariateNormal(m, covariance_matrix=S)
q = MultivariateNormal(mu.detach(), scale_tril=L)
print("kl(q||exact) small", kl_divergence(q, exact).item() < 1e-2)
log_evidence = MultivariateNormal(torch.zeros(n), X @ X.T * prior_var + noise_var * torch.eye(n)).log_prob(y)
print("log evidence", f"{log_evidence.item():.4f}", "elbo", f"{-neg_elbo().item():.4f}")
print("gap small", (log_evidence + neg_elbo()).item() < 0.05)
print("L diag", q.scale_tril.diagonal().round(decimals=3), "L[2,0]", f"{q.scale_tril[2, 0].item():.3f}")
