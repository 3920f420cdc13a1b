# Fixed-step solvers written in a loop (Euler, midpoint, Heun, RK4) on y' = -y + sin(t), with the
# empirical convergence order from halving h, forward sensitivities dy(T)/dy0 and dy(T)/dtheta by
# autograd against the variational equation, and the flow map's Jacobian via
# torch.autograd.functional.jacobian for a 2-D linear system (compared with torch.linalg.matrix_exp).
import math
import torch

torch.set_default_dtype(torch.float64)


def f(t, y, theta):
    return -theta * y + torch.sin(t * torch.ones_like(y))


def step(method, t, y, h, theta):
    if method == "euler":
        return y + h * f(t, y, theta)
    if method == "midpoint":
        return y + h * f(t + h / 2, y + h / 2 * f(t, y, theta), theta)
    if method == "heun":
        k1 = f(t, y, theta)
        k2 = f(t + h, y + h * k1, theta)
        return y + h / 2 * (k1 + k2)
    k1 = f(t, y, theta)
    k2 = f(t + h / 2, y + h / 2 * k1, theta)
    k3 = f(t + h / 2, y + h / 2 * k2, theta)
    k4 = f(t + h, y + h * k3, theta)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def solve(method, y0, theta, T=2.0, n=10):
    h = T / n
    y = y0
    for i in range(n):
        y = step(method, i * h, y, h, theta)
    return y


def exact(y0, T=2.0):
    # theta = 1: y = (y0 + 1/2) e^{-t} + (sin t - cos t) / 2
    return (y0 + 0.5) * math.exp(-T) + (math.sin(T) - math.cos(T)) / 2


y0 = torch.tensor([1.0])
theta = torch.tensor(1.0)
for method in ["euler", "midpoint", "heun", "rk4"]:
    errs = [abs(solve(method, y0, theta, n=n).item() - exact(1.0)) for n in (10, 20, 40)]
    orders = [math.log2(errs[i] / errs[i + 1]) for i in range(2)]
    print(f"{method:8s} err(n=40) {errs[-1]:.3e} orders {orders[0]:.2f} {orders[1]:.2f}")

# sensitivities by backprop through the solver
y0r = torch.tensor([1.0], requires_grad=True)
thr = torch.tensor(1.0, requires_grad=True)
yT = solve("rk4", y0r, thr, n=40)
dy0, dth = torch.autograd.grad(yT.sum(), (y0r, thr))
print("dy(T)/dy0 autograd", f"{dy0.item():.6f}", "exact", f"{math.exp(-2.0):.6f}")

# variational equation for s = dy/dtheta: s' = -theta s - y, integrated alongside y
def aug(t, ys, theta):
    y, s = ys[0:1], ys[1:2]
    return torch.cat([-theta * y + torch.sin(t * torch.ones_like(y)), -theta * s - y])

ys = torch.tensor([1.0, 0.0])
h = 2.0 / 40
for i in range(40):
    t = i * h
    k1 = aug(t, ys, 1.0)
    k2 = aug(t + h / 2, ys + h / 2 * k1, 1.0)
    k3 = aug(t + h / 2, ys + h / 2 * k2, 1.0)
    k4 = aug(t + h, ys + h * k3, 1.0)
    ys = ys + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
print("dy(T)/dtheta autograd", f"{dth.item():.6f}", "variational", f"{ys[1].item():.6f}")

# flow map of a linear system: Jacobian of the RK4 map vs the matrix exponential
A = torch.tensor([[0.0, 1.0], [-2.0, -0.3]])


def flow(z0):
    z = z0
    h = 1.0 / 50
    for _ in range(50):
        k1 = A @ z
        k2 = A @ (z + h / 2 * k1)
        k3 = A @ (z + h / 2 * k2)
        k4 = A @ (z + h * k3)
        z = z + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return z


J = torch.autograd.functional.jacobian(flow, torch.tensor([1.0, 0.0]))
Jv = torch.autograd.functional.jacobian(flow, torch.tensor([1.0, 0.0]), vectorize=True)
E = torch.linalg.matrix_exp(A)
print("flow Jacobian\n", J.numpy().round(6))
print("expm\n", E.numpy().round(6))
print("close:", torch.allclose(J, E, atol=1e-8), torch.equal(J, Jv))
print("det J", f"{torch.linalg.det(J).item():.6f}", "exp(tr A)", f"{math.exp(-0.3):.6f}")
