# A physics-informed network trained with torch.func derivatives: u'' from
# vmap(jacrev(jacrev(u))) for the 1-D Poisson problem -u'' = pi^2 sin(pi x), u(0) = u(1) = 0,
# and a 2-D Laplacian as the trace of vmap(hessian(u)), both backpropagated into the network.
import math

import torch
import torch.nn as nn
from torch.func import hessian, jacrev, vmap

torch.set_default_dtype(torch.float64)


def make_net(n_in):
    net = nn.Sequential(nn.Linear(n_in, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.61 + 2 * i).view(p.shape) * 0.5)
    return net


net = make_net(1)


def u(x):  # one collocation point (a 0-d tensor) -> a 0-d tensor
    return net(x.reshape(1, 1)).squeeze()


x_col = torch.linspace(0.05, 0.95, 12)
x_bc = torch.tensor([0.0, 1.0])

u_xx = vmap(jacrev(jacrev(u)))(x_col)
u_x = vmap(jacrev(u))(x_col)
print("u_x", tuple(u_x.shape), "u_xx", tuple(u_xx.shape), "requires_grad:", u_xx.requires_grad)
h = 1e-4
fd = (vmap(u)(x_col + h) - 2 * vmap(u)(x_col) + vmap(u)(x_col - h)) / h ** 2
print("u_xx matches finite differences:", torch.allclose(u_xx, fd, atol=1e-5))

opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(40):
    opt.zero_grad()
    residual = -vmap(jacrev(jacrev(u)))(x_col) - math.pi ** 2 * torch.sin(math.pi * x_col)
    loss = residual.pow(2).mean() + 10 * vmap(u)(x_bc).pow(2).mean()
    loss.backward()
    opt.step()
    if step % 10 == 0 or step == 39:
        print(f"step {step:2d} loss {loss.item():.4f}")

with torch.no_grad():
    x_test = torch.linspace(0, 1, 5)
    print("u(x) :", [f"{v:.3f}" for v in vmap(u)(x_test).tolist()])
print("exact:", [f"{v:.3f}" for v in torch.sin(math.pi * torch.linspace(0, 1, 5)).tolist()])

# 2-D: Laplacian as the trace of the per-point Hessian
net2 = make_net(2)


def u2(p):  # p: (2,) -> 0-d
    return net2(p.unsqueeze(0)).squeeze()


grid = torch.stack(torch.meshgrid(torch.linspace(0, 1, 3), torch.linspace(0, 1, 3), indexing="ij"), -1).reshape(-1, 2)
H = vmap(hessian(u2))(grid)
lap = H.diagonal(dim1=-2, dim2=-1).sum(-1)
print("hessians", tuple(H.shape), "symmetric:", torch.allclose(H, H.transpose(1, 2)))
lap2 = vmap(jacrev(jacrev(u2)))(grid).diagonal(dim1=-2, dim2=-1).sum(-1)
print("laplacian:", [f"{v:.4f}" for v in lap.tolist()], torch.allclose(lap, lap2))
lap.pow(2).mean().backward()
print("grad norm of last layer:", f"{net2[4].weight.grad.norm().item():.4f}")
