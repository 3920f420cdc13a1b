# PINN for the KdV equation u_t + 6 u u_x + u_xxx = 0: third spatial derivative by three nested
# torch.autograd.grad(create_graph=True, grad_outputs=ones_like) calls, soliton initial condition,
# Adam warm-up followed by LBFGS(line_search_fn="strong_wolfe") with a closure.
import math
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)


class PINN(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(),
                                 nn.Linear(width, 1))
        with torch.no_grad():
            for k, p in enumerate(self.parameters()):
                n = p.numel()
                p.copy_(0.4 * torch.sin(torch.arange(n, dtype=torch.float64) * 0.37 + k).reshape(p.shape))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))


def derivative(u, x, order=1):
    for _ in range(order):
        u = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    return u


def soliton(x, t, c=1.0):
    return 0.5 * c / torch.cosh(0.5 * math.sqrt(c) * (x - c * t)) ** 2


model = PINN()
xs = torch.linspace(-4.0, 4.0, 9)
ts = torch.linspace(0.0, 1.0, 5)
X, T = torch.meshgrid(xs, ts, indexing="ij")
x_col = X.reshape(-1, 1).clone().requires_grad_(True)
t_col = T.reshape(-1, 1).clone().requires_grad_(True)
x_ic = xs.reshape(-1, 1)
t_ic = torch.zeros_like(x_ic)
u_ic = soliton(x_ic, t_ic)


def losses():
    u = model(x_col, t_col)
    u_t = derivative(u, t_col)
    u_x = derivative(u, x_col)
    u_xx = derivative(u_x, x_col)
    u_xxx = derivative(u_xx, x_col)
    residual = u_t + 6.0 * u * u_x + u_xxx
    loss_pde = residual.pow(2).mean()
    loss_ic = (model(x_ic, t_ic) - u_ic).pow(2).mean()
    return loss_pde, loss_ic


print("u_xxx grad_fn:", type(derivative(model(x_col, t_col), x_col, 3).grad_fn).__name__)
adam = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(30):
    adam.zero_grad()
    lp, li = losses()
    loss = lp + 10.0 * li
    loss.backward()
    adam.step()
    if step % 10 == 0:
        print(f"adam {step:2d} pde={lp.item():.4e} ic={li.item():.4e}")

lbfgs = torch.optim.LBFGS(model.parameters(), lr=1.0, max_iter=20, history_size=10,
                          line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    lp, li = losses()
    loss = lp + 10.0 * li
    loss.backward()
    return loss


before = closure().item()
for outer in range(3):
    val = lbfgs.step(closure)
    print(f"lbfgs outer {outer} loss={val.item():.4e}")
after = closure().item()
state = lbfgs.state[lbfgs._params[0]]
print("improved:", after < before, "func_evals>0:", state["func_evals"] > 0, "n_iter:", state["n_iter"] > 0)
print("state keys:", sorted(state.keys()))
