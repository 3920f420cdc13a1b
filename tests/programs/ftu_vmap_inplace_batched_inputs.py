# In-place operations under vmap, as the torch.func "UX limitations" page describes: mutating a
# batched input writes through to the caller's tensor (for every in_dims), including 1-D inputs
# whose per-example values are 0-d, integer counters, and views taken with unbind/select.
import torch
from torch.func import vmap

# normalising rows of a buffer in place, one example at a time
buf = torch.arange(12.).view(4, 3)


def normalize_(row):
    row.sub_(row.mean()).div_(row.norm())
    return row


out = vmap(normalize_)(buf)
print(buf.round(decimals=4))
print("returned the same values:", torch.equal(out, buf))

# per-example scalars (in_dims=0 of a 1-D tensor): each example is a 0-d tensor
scores = torch.tensor([0.5, -1.0, 2.0, 3.5])
vmap(lambda s: s.clamp_(min=0.0).mul_(2))(scores)
print("clamped scores:", scores)

counters = torch.zeros(5, dtype=torch.long)
vmap(lambda c, inc: c.add_(inc))(counters, torch.arange(5))
print("counters:", counters)

# in_dims=1: the batch is along the columns
grid = torch.zeros(2, 4)
vmap(lambda col, v: col.fill_(v), in_dims=(1, 0))(grid, torch.tensor([1.0, 2.0, 3.0, 4.0]))
print(grid)

# in_dims=None for the buffer being written: every example sees the same tensor... and
# vmap refuses the unbatched-self / batched-other in-place case in PyTorch, so users write the
# update out-of-place instead
acc = torch.zeros(3)
total = vmap(lambda v: acc + v)(torch.arange(6.).view(2, 3)).sum(0)
print("accumulated out of place:", total, "acc untouched:", acc)

# views inside the function share memory with the batched input
state = torch.arange(8.).view(4, 2)


def swap_first(v):
    a, b = v.unbind()
    tmp = a.clone()
    a.copy_(b)
    b.copy_(tmp)
    return v


vmap(swap_first)(state)
print(state)

# select on a 1-D tensor is a 0-d view (the thing vmap hands each example)
x = torch.arange(4.)
x.select(0, 2).mul_(10)
x.unbind()[3].add_(100)
print(x)
print("view of x:", x.select(0, 1)._base is x, [t._base is x for t in x.unbind()])

# nested vmap writing a matrix element by element
m = torch.zeros(3, 3)
vmap(vmap(lambda e, i, j: e.copy_(i * 3 + j), in_dims=(0, None, 0)), in_dims=(0, 0, None))(
    m, torch.arange(3.), torch.arange(3.))
print(m)
