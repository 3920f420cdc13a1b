# Forward-mode tricks from CNF / score-matching code: Hutchinson divergence through
# torch.autograd.forward_ad dual tensors pushed through an nn.Module, torch.func.jvp and
# linearize for J v, forward-over-reverse Hessian-vector products jvp(grad(f)), and the exact
# divergence as trace(jacfwd) compared with a loop of reverse-mode grads.
import torch
import torch.nn as nn
import torch.autograd.forward_ad as fwAD
from torch.func import jvp, vjp, grad, jacfwd, jacrev, linearize, vmap

torch.set_printoptions(precision=4, sci_mode=False)


class ScoreNet(nn.Module):
    def __init__(self, d=3, h=8):
        super().__init__()
        self.lin1 = nn.Linear(d, h)
        self.lin2 = nn.Linear(h, d)

    def forward(self, x):
        return self.lin2(torch.nn.functional.silu(self.lin1(x)))


net = ScoreNet()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.83 + i).reshape(p.shape))

x = torch.stack([torch.linspace(-1, 1, 4), torch.sin(torch.arange(4.0)), torch.cos(torch.arange(4.0))], dim=1)
v = torch.sign(torch.sin(torch.arange(12.0) * 2.1 + 0.3)).reshape(4, 3)
print("probe v:\n", v)

with fwAD.dual_level():
    dual = fwAD.make_dual(x, v)
    out = net(dual)
    primal, tangent = fwAD.unpack_dual(out)
    print("primal requires_grad:", primal.requires_grad, "tangent is None:", tangent is None)
    hutch_fwd = (tangent * v).sum(1)
    print("unpacked field:", type(fwAD.unpack_dual(out)).__name__, fwAD.unpack_dual(out)._fields)
print("hutchinson (forward_ad):", hutch_fwd)

out2, jv = jvp(net, (x,), (v,))
print("jvp equal:", torch.allclose(jv, tangent), torch.allclose(out2, primal))
out3, jvp_fn = linearize(net, x)
print("linearize equal:", torch.allclose(jvp_fn(v), jv))
_, vjp_fn = vjp(net, x)
(vj,) = vjp_fn(v)
print("hutchinson (vjp):", (vj * v).sum(1))

# exact divergence per sample
def single(xi):
    return net(xi.unsqueeze(0)).squeeze(0)

J = vmap(jacfwd(single))(x)
print("jacfwd shape:", tuple(J.shape))
div_exact = torch.diagonal(J, dim1=-2, dim2=-1).sum(-1)
xr = x.clone().requires_grad_(True)
f = net(xr)
div_loop = sum(torch.autograd.grad(f[:, i].sum(), xr, retain_graph=True)[0][:, i] for i in range(3))
print("exact div:", div_exact)
print("loop == jacfwd:", torch.allclose(div_exact, div_loop, atol=1e-6))
print("jacrev == jacfwd:", torch.allclose(vmap(jacrev(single))(x), J, atol=1e-6))

# Hessian-vector products of an energy, forward-over-reverse vs reverse-over-reverse
def energy(z):
    return (torch.log1p(z ** 2).sum() + (z[0] * z[1] * z[2]))

z0 = torch.tensor([0.3, -0.7, 1.1])
u = torch.tensor([1.0, -1.0, 1.0])
_, hvp_fwd = jvp(grad(energy), (z0,), (u,))
zr = z0.clone().requires_grad_(True)
(g,) = torch.autograd.grad(energy(zr), zr, create_graph=True)
(hvp_rev,) = torch.autograd.grad(g, zr, u)
print("hvp fwd:", hvp_fwd)
print("hvp rev:", hvp_rev)

# forward AD on a module's parameters: directional derivative of the loss
params = {n: p.detach() for n, p in net.named_parameters()}
directions = {n: torch.ones_like(p) * 0.01 for n, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(net.lin1 if name.startswith("lin1") else net.lin2, name.split(".")[1])
        setattr(net.lin1 if name.startswith("lin1") else net.lin2, name.split(".")[1],
                fwAD.make_dual(p, directions[name]))
    loss = (net(x) ** 2).mean()
    print("loss", round(fwAD.unpack_dual(loss).primal.item(), 5),
          "dir. derivative", round(fwAD.unpack_dual(loss).tangent.item(), 5))
print(type(net.lin1.weight).__name__, isinstance(net.lin1.weight, nn.Parameter))
