# Super-resolution the ESPCN way: conv features -> conv to C*r^2 channels -> PixelShuffle(r),
# compared with nearest / bilinear upsampling baselines, ICNR-style init (repeat a kernel r^2
# times so the shuffled output starts checkerboard-free), PixelUnshuffle round trips, channels_last
# inputs, a few L1-loss Adam steps, PSNR printed; and the errors for bad channel counts.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

r = 2
x = torch.arange(2 * 8 * 3 * 3, dtype=torch.float32).view(2, 8, 3, 3)
ps = nn.PixelShuffle(r)
y = ps(x)
print(y.shape, y[0, 0], y[1, 1, :2])
print(torch.equal(nn.PixelUnshuffle(r)(y), x), F.pixel_unshuffle(y, 2).shape)
print(F.pixel_shuffle(x[0], 2).shape, F.pixel_shuffle(x.unsqueeze(0), 2).shape)

xc = x.contiguous(memory_format=torch.channels_last)
yc = ps(xc)
print(torch.equal(yc, y), yc.is_contiguous(), yc.stride())
print(F.pixel_unshuffle(yc, 2).stride())


class ESPCN(nn.Module):
    def __init__(self, r=2, c=1):
        super().__init__()
        self.feat = nn.Sequential(nn.Conv2d(c, 8, 5, padding=2), nn.Tanh(), nn.Conv2d(8, 4, 3, padding=1), nn.Tanh())
        self.sub = nn.Conv2d(4, c * r * r, 3, padding=1)
        self.shuffle = nn.PixelShuffle(r)

    def forward(self, x):
        return self.shuffle(self.sub(self.feat(x)))


def icnr_(w, r):
    out_c = w.shape[0] // (r * r)
    base = torch.linspace(-0.2, 0.2, out_c * w[0].numel()).view(out_c, *w.shape[1:])
    with torch.no_grad():
        w.copy_(base.repeat_interleave(r * r, dim=0))


net = ESPCN(r)
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.13 + i).view_as(p) * 0.2)
icnr_(net.sub.weight, r)
print(net.sub.weight[:4, 0, 0, 0])

yy, xx = torch.meshgrid(torch.linspace(0, 3, 12), torch.linspace(0, 3, 12), indexing="ij")
hr = (torch.sin(2 * xx) * torch.cos(3 * yy)).view(1, 1, 12, 12)
lr = F.avg_pool2d(hr, 2)
print(lr.shape)


def psnr(a, b):
    mse = F.mse_loss(a, b)
    return 10 * math.log10(4.0 / mse.item())


for mode in ("nearest", "bilinear", "bicubic"):
    kw = {} if mode == "nearest" else {"align_corners": False}
    print(mode, f"{psnr(F.interpolate(lr, scale_factor=2, mode=mode, **kw), hr):.2f}")

opt = torch.optim.Adam(net.parameters(), lr=0.01)
for step in range(15):
    opt.zero_grad()
    loss = F.l1_loss(net(lr), hr)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, f"{loss.item():.3f}")
print("espcn psnr > 5:", psnr(net(lr).detach(), hr) > 5)

for bad in [lambda: F.pixel_shuffle(torch.zeros(1, 6, 2, 2), 2),
            lambda: F.pixel_unshuffle(torch.zeros(1, 1, 3, 4), 2),
            lambda: F.pixel_shuffle(torch.zeros(6, 2), 2),
            lambda: nn.PixelShuffle(0)(torch.zeros(1, 4, 2, 2))]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
