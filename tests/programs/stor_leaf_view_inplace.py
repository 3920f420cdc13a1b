# Forum thread "a view of a leaf Variable that requires grad is being used in an in-place
# operation": in-place writes through views with autograd, CopySlices grads, _base and is_leaf.
import torch

w = torch.arange(6.0, requires_grad=True)
v = w[:3]
print(v._base is w, v.is_leaf, v.requires_grad, v.grad_fn.__class__.__name__)
try:
    v.mul_(2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    w.view(2, 3)[0, 0] = 1.0
except RuntimeError as e:
    print(type(e).__name__, e)
with torch.no_grad():
    w[:2] = torch.tensor([10.0, 20.0])
print(w, w.is_leaf, w._version)

a = w * 1.0
print(a._base is None, a.is_leaf)
a[1:4] = torch.tensor([1.0, 2.0, 3.0])
print(a.grad_fn.__class__.__name__)
a.view(2, 3)[:, 2] *= 5
print(a, a.grad_fn.__class__.__name__)
a.sum().backward()
print(w.grad)

x = torch.linspace(-1, 1, 5, requires_grad=True)
y = x.clone()
y[y < 0] = 0
y.sum().backward()
print(x.grad)

b = torch.ones(4, requires_grad=True)
c = b.clone()
d = c.view(2, 2)
d.t_()
print(d.grad_fn.__class__.__name__, c._version, d._version)
e = c.unsqueeze(0)
e.mul_(torch.tensor([1.0, 2.0, 3.0, 4.0]))
print(c, c.grad_fn.__class__.__name__)
(c * c).sum().backward()
print(b.grad)

m = torch.arange(6.0).reshape(2, 3).requires_grad_()
t = m.t()
print(t.is_leaf, t._base is m, t.stride())
s = t.sum(0)
s.sum().backward()
print(m.grad)
dt = m.detach()
dt[0, 0] = 42
print(m[0, 0].item(), dt.requires_grad, m._version)
mp = torch.arange(3.0).requires_grad_()
q = mp.exp()
q2 = q[1:]
q2.zero_()
try:
    q.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e)[:90])
