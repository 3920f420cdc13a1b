# masked_fill, index_put_ (with accumulate), index_fill_, and setitem with index tensors:
# the "write into selected places" idioms from Q&A answers, with and without autograd.
import torch

scores = torch.arange(12.).view(3, 4)
mask = torch.tensor([[False, True, False, True], [True, False, False, False], [False] * 4])
print(scores.masked_fill(mask, float("-inf")))
print(scores.masked_fill(mask, -1).softmax(dim=1))
print(torch.masked_fill(scores, scores > 8, 0.5))
# a mask that broadcasts over rows (causal-attention style)
causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
att = torch.ones(2, 3, 3).masked_fill(causal, float("-inf"))
print(att[0], att.softmax(-1)[1])
ints = torch.arange(6).view(2, 3)
print(ints.masked_fill(ints % 2 == 0, -7), ints.masked_fill(ints > 3, torch.tensor(100)))

# index_put_ with a tuple of index tensors; accumulate adds duplicates
t = torch.zeros(5)
t.index_put_((torch.tensor([0, 2, 2]),), torch.tensor([1., 2., 3.]), accumulate=True)
print(t)
t2 = torch.zeros(3, 3)
t2.index_put_((torch.tensor([0, 1, 2]), torch.tensor([2, 1, 0])), torch.tensor(9.))
print(t2)
t3 = torch.zeros(2, 4).index_put((torch.tensor([1, 1]), torch.tensor([3, 3])), torch.tensor([1., 4.]), accumulate=True)
print(t3)

# index_fill_: fill whole rows / columns
m = torch.arange(9.).view(3, 3)
print(m.index_fill(1, torch.tensor([0, 2]), -1.), m.clone().index_fill_(0, torch.tensor([1]), 0))

# setitem with index tensors: duplicates write "last one wins" for distinct values only
h = torch.zeros(4, dtype=torch.long)
h[torch.tensor([1, 3])] = torch.tensor([10, 30])
h[torch.tensor([True, False, False, False])] = 5
print(h, h.dtype)
g = torch.zeros(3, 4)
g[torch.tensor([0, 2]), torch.tensor([1, 3])] = 1.
g[1, torch.tensor([0, 1])] += torch.tensor([2., 3.])
g[:, torch.tensor([2])] = torch.tensor([[7.], [8.], [9.]])
print(g)

# gradients flow through all of them
w = torch.tensor([1., 2., 3., 4.], requires_grad=True)
out = w.masked_fill(w > 2.5, 0.)
(out * torch.tensor([1., 10., 100., 1000.])).sum().backward()
print(out, w.grad, out.grad_fn.name())

base = torch.ones(4, requires_grad=True)
vals = torch.tensor([5., 6.], requires_grad=True)
y = base.index_put((torch.tensor([1, 1]),), vals, accumulate=True)
(y * torch.arange(1., 5.)).sum().backward()
print(y, base.grad, vals.grad, y.grad_fn.name())

a = torch.arange(1., 7., requires_grad=True)
b = a.view(2, 3).clone()
b[:, torch.tensor([0])] = 0.
b[0, 1] = b[0, 1] * 3
b.sum().backward()
print(b, a.grad, b.grad_fn.name())

c = torch.tensor([1., 2., 3.], requires_grad=True)
d = c.index_fill(0, torch.tensor([1]), 0.)
d.pow(2).sum().backward()
print(d, c.grad, d.grad_fn.name())

try:
    torch.zeros(3).masked_fill(torch.tensor([1, 0, 1]), 2.)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3).index_put_((torch.tensor([3]),), torch.tensor(1.))
except IndexError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(2, 3).masked_fill(torch.tensor([True, False]), 1.)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(2, 3).index_put_((torch.tensor([0]),), torch.tensor([1, 2, 3]))
except RuntimeError as e:
    print(type(e).__name__, e)
