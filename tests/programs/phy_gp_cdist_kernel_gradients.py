# GP / kernel-method code built on torch.cdist (squared-exponential and Matern-5/2 kernels),
# gradients through cdist including the zero-distance diagonal, the posterior mean derivative
# d mu / d x* by autograd (used for Bayesian optimisation / GP-based physics surrogates),
# cholesky_solve, and a log-determinant via 2 * log(diag(L)).sum() vs torch.logdet.
import math
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=5)


def se_kernel(a, b, ell):
    return torch.exp(-0.5 * torch.cdist(a / ell, b / ell) ** 2)


def matern52(a, b, ell):
    r = torch.cdist(a, b) / ell
    s5 = math.sqrt(5.0) * r
    return (1 + s5 + 5.0 / 3.0 * r ** 2) * torch.exp(-s5)


X = torch.stack([torch.linspace(0, 1, 7), torch.cos(torch.linspace(0, 3, 7))], dim=1)
y = torch.sin(3 * X[:, 0]) + X[:, 1] ** 2
ell = torch.tensor(0.4, requires_grad=True)

D = torch.cdist(X, X)
print("cdist", D.shape, D.diagonal().abs().max().item())
Xr = X.clone().requires_grad_(True)
torch.cdist(Xr, Xr).sum().backward()
print("grad through cdist(X, X)", Xr.grad)
Xr.grad = None
torch.cdist(Xr, X.flip(0), p=1).sum().backward()
print("p=1", Xr.grad[:3])

for name, kern in [("SE", se_kernel), ("Matern52", matern52)]:
    K = kern(X, X, ell) + 1e-6 * torch.eye(7)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    logdet = 2 * torch.log(torch.diagonal(L)).sum()
    nlml = 0.5 * (y.unsqueeze(1) * alpha).sum() + 0.5 * logdet + 3.5 * math.log(2 * math.pi)
    g, = torch.autograd.grad(nlml, ell)
    print(f"{name}: nlml {nlml.item():.4f} logdet {logdet.item():.4f} logdet-check {torch.logdet(K).item():.4f} dnlml/dell {g.item():.4f}")

# posterior mean and its gradient w.r.t. test inputs
with torch.no_grad():
    K = se_kernel(X, X, ell) + 1e-6 * torch.eye(7)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
xs = torch.tensor([[0.25, 0.5], [0.75, -0.5]], requires_grad=True)
mu = (se_kernel(xs, X, ell.detach()) @ alpha).squeeze(1)
dmu, = torch.autograd.grad(mu.sum(), xs)
print("mu", mu.detach(), "dmu/dx*", dmu)

# predictive variance through the explicit inverse (K^-1 from the Cholesky factor), differentiable in ell
K_ell = se_kernel(X, X, ell) + 1e-6 * torch.eye(7)
K_inv = torch.cholesky_inverse(torch.linalg.cholesky(K_ell))
k_s = se_kernel(xs.detach(), X, ell)
var = 1.0 - (k_s @ K_inv * k_s).sum(1)
print("var", var.detach(), "K_inv", K_inv.grad_fn)
var.sum().backward()
print("d var / d ell %.5f" % ell.grad.item())

# a test point exactly on a training input: cdist gradient at zero distance
x_on = X[2:3].clone().requires_grad_(True)
k_on = se_kernel(x_on, X, ell.detach())
k_on.sum().backward()
print("grad at a training point", x_on.grad)
x_on.grad = None
torch.cdist(x_on, X).sum().backward()
print("cdist grad at zero distance", x_on.grad)

# batched cdist as used for multi-output / batched GPs
B = torch.stack([X, X + 1.0])
print(torch.cdist(B, B[:, :3]).shape, torch.cdist(B, B[:, :3])[1, :2])
try:
    torch.cdist(X, torch.zeros(3, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
