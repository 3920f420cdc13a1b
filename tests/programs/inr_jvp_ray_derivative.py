# Directional derivatives of a SIREN SDF along camera rays with forward-mode torch.func.jvp
# (d f(o + t d)/dt = grad f . d), vmapped over rays, compared with the reverse-mode gradient,
# and used as a "ray slope" regulariser trained with Adam; linearize reuses one linearization.
import math

import torch
import torch.nn as nn
from torch.func import jvp, linearize, vmap

torch.set_default_dtype(torch.float64)


class Siren(nn.Module):
    def __init__(self, omega=4.0):
        super().__init__()
        self.omega = omega
        self.layers = nn.ModuleList([nn.Linear(3, 16), nn.Linear(16, 16), nn.Linear(16, 1)])
        with torch.no_grad():
            for i, l in enumerate(self.layers):
                b = 1 / l.in_features if i == 0 else math.sqrt(6 / l.in_features) / omega
                l.weight.copy_(3 * b * torch.sin(torch.arange(l.weight.numel()) * 2.17 + i).view_as(l.weight))
                l.bias.copy_(b * torch.cos(torch.arange(l.out_features) * 0.61 + i))

    def forward(self, x):
        for l in self.layers[:-1]:
            x = torch.sin(self.omega * l(x))
        return self.layers[-1](x).squeeze(-1) + x.new_tensor(0.0)


net = Siren()
origins = torch.tensor([[0.0, 0.0, -2.0], [0.5, 0.2, -2.0], [-0.3, 0.4, -2.0], [0.1, -0.6, -2.0]])
dirs = torch.nn.functional.normalize(torch.tensor([[0.0, 0.0, 1.0], [-0.2, -0.1, 1.0], [0.1, -0.2, 1.0], [0.0, 0.3, 1.0]]), dim=-1)
t = torch.tensor(1.5)


def along_ray(o, d, t):
    return net(o + t * d)


value, slope = jvp(lambda s: along_ray(origins[0], dirs[0], s), (t,), (torch.ones(()),))
print("f(o + t d):", value)
print("df/dt:", f"{slope.item():.6f}", slope.shape)

vals, slopes = vmap(lambda o, d: jvp(lambda s: along_ray(o, d, s), (t,), (torch.ones(()),)))(origins, dirs)
print("per-ray values", [f"{v:.5f}" for v in vals.tolist()])
print("per-ray slopes", [f"{v:.5f}" for v in slopes.tolist()])

p = (origins + t * dirs).requires_grad_(True)
(g,) = torch.autograd.grad(net(p).sum(), p)
print("reverse-mode grad . d matches:", torch.allclose((g * dirs).sum(-1), slopes.detach(), atol=1e-10))

out, jvp_fn = linearize(lambda x: net(x), origins[1] + t * dirs[1])
print("linearize out", f"{out.item():.6f}", "along d", f"{jvp_fn(dirs[1]).item():.6f}",
      "along x", f"{jvp_fn(torch.tensor([1.0, 0.0, 0.0])).item():.6f}")

opt = torch.optim.Adam(net.parameters(), lr=5e-3)
ts = torch.linspace(1.0, 2.5, 5)
for step in range(12):
    opt.zero_grad()
    slopes = torch.stack([vmap(lambda o, d: jvp(lambda s: along_ray(o, d, s), (tt,), (torch.ones(()),))[1])(origins, dirs) for tt in ts])
    loss = ((slopes.abs() - 1) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 4 == 0 or step == 11:
        print(f"step {step:2d} slope loss {loss.item():.5f} mean |slope| {slopes.abs().mean().item():.4f}")
