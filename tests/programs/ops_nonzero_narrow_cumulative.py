# Finding positions (nonzero, torch.where(cond), argwhere), narrow/roll views, and the running ops
# cumprod, cummax/cummin, logcumsumexp -- the StackOverflow "how do I get the indices of ..." set.
import torch

x = torch.tensor([[0, 3, 0], [7, 0, 2]])
print(torch.nonzero(x), x.nonzero().shape, x.nonzero().dtype)
rows, cols = torch.where(x)
print(rows, cols, torch.where(x > 2))
print(torch.argwhere(x), torch.argwhere(torch.tensor([0., 1.5, 0., -2.])))
print(torch.nonzero(torch.tensor([1, 0, 2]), as_tuple=True), torch.tensor(5).nonzero(), torch.tensor(0).nonzero())
print(torch.zeros(3).nonzero(), torch.zeros(2, 2).nonzero().shape, (x == 7).nonzero().squeeze())
print(torch.where(torch.tensor([True, False, True])), torch.count_nonzero(x), torch.count_nonzero(x, dim=0))
print(torch.tensor(3.).nonzero(as_tuple=True), torch.where(torch.tensor(True)))
first_pos = (torch.tensor([0., 0., 4., 0., 5.]) > 0).nonzero()[0].item()
print(first_pos)

t = torch.arange(10.)
print(t.narrow(0, 2, 3), torch.narrow(t.view(2, 5), 1, 1, 2), t.narrow(0, -3, 2))
print(torch.roll(t.view(2, 5), shifts=(1, -2), dims=(0, 1)), t.roll(-1), torch.roll(t.view(2, 5), 3))
n = t.narrow(0, 0, 4)
n[0] = 100.
print(t[:2], n.is_contiguous(), t.view(2, 5).narrow(1, 1, 2).is_contiguous())

v = torch.tensor([1., 3., 2., 5., 4.])
print(torch.cumprod(v, 0), v.cumprod(dim=0, dtype=torch.float64))
cm = torch.cummax(v, dim=0)
print(cm, cm.values, cm.indices, type(cm).__name__)
print(torch.cummin(v, 0), torch.tensor([[3, 1], [2, 4]]).cummin(1))
print(torch.logcumsumexp(v, dim=0), torch.tensor([[0., 0.], [1., 1.]]).logcumsumexp(1))
print(torch.cummax(torch.tensor([2, 2, 1, 2]), 0))
print(torch.cumsum(torch.tensor([1, 2, 3], dtype=torch.int32), 0).dtype, torch.tensor([True, True, False]).cumsum(0))

w = torch.tensor([2., -1., 3., 0.5], requires_grad=True)
p = torch.cumprod(w, 0)
p.sum().backward()
print(p, w.grad, p.grad_fn.name())
w.grad = None
cmx = w.cummax(0)
cmx.values.sum().backward()
print(cmx.values, w.grad, cmx.values.grad_fn.name())
w.grad = None
lc = torch.logcumsumexp(w, 0)
lc[-1].backward()
print(lc, w.grad, lc.grad_fn.name())
w.grad = None
r = w.roll(1) * torch.tensor([1., 2., 3., 4.])
r.sum().backward()
print(r, w.grad, r.grad_fn.name())
w.grad = None
nr = w.narrow(0, 1, 2)
(nr * nr).sum().backward()
print(nr, w.grad, nr.grad_fn.name())
z = torch.tensor([1., 0., 2.], requires_grad=True)
zp = z.cumprod(0)
zp.sum().backward()
print(zp, z.grad)

try:
    t.narrow(0, 8, 5)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.cummax(torch.tensor([1., 2.]), 1)
except IndexError as e:
    print(type(e).__name__, e)
