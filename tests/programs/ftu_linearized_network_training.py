# Training the linearization of a network around its initial parameters (the "linearized model"
# of NTK papers, built with torch.func as in the NTK tutorial's follow-ups): f_lin(p) =
# f(p0) + J(p0)(p - p0) via jvp, trained with grad + SGD on dict parameters, vs the real network.
import torch
import torch.nn as nn
from torch.func import functional_call, grad_and_value, jvp, linearize, vmap

model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 1.3 + i).view(p.shape) * 0.8)

x = torch.linspace(-2, 2, 24).unsqueeze(1)
y = torch.sin(1.5 * x)
p0 = {k: v.detach().clone() for k, v in model.named_parameters()}


def f(params, x):
    return functional_call(model, params, (x,))


def f_lin(params, x):
    delta = {k: params[k] - p0[k] for k in params}
    out, tangent = jvp(lambda p: f(p, x), (p0,), (delta,))
    return out + tangent


def mse(fn):
    def loss(params):
        return ((fn(params, x) - y) ** 2).mean()
    return loss


print(f"initial loss: {mse(f)(p0).item():.5f} (linear: {mse(f_lin)(p0).item():.5f})")

for name, fn in [("network", f), ("linearized", f_lin)]:
    params = {k: v.clone() for k, v in p0.items()}
    step = grad_and_value(mse(fn))
    for it in range(40):
        g, loss = step(params)
        params = {k: params[k] - 0.05 * g[k] for k in params}
        if it % 10 == 0:
            print(f"{name:10s} step {it:2d} loss {loss.item():.5f}")
    print(f"{name:10s} final loss {mse(fn)(params).item():.5f}")
    moved = sum(((params[k] - p0[k]) ** 2).sum() for k in params).sqrt()
    print(f"{name:10s} distance from p0 {moved.item():.4f}")

# linearize gives the same jvp_fn without re-running the network
out0, jvp_fn = linearize(lambda p: f(p, x), p0)
delta = {k: 0.01 * torch.ones_like(v) for k, v in p0.items()}
lin_pred = out0 + jvp_fn(delta)
ref = f_lin({k: p0[k] + delta[k] for k in p0}, x)
print("linearize matches jvp:", torch.allclose(lin_pred, ref, atol=1e-6))
true = f({k: p0[k] + delta[k] for k in p0}, x)
print("second-order remainder below 1e-2:", (true - lin_pred).abs().max().item() < 1e-2)

# per-example directional derivatives along the same delta, vmapped over inputs
per_example = vmap(lambda xi: jvp(lambda p: f(p, xi.unsqueeze(0)), (p0,), (delta,))[1].squeeze())(x)
print("per-example jvp:", tuple(per_example.shape), torch.allclose(per_example, jvp_fn(delta).squeeze(1), atol=1e-6))
print(per_example[:6].round(decimals=4))
