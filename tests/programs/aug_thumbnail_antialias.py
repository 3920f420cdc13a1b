# PIL-style thumbnails with F.interpolate(antialias=True): uint8 images resized in their own
# dtype and via float, bilinear and bicubic filters, down and up, a per-row profile (resize to
# one column), and the errors for dtypes the antialiasing kernels do not support.
import torch
import torch.nn.functional as F

h, w = 12, 17
idx = torch.arange(3 * h * w).view(1, 3, h, w)
img_u8 = ((idx * 37 + (idx // w) * 11) % 256).to(torch.uint8)
img = img_u8.float() / 255

torch.set_printoptions(precision=4)
for mode in ("bilinear", "bicubic"):
    for size in ((6, 8), (4, 5), (3, 17), (12, 7)):
        small_u8 = F.interpolate(img_u8, size=size, mode=mode, antialias=True)
        small = F.interpolate(img, size=size, mode=mode, antialias=True)
        as_u8 = (small * 255).round().clamp(0, 255).to(torch.uint8)
        diff = (as_u8.int() - small_u8.int()).abs().max().item()
        print(mode, size, small_u8.dtype, tuple(small_u8.shape), "max |float - uint8| =", diff)
        print(small[0, 1, 0])
    big = F.interpolate(img[:, :, :4, :5], scale_factor=2.5, mode=mode, antialias=True)
    print("upscale", tuple(big.shape), big[0, 0, 1])

# per-row average profile: shrink the width to one column
profile = F.interpolate(img, size=(h, 1), mode="bilinear", antialias=True)
print(profile.shape, profile[0, 0, :5, 0])
cl = img.contiguous(memory_format=torch.channels_last)
print(F.interpolate(cl, size=(4, 1), mode="bilinear", antialias=True)[0, 2, :, 0])

# aliasing vs antialiasing on a checkerboard
board = ((torch.arange(16).view(16, 1) + torch.arange(16).view(1, 16)) % 2).float()[None, None]
print(F.interpolate(board, size=(4, 4), mode="bilinear", antialias=False)[0, 0])
print(F.interpolate(board, size=(4, 4), mode="bilinear", antialias=True)[0, 0])
torch.set_printoptions(profile="default")

for bad in (lambda: F.interpolate(img.half(), size=(4, 4), mode="bilinear", antialias=True),
            lambda: F.interpolate(idx.int(), size=(4, 4), mode="bicubic", antialias=True),
            lambda: F.interpolate(img, size=(4, 4), mode="nearest", antialias=True),
            lambda: F.interpolate(img[0], size=4, mode="bilinear", antialias=True)):
    try:
        bad()
    except (RuntimeError, ValueError, NotImplementedError) as e:
        print(type(e).__name__, e)
