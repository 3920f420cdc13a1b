# ConvNeXt-V2 style block run in channels_last: LayerNorm2d (nn.LayerNorm subclass permuting
# NCHW -> NHWC), GlobalResponseNorm over spatial dims, depthwise 7x7 conv (groups=C), and a user
# checking memory formats with is_contiguous(memory_format=torch.channels_last) along the way.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LayerNorm2d(nn.LayerNorm):
    def forward(self, x):
        x = x.permute(0, 2, 3, 1)
        x = F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)
        return x.permute(0, 3, 1, 2)


class GlobalResponseNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.zeros(dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):  # NHWC
        x_g = x.norm(p=2, dim=(1, 2), keepdim=True)
        x_n = x_g / (x_g.mean(dim=-1, keepdim=True) + self.eps)
        return x + torch.addcmul(self.bias.view(1, 1, 1, -1), self.weight.view(1, 1, 1, -1), x * x_n)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.conv_dw = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.grn = GlobalResponseNorm(4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)

    def forward(self, x):
        shortcut = x
        x = self.conv_dw(x)
        x = x.permute(0, 2, 3, 1)
        x = self.fc2(self.grn(F.gelu(self.fc1(self.norm(x)))))
        x = x.permute(0, 3, 1, 2)
        return x + shortcut


torch.manual_seed(0)
stem = nn.Sequential(nn.Conv2d(3, 8, kernel_size=2, stride=2), LayerNorm2d(8, eps=1e-6))
block = Block(8)
with torch.no_grad():
    for i, p in enumerate(list(stem.parameters()) + list(block.parameters())):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).reshape(p.shape) * 0.2)
print(block)
print(stem[1], stem[1].normalized_shape)

x = torch.sin(torch.arange(2 * 3 * 8 * 8, dtype=torch.float32) * 0.05).reshape(2, 3, 8, 8)
xc = x.contiguous(memory_format=torch.channels_last)
print(xc.stride(), xc.is_contiguous(), xc.is_contiguous(memory_format=torch.channels_last))
print(torch.equal(x, xc))

stem = stem.to(memory_format=torch.channels_last)
block = block.to(memory_format=torch.channels_last)
print(stem[0].weight.is_contiguous(memory_format=torch.channels_last), stem[0].weight.stride())
print(block.conv_dw.weight.stride(), block.fc1.weight.stride())

h = stem(xc)
print(h.shape, h.is_contiguous(memory_format=torch.channels_last))
out = block(h)
print(out.shape, out.is_contiguous(memory_format=torch.channels_last))
print(out[0, :, 0, 0])

ref = block(stem(x))
print(torch.allclose(out, ref, atol=1e-5))

opt = torch.optim.SGD(list(stem.parameters()) + list(block.parameters()), lr=0.05)
target = torch.zeros(2, 8, 4, 4)
for step in range(6):
    opt.zero_grad()
    loss = (block(stem(xc)) - target).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", f"{block.grn.weight.grad.abs().sum().item():.5f}")
print(block.conv_dw.weight.grad.shape, block.conv_dw.weight.is_contiguous(memory_format=torch.channels_last))
