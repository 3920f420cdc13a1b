# Activation checkpointing combined with torch.autograd.grad: a gradient-norm penalty (create_graph=True)
# through non-reentrant checkpointed blocks, the options users pass (context_fn, determinism_check,
# preserve_rng_state), and the reentrant variant's refusal of .grad().
import contextlib

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


class Block(nn.Module):
    def __init__(self, dim=4):
        super().__init__()
        self.fc1 = nn.Linear(dim, 8)
        self.fc2 = nn.Linear(8, dim)

    def forward(self, x):
        return x + self.fc2(torch.tanh(self.fc1(x)))


blocks = nn.ModuleList(Block() for _ in range(2))
with torch.no_grad():
    for i, p in enumerate(blocks.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view_as(p) * 0.5)


def run(x, ckpt, **kw):
    for blk in blocks:
        x = checkpoint(blk, x, use_reentrant=False, **kw) if ckpt else blk(x)
    return x


x = torch.linspace(-1, 1, 12).view(3, 4)
results = []
for ckpt in (False, True):
    xi = x.clone().requires_grad_(True)
    out = run(xi, ckpt)
    (gx,) = torch.autograd.grad(out.pow(2).sum(), xi, create_graph=True)
    penalty = gx.pow(2).sum()
    blocks.zero_grad()
    penalty.backward()
    print(ckpt, f"{penalty.item():.4f}", xi.grad[0].round(decimals=4))
    results.append([p.grad.clone() for p in blocks.parameters()])
print(all(torch.allclose(a, b, atol=1e-5) for a, b in zip(*results)))
print(results[1][0][:2].round(decimals=4))

# Hessian-vector product through a checkpointed function
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
f = checkpoint(lambda t: (t.sin() * t.pow(2)).sum(), w, use_reentrant=False)
(g,) = torch.autograd.grad(f, w, create_graph=True)
(hv,) = torch.autograd.grad(g @ torch.ones(3), w)
print(g.round(decimals=4), hv.round(decimals=4))

# options from real training scripts
entered = []


@contextlib.contextmanager
def tag(name):
    entered.append(name)
    yield


out = checkpoint(blocks[0], x, use_reentrant=False, context_fn=lambda: (tag("fwd"), tag("recompute")),
                 determinism_check="none", preserve_rng_state=False)
out.sum().backward()
print(entered)
for kw in (dict(determinism_check="shape"), dict(use_reentrant=True, context_fn=lambda: None),
           dict(use_reentrant=True, debug=True), dict(use_reentrant=True, extra=1)):
    try:
        checkpoint(blocks[0], x, **({"use_reentrant": False} | kw))
    except ValueError as e:
        print(type(e).__name__, e)
try:
    checkpoint_sequential(blocks, 2, x, use_reentrant=False, extra=1)
except ValueError as e:
    print(type(e).__name__, e)

xr = x.clone().requires_grad_(True)
y = checkpoint(blocks[1], xr, use_reentrant=True)
try:
    torch.autograd.grad(y.sum(), xr)
except RuntimeError as e:
    print(type(e).__name__, str(e)[:70])
y = checkpoint(blocks[1], xr, use_reentrant=True)
y.sum().backward()
print(xr.grad[2].round(decimals=4))
