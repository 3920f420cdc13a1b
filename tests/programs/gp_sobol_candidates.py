# Quasi-random candidate sets for Bayesian optimisation: torch.quasirandom.SobolEngine with
# scramble=False (deterministic), draw / draw_base2 / fast_forward / reset, scaling to bounds, and
# picking the best candidate of a cheap test function.
import torch
from torch.quasirandom import SobolEngine

torch.set_printoptions(precision=5)

engine = SobolEngine(dimension=2, scramble=False)
print(engine)
print(engine.dimension, engine.scramble, engine.num_generated)
pts = engine.draw(8)
print(pts, pts.dtype)
print(engine.num_generated)
print(engine.draw(4, dtype=torch.float64))
engine.reset()
print(engine.draw(3))
engine.fast_forward(5)
print(engine.draw(2), engine.num_generated)

engine = SobolEngine(5, scramble=False)
print(engine.draw_base2(3))
print(engine.draw_base2(3).mean(0))
try:
    engine.draw(3)
    engine.draw_base2(2)
except ValueError as e:
    print(type(e).__name__, e)

# candidate set in a box, as in BoTorch's draw_sobol_samples / TuRBO
lb = torch.tensor([-5.0, 0.0, 1.0])
ub = torch.tensor([10.0, 15.0, 2.0])
sobol = SobolEngine(dimension=3, scramble=False)
X_cand = lb + (ub - lb) * sobol.draw(64)
print(X_cand.shape, X_cand.min(0).values, X_cand.max(0).values)


def branin(x):
    a, b, c = 1.0, 5.1 / (4 * torch.pi ** 2), 5.0 / torch.pi
    r, s, t = 6.0, 10.0, 1.0 / (8 * torch.pi)
    return a * (x[..., 1] - b * x[..., 0] ** 2 + c * x[..., 0] - r) ** 2 + s * (1 - t) * torch.cos(x[..., 0]) + s


vals = branin(X_cand[:, :2])
best = vals.argmin()
print("best sobol point", X_cand[best, :2], f"{vals[best].item():.4f}")

# integration with quasi-Monte Carlo: estimate E[x0 * x1] = 1/4
q = SobolEngine(2).draw(1024, dtype=torch.float64)
print(f"{(q[:, 0] * q[:, 1]).mean().item():.6f}", q.dtype)
print(SobolEngine(8).draw(4)[:, 4:])
try:
    SobolEngine(0)
except ValueError as e:
    print(type(e).__name__, e)
