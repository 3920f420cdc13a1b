# Resizing images with F.interpolate / nn.Upsample the many ways repos do: every mode
# (nearest, nearest-exact, bilinear, bicubic, area, linear, trilinear), align_corners, fractional
# scale factors with and without recompute_scale_factor, antialias downsampling, size vs
# scale_factor, integer images, gradients, and the error/warning messages.
import warnings
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1 * 2 * 4 * 5, dtype=torch.float32).view(1, 2, 4, 5)
torch.set_printoptions(precision=3)
print(F.interpolate(x, scale_factor=2, mode="nearest")[0, 0, :3])
print(F.interpolate(x, size=(3, 7), mode="nearest")[0, 1])
print(F.interpolate(x, size=(3, 7), mode="nearest-exact")[0, 1])
for ac in (False, True):
    print(F.interpolate(x, size=(6, 3), mode="bilinear", align_corners=ac)[0, 0])
    print(F.interpolate(x, scale_factor=1.7, mode="bicubic", align_corners=ac)[0, 0, 1])
print(F.interpolate(x, size=(2, 2), mode="area")[0])
print(F.interpolate(x, size=(3, 3), mode="area")[0, 0])
print(F.interpolate(x, scale_factor=0.5, mode="bilinear", antialias=True)[0, 0])
print(F.interpolate(x, size=(2, 3), mode="bicubic", antialias=True, align_corners=False)[0, 1])
for rsf in (None, False, True):
    y = F.interpolate(x, scale_factor=1.3, mode="bilinear", recompute_scale_factor=rsf)
    print(rsf, y.shape, y[0, 0, -1])
print(F.interpolate(x, scale_factor=(0.5, 1.5), mode="nearest").shape)

seq = torch.linspace(0, 1, 6).view(1, 1, 6)
print(F.interpolate(seq, size=4, mode="linear"), F.interpolate(seq, scale_factor=1.5, mode="linear", align_corners=True))
vol = torch.arange(8, dtype=torch.float32).view(1, 1, 2, 2, 2)
print(F.interpolate(vol, scale_factor=1.5, mode="trilinear")[0, 0, 1])

# uint8 image: nearest works, bilinear works on CPU too
u8 = torch.tensor([[[[0, 255], [128, 64]]]], dtype=torch.uint8)
print(F.interpolate(u8, scale_factor=2, mode="nearest"))
print(F.interpolate(u8, size=3, mode="bilinear", align_corners=False))

# gradient of bilinear upsampling spreads weights back
g = x.clone().requires_grad_(True)
F.interpolate(g, size=(7, 8), mode="bilinear", align_corners=False).sum().backward()
print(g.grad[0, 0])
g.grad = None
F.interpolate(g, size=(3, 3), mode="area").sum().backward()
print(g.grad[0, 1])
g.grad = None
F.interpolate(g, size=(5, 7), mode="nearest-exact").sum().backward()
print(g.grad[0, 0])

up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
print(up(x).shape, up)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    F.upsample(x, scale_factor=2)
    F.upsample_bilinear(x, scale_factor=2)
    print([str(i.message)[:60] for i in w])

for bad in [lambda: F.interpolate(x, size=(3, 3), scale_factor=2),
            lambda: F.interpolate(x),
            lambda: F.interpolate(x, size=3, mode="linear"),
            lambda: F.interpolate(x, size=(3, 3, 3)),
            lambda: F.interpolate(x, scale_factor=2, mode="nearest", align_corners=True),
            lambda: F.interpolate(x, scale_factor=2, mode="cubic"),
            lambda: F.interpolate(x, size=(3, 3), mode="nearest", antialias=True),
            lambda: F.interpolate(x, scale_factor=-1.0)]:
    try:
        bad()
    except (RuntimeError, ValueError, NotImplementedError) as e:
        print(type(e).__name__, e)
