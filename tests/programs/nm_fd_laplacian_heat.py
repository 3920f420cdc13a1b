# Finite differences: torch.diff with prepend/append and n=2, roll-based periodic Laplacian,
# F.conv1d stencil with replicate padding, explicit heat-equation steps.
import math
import torch
import torch.nn.functional as F

n = 16
x = torch.linspace(0, 2 * math.pi, n + 1, dtype=torch.float64)[:-1]
h = (x[1] - x[0]).item()
u = torch.sin(x) + 0.5 * torch.cos(2 * x)

d1 = torch.diff(u, prepend=u[-1:], append=u[:1]) / h
print("diff w/ prepend+append shape:", tuple(d1.shape))
print("forward diff:", [round(v, 4) for v in d1[:5].tolist()])
d2 = torch.diff(u, n=2) / h**2
print("second diff n=2 shape:", d2.shape, "first", f"{d2[0].item():.5f}")

lap = (torch.roll(u, -1) - 2 * u + torch.roll(u, 1)) / h**2
exact = -torch.sin(x) - 2 * torch.cos(2 * x)
print("roll laplacian max err:", f"{(lap - exact).abs().max().item():.4e}")

stencil = torch.tensor([[[1.0, -2.0, 1.0]]], dtype=torch.float64) / h**2
up = F.pad(u.view(1, 1, -1), (1, 1), mode="circular")
lap_conv = F.conv1d(up, stencil).view(-1)
print("conv1d matches roll:", torch.allclose(lap_conv, lap))
rep = F.pad(u.view(1, 1, -1), (1, 1), mode="replicate")
print("replicate boundary:", F.conv1d(rep, stencil)[0, 0, [0, -1]].mul(h**2).tolist())

# 2-D diff along a dim
grid = torch.arange(12.0).reshape(3, 4) ** 2
print(torch.diff(grid, dim=1))
print(torch.diff(grid, dim=0, prepend=torch.zeros(1, 4)))
print(torch.diff(torch.tensor([True, False, False, True])))

# explicit heat equation
alpha, dt = 0.1, 0.1 * h**2 / 0.1 * 0.4
T = torch.exp(-((x - math.pi) ** 2))
for step in range(1, 61):
    T = T + alpha * dt * (torch.roll(T, -1) - 2 * T + torch.roll(T, 1)) / h**2
    if step % 20 == 0:
        print(f"step {step:3d}  max={T.max().item():.5f}  sum={T.sum().item():.5f}")

# gradient via torch.gradient compared with central difference
g, = torch.gradient(u, spacing=h)
print("torch.gradient interior equals central diff:",
      torch.allclose(g[1:-1], (u[2:] - u[:-2]) / (2 * h)))
g2 = torch.gradient(grid, spacing=(1.0, 2.0), edge_order=2)
print([t.tolist() for t in g2])
