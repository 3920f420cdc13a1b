# Adaptive Dormand-Prince (dopri5) with a PI-free step controller driven by .item() and
# torch.max, plus an adjoint sensitivity pass written with torch.func.functional_call + vjp
# over a params dict, checked against direct backprop through the same accepted steps.
import torch
import torch.nn as nn
from torch.func import functional_call, vjp

torch.set_default_dtype(torch.float64)

A = [[], [1 / 5], [3 / 40, 9 / 40], [44 / 45, -56 / 15, 32 / 9],
     [19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729],
     [9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656],
     [35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]]
C = [0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0]
B = [35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.0]
B_ERR = [71 / 57600, 0.0, -71 / 16695, 71 / 1920, -17253 / 339200, 22 / 525, -1 / 40]


class Field(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(2, 12)
        self.l2 = nn.Linear(12, 2)

    def forward(self, t, y):
        return self.l2(torch.tanh(self.l1(y))) - 0.1 * y


def dopri5_step(f, t, y, h):
    ks = []
    for i in range(7):
        yi = y + h * sum((a * k for a, k in zip(A[i], ks)), torch.zeros_like(y))
        ks.append(f(t + C[i] * h, yi))
    y_new = y + h * sum(b * k for b, k in zip(B, ks))
    err = h * sum(e * k for e, k in zip(B_ERR, ks))
    return y_new, err


def odeint_dopri5(f, y0, t0, t1, rtol=1e-6, atol=1e-8, h=0.1):
    t, y = t0, y0
    accepted = rejected = 0
    while t < t1 - 1e-12:
        h = min(h, t1 - t)
        y_new, err = dopri5_step(f, t, y, h)
        scale = atol + rtol * torch.max(y.abs(), y_new.abs())
        ratio = torch.max((err / scale).abs()).item()
        if ratio <= 1.0:
            t, y = t + h, y_new
            accepted += 1
        else:
            rejected += 1
        h = h * min(5.0, max(0.2, 0.9 * ratio ** -0.2)) if ratio > 0 else h * 5.0
    return y, accepted, rejected


field = Field()
with torch.no_grad():
    for i, (name, p) in enumerate(field.named_parameters()):
        p.copy_(0.6 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.37 + i).reshape(p.shape))

y0 = torch.tensor([[1.0, 0.0], [0.5, -0.5], [0.0, 1.0]])
target = torch.tensor([[0.3, 0.8], [0.1, 0.2], [-0.6, 0.4]])

# direct backprop through the solver
yT, acc, rej = odeint_dopri5(field, y0, 0.0, 2.0)
loss = ((yT - target) ** 2).sum()
loss.backward()
print("accepted", acc, "rejected", rej)
print("yT", yT.detach().numpy().round(5).tolist())
print("loss", round(loss.item(), 6))
direct = {n: p.grad.clone() for n, p in field.named_parameters()}

# adjoint: integrate [y, a, dL/dtheta] backwards with the same solver
params = {n: p.detach() for n, p in field.named_parameters()}
names = list(params)
sizes = [params[n].numel() for n in names]
shapes = [params[n].shape for n in names]
n_y = y0.numel()


def augmented(s_time, s):
    """Dynamics in reversed time s = -t: dy/ds = -f, da/ds = a^T df/dy, dtheta/ds = a^T df/dtheta."""
    y = s[0, :n_y].reshape(y0.shape)
    a = s[0, n_y:2 * n_y].reshape(y0.shape)
    f_val, pullback = vjp(lambda yy, pp: functional_call(field, pp, (-s_time, yy)), y, params)
    a_y, a_p = pullback(a)
    flat_p = torch.cat([a_p[n].reshape(-1) for n in names])
    return torch.cat([-f_val.reshape(-1), a_y.reshape(-1), flat_p]).unsqueeze(0)


with torch.no_grad():
    yT0 = odeint_dopri5(lambda t, y: field(t, y), y0, 0.0, 2.0)[0]
aT = 2 * (yT0 - target)
s = torch.cat([yT0.reshape(-1), aT.reshape(-1), torch.zeros(sum(sizes))]).unsqueeze(0)
sol, acc_b, rej_b = odeint_dopri5(augmented, s, -2.0, 0.0)
print("backward steps", acc_b, "rejected", rej_b)
y0_rec = sol[0, :n_y].reshape(y0.shape)
print("reconstructed y0 err < 1e-5:", (y0_rec - y0).abs().max().item() < 1e-5)
grads = torch.split(sol[0, 2 * n_y:], sizes)
for n, g, shp in zip(names, grads, shapes):
    g = g.reshape(shp)
    rel = ((g - direct[n]).norm() / direct[n].norm()).item()
    print(f"{n:10s} {tuple(shp)} |direct|={direct[n].norm().item():.5f} rel.diff<1e-4 {rel < 1e-4}")
print("dL/dy0 adjoint:", sol[0, n_y:2 * n_y].reshape(y0.shape).numpy().round(4).tolist())
y0g = y0.clone().requires_grad_(True)
yTg = odeint_dopri5(field, y0g, 0.0, 2.0)[0]
print("dL/dy0 direct :", torch.autograd.grad(((yTg - target) ** 2).sum(), y0g)[0].numpy().round(4).tolist())
