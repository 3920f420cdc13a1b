# Activation checkpointing in a memory-constrained trainer: torch.utils.checkpoint.checkpoint with
# use_reentrant=False per block (kwargs, tuple outputs, frozen inputs), checkpoint_sequential, gradients
# identical to the plain forward, and the known side effect: BatchNorm stats update again on recompute.
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)

    def forward(self, x, scale=1.0):
        h = torch.tanh(self.fc1(x))
        return x + scale * self.fc2(h), h.abs().mean()


class Net(nn.Module):
    def __init__(self, use_ckpt):
        super().__init__()
        self.blocks = nn.ModuleList([Block(3) for _ in range(3)])
        self.use_ckpt = use_ckpt
        self.calls = 0

    def forward(self, x):
        aux = 0.0
        for blk in self.blocks:
            if self.use_ckpt and self.training:
                x, a = checkpoint(blk, x, use_reentrant=False, scale=0.5)
            else:
                x, a = blk(x, scale=0.5)
            aux = aux + a
        return x, aux


def fill(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).view_as(p) * 0.5)
    return m


x = torch.stack([torch.linspace(-1, 1, 5), torch.sin(torch.arange(5.0)), torch.ones(5)], 1)
plain, ck = fill(Net(False)), fill(Net(True))
outs = []
for net in (plain, ck):
    y, aux = net(x)
    loss = y.pow(2).mean() + 0.1 * aux
    loss.backward()
    outs.append(loss)
    print(type(net).__name__, net.use_ckpt, f"{loss.item():.6f}", y.grad_fn is not None, type(aux).__name__)
print("same loss:", torch.allclose(outs[0], outs[1]))
for (n, a), b in zip(plain.named_parameters(), ck.parameters()):
    print(n, torch.allclose(a.grad, b.grad, atol=1e-7), a.grad.abs().sum().item() > 0)

# frozen input (no requires_grad) still yields parameter gradients with use_reentrant=False
blk = fill(Block(3))
frozen = x.detach()
out, _ = checkpoint(blk, frozen, use_reentrant=False)
out.sum().backward()
print("fc1 grad:", blk.fc1.weight.grad.shape, frozen.grad)

# checkpoint_sequential over an nn.Sequential split into segments
seq = fill(nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 6), nn.ReLU(), nn.Linear(6, 1)))
ref = seq(x).sum()
g_ref = torch.autograd.grad(ref, list(seq.parameters()))
inp = x.clone().requires_grad_(True)
out = checkpoint_sequential(seq, 2, inp, use_reentrant=False)
g_ck = torch.autograd.grad(out.sum(), list(seq.parameters()))
print("sequential:", out.shape, all(torch.allclose(a, b) for a, b in zip(g_ref, g_ck)))

# BatchNorm inside a checkpointed region runs its forward twice
bn_net = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3))
fill(bn_net)
with torch.no_grad():
    bn_net[1].weight.fill_(1.0)
    bn_net[1].bias.zero_()
out = checkpoint(bn_net, x, use_reentrant=False)
print("after forward:", bn_net[1].num_batches_tracked.item())
out.sum().backward()
print("after backward:", bn_net[1].num_batches_tracked.item(), bn_net[1].running_mean.round(decimals=4))

counter = {"n": 0}


def f(a):
    counter["n"] += 1
    return a.sin() * a


a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
checkpoint(f, a, use_reentrant=False).sum().backward()
print("calls:", counter["n"], a.grad)
try:
    checkpoint(f, a, use_reentrant=True, scale=2)
except ValueError as e:
    print(type(e).__name__, e)
