# Tensor-only image utilities people write instead of importing torchvision: uint8 arithmetic
# (wrap-around, true division), grayscale <-> RGB (weights, expand + clone), flips / rot90 /
# roll / center and five crops, histograms, a separable Gaussian blur and Sobel edges via conv2d,
# percentile contrast stretching with quantile, and meshgrid coordinates.
import torch
import torch.nn.functional as F

u = torch.tensor([[0, 100, 200], [250, 255, 5]], dtype=torch.uint8)
print(u + 100, u - 10, u * 2)
print(u / 255, (u / 255).dtype, u // 3, u.sum(), u.sum().dtype, u.float().mean())
print(u.to(torch.int16) * 2, u.clamp(10, 200), u.max(), u.argmax())
try:
    u.mean()
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.histc(u.float(), bins=4, min=0, max=255), torch.bincount(u.flatten().long() // 64, minlength=4))

# grayscale <-> RGB
rgb = torch.linspace(0, 1, 3 * 4 * 4).view(3, 4, 4)
weights = torch.tensor([0.299, 0.587, 0.114])
gray = (rgb * weights.view(3, 1, 1)).sum(0, keepdim=True)
print(gray[0, 0], torch.allclose(torch.tensordot(weights, rgb, dims=1), gray[0]))
rgb3 = gray.expand(3, -1, -1)
print(rgb3.shape, rgb3.stride(), rgb3.is_contiguous())
owned = rgb3.clone()
print(owned.stride(), owned.is_contiguous(), torch.equal(owned, gray.repeat(3, 1, 1)))
owned[0] += 1
print(owned[:, 0, 0])

# geometric augmentations with fixed choices
x = torch.arange(16.).view(1, 4, 4)
print(x.flip(-1)[0, 0], torch.flip(x, dims=(1, 2))[0, 0], torch.rot90(x, 1, (1, 2))[0])
print(torch.rot90(x, -1, (1, 2))[0, 0], torch.roll(x, shifts=(1, -1), dims=(1, 2))[0])
H, W, ch = 4, 4, 2
top, left = (H - ch) // 2, (W - ch) // 2
print(x[..., top:top + ch, left:left + ch])
crops = [x[..., :ch, :ch], x[..., :ch, -ch:], x[..., -ch:, :ch], x[..., -ch:, -ch:], x[..., top:top + ch, left:left + ch]]
five = torch.stack(crops)
print(five.shape, five.flatten(1).sum(1))

# separable Gaussian blur with reflect padding
sigma = 1.0
g1 = torch.exp(-(torch.arange(5.) - 2) ** 2 / (2 * sigma ** 2))
g1 = g1 / g1.sum()
k2 = torch.outer(g1, g1)
img = (torch.arange(36.).view(1, 1, 6, 6) % 7)
padded = F.pad(img, (2, 2, 2, 2), mode="reflect")
blur = F.conv2d(padded, k2.view(1, 1, 5, 5))
sep = F.conv2d(F.conv2d(padded, g1.view(1, 1, 1, 5)), g1.view(1, 1, 5, 1))
print(g1, blur[0, 0], torch.allclose(blur, sep, atol=1e-5))

# Sobel edges, magnitude and orientation
sobel_x = torch.tensor([[-1., 0., 1.], [-2., 0., 2.], [-1., 0., 1.]])
k = torch.stack([sobel_x, sobel_x.t()]).unsqueeze(1)
gr = F.conv2d(img, k, padding=1)
print(gr.shape, gr.pow(2).sum(1).sqrt()[0], torch.atan2(gr[:, 1], gr[:, 0])[0, 1])

# percentile contrast stretch
lo, hi = torch.quantile(img.flatten(), torch.tensor([0.02, 0.98]))
print(lo, hi, ((img - lo) / (hi - lo)).clamp(0, 1)[0, 0, 0])

# pixel coordinate grids
ys, xs = torch.meshgrid(torch.arange(3.), torch.arange(4.), indexing="ij")
X, Y = torch.meshgrid(torch.arange(3.), torch.arange(2.), indexing="xy")
print(ys, xs, X.shape, Y)
