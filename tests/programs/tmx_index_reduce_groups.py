# Per-group statistics with Tensor.index_reduce_ (prod / mean / amax / amin, include_self on/off),
# as in graph-pooling code that aggregates node features into their graph slot.
import torch

feat = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 4.0], [2.0, 2.0], [-3.0, 1.5], [6.0, 0.0]])
batch = torch.tensor([0, 2, 0, 1, 2, 2])
num_graphs = 4

for reduce in ["prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        out = torch.ones(num_graphs, 2).index_reduce_(0, batch, feat, reduce, include_self=include_self)
        print(reduce, include_self)
        print(out)

# functional form with a non-contiguous index and dim=1
x = torch.arange(12.0).view(3, 4)
idx = torch.tensor([1, 0, 1])
src = torch.tensor([[2.0, 3.0, 4.0], [5.0, 6.0, 7.0], [8.0, 9.0, 10.0]])
y = x.index_reduce(1, idx, src, "amax")
print(y, y.dtype)
y2 = x.index_reduce(1, idx, src, "mean", include_self=False)
print(y2)

# integer tensors: mean with floor division behaviour
xi = torch.zeros(3, dtype=torch.long)
si = torch.tensor([5, 2, 7, 3])
print(xi.index_reduce(0, torch.tensor([0, 0, 2, 2]), si, "mean", include_self=False))
print(torch.full((3,), 10).index_reduce(0, torch.tensor([0, 0, 2, 2]), si, "mean"))

# gradient through prod/amax
f = feat.clone().requires_grad_(True)
base = torch.ones(num_graphs, 2, requires_grad=True)
out = base.index_reduce(0, batch, f, "prod", include_self=True)
out.sum().backward()
print(f.grad)
print(base.grad)

f2 = feat.clone().requires_grad_(True)
out2 = torch.zeros(num_graphs, 2).index_reduce(0, batch, f2, "amax", include_self=False)
out2.sum().backward()
print(f2.grad)

# errors users hit
try:
    torch.zeros(3).index_reduce_(0, torch.tensor([0]), torch.ones(1), "sum")
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3).index_reduce_(0, torch.tensor([0.0]), torch.ones(1), "prod")
except Exception as e:
    print(type(e).__name__, e)
