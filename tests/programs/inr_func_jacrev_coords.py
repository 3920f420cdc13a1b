# torch.func over a coordinate network: functional_call with a params dict, vmap(jacrev) for
# per-point input Jacobians, vmap(hessian) for curvature, and grad w.r.t. params of a loss
# built from those derivatives (an eikonal + normal-alignment loss on a sphere).
import torch
import torch.nn as nn
from torch.func import functional_call, grad, hessian, jacrev, vmap

torch.set_default_dtype(torch.float64)

net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.6 * torch.cos(torch.arange(p.numel()) * 0.83 + 0.5 * i).reshape(p.shape))
params = {k: v.detach() for k, v in net.named_parameters()}
print("param keys:", list(params))


def f(params, x):  # x: (3,) -> scalar
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze()


theta = torch.linspace(0, 3.0, 6)
phi = torch.linspace(0.2, 2.8, 6)
pts = torch.stack([torch.sin(phi) * torch.cos(theta), torch.sin(phi) * torch.sin(theta), torch.cos(phi)], dim=-1)
print("points on sphere:", pts.shape, pts.norm(dim=-1).round(decimals=6))

J = vmap(jacrev(f, argnums=1), in_dims=(None, 0))(params, pts)
print("jacobian", tuple(J.shape))
print(J.round(decimals=4))
Hs = vmap(hessian(f, argnums=1), in_dims=(None, 0))(params, pts)
print("hessian", tuple(Hs.shape), "symmetric:", torch.allclose(Hs, Hs.transpose(-1, -2)))
mean_curv = Hs.diagonal(dim1=-2, dim2=-1).sum(-1)
print("laplacian", mean_curv.round(decimals=4))


def loss_fn(params):
    g = vmap(jacrev(f, argnums=1), in_dims=(None, 0))(params, pts)
    eik = ((g.norm(dim=-1) - 1) ** 2).mean()
    align = (1 - torch.nn.functional.cosine_similarity(g, pts, dim=-1)).mean()
    return eik + align, (eik, align)


grads, (eik, align) = grad(loss_fn, has_aux=True)(params)
print(f"eikonal {eik.item():.5f} align {align.item():.5f}")
for k, g in grads.items():
    print(k, tuple(g.shape), f"{g.norm().item():.5f}")

lr = 0.1
for step in range(15):
    grads, (eik, align) = grad(loss_fn, has_aux=True)(params)
    params = {k: v - lr * grads[k] for k, v in params.items()}
    if step % 5 == 0 or step == 14:
        print(f"step {step:2d} eik {eik.item():.5f} align {align.item():.5f}")
