# Neural-ODE style training by backpropagating through an explicit solver ("discretize then
# optimize"): an explicit Euler loop and a classic RK4 loop integrating dy/dt = f_theta(t, y),
# a loss on the trajectory (torch.stack of the states), gradients w.r.t. the parameters and the
# initial condition, and a check of the solver against the exact solution of a linear ODE.
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=6)


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(0.4 * torch.cos(torch.arange(p.numel()) * 1.1 + i).reshape(p.shape))
        self.nfe = 0

    def forward(self, t, y):
        self.nfe += 1
        return self.net(y) + 0.1 * t


def euler(f, y0, t):
    ys = [y0]
    y = y0
    for t0, t1 in zip(t[:-1], t[1:]):
        y = y + (t1 - t0) * f(t0, y)
        ys.append(y)
    return torch.stack(ys)


def rk4(f, y0, t):
    ys = [y0]
    y = y0
    for t0, t1 in zip(t[:-1], t[1:]):
        h = t1 - t0
        k1 = f(t0, y)
        k2 = f(t0 + h / 2, y + h * k1 / 2)
        k3 = f(t0 + h / 2, y + h * k2 / 2)
        k4 = f(t1, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)


# sanity check on dy/dt = A y with a known solution y(t) = expm(tA) y0
A = torch.tensor([[0.0, 1.0], [-1.0, 0.0]])
y0 = torch.tensor([1.0, 0.0])
t = torch.linspace(0, 1, 11)
ys_e = euler(lambda t, y: y @ A.T, y0, t)
ys_r = rk4(lambda t, y: y @ A.T, y0, t)
exact = torch.linalg.matrix_exp(A) @ y0
print(ys_e.shape, ys_e[-1], ys_r[-1], exact)
print(f"euler err {(ys_e[-1] - exact).norm():.3e}  rk4 err {(ys_r[-1] - exact).norm():.3e}")

# learnable dynamics, batch of initial conditions
func = ODEFunc()
y0 = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.5, -0.5]], requires_grad=True)
t = torch.linspace(0.0, 1.0, 6)
traj = rk4(func, y0, t)
print(traj.shape, traj.grad_fn.name(), func.nfe)
target = torch.stack([torch.cos(t), -torch.sin(t)], dim=1).unsqueeze(1).expand(-1, 3, -1)
loss = (traj - target).pow(2).mean()
loss.backward()
print(f"loss {loss.item():.6f}")
print(y0.grad)
print(func.net[0].weight.grad[:2])
print(func.net[2].bias.grad)

# a few training steps through the Euler solver
opt = torch.optim.Adam(func.parameters(), lr=0.05)
for step in range(5):
    opt.zero_grad()
    traj = euler(func, y0.detach(), t)
    loss = torch.nn.functional.mse_loss(traj, target)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(func.parameters(), max_norm=1.0)
    opt.step()
    print(step, f"{loss.item():.6f}", f"{gn.item():.6f}")

# gradient of the final state with respect to the time horizon
T = torch.tensor(1.0, requires_grad=True)
ts = T * torch.linspace(0, 1, 5)
yT = rk4(lambda s, y: y @ A.T, torch.tensor([1.0, 0.0]), ts)[-1]
dT, = torch.autograd.grad(yT[0], T)
print(yT, dT, ts.grad_fn.name())
print(traj.dtype, torch.get_default_dtype(), t.dtype, torch.tensor(1.5).dtype)
