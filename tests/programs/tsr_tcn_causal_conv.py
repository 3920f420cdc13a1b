# Temporal Convolutional Network in the style of the Bai et al. TCN repo: causal Conv1d via
# F.pad on the left, dilations 1,2,4, weight_norm'd convolutions, residual 1x1 downsample,
# receptive-field check by gradient, and a short training run on a sine series.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import weight_norm


class CausalConv1d(nn.Module):
    def __init__(self, cin, cout, k, dilation):
        super().__init__()
        self.pad = (k - 1) * dilation
        self.conv = weight_norm(nn.Conv1d(cin, cout, k, dilation=dilation))

    def forward(self, x):
        return self.conv(F.pad(x, (self.pad, 0)))


class TemporalBlock(nn.Module):
    def __init__(self, cin, cout, k, dilation):
        super().__init__()
        self.c1 = CausalConv1d(cin, cout, k, dilation)
        self.c2 = CausalConv1d(cout, cout, k, dilation)
        self.down = nn.Conv1d(cin, cout, 1) if cin != cout else None

    def forward(self, x):
        y = F.relu(self.c1(x))
        y = F.relu(self.c2(y))
        res = x if self.down is None else self.down(x)
        return F.relu(y + res)


class TCN(nn.Module):
    def __init__(self, channels=(1, 4, 4, 4), k=2):
        super().__init__()
        self.blocks = nn.Sequential(*[TemporalBlock(channels[i], channels[i + 1], k, 2 ** i)
                                      for i in range(len(channels) - 1)])
        self.head = nn.Conv1d(channels[-1], 1, 1)

    def forward(self, x):
        return self.head(self.blocks(x))


model = TCN()
print([k for k in model.state_dict().keys()][:6])
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(0.4 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).reshape(p.shape))
        if n.endswith("weight_g"):
            p.abs_().add_(0.1)
print(model.blocks[0].c1.conv.weight_g.shape, model.blocks[0].c1.conv.weight_v.shape)

# receptive field: gradient of the last output w.r.t. the input
x = torch.zeros(1, 1, 32, requires_grad=True)
model(x)[0, 0, -1].backward()
nz = (x.grad[0, 0] != 0).nonzero().flatten()
print("receptive field", nz.min().item(), nz.max().item(), len(nz))
x2 = torch.zeros(1, 1, 32, requires_grad=True)
model(x2)[0, 0, 10].backward()
print("causal: future grads zero", bool((x2.grad[0, 0, 11:] == 0).all()))

t = torch.arange(80, dtype=torch.float32)
s = torch.sin(0.3 * t)
inp, tgt = s[:-1].reshape(1, 1, -1), s[1:].reshape(1, 1, -1)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range(25):
    opt.zero_grad()
    loss = F.mse_loss(model(inp), tgt)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.4f} grad-norm {gn.item():.3f}")
w = model.blocks[1].c2.conv
print(w.weight.grad_fn is not None, w.weight_g.grad.shape)
print(torch.allclose(w.weight, w.weight_g * w.weight_v / w.weight_v.norm(dim=(1, 2), keepdim=True)))
