# Kernel ridge regression as in scikit-learn-free research code: Gaussian / Laplacian kernels with
# torch.cdist, dual coefficients via torch.linalg.solve, closed-form leave-one-out CV error over a
# lambda grid using the hat matrix, and eigendecomposition (eigh) for fast multiple-lambda solves.
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=5, sci_mode=False)


def gaussian_kernel(A, B, gamma):
    return torch.exp(-gamma * torch.cdist(A, B, p=2) ** 2)


def laplacian_kernel(A, B, gamma):
    return torch.exp(-gamma * torch.cdist(A, B, p=1))


class KernelRidge:
    def __init__(self, alpha=1.0, kernel=gaussian_kernel, gamma=1.0):
        self.alpha, self.kernel, self.gamma = alpha, kernel, gamma

    def fit(self, X, y):
        self.X_fit = X
        K = self.kernel(X, X, self.gamma)
        self.dual_coef_ = torch.linalg.solve(K + self.alpha * torch.eye(len(X)), y)
        return self

    def predict(self, X):
        return self.kernel(X, self.X_fit, self.gamma) @ self.dual_coef_


t = torch.linspace(0, 1, 30)
X = torch.stack([t, torch.sin(4 * t)], dim=1)
y = torch.cos(3 * X[:, 0]) + X[:, 1] ** 2 + 0.05 * torch.sin(37 * t)
Xt = torch.stack([torch.linspace(0.05, 0.95, 5), torch.sin(4 * torch.linspace(0.05, 0.95, 5))], 1)

for kern in (gaussian_kernel, laplacian_kernel):
    model = KernelRidge(alpha=1e-2, kernel=kern, gamma=2.0).fit(X, y)
    print(kern.__name__, model.dual_coef_.shape, model.predict(Xt))

# LOO-CV: e_i = (y_i - yhat_i) / (1 - H_ii) with H = K (K + lam I)^-1, via one eigh of K
K = gaussian_kernel(X, X, 2.0)
evals, evecs = torch.linalg.eigh(K)
print("eig >1e-8 / max", (evals > 1e-8).sum().item(), f"{evals.max().item():.4f}", evecs.shape)
Uty = evecs.T @ y
for lam in [1e-4, 1e-3, 1e-2, 1e-1, 1.0]:
    shrink = evals / (evals + lam)
    H_diag = (evecs ** 2 * shrink).sum(1)
    y_hat = evecs @ (shrink * Uty)
    loo = ((y - y_hat) / (1 - H_diag)).pow(2).mean()
    print(f"lambda={lam:g} loo_mse={loo.item():.6f} dof={shrink.sum().item():.3f}")

# check against the direct LOO for one lambda
lam = 1e-2
errs = []
for i in range(len(X)):
    mask = torch.arange(len(X)) != i
    m = KernelRidge(alpha=lam, gamma=2.0).fit(X[mask], y[mask])
    errs.append((m.predict(X[i:i + 1]) - y[i]).item())
print("direct loo", f"{torch.tensor(errs).pow(2).mean().item():.6f}")

# multi-output targets and the primal/dual equivalence for a linear kernel
Y = torch.stack([y, y.flip(0)], 1)
W_dual = X.T @ torch.linalg.solve(X @ X.T + 0.1 * torch.eye(30), Y)
W_primal = torch.linalg.solve(X.T @ X + 0.1 * torch.eye(2), X.T @ Y)
print(W_dual, torch.allclose(W_dual, W_primal))
print(torch.linalg.lstsq(X, Y).solution)
