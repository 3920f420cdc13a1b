# torch.func.vjp / jvp with has_aux and pytree primals as used in implicit-layer and meta-learning
# notebooks: vjp_fn reused for several cotangents, jvp over dict parameters with aux outputs,
# vmap(vjp_fn) for a full Jacobian, and the error messages users hit with mismatched tangents.
import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, jvp, vjp, vmap

torch.set_default_dtype(torch.float64)

net = nn.Sequential(nn.Linear(3, 4), nn.Softplus(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.7 + i).view_as(p))
params = {k: v.detach() for k, v in net.named_parameters()}
x = torch.tensor([[0.2, -0.4, 1.0], [0.5, 0.1, -0.3]])


def f(p, inp):
    out = functional_call(net, p, (inp,))
    return out, {"norm": out.norm().detach(), "mean": out.mean().detach()}


out, vjp_fn, aux = vjp(f, params, x, has_aux=True)
print("out", out)
print("aux", {k: f"{v.item():.6f}" for k, v in aux.items()})
for ct in (torch.ones(2, 2), torch.tensor([[1.0, 0.0], [0.0, -1.0]])):
    gp, gx = vjp_fn(ct)
    print("cotangent", ct.tolist(), "-> d/dx", gx, "d/d 2.bias", gp["2.bias"])

basis = torch.eye(4).view(4, 2, 2)
rows = vmap(vjp_fn)(basis)
J_x = rows[1]
print("vmap(vjp_fn) jacobian wrt x:", tuple(J_x.shape),
      torch.allclose(J_x.view(2, 2, 2, 3), jacrev(lambda i: f(params, i)[0])(x)))

tangent_p = {k: torch.ones_like(v) * 0.1 for k, v in params.items()}
out2, jv, aux2 = jvp(lambda p: f(p, x), (params,), (tangent_p,), has_aux=True)
print("jvp over params:", jv)
print("aux from jvp equals aux from vjp:", all(torch.equal(aux[k], aux2[k]) for k in aux))
# <J t, c> == <t, J^T c>
ct = torch.tensor([[0.3, -0.2], [1.0, 0.5]])
lhs = (jv * ct).sum()
gp, _ = vjp_fn(ct)
rhs = sum((gp[k] * tangent_p[k]).sum() for k in params)
print("adjoint identity:", torch.allclose(lhs, rhs), f"{lhs.item():.8f}")

checks = [
    ("tangent shape", lambda: jvp(lambda p: f(p, x)[0], (params,), ({k: torch.ones(1) for k in params},))),
    ("tangent structure", lambda: jvp(lambda a: a * 2, (x,), [torch.ones(2, 3)])),
    ("tangent dtype", lambda: jvp(lambda a: a * 2, (x,), (torch.ones(2, 3, dtype=torch.float32),))),
    ("primals not tuple", lambda: jvp(lambda a: a * 2, x, (x,))),
    ("cotangent shape", lambda: vjp_fn(torch.ones(3))),
    ("cotangent structure", lambda: vjp_fn((torch.ones(2, 2), torch.ones(2, 2)))),
    ("aux not returned", lambda: vjp(lambda a: a * 2, x, has_aux=True)),
    ("non-tensor output", lambda: vjp(lambda a: [a, 1.0], x)),
]
for name, fn in checks:
    try:
        fn()
        print(name, "ok")
    except Exception as e:
        print(name, "->", type(e).__name__, e)
