# Subclassing nn.Conv1d / nn.ConvTranspose1d the way audio repos do: weight-standardized conv
# overriding forward via self._conv_forward, a causal conv trimming the right side, and a
# transposed-conv upsampler that computes its own output padding with self._output_padding.
import torch
import torch.nn as nn
import torch.nn.functional as F

class WSConv1d(nn.Conv1d):
    def forward(self, x):
        w = self.weight
        mean = w.mean(dim=(1, 2), keepdim=True)
        var = w.var(dim=(1, 2), keepdim=True, unbiased=False)
        w = (w - mean) / torch.sqrt(var + 1e-5)
        return self._conv_forward(x, w, self.bias)

class CausalConv1d(nn.Conv1d):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.trim = (self.kernel_size[0] - 1) * self.dilation[0]

    def forward(self, x):
        x = F.pad(x, (self.trim, 0))
        return self._conv_forward(x, self.weight, self.bias)

class Upsampler(nn.ConvTranspose1d):
    def forward(self, x, target_len):
        op = self._output_padding(x, [target_len], self.stride, self.padding, self.kernel_size, 1, self.dilation)
        return F.conv_transpose1d(x, self.weight, self.bias, self.stride, self.padding, op, self.groups, self.dilation)

def fill(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.4 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).reshape(p.shape))
    return m

x = torch.sin(torch.arange(2 * 3 * 16, dtype=torch.float32).reshape(2, 3, 16) * 0.45)
ws = fill(WSConv1d(3, 4, 5, padding=2))
y = ws(x)
print(ws, y.shape, y[0, :, :4].round(decimals=4))
print(isinstance(ws, nn.Conv1d), isinstance(ws, nn.modules.conv._ConvNd))
y.pow(2).mean().backward()
print(ws.weight.grad.abs().sum().round(decimals=4), ws.bias.grad.round(decimals=4))

ws_reflect = fill(WSConv1d(3, 4, 3, padding=1, padding_mode="reflect"))
print(ws_reflect(x).shape, ws_reflect(x)[1, 0, :5].round(decimals=4))

causal = fill(CausalConv1d(3, 2, 3, dilation=2))
out = causal(x)
print(causal, causal.trim, out.shape)
probe = x.clone().requires_grad_(True)
causal(probe)[0, :, 7].sum().backward()
print("depends on future:", bool(probe.grad[0, :, 8:].abs().sum() > 0), probe.grad[0, 0, :9].round(decimals=4))

up = fill(Upsampler(4, 2, 4, stride=4))
h = torch.cos(torch.arange(2 * 4 * 5, dtype=torch.float32).reshape(2, 4, 5))
for n in (20, 21, 23):
    print(n, up(h, n).shape)
try:
    up(h, 30)
except ValueError as e:
    print(type(e).__name__, e)
print(up(h, 22)[0, 0, -5:].round(decimals=4))
