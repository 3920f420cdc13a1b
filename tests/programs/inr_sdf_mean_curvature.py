# Mean curvature of an SDF network's level sets: div(grad f / |grad f|) with nested
# autograd.grad(create_graph=True), activations with closed-form slopes (asinh, erf-GELU,
# log1p-softplus), and a curvature regulariser printed with its grad_fn chain.
import math

import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)


class Act(nn.Module):
    def __init__(self, kind):
        super().__init__()
        self.kind = kind

    def forward(self, x):
        if self.kind == "asinh":
            return torch.asinh(3 * x) / 3
        if self.kind == "gelu":
            return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))
        return torch.log1p(torch.exp(x))


class Field(nn.Module):
    def __init__(self, kind, hidden=12):
        super().__init__()
        self.lins = nn.ModuleList([nn.Linear(2, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, 1)])
        self.act = Act(kind)
        with torch.no_grad():
            for i, l in enumerate(self.lins):
                l.weight.copy_(torch.cos(torch.arange(l.weight.numel()) * 0.93 + i).view_as(l.weight) * 0.9)
                l.bias.copy_(torch.sin(torch.arange(l.out_features) * 1.9) * 0.2)

    def forward(self, p):
        h = p
        for l in self.lins[:-1]:
            h = self.act(l(h))
        return self.lins[-1](h) + p.norm(dim=-1, keepdim=True) - 0.6


def mean_curvature(f, x):
    (g,) = torch.autograd.grad(f, x, torch.ones_like(f), create_graph=True)
    n = g / g.norm(dim=-1, keepdim=True)
    div = 0
    for i in range(x.shape[-1]):
        (gi,) = torch.autograd.grad(n[:, i].sum(), x, create_graph=True)
        div = div + gi[:, i]
    return g, n, div


ang = torch.linspace(0, 2 * math.pi, 7)[:-1]
pts = 0.6 * torch.stack([torch.cos(ang), torch.sin(ang)], -1)
for kind in ["asinh", "gelu", "softplus"]:
    model = Field(kind)
    x = pts.clone().requires_grad_(True)
    g, n, kappa = mean_curvature(model(x), x)
    print(kind, "grad", g[:2])
    print(kind, "normal", n[:2])
    print(kind, "curvature", kappa)

model = Field("gelu")
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(10):
    x = pts.clone().requires_grad_(True)
    f = model(x)
    g, n, kappa = mean_curvature(f, x)
    loss = f.pow(2).mean() + 0.1 * ((g.norm(dim=-1) - 1) ** 2).mean() + 0.01 * (kappa - 1 / 0.6).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0 or step == 9:
        print(f"step {step} loss {loss.item():.6f} mean curvature {kappa.mean().item():.4f}")
