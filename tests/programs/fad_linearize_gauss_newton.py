# Gauss-Newton / Levenberg-Marquardt for curve fitting with torch.func.linearize: the residual is
# linearized once per outer step and its jvp_fn reused inside a CG solve of (J^T J + mu I) d = -J^T r,
# with J^T products from torch.func.vjp; the full Jacobian via vmap(jvp_fn) and jacfwd for checks.
import torch
from torch.func import jacfwd, linearize, vjp, vmap

torch.set_default_dtype(torch.float64)

t = torch.linspace(0, 4, 25)
true = torch.tensor([2.0, 0.7, 1.5, 0.3])
data = true[0] * torch.exp(-true[1] * t) * torch.cos(true[2] * t + true[3])


def residual(theta):
    a, k, w, phi = theta.unbind()
    return a * torch.exp(-k * t) * torch.cos(w * t + phi) - data


theta = torch.tensor([1.5, 0.5, 1.3, 0.0])
mu = 1e-2
for outer in range(8):
    r, jvp_fn = linearize(residual, theta)
    _, vjp_fn = vjp(residual, theta)

    def normal_op(d):
        return vjp_fn(jvp_fn(d))[0] + mu * d

    rhs = -vjp_fn(r)[0]
    d = torch.zeros_like(theta)
    res = rhs.clone()
    p = res.clone()
    for _ in range(10):
        Ap = normal_op(p)
        alpha = (res @ res) / (p @ Ap)
        d = d + alpha * p
        new = res - alpha * Ap
        if new.norm() < 1e-12:
            break
        p = new + (new @ new) / (res @ res) * p
        res = new
    candidate = theta + d
    old, new_cost = 0.5 * (r ** 2).sum(), 0.5 * (residual(candidate) ** 2).sum()
    if new_cost < old:
        theta, mu = candidate, mu * 0.3
    else:
        mu = mu * 10
    print(f"iter {outer}: cost {new_cost.item():.3e} mu {mu:.1e} theta {[round(v, 4) for v in theta.tolist()]}")

r, jvp_fn = linearize(residual, theta)
J_lin = vmap(jvp_fn, out_dims=1)(torch.eye(4))
J_fwd = jacfwd(residual)(theta)
print("J shapes", tuple(J_lin.shape), tuple(J_fwd.shape), "equal:", torch.allclose(J_lin, J_fwd))
cov = torch.linalg.inv(J_fwd.T @ J_fwd)
print("param std (unscaled):", [f"{v:.4f}" for v in cov.diagonal().sqrt().tolist()])

try:
    jvp_fn(torch.ones(3))
except Exception as e:
    print(type(e).__name__, e)
try:
    jvp_fn(torch.ones(4, dtype=torch.float32))
except Exception as e:
    print(type(e).__name__, e)
out, fn2 = linearize(lambda x, y: (x * y, x + y), torch.tensor(2.0), torch.tensor(3.0))
print(out, fn2(torch.tensor(1.0), torch.tensor(0.0)))
