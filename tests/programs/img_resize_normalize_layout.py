# A hand-rolled torchvision-style preprocessing pipeline: HWC uint8 "image" -> CHW float in [0,1]
# -> per-channel normalisation with ImageNet mean/std -> resize with F.interpolate at awkward
# scale factors -> back to NHWC uint8 for saving. Shapes, dtypes, strides and values printed.
import torch
import torch.nn.functional as F

H, W = 4, 6
hwc = ((torch.arange(H * W * 3) * 37) % 256).to(torch.uint8).view(H, W, 3)
print(hwc.dtype, hwc.shape, hwc.stride(), hwc[0, :2])

# ToTensor: HWC uint8 -> CHW float
chw = hwc.permute(2, 0, 1).float().div(255)
print(chw.shape, chw.stride(), chw.is_contiguous(), chw.dtype)
print(chw[1])
chw = chw.contiguous()
print(chw.stride())

mean = torch.tensor([0.485, 0.456, 0.406])
std = torch.tensor([0.229, 0.224, 0.225])
norm = (chw - mean[:, None, None]) / std[:, None, None]
print(norm[:, 0, 0], norm.mean(dim=(1, 2)), norm.std(dim=(1, 2)))
# the same with view(1, 3, 1, 1) on a batch, then undo it
batch = torch.stack([chw, chw.flip(-1)])
nb = (batch - mean.view(1, 3, 1, 1)) / std.view(1, 3, 1, 1)
back = nb * std.view(1, 3, 1, 1) + mean.view(1, 3, 1, 1)
print(nb.shape, torch.allclose(back, batch, atol=1e-6), (back - batch).abs().max() < 1e-6)
# per-image statistics normalisation
m = batch.mean(dim=(0, 2, 3))
s = batch.std(dim=(0, 2, 3), unbiased=False)
print(m, s)

# resizing at non-integer scales
x = torch.arange(24.).view(1, 1, 4, 6)
print(F.interpolate(x, scale_factor=1.5, mode="nearest"))
print(F.interpolate(x, scale_factor=0.6, mode="nearest"))
print(F.interpolate(x, scale_factor=0.6, mode="nearest", recompute_scale_factor=True))
print(F.interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=False))
print(F.interpolate(x, scale_factor=0.5, mode="bilinear", align_corners=False))
print(F.interpolate(x, size=(3, 4), mode="bicubic", align_corners=True))
print(F.interpolate(x, size=(2, 3), mode="area"))
print(F.interpolate(x, size=(5, 7), mode="nearest-exact"))

# nearest on a uint8 batch keeps the dtype
u8 = hwc.permute(2, 0, 1).unsqueeze(0)
r = F.interpolate(u8, size=(2, 3), mode="nearest")
print(r.dtype, r.shape, r[0, 0])

# back to NHWC uint8 for saving
out = F.interpolate(batch, size=(3, 4), mode="bilinear", align_corners=False)
nhwc = (out.clamp(0, 1) * 255).round().to(torch.uint8).permute(0, 2, 3, 1)
print(nhwc.shape, nhwc.stride(), nhwc.is_contiguous(), nhwc.dtype)
print(nhwc[0])
print(nhwc.contiguous().stride(), nhwc.reshape(2, -1).shape)
print(torch.flatten(nhwc, start_dim=1).shape, nhwc.flatten(1, 2).shape)

# trilinear on a volume and linear on (N, C, L)
vol = torch.arange(8.).view(1, 1, 2, 2, 2)
print(F.interpolate(vol, scale_factor=1.5, mode="trilinear", align_corners=True))
print(F.interpolate(torch.tensor([[[0., 3., 6., 9.]]]), scale_factor=0.75, mode="linear"))

# gradient of a bicubic resize
g = torch.arange(9.).view(1, 1, 3, 3).requires_grad_()
F.interpolate(g, size=(4, 4), mode="bicubic", align_corners=False).sum().backward()
print(g.grad)

for fn in [lambda: F.interpolate(x, scale_factor=2, mode="trilinear"),
           lambda: F.interpolate(x, size=(2, 2, 2)),
           lambda: F.interpolate(u8, size=(2, 3), mode="bilinear"),
           lambda: F.interpolate(x, scale_factor=2, mode="cubic")]:
    try:
        r = fn()
        print(r.dtype, r.shape)
    except Exception as e:
        print(type(e).__name__, e)

# torchvision's Resize(antialias=True) on tensors calls interpolate with antialias=True
big = torch.arange(36.).view(1, 1, 6, 6)
print(F.interpolate(big, size=(3, 3), mode="bilinear", antialias=True))
print(F.interpolate(big, size=(2, 4), mode="bicubic", align_corners=False, antialias=True))
