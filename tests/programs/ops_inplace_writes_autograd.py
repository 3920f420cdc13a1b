# In-place writes inside a differentiable computation: masked_fill_, index_put_, setitem, index_fill_,
# scalar updates like h[i] = h[i] * k -- which ones autograd accepts, grad_fn names, and the grads.
import torch

x = torch.tensor([1., -2., 3., -4.], requires_grad=True)
h = x * 2
h.masked_fill_(h < 0, 0.)
h.sum().backward()
print(h, h.grad_fn.name(), x.grad)
x.grad = None

h = x.clone()
h[h < 0] = 0.
(h * h).sum().backward()
print(h, h.grad_fn.name(), x.grad)
x.grad = None

h = x.clone()
h.index_put_((torch.tensor([0, 0]),), torch.tensor(5.), accumulate=True)
(h * torch.tensor([1., 2., 3., 4.])).sum().backward()
print(h, h.grad_fn.name(), x.grad)
x.grad = None

# running product written element by element (a common loop in beginner code)
h = x.clone()
for i in range(1, 4):
    h[i] = h[i] * h[i - 1]
try:
    h.sum().backward()
except RuntimeError as err:
    print(type(err).__name__, str(err)[:90])
print(h, h.grad_fn.name(), x.grad)
x.grad = None

h = x.clone()
h[1] = h[1] * 3
h[2] = h[2] + 1
h.sum().backward()
print(h, x.grad)
x.grad = None

y = x * 3
x2 = x.clone()
x2.add_(1)
z = x2 * 2
x2.mul_(10)
(y.sum() + z.sum()).backward()
print(x2, x.grad)
x.grad = None

s = x.clone()
scaled = s * torch.tensor(2.)
s.zero_()
scaled.sum().backward()
print(scaled, x.grad)
x.grad = None

W = torch.tensor([[1., 0., 2., 0.], [0., 1., 0., 3.]])
hid = x.clone()
proj = W @ hid.view(4, 1)
proj_t = hid @ W.T
hid.mul_(2)
(proj.sum() + proj_t.sum()).backward()
print(proj, x.grad)
x.grad = None


e = x.clone()
ex = e.exp()
e.add_(1)
try:
    ex.sum().backward()
except RuntimeError as err:
    print(type(err).__name__, str(err)[:90])
x.grad = None

m = x.clone()
m.index_fill_(0, torch.tensor([3]), -1.)
m.masked_fill_(torch.tensor([True, False, False, False]), 7.)
(m * m).sum().backward()
print(m, m.grad_fn.name(), x.grad, m._version)
x.grad = None

v = x.detach().clone()
v[torch.tensor([0, 2])] = torch.tensor([9., 9.])
print(v, v._version, x.requires_grad, v.requires_grad)
try:
    x[0] = 1.
except RuntimeError as err:
    print(type(err).__name__, err)
try:
    x.masked_fill_(x > 0, 0.)
except RuntimeError as err:
    print(type(err).__name__, err)
with torch.no_grad():
    x[x < 0] = 0.
print(x, x.requires_grad, x.grad_fn, x._version)
