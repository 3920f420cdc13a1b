# A PINN for the 1-D heat equation u_t = k u_xx as in physics-informed tutorials: inputs as one
# (N, 2) tensor with requires_grad, u_x and u_t sliced from one autograd.grad call, u_xx from a
# second grad with create_graph=True, initial/boundary losses, Adam then a few LBFGS steps, and
# the residual recomputed with torch.autograd.functional.hessian on single points.
import math
import torch
import torch.nn as nn

torch.set_default_dtype(torch.float64)
K = 0.1


class PINN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))

    def forward(self, xt):
        return self.net(xt)


model = PINN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.6 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 1.37 + 0.5 * i).reshape(p.shape))

xs = torch.linspace(0, 1, 9)
ts = torch.linspace(0, 1, 6)
X, T = torch.meshgrid(xs, ts, indexing="ij")
colloc = torch.stack([X.reshape(-1), T.reshape(-1)], 1).requires_grad_(True)
x0 = torch.stack([xs, torch.zeros_like(xs)], 1)
u0 = torch.sin(math.pi * xs).unsqueeze(1)
xb = torch.cat([torch.stack([torch.zeros_like(ts), ts], 1), torch.stack([torch.ones_like(ts), ts], 1)])


def residual(model, pts):
    u = model(pts)
    du = torch.autograd.grad(u, pts, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    u_x, u_t = du[:, 0:1], du[:, 1:2]
    u_xx = torch.autograd.grad(u_x, pts, grad_outputs=torch.ones_like(u_x), create_graph=True)[0][:, 0:1]
    return u_t - K * u_xx


def losses(model):
    r = residual(model, colloc)
    return (r ** 2).mean(), ((model(x0) - u0) ** 2).mean(), (model(xb) ** 2).mean()


opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(30):
    opt.zero_grad()
    lp, li, lb = losses(model)
    loss = lp + li + lb
    loss.backward()
    opt.step()
    if step % 6 == 0:
        print(f"adam {step:2d} pde {lp.item():.5f} ic {li.item():.5f} bc {lb.item():.5f}")

lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, history_size=10, line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    total = sum(losses(model))
    total.backward()
    return total


for outer in range(3):
    total = lbfgs.step(closure)
    print(f"lbfgs {outer} loss {total.item():.6f}")

# check u_xx at a few points with the functional Hessian (full 2x2 per point)
for pt in [(0.25, 0.5), (0.5, 0.2), (0.75, 0.9)]:
    p = torch.tensor(pt)
    H = torch.autograd.functional.hessian(lambda z: model(z.unsqueeze(0)).squeeze(), p)
    g = torch.autograd.functional.jacobian(lambda z: model(z.unsqueeze(0)).squeeze(), p)
    r_direct = residual(model, p.unsqueeze(0).requires_grad_(True)).item()
    print(f"x={pt[0]} t={pt[1]} u_xx={H[0, 0].item():.5f} u_xt={H[0, 1].item():.5f} "
          f"residual {g[1].item() - K * H[0, 0].item():.5f} same {abs(r_direct - (g[1].item() - K * H[0, 0].item())) < 1e-10}")

exact = torch.exp(-K * math.pi ** 2 * ts[-1]) * torch.sin(math.pi * xs)
with torch.no_grad():
    pred = model(torch.stack([xs, torch.full_like(xs, 1.0)], 1)).squeeze(1)
print("max error at t=1:", f"{(pred - exact).abs().max().item():.4f}")
