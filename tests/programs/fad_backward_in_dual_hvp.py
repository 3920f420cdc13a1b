# Hessian-vector products of a network loss w.r.t. its parameters by forward-over-reverse with
# dual parameters (loss.backward-style autograd.grad run inside forward_ad.dual_level), used for
# a power iteration on the top Hessian eigenvalue (sharpness); checked against torch.func.
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, jvp

torch.set_default_dtype(torch.float64)

model = nn.Sequential(nn.Conv1d(2, 3, 3, padding=1), nn.Tanh(), nn.Flatten(), nn.Linear(3 * 5, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.4 * torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.61 + i).view_as(p))
x = torch.sin(torch.arange(4 * 2 * 5, dtype=torch.float64) * 0.4).view(4, 2, 5)
y = torch.tensor([0, 1, 1, 0])
names = [n for n, _ in model.named_parameters()]
params = {n: p.detach() for n, p in model.named_parameters()}


def loss_fn(p):
    return F.cross_entropy(functional_call(model, p, (x,)), y)


def hvp_dual(v):
    with fwAD.dual_level():
        dual = {n: fwAD.make_dual(params[n].clone().requires_grad_(True), v[n]) for n in names}
        loss = loss_fn(dual)
        grads = torch.autograd.grad(loss, list(dual.values()))
        return {n: fwAD.unpack_dual(g).tangent for n, g in zip(names, grads)}


def hvp_func(v):
    return jvp(grad(loss_fn), (params,), (v,))[1]


v = {n: torch.sin(torch.arange(params[n].numel(), dtype=torch.float64) + 1.0).view_as(params[n]) for n in names}
a, b = hvp_dual(v), hvp_func(v)
for n in names:
    print(n, tuple(a[n].shape), "agree:", torch.allclose(a[n], b[n]), f"{a[n].norm().item():.6f}")

# power iteration for the top eigenvalue of the Hessian
def norm(d):
    return torch.sqrt(sum((t ** 2).sum() for t in d.values()))


vec = {n: t / norm(v) for n, t in v.items()}
for it in range(12):
    hv = hvp_dual(vec)
    eig = sum((hv[n] * vec[n]).sum() for n in names)
    nrm = norm(hv)
    vec = {n: t / nrm for n, t in hv.items()}
    if it % 3 == 2:
        print(f"power iter {it}: rayleigh {eig.item():.6f}")

flat = torch.cat([params[n].flatten() for n in names])
sizes = [params[n].numel() for n in names]


def flat_loss(w):
    chunks = torch.split(w, sizes)
    return loss_fn({n: c.view_as(params[n]) for n, c in zip(names, chunks)})


H = torch.autograd.functional.hessian(flat_loss, flat)
print("hessian", tuple(H.shape), "top eig", f"{torch.linalg.eigvalsh(H).abs().max().item():.6f}")
