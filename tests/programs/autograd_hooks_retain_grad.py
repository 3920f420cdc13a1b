# "Autograd mechanics": tensor hooks, retain_grad, and the non-leaf .grad warning.
import warnings

import torch

x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
y.retain_grad()
z = y ** 2
seen = []
handle = y.register_hook(lambda g: seen.append(g.clone()))
x.register_hook(lambda g: g * 10)
out = z.sum()
out.backward()
print(y.grad, seen[0], x.grad)
handle.remove()
print(y.is_leaf, y.retains_grad, z.retains_grad)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(z.grad)
print(len(caught), caught[0].category.__name__, str(caught[0].message)[:64])

# Hook that replaces the gradient flowing into a non-leaf
a = torch.tensor([1., -1., 2.], requires_grad=True)
b = a * a
b.register_hook(lambda g: g.clamp(max=0.5))
b.sum().backward()
print(a.grad)

# Gradients accumulate until zeroed
w = torch.tensor(2.0, requires_grad=True)
for _ in range(3):
    (w * w).backward()
print(w.grad)
w.grad.zero_()
(w ** 3).backward()
print(w.grad)

# backward twice needs retain_graph
p = torch.tensor([1., 2.], requires_grad=True)
q = (p.exp() * p).sum()
q.backward(retain_graph=True)
q.backward()
print(p.grad)
try:
    q.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
