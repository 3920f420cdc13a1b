# GPyTorch-style matrix-free GP inference written by hand: batched conjugate gradients for
# K^-1 y and K^-1 z_i with deterministic Rademacher probes, a rank-k pivoted Cholesky
# preconditioner, and stochastic Lanczos quadrature (tridiagonal eigh) for log|K|.
import math
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)

n = 80
x = torch.linspace(-4, 4, n).unsqueeze(-1)
K = 1.5 * torch.exp(-0.5 * torch.cdist(x, x).pow(2) / 0.8 ** 2) + 0.1 * torch.eye(n)
y = torch.sin(1.3 * x).squeeze(-1)


def pivoted_cholesky(A, rank):
    d = A.diagonal().clone()
    L = torch.zeros(rank, A.shape[0])
    pivots = []
    for m in range(rank):
        i = int(torch.argmax(d))
        pivots.append(i)
        row = (A[i] - L[:m, i] @ L[:m]) / d[i].sqrt()
        L[m] = row
        d = d - row ** 2
    return L.T, pivots, d.sum()


def pcg(matmul, B, precond, max_iter=100, tol=1e-10):
    X = torch.zeros_like(B)
    R = B - matmul(X)
    Z = precond(R)
    P = Z.clone()
    rz = (R * Z).sum(0)
    alphas, betas = [], []
    for it in range(max_iter):
        AP = matmul(P)
        alpha = rz / (P * AP).sum(0)
        X = X + alpha * P
        R = R - alpha * AP
        alphas.append(alpha)
        if R.norm(dim=0).max() < tol:
            break
        Z = precond(R)
        rz_new = (R * Z).sum(0)
        beta = rz_new / rz
        betas.append(beta)
        P = Z + beta * P
        rz = rz_new
    return X, torch.stack(alphas), torch.stack(betas), it + 1


Lk, piv, resid = pivoted_cholesky(K, 10)
print("pivots", piv, f"trace residual {resid.item():.4e}")
sigma2 = 0.1
inner = torch.linalg.cholesky(torch.eye(10) + Lk.T @ Lk / sigma2)


def precond(R):  # (sigma2 I + Lk Lk^T)^-1 R via Woodbury
    t = torch.cholesky_solve(Lk.T @ R, inner)
    return (R - Lk @ t / sigma2) / sigma2


num_probes = 6  # fixed +-1 probes (real code draws them at random; these oscillate, so SLQ is biased)
Z = torch.sign(torch.sin(torch.arange(n * num_probes, dtype=torch.float64).reshape(n, num_probes) * 1.7 + 0.3))
print("probe means", Z.mean(0))
B = torch.cat([y.unsqueeze(-1), Z], dim=1)
X_plain, a0, b0, it_plain = pcg(lambda v: K @ v, B, lambda r: r)
X_pre, a1, b1, it_pre = pcg(lambda v: K @ v, B, precond)
print("iterations plain", it_plain, "preconditioned", it_pre)
exact = torch.linalg.solve(K, y)
print("solve error < 1e-10", (X_pre[:, 0] - exact).abs().max().item() < 1e-10)


def lanczos_logdet(alphas, betas, probes):
    # Lanczos tridiagonal from plain CG coefficients (one per probe), Gauss quadrature of log
    est = []
    for j in range(probes.shape[1]):
        a, b = alphas[:, j], betas[:, j]
        k = len(a)
        diag = 1 / a
        diag[1:] = diag[1:] + b[: k - 1] / a[:-1]
        off = b[: k - 1].sqrt() / a[:-1]
        T = torch.diag(diag) + torch.diag(off, 1) + torch.diag(off, -1)
        evals, evecs = torch.linalg.eigh(T)
        est.append(probes[:, j].pow(2).sum() * (evecs[0] ** 2 * evals.log()).sum())
    return torch.stack(est)


_, a15, b15, _ = pcg(lambda v: K @ v, Z, lambda r: r, max_iter=15)  # 15 Lanczos steps
slq = lanczos_logdet(a15, b15, Z)
print("SLQ estimates", slq)
print(f"SLQ mean {slq.mean().item():.3f}  exact {torch.logdet(K).item():.3f}  "
      f"cholesky {2 * torch.linalg.cholesky(K).diagonal().log().sum().item():.3f}")
mll = -0.5 * y @ X_pre[:, 0] - 0.5 * slq.mean() - 0.5 * n * math.log(2 * math.pi)
print(f"approx mll {mll.item():.3f}")
