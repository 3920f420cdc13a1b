# Compiled functions that write into their inputs or return views of them: add_ on an argument,
# slice assignment, masked_fill_ through a view, returning the input itself or a view of it, and
# an in-place update of a tensor that requires grad (the error PyTorch raises).
import torch


@torch.compile
def normalize_(x):
    x.sub_(x.mean()).div_(x.std())
    return x


a = torch.tensor([1.0, 2.0, 3.0, 6.0])
out = normalize_(a)
print(a, out is a, out.data_ptr() == a.data_ptr())


@torch.compile
def clear_first_row(m, value: float):
    m[0] = value
    m[:, -1].masked_fill_(m[:, -1] > 4, -1.0)
    return m.sum()


m = torch.arange(9.0).view(3, 3)
print(clear_first_row(m, 0.5), m, sep="\n")
m2 = torch.arange(12.0).view(3, 4)
print(clear_first_row(m2, -2.0), m2, sep="\n")


@torch.compile
def split_views(x):
    top, bottom = x[:2], x[2:]
    return top.t(), bottom.view(-1), x


base = torch.arange(8.0).view(4, 2)
top_t, bottom_flat, same = split_views(base)
print(top_t, bottom_flat, same is base)
top_t[0, 0] = 100.0
bottom_flat[-1] = -7.0
print(base)
print(top_t._base is base, top_t.is_contiguous(), bottom_flat.shape)


@torch.compile
def accumulate(total, x):
    total += x * 2
    return total


total = torch.zeros(3)
for step in range(3):
    accumulate(total, torch.full((3,), float(step)))
print(total)

counts = torch.zeros(4, dtype=torch.long)
torch.compile(lambda c, i: c.index_add_(0, i, torch.ones_like(i)))(counts, torch.tensor([0, 2, 2, 3]))
print(counts)

w = torch.ones(3, requires_grad=True)
try:
    torch.compile(lambda t: t.mul_(2))(w)
except RuntimeError as e:
    print(isinstance(e, RuntimeError), "a leaf Variable that requires grad" in str(e))

leaf = torch.ones(3, requires_grad=True)
y = leaf * 1


@torch.compile
def scale_inplace(t):
    t.mul_(3)
    return t.sum()


s = scale_inplace(y)
s.backward()
print(s.detach(), leaf.grad, y.grad_fn is not None)  # (tapegrad: writing into a non-leaf input runs eagerly)
