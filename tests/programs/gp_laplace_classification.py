# Binary GP classification with the Laplace approximation (GPML Algorithm 3.1/3.2): Newton
# iterations on the latent f with a logistic likelihood, B = I + W^1/2 K W^1/2 factorised by
# torch.linalg.cholesky, approximate log marginal likelihood, and averaged predictive probabilities
# with the probit approximation.
import math
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)


def periodic_plus_rbf(a, b, ls=0.7, period=2.0, sf2=2.0):
    diff = a.unsqueeze(1) - b.unsqueeze(0)
    rbf = torch.exp(-0.5 * diff.pow(2).sum(-1) / ls ** 2)
    per = torch.exp(-2.0 * torch.sin(math.pi * diff.abs().sum(-1) / period).pow(2) / ls ** 2)
    return sf2 * (0.5 * rbf + 0.5 * per)


X = torch.linspace(-3, 3, 24).unsqueeze(-1)
y = torch.where(torch.sin(2 * X.squeeze(-1)) + 0.3 * X.squeeze(-1) > 0, 1.0, -1.0)
print("labels", y.long().tolist())
K = periodic_plus_rbf(X, X) + 1e-8 * torch.eye(len(X))
print("K sym", torch.allclose(K, K.T), "psd", bool(torch.linalg.eigvalsh(K).min() > -1e-8))

f = torch.zeros(len(X))
t = (y + 1) / 2
for it in range(20):
    pi = torch.sigmoid(f)
    W = pi * (1 - pi)
    sW = W.sqrt()
    B = torch.eye(len(X)) + sW[:, None] * K * sW[None, :]
    L = torch.linalg.cholesky(B)
    grad = t - pi
    b = W * f + grad
    a = b - sW * torch.cholesky_solve((sW * (K @ b)).unsqueeze(-1), L).squeeze(-1)
    f_new = K @ a
    obj = -0.5 * (a * f_new).sum() + torch.nn.functional.logsigmoid(y * f_new).sum()
    delta = (f_new - f).abs().max()
    f = f_new
    if it % 3 == 0:
        print(f"newton {it}: objective {obj.item():.6f} max|df| {delta.item():.2e}")
    if delta < 1e-9:
        print("converged after", it + 1, "iterations")
        break

pi = torch.sigmoid(f)
W = pi * (1 - pi)
sW = W.sqrt()
L = torch.linalg.cholesky(torch.eye(len(X)) + sW[:, None] * K * sW[None, :])
log_z = -0.5 * (a * f).sum() + torch.nn.functional.logsigmoid(y * f).sum() - L.diagonal().log().sum()
print(f"approx log marginal likelihood {log_z.item():.6f}")
print("train accuracy", ((f > 0).double() * 2 - 1 == y).double().mean().item())

Xs = torch.tensor([[-2.8], [-1.0], [0.1], [0.4], [2.5]])
Ks = periodic_plus_rbf(X, Xs)
fs_mean = Ks.T @ (t - pi)
v = torch.linalg.solve_triangular(L, sW[:, None] * Ks, upper=False)
fs_var = periodic_plus_rbf(Xs, Xs).diagonal() - v.pow(2).sum(0)
kappa = 1.0 / torch.sqrt(1.0 + math.pi * fs_var / 8.0)
print("latent mean", fs_mean)
print("latent var ", fs_var)
print("p(y=1)     ", torch.sigmoid(kappa * fs_mean))
print("MAP p(y=1) ", torch.sigmoid(fs_mean))
print(torch.distributions.Bernoulli(logits=kappa * fs_mean).entropy())
