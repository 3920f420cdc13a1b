# Gradient checkpointing of transformer blocks with torch.utils.checkpoint.checkpoint(use_reentrant=False),
# the gradient_checkpointing_enable() flag pattern, and checkpoint_sequential; grads must match.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


class MLP(nn.Module):
    def __init__(self, dim=6, hidden=12):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class Block(nn.Module):
    def __init__(self, dim=6):
        super().__init__()
        self.norm = nn.RMSNorm(dim)
        self.mlp = MLP(dim)

    def forward(self, x, scale=1.0):
        return x + scale * self.mlp(self.norm(x))


class Model(nn.Module):
    def __init__(self, n_layer=3):
        super().__init__()
        self.blocks = nn.ModuleList(Block() for _ in range(n_layer))
        self.gradient_checkpointing = False

    def gradient_checkpointing_enable(self):
        self.gradient_checkpointing = True

    def forward(self, x):
        for blk in self.blocks:
            if self.gradient_checkpointing and self.training:
                x = checkpoint(blk, x, 0.5, use_reentrant=False)
            else:
                x = blk(x, 0.5)
        return x


def init(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.7 + i).view_as(p) * 0.4)


x = torch.linspace(-1, 1, 24).view(2, 2, 6)
grads = []
for ckpt in (False, True):
    m = Model()
    init(m)
    if ckpt:
        m.gradient_checkpointing_enable()
    out = m(x)
    print(ckpt, out.grad_fn is not None, f"{out.pow(2).mean().item():.5f}")
    out.pow(2).mean().backward()
    grads.append([p.grad.clone() for p in m.parameters()])
print(all(torch.allclose(a, b, atol=1e-6) for a, b in zip(*grads)))
print(grads[1][0].round(decimals=4))

# input that requires grad, keyword argument, no_grad path
xi = x.clone().requires_grad_(True)
blk = Block()
init(blk)
y = checkpoint(blk, xi, scale=2.0, use_reentrant=False)
y.sum().backward()
print(xi.grad[0, 0].round(decimals=4))
with torch.no_grad():
    z = checkpoint(blk, x, use_reentrant=False)
print(z.requires_grad, z.shape)

# checkpoint_sequential over an nn.Sequential
seq = nn.Sequential(*[nn.Sequential(nn.Linear(6, 6), nn.Tanh()) for _ in range(4)])
init(seq)
xs = x.view(4, 6).clone().requires_grad_(True)
out = checkpoint_sequential(seq, 2, xs, use_reentrant=False)
out.sum().backward()
print(out.round(decimals=4)[0], xs.grad.round(decimals=4)[1])

# model.eval() skips checkpointing
m.eval()
print(m(x).grad_fn is not None)
