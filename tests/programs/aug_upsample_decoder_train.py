# A tiny segmentation decoder (FPN/U-Net style) upsampling with nn.Upsample in several modes,
# trained for a few SGD steps on a fixed target; prints the module reprs, losses, output
# snippets at precision 6 and the gradient of the input through each upsampling mode.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Decoder(nn.Module):
    def __init__(self, mode, align_corners=None):
        super().__init__()
        self.reduce = nn.Conv2d(4, 2, 1)
        self.up = nn.Upsample(scale_factor=2, mode=mode, align_corners=align_corners)
        self.head = nn.Conv2d(2, 1, 3, padding=1)
        with torch.no_grad():
            for k, p in enumerate(self.parameters()):
                n = p.numel()
                p.copy_((((torch.arange(n, dtype=torch.float32) * 3 + k) % 7) - 3).view_as(p) / 10)

    def forward(self, x):
        return self.head(self.up(F.relu(self.reduce(x))))


feat = ((torch.arange(2 * 4 * 3 * 4, dtype=torch.float32).view(2, 4, 3, 4) * 11) % 19) / 18
target = (torch.arange(2 * 6 * 8, dtype=torch.float32).view(2, 1, 6, 8) % 3) / 2
configs = [("nearest", None), ("bilinear", False), ("bilinear", True), ("bicubic", False)]
for mode, ac in configs:
    model = Decoder(mode, ac)
    opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    losses = []
    for step in range(15):
        opt.zero_grad()
        loss = F.mse_loss(model(feat), target)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(model.up, " ".join(f"{l:.5f}" for l in losses[::3]))
torch.set_printoptions(precision=6)
up = nn.Upsample(size=(5, 7), mode="bilinear", align_corners=True)
print(up(feat)[0, 0])
x = feat[:1, :1].clone().requires_grad_(True)
for mode, ac in configs + [("area", None), ("nearest-exact", None)]:
    y = F.interpolate(x, size=(5, 9), mode=mode, align_corners=ac)
    (y * torch.arange(9, dtype=torch.float32)).sum().backward()
    print(mode, ac, y.grad_fn.name())
    print(x.grad[0, 0])
    x.grad = None
torch.set_printoptions(profile="default")
