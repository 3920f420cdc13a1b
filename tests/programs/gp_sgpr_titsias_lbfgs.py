# Sparse GP regression (Titsias 2009 collapsed variational bound, SGPR) with learnable inducing
# inputs: Kuu cholesky with jitter, A = L^-1 Kuf / sigma, B = I + A A^T, the ELBO with trace term,
# optimised with LBFGS (strong Wolfe) over softplus-constrained hyperparameters and inducing points.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)


class SGPR(nn.Module):
    def __init__(self, X, y, num_inducing=6):
        super().__init__()
        self.X, self.y = X, y
        self.Z = nn.Parameter(torch.linspace(-2.5, 2.5, num_inducing).unsqueeze(-1))
        self.raw_ls = nn.Parameter(torch.tensor(0.5))
        self.raw_var = nn.Parameter(torch.tensor(0.5))
        self.raw_noise = nn.Parameter(torch.tensor(-2.0))

    def kern(self, a, b):
        ls, var = F.softplus(self.raw_ls), F.softplus(self.raw_var)
        return var * torch.exp(-0.5 * torch.cdist(a, b).pow(2) / ls ** 2)

    def elbo(self):
        n, m = self.X.shape[0], self.Z.shape[0]
        sigma2 = F.softplus(self.raw_noise) + 1e-6
        Kuu = self.kern(self.Z, self.Z) + 1e-6 * torch.eye(m)
        Kuf = self.kern(self.Z, self.X)
        L = torch.linalg.cholesky(Kuu)
        A = torch.linalg.solve_triangular(L, Kuf, upper=False) / sigma2.sqrt()
        B = torch.eye(m) + A @ A.T
        LB = torch.linalg.cholesky(B)
        c = torch.linalg.solve_triangular(LB, A @ self.y.unsqueeze(-1), upper=False) / sigma2.sqrt()
        kff_diag = F.softplus(self.raw_var) * torch.ones(n)
        bound = -0.5 * n * math.log(2 * math.pi) - LB.diagonal().log().sum() - 0.5 * n * sigma2.log()
        bound = bound - 0.5 * self.y.pow(2).sum() / sigma2 + 0.5 * c.pow(2).sum()
        bound = bound - 0.5 * kff_diag.sum() / sigma2 + 0.5 * A.pow(2).sum()
        return bound


X = torch.linspace(-3, 3, 50).unsqueeze(-1)
y = torch.sin(2 * X).squeeze(-1) * torch.exp(-0.1 * X.squeeze(-1) ** 2) + 0.05 * torch.cos(17 * X).squeeze(-1)
model = SGPR(X, y)
print(model)
print(f"initial elbo {model.elbo().item():.5f}")

opt = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=15, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = -model.elbo()
    loss.backward()
    return loss


for outer in range(3):
    loss = opt.step(closure)
    print(f"outer {outer}: loss before step {loss.item():.5f}, after {-model.elbo().item():.5f}")

with torch.no_grad():
    print("lengthscale", round(F.softplus(model.raw_ls).item(), 3),
          "noise", round(F.softplus(model.raw_noise).item(), 4))
    print("Z sorted", model.Z.squeeze(-1).sort().values)
print("grad Z shape", model.Z.grad.shape, "state n_iter", opt.state[next(iter(model.parameters()))]["n_iter"])
