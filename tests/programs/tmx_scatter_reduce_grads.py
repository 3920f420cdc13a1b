# Segment reductions with scatter_reduce (sum/prod/mean/amax/amin, include_self False) used for
# per-user aggregation, with gradients flowing back to both self and src (ties in amax split grad).
import torch

user = torch.tensor([0, 1, 0, 2, 1, 0, 2])
score = torch.tensor([3.0, 1.0, 3.0, -2.0, 4.0, 1.0, -2.0])

for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        base = torch.tensor([1.0, 2.0, 0.5, 7.0], requires_grad=True)
        src = score.clone().requires_grad_(True)
        out = base.scatter_reduce(0, user, src, reduce=reduce, include_self=include_self)
        (out * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
        print(f"{reduce:5s} {include_self!s:5s}", out.detach(), out.grad_fn.name())
        print("   src.grad", src.grad, "base.grad", base.grad)

# 2-d, dim=1 with index smaller than src
x = torch.zeros(2, 3)
idx = torch.tensor([[0, 2], [1, 1]])
src2 = torch.tensor([[5.0, 6.0, 100.0], [7.0, 8.0, 100.0]])
print(x.scatter_reduce(1, idx, src2, "amax", include_self=False))
print(x.scatter_reduce(1, idx, src2, "mean", include_self=True))

# integer mean rounds toward floor
xi = torch.tensor([0, 0, 0])
print(xi.scatter_reduce(0, torch.tensor([0, 0, 1, 1]), torch.tensor([1, 2, -3, -4]), "mean", include_self=False))
print(xi.scatter_reduce(0, torch.tensor([0, 0, 1, 1]), torch.tensor([1, 2, -3, -4]), "mean"))

# in-place variant and scatter_add chained on the same buffer
buf = torch.full((3,), -1.0)
buf.scatter_reduce_(0, torch.tensor([2, 2, 0]), torch.tensor([4.0, 9.0, 1.0]), "amax")
print(buf)
buf.scatter_add_(0, torch.tensor([1, 1]), torch.tensor([0.25, 0.5]))
print(buf)

# old-style scatter with reduce= keyword
t = torch.ones(2, 4)
print(t.scatter(1, torch.tensor([[0, 0], [3, 3]]), torch.tensor([[2.0, 3.0], [4.0, 5.0]]), reduce="multiply"))
print(t.scatter(1, torch.tensor([[0, 0], [3, 3]]), 2.5, reduce="add"))

try:
    torch.zeros(3).scatter_reduce(0, torch.tensor([0]), torch.ones(1), "max")
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.zeros(3).scatter_reduce(0, torch.tensor([5]), torch.ones(1), "sum")
except Exception as e:
    print(type(e).__name__, e)
