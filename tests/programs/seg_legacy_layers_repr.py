# Older segmentation repos (ENet, SegNet, PSPNet ports): padding layers, nn.UpsamplingBilinear2d /
# Upsample, Softmax2d, MaxUnpool2d, PSP pyramid pooling with AdaptiveAvgPool2d bins, printed module reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F

layers = [nn.ReflectionPad2d(2), nn.ReplicationPad2d((1, 0, 2, 0)), nn.ZeroPad2d((0, 1, 1, 0)),
          nn.ConstantPad2d(1, -1.0), nn.UpsamplingBilinear2d(scale_factor=2), nn.UpsamplingNearest2d(size=(6, 5)),
          nn.Upsample(scale_factor=(2, 1.5), mode="nearest"), nn.Softmax2d(), nn.Dropout2d(0.2),
          nn.InstanceNorm2d(3, affine=True), nn.MaxUnpool2d(2), nn.AdaptiveAvgPool2d((None, 2)),
          nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
          nn.CircularPad2d(1)]
for l in layers:
    print(l)

x = torch.arange(2 * 3 * 4 * 5, dtype=torch.float32).view(2, 3, 4, 5) / 10
for l in layers:
    if isinstance(l, (nn.MaxUnpool2d,)):
        continue
    l.eval()
    y = l(x)
    print(type(l).__name__, tuple(y.shape), f"{y.sum().item():.2f}")
print(nn.ReflectionPad2d(2)(x)[0, 0, :2])
print(nn.AvgPool2d(3, 2, 1, ceil_mode=True, count_include_pad=False)(x)[0, 0])
print(nn.Softmax2d()(x)[0, :, 0, 0])

pool = nn.MaxPool2d(2, stride=2, return_indices=True)
p, idx = pool(x)
unp = nn.MaxUnpool2d(2)(p, idx, output_size=x.size())
print(p.shape, idx[0, 0], unp.shape, (unp != 0).sum())


class PSPModule(nn.Module):
    def __init__(self, cin, bins=(1, 2, 3, 6)):
        super().__init__()
        self.stages = nn.ModuleList([nn.Sequential(nn.AdaptiveAvgPool2d(b), nn.Conv2d(cin, 1, 1, bias=False))
                                     for b in bins])
        for s in self.stages:
            nn.init.constant_(s[1].weight, 0.5)

    def forward(self, x):
        h, w = x.shape[2:]
        return torch.cat([x] + [F.interpolate(s(x), size=(h, w), mode="bilinear", align_corners=True)
                                for s in self.stages], 1)


psp = PSPModule(3)
feat = torch.sin(torch.arange(1 * 3 * 7 * 9, dtype=torch.float32)).view(1, 3, 7, 9).requires_grad_()
o = psp(feat)
print(o.shape, o[0, 3:, 3, 4].detach().numpy().round(4))
print(F.adaptive_avg_pool2d(feat, 3)[0, 0].detach().numpy().round(4))
print(F.adaptive_avg_pool2d(feat, 6)[0, 1, 0].detach().numpy().round(4))
o[:, 3:].sum().backward()
print(feat.grad[0, 0, :2].numpy().round(4))
print(F.adaptive_max_pool2d(feat, (2, 4), return_indices=True)[1][0, 0])
try:
    nn.ReflectionPad2d(5)(x)
except Exception as e:
    print(type(e).__name__, e)
