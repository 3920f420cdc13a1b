# Fixed-step ODE solvers on systems: Euler vs RK4 for Lotka-Volterra and a damped oscillator,
# batch of initial conditions, energy and error checks.
import torch

def lotka(t, s, a=1.1, b=0.4, c=0.4, d=0.1):
    x, y = s[..., 0], s[..., 1]
    return torch.stack([a * x - b * x * y, d * x * y - c * y], dim=-1)

def euler(f, y0, t):
    ys = [y0]
    for i in range(len(t) - 1):
        h = t[i + 1] - t[i]
        ys.append(ys[-1] + h * f(t[i], ys[-1]))
    return torch.stack(ys)

def rk4(f, y0, t):
    ys = [y0]
    for i in range(len(t) - 1):
        h = t[i + 1] - t[i]
        y = ys[-1]
        k1 = f(t[i], y)
        k2 = f(t[i] + h / 2, y + h / 2 * k1)
        k3 = f(t[i] + h / 2, y + h / 2 * k2)
        k4 = f(t[i] + h, y + h * k3)
        ys.append(y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4))
    return torch.stack(ys)

t = torch.linspace(0, 10, 101, dtype=torch.float64)
y0 = torch.tensor([[10.0, 5.0], [5.0, 2.0], [1.0, 1.0]], dtype=torch.float64)
sol_e = euler(lotka, y0, t)
sol_r = rk4(lotka, y0, t)
print("trajectory shape:", tuple(sol_r.shape))
for k in range(0, 101, 25):
    print(f"t={t[k].item():5.2f} rk4={sol_r[k, 0].tolist()} ")
print("euler vs rk4 at end:", (sol_e[-1] - sol_r[-1]).abs().max().item() > 0.1)

# conserved quantity of Lotka-Volterra
def V(s, a=1.1, b=0.4, c=0.4, d=0.1):
    x, y = s[..., 0], s[..., 1]
    return d * x - c * torch.log(x) + b * y - a * torch.log(y)
drift = (V(sol_r) - V(sol_r[0])).abs().amax(dim=0)
print("rk4 invariant drift:", [f"{v:.2e}" for v in drift.tolist()])

# damped oscillator as matrix system, compare with matrix_exp
A = torch.tensor([[0.0, 1.0], [-4.0, -0.4]], dtype=torch.float64)
osc = lambda t, y: y @ A.T
ts = torch.linspace(0, 5, 201, dtype=torch.float64)
z0 = torch.tensor([1.0, 0.0], dtype=torch.float64)
zr = rk4(osc, z0, ts)
exact = torch.linalg.matrix_exp(A * 5.0) @ z0
print("rk4 end:", [f"{v:.6f}" for v in zr[-1].tolist()])
print("exact  :", [f"{v:.6f}" for v in exact.tolist()])
print("err order:", f"{(zr[-1] - exact).norm().item():.1e}")
energy = 0.5 * zr[:, 1] ** 2 + 2 * zr[:, 0] ** 2
print("energy decreasing:", bool((energy.diff() <= 1e-12).all()))
print("energy samples:", energy[::50].round(decimals=5))
