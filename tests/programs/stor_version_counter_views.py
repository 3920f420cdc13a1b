# Blog post "what is x._version?": the version counter is shared between a tensor and its views,
# bumps on in-place ops, and is what autograd checks before backward.
import torch

x = torch.arange(6, dtype=torch.float32)
print("start", x._version)
x.add_(1)
print("after add_", x._version)
v = x.view(2, 3)
print("view shares", v._version, v._base is x)
v[0, 0] = 100.0
print("after setitem on view", x._version, v._version)
x.mul_(2).sub_(1)
print("after chain", x._version, v._version)
print(x)
s = x[2:4]
s.zero_()
print("after zero_ on slice", x._version, s._version, x)
c = x.clone()
print("clone fresh", c._version, c._base is None)
d = x.detach()
print("detach shares version", d._version)
d.fill_(3.0)
print("after fill_ on detach", x._version, x)
with torch.no_grad():
    x.add_(1)
print("under no_grad", x._version)
x.data.add_(1)
print("through .data", x._version)

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = w * 2
z = y.sigmoid()
print("y version before", y._version)
out = z.sum()
z2 = z.view(3)
print(z2._version, z2._base is z)
try:
    z.mul_(2)
    out.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e).split(";")[0])
w2 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a = w2.exp()
b = a.view(3)
b.add_(1)
print("a version", a._version, b.grad_fn.__class__.__name__, a.grad_fn.__class__.__name__)
try:
    a.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e).split(";")[0])
print(w2.grad)
