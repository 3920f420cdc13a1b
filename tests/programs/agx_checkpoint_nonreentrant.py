# Activation checkpointing with use_reentrant=False: multiple inputs/outputs, kwargs, non-tensor
# args, checkpoint_sequential, a forward counter showing recomputation, and dropout-free blocks.
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

calls = {"n": 0}


def block(x, w, scale=1.0, *, shift=0.0):
    calls["n"] += 1
    h = torch.tanh(x @ w) * scale + shift
    return h, h.sum(dim=1)


x = torch.linspace(-1, 1, 6).view(2, 3).requires_grad_()
w = (torch.arange(9.0).view(3, 3) / 10).requires_grad_()

h, s = block(x, w, 2.0, shift=0.5)
(h.pow(2).sum() + s.sum()).backward()
ref = (x.grad.clone(), w.grad.clone())
x.grad = w.grad = None

calls["n"] = 0
h, s = checkpoint(block, x, w, 2.0, shift=0.5, use_reentrant=False)
print(calls["n"], type(h).__name__, h.requires_grad, s.requires_grad, tuple(s.shape))
(h.pow(2).sum() + s.sum()).backward()
print(calls["n"])
print(torch.allclose(x.grad, ref[0]), torch.allclose(w.grad, ref[1]))
print(x.grad)

# Only one of the outputs used
x.grad = w.grad = None
calls["n"] = 0
h, s = checkpoint(block, x, w, use_reentrant=False)
s.sum().backward()
print(calls["n"], w.grad)

# Inputs that do not require grad: output still requires grad through w
calls["n"] = 0
w.grad = None
plain = x.detach()
h, _ = checkpoint(block, plain, w, use_reentrant=False)
print(h.requires_grad)
h.sum().backward()
print(calls["n"], w.grad.sum())

# under no_grad, checkpoint just runs the function
with torch.no_grad():
    h, _ = checkpoint(block, x, w, use_reentrant=False)
print(h.requires_grad)

# checkpoint_sequential over a Sequential model
model = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 5), nn.ReLU(), nn.Linear(5, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i).view(p.shape) * 0.4)
inp = torch.linspace(-2, 2, 12).view(4, 3)
# input does not require grad, parameters inside do (non-reentrant handles this)
out = checkpoint(model, inp, use_reentrant=False)
out.sum().backward()
print(out.requires_grad, model[0].bias.grad)
model.zero_grad()
out_plain = model(inp)
out_plain.sum().backward()
g_plain = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
out_ck = checkpoint_sequential(model, 2, inp, use_reentrant=False)
out_ck.sum().backward()
print(torch.allclose(out_plain, out_ck), out_ck.shape)
print(all(torch.allclose(a, b.grad, atol=1e-6) for a, b in zip(g_plain, model.parameters())))
print(model[4].weight.grad)

# backward twice through a checkpointed region needs retain_graph too
y = checkpoint(lambda t: (t.exp() * 2).sum(), x, use_reentrant=False)
y.backward(retain_graph=True)
y.backward()
print(x.grad)

# modifying an input in-place after checkpoint is detected at recompute
z = x.detach().clone().requires_grad_()
zz = z * 1
out = checkpoint(lambda t: t.sin().sum(), zz, use_reentrant=False)
with torch.no_grad():
    zz.add_(1)
try:
    out.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
