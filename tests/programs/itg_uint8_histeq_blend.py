# Classic uint8 image processing without torchvision: histogram equalization through a
# lookup table (histc / bincount / cumsum), integer alpha blending with rounding,
# gamma LUTs, brightness with saturation, and the wraparound bugs people hit first.
import torch

H, W = 6, 8
yy, xx = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
img = ((xx * 23 + yy * 11) % 97 + 60).to(torch.uint8)        # a dim, low-contrast image
print(img, img.dtype)
print("min/max", img.min().item(), img.max().item(), "mean", img.float().mean().item())

# --- brightness: the naive way wraps, the careful way saturates
print("naive +100 :", (img + 100)[0])
print("careful +100:", (img.to(torch.int16) + 100).clamp(0, 255).to(torch.uint8)[0])
print("clamp on uint8 directly:", torch.clamp(img + 100, max=200)[0])
print("uint8 - 200 :", (img - 200)[0], (img.int() - 200)[0])
print("0-dim int64 keeps uint8:", (img + torch.tensor(5)).dtype, (img + torch.tensor([5])).dtype)

# --- histogram equalization with a LUT
hist = torch.bincount(img.flatten().long(), minlength=256)
print("bincount", hist.shape, hist.dtype, hist.nonzero().flatten()[:10])
hist_f = torch.histc(img.float(), bins=256, min=0, max=255)
print("histc agrees:", torch.equal(hist_f.long(), hist), hist_f.dtype)
cdf = hist.cumsum(0)
print("cdf dtype", cdf.dtype, cdf[-1].item())
cdf_min = cdf[cdf > 0].min()
lut = ((cdf - cdf_min) * 255) // (cdf[-1] - cdf_min)
lut = lut.clamp(0, 255).to(torch.uint8)
eq = lut[img.long()]
print("equalized", eq)
print("equalized range", eq.min().item(), eq.max().item(), eq.dtype)
print("unique levels", torch.unique(eq).numel(), torch.unique(img).numel())

# --- gamma correction LUT, float round trip
levels = torch.arange(256, dtype=torch.uint8)
gamma_lut = (torch.pow(levels.float() / 255, 1 / 2.2) * 255).round().to(torch.uint8)
print("gamma lut head", gamma_lut[:12])
print("gamma lut tail", gamma_lut[-6:])
g = gamma_lut[img.long()]
print("gamma img row", g[2])

# --- alpha blending in integer math: (a*alpha + b*(255-alpha) + 127) // 255
fg = torch.full((H, W), 250, dtype=torch.uint8)
alpha = (xx * 255 // (W - 1)).to(torch.uint8)
blend_int = (fg.to(torch.int32) * alpha + img.to(torch.int32) * (255 - alpha.to(torch.int32)) + 127) // 255
print("blend int dtype", blend_int.dtype, blend_int[0])
blend_f = (fg / 255 * (alpha / 255) + img / 255 * (1 - alpha / 255)) * 255
print("true division dtype", (fg / 255).dtype, (alpha / alpha.max()).dtype)
blend_f8 = blend_f.round().to(torch.uint8)
print("blend float->uint8", blend_f8[0])
print("max abs diff", (blend_f8.int() - blend_int).abs().max().item())
print("wrong: uint8 * uint8 wraps", (fg * alpha)[0])

# --- to float / back
x = img.float() / 255
back = (x * 255).round().byte()
print("round trip exact", torch.equal(back, img))
trunc = (x * 255 - 1e-4).byte()   # truncation toward zero instead of rounding
print("truncated differs at", (trunc != img).sum().item(), "pixels")
print("float -> uint8 of negatives/large:", torch.tensor([-0.7, 0.7, 255.4, 254.6]).to(torch.uint8))

# --- mean / std over uint8 need a cast
try:
    img.mean()
except RuntimeError as e:
    print(type(e).__name__, e)
print("sum dtype", img.sum().dtype, img.sum(dtype=torch.uint8), img.sum(0).dtype)
print("channel stats", img.double().std().item() > 0, img.median(), img.float().median())
