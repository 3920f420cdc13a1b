# Meta-learning a SIREN initialization (MetaSDF / Learned-Init style): a few inner SGD steps
# on each 1-D signal through torch.func.functional_call with autograd.grad(create_graph=True),
# per-parameter learned inner learning rates, and an outer Adam step on the meta-loss.
import math

import torch
import torch.nn as nn
from torch.func import functional_call

torch.set_default_dtype(torch.float64)


class Siren(nn.Module):
    def __init__(self, hidden=16, omega=8.0):
        super().__init__()
        self.omega = omega
        self.layers = nn.ModuleList([nn.Linear(1, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, 1)])
        with torch.no_grad():
            for i, l in enumerate(self.layers):
                b = 1.0 if i == 0 else math.sqrt(6 / l.in_features) / omega
                l.weight.copy_(b * torch.sin(torch.arange(l.weight.numel()) * 1.618 + i).view_as(l.weight))
                l.bias.copy_(0.1 * b * torch.cos(torch.arange(l.out_features) * 0.7))

    def forward(self, x):
        for l in self.layers[:-1]:
            x = torch.sin(self.omega * l(x))
        return self.layers[-1](x)


model = Siren()
names = [n for n, _ in model.named_parameters()]
log_lrs = nn.ParameterDict({n.replace(".", "_"): nn.Parameter(torch.full_like(p, math.log(1e-2)))
                            for n, p in model.named_parameters()})
print("meta params:", list(log_lrs.keys())[:3], "...", len(log_lrs))

x = torch.linspace(-1, 1, 32).unsqueeze(-1)
tasks = [torch.sin(math.pi * (k + 1) * x / 2 + 0.3 * k) * (0.5 + 0.1 * k) for k in range(4)]


def adapt(params, y, steps=3):
    for _ in range(steps):
        loss = (functional_call(model, params, (x,)) - y).pow(2).mean()
        grads = torch.autograd.grad(loss, list(params.values()), create_graph=True)
        params = {n: p - log_lrs[n.replace(".", "_")].exp() * g
                  for (n, p), g in zip(params.items(), grads)}
    return params


outer = torch.optim.Adam(list(model.parameters()) + list(log_lrs.parameters()), lr=1e-3)
for epoch in range(6):
    outer.zero_grad()
    meta_loss = 0.0
    before = 0.0
    for y in tasks:
        params = dict(model.named_parameters())
        with torch.no_grad():
            before += (model(x) - y).pow(2).mean().item() / len(tasks)
        fast = adapt(params, y)
        meta_loss = meta_loss + (functional_call(model, fast, (x,)) - y).pow(2).mean() / len(tasks)
    meta_loss.backward()
    outer.step()
    print(f"epoch {epoch} before-adapt {before:.4f} after-adapt {meta_loss.item():.4f}")

lr_grad = log_lrs["layers_0_weight"].grad
print("inner lr grad", tuple(lr_grad.shape), f"{lr_grad.abs().sum().item():.6f}")
print("fast weight grad_fn:", type(fast["layers.2.bias"].grad_fn).__name__)
print("lrs:", {k: f"{v.exp().mean().item():.5f}" for k, v in list(log_lrs.items())[:2]})
