# Indexing idioms: slices, None, Ellipsis, boolean masks, integer arrays, and assignment through them.
import torch

x = torch.arange(24).view(2, 3, 4)
print(x[0], x[:, 1], x[..., -1], x[:, None].shape, x[1, :, ::2])
print(x[x % 5 == 0], x[:, [0, 2]].shape, x[[0, 1], [1, 2]], x[0, [2, 0], 1:3])
print(x[torch.tensor([1, 0])].shape, x[:, torch.tensor([True, False, True])].shape)

y = torch.zeros(3, 4)
y[0] = 1
y[:, 1] = torch.tensor([5., 6., 7.])
y[y == 0] = -1
y[2, [0, 3]] = torch.tensor([8., 9.])
print(y)
y[1:, 2:] += 10
print(y)

m = torch.arange(10.)
m[m > 5] = 0
print(m, m[-3:], m[::3])
idx = torch.tensor([[0, 1], [2, 3]])
print(m[idx])

w = torch.arange(6., requires_grad=True)
picked = w[[0, 0, 5]]
picked.sum().backward()
print(w.grad, picked.grad_fn.name(), w[1:3].grad_fn.name(), w[2].grad_fn.name())
w.grad = None
masked = w[w > 2]
(masked ** 2).sum().backward()
print(masked, w.grad)
try:
    x[3]
except IndexError as e:
    print("IndexError:", e)
