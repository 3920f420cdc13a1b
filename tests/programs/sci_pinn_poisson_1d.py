# Physics-informed neural network for the 1D Poisson problem u''(x) = -pi^2 sin(pi x), u(0)=u(1)=0,
# in the style of the PINN tutorials: derivatives of the network output w.r.t. its input with
# torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True), a residual loss,
# a few Adam steps and then a few LBFGS steps. Weights are set by hand (no RNG).
import math
import torch
import torch.nn as nn

torch.set_printoptions(precision=5)


class PINN(nn.Module):
    def __init__(self, width=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(),
                                 nn.Linear(width, 1))
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                n = p.numel()
                p.copy_((0.5 * torch.sin(torch.arange(n, dtype=p.dtype) * 0.7 + i)).reshape(p.shape))

    def forward(self, x):
        return self.net(x)


def derivatives(model, x):
    x = x.clone().requires_grad_(True)
    u = model(x)
    u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), create_graph=True)[0]
    return u, u_x, u_xx


model = PINN()
x_col = torch.linspace(0, 1, 9).unsqueeze(1)
u, u_x, u_xx = derivatives(model, x_col)
print(u.shape, u_x.shape, u_xx.shape)
print(u_x.grad_fn.name(), u_xx.grad_fn.name(), u_xx.requires_grad)
print(u.squeeze()[:4])
print(u_x.squeeze()[:4])
print(u_xx.squeeze()[:4])

x_bc = torch.tensor([[0.0], [1.0]])
f = lambda x: -math.pi ** 2 * torch.sin(math.pi * x)


def pinn_loss():
    _, _, u_xx = derivatives(model, x_col)
    residual = u_xx - f(x_col)
    loss_pde = residual.pow(2).mean()
    loss_bc = model(x_bc).pow(2).mean()
    return loss_pde + loss_bc, loss_pde, loss_bc


opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(6):
    opt.zero_grad()
    loss, lp, lb = pinn_loss()
    loss.backward()
    opt.step()
    print(f"adam {step} loss={loss.item():.5f} pde={lp.item():.5f} bc={lb.item():.6f}")

print(model.net[0].weight.grad.squeeze())

lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5, history_size=5,
                          line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    loss, _, _ = pinn_loss()
    loss.backward()
    return loss


for it in range(2):
    loss = lbfgs.step(closure)
    print(f"lbfgs {it} {loss.item():.4f}")
state = lbfgs.state[next(iter(model.parameters()))]
print(state["n_iter"], state["func_evals"])

# the derivative of the network at a single point, as a 0-d input
x0 = torch.tensor(0.25, requires_grad=True)
u0 = model(x0.view(1, 1)).squeeze()
du0, = torch.autograd.grad(u0, x0, create_graph=True)
d2u0, = torch.autograd.grad(du0, x0)
print(u0.shape, du0.shape, f"{du0.item():.3f} {d2u0.item():.2f}")
try:
    torch.autograd.grad(u, x_col, grad_outputs=torch.ones_like(u))
except RuntimeError as e:
    print("RuntimeError:", e)
