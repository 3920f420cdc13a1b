# Half-precision sampling as guided-diffusion's convert_to_fp16 does it: a tiny UNet (avg-pool
# Downsample, nearest Upsample, GroupNorm32 computing in float32, SiLU) cast with .half(), run
# under torch.no_grad in eval mode; outputs printed in float16, and the float32 model compared.
import torch
import torch.nn as nn
import torch.nn.functional as F


class GroupNorm32(nn.GroupNorm):
    def forward(self, x):
        return super().forward(x.float()).type(x.dtype)


class TinyUNet(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.norm1 = GroupNorm32(2, ch)
        self.down = nn.AvgPool2d(2)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.pool_all = nn.AdaptiveAvgPool2d(1)
        self.gate = nn.Linear(ch, ch)
        self.norm2 = GroupNorm32(2, 2 * ch)
        self.out = nn.Conv2d(2 * ch, 1, 3, padding=1)

    def forward(self, x):
        h0 = F.silu(self.norm1(self.inp(x)))
        h = F.silu(self.mid(self.down(h0)))
        g = torch.sigmoid(self.gate(self.pool_all(h).flatten(1)))[:, :, None, None]
        h = F.interpolate(h * g, scale_factor=2, mode="nearest")
        h = torch.cat([h, F.avg_pool2d(h0, 3, stride=1, padding=1)], dim=1)
        return self.out(F.silu(self.norm2(h)))


model = TinyUNet()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.73 + i).reshape(p.shape) * 0.4)
model.eval()
x = torch.sin(torch.arange(2 * 64, dtype=torch.float32) * 0.31).reshape(2, 1, 8, 8)

with torch.no_grad():
    ref = model(x)
    model_h = model.half()
    for m in model_h.modules():  # convert_to_fp16 leaves the normalisations in float32
        if isinstance(m, nn.GroupNorm):
            m.float()
    print(next(model_h.parameters()).dtype, model_h.norm1.weight.dtype)
    xh = x.half()
    pooled = model_h.down(xh)
    print(pooled.dtype, pooled[0, 0])
    print(F.adaptive_avg_pool2d(xh, (3, 3))[1, 0])
    print(F.avg_pool2d(xh, 3, stride=2, padding=1, count_include_pad=False)[0, 0])
    out = model_h(xh)
    print(out.dtype, out.shape, out[0, 0, :2])
    print(f"max |fp16 - fp32| = {(out.float() - ref).abs().max().item():.3f}")

    # a few DDPM steps in fp16 with a fixed "noise"
    betas = torch.linspace(1e-4, 0.02, 10)
    alphas = 1 - betas
    abar = torch.cumprod(alphas, 0)
    img = xh
    for t in reversed(range(0, 10, 3)):
        eps = model_h(img)
        mean = (img - betas[t] / (1 - abar[t]).sqrt() * eps) / alphas[t].sqrt()
        img = (mean + betas[t].sqrt() * torch.cos(img.float() * 3 + t).half()).clamp(-2, 2)
        print(t, img.dtype, img[1, 0, 3, :4])
