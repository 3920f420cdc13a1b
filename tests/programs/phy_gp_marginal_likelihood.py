# Exact Gaussian-process regression written from scratch (GPML Algorithm 2.1 style): RBF kernel,
# K = L L^T via torch.linalg.cholesky, alpha from two torch.linalg.solve_triangular calls, the log
# marginal likelihood maximised over log-hyperparameters with Adam, and predictive mean/variance.
import math
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4)


def rbf(x1, x2, log_ell, log_sf):
    d2 = (x1.unsqueeze(1) - x2.unsqueeze(0)).pow(2).sum(-1)
    return torch.exp(2 * log_sf) * torch.exp(-0.5 * d2 / torch.exp(2 * log_ell))


def neg_log_marginal_likelihood(X, y, log_ell, log_sf, log_sn):
    n = X.shape[0]
    K = rbf(X, X, log_ell, log_sf) + torch.exp(2 * log_sn) * torch.eye(n)
    L = torch.linalg.cholesky(K)
    tmp = torch.linalg.solve_triangular(L, y.unsqueeze(-1), upper=False)
    alpha = torch.linalg.solve_triangular(L.T, tmp, upper=True)
    nll = 0.5 * (y.unsqueeze(-1) * alpha).sum() + torch.log(torch.diagonal(L)).sum() + 0.5 * n * math.log(2 * math.pi)
    return nll, L, alpha


X = torch.linspace(-3, 3, 12).unsqueeze(-1)
y = torch.sin(2 * X).squeeze(-1) + 0.05 * torch.cos(7 * X).squeeze(-1)
log_ell = torch.tensor(0.0, requires_grad=True)
log_sf = torch.tensor(0.0, requires_grad=True)
log_sn = torch.tensor(-1.0, requires_grad=True)

nll, L, alpha = neg_log_marginal_likelihood(X, y, log_ell, log_sf, log_sn)
print("nll", nll.item().__round__(5), "L", L.shape, L.grad_fn.name())
nll.backward()
print("grads", [round(p.grad.item(), 5) for p in (log_ell, log_sf, log_sn)])

# check the ell-gradient against the closed form 0.5 tr((alpha alpha^T - K^-1) dK/dtheta)
with torch.no_grad():
    K = rbf(X, X, log_ell, log_sf) + torch.exp(2 * log_sn) * torch.eye(12)
    Kinv = torch.cholesky_inverse(torch.linalg.cholesky(K))
    d2 = (X - X.T) ** 2
    dK = rbf(X, X, log_ell, log_sf) * d2 / torch.exp(2 * log_ell)
    analytic = -0.5 * torch.trace((alpha @ alpha.T - Kinv) @ dK)
print("analytic d nll / d log_ell", round(analytic.item(), 5), torch.isclose(analytic, log_ell.grad).item())

opt = torch.optim.Adam([log_ell, log_sf, log_sn], lr=0.05)
for i in range(40):
    opt.zero_grad()
    nll, _, _ = neg_log_marginal_likelihood(X, y, log_ell, log_sf, log_sn)
    nll.backward()
    opt.step()
    if i % 10 == 0:
        print(f"iter {i:2d} nll {nll.item():8.4f} ell {log_ell.exp().item():.4f} sf {log_sf.exp().item():.4f} sn {log_sn.exp().item():.4f}")

with torch.no_grad():
    nll, L, alpha = neg_log_marginal_likelihood(X, y, log_ell, log_sf, log_sn)
    Xs = torch.linspace(-3, 3, 5).unsqueeze(-1)
    Ks = rbf(X, Xs, log_ell, log_sf)
    mean = Ks.T @ alpha
    v = torch.linalg.solve_triangular(L, Ks, upper=False)
    var = torch.exp(2 * log_sf) - (v * v).sum(0)
print("mean", mean.squeeze(-1))
print("std ", var.clamp_min(0).sqrt())
print("true", torch.sin(2 * Xs).squeeze(-1))

# cholesky of a non-PD matrix (too little jitter on duplicated inputs)
Xd = torch.tensor([[0.0], [0.0], [1.0]])
try:
    torch.linalg.cholesky(rbf(Xd, Xd, torch.tensor(0.0), torch.tensor(0.0)) - 1e-9 * torch.eye(3))
except torch.linalg.LinAlgError as e:
    print(type(e).__name__, e)
