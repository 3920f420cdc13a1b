# Mixed-precision MLP blocks as in LLM repos cast to float16: SwiGLU (F.silu), GeGLU (F.gelu exact and
# tanh), Mish/Softplus/ELU heads; printing half-precision activations and their gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedMLP(nn.Module):
    def __init__(self, dim, hidden, act):
        super().__init__()
        self.gate_proj = nn.Linear(dim, hidden, bias=False)
        self.up_proj = nn.Linear(dim, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)
        self.act = act

    def forward(self, x):
        return self.down_proj(self.act(self.gate_proj(x)) * self.up_proj(x))


x = torch.linspace(-3, 3, 16).view(2, 8)
acts = {"swiglu": nn.SiLU(), "geglu": nn.GELU(), "geglu_tanh": nn.GELU(approximate="tanh")}
for name, act in acts.items():
    mlp = GatedMLP(8, 12, act)
    with torch.no_grad():
        for i, p in enumerate(mlp.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.41 + i).view_as(p) * 0.6)
    mlp.half()
    xh = x.half().requires_grad_(True)
    out = mlp(xh)
    out.float().pow(2).mean().backward()
    print(name, out.dtype, out[0, :4])
    print(xh.grad[1, :4], mlp.gate_proj.weight.grad[0, :4])

t = torch.linspace(-5, 5, 11, dtype=torch.float16, requires_grad=True)
for fn in (F.silu, F.gelu, lambda v: F.gelu(v, approximate="tanh"), F.mish, F.softplus, F.elu,
           F.selu, F.celu, F.hardswish, lambda v: F.leaky_relu(v, 0.1)):
    y = fn(t)
    (g,) = torch.autograd.grad(y.sum(), t)
    print(y.grad_fn.name(), y[2:9], g[2:9])
glu_in = torch.linspace(-2, 2, 12, dtype=torch.float16).view(2, 6)
print(F.glu(glu_in, dim=-1))
prelu = nn.PReLU(3, init=0.15).half()
print(prelu(glu_in.view(4, 3)))
