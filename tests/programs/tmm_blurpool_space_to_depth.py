# timm anti-aliasing and stem layers: BlurPool2d with a binomial filter registered as a buffer
# (outer product, repeat per channel, groups=C conv after reflect F.pad), SpaceToDepth /
# DepthToSpace via view + permute + contiguous, and a TResNet-style stem trained a few steps.
import torch
import torch.nn as nn
import torch.nn.functional as F


class BlurPool2d(nn.Module):
    def __init__(self, channels, filt_size=3, stride=2, pad_mode="reflect"):
        super().__init__()
        assert filt_size > 1
        self.channels = channels
        self.filt_size = filt_size
        self.stride = stride
        self.pad_mode = pad_mode
        self.padding = [(filt_size - 1) // 2, filt_size // 2] * 2
        coeffs = torch.tensor([1.0])
        for _ in range(filt_size - 1):
            coeffs = torch.cat([coeffs, torch.zeros(1)]) + torch.cat([torch.zeros(1), coeffs])
        blur_filter = (coeffs[:, None] * coeffs[None, :])[None, None, :, :]
        blur_filter = blur_filter / blur_filter.sum()
        self.register_buffer("filt", blur_filter.repeat(self.channels, 1, 1, 1), persistent=False)

    def forward(self, x):
        x = F.pad(x, self.padding, mode=self.pad_mode)
        return F.conv2d(x, self.filt, stride=self.stride, groups=self.channels)

    def extra_repr(self):
        return f"channels={self.channels}, filt_size={self.filt_size}, stride={self.stride}"


class SpaceToDepth(nn.Module):
    def __init__(self, block_size=2):
        super().__init__()
        self.bs = block_size

    def forward(self, x):
        N, C, H, W = x.size()
        x = x.view(N, C, H // self.bs, self.bs, W // self.bs, self.bs)
        x = x.permute(0, 3, 5, 1, 2, 4).contiguous()
        return x.view(N, C * self.bs * self.bs, H // self.bs, W // self.bs)


class DepthToSpace(nn.Module):
    def __init__(self, block_size=2):
        super().__init__()
        self.bs = block_size

    def forward(self, x):
        N, C, H, W = x.size()
        x = x.view(N, self.bs, self.bs, C // (self.bs ** 2), H, W)
        x = x.permute(0, 3, 4, 1, 5, 2).contiguous()
        return x.view(N, C // (self.bs ** 2), H * self.bs, W * self.bs)


for k in (2, 3, 4, 5):
    bp = BlurPool2d(1, filt_size=k)
    print(k, bp.padding, (bp.filt[0, 0] * bp.filt[0, 0].numel() ** 0 * (2 ** (2 * (k - 1)))).round().int().tolist()[0])
bp = BlurPool2d(3, filt_size=4)
print(bp, list(bp.state_dict().keys()), bp.filt.shape)

x = torch.arange(2 * 3 * 8 * 8, dtype=torch.float32).reshape(2, 3, 8, 8) % 7
y = bp(x)
print(y.shape, y[0, 0])
s2d, d2s = SpaceToDepth(), DepthToSpace()
z = s2d(x)
print(z.shape, z[0, :4, 0, 0], torch.equal(d2s(z), x))
print(torch.equal(z, F.pixel_unshuffle(x, 2)), torch.equal(d2s(z), F.pixel_shuffle(z, 2)))
print(torch.equal(F.pixel_shuffle(F.pixel_unshuffle(x, 2), 2), x))

stem = nn.Sequential(SpaceToDepth(), nn.Conv2d(12, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8),
                     nn.LeakyReLU(0.01), BlurPool2d(8, 3, 2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(stem.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).reshape(p.shape) * 0.3)
opt = torch.optim.SGD(stem.parameters(), lr=0.05, momentum=0.9, nesterov=True)
inp = torch.cos(torch.arange(4 * 3 * 8 * 8, dtype=torch.float32) * 0.03).reshape(4, 3, 8, 8)
target = torch.tensor([0, 1, 1, 0])
for step in range(6):
    opt.zero_grad()
    loss = F.cross_entropy(stem(inp), target)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print(stem[4].filt.requires_grad, stem[2].running_var)
print(len(list(stem.buffers())), [n for n, _ in stem.named_buffers()])
