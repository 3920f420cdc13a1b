# retain_grad on views and on intermediates used twice; tensor hooks on intermediates that change
# the gradient; removing hook handles; hooks on views after in-place ops.
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
h = x * 2
h.retain_grad()
row = h[0]
row.retain_grad()
flat = h.view(-1)
flat.retain_grad()
out = (row ** 2).sum() + (flat * torch.tensor([1.0, 10.0, 100.0, 1000.0])).sum() + h.sum()
out.backward()
print(h.grad)
print(row.grad)
print(flat.grad)
print(x.grad)
print(h.retains_grad, row.retains_grad, x.retains_grad)

# retain_grad on a leaf is a no-op; calling it twice is fine
x.retain_grad()
h2 = x.exp()
h2.retain_grad()
h2.retain_grad()
print(x.retains_grad, h2.retains_grad)

# intermediate used twice: its .grad is the sum of both paths
a = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
b = a.sin()
b.retain_grad()
c = b * b + 3 * b
c.sum().backward(retain_graph=True)
print(b.grad, a.grad)
c = b * 2
c.sum().backward()
print(b.grad, a.grad)

# hooks that modify the gradient of an intermediate, applied in registration order
a.grad = None
grads = []
b = a * a
h1 = b.register_hook(lambda g: g * 2)
h2 = b.register_hook(lambda g: grads.append(g.clone()))
h3 = b.register_hook(lambda g: g + 1)
b.retain_grad()
(b * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(grads, b.grad, a.grad)
print(type(h1).__name__, hasattr(h1, "remove"))

# removing the scaling hook changes the next backward
a.grad = None
h1.remove()
h1.remove()  # second remove is harmless
b = a * a
b.register_hook(lambda g: g * 100)
b2 = b.detach().requires_grad_()
b.sum().backward()
print(a.grad, b2.grad)

# hook with a handle used as context manager
a.grad = None
b = a * 3
with b.register_hook(lambda g: g * 0):
    pass
b.sum().backward()
print(a.grad)

# retain_grad on a view that is then modified in-place
base = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True).clone()
v = base[1:3]
v.retain_grad()
v.mul_(5)
base.retain_grad()
(base ** 2).sum().backward()
print(base.grad, v.grad)

# register_hook on a tensor that does not require grad
try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError:", e)
# hook returning wrong shape
z = torch.ones(3, requires_grad=True)
zz = z * 2
zz.register_hook(lambda g: g.sum())
try:
    zz.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
