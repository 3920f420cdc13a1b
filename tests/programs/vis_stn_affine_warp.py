# Spatial-transformer style warping: F.affine_grid from a batch of theta matrices (identity,
# translation, rotation, zoom), F.grid_sample in bilinear/nearest/bicubic with zeros/border/
# reflection padding, align_corners True/False, gradients flowing back to theta, and the
# errors users hit with wrong theta / grid shapes.
import math
import torch
import torch.nn.functional as F

img = torch.arange(2 * 1 * 5 * 6, dtype=torch.float32).view(2, 1, 5, 6) / 10
ang = math.pi / 6
theta = torch.tensor([
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    [[math.cos(ang), -math.sin(ang), 0.25], [math.sin(ang), math.cos(ang), -0.1]],
])
for ac in (False, True):
    grid = F.affine_grid(theta, img.size(), align_corners=ac)
    print(ac, grid.shape, grid[0, 0, :3])
    for mode in ("bilinear", "nearest", "bicubic"):
        for pad in ("zeros", "border", "reflection"):
            out = F.grid_sample(img, grid, mode=mode, padding_mode=pad, align_corners=ac)
            print(mode, pad, f"{out[1].sum().item():.4f}", out[1, 0, 2].tolist() if mode == "nearest" else "")

print(torch.allclose(F.grid_sample(img, F.affine_grid(theta[:1].expand(2, 2, 3), img.size(), align_corners=False),
                                   align_corners=False), img, atol=1e-5))

# zoom out by 2: samples beyond the border
zoom = torch.tensor([[[2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]])
g = F.affine_grid(zoom, (1, 1, 4, 4), align_corners=False)
print(F.grid_sample(img[:1, :, :4, :4], g, align_corners=False, padding_mode="border"))

# gradient to theta (the STN localisation net learns these)
t = theta.clone().requires_grad_(True)
g = F.affine_grid(t, (2, 1, 4, 4), align_corners=False)
out = F.grid_sample(img, g, align_corners=False)
out.pow(2).mean().backward()
print(t.grad)

x = img.clone().requires_grad_(True)
F.grid_sample(x, g.detach(), mode="bilinear", padding_mode="border", align_corners=True).sum().backward()
print(x.grad[1, 0])

# custom grid: sample along a diagonal, output (N, C, 1, K)
lin = torch.linspace(-1, 1, 5)
diag = torch.stack([lin, lin], dim=-1).view(1, 1, 5, 2).expand(2, 1, 5, 2)
print(F.grid_sample(img, diag, align_corners=True))

# 2-D grid sample on a 1xN grid of doubles
print(F.grid_sample(img.double(), diag.double(), align_corners=False).dtype)

for bad in [lambda: F.affine_grid(torch.zeros(2, 3, 3), (2, 1, 4, 4), align_corners=False),
            lambda: F.affine_grid(torch.zeros(2, 2, 3), (3, 1, 4, 4), align_corners=False),
            lambda: F.grid_sample(img, torch.zeros(2, 4, 4, 3), align_corners=False),
            lambda: F.grid_sample(img, torch.zeros(1, 4, 4, 2), align_corners=False),
            lambda: F.grid_sample(img, diag, mode="area", align_corners=False),
            lambda: F.grid_sample(img, diag, padding_mode="wrap", align_corners=False)]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
