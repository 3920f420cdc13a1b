# Pooling as used in CNN heads and detection necks: global average vs max pooling (mean/amax vs
# adaptive pools), concat-pool (fastai's AdaptiveConcatPool2d), GeM pooling with a learnable p,
# SPP (spatial pyramid pooling with several adaptive sizes), SPPF-style chained 5x5 max pools,
# blur-pool (anti-aliased downsampling with a fixed binomial kernel), channels_last inputs, and
# pooling on integer masks.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.cos(torch.arange(2 * 4 * 7 * 7, dtype=torch.float32) * 0.21).view(2, 4, 7, 7)
gap = nn.AdaptiveAvgPool2d(1)(x)
gmp = nn.AdaptiveMaxPool2d(1)(x)
print(gap.shape, torch.allclose(gap.flatten(1), x.mean((2, 3))), torch.equal(gmp.flatten(1), x.amax((2, 3))))
print(torch.cat([gmp, gap], 1).flatten(1)[0])
print(F.adaptive_avg_pool2d(x, 1).grad_fn, F.avg_pool2d(x, x.shape[-2:]).shape)


class GeM(nn.Module):
    def __init__(self, p=3.0, eps=1e-6):
        super().__init__()
        self.p = nn.Parameter(torch.ones(1) * p)
        self.eps = eps

    def forward(self, x):
        return F.avg_pool2d(x.clamp(min=self.eps).pow(self.p), (x.size(-2), x.size(-1))).pow(1.0 / self.p)

    def extra_repr(self):
        return f"p={self.p.data.tolist()[0]:.4f}, eps={self.eps}"


gem = GeM()
g = gem(x.abs())
print(gem, g.shape, g[0, :, 0, 0])
g.sum().backward()
print(gem.p.grad)

# spatial pyramid pooling
levels = [F.adaptive_max_pool2d(x, s).flatten(1) for s in (1, 2, 4)]
spp = torch.cat(levels, 1)
print([l.shape[1] for l in levels], spp.shape, spp[1, :6])
y, idx = F.adaptive_max_pool2d(x, 3, return_indices=True)
print(idx[0, 0], torch.equal(x.flatten(2).gather(2, idx.flatten(2)).view_as(y), y))

# SPPF: three chained 5x5/1 max pools == 5, 9, 13 pools
m = nn.MaxPool2d(5, 1, 2)
y1 = m(x); y2 = m(y1); y3 = m(y2)
print(torch.equal(y2, F.max_pool2d(x, 9, 1, 4)), torch.equal(y3, F.max_pool2d(x, 13, 1, 6)))

# blur pool
k1 = torch.tensor([1., 2., 1.])
k2 = (k1[:, None] * k1[None, :])
k2 = (k2 / k2.sum()).expand(4, 1, 3, 3)
blurred = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="reflect"), k2, stride=2, groups=4)
print(blurred.shape, blurred[0, 0])

# channels_last inputs keep their layout through pooling
xc = x.contiguous(memory_format=torch.channels_last)
for op in [lambda t: F.max_pool2d(t, 2), lambda t: F.avg_pool2d(t, 3, 2, 1), lambda t: F.adaptive_avg_pool2d(t, 3),
           lambda t: F.adaptive_max_pool2d(t, 2), lambda t: F.lp_pool2d(t, 2, 2), lambda t: F.max_pool2d(t, 3, 2, 1, ceil_mode=True)]:
    a, b = op(x), op(xc)
    print(tuple(b.shape), b.is_contiguous(memory_format=torch.channels_last), torch.allclose(a, b))

# integer masks: max pool works, avg pool does not
mask = (x > 0.5).to(torch.uint8)
print(F.max_pool2d(mask, 2)[0, 0], F.max_pool2d(mask.long(), 3, 2).dtype)
for bad in [lambda: F.avg_pool2d(mask, 2), lambda: F.adaptive_avg_pool2d(mask.long(), 2),
            lambda: F.avg_pool2d(mask.float(), 2, padding=2), lambda: F.max_pool2d(x, 2, dilation=0)]:
    try:
        print(bad())
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
