# 3-D data augmentation for medical volumes (MONAI-style, written by hand): a rotation about
# the depth axis plus scaling through F.affine_grid (N, 3, 4) and F.grid_sample on a 5-D
# tensor, trilinear resizing, and the gradients with respect to the affine matrix.
import math
import torch
import torch.nn.functional as F

vol = ((torch.arange(1 * 2 * 4 * 5 * 6, dtype=torch.float32).view(1, 2, 4, 5, 6) * 5) % 23) / 22


def rotation_z(deg, scale=1.0, shift=(0.0, 0.0, 0.0)):
    a = math.radians(deg)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    return torch.tensor([[[c, -s, 0.0, shift[0]],
                          [s, c, 0.0, shift[1]],
                          [0.0, 0.0, scale, shift[2]]]])


torch.set_printoptions(precision=5)
for deg in (0, 15, 90):
    theta = rotation_z(deg, 0.95, (0.05, -0.1, 0.0))
    for ac in (False, True):
        grid = F.affine_grid(theta, (1, 2, 3, 4, 5), align_corners=ac)
        print(deg, ac, grid.shape, grid[0, 1, 2, 3])
        for mode in ("bilinear", "nearest"):
            for pad in ("zeros", "border", "reflection"):
                out = F.grid_sample(vol, grid, mode=mode, padding_mode=pad, align_corners=ac)
                print(f"  {mode:8s} {pad:10s}", f"{out.sum().item():.4f}", out[0, 1, 1, 2])

theta = rotation_z(20, 1.1).requires_grad_(True)
grid = F.affine_grid(theta, (1, 2, 3, 4, 5), align_corners=False)
out = F.grid_sample(vol, grid, mode="bilinear", padding_mode="border", align_corners=False)
(out * out).mean().backward()
print("theta.grad", theta.grad)
v = vol.clone().requires_grad_(True)
F.grid_sample(v, grid.detach(), align_corners=False).sum().backward()
print(v.grad[0, 0, 1])

# trilinear resize to the network's input size and back
small = F.interpolate(vol, size=(3, 4, 4), mode="trilinear", align_corners=False)
back = F.interpolate(small, size=vol.shape[2:], mode="trilinear", align_corners=True)
print(small[0, 0, 1], back[0, 1, 2])
print(F.interpolate(vol, scale_factor=0.5, mode="nearest").shape)
torch.set_printoptions(profile="default")
