# requires_grad propagation rules and grad-mode nesting, as asked on the forums.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
c = torch.cat([a, b])
print(c.requires_grad, c.grad_fn.name(), c.is_leaf)
print(torch.stack([b, b]).requires_grad, torch.stack([b, a]).grad_fn.name())

idx = (a * 3).argmax()
print(idx, idx.requires_grad, idx.grad_fn, idx.dtype)
vals, inds = (a * 3).max(dim=0)
print(vals.requires_grad, inds.requires_grad, inds.grad_fn)
mask = a > 1.5
print(mask, mask.requires_grad, mask.grad_fn)
print((a == a).requires_grad, a.sign().requires_grad, a.round().requires_grad, a.floor().grad_fn.name())
print(a.long().requires_grad, a.int().grad_fn, a.double().requires_grad, a.double().grad_fn.name())
print(torch.nonzero(a).requires_grad, a.argsort().requires_grad, a.topk(1).indices.requires_grad)
print(a.sort().values.requires_grad, a.numel(), a.shape)
print(torch.zeros_like(a).requires_grad, torch.ones_like(a, requires_grad=True).is_leaf)
print(torch.where(mask, a, b).grad_fn.name(), torch.where(mask, b, b).requires_grad)
print(a.new_zeros(2).requires_grad, a.detach().clone().requires_grad, a.clone().requires_grad)

# integer tensors cannot require grad
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (a * 3).argmax().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (a > 1).float().sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# non-leaf requires_grad cannot be switched off
y = a * 2
try:
    y.requires_grad = False
except RuntimeError as e:
    print("RuntimeError:", e)
y.requires_grad_(True)
print(y.requires_grad)


@torch.enable_grad()
def inner(t):
    with torch.no_grad():
        u = t * 2
    return u, t * 3, torch.is_grad_enabled()


with torch.no_grad():
    u, v, flag = inner(a)
print(u.requires_grad, v.requires_grad, flag, torch.is_grad_enabled())

prev = torch.is_grad_enabled()
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (a * 2).requires_grad)
with torch.enable_grad():
    print(torch.is_grad_enabled(), (a * 2).requires_grad)
torch.set_grad_enabled(prev)
print(torch.is_grad_enabled())


@torch.no_grad
def bare(t):
    return t * 2


print(bare(a).requires_grad)

with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
        t = torch.ones(2)
        print(t.is_inference())
    with torch.no_grad():
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(torch.is_inference_mode_enabled(), torch.is_grad_enabled(), a.is_inference())

gm = torch.set_grad_enabled(False)
print(type(gm).__name__, torch.is_grad_enabled())
torch.set_grad_enabled(True)
print(torch.no_grad().__class__.__name__, repr(torch.is_grad_enabled()))
