# micrograd lecture: build scalar expressions and check the gradients against torch,
# the way the lecture does it (double precision, requires_grad on each leaf, .grad.item()).
import torch

# the "neuron" example: o = tanh(x1*w1 + x2*w2 + b)
x1 = torch.Tensor([2.0]).double(); x1.requires_grad = True
x2 = torch.Tensor([0.0]).double(); x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double(); w1.requires_grad = True
w2 = torch.Tensor([1.0]).double(); w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double(); b.requires_grad = True
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)
print(o.data.item())
o.backward()
print('---')
print('x2', x2.grad.item())
print('w2', w2.grad.item())
print('x1', x1.grad.item())
print('w1', w1.grad.item())
print(o, n.grad_fn, o.grad_fn)
print(x1.is_leaf, n.is_leaf, x1.dtype, x1.shape, x1.grad.dtype)

# the test_sanity_check from micrograd's test suite
x = torch.Tensor([-4.0]).double()
x.requires_grad = True
z = 2 * x + 2 + x
q = z.relu() + z * x
h = (z * z).relu()
y = h + q + q * x
y.backward()
xpt, ypt = x, y
print(ypt.data.item(), xpt.grad.item())

# test_more_ops
a = torch.Tensor([-4.0]).double()
b = torch.Tensor([2.0]).double()
a.requires_grad = True
b.requires_grad = True
c = a + b
d = a * b + b**3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g = g + 10.0 / f
g.backward()
print('%.4f' % g.data.item(), '%.4f' % a.grad.item(), '%.4f' % b.grad.item())
print(g.grad_fn.name(), f.grad_fn.name(), e.grad_fn.name())
tol = 1e-6
print(abs(g.data.item() - 24.70408163265306) < tol)
print(abs(a.grad.item() - 138.83381924198252) < tol, abs(b.grad.item() - 645.5772594752186) < tol)

# torch.Tensor([2.0]) is float32 by default; .double() is a copy with grad history
t = torch.Tensor([2.0])
print(t.dtype, t.double().dtype, torch.Tensor(3).shape, torch.Tensor(2, 3).shape)
leaf = torch.tensor(2.0, requires_grad=True)
dbl = leaf.double()
print(dbl.is_leaf, dbl.grad_fn.name(), dbl.requires_grad)
(dbl * dbl).backward()
print(leaf.grad, leaf.grad.dtype)

# a mistake in the lecture: using the same node twice (b = a + a) and gradient accumulation
a = torch.tensor(3.0, requires_grad=True)
b = a + a
b.backward()
print(a.grad)
a2 = torch.tensor(-2.0, requires_grad=True)
b2 = torch.tensor(3.0, requires_grad=True)
d = a2 * b2
e = a2 + b2
f = d * e
f.backward()
print(a2.grad, b2.grad, d.grad, f.requires_grad)
try:
    o.backward()
except RuntimeError as err:
    print(type(err).__name__, str(err)[:90])
