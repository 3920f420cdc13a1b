# "Gradients without Backpropagation" (Baydin et al.): train a small MLP with forward gradients,
# g = (grad f . v) v, where the directional derivative comes from torch.autograd.forward_ad dual
# tensors pushed through torch.func.functional_call; directions are fixed (cos-based) here.
import math

import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call

torch.set_default_dtype(torch.float64)

model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.3 + i).view_as(p))

x = torch.stack([torch.linspace(-1, 1, 16), torch.cos(torch.linspace(0, 3, 16))], dim=1)
y = (x[:, :1] * x[:, 1:] + 0.3 * torch.sin(3 * x[:, :1]))

names = [n for n, _ in model.named_parameters()]
params = {n: p.detach().clone() for n, p in model.named_parameters()}


def loss_fn(p):
    return nn.functional.mse_loss(functional_call(model, p, (x,)), y)


def direction(step):
    out = {}
    for k, n in enumerate(names):
        numel = params[n].numel()
        out[n] = torch.cos(torch.arange(numel, dtype=torch.float64) * (0.7 + 0.1 * k) + step).view_as(params[n])
    return out


lr = 0.05
for step in range(30):
    tangents = direction(step)
    with fwAD.dual_level():
        dual_params = {n: fwAD.make_dual(params[n], tangents[n]) for n in names}
        loss = loss_fn(dual_params)
        primal, jvp = fwAD.unpack_dual(loss)
    with torch.no_grad():
        for n in names:
            params[n] -= lr * jvp * tangents[n]
    if step % 5 == 0:
        print(f"step {step:2d} loss {primal.item():.6f} directional derivative {jvp.item():+.6f}")

print("final loss", f"{loss_fn(params).item():.6f}")

# the forward gradient is an unbiased estimate; check directional derivative against backprop
p = {n: t.clone().requires_grad_(True) for n, t in params.items()}
full = torch.autograd.grad(loss_fn(p), list(p.values()))
v = direction(99)
dot = sum((g * v[n]).sum() for g, n in zip(full, names))
with fwAD.dual_level():
    out = loss_fn({n: fwAD.make_dual(params[n], v[n]) for n in names})
    tangent = fwAD.unpack_dual(out).tangent
print("forward == reverse:", math.isclose(tangent.item(), dot.item(), rel_tol=1e-10))
print("tangent dtype/shape:", tangent.dtype, tuple(tangent.shape))
print("primal after level is plain:", fwAD.unpack_dual(out).tangent is None)
