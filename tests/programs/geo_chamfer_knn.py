# Point-cloud losses: Chamfer distance with torch.cdist + min, kNN graph with topk(largest=False),
# one-sided Hausdorff, and a tiny deformation optimized to reduce the Chamfer loss.
import torch

torch.set_printoptions(precision=4, sci_mode=False)


def sphere_points(n, r=1.0, phase=0.0):
    k = torch.arange(n, dtype=torch.float32) + 0.5
    phi = torch.acos(1 - 2 * k / n)
    theta = torch.pi * (1 + 5 ** 0.5) * k + phase
    return r * torch.stack([torch.cos(theta) * torch.sin(phi), torch.sin(theta) * torch.sin(phi), torch.cos(phi)], -1)


def chamfer(x, y):
    d = torch.cdist(x, y) ** 2
    d_xy, idx_xy = d.min(dim=-1)
    d_yx, idx_yx = d.min(dim=-2)
    return d_xy.mean(-1) + d_yx.mean(-1), idx_xy, idx_yx


src = sphere_points(32, 0.8, 0.3).unsqueeze(0)
tgt = sphere_points(40).unsqueeze(0)
src2 = torch.cat([src, src * 1.1], 0)
tgt2 = torch.cat([tgt, tgt], 0)

loss, ixy, iyx = chamfer(src2, tgt2)
print("chamfer", loss)
print("nn idx", ixy[0, :10], iyx[1, :10])
print("cdist shape", torch.cdist(src2, tgt2).shape)
D = torch.cdist(src[0], tgt[0], p=2)
D1 = torch.cdist(src[0], tgt[0], p=1)
print("p2 vs manual", torch.allclose(D, (src[0, :, None] - tgt[0, None]).norm(dim=-1), atol=1e-5))
print("p1 row", D1[0, :5])
print("hausdorff", D.min(1).values.max().item().__round__(4), D.min(0).values.max().item().__round__(4))

# kNN graph within the target cloud (exclude self)
k = 4
dself = torch.cdist(tgt[0], tgt[0])
vals, nbrs = dself.topk(k + 1, dim=-1, largest=False)
print("knn idx\n", nbrs[:5, 1:])
print("knn dists\n", vals[:5, 1:])
edge_index = torch.stack([torch.arange(40).repeat_interleave(k), nbrs[:, 1:].reshape(-1)])
print("edges", edge_index.shape, edge_index[:, :8])
rows = edge_index[0]
deg = torch.bincount(edge_index[1], minlength=40)
print("in-degree", deg[:12], deg.sum().item())
local_mean = tgt[0][nbrs[:, 1:]].mean(1)
print("laplacian norm", (tgt[0] - local_mean).norm(dim=-1)[:6])

# optimize a per-point offset to fit the target cloud
offset = torch.zeros_like(src, requires_grad=True)
opt = torch.optim.Adam([offset], lr=0.05)
for step in range(25):
    opt.zero_grad()
    l, _, _ = chamfer(src + offset, tgt)
    l = l.mean()
    l.backward()
    opt.step()
    if step % 6 == 0:
        print(step, f"{l.item():.5f}")
final, _, _ = chamfer(src + offset.detach(), tgt)
print("decreased", final.item() < loss[0].item(), "offset grad shape", offset.grad.shape)

# gradient of chamfer wrt points in double precision
a = sphere_points(6, 0.9).double().requires_grad_(True)
b = sphere_points(7).double()
c = torch.cdist(a, b).pow(2)
(c.min(1).values.sum() + c.min(0).values.sum()).backward()
print(a.grad)
