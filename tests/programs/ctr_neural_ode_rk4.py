# A neural ODE trained through a hand-written fixed-step RK4 integrator (torchdiffeq-free tutorials):
# an ODEFunc module with a time input, odeint returning the whole trajectory with torch.stack,
# MSE against a spiral, Adam, and the gradient w.r.t. the initial state.
import torch
import torch.nn as nn


class ODEFunc(nn.Module):
    def __init__(self, dim=2, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, hidden), nn.Tanh(), nn.Linear(hidden, dim))
        self.nfe = 0

    def forward(self, t, y):
        self.nfe += 1
        tt = torch.ones_like(y[..., :1]) * t
        return self.net(torch.cat([tt, y], dim=-1))


def rk4_step(func, t, dt, y):
    k1 = func(t, y)
    k2 = func(t + dt / 2, y + dt * k1 / 2)
    k3 = func(t + dt / 2, y + dt * k2 / 2)
    k4 = func(t + dt, y + dt * k3)
    return y + dt * (k1 + 2 * k2 + 2 * k3 + k4) / 6


def odeint(func, y0, t):
    ys = [y0]
    y = y0
    for t0, t1 in zip(t[:-1], t[1:]):
        y = rk4_step(func, t0, t1 - t0, y)
        ys.append(y)
    return torch.stack(ys)


true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])
t = torch.linspace(0.0, 1.5, 16)
y0 = torch.tensor([[2.0, 0.0]])
with torch.no_grad():
    true_y = odeint(lambda t, y: (y ** 3) @ true_A, y0, t)
print(true_y.shape, true_y[-1])

func = ODEFunc()
with torch.no_grad():
    for i, p in enumerate(func.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.77 + i).view(p.shape) * 0.3)

pred = odeint(func, y0, t)
print(pred.shape, pred.grad_fn.name(), func.nfe)
opt = torch.optim.Adam(func.parameters(), lr=0.02)
for itr in range(25):
    opt.zero_grad()
    pred_y = odeint(func, y0, t)
    loss = torch.mean(torch.abs(pred_y - true_y))
    loss.backward()
    opt.step()
    if itr % 5 == 0:
        print(f"Iter {itr:04d} | Total Loss {loss.item():.4f} | NFE {func.nfe}")

# gradient of the final state w.r.t. the initial condition (sensitivity)
y_init = y0.clone().requires_grad_(True)
yT = odeint(func, y_init, t)[-1]
yT.sum().backward()
print(y_init.grad.shape, torch.isfinite(y_init.grad).all())
J = torch.autograd.functional.jacobian(lambda y: odeint(func, y, t[:5])[-1], y0)
print(J.shape)
with torch.no_grad():
    print(f"{(odeint(func, y0, t) - true_y).abs().mean().item():.3f}")
