# "Autograd mechanics": in-place correctness checks and version counters.
import torch

a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.sigmoid()
print(b._version)
c = b * 2
b.mul_(2)          # sigmoid saved its output: backward must refuse
print(b._version)
try:
    c.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:120])

e = a.exp()
e.add_(1)          # exp saved its output too
try:
    e.sum().backward()
except RuntimeError as err:
    print("RuntimeError:", str(err)[:120])

f = a * 3
f.add_(1)          # add does not need f: fine
f.sum().backward()
print(a.grad)

try:
    a.add_(1)
except RuntimeError as err:
    print("RuntimeError:", err)

with torch.no_grad():
    a.add_(1)
print(a, a._version)

x = torch.zeros(4, requires_grad=True).clone()
x[1] = 5.0
print(x, x.grad_fn.name())
v = x.view(2, 2)
v.mul_(2)
print(x, v.grad_fn.name(), x.grad_fn.name())
x.sum().backward()
leaf = torch.ones(3, requires_grad=True)
try:
    leaf[0] = 2.0
except RuntimeError as err:
    print("RuntimeError:", err)
