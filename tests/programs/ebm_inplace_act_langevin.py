# Langevin sampler written with in-place tensor ops (detach_, requires_grad_, add_, clamp_) on an
# energy net whose activations run in place (ELU/SiLU/Hardswish/LeakyReLU inplace=True), plus the
# errors users hit: in-place activation on a leaf and on a tensor saved for backward.
import torch
import torch.nn as nn
import torch.nn.functional as F


def energy_net(act):
    net = nn.Sequential(nn.Linear(2, 8), act, nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(0.8 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 1.31 + 0.4 * i).view_as(p))
    return net


for act in [nn.ELU(alpha=0.9, inplace=True), nn.SiLU(inplace=True), nn.Hardswish(inplace=True),
            nn.LeakyReLU(0.1, inplace=True), nn.SELU(inplace=True), nn.CELU(1.3, inplace=True),
            nn.Mish(inplace=True), nn.ReLU6(inplace=True)]:
    net = energy_net(act)
    x = torch.stack([torch.linspace(-1, 1, 6), torch.linspace(0.5, -0.7, 6)], 1)
    x.requires_grad_()
    h = net[1](net[0](x))
    print(repr(act), h.grad_fn.name(), h.is_leaf)
    for k in range(5):
        e = net(x).sum()
        (g,) = torch.autograd.grad(e, x, create_graph=(k == 4))
        if k == 4:
            (h2,) = torch.autograd.grad(g.pow(2).sum(), x, allow_unused=True)
            print("  curvature term", None if h2 is None else round(h2.abs().sum().item(), 4))
        x.detach_()
        x.add_(g, alpha=-0.1).add_(0.01 * torch.cos(torch.arange(12.0).view(6, 2) * (k + 2)))
        x.clamp_(-1.0, 1.0)
        x.requires_grad_(True)
    with torch.no_grad():
        print("  final energy", f"{net(x).mean().item():.4f}", x.requires_grad, x.grad_fn)
    print("  ", [round(v, 4) for v in x[:, 0].tolist()])

leaf = torch.linspace(-1, 1, 4, requires_grad=True)
for fn in [lambda t: F.elu_(t), lambda t: F.silu(t, inplace=True), lambda t: t.relu_(), lambda t: F.leaky_relu_(t)]:
    try:
        fn(leaf)
    except RuntimeError as e:
        print(type(e).__name__, e)

a = torch.linspace(-1, 1, 4, requires_grad=True)
b = a * 2
c = b.sigmoid()
F.elu_(c)
try:
    c.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e)[:160])
b2 = a.exp()
F.mish(b2, inplace=True)
try:
    b2.sum().backward()
    print("mish in place after exp:", a.grad)
except RuntimeError as e:
    print(type(e).__name__, str(e)[:160])
