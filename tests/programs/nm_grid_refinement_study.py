# Grid-refinement (convergence order) study: endpoints and step counts come out of tensors,
# torch.range (inclusive, deprecated) builds the grid, log-log slope fitted with lstsq,
# and sample covariance with an integer-tensor correction.
import math
import warnings
import torch

warnings.simplefilter("ignore", UserWarning)  # torch.range deprecation

a, b = torch.tensor(0.0), torch.tensor(math.pi / 2)
exact = 1.0
rows = []
for k in range(2, 8):
    n = 2 ** k
    h = (b - a) / n
    grid = torch.range(a, b.item() + 1e-9, h.item(), dtype=torch.float64)
    trap = torch.trapezoid(torch.sin(grid), dx=h)
    mid = h * torch.sin(grid[:-1] + h / 2).sum()
    rows.append((h.item(), abs(trap.item() - exact), abs(mid.item() - exact)))
    print(f"n={n:4d} points={grid.numel():4d} trap_err={rows[-1][1]:.3e} mid_err={rows[-1][2]:.3e}")

R = torch.tensor(rows, dtype=torch.float64)
A = torch.stack([torch.ones(len(R), dtype=torch.float64), R[:, 0].log()], dim=1)
sol = torch.linalg.lstsq(A, R[:, 1:].log())
print("observed orders:", [f"{v:.2f}" for v in sol.solution[1].tolist()])
print("ratio trap/mid:", (R[:, 1] / R[:, 2]).round(decimals=2))

steps = torch.range(0, 4)
print("range default:", steps, steps.dtype)
print("range step:", torch.range(1, 2, 0.25))
print("range int:", torch.range(0, torch.tensor(6), 2, dtype=torch.int64))
try:
    torch.range(10)
except TypeError as e:
    print(type(e).__name__, e)

errs = R[:, 1:].log().T
ddof = torch.tensor(1)
print("cov(log err):", torch.cov(errs, correction=ddof).round(decimals=4))
print("population:", torch.cov(errs, correction=0).round(decimals=4))
try:
    torch.cov(errs, correction=0.5)
except TypeError as e:
    print(type(e).__name__, e)
