# Bundle-adjustment-style least squares: Gauss-Newton on 2D pose + landmark residuals with
# torch.autograd.functional.jacobian and torch.linalg.lstsq / solve / cholesky, and the
# linear triangulation (DLT) of a point from two views via the SVD null vector.
import torch
from torch.autograd.functional import jacobian

torch.set_printoptions(precision=5, sci_mode=False)
dtype = torch.float64

# 2D robot pose (x, y, theta) observing known landmarks with range-bearing measurements
landmarks = torch.tensor([[2.0, 1.0], [0.0, 3.0], [-1.5, -1.0], [3.0, -2.0]], dtype=dtype)
true_pose = torch.tensor([0.4, -0.3, 0.6], dtype=dtype)


def measure(pose):
    d = landmarks - pose[:2]
    rng = d.norm(dim=-1)
    bearing = torch.atan2(d[:, 1], d[:, 0]) - pose[2]
    return torch.stack([rng, torch.atan2(torch.sin(bearing), torch.cos(bearing))], -1)


z = measure(true_pose) + 0.01 * torch.cos(torch.arange(8, dtype=dtype)).reshape(4, 2)
print("measurements\n", z)


def residual(pose):
    r = measure(pose) - z
    return torch.stack([r[:, 0], torch.atan2(torch.sin(r[:, 1]), torch.cos(r[:, 1]))], -1).reshape(-1)


pose = torch.zeros(3, dtype=dtype)
for it in range(6):
    r = residual(pose)
    J = jacobian(residual, pose)
    sol = torch.linalg.lstsq(J, -r.unsqueeze(-1))
    pose = pose + sol.solution.squeeze(-1)
    print(it, f"cost {0.5 * r.pow(2).sum().item():.8f}", "rank", sol.rank)
print("pose", pose)
print("lstsq fields", type(sol).__name__, sol.solution.shape, sol.residuals.shape, sol.singular_values.shape)
sol_gelsd = torch.linalg.lstsq(J, -r.unsqueeze(-1), driver="gelsd")
print("gelsd rank", sol_gelsd.rank.item(), sol_gelsd.singular_values)

# normal equations + Cholesky gives the same step; covariance of the estimate
JtJ = J.T @ J
L = torch.linalg.cholesky(JtJ)
step = torch.cholesky_solve(-(J.T @ r).unsqueeze(-1), L)
print("chol step ok", torch.allclose(step, sol.solution, atol=1e-10))
cov = torch.cholesky_inverse(L)
print("std", cov.diagonal().sqrt())
print("solve ok", torch.allclose(torch.linalg.solve(JtJ, -(J.T @ r)), step.squeeze(-1), atol=1e-10))

# Levenberg-Marquardt with autograd gradient and damping schedule
pose = torch.tensor([1.0, 1.0, -0.5], dtype=dtype)
lam = 1e-2
for it in range(8):
    r = residual(pose)
    J = jacobian(residual, pose)
    H = J.T @ J + lam * torch.diag(torch.diagonal(J.T @ J))
    delta = torch.linalg.solve(H, -J.T @ r)
    new_cost = residual(pose + delta).pow(2).sum()
    if new_cost < r.pow(2).sum() - 1e-12:
        pose, lam = pose + delta, lam / 10
    else:
        lam = lam * 10
    print(it, f"{new_cost.item():.8f}", f"lam={lam:.0e}")
print("LM pose", pose)

# DLT triangulation from two projection matrices
P1 = torch.tensor([[1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0]], dtype=dtype)
P2 = torch.tensor([[1.0, 0, 0, -1.0], [0, 1.0, 0, 0], [0, 0, 1.0, 0]], dtype=dtype)
Xw = torch.tensor([0.3, -0.2, 4.0, 1.0], dtype=dtype)
x1, x2 = P1 @ Xw, P2 @ Xw
x1, x2 = x1 / x1[2], x2 / x2[2]
A = torch.stack([x1[0] * P1[2] - P1[0], x1[1] * P1[2] - P1[1], x2[0] * P2[2] - P2[0], x2[1] * P2[2] - P2[1]])
_, S, Vh = torch.linalg.svd(A)
X = Vh[-1]
print("triangulated", X[:3] / X[3], "smallest sv", f"{S[-1].item():.2e}" if S[-1] > 1e-12 else "~0")
