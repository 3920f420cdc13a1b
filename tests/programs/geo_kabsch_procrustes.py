# Kabsch / orthogonal Procrustes alignment of point clouds with torch.linalg.svd and the
# reflection fix (det sign), batched, with weights; gradients flow through the SVD into
# the source points (as in differentiable registration layers).
import torch

torch.set_printoptions(precision=4, sci_mode=False)


def kabsch(P, Q, weights=None):
    """Find R, t minimizing sum w_i |R p_i + t - q_i|^2 for batched (B, N, 3) clouds."""
    if weights is None:
        weights = torch.ones(P.shape[:-1], dtype=P.dtype)
    w = (weights / weights.sum(-1, keepdim=True)).unsqueeze(-1)
    p_mean = (w * P).sum(-2, keepdim=True)
    q_mean = (w * Q).sum(-2, keepdim=True)
    Pc, Qc = P - p_mean, Q - q_mean
    H = (w * Pc).transpose(-1, -2) @ Qc
    U, S, Vh = torch.linalg.svd(H)
    d = torch.sign(torch.linalg.det(Vh.transpose(-1, -2) @ U.transpose(-1, -2)))
    D = torch.diag_embed(torch.stack([torch.ones_like(d), torch.ones_like(d), d], -1))
    R = Vh.transpose(-1, -2) @ D @ U.transpose(-1, -2)
    t = q_mean.squeeze(-2) - (R @ p_mean.transpose(-1, -2)).squeeze(-1)
    return R, t, S


def rot_z(a):
    c, s = torch.cos(a), torch.sin(a)
    z, o = torch.zeros_like(a), torch.ones_like(a)
    return torch.stack([torch.stack([c, -s, z], -1), torch.stack([s, c, z], -1), torch.stack([z, z, o], -1)], -2)


def rot_x(a):
    c, s = torch.cos(a), torch.sin(a)
    z, o = torch.zeros_like(a), torch.ones_like(a)
    return torch.stack([torch.stack([o, z, z], -1), torch.stack([z, c, -s], -1), torch.stack([z, s, c], -1)], -2)


i = torch.arange(8, dtype=torch.float64)
P0 = torch.stack([torch.cos(i * 0.9), torch.sin(i * 1.3), 0.3 * i - 1.0], -1)
angles = torch.tensor([0.3, -1.1, 2.0], dtype=torch.float64)
R_true = rot_z(angles) @ rot_x(angles / 2)
t_true = torch.tensor([[0.5, -0.2, 1.0], [0.0, 0.0, 0.0], [-1.0, 2.0, 0.3]], dtype=torch.float64)
P = P0.expand(3, 8, 3)
Q = P @ R_true.transpose(-1, -2) + t_true.unsqueeze(1)

R, t, S = kabsch(P, Q)
print("singular values", S)
print("rot err", (R - R_true).abs().amax(dim=(-1, -2)))
print("trans", t[[0, 2]], "zero-shift ok", t[1].norm().item() < 1e-10)
print("det", torch.linalg.det(R))
rmsd = ((P @ R.transpose(-1, -2) + t.unsqueeze(1) - Q).norm(dim=-1) ** 2).mean(-1).sqrt()
print("rmsd < 1e-10", (rmsd < 1e-10).tolist())

# reflection case: target is a mirrored cloud, det fix keeps a proper rotation
mirror = torch.diag(torch.tensor([1.0, 1.0, -1.0], dtype=torch.float64))
Qm = (P0 @ mirror).unsqueeze(0)
Rm, tm, Sm = kabsch(P0.unsqueeze(0), Qm)
print("mirror det", f"{torch.linalg.det(Rm).item():.6f}")
print("naive det", torch.linalg.det(torch.linalg.svd(P0.T @ P0).U).abs().round().item())

# weighted version with noisy outlier down-weighted
Qn = Q[0].clone()
Qn[3] += torch.tensor([2.0, -2.0, 1.0], dtype=torch.float64)
wts = torch.ones(8, dtype=torch.float64)
wts[3] = 1e-6
Rw, tw, _ = kabsch(P[0], Qn, wts)
print("weighted rot err", f"{(Rw - R_true[0]).abs().max().item():.3e}" if (Rw - R_true[0]).abs().max().item() > 1e-4 else "small")
Ru, tu, _ = kabsch(P[0], Qn)
print("unweighted rot err", f"{(Ru - R_true[0]).abs().max().item():.4f}")

# differentiate the alignment residual w.r.t. the source points
Pv = (P0 + 0.01 * torch.cos(7 * P0)).clone().requires_grad_(True)
Rg, tg, Sg = kabsch(Pv.unsqueeze(0), Q[:1])
res = ((Pv @ Rg[0].T + tg[0] - Q[0]) ** 2).sum()
res.backward()
print(f"residual {res.item():.6f}")
print("grad norm", f"{Pv.grad.norm().item():.6f}")
print(Pv.grad[:3])
print("R grad_fn", type(Rg.grad_fn).__name__)
