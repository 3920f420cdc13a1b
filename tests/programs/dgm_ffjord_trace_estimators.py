# Continuous normalizing flow / sliced score matching utilities (FFJORD, Song et al. 2019):
# exact divergence via autograd.functional.jacobian and torch.func (vmap + jacrev), Hutchinson
# trace estimate with fixed Rademacher vectors, Euler integration of the log-density ODE.
import torch
import torch.nn as nn
from torch.func import vmap, jacrev, grad
from torch.autograd.functional import jacobian


class ODEFunc(nn.Module):
    def __init__(self, d=2, h=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d + 1, h), nn.Tanh(), nn.Linear(h, d))

    def forward(self, t, x):
        tt = torch.full((x.shape[0], 1), t)
        return self.net(torch.cat([x, tt], dim=-1))


f = ODEFunc()
with torch.no_grad():
    for i, p in enumerate(f.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i).view(p.shape))

x = torch.stack([torch.linspace(-1, 1, 6), torch.cos(torch.linspace(0, 3, 6))], 1)
J = jacobian(lambda inp: f(0.5, inp), x)
print(J.shape)
exact_div = torch.einsum("bibi->b", J)
print(exact_div)


def single(xi):
    return f(0.5, xi.unsqueeze(0)).squeeze(0)


Jv = vmap(jacrev(single))(x)
print(Jv.shape, torch.allclose(Jv.diagonal(dim1=-2, dim2=-1).sum(-1), exact_div, atol=1e-6))

eps = torch.tensor([[1.0, -1.0], [-1.0, -1.0], [1.0, 1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]])
xr = x.clone().requires_grad_(True)
out = f(0.5, xr)
e_dzdx = torch.autograd.grad(out, xr, eps, create_graph=True)[0]
hutch = (e_dzdx * eps).sum(1)
print(hutch)
print(hutch.grad_fn is not None)

energy = lambda xi: (xi ** 2).sum() + torch.sin(xi).prod()
print(vmap(grad(energy))(x))

z, logp = x.clone(), torch.zeros(6)
n_steps = 10
for k in range(n_steps):
    t = k / n_steps
    zr = z.requires_grad_(True)
    dz = f(t, zr)
    div = sum(torch.autograd.grad(dz[:, i].sum(), zr, retain_graph=True)[0][:, i] for i in range(2))
    z = (z + dz / n_steps).detach()
    logp = logp - div.detach() / n_steps
print(z)
print(logp)
base_logp = -0.5 * (z ** 2).sum(1) - torch.log(torch.tensor(2 * torch.pi))
print((base_logp - logp).mean())
