# Input-sensitivity analysis with torch.autograd.functional.jacobian in forward mode
# (strategy="forward-mode", vectorize=True) versus reverse mode, and forward-over-reverse Hessians
# (outer_jacobian_strategy="forward-mode"), as used to compare attack directions.
import torch
import torch.nn as nn
from torch.autograd.functional import jacobian, hessian

torch.set_printoptions(precision=4)

net = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.8 + i).view_as(p))

x = torch.tensor([0.3, -0.2, 0.9])
J_rev = jacobian(net, x)
J_fwd = jacobian(net, x, vectorize=True, strategy="forward-mode")
print(J_rev.shape, J_fwd.shape, torch.allclose(J_rev, J_fwd, atol=1e-6))
print(J_rev)
print(J_fwd.requires_grad, J_rev.requires_grad)
print(J_fwd.detach())
# sensitivity per input feature and the most sensitive direction
sens = J_fwd.detach().abs().sum(dim=0)
print("sensitivity", sens, "most sensitive", sens.argmax().item())
U, S, Vh = torch.linalg.svd(J_rev)
print("top singular value", f"{S[0].item():.4f}")

# a batch of inputs: Jacobian of the per-sample function, block diagonal structure
xb = torch.stack([x, x * 0.5, -x])
Jb = jacobian(lambda z: net(z).sum(dim=0), xb, vectorize=True, strategy="forward-mode")
print(Jb.shape, torch.allclose(Jb.detach()[:, 0], J_rev, atol=1e-6))


def energy(z):
    return (torch.tanh(z) ** 2).sum() + z[0] * z[2]


def pair(a, b):
    return (a * b).sum() + (a ** 2).sum() * b.sum()


H_rev = hessian(energy, x)
H_fwd = hessian(energy, x, vectorize=True, outer_jacobian_strategy="forward-mode")
print(torch.allclose(H_rev, H_fwd, atol=1e-6), H_fwd.shape)
print(H_rev)
Hs = hessian(pair, (x, torch.ones(3)), vectorize=True, outer_jacobian_strategy="forward-mode")
print(type(Hs).__name__, type(Hs[0]).__name__, [[tuple(h.shape) for h in row] for row in Hs])
print(Hs[0][1].detach())

# tuple inputs and outputs
def two(a, b):
    return a * b, (a + b).sum()


J2 = jacobian(two, (x, torch.full((3,), 2.0)), vectorize=True, strategy="forward-mode")
print(type(J2).__name__, [[tuple(j.shape) for j in row] for row in J2])
print(J2[0][0], J2[1][0])
J3 = jacobian(lambda z: (z.exp(), z.sum()), x, vectorize=True, strategy="forward-mode")
print(type(J3).__name__, J3[1])
print(jacobian(lambda z: z.double() ** 2, x, vectorize=True, strategy="forward-mode").dtype)
print(jacobian(lambda z: torch.ones(2), x, vectorize=True, strategy="forward-mode"))

for kwargs in [dict(strategy="forward-mode"), dict(strategy="forward-mode", vectorize=True, strict=True),
               dict(strategy="forward-mode", vectorize=True, create_graph=True), dict(strategy="sideways")]:
    try:
        jacobian(net, x, **kwargs)
    except Exception as e:
        print(type(e).__name__, e)
