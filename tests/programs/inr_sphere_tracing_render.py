# Sphere tracing an analytic SDF (sphere union box, smooth-min) for a tiny camera grid:
# rays from meshgrid(indexing='xy'), masked march steps with torch.where, hit masks,
# normals from autograd.grad of the SDF at hit points, Lambert shading quantized to uint8.
import torch
import torch.nn.functional as F


def sdf_sphere(p, c, r):
    return (p - c).norm(dim=-1) - r


def sdf_box(p, b):
    q = p.abs() - b
    return q.clamp(min=0).norm(dim=-1) + q.max(dim=-1).values.clamp(max=0)


def smin(a, b, k=0.2):
    h = (0.5 + 0.5 * (b - a) / k).clamp(0, 1)
    return torch.lerp(b, a, h) - k * h * (1 - h)


def scene(p):
    return smin(sdf_sphere(p, torch.tensor([0.3, 0.0, 0.0]), 0.5), sdf_box(p - torch.tensor([-0.4, 0.1, 0.0]), torch.tensor([0.3, 0.3, 0.3])))


W, H = 8, 6
u = torch.linspace(-1, 1, W)
v = torch.linspace(0.75, -0.75, H)
uu, vv = torch.meshgrid(u, v, indexing="xy")
print("pixel grid", tuple(uu.shape))
origin = torch.tensor([0.0, 0.0, -2.5])
dirs = F.normalize(torch.stack([uu, vv, torch.full_like(uu, 1.5)], dim=-1), dim=-1).reshape(-1, 3)
t = torch.zeros(dirs.shape[0])
hit = torch.zeros(dirs.shape[0], dtype=torch.bool)
with torch.no_grad():
    for it in range(48):
        p = origin + t.unsqueeze(-1) * dirs
        d = scene(p)
        hit = hit | (d.abs() < 1e-3)
        t = torch.where(hit | (t > 6), t, t + d)
print("hits:", int(hit.sum()), "of", hit.numel(), "grad tracked:", t.requires_grad)
print("depth (hit rows):", t.view(H, W)[2].round(decimals=3))

p_hit = (origin + t[hit].unsqueeze(-1) * dirs[hit]).requires_grad_(True)
d = scene(p_hit)
(n,) = torch.autograd.grad(d, p_hit, grad_outputs=torch.ones_like(d))
n = F.normalize(n, dim=-1)
print("normal norms ~1:", torch.allclose(n.norm(dim=-1), torch.ones(n.shape[0]), atol=1e-4))
light = F.normalize(torch.tensor([0.5, 0.8, -0.6]), dim=0)
shade = (n @ light).clamp(min=0)
img = torch.zeros(H * W)
img[hit] = 0.1 + 0.9 * shade
img8 = (img.view(H, W) * 255).round().to(torch.uint8)
print(img8)
print("mean shade", f"{shade.mean().item():.4f}", "max", img8.max().item(), img8.dtype)
bins = torch.bucketize(img[hit], torch.tensor([0.25, 0.5, 0.75]))
print("shade histogram", torch.bincount(bins, minlength=4).tolist())
