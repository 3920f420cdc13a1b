# Random Fourier features (Rahimi & Recht) with deterministic frequencies: approximate an RBF kernel
# by z(x) = sqrt(2/D) cos(W x + b), compare with the exact kernel, then Bayesian linear regression
# in feature space (posterior via cholesky), and a learnable-lengthscale RFF model trained with Adam.
import math
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4)

D, d = 64, 2
# quasi-random "random" frequencies: Gaussian quantiles of a fixed grid, fixed phases
u = (torch.arange(D * d, dtype=torch.float64).reshape(D, d) * 0.618034 + 0.5 * torch.arange(d)) % 1.0
W = math.sqrt(2.0) * torch.erfinv(2 * u.clamp(0.01, 0.99) - 1)
b = 2 * math.pi * (torch.arange(D) * 0.754877666) % (2 * math.pi)
print(W.shape, b.shape, f"{W.mean().item():.4f}", f"{W.std().item():.4f}")


def features(X, lengthscale=1.0):
    return math.sqrt(2.0 / D) * torch.cos(X @ W.T / lengthscale + b)


x = torch.stack([torch.linspace(-1, 1, 8), torch.linspace(0, 0.5, 8) ** 2], 1)
Z = features(x)
K_approx = Z @ Z.T
K_exact = torch.exp(-0.5 * torch.cdist(x, x) ** 2)
print("K_exact row0", K_exact[0])
print("K_approx row0", K_approx[0])
print(f"max abs err {(K_approx - K_exact).abs().max().item():.4f}")

# Bayesian linear regression on features
X = torch.stack([torch.linspace(-2, 2, 40), torch.sin(torch.linspace(0, 6, 40))], 1)
y = torch.sin(X[:, 0]) + 0.5 * X[:, 1]
Phi = features(X)
noise, prior = 0.01, 1.0
A = Phi.T @ Phi / noise + torch.eye(D) / prior
LA = torch.linalg.cholesky(A)
w_mean = torch.cholesky_solve((Phi.T @ y / noise).unsqueeze(1), LA).squeeze(1)
Xs = X[::8]
Phis = features(Xs)
pred_mean = Phis @ w_mean
pred_var = noise + (torch.linalg.solve_triangular(LA, Phis.T, upper=False) ** 2).sum(0)
print("pred", pred_mean)
print("true", y[::8])
print("var ", pred_var)
print("logdet A", f"{torch.logdet(A).item():.4f}", f"{2 * LA.diagonal().log().sum().item():.4f}")


class RFFRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_ls = nn.Parameter(torch.tensor(0.0))
        self.head = nn.Linear(D, 1)
        with torch.no_grad():
            self.head.weight.copy_(torch.linspace(-0.1, 0.1, D).unsqueeze(0))
            self.head.bias.zero_()

    def forward(self, X):
        return self.head(features(X, self.log_ls.exp())).squeeze(-1)


model = RFFRegressor()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(30):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    if step % 6 == 0:
        print(f"step {step} loss {loss.item():.5f} ls {model.log_ls.exp().item():.4f}")
print(model)
