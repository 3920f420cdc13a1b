# timm EfficientNet pieces in channels_last: make_divisible for SE reduced channels, SqueezeExcite
# with x.mean((2, 3), keepdim=True) and a sigmoid gate, Swish as x * x.sigmoid(), and the user
# checking is_contiguous(memory_format=torch.channels_last) after each stage.
import torch
import torch.nn as nn


def make_divisible(v, divisor=8, min_value=None, round_limit=0.9):
    min_value = min_value or divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < round_limit * v:
        new_v += divisor
    return new_v


class Swish(nn.Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, x):
        return x.mul_(x.sigmoid()) if self.inplace else x.mul(x.sigmoid())


class SqueezeExcite(nn.Module):
    def __init__(self, in_chs, rd_ratio=0.25, rd_divisor=4):
        super().__init__()
        rd_channels = make_divisible(in_chs * rd_ratio, rd_divisor, round_limit=0.)
        self.conv_reduce = nn.Conv2d(in_chs, rd_channels, 1, bias=True)
        self.act1 = nn.ReLU(inplace=True)
        self.conv_expand = nn.Conv2d(rd_channels, in_chs, 1, bias=True)

    def forward(self, x):
        x_se = x.mean((2, 3), keepdim=True)
        x_se = self.conv_expand(self.act1(self.conv_reduce(x_se)))
        return x * x_se.sigmoid()


class DepthwiseSeparable(nn.Module):
    def __init__(self, chs):
        super().__init__()
        self.conv_dw = nn.Conv2d(chs, chs, 3, padding=1, groups=chs, bias=False)
        self.bn1 = nn.BatchNorm2d(chs)
        self.act = Swish()
        self.se = SqueezeExcite(chs)
        self.conv_pw = nn.Conv2d(chs, chs, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(chs)

    def forward(self, x):
        shortcut = x
        x = self.act(self.bn1(self.conv_dw(x)))
        print("  after act", x.is_contiguous(memory_format=torch.channels_last))
        x = self.se(x)
        print("  after se ", x.is_contiguous(memory_format=torch.channels_last))
        x = self.bn2(self.conv_pw(x))
        return x + shortcut


for v, d in [(32 * 0.25, 8), (24 * 0.25, 4), (96 * 0.25, 8), (10, 8), (300 * 1.1, 8), (17, 16)]:
    print(v, d, make_divisible(v, d))
print([make_divisible(c * 1.2) for c in (16, 24, 40, 80, 112, 192, 320)])

block = DepthwiseSeparable(8)
with torch.no_grad():
    for i, p in enumerate(block.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + i).reshape(p.shape) * 0.5)
print(block.se)

x = torch.cos(torch.arange(2 * 8 * 5 * 5, dtype=torch.float32) * 0.11).reshape(2, 8, 5, 5)
block = block.to(memory_format=torch.channels_last)
xc = x.to(memory_format=torch.channels_last)
block.train()
out = block(xc)
print(out.shape, out.is_contiguous(memory_format=torch.channels_last), out.is_contiguous())
print(out[1, :, 2, 2].detach())
s = Swish()(xc)
print(s.is_contiguous(memory_format=torch.channels_last), s.stride())
si = Swish(inplace=True)(xc.clone())
print(si.stride(), torch.allclose(s, si))
g = xc.sigmoid()
print(g.stride(), torch.sigmoid(xc).is_contiguous(memory_format=torch.channels_last))

opt = torch.optim.SGD(block.parameters(), lr=0.1)
for step in range(5):
    opt.zero_grad()
    loss = block(xc).square().mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print(block.bn1.running_mean)
print(block.conv_dw.weight.grad.is_contiguous(memory_format=torch.channels_last))
