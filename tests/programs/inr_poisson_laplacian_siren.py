# Poisson image reconstruction with a SIREN (Sitzmann et al.): supervise only the Laplacian
# of the network w.r.t. its input coordinates, computed as divergence of the gradient with
# a second autograd.grad per coordinate (create_graph=True), in float64.
import math

import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)


class Siren(nn.Module):
    def __init__(self, hidden=20, omega_0=6.0):
        super().__init__()
        self.omega_0 = omega_0
        self.layers = nn.ModuleList([nn.Linear(2, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, 1)])
        with torch.no_grad():
            for i, l in enumerate(self.layers):
                b = 1 / l.in_features if i == 0 else math.sqrt(6 / l.in_features) / omega_0
                k = torch.arange(l.weight.numel()).reshape(l.weight.shape)
                l.weight.copy_(b * torch.sin(k * 2.3 + i))
                l.bias.copy_(b * torch.cos(torch.arange(l.out_features) * 1.7 + i))

    def forward(self, x):
        for l in self.layers[:-1]:
            x = torch.sin(self.omega_0 * l(x))
        return self.layers[-1](x)


def gradient(y, x, grad_outputs=None):
    if grad_outputs is None:
        grad_outputs = torch.ones_like(y)
    return torch.autograd.grad(y, [x], grad_outputs=grad_outputs, create_graph=True)[0]


def divergence(y, x):
    div = 0.0
    for i in range(y.shape[-1]):
        div = div + torch.autograd.grad(y[..., i], x, torch.ones_like(y[..., i]), create_graph=True)[0][..., i:i + 1]
    return div


def laplace(y, x):
    return divergence(gradient(y, x), x)


side = torch.linspace(-1, 1, 8)
coords = torch.stack(torch.meshgrid(side, side, indexing="ij"), dim=-1).reshape(-1, 2)
# target u = sin(pi x) sin(pi y)  ->  Laplacian = -2 pi^2 u
u_true = torch.sin(math.pi * coords[:, :1]) * torch.sin(math.pi * coords[:, 1:])
lap_true = -2 * math.pi ** 2 * u_true

model = Siren()
x = coords.clone().requires_grad_(True)
y = model(x)
lap = laplace(y, x)
print("laplacian", tuple(lap.shape), lap.grad_fn is not None)
h = 1e-4
def f(p):
    with torch.no_grad():
        return model(p)
e0, e1 = torch.tensor([h, 0.0]), torch.tensor([0.0, h])
fd = (f(coords + e0) + f(coords - e0) + f(coords + e1) + f(coords - e1) - 4 * f(coords)) / h ** 2
print("laplacian vs finite differences:", torch.allclose(lap.detach(), fd, atol=1e-4))

opt = torch.optim.Adam(model.parameters(), lr=1e-3)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.97)
for step in range(20):
    x = coords.clone().requires_grad_(True)
    lap = laplace(model(x), x)
    loss = ((lap - lap_true) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 4 == 0 or step == 19:
        print(f"step {step:2d} laplacian loss {loss.item():.3f} lr {sched.get_last_lr()[0]:.6f}")
print("last-layer bias grad", model.layers[-1].bias.grad)
