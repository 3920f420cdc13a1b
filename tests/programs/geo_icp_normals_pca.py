# Point-to-point ICP with nearest neighbours (cdist + argmin) and a closed-form SVD step, plus
# PCA normal estimation on kNN neighbourhoods with batched torch.linalg.eigh (smallest eigenvector)
# and curvature; prints the per-iteration RMSE and the recovered pose.
import math
import torch

torch.set_printoptions(precision=4, sci_mode=False)
dt = torch.float64

u = torch.linspace(0, 1, 8, dtype=dt)
gu, gv = torch.meshgrid(u, u, indexing="xy")
surface = torch.stack([gu, gv, 0.3 * torch.sin(3 * gu) * torch.cos(2 * gv)], -1).reshape(-1, 3)
print("surface", surface.shape)

a = 0.15
Rt = torch.tensor([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]], dtype=dt)
tt = torch.tensor([0.05, -0.03, 0.02], dtype=dt)
target = surface @ Rt.T + tt


def best_fit(A, B):
    ca, cb = A.mean(0), B.mean(0)
    H = (A - ca).T @ (B - cb)
    U, S, Vt = torch.linalg.svd(H)
    R = Vt.T @ U.T
    if torch.linalg.det(R) < 0:
        Vt[2, :] *= -1
        R = Vt.T @ U.T
    return R, cb - R @ ca


src = surface.clone()
R_total, t_total = torch.eye(3, dtype=dt), torch.zeros(3, dtype=dt)
prev = float("inf")
for it in range(20):
    d = torch.cdist(src, target)
    dist, idx = d.min(dim=1)
    rmse = dist.pow(2).mean().sqrt().item()
    if it % 4 == 0:
        print(f"iter {it:2d} rmse {rmse:.6f} unique matches {idx.unique().numel()}")
    if abs(prev - rmse) < 1e-10:
        print("converged at", it)
        break
    prev = rmse
    R, t = best_fit(src, target[idx])
    src = src @ R.T + t
    R_total, t_total = R @ R_total, R @ t_total + t
print("R\n", R_total)
print("t", t_total)
print("angle deg", round(math.degrees(math.acos((torch.trace(R_total).item() - 1) / 2)), 4))

# PCA normals from 6 nearest neighbours
k = 6
knn = torch.cdist(target, target).topk(k, largest=False).indices
nbhd = target[knn]
centered = nbhd - nbhd.mean(1, keepdim=True)
cov = centered.transpose(1, 2) @ centered / k
evals, evecs = torch.linalg.eigh(cov)
normals = evecs[..., 0]
normals = torch.where((normals[:, 2:3] < 0), -normals, normals)
print("eig shapes", evals.shape, evecs.shape)
print("normals\n", normals[:5])
curv = evals[:, 0] / evals.sum(-1)
print("curvature", curv[:8])
print("flat fraction", (curv < 1e-3).double().mean().item())
print("normals vs z", (normals @ torch.tensor([0.0, 0.0, 1.0], dtype=dt)).min().item() > 0.5)
