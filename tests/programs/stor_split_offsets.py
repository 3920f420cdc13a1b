# Tutorial on split/chunk/tensor_split/unbind: every piece is a view of the same storage, so its
# storage_offset() tells where it starts; writing to a piece writes the original.
import torch

x = torch.arange(20.0).reshape(4, 5)
for name, pieces in [
    ("split2_d0", x.split(2)),
    ("split3_d1", x.split(3, dim=1)),
    ("split_sizes", x.split([1, 3], dim=0)),
    ("chunk3_d1", x.chunk(3, dim=1)),
    ("chunk3_d0", torch.chunk(x, 3)),
    ("tensor_split3", x.tensor_split(3, dim=1)),
    ("tensor_split_idx", torch.tensor_split(x, [1, 4], dim=1)),
    ("hsplit", torch.hsplit(x, [2])),
    ("vsplit", torch.vsplit(x, 2)),
    ("unbind1", x.unbind(1)[:2]),
]:
    desc = [(tuple(p.shape), p.storage_offset(), p.stride(), p.is_contiguous()) for p in pieces]
    print(name, len(pieces), desc)
    print("  bases", all(p._base is x for p in pieces))

top, bottom = x.split(2)
bottom[:, 0] = -1
print(x[:, 0])
left, right = x.chunk(2, dim=1)
print(left.shape, right.shape, right.storage_offset())
right.mul_(0)
print(x)
y = torch.arange(7.0)
print([p.tolist() for p in y.tensor_split(3)])
print([p.tolist() for p in y.chunk(3)])
print([p.tolist() for p in y.chunk(4)])
print([p.tolist() for p in y.chunk(6)])
print([p.numel() for p in y.tensor_split(10)])
q, k, val = torch.arange(24.0).view(2, 12).chunk(3, dim=-1)
print(q.stride(), k.storage_offset(), val.storage_offset(), q.is_contiguous())
heads = q.view(2, 2, 2) if q.is_contiguous() else q.reshape(2, 2, 2)
print(heads._base is None, heads.shape)
try:
    q.view(8)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.split([1, 2], dim=0)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.chunk(0)
except RuntimeError as e:
    print(type(e).__name__, e)
z = torch.arange(6.0, requires_grad=True)
a, b = z.split(3)
(a * 2 + b.flip(0)).sum().backward()
print(z.grad, a.grad_fn.__class__.__name__)
