# Segment reductions as graph / pooling libraries write them: scatter_add_, index_add_,
# scatter_reduce with "mean"/"amax", segment counts via bincount, and gradients through them.
import torch

src = torch.tensor([[1., 2.], [3., 4.], [5., 6.], [7., 8.], [9., 10.]])
batch = torch.tensor([0, 0, 1, 2, 2])
num_segments = int(batch.max()) + 1
out = torch.zeros(num_segments, src.size(1))
out.scatter_add_(0, batch.unsqueeze(-1).expand_as(src), src)
print(out)
out2 = torch.zeros(num_segments, 2).index_add_(0, batch, src)
print(torch.equal(out, out2), out2)
print(torch.zeros(3, 2).index_add(0, batch, src, alpha=0.5))
counts = torch.bincount(batch, minlength=4)
print(counts, counts.dtype)
mean = out / counts[:num_segments].clamp(min=1).unsqueeze(-1)
print(mean)
idx = batch.unsqueeze(-1).expand_as(src)
print(torch.zeros(3, 2).scatter_reduce(0, idx, src, reduce="mean", include_self=False))
print(torch.zeros(3, 2).scatter_reduce(0, idx, src, reduce="amax", include_self=False))
print(torch.full((3, 2), 4.).scatter_reduce(0, idx, src, reduce="amin"))
print(torch.ones(3, 2).scatter_reduce(0, idx, src, reduce="prod"))
print(torch.zeros(3, 2).scatter_reduce(0, idx, src, reduce="sum"))
print(torch.zeros(4, dtype=torch.long).scatter_add_(0, torch.tensor([1, 1, 3]), torch.tensor([5, 6, 7])))
print(torch.zeros(2, 3).scatter_(1, torch.tensor([[0, 0], [2, 1]]), torch.tensor([[1., 2.], [3., 4.]]), reduce="add"))
print(torch.ones(2, 3).scatter(1, torch.tensor([[0], [2]]), 5.0, reduce="multiply"))

w = src.clone().requires_grad_()
seg = torch.zeros(3, 2).scatter_add(0, idx, w)
(seg * torch.tensor([[1.], [10.], [100.]])).sum().backward()
print(w.grad.t(), seg.grad_fn.name())
w2 = src.clone().requires_grad_()
pooled = torch.zeros(3, 2).index_add(0, batch, w2 * 2)
pooled.pow(2).sum().backward()
print(w2.grad, pooled.grad_fn.name())
w3 = src.clone().requires_grad_()
mx = torch.zeros(3, 2).scatter_reduce(0, idx, w3, "amax", include_self=False)
mx.sum().backward()
print(w3.grad.t(), mx.grad_fn.name())
w4 = torch.tensor([1., 2., 3., 4.], requires_grad=True)
sm = torch.zeros(2).scatter_reduce(0, torch.tensor([0, 0, 1, 1]), w4, "mean", include_self=False)
sm.sum().backward()
print(sm, w4.grad)

try:
    torch.zeros(3).scatter_add_(0, torch.tensor([0, 5]), torch.tensor([1., 2.]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3).index_add_(0, torch.tensor([0, 1]), torch.tensor([1., 2., 3.]))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
try:
    print(torch.zeros(3).scatter_reduce(0, torch.tensor([0]), torch.tensor([1.]), reduce="median"))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3).scatter_add_(0, torch.tensor([0.0]), torch.tensor([1.]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3, dtype=torch.long).index_add_(0, torch.tensor([0]), torch.tensor([1.]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3, dtype=torch.long).scatter_add_(0, torch.tensor([0]), torch.tensor([1.5]))
except RuntimeError as e:
    print(type(e).__name__, e)
