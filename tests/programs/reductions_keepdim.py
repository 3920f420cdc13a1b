# Reductions over dims: sum/mean/max/min/prod/std/var/norm/logsumexp, keepdim and the named tuples.
import torch

x = torch.tensor([[1., 5., 3.], [4., 2., 6.]])
print(x.sum(), x.sum(0), x.sum(1, keepdim=True), x.sum(dim=(0, 1)), x.sum(dim=[0]))
print(x.mean(), x.mean(-1), x.mean((0, 1), keepdim=True).shape)
print(torch.max(x), torch.max(x, 1), torch.max(x, dim=0, keepdim=True))
mx = x.max(dim=1)
print(mx.values, mx.indices, mx[0], type(mx).__name__)
print(x.min(), x.argmax(), x.argmax(dim=1), x.argmin(dim=0, keepdim=True))
print(x.prod(), x.prod(1), x.std(), x.std(0), x.var(1, unbiased=False))
print(x.norm(), x.norm(dim=1), x.norm(p=1), torch.norm(x, 2, 1))
print(x.logsumexp(dim=1), torch.logsumexp(x, 0))
print(torch.maximum(x, torch.tensor(3.)), torch.max(x, torch.full_like(x, 3.)))
print(x.amax(dim=1), x.amin(0), x.aminmax())
print(x.cummax(1).values)
print(torch.median(torch.tensor([3., 1., 2., 4.])), torch.tensor([[1., 3.], [2., 0.]]).median(dim=1))
print(torch.mean(x, dim=1, dtype=torch.float64).dtype)
w = x.clone().requires_grad_()
w.max().backward()
print(w.grad)
w.grad = None
w.max(dim=1).values.sum().backward()
print(w.grad)
w.grad = None
w.prod().backward()
print(w.grad)
