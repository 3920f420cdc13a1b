# Quasi-Monte Carlo integration with an unscrambled Sobol sequence, a Gaussian kernel density
# estimate with cdist, and Richardson-style convergence table.
import math
import torch
from torch.quasirandom import SobolEngine

eng = SobolEngine(dimension=2, scramble=False)
pts = eng.draw(8)
print(pts)
print("num_generated:", eng.num_generated)
more = eng.draw(4, dtype=torch.float64)
print(more.dtype, more)
eng.reset()
print("after reset equal:", torch.equal(eng.draw(8), pts))
eng.fast_forward(2)
print("fast_forward:", eng.draw(2))

for m in (4, 6, 8, 10):
    e = SobolEngine(2)
    u = e.draw_base2(m)
    inside = (u.pow(2).sum(1) <= 1).float().mean()
    print(f"m={m:2d} n={u.shape[0]:5d} pi~{4 * inside.item():.4f}")

# 1-D integral of exp on [0,1] by QMC
e1 = SobolEngine(1)
u = e1.draw(64, dtype=torch.float64)
print(f"QMC exp: {torch.exp(u).mean().item():.6f} exact {math.e - 1:.6f}")

# Gaussian KDE on deterministic data
data = torch.cat([torch.linspace(-2, -1, 20), torch.linspace(0.5, 2.5, 30)]).unsqueeze(1)
grid = torch.linspace(-3, 3, 13).unsqueeze(1)
bw = 1.06 * data.std() * data.shape[0] ** (-1 / 5)
print(f"bandwidth: {bw.item():.4f}")
d = torch.cdist(grid, data)
dens = torch.exp(-0.5 * (d / bw) ** 2).sum(1) / (data.shape[0] * bw * math.sqrt(2 * math.pi))
print("kde:", dens.round(decimals=4))
print("integral:", f"{torch.trapezoid(dens, grid.squeeze()).item():.3f}")
print("argmax at:", grid[dens.argmax()].item())
print(torch.cdist(grid[:3], data[:2], p=1))
