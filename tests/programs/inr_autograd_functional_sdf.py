# torch.autograd.functional on a sphere SDF network: jacobian (vectorize / forward-mode
# strategies), hessian, hvp/vhp, jvp/vjp with create_graph, used for a curvature penalty.
import torch
import torch.nn as nn
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

torch.set_default_dtype(torch.float64)

net = nn.Sequential(nn.Linear(3, 10), nn.Softplus(beta=5), nn.Linear(10, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.8 * torch.sin(torch.arange(p.numel()) * 0.71 + i).view_as(p))


def sdf(p):  # (N,3) -> (N,)
    return net(p).squeeze(-1) + p.norm(dim=-1) - 0.5


def sdf1(p):  # (3,) -> ()
    return sdf(p.unsqueeze(0))[0]


pts = torch.tensor([[0.5, 0.0, 0.0], [0.0, 0.3, 0.4], [0.2, -0.2, 0.1]])
J = jacobian(sdf, pts)
print("jacobian", tuple(J.shape))
Jd = torch.einsum("nnk->nk", J)
print("per-point grad", Jd.round(decimals=4))
Jv = jacobian(sdf, pts, vectorize=True)
Jf = jacobian(sdf, pts, vectorize=True, strategy="forward-mode")
print("vectorize same:", torch.allclose(J, Jv), "forward-mode same:", torch.allclose(J, Jf))
H = hessian(sdf1, pts[1])
print("hessian", H.round(decimals=4))
v = torch.tensor([1.0, 0.0, 0.0])
out, hv = hvp(sdf1, pts[1], v)
_, vh = vhp(sdf1, pts[1], v)
print("f", round(out.item(), 5), "hvp", hv.round(decimals=4), "vhp==hvp:", torch.allclose(hv, vh))
val, jv = jvp(sdf, pts, torch.ones_like(pts))
print("jvp", jv.round(decimals=4))
val, vj = vjp(sdf, pts, torch.ones(3))
print("vjp", vj.round(decimals=4))
multi = jacobian(lambda a, b: (a * b).sum(-1), (pts, pts.flip(0)))
print("tuple inputs:", type(multi).__name__, [tuple(m.shape) for m in multi])
try:
    jacobian(sdf, pts, strategy="forward-mode")
except (ValueError, NotImplementedError) as e:
    print(type(e).__name__, e)

opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
for step in range(10):
    opt.zero_grad()
    H = torch.stack([hessian(sdf1, p, create_graph=True) for p in pts])
    g = torch.einsum("nnk->nk", jacobian(sdf, pts, create_graph=True))
    loss = H.diagonal(dim1=-2, dim2=-1).sum(-1).pow(2).mean() + ((g.norm(dim=-1) - 1) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 3 == 0 or step == 9:
        print(f"step {step} loss {loss.item():.5f}")
