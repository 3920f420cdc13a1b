# timm StdConv2d / ScaledStdConv2d (weight standardization through F.batch_norm on the weight
# reshaped to (1, out, -1)), Conv2dSame with TF "SAME" padding computed by get_same_padding and
# applied with F.pad, compared against nn.Conv2d(padding="same") for stride 1.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_same_padding(x: int, kernel_size: int, stride: int, dilation: int):
    return max((math.ceil(x / stride) - 1) * stride + (kernel_size - 1) * dilation + 1 - x, 0)


def pad_same(x, kernel_size, stride, dilation=(1, 1), value=0):
    ih, iw = x.size()[-2:]
    pad_h = get_same_padding(ih, kernel_size[0], stride[0], dilation[0])
    pad_w = get_same_padding(iw, kernel_size[1], stride[1], dilation[1])
    return F.pad(x, (pad_w // 2, pad_w - pad_w // 2, pad_h // 2, pad_h - pad_h // 2), value=value)


class Conv2dSame(nn.Conv2d):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, padding=0, **kwargs)

    def forward(self, x):
        x = pad_same(x, self.kernel_size, self.stride, self.dilation)
        return F.conv2d(x, self.weight, self.bias, self.stride, (0, 0), self.dilation, self.groups)


class StdConv2d(nn.Conv2d):
    def __init__(self, in_channel, out_channels, kernel_size, stride=1, padding=None, bias=False, eps=1e-6):
        if padding is None:
            padding = ((stride - 1) + (kernel_size - 1)) // 2
        super().__init__(in_channel, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)
        self.eps = eps

    def forward(self, x):
        weight = F.batch_norm(self.weight.reshape(1, self.out_channels, -1), None, None,
                              training=True, momentum=0., eps=self.eps).reshape_as(self.weight)
        return F.conv2d(x, weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class ScaledStdConv2d(nn.Conv2d):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=1, gamma=1.0, eps=1e-6):
        super().__init__(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=True)
        self.gain = nn.Parameter(torch.full((self.out_channels, 1, 1, 1), 1.0))
        self.scale = gamma * self.weight[0].numel() ** -0.5
        self.eps = eps

    def forward(self, x):
        weight = F.batch_norm(self.weight.reshape(1, self.out_channels, -1), None, None,
                              weight=(self.gain * self.scale).view(-1), training=True,
                              momentum=0., eps=self.eps).reshape_as(self.weight)
        return F.conv2d(x, weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


def fill(m, k=0.37):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * k + i).reshape(p.shape))
    return m


print([get_same_padding(s, 3, 2, 1) for s in (7, 8, 9, 10)], get_same_padding(5, 5, 1, 2))
x = torch.cos(torch.arange(2 * 3 * 7 * 8, dtype=torch.float32) * 0.13).reshape(2, 3, 7, 8)
for stride in (1, 2):
    c = fill(Conv2dSame(3, 4, 3, stride=stride))
    y = c(x)
    print(stride, y.shape, y[0, 0, 0].detach())
c1 = fill(Conv2dSame(3, 4, (3, 4), dilation=(1, 2)))
ref = fill(nn.Conv2d(3, 4, (3, 4), padding="same", dilation=(1, 2)))
print(ref, torch.allclose(c1(x), ref(x), atol=1e-5), c1(x).shape)

std = fill(StdConv2d(3, 4, 3))
w = F.batch_norm(std.weight.reshape(1, 4, -1), None, None, training=True, momentum=0., eps=1e-6).reshape_as(std.weight)
print(w.flatten(1).mean(1).abs().max() < 1e-5, w.flatten(1).var(1, unbiased=False).detach())
print(std(x)[1, :, 3, 3].detach(), std.padding)
ss = fill(ScaledStdConv2d(3, 4, 3))
print(round(ss.scale, 6), ss(x)[0, :, 0, 0].detach())

opt = torch.optim.SGD(list(std.parameters()) + list(ss.parameters()), lr=0.05)
for step in range(6):
    opt.zero_grad()
    loss = (std(x) - ss(x)).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", f"{ss.gain.grad.abs().sum().item():.5f}")
try:
    nn.Conv2d(3, 4, 3, stride=2, padding="same")
except ValueError as e:
    print(type(e).__name__, e)
