# Spectral mixture kernel (Wilson & Adams) written by hand, the MLL as a function of a flat
# hyperparameter vector, its gradient and Hessian with torch.func (grad / hessian) and
# torch.autograd.functional.hessian for a Laplace approximation over hyperparameters, and
# vmap over a batch of hyperparameter settings.
import math
import torch
from torch.func import grad, hessian, vmap

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)

x = torch.linspace(0, 4, 18)
y = torch.sin(2 * math.pi * 0.5 * x) + 0.3 * torch.cos(2 * math.pi * 1.3 * x)


def sm_kernel(a, b, theta):
    # theta = [log w1, log mu1, log v1, log w2, log mu2, log v2, log noise]
    tau = a[:, None] - b[None, :]
    K = torch.zeros_like(tau)
    for q in range(2):
        w, mu, v = theta[3 * q].exp(), theta[3 * q + 1].exp(), theta[3 * q + 2].exp()
        K = K + w * torch.exp(-2 * math.pi ** 2 * tau ** 2 * v) * torch.cos(2 * math.pi * tau * mu)
    return K


def neg_mll(theta):
    K = sm_kernel(x, x, theta) + (theta[6].exp() + 1e-6) * torch.eye(len(x))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(-1), L).squeeze(-1)
    return 0.5 * y @ alpha + L.diagonal().log().sum() + 0.5 * len(x) * math.log(2 * math.pi)


theta0 = torch.tensor([0.0, math.log(0.5), math.log(0.05), math.log(0.3), math.log(1.3), math.log(0.05), math.log(0.01)])
print(f"nll {neg_mll(theta0).item():.5f}")
g = grad(neg_mll)(theta0)
print("grad", g)
H = hessian(neg_mll)(theta0)
print("hessian shape", H.shape, "symmetric", torch.allclose(H, H.T, atol=1e-6))
H2 = torch.autograd.functional.hessian(neg_mll, theta0)
print("same as autograd.functional", torch.allclose(H, H2, atol=1e-8))

theta = theta0.clone().requires_grad_(True)
opt = torch.optim.Adam([theta], lr=0.02)
for step in range(25):
    opt.zero_grad()
    loss = neg_mll(theta)
    loss.backward()
    opt.step()
    if step % 8 == 0:
        print(f"step {step} nll {loss.item():.5f}")
theta_hat = theta.detach()
Hh = hessian(neg_mll)(theta_hat)
evals = torch.linalg.eigvalsh(Hh)
print("hessian eig sign pattern", (evals > 0).tolist())
print("frequencies", theta_hat[[1, 4]].exp(), "weights", theta_hat[[0, 3]].exp())

batch = torch.stack([theta0, theta_hat, theta0 + 0.1])
print("vmap nll", vmap(neg_mll)(batch))
print("vmap grad norms", vmap(grad(neg_mll))(batch).norm(dim=-1))
