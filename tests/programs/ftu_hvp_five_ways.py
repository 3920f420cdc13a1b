# Hessian-vector products of an MLP loss w.r.t. its parameter dict, as in the torch.func
# "Jacobians, Hessians, hvp" tutorial: forward-over-reverse jvp(grad), reverse-over-reverse
# vjp(grad), linearize(grad), grad of <grad, v>, and the full hessian contracted with v.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, hessian, jvp, linearize, vjp

torch.set_default_dtype(torch.float64)

model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.61 + i).view(p.shape) * 0.7)

x = torch.linspace(-1, 1, 15).view(5, 3)
y = torch.sin(x.sum(dim=1, keepdim=True))
params = {k: v.detach() for k, v in model.named_parameters()}
v = {k: torch.sin(torch.arange(p.numel(), dtype=torch.float64) + 1.0).view(p.shape) for k, p in params.items()}


def loss_fn(params):
    return ((functional_call(model, params, (x,)) - y) ** 2).mean()


def hvp_fwd_rev(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def hvp_rev_rev(f, primals, tangents):
    _, vjp_fn = vjp(grad(f), *primals)
    return vjp_fn(*tangents)[0]


def hvp_linearize(f, primals, tangents):
    _, jvp_fn = linearize(grad(f), *primals)
    return jvp_fn(*tangents)


def hvp_grad_dot(f, primals, tangents):
    def g_dot_v(p):
        g = grad(f)(p)
        return sum((g[k] * tangents[0][k]).sum() for k in g)
    return grad(g_dot_v)(primals[0])


def hvp_full(f, primals, tangents):
    H = hessian(f)(primals[0])
    out = {}
    for k, row in H.items():
        n = params[k].numel()
        out[k] = sum(row[j].reshape(n, -1) @ tangents[0][j].reshape(-1) for j in row).view(params[k].shape)
    return out


results = {}
for name, fn in [("fwd-rev", hvp_fwd_rev), ("rev-rev", hvp_rev_rev), ("linearize", hvp_linearize),
                 ("grad-dot", hvp_grad_dot), ("full", hvp_full)]:
    results[name] = fn(loss_fn, (params,), (v,))
    print(name, type(results[name]).__name__, sorted(results[name]))

ref = results["full"]
for name, r in results.items():
    err = max((r[k] - ref[k]).abs().max().item() for k in ref)
    print(f"{name:10s} max diff vs full: {err < 1e-10}")

print("Hv[0.weight] =")
print(ref["0.weight"].round(decimals=6))
print("Hv[2.bias] =", ref["2.bias"].round(decimals=6))

# the Hessian block structure: H[k1][k2] has shape params[k1].shape + params[k2].shape
H = hessian(loss_fn)(params)
print({(a, b): tuple(H[a][b].shape) for a in H for b in H[a] if a <= b})
sym = max((H[a][b].reshape(params[a].numel(), -1) - H[b][a].reshape(params[b].numel(), -1).T).abs().max().item()
          for a in H for b in H[a])
print("symmetric:", sym < 1e-12)

# curvature along v: v^T H v
vHv = sum((ref[k] * v[k]).sum() for k in v)
print(f"v^T H v = {vHv.item():.8f}")
print(f"loss = {loss_fn(params).item():.8f}")
