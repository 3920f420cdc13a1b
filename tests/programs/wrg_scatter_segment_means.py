# Segment-style reductions as in GNN / point-cloud preprocessing: per-group means with
# scatter_add_, scatter_reduce (amax/amin/mean/prod, include_self), index_add_ and index_put_.
import torch

torch.set_printoptions(precision=4)

values = torch.sin(torch.arange(12, dtype=torch.float32) * 0.7).view(6, 2)
group = torch.tensor([0, 2, 1, 0, 2, 2])
num_groups = 4

sums = torch.zeros(num_groups, 2).scatter_add_(0, group.unsqueeze(1).expand(-1, 2), values)
counts = torch.zeros(num_groups).scatter_add_(0, group, torch.ones(6))
print("sums", sums)
print("counts", counts)
means = sums / counts.clamp(min=1).unsqueeze(1)
print("means", means)

for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        out = torch.full((num_groups, 2), 0.5).scatter_reduce(
            0, group.unsqueeze(1).expand(-1, 2), values, reduce=reduce, include_self=include_self)
        print(reduce, include_self, out)

# integer scatter_reduce mean (floor semantics)
ints = torch.tensor([5, 7, 2, 9, 4, 3])
print("int mean", torch.zeros(4, dtype=torch.long).scatter_reduce(0, group, ints, "mean", include_self=False))
print("int mean self", torch.ones(4, dtype=torch.long).scatter_reduce(0, group, ints, "mean"))

# index_add with alpha, index_put with accumulate and duplicate indices
acc = torch.zeros(5)
acc.index_add_(0, torch.tensor([0, 1, 1, 4]), torch.tensor([1.0, 2.0, 3.0, 4.0]), alpha=0.5)
print("index_add", acc)
m = torch.zeros(3, 3)
m.index_put_((torch.tensor([0, 0, 2]), torch.tensor([1, 1, 2])), torch.tensor([1.0, 2.0, 5.0]), accumulate=True)
print("index_put acc", m)
m2 = torch.zeros(3, 3)
m2.index_put_((torch.tensor([1, 2]),), torch.tensor(7.0))
print("index_put row", m2)

# scatter with value and reduce kwarg
s = torch.zeros(2, 4).scatter_(1, torch.tensor([[1, 3], [0, 0]]), 2.5)
print("scatter value", s)
s2 = torch.ones(2, 4).scatter_(1, torch.tensor([[1, 3], [0, 0]]), torch.tensor([[2.0, 3.0], [4.0, 5.0]]), reduce="multiply")
print("scatter multiply", s2)
s3 = torch.ones(2, 4).scatter(1, torch.tensor([[1, 3], [0, 0]]), 1.5, reduce="add")
print("scatter add value", s3)

# gradients through scatter_reduce and index_add
x = values.clone().requires_grad_(True)
out = torch.zeros(num_groups, 2).scatter_reduce(0, group.unsqueeze(1).expand(-1, 2), x, "amax", include_self=False)
out.sum().backward()
print("amax grad", x.grad)
x.grad = None
out = torch.zeros(num_groups, 2).scatter_reduce(0, group.unsqueeze(1).expand(-1, 2), x, "mean", include_self=True)
(out * torch.arange(1.0, 9.0).view(4, 2)).sum().backward()
print("mean grad", x.grad)
print(out.grad_fn.__class__.__name__)
x.grad = None
y = torch.zeros(5, 2).index_add(0, torch.tensor([4, 0, 4, 1, 1, 3]), x, alpha=2.0)
(y ** 2).sum().backward()
print("index_add grad", x.grad)
print(y.grad_fn.__class__.__name__)

# error messages
try:
    torch.zeros(3).scatter_(0, torch.tensor([0.0]), torch.ones(1))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3).scatter_reduce(0, torch.tensor([0]), torch.ones(1), reduce="max")
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3).index_add_(0, torch.tensor([5]), torch.ones(1))
except (RuntimeError, IndexError) as e:
    print(type(e).__name__, e)
