# torchvision-style functional color ops on uint8 image tensors (as in RandAugment /
# AutoAugment implementations): posterize with a negative bit mask, solarize, invert via
# bitwise_not and 255 - img, blend-based brightness/contrast/sharpness, autocontrast with
# per-channel min/max, and equalize via a histogram LUT -- all kept in uint8.
import torch

C, H, W = 3, 5, 6
yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
img = torch.stack([(xx * 40 + yy * 7) % 256, (yy * 50 + 30) % 256, (xx * yy * 13 + 90) % 256]).to(torch.uint8)
print("img", img.shape, img.dtype)
print(img[0])


def blend(img1, img2, ratio):
    bound = 255.0
    return (ratio * img1 + (1.0 - ratio) * img2).clamp(0, bound).to(img1.dtype)


def rgb_to_grayscale(img):
    r, g, b = img.unbind(dim=-3)
    l_img = (0.2989 * r + 0.587 * g + 0.114 * b).to(img.dtype)
    return l_img.unsqueeze(dim=-3)


def posterize(img, bits):
    mask = -int(2 ** (8 - bits))  # e.g. -16 == 0b11110000 as uint8
    return img & mask


def solarize(img, threshold):
    return torch.where(img >= threshold, 255 - img, img)


def invert(img):
    return img.bitwise_not()


def autocontrast(img):
    bound = 255.0
    minimum = img.amin(dim=(-2, -1), keepdim=True).to(torch.float32)
    maximum = img.amax(dim=(-2, -1), keepdim=True).to(torch.float32)
    scale = bound / (maximum - minimum)
    eq_idxs = torch.isfinite(scale).logical_not()
    minimum[eq_idxs] = 0
    scale[eq_idxs] = 1
    return ((img - minimum) * scale).clamp(0, bound).to(img.dtype)


def equalize_channel(ch):
    hist = torch.histc(ch.to(torch.float32), bins=256, min=0, max=255)
    nonzero_hist = hist[hist != 0]
    step = torch.div(nonzero_hist[:-1].sum(), 255, rounding_mode="floor")
    if step == 0:
        return ch
    lut = torch.div(torch.cumsum(hist, 0) + torch.div(step, 2, rounding_mode="floor"), step, rounding_mode="floor")
    lut = torch.nn.functional.pad(lut, [1, 0])[:-1].clamp(0, 255)
    return lut[ch.to(torch.int64)].to(torch.uint8)


for bits in (1, 3, 4, 7):
    p = posterize(img, bits)
    print(f"posterize {bits} bits:", p[0, 0].tolist(), p.dtype, "levels", torch.unique(p).numel())
print("mask as uint8:", torch.tensor(-16).to(torch.uint8).item(), (img & 0xF0).equal(posterize(img, 4)))
print("solarize 128", solarize(img, 128)[0, 1].tolist())
print("invert", invert(img)[1, 0].tolist(), torch.equal(invert(img), 255 - img))
gray = rgb_to_grayscale(img)
print("gray", gray.shape, gray.dtype, gray[0, 2].tolist())
print("brightness 1.5", blend(img, torch.zeros_like(img), 1.5)[0, 0].tolist())
mean = torch.mean(rgb_to_grayscale(img).to(torch.float32), dim=(-3, -2, -1), keepdim=True)
print("contrast mean", f"{mean.item():.4f}")
print("contrast 0.5", blend(img, mean, 0.5)[2, 3].tolist())
print("saturation 0", blend(img, rgb_to_grayscale(img), 0.0)[:, 0, 0].tolist())
ac = autocontrast(img)
print("autocontrast", ac[1].amin().item(), ac[1].amax().item(), ac[0, 0].tolist())
flat = torch.full((1, 2, 2), 77, dtype=torch.uint8)
print("autocontrast flat", autocontrast(flat).flatten().tolist())
eq = torch.stack([equalize_channel(c) for c in img])
print("equalize", eq[0, 0].tolist(), eq.dtype)
print("equalize const channel", equalize_channel(torch.full((2, 2), 9, dtype=torch.uint8)).tolist())

# sharpness: 3x3 smoothing kernel via conv2d on float, then blend, keep borders
kernel = torch.ones((3, 3), dtype=torch.float32)
kernel[1, 1] = 5.0
kernel /= kernel.sum()
kernel = kernel.expand(C, 1, 3, 3)
degenerate = torch.nn.functional.conv2d(img.unsqueeze(0).float(), kernel, groups=C)
degenerate = degenerate.round_().clamp(0, 255).to(torch.uint8)[0]
result = img.clone()
result[..., 1:-1, 1:-1] = degenerate
print("sharpness blend", blend(img, result, 2.0)[0, 2].tolist())

# mixing with an int16 / float "ratio" tensor keeps or changes dtype
print("uint8 * 0.5 ->", (img * 0.5).dtype, "| uint8 * int16 ->", (img * torch.tensor([2], dtype=torch.int16)).dtype,
      "| uint8 + True ->", (img + True).dtype, "| uint8 // 2 ->", (img // 2).dtype)
try:
    img.mul_(0.5)
except RuntimeError as e:
    print(type(e).__name__, e)
print("uint8 max after mul_(2) wraps:", img.clone().mul_(2).max().item())
