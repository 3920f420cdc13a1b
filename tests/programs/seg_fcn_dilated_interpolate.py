# FCN / DeepLab-style head: dilated 3x3 convs (ASPP branches), global pooling branch upsampled with
# F.interpolate(mode="bilinear", align_corners=False/True), nearest-resized label maps, and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ASPP(nn.Module):
    def __init__(self, cin, cout, rates=(1, 2, 3)):
        super().__init__()
        self.branches = nn.ModuleList(
            [nn.Conv2d(cin, cout, 1 if r == 1 else 3, padding=0 if r == 1 else r, dilation=r, bias=False)
             for r in rates])
        self.pool = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(cin, cout, 1, bias=False))
        self.project = nn.Conv2d(cout * (len(rates) + 1), cout, 1)

    def forward(self, x):
        h, w = x.shape[-2:]
        feats = [b(x) for b in self.branches]
        feats.append(F.interpolate(self.pool(x), size=(h, w), mode="bilinear", align_corners=False))
        return self.project(torch.cat(feats, dim=1))


head = ASPP(3, 4)
with torch.no_grad():
    for i, p in enumerate(head.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view_as(p) * 0.2)
print([tuple(b.weight.shape) for b in head.branches], head.branches[2].dilation, head.branches[2].padding)

x = torch.sin(torch.arange(2 * 3 * 5 * 6, dtype=torch.float32) * 0.21).view(2, 3, 5, 6).requires_grad_()
y = head(x)
print(y.shape, y.grad_fn.name())
print(y[0, 0].detach().numpy().round(4))
up = F.interpolate(y, scale_factor=2, mode="bilinear", align_corners=False)
up2 = F.interpolate(y, size=(9, 11), mode="bilinear", align_corners=True)
print(up.shape, up2.shape)
print(up[1, 2, :2].detach().numpy().round(4))
print(up2[1, 2, -1].detach().numpy().round(4))
(up.square().mean() + up2.abs().mean()).backward()
print(x.grad[0, 1, 2].numpy().round(5))
print(head.project.bias.grad.numpy().round(5))

label = (torch.arange(5 * 6) % 3).view(1, 1, 5, 6).float()
lab_up = F.interpolate(label, size=(10, 12), mode="nearest").long().squeeze(1)
print(lab_up.shape, lab_up.dtype, lab_up[0, :3])
lab_dn = F.interpolate(label, scale_factor=0.5, mode="nearest")
print(lab_dn)
lab_ex = F.interpolate(label, size=(7, 9), mode="nearest-exact")
print(lab_ex[0, 0, 3])
print(F.interpolate(label, size=(3, 4), mode="bilinear", align_corners=False, antialias=False)[0, 0])
print(F.interpolate(label, scale_factor=1.5, mode="bilinear", recompute_scale_factor=True).shape)
up_mod = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
print(up_mod, up_mod(label).shape)
try:
    F.interpolate(label[0], size=(4, 4), mode="bilinear")
except Exception as e:
    print(type(e).__name__, str(e)[:100])
try:
    F.interpolate(label, size=(4, 4), mode="nearest", align_corners=True)
except Exception as e:
    print(type(e).__name__, e)
