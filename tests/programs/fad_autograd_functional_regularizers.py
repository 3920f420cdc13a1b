# Jacobian/Hessian regularisers with torch.autograd.functional, as in robustness and contractive
# autoencoder code: jacobian(create_graph=True) penalties trained by backprop, vectorize=True with
# forward-mode strategy on tuple inputs/outputs, hessian blocks, hvp/vhp/jvp defaults and strict.
import torch
import torch.nn as nn
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

torch.set_default_dtype(torch.float64)

enc = nn.Sequential(nn.Linear(3, 2), nn.Sigmoid())
dec = nn.Linear(2, 3)
for m in (enc, dec):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.1 + i).view_as(p))
x = torch.stack([torch.linspace(-1, 1, 5), torch.cos(torch.linspace(0, 2, 5)), torch.linspace(0, 1, 5) ** 2], 1)

opt = torch.optim.SGD(list(enc.parameters()) + list(dec.parameters()), lr=0.2)
for step in range(12):
    opt.zero_grad()
    recon = ((dec(enc(x)) - x) ** 2).mean()
    J = jacobian(lambda inp: enc(inp).sum(0), x, create_graph=True)  # (2, 5, 3)
    contractive = (J ** 2).sum() / len(x)
    loss = recon + 0.1 * contractive
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step:2d} recon {recon.item():.6f} jac-penalty {contractive.item():.6f} J.requires_grad={J.requires_grad}")


def two_in_two_out(a, b):
    return (a * b).sum(0), torch.tanh(a) @ b.T


a = torch.tensor([[0.2, -0.4], [1.0, 0.3]])
b = torch.tensor([[0.5, 0.1], [-0.2, 0.7]])
rev = jacobian(two_in_two_out, (a, b))
fwd = jacobian(two_in_two_out, (a, b), vectorize=True, strategy="forward-mode")
print("nested blocks:", [[tuple(blk.shape) for blk in row] for row in rev])
print("forward-mode == reverse:", all(torch.allclose(r, f) for rr, ff in zip(rev, fwd) for r, f in zip(rr, ff)))

const = jacobian(lambda a_, b_: (a_ * 0 + 1, b_.sum()), (a, b), vectorize=True)
print("independent output gives zeros:", [[float(blk.abs().sum()) for blk in row] for row in const])
try:
    jacobian(lambda a_, b_: a_ * 2, (a, b), strict=True)
except RuntimeError as e:
    print("strict:", e)
try:
    jacobian(two_in_two_out, (a, b), strategy="forward-mode")
except NotImplementedError as e:
    print("NotImplementedError:", e)


def energy(a, b):
    return (a ** 2 * b).sum() + torch.sin(a @ b).sum()


H = hessian(energy, (a, b), vectorize=True, outer_jacobian_strategy="forward-mode")
print("hessian block shapes:", [[tuple(blk.shape) for blk in row] for row in H])
print("H_ab == H_ba^T:", torch.allclose(H[0][1], H[1][0].permute(2, 3, 0, 1)))

s = torch.tensor(0.7)
print("scalar jvp default v:", jvp(lambda t: t ** 3, s))
print("scalar vjp default v:", vjp(lambda t: t ** 3, s))
print("scalar hvp default v:", hvp(lambda t: t ** 4, s))
print("scalar vhp default v:", vhp(lambda t: t ** 4, s))
try:
    jvp(lambda t: t ** 3, torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", e)
out, (va, vb) = vhp(energy, (a, b), (torch.ones(2, 2), torch.zeros(2, 2)))
print("vhp tuple:", f"{out.item():.6f}", va, vb, sep="\n")
