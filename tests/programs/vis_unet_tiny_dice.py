# A tiny U-Net as in segmentation tutorials: double-conv blocks, MaxPool2d down, ConvTranspose2d
# up, center-crop of the skip by slicing, torch.cat along channels, a hand-written soft Dice +
# BCE loss, 20 Adam steps on a synthetic disk mask. Fixed arange-based weights, no RNG.
import torch
import torch.nn as nn
import torch.nn.functional as F


def double_conv(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class UNet(nn.Module):
    def __init__(self, c=4):
        super().__init__()
        self.inc = double_conv(1, c)
        self.down = nn.Sequential(nn.MaxPool2d(2), double_conv(c, 2 * c))
        self.up = nn.ConvTranspose2d(2 * c, c, kernel_size=2, stride=2)
        self.dec = double_conv(2 * c, c)
        self.outc = nn.Conv2d(c, 1, kernel_size=1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down(x1)
        u = self.up(x2)
        dy, dx = x1.size(2) - u.size(2), x1.size(3) - u.size(3)
        u = F.pad(u, [dx // 2, dx - dx // 2, dy // 2, dy - dy // 2])
        return self.outc(self.dec(torch.cat([x1, u], dim=1)))


def dice_loss(logits, target, eps=1.0):
    p = torch.sigmoid(logits)
    inter = (p * target).sum(dim=(2, 3))
    union = p.sum(dim=(2, 3)) + target.sum(dim=(2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


model = UNet()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * 0.3)
print(model.up)
print(sum(p.numel() for p in model.parameters()), "params")

H = W = 11
yy, xx = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij")
img = torch.stack([torch.sin(xx * 0.5 + k) * torch.cos(yy * 0.3) for k in range(2)]).unsqueeze(1)
mask = (((yy - 5) ** 2 + (xx - 5) ** 2) < 10).float().expand(2, 1, H, W)
print(img.shape, mask.shape, mask.sum().item())

out = model(img)
print("out", out.shape, [tuple(m.shape) for m in (model.inc(img), model.down(model.inc(img)))])

opt = torch.optim.Adam(model.parameters(), lr=0.02)
first = None
for step in range(20):
    opt.zero_grad()
    logits = model(img)
    loss = dice_loss(logits, mask) + F.binary_cross_entropy_with_logits(logits, mask)
    loss.backward()
    opt.step()
    first = first if first is not None else loss.item()
    if step % 5 == 0:
        print(step, f"{loss.item():.3f}")
print("decreased", loss.item() < first)

model.eval()
with torch.no_grad():
    pred = (torch.sigmoid(model(img)) > 0.5).float()
inter = (pred * mask).sum()
iou = inter / (pred.sum() + mask.sum() - inter)
print("iou", f"{iou.item():.2f}", model.inc[1].num_batches_tracked, model.inc[1].running_mean.shape)
