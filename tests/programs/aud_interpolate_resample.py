# Resampling 1-D signals the cheap way: F.interpolate (linear / nearest / nearest-exact, align_corners,
# scale_factor), nn.Upsample modules, and a hand-written linear-interpolation resampler with gather.
import torch
import torch.nn as nn
import torch.nn.functional as F

sig = torch.sin(torch.arange(12, dtype=torch.float32) * 0.5).view(1, 1, 12)
print(sig.round(decimals=4))

for mode in ["linear", "nearest", "nearest-exact"]:
    for size in [5, 18, 24]:
        kw = {} if mode.startswith("nearest") else {"align_corners": False}
        y = F.interpolate(sig, size=size, mode=mode, **kw)
        print(mode, size, y.shape, y.round(decimals=4)[0, 0, :6])
print(F.interpolate(sig, size=7, mode="linear", align_corners=True).round(decimals=4))
print(F.interpolate(sig, scale_factor=1.5, mode="linear").shape)
print(F.interpolate(sig, scale_factor=0.37, mode="linear").round(decimals=4))
print(F.interpolate(sig, scale_factor=0.37, mode="linear", recompute_scale_factor=True).round(decimals=4))
print(F.interpolate(sig, scale_factor=2.5, mode="nearest").round(decimals=4)[0, 0, :10])
print(F.interpolate(sig, scale_factor=(2,), mode="nearest").shape)
print(F.interpolate(sig.double(), size=4, mode="linear").dtype)

up = nn.Upsample(scale_factor=3, mode="linear")
print(up, up(sig).shape)
print(nn.Upsample(size=20, mode="nearest"), nn.Upsample(scale_factor=2.0, mode="linear", align_corners=True))

# resampler 16k -> 11.025k style ratio with explicit linear interpolation
def resample_linear(x, orig, new):
    n_out = int(x.shape[-1] * new / orig)
    pos = torch.arange(n_out, dtype=torch.float32) * (orig / new)
    i0 = pos.floor().long().clamp(max=x.shape[-1] - 1)
    i1 = (i0 + 1).clamp(max=x.shape[-1] - 1)
    frac = pos - i0.float()
    return x[..., i0] * (1 - frac) + x[..., i1] * frac

r = resample_linear(sig[0, 0], 16000, 11025)
print(r.shape, r.round(decimals=4))
ref = F.interpolate(sig, size=r.shape[-1], mode="linear", align_corners=True)[0, 0]
print((r - ref).abs().max() < 0.2)

# grads through interpolate
x = sig.clone().requires_grad_(True)
F.interpolate(x, scale_factor=2, mode="linear").pow(2).sum().backward()
print(x.grad.round(decimals=4))
x.grad = None
F.interpolate(x, size=5, mode="nearest").sum().backward()
print(x.grad)
x.grad = None
F.interpolate(x, size=30, mode="nearest-exact").sum().backward()
print(x.grad)
print(F.interpolate(x, size=5, mode="linear").grad_fn.name(), F.interpolate(x, size=5).grad_fn.name())

for bad in [lambda: F.interpolate(sig, size=4, mode="bilinear"),
            lambda: F.interpolate(sig, size=4, scale_factor=2.0),
            lambda: F.interpolate(sig),
            lambda: F.interpolate(sig, size=4, mode="nearest", align_corners=True),
            lambda: F.interpolate(sig, size=4, mode="cubic"),
            lambda: F.interpolate(sig[0, 0], size=4, mode="linear")]:
    try:
        bad()
    except (ValueError, RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
