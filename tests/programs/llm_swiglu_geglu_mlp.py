# LLaMA's FeedForward (SwiGLU: w2(silu(w1 x) * w3 x)) with the multiple_of hidden-size rounding,
# a fused gate_up projection split with chunk, and the GEGLU variant with gelu(approximate='tanh').
import torch
import torch.nn as nn
import torch.nn.functional as F


def fixed_init(model):
    for name, p in model.named_parameters():
        with torch.no_grad():
            p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3).view(p.shape))


class FeedForward(nn.Module):
    def __init__(self, dim, hidden_dim, multiple_of, ffn_dim_multiplier=None):
        super().__init__()
        hidden_dim = int(2 * hidden_dim / 3)
        if ffn_dim_multiplier is not None:
            hidden_dim = int(ffn_dim_multiplier * hidden_dim)
        hidden_dim = multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of)
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class FusedSwiGLU(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.gate_up_proj = nn.Linear(dim, 2 * hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)
        self.act_fn = nn.SiLU()

    def forward(self, x):
        gate, up = self.gate_up_proj(x).chunk(2, dim=-1)
        return self.down_proj(self.act_fn(gate) * up)


class GEGLU(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.proj = nn.Linear(dim_in, dim_out * 2)

    def forward(self, x):
        x, gate = self.proj(x).chunk(2, dim=-1)
        return x * F.gelu(gate, approximate="tanh")


ff = FeedForward(dim=4, hidden_dim=4 * 4, multiple_of=8)
fixed_init(ff)
print(ff)
print({n: tuple(p.shape) for n, p in ff.named_parameters()})
print("params:", sum(p.numel() for p in ff.parameters()))
print(FeedForward(dim=6, hidden_dim=24, multiple_of=4, ffn_dim_multiplier=1.3).w1)

x = torch.linspace(-1, 1, 8).view(2, 4)
y = ff(x)
print(y, y.grad_fn.name())

fused = FusedSwiGLU(4, 16)
with torch.no_grad():
    fused.gate_up_proj.weight.copy_(torch.cat([ff.w1.weight, ff.w3.weight], dim=0))
    fused.down_proj.weight.copy_(ff.w2.weight)
print(fused)
print(torch.allclose(fused(x), y, atol=1e-6))
gate, up = fused.gate_up_proj(x).chunk(2, dim=-1)
print(gate.shape, up.shape, gate.is_contiguous(), gate.stride(), up.storage_offset())
print(gate.grad_fn.name(), fused.act_fn(gate).grad_fn.name())

y.sum().backward()
print(ff.w2.weight.grad[:, :4])
print(ff.w1.weight.grad.norm(), ff.w3.weight.grad.norm())

geglu = GEGLU(4, 3)
fixed_init(geglu)
print(geglu, geglu.proj.bias)
g = geglu(x)
print(g, g.grad_fn.name())
print(F.gelu(torch.tensor([-1.0, 0.0, 1.0]), approximate="tanh"), F.gelu(torch.tensor([-1.0, 0.0, 1.0])))
print(nn.GELU(approximate="tanh"), nn.SiLU(inplace=True), nn.Mish())

# torch.sigmoid(x) * x is what silu computes
a = torch.tensor([-3.0, -0.5, 0.0, 2.0], requires_grad=True)
b = a.detach().clone().requires_grad_(True)
F.silu(a).sum().backward()
(b * torch.sigmoid(b)).sum().backward()
print(a.grad, b.grad, torch.allclose(a.grad, b.grad))
try:
    F.gelu(x, approximate="fast")
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.ones(2, 5).chunk(2, dim=-1)[1] * torch.ones(2, 3)
except RuntimeError as e:
    print(type(e).__name__, e)
print([t.shape for t in torch.ones(2, 5).chunk(2, dim=-1)], [t.shape for t in torch.ones(2, 5).split(2, dim=-1)])
