# The up/downsampling zoo of diffusion UNets: ConvTranspose2d(4, 2, 1), nn.Upsample nearest +
# conv, F.interpolate bilinear (align_corners True/False), PixelUnshuffle-based Downsample
# (lucidrains), avg-pool Downsample (guided-diffusion), with reprs, shapes and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F


def det_init(m, scale=0.2):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.53 + i).reshape(p.shape) * scale)
    return m


x = torch.sin(torch.arange(2 * 4 * 6 * 6, dtype=torch.float32) * 0.21).reshape(2, 4, 6, 6)

ups = nn.ModuleDict({
    "convT": nn.ConvTranspose2d(4, 4, 4, 2, 1),
    "nearest": nn.Sequential(nn.Upsample(scale_factor=2, mode="nearest"), nn.Conv2d(4, 4, 3, padding=1)),
    "bilinear": nn.Sequential(nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True), nn.Conv2d(4, 4, 3, padding=1)),
    "convT_op": nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1),
})
det_init(ups)
print(ups)
for name, m in ups.items():
    y = m(x)
    print(name, tuple(y.shape), f"{y.sum().item():.4f}", f"{y.abs().max().item():.4f}")

downs = nn.ModuleDict({
    "stride_conv": nn.Conv2d(4, 4, 3, stride=2, padding=1),
    "unshuffle": nn.Sequential(nn.PixelUnshuffle(2), nn.Conv2d(16, 4, 1)),
    "avgpool": nn.AvgPool2d(kernel_size=2, stride=2),
    "conv4": nn.Conv2d(4, 8, 4, 2, 1),
})
det_init(downs)
print(downs)
for name, m in downs.items():
    y = m(x)
    print(name, tuple(y.shape), f"{y.sum().item():.4f}")

# gradient through interpolate modes
xr = x[:1, :2].clone().requires_grad_(True)
for mode, kw in [("nearest", {}), ("bilinear", {"align_corners": False}), ("bilinear", {"align_corners": True}),
                 ("bicubic", {"align_corners": False})]:
    y = F.interpolate(xr, scale_factor=2, mode=mode, **kw)
    w = torch.arange(y.numel(), dtype=torch.float32).reshape(y.shape) / y.numel()
    (g,) = torch.autograd.grad((y * w).sum(), xr)
    print(mode, kw, tuple(y.shape), y.grad_fn.__class__.__name__, g[0, 0, 0].round(decimals=4))

y = F.interpolate(x, size=(9, 9), mode="bilinear", align_corners=False)
print(y.shape, y[0, 0, 0, :4].round(decimals=4))
y = F.interpolate(x, scale_factor=0.5, mode="area")
print(y.shape, y[1, 3].round(decimals=4))

ps = nn.PixelShuffle(2)
z = ps(torch.arange(16.0).reshape(1, 4, 2, 2))
print(z)
print(F.pixel_unshuffle(z, 2).equal(torch.arange(16.0).reshape(1, 4, 2, 2)))

# one training step on a tiny up/down autoencoder
ae = det_init(nn.Sequential(nn.Conv2d(4, 8, 4, 2, 1), nn.GroupNorm(4, 8), nn.SiLU(), nn.ConvTranspose2d(8, 4, 4, 2, 1)))
opt = torch.optim.SGD(ae.parameters(), lr=0.05, momentum=0.9)
for step in range(4):
    loss = F.mse_loss(ae(x), x)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print(ae[3].weight.grad.shape, ae[1].bias.grad.round(decimals=4))
