# Numerical integration: trapezoid with x and dx, multi-dim dims, cumulative_trapezoid,
# Simpson's rule by hand, Gauss-Legendre on a batch of functions.
import math
import torch

x = torch.linspace(0, math.pi, 21)
y = torch.sin(x)
print("trapz x:", f"{torch.trapezoid(y, x).item():.6f}")
print("trapz dx:", f"{torch.trapezoid(y, dx=(math.pi / 20)).item():.6f}")
print("trapz alias:", f"{torch.trapz(y, x).item():.6f}")
print("default dx=1:", f"{torch.trapezoid(y).item():.4f}")

Y = torch.stack([torch.sin(x), torch.cos(x / 2), x ** 2])
print("batched:", [round(v, 5) for v in torch.trapezoid(Y, x, dim=-1).tolist()])
print("dim=0:", torch.trapezoid(Y, dim=0)[:4])
X2 = torch.stack([x, 2 * x, 3 * x])
print("x per row:", torch.trapezoid(Y, X2).round(decimals=4))

ct = torch.cumulative_trapezoid(y, x)
print("cumulative shape:", ct.shape, "last", f"{ct[-1].item():.6f}")
print(torch.cumulative_trapezoid(torch.arange(6.0).reshape(2, 3), dim=0))
print(torch.cumulative_trapezoid(torch.arange(6.0).reshape(2, 3), dx=0.5))

def simpson(f, a, b, n):
    xs = torch.linspace(a, b, n + 1, dtype=torch.float64)
    ys = f(xs)
    h = (b - a) / n
    return h / 3 * (ys[0] + 4 * ys[1:-1:2].sum() + 2 * ys[2:-1:2].sum() + ys[-1])

for n in (4, 8, 16, 32):
    s = simpson(torch.exp, 0.0, 1.0, n)
    print(f"simpson n={n:2d}: {s.item():.10f} err={abs(s.item() - (math.e - 1)):.2e}")

# Gauss-Legendre 5 points
nodes = torch.tensor([-0.9061798459386640, -0.5384693101056831, 0.0,
                      0.5384693101056831, 0.9061798459386640], dtype=torch.float64)
weights = torch.tensor([0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                        0.4786286704993665, 0.2369268850561891], dtype=torch.float64)
a, b = 0.0, 2.0
t = 0.5 * (b - a) * nodes + 0.5 * (b + a)
funcs = torch.stack([t ** 4, torch.exp(-t), torch.log1p(t)])
print("gauss:", (0.5 * (b - a) * funcs @ weights).tolist())

# integral w.r.t. a parameter with autograd
k = torch.tensor(2.0, requires_grad=True)
xs = torch.linspace(0, 1, 101)
I = torch.trapezoid(torch.exp(-k * xs), xs)
I.backward()
print(f"I={I.item():.5f} dI/dk={k.grad.item():.5f}")
print(I.grad_fn is not None, torch.trapezoid(torch.ones(3, dtype=torch.int64)))
