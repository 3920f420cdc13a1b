# Nystrom approximation of an RBF Gram matrix with fixed landmark points (every k-th input),
# K ~ K_nm K_mm^-1 K_mn built with a jittered cholesky, approximate GP / kernel ridge solve via the
# Woodbury identity, and comparison with the exact solve and the eigenvalues of the approximation.
import torch

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4, sci_mode=False)


def rbf(a, b, ls=0.5):
    return torch.exp(-0.5 * torch.cdist(a, b).square() / ls ** 2)


n, m = 60, 10
x = torch.linspace(-3, 3, n).unsqueeze(-1)
y = torch.sin(2 * x).squeeze(-1) + 0.1 * torch.cos(9 * x).squeeze(-1)
landmarks = x[:: n // m]
print("landmarks", landmarks.shape, landmarks.squeeze()[:4])

K_mm = rbf(landmarks, landmarks) + 1e-6 * torch.eye(m)
K_nm = rbf(x, landmarks)
L_mm = torch.linalg.cholesky(K_mm)
# Phi Phi^T = K_nm K_mm^-1 K_mn with Phi = K_nm L_mm^-T
Phi = torch.linalg.solve_triangular(L_mm, K_nm.T, upper=False).T
print("Phi", Phi.shape)
K_ny = Phi @ Phi.T
K = rbf(x, x)
print(f"rel. frobenius error {(torch.linalg.matrix_norm(K - K_ny) / torch.linalg.matrix_norm(K)).item():.2e}")
print("diag residual max", f"{(K.diagonal() - K_ny.diagonal()).max().item():.2e}")

ev_exact = torch.linalg.eigvalsh(K).flip(0)[:5]
ev_ny = torch.linalg.eigvalsh(Phi.T @ Phi).flip(0)[:5]
print("top eig exact  ", ev_exact)
print("top eig nystrom", ev_ny)

# Woodbury: (sigma2 I + Phi Phi^T)^-1 y = (y - Phi (sigma2 I_m + Phi^T Phi)^-1 Phi^T y) / sigma2
sigma2 = 0.05
inner = sigma2 * torch.eye(m) + Phi.T @ Phi
L_in = torch.linalg.cholesky(inner)
alpha_ny = (y - Phi @ torch.cholesky_solve((Phi.T @ y).unsqueeze(-1), L_in).squeeze(-1)) / sigma2
alpha_ex = torch.linalg.solve(K + sigma2 * torch.eye(n), y)
alpha_dense = torch.linalg.solve(K_ny + sigma2 * torch.eye(n), y)
print("woodbury == dense nystrom", torch.allclose(alpha_ny, alpha_dense, atol=1e-6))
fit_ny, fit_ex = K @ alpha_ny, K @ alpha_ex
print("fit rmse nystrom", f"{(fit_ny - y).pow(2).mean().sqrt().item():.4f}",
      "exact", f"{(fit_ex - y).pow(2).mean().sqrt().item():.4f}")

# log determinant via the matrix determinant lemma
logdet_ny = torch.logdet(inner) - m * torch.log(torch.tensor(sigma2)) + n * torch.log(torch.tensor(sigma2))
sign, logdet_dense = torch.linalg.slogdet(K_ny + sigma2 * torch.eye(n))
print(f"logdet lemma {logdet_ny.item():.4f} dense {logdet_dense.item():.4f} sign {sign.item()}")

# predictions at new points through the feature map
xs = torch.tensor([[-2.5], [0.0], [1.3]])
phi_s = torch.linalg.solve_triangular(L_mm, rbf(landmarks, xs), upper=False).T
w = torch.cholesky_solve((Phi.T @ y).unsqueeze(-1), L_in).squeeze(-1)
print("pred", phi_s @ w, "truth", torch.sin(2 * xs).squeeze(-1))
print(torch.linalg.solve_triangular(L_mm, rbf(landmarks, xs), upper=False, left=True).shape)
print(torch.linalg.solve_triangular(L_mm.T, rbf(xs, landmarks), upper=True, left=False).shape)
