# Sliced score matching written with torch.func: v^T J v through jvp (forward mode) and vjp (reverse
# mode), vmapped over a bank of projection vectors, next to the autograd.grad(create_graph) version;
# then annealed Langevin over a geometric sigma schedule (torch.logspace) with a Tanhshrink/Softsign net.
import torch
import torch.nn as nn
from torch.func import functional_call, jvp, vjp, vmap

torch.set_printoptions(precision=4, sci_mode=False)


class ScoreNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(3, 10)
        self.hid = nn.Linear(10, 10)
        self.out = nn.Linear(10, 2)

    def forward(self, x, log_sigma):
        h = torch.cat([x, log_sigma.expand(x.shape[0], 1)], 1)
        h = nn.functional.softsign(self.inp(h))
        h = nn.functional.tanhshrink(self.hid(h)) + h
        return self.out(h)


net = ScoreNet()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.9 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.83 + i).view_as(p))

x = torch.stack([torch.linspace(-1, 1, 6), torch.sin(torch.linspace(0, 3, 6))], 1)
ls = torch.tensor([[0.0]])
V = torch.sign(torch.cos(torch.arange(4 * 12, dtype=torch.float32) * 1.37)).view(4, 6, 2)
params = {k: v.detach() for k, v in net.named_parameters()}


def score(xb):
    return functional_call(net, params, (xb, ls))


def vJv_forward(v):
    _, jv = jvp(score, (x,), (v,))
    return (v * jv).sum(-1)


def vJv_reverse(v):
    _, pull = vjp(score, x)
    (vj,) = pull(v)
    return (vj * v).sum(-1)


fwd = vmap(vJv_forward)(V)
rev = vmap(vJv_reverse)(V)
print(fwd.shape, torch.allclose(fwd, rev, atol=1e-5))
print(fwd.mean(0))

xg = x.clone().requires_grad_(True)
s = net(xg, ls)
ag = torch.stack([(torch.autograd.grad(s, xg, v, retain_graph=True)[0] * v).sum(-1) for v in V])
print("autograd agrees:", torch.allclose(ag, fwd, atol=1e-5))
loss = (ag.mean(0) + 0.5 * (s ** 2).sum(-1)).mean()
print(f"ssm objective {loss.item():.4f}")

sigmas = torch.logspace(0, -2, steps=5)
print(sigmas)
xt = torch.stack([torch.linspace(2, -2, 6), torch.linspace(-1.5, 1.5, 6)], 1)
eps = 2e-5
with torch.no_grad():
    for i, sigma in enumerate(sigmas):
        alpha = eps * (sigma / sigmas[-1]) ** 2
        for t in range(3):
            z = torch.sin(torch.arange(12, dtype=torch.float32).view(6, 2) * (i + 1) + t)
            xt = xt + 0.5 * alpha * net(xt, sigma.log().view(1, 1)) + alpha.sqrt() * z * 0.1
        print(i, f"sigma={sigma.item():.3f} alpha={alpha.item():.5f}", xt.norm(dim=1).max().round(decimals=3))
print(xt)
