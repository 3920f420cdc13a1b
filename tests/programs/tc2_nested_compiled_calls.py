# torch.compile on a function that calls another compiled function (a compiled `gelu_mlp` used by a
# compiled `block`), a compiled module whose forward calls a compiled helper, a disabled helper in
# the middle, and the inner compiled function still called on its own afterwards.
import torch
import torch.nn as nn
import torch.nn.functional as F

W1 = torch.linspace(-0.5, 0.5, 24).view(4, 6)
W2 = torch.cos(torch.arange(24, dtype=torch.float32)).view(6, 4) * 0.3


@torch.compile
def gelu_mlp(x, w1, w2):
    return F.gelu(x @ w1, approximate="tanh") @ w2


@torch.compile
def block(x, w1, w2, scale: float):
    h = F.layer_norm(x, x.shape[-1:])
    return x + scale * gelu_mlp(h, w1, w2)


@torch.compiler.disable
def log_stats(t, tag):
    print(f"  [{tag}] mean={t.mean().item():.4f} shape={tuple(t.shape)}")
    return t


@torch.compile
def two_blocks(x):
    x = block(x, W1, W2, 0.5)
    x = log_stats(x, "mid")
    return block(x, W1, W2, 1.0)


x = torch.sin(torch.arange(12, dtype=torch.float32).view(3, 4))
inner = gelu_mlp(x, W1, W2)
print("inner", torch.round(inner[0], decimals=4))
b = block(x, W1, W2, 0.5)
print("block", torch.round(b[1], decimals=4))
out = two_blocks(x)
print("two blocks", torch.round(out[2], decimals=4))
print("inner again", torch.equal(gelu_mlp(x, W1, W2), inner))

xr = x.clone().requires_grad_()
two_blocks(xr).sum().backward()
print("grad", torch.round(xr.grad[0], decimals=4))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(4, 6)
        self.l2 = nn.Linear(6, 4)

    def forward(self, x):
        return block(x, self.l1.weight.t(), self.l2.weight.t(), 1.0) + self.l2.bias


enc = Encoder()
with torch.no_grad():
    for i, p in enumerate(enc.parameters()):
        p.copy_(torch.linspace(-0.4, 0.4, p.numel()).view_as(p) + 0.05 * i)
cenc = torch.compile(enc)
opt = torch.optim.Adam(enc.parameters(), lr=0.05)
target = torch.zeros(3, 4)
for step in range(6):
    opt.zero_grad()
    loss = F.mse_loss(cenc(x), target)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print("l1 grad", torch.round(enc.l1.weight.grad[0], decimals=5))
print(type(cenc).__name__, type(gelu_mlp).__name__ if not callable(gelu_mlp) else "callable", hasattr(block, "__wrapped__"))
