# Image registration by gradient descent (as in kornia / voxelmorph tutorials): learn the affine
# matrix that warps a moving image onto a fixed one through F.affine_grid + F.grid_sample,
# with Adam, printing the loss and theta; bilinear and bicubic sampling, both align_corners.
import math
import torch
import torch.nn.functional as F

H = W = 12
ys, xs = torch.meshgrid(torch.linspace(-1, 1, H), torch.linspace(-1, 1, W), indexing="ij")
dx, dy = xs - 0.2, ys + 0.1
fixed = (1 / (1 + (dx * dx + dy * dy) * 6)).view(1, 1, H, W)  # a smooth blob
angle = math.radians(12)
true_theta = torch.tensor([[[math.cos(angle), -math.sin(angle), 0.15],
                            [math.sin(angle), math.cos(angle), -0.1]]])
moving = F.grid_sample(fixed, F.affine_grid(true_theta, (1, 1, H, W), align_corners=False),
                       mode="bilinear", padding_mode="border", align_corners=False)
print(f"{(moving - fixed).abs().mean().item():.6f}")

for mode in ("bilinear", "bicubic"):
    for ac in (False, True):
        theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], requires_grad=True)
        opt = torch.optim.Adam([theta], lr=0.02)
        for step in range(25):
            grid = F.affine_grid(theta, (1, 1, H, W), align_corners=ac)
            warped = F.grid_sample(moving, grid, mode=mode, padding_mode="border",
                                   align_corners=ac)
            loss = F.mse_loss(warped, fixed)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 8 == 0:
                print(mode, ac, step, f"{loss.item():.6f}")
        print(" theta", [round(v, 4) for v in theta.detach().view(-1).tolist()])

torch.set_printoptions(precision=5)
theta = torch.tensor([[[0.9, -0.2, 0.1], [0.25, 1.05, -0.05]]], requires_grad=True)
grid = F.affine_grid(theta, (1, 1, 5, 6), align_corners=False)
out = F.grid_sample(moving[:, :, ::2, ::2], grid, mode="bicubic", padding_mode="zeros",
                    align_corners=False)
print(out[0, 0])
(out ** 2).sum().backward()
print(theta.grad)
torch.set_printoptions(profile="default")
