# The channels_last tutorial checks a user runs on a timm-style ResNet stem + head: print strides
# after conv / BN / maxpool / global pool / upsample / pixel_shuffle, is_contiguous for both
# formats, and that results match the NCHW model (memory format never changes values).
import torch
import torch.nn as nn
import torch.nn.functional as F


class StemHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(8)
        self.pool = nn.MaxPool2d(3, stride=2, padding=1)
        self.global_pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Conv2d(8, 4, 1)

    def forward(self, x, trace=None):
        steps = [("conv", self.conv), ("bn", self.bn), ("relu", F.relu), ("maxpool", self.pool),
                 ("gap", self.global_pool), ("fc", self.fc)]
        for name, fn in steps:
            x = fn(x)
            if trace is not None:
                trace.append((name, tuple(x.shape), x.stride(),
                              x.is_contiguous(), x.is_contiguous(memory_format=torch.channels_last)))
        return x.flatten(1)


model = StemHead()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).reshape(p.shape) * 0.5)
model.eval()

x = torch.cos(torch.arange(2 * 3 * 12 * 12, dtype=torch.float32) * 0.07).reshape(2, 3, 12, 12)
ref = model(x)
model_cl = model.to(memory_format=torch.channels_last)
x_cl = x.to(memory_format=torch.channels_last)
print(x.stride(), x_cl.stride())
trace = []
out = model_cl(x_cl, trace)
for row in trace:
    print(*row)
print(out, torch.allclose(out, ref, atol=1e-6))

feat = torch.arange(1 * 8 * 2 * 2, dtype=torch.float32).reshape(1, 8, 2, 2).to(memory_format=torch.channels_last)
up = F.interpolate(feat, scale_factor=2, mode="nearest")
print("nearest", up.stride(), up.is_contiguous(memory_format=torch.channels_last))
up1 = F.interpolate(feat, size=(1, 1), mode="bilinear", align_corners=False)
print("to 1x1", up1.stride(), up1.flatten())
ps = F.pixel_shuffle(feat, 2)
print("shuffle", ps.shape, ps.stride())
ps2 = F.pixel_shuffle(feat[:, :4], 2)
print("shuffle C=1", ps2.shape, ps2.stride())
mx = F.adaptive_max_pool2d(feat, 1)
print("gmp", mx.stride(), mx.flatten())
z = torch.empty(2, 8, 1, 1, memory_format=torch.channels_last)
print("empty", z.stride())
