# Spatial transformer network (Jaderberg et al.) as in the PyTorch STN tutorial: a localisation
# head predicts theta, F.affine_grid + F.grid_sample warp the image; gradients flow to theta.
# Weights are set deterministically; every sampling mode and padding mode is exercised.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class STN(nn.Module):
    def __init__(self, mode="bilinear", padding_mode="zeros"):
        super().__init__()
        self.loc = nn.Sequential(nn.Conv2d(1, 4, 3), nn.MaxPool2d(2), nn.ReLU(),
                                 nn.Flatten(), nn.Linear(4 * 3 * 3, 6))
        self.mode, self.padding_mode = mode, padding_mode
        with torch.no_grad():
            for k, p in enumerate(self.parameters()):
                n = p.numel()
                p.copy_(((torch.arange(n, dtype=torch.float32) * (k + 3)) % 11 - 5).view_as(p) / 50)
            self.loc[-1].weight.mul_(0.1)
            self.loc[-1].bias.copy_(torch.tensor([1.0, 0.0, 0.0, 0.0, 1.0, 0.0]))

    def forward(self, x):
        theta = self.loc(x).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, mode=self.mode, padding_mode=self.padding_mode,
                             align_corners=False), theta


x = ((torch.arange(2 * 8 * 8, dtype=torch.float32).view(2, 1, 8, 8) * 7) % 13) / 13
torch.set_printoptions(precision=4)
for mode in ("bilinear", "nearest", "bicubic"):
    for padding in ("zeros", "border", "reflection"):
        stn = STN(mode, padding)
        out, theta = stn(x)
        loss = (out ** 2).mean()
        loss.backward()
        g = stn.loc[-1].bias.grad
        print(mode, padding, f"loss={loss.item():.6f}", "bias grad", g)
print(theta)

# a fixed rotation + scale, as in augmentation code
angle = math.radians(30)
theta = torch.tensor([[[math.cos(angle) * 0.9, -math.sin(angle) * 0.9, 0.1],
                       [math.sin(angle) * 0.9, math.cos(angle) * 0.9, -0.05]]], requires_grad=True)
img = (torch.arange(36, dtype=torch.float32).view(1, 1, 6, 6) % 5) / 4
for ac in (False, True):
    grid = F.affine_grid(theta, (1, 1, 5, 5), align_corners=ac)
    torch.set_printoptions(precision=6)
    print("grid row 0", grid[0, 0])
    warped = F.grid_sample(img, grid, align_corners=ac)
    print(warped[0, 0])
    warped.sum().backward()
    print("theta grad", theta.grad)
    theta.grad = None
torch.set_printoptions(profile="default")
