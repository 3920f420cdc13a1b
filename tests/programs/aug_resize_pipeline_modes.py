# A torchvision-style Resize/CenterCrop pipeline written with F.interpolate: shorter-side resize,
# every mode, align_corners both ways, scale_factor with and without recompute_scale_factor,
# printed at several precisions as users do when comparing against PIL/OpenCV.
import torch
import torch.nn.functional as F


def make_image(c, h, w):
    i = torch.arange(c * h * w, dtype=torch.float32).view(1, c, h, w)
    return ((i * 37) % 101) / 100 + (i % 7) * 0.01


def resize_shorter(img, size, mode="bilinear", align_corners=False):
    h, w = img.shape[-2:]
    if h < w:
        new_h, new_w = size, int(size * w / h)
    else:
        new_h, new_w = int(size * h / w), size
    kwargs = {} if mode in ("nearest", "area", "nearest-exact") else {"align_corners": align_corners}
    return F.interpolate(img, size=(new_h, new_w), mode=mode, **kwargs)


def center_crop(img, size):
    h, w = img.shape[-2:]
    top, left = (h - size) // 2, (w - size) // 2
    return img[..., top:top + size, left:left + size]


img = make_image(3, 10, 14)
for precision in (3, 4, 6):
    torch.set_printoptions(precision=precision)
    print(f"--- precision {precision}")
    for mode in ("nearest", "nearest-exact", "bilinear", "bicubic"):
        out = center_crop(resize_shorter(img, 7, mode), 5)
        print(mode, tuple(out.shape))
        print(out[0, 1])
    for ac in (False, True):
        up = F.interpolate(img, scale_factor=1.5, mode="bilinear", align_corners=ac)
        print("bilinear x1.5 align_corners", ac, up.shape, up[0, 0, :2, :6])
torch.set_printoptions(profile="default")

# scale factors that do not divide the size evenly
for sf in (0.7, 1.3, 2.25):
    for rsf in (None, True):
        y = F.interpolate(img, scale_factor=sf, mode="bilinear", recompute_scale_factor=rsf)
        print(sf, rsf, tuple(y.shape), f"{y.mean().item():.6f}", f"{y[0, 2, -1, -1].item():.6f}")
        z = F.interpolate(img, scale_factor=sf, mode="bicubic", recompute_scale_factor=rsf)
        print("  bicubic", f"{z.sum().item():.4f}", f"{z.min().item():.6f}", f"{z.max().item():.6f}")

# 1-d (audio-like) and 3-d (video-like) resizes
sig = (torch.arange(12, dtype=torch.float32) * 0.4 - 2).abs().view(1, 1, 12)
torch.set_printoptions(precision=5)
print(F.interpolate(sig, size=17, mode="linear"))
print(F.interpolate(sig, size=5, mode="linear", align_corners=True))
vid = torch.arange(2 * 3 * 4 * 5, dtype=torch.float32).view(1, 2, 3, 4, 5) / 10
print(F.interpolate(vid, size=(4, 5, 7), mode="trilinear")[0, 1, 2])
print(F.interpolate(vid, scale_factor=(1, 0.5, 0.5), mode="nearest")[0, 0])
torch.set_printoptions(profile="default")
