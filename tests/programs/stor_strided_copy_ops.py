# functorch / export-style code: the *_copy variants of view ops (no aliasing), as_strided with
# offsets, as_strided_scatter, select_scatter/slice_scatter/diagonal_scatter.
import torch

x = torch.arange(12.0).reshape(3, 4)
for name, fn in [
    ("view_copy", lambda: torch.view_copy(x, (4, 3))),
    ("t_copy", lambda: torch.t_copy(x)),
    ("transpose_copy", lambda: torch.transpose_copy(x, 0, 1)),
    ("permute_copy", lambda: torch.permute_copy(x, (1, 0))),
    ("diagonal_copy", lambda: torch.diagonal_copy(x, 1)),
    ("select_copy", lambda: torch.select_copy(x, 1, 2)),
    ("slice_copy", lambda: torch.slice_copy(x, 1, 1, 4, 2)),
    ("narrow_copy", lambda: torch.narrow_copy(x, 0, 1, 2)),
    ("expand_copy", lambda: torch.expand_copy(x[:1], (2, 4))),
    ("unsqueeze_copy", lambda: torch.unsqueeze_copy(x, 0)),
    ("squeeze_copy", lambda: torch.squeeze_copy(x.view(3, 1, 4))),
    ("unfold_copy", lambda: torch.unfold_copy(x, 1, 2, 2)),
    ("as_strided_copy", lambda: torch.as_strided_copy(x, (2, 2), (4, 1), 1)),
    ("alias_copy", lambda: torch.alias_copy(x)),
    ("detach_copy", lambda: torch.detach_copy(x)),
    ("split_copy", lambda: torch.split_copy(x, 2)[1]),
    ("unbind_copy", lambda: torch.unbind_copy(x, 1)[3]),
]:
    r = fn()
    print(f"{name:16s}", tuple(r.shape), r.stride(), r.storage_offset(), r._base is None,
          r.data_ptr() != x.data_ptr(), r.flatten()[:4].tolist())

a = torch.arange(10.0)
print(a.as_strided((3,), (3,), 1), a.as_strided((2, 3), (2, 1), 2))
v = a[2:].as_strided((2, 2), (1, 1))
print(v, v.storage_offset())
v2 = a[2:].as_strided((2, 2), (1, 1), 0)
print(v2.storage_offset(), v2)
z = torch.zeros(6)
print(torch.as_strided_scatter(z, torch.ones(2, 2), (2, 2), (3, 1), 1))
print(torch.select_scatter(torch.zeros(2, 3), torch.tensor([1.0, 2.0]), 1, 0))
print(torch.slice_scatter(torch.zeros(4, 2), torch.ones(2, 2), 0, 1, 4, 2))
print(torch.diagonal_scatter(torch.zeros(3, 3), torch.arange(2.0), -1))
b = torch.arange(6.0)
b.as_strided_((2, 2), (1, 2), 1)
print(b, b.stride(), b.storage_offset())
g = torch.arange(6.0, requires_grad=True)
w = g.as_strided((2, 2), (1, 1), 1)
(w * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(g.grad, w.grad_fn.__class__.__name__)
g2 = torch.arange(4.0, requires_grad=True)
torch.diagonal_copy(g2.view(2, 2)).sum().backward()
print(g2.grad)
try:
    torch.as_strided(torch.arange(3.0), (2, 2), (1, 1), 1).sum()
    torch.as_strided(torch.arange(3.0), (2, 2), (1, 1), 2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.as_strided(torch.arange(3.0), (2,), (-1,))
except RuntimeError as e:
    print(type(e).__name__, e)
