# System identification of Lotka-Volterra parameters (alpha, beta, gamma, delta) from a sampled
# trajectory: a hand-written RK4 integrator, parameters kept positive through softplus, the
# whole rollout differentiated (discretize-then-optimize), LBFGS, and an autograd Jacobian check.
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.set_printoptions(precision=4)


def lotka_volterra(t, z, theta):
    alpha, beta, gamma, delta = theta
    x, y = z[..., 0], z[..., 1]
    dx = alpha * x - beta * x * y
    dy = delta * x * y - gamma * y
    return torch.stack([dx, dy], dim=-1)


def odeint_rk4(func, z0, t, theta):
    zs = [z0]
    z = z0
    for i in range(len(t) - 1):
        h = t[i + 1] - t[i]
        k1 = func(t[i], z, theta)
        k2 = func(t[i] + h / 2, z + h / 2 * k1, theta)
        k3 = func(t[i] + h / 2, z + h / 2 * k2, theta)
        k4 = func(t[i] + h, z + h * k3, theta)
        z = z + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        zs.append(z)
    return torch.stack(zs)


t = torch.linspace(0, 6, 31)
z0 = torch.tensor([1.0, 0.5])
theta_true = torch.tensor([1.1, 0.4, 0.4, 0.1])
with torch.no_grad():
    data = odeint_rk4(lotka_volterra, z0, t, theta_true)
print("data", data.shape, data[::10])

raw = torch.nn.Parameter(torch.tensor([0.5, 0.0, 0.0, -1.0]))


def theta_from_raw(r):
    return F.softplus(r)


print("initial theta", theta_from_raw(raw).detach())
pred = odeint_rk4(lotka_volterra, z0, t, theta_from_raw(raw))
loss = (pred - data).pow(2).mean()
loss.backward()
print(f"initial loss {loss.item():.5f}")
print("grad", raw.grad)

opt = torch.optim.LBFGS([raw], lr=1, max_iter=15, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = (odeint_rk4(lotka_volterra, z0, t, theta_from_raw(raw)) - data).pow(2).mean()
    loss.backward()
    return loss


for outer in range(4):
    loss = opt.step(closure)
    print(f"outer {outer} loss {loss.item():.1e}" if loss.item() > 1e-8 else f"outer {outer} converged (<1e-8)")
final = closure().item()
print("fit good:", final < 1e-3)
print("theta", theta_from_raw(raw).detach().numpy().round(2))

# sensitivity matrix d z(T) / d theta by autograd.functional.jacobian vs. central differences
fT = lambda th: odeint_rk4(lotka_volterra, z0, t[:11], th)[-1]
Jac = torch.autograd.functional.jacobian(fT, theta_true)
eps = 1e-6
fd = torch.stack([(fT(theta_true + eps * e) - fT(theta_true - eps * e)) / (2 * eps) for e in torch.eye(4)], dim=1)
print(Jac.shape)
print(Jac)
print("matches FD:", torch.allclose(Jac, fd, atol=1e-6))
