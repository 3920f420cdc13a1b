# Resizing feature maps: F.interpolate (nearest, bilinear with and without align_corners,
# scale_factor vs size, bicubic, 1-d linear), nn.Upsample / nn.UpsamplingNearest2d modules and
# their reprs, PixelShuffle / PixelUnshuffle (sub-pixel conv), and the gradients flowing back.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[[[1., 2.], [3., 4.]]]])
print(F.interpolate(x, scale_factor=2, mode="nearest"))
print(F.interpolate(x, size=(3, 3), mode="nearest"))
print(F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False))
print(F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True))
print(F.interpolate(x, size=(3, 5), mode="bilinear", align_corners=True))
print(F.interpolate(x, size=(4, 3), mode="bilinear", align_corners=False))
print(F.interpolate(x, scale_factor=(1, 3), mode="nearest").shape)
print(F.interpolate(x, scale_factor=2, mode="nearest-exact"))
print(F.interpolate(x, scale_factor=2, mode="bicubic", align_corners=False))

# downsampling
big = torch.arange(16.).view(1, 1, 4, 4)
print(F.interpolate(big, scale_factor=0.5, mode="nearest"))
print(F.interpolate(big, size=(2, 2), mode="bilinear", align_corners=False))
print(F.interpolate(big, size=(3, 3), mode="bilinear", align_corners=True))
print(F.interpolate(big, size=(2, 3), mode="area"))

# 1-d signals: (N, C, L)
sig = torch.tensor([[[0., 10., 20.]]])
print(F.interpolate(sig, size=5, mode="linear", align_corners=True))
print(F.interpolate(sig, scale_factor=2, mode="linear"))
print(F.interpolate(sig, scale_factor=2))

for layer in [nn.Upsample(scale_factor=2), nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True),
              nn.Upsample(size=(3, 4), mode="nearest"), nn.UpsamplingNearest2d(scale_factor=3),
              nn.UpsamplingBilinear2d(scale_factor=2)]:
    print(layer, tuple(layer(x).shape))
print(nn.UpsamplingBilinear2d(scale_factor=2)(x)[0, 0, 1])

# gradients: each input pixel collects from the output pixels it fed
w = x.clone().requires_grad_()
y = F.interpolate(w, scale_factor=2, mode="bilinear", align_corners=False)
(y * torch.arange(16.).view(1, 1, 4, 4)).sum().backward()
print(y.grad_fn.name(), w.grad)
w.grad = None
F.interpolate(w, size=(3, 3), mode="nearest").sum().backward()
print(w.grad)

# errors people hit
for call in [lambda: F.interpolate(x, scale_factor=2, mode="linear"),
             lambda: F.interpolate(x),
             lambda: F.interpolate(x, size=(4, 4), scale_factor=2)]:
    try:
        call()
    except Exception as e:
        print(type(e).__name__, e)

# sub-pixel convolution: channels -> space and back
ps = nn.PixelShuffle(2)
feat = torch.arange(2 * 8 * 2 * 2, dtype=torch.float32).view(2, 8, 2, 2)
out = ps(feat)
print(ps, out.shape, out[0, 0])
unshuffle = nn.PixelUnshuffle(2)
back = unshuffle(out)
print(unshuffle, back.shape, torch.equal(back, feat))
print(F.pixel_shuffle(torch.arange(4.).view(1, 4, 1, 1), 2))
try:
    ps(torch.ones(1, 3, 2, 2))
except Exception as e:
    print(type(e).__name__, e)
