# Quantization-aware fine-tuning: per-channel symmetric int8 / int4 fake quantization of a Linear weight
# with a straight-through estimator ((x.round() - x).detach() + x), and torch.fake_quantize_per_tensor_affine.
import torch
import torch.nn as nn
import torch.nn.functional as F


def round_ste(x):
    return (x.round() - x).detach() + x


def fake_quant(w, bits=8, dim=-1):
    qmax = 2 ** (bits - 1) - 1
    scale = w.abs().amax(dim=dim, keepdim=True).clamp(min=1e-8) / qmax
    q = torch.clamp(round_ste(w / scale), -qmax - 1, qmax)
    return q * scale


class QATLinear(nn.Linear):
    def __init__(self, *args, bits=8, **kwargs):
        super().__init__(*args, **kwargs)
        self.bits = bits

    def forward(self, x):
        return F.linear(x, fake_quant(self.weight, self.bits), self.bias)

    def extra_repr(self):
        return super().extra_repr() + f", bits={self.bits}"


w = torch.linspace(-1, 1, 12).view(3, 4).requires_grad_(True)
wq = fake_quant(w, bits=4)
print(wq.round(decimals=4))
print(wq.grad_fn.name())
wq.sum().backward()
print(w.grad)

x = torch.linspace(-1.3, 1.7, 7, requires_grad=True)
y = round_ste(x)
print(y, y.grad_fn)
(y * torch.arange(7.0)).sum().backward()
print(x.grad)

layer = QATLinear(4, 2, bits=4)
with torch.no_grad():
    layer.weight.copy_(torch.sin(torch.arange(8.0)).view(2, 4))
    layer.bias.fill_(0.1)
print(layer)
inp = torch.cos(torch.arange(12.0)).view(3, 4)
opt = torch.optim.SGD(layer.parameters(), lr=0.1, momentum=0.9)
for step in range(5):
    loss = (layer(inp) - 1).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", layer.weight.grad.abs().sum().item() > 0)
with torch.no_grad():
    levels = fake_quant(layer.weight, bits=4) / (layer.weight.abs().amax(-1, keepdim=True) / 7)
print(levels.round())

t = torch.linspace(-2, 2, 9, requires_grad=True)
fq = torch.fake_quantize_per_tensor_affine(t, 0.25, 0, -8, 7)
print(fq)
fq.sum().backward()
print(t.grad)
zp = torch.fake_quantize_per_channel_affine(torch.arange(6.0).view(2, 3) / 3, torch.tensor([0.1, 0.5]), torch.tensor([0, 1], dtype=torch.int32), 0, 0, 255)
print(zp)
