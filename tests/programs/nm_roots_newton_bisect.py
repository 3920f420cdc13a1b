# Root finding: vectorised bisection with torch.where, Newton's method using autograd.grad,
# and a batched Newton for cube roots.
import torch

def f(x):
    return x ** 3 - 2 * x - 5

lo = torch.tensor([2.0, -3.0, 0.0], dtype=torch.float64)
hi = torch.tensor([3.0, 3.0, 1.0], dtype=torch.float64)
ok = torch.sign(f(lo)) != torch.sign(f(hi))
print("bracket ok:", ok)
for it in range(40):
    mid = (lo + hi) / 2
    left = torch.sign(f(mid)) == torch.sign(f(lo))
    lo = torch.where(left, mid, lo)
    hi = torch.where(left, hi, mid)
print("bisection:", [f"{v:.8f}" for v in ((lo + hi) / 2).tolist()])

x = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
for it in range(8):
    y = f(x)
    (g,) = torch.autograd.grad(y, x)
    with torch.no_grad():
        x -= y / g
    print(f"newton it={it} x={x.item():.12f} |f|={abs(f(x).item()):.3e}")

# batched Newton: cube roots of a vector
a = torch.tensor([1.0, 8.0, 27.0, 10.0, 0.5], dtype=torch.float64)
z = torch.ones_like(a, requires_grad=True)
for _ in range(30):
    r = z ** 3 - a
    (gz,) = torch.autograd.grad(r.sum(), z)
    z = (z - r / gz).detach().requires_grad_()
print("cbrt:", z.detach().round(decimals=6))
print("check:", torch.allclose(z.detach(), a.pow(1 / 3)))

# Newton on a 2-D system with jacobian
from torch.autograd.functional import jacobian
def F(v):
    x, y = v[0], v[1]
    return torch.stack([x ** 2 + y ** 2 - 4, x * y - 1])
v = torch.tensor([2.0, 0.5], dtype=torch.float64)
for it in range(6):
    J = jacobian(F, v)
    step = torch.linalg.solve(J, F(v))
    v = v - step
    print(it, [round(t, 10) for t in v.tolist()], f"{F(v).norm().item():.2e}")
print("J shape:", J.shape, J.dtype)
