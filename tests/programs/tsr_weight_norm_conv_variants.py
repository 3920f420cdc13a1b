# WaveNet / TCN variants seen in repos: old-style nn.utils.weight_norm (repr, weight_g/weight_v,
# remove_weight_norm, dim=None, dim=2) vs nn.utils.parametrizations.weight_norm (state_dict keys
# original0/original1), causal conv by symmetric padding + "Chomp1d" slicing, padding="same"
# with dilation, gated tanh*sigmoid activations, and gradients through all of it.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import remove_weight_norm, weight_norm
from torch.nn.utils.parametrizations import weight_norm as pweight_norm


def fill(m, scale=0.3):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(scale * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).reshape(p.shape))


conv = nn.Conv1d(2, 3, 3, padding=2, dilation=1)
fill(conv)
w_before = conv.weight.detach().clone()
conv = weight_norm(conv)
print(conv, sorted(n for n, _ in conv.named_parameters()))
print(conv.weight_g.shape, conv.weight_v.shape, torch.allclose(conv.weight, w_before))
print(conv.weight_g.flatten())
conv2 = weight_norm(nn.Conv1d(2, 3, 3), dim=None)
print(conv2.weight_g.shape, conv2.weight_g.dim())
conv3 = weight_norm(nn.Conv1d(2, 3, 3), name="weight", dim=2)
print(conv3.weight_g.shape)
lin = weight_norm(nn.Linear(4, 2), dim=1)
print(lin.weight_g.shape)
try:
    weight_norm(conv)
except Exception as e:
    print(type(e).__name__, e)


class Chomp1d(nn.Module):
    def __init__(self, chomp_size):
        super().__init__()
        self.chomp_size = chomp_size

    def forward(self, x):
        return x[:, :, :-self.chomp_size].contiguous()


x = torch.sin(torch.linspace(0, 6, 2 * 2 * 10)).reshape(2, 2, 10).requires_grad_()
y = Chomp1d(2)(conv(x))
print(y.shape, y.grad_fn.name())
y2 = F.conv1d(F.pad(x, (2, 0)), conv.weight, conv.bias)  # Chomp1d == left padding only
print(y.shape == y2.shape, torch.allclose(y, y2, atol=1e-6))
y.pow(2).mean().backward()
print(conv.weight_g.grad.flatten(), conv.weight_v.grad.shape)
print(x.grad[0, 0])

remove_weight_norm(conv)
print(sorted(n for n, _ in conv.named_parameters()), type(conv.weight).__name__)
try:
    remove_weight_norm(conv)
except Exception as e:
    print(type(e).__name__, e)

pconv = pweight_norm(nn.Conv1d(2, 4, 2, dilation=2))
fill(pconv)
print(list(pconv.state_dict().keys()))
print(pconv.parametrizations.weight.original0.shape, pconv.parametrizations.weight.original1.shape)

same = nn.Conv1d(2, 4, 3, padding="same", dilation=2)
fill(same)
out = same(x)
print(out.shape)
try:
    nn.Conv1d(2, 4, 3, padding="same", stride=2)
except Exception as e:
    print(type(e).__name__, e)

filt, gate = nn.Conv1d(2, 4, 2, dilation=4), nn.Conv1d(2, 4, 2, dilation=4)
fill(filt, 0.2)
fill(gate, -0.2)
xp = F.pad(x, (4, 0))
z = torch.tanh(filt(xp)) * torch.sigmoid(gate(xp))
print(z.shape, z.grad_fn.name())
z.sum().backward()
print(filt.weight.grad.sum(dim=(1, 2)), gate.bias.grad)
print(F.pad(torch.arange(6.0).reshape(1, 1, 6), (3, 0), mode="replicate"))
print(F.pad(torch.arange(6.0).reshape(1, 1, 6), (2, 1), mode="reflect"))
print(F.pad(torch.arange(6.0).reshape(1, 1, 6), (2, 0), value=-1.0))
