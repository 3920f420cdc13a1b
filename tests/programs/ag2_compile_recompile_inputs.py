# One compiled function called the way a notebook calls it: new shapes, new dtypes, with and
# without requires_grad, under no_grad, with Python ints/floats/lists/tuples as arguments.
# Every result must equal the eager result.
import torch


def poly(x, coeffs, shift=0.0):
    out = torch.zeros_like(x)
    for i, c in enumerate(coeffs):
        out = out + c * x ** i
    return out + shift


cpoly = torch.compile(poly)

for x in (torch.tensor([1.0, 2.0]), torch.arange(6.0).view(2, 3), torch.tensor(3.0),
          torch.tensor([1.0, 2.0], dtype=torch.float64), torch.tensor([1, 2, 3])):
    y = cpoly(x, [1.0, -2.0, 0.5])
    e = poly(x, [1.0, -2.0, 0.5])
    print(y.dtype, tuple(y.shape), torch.equal(y, e), y)

torch._dynamo.reset()   # start over: each new dtype/len(coeffs) above was a recompile
print(cpoly(torch.tensor([2.0]), (3, 1), shift=10))
print(cpoly(torch.tensor([2.0]), [3, 1, 1, 1], shift=-1.5))
print(cpoly(torch.tensor([2], dtype=torch.int32), [3, 1]).dtype)

# requires_grad toggled between calls
torch._dynamo.reset()
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = cpoly(w, [0.0, 0.0, 1.0])
print(y.requires_grad, y.grad_fn is not None, y.is_leaf)
y.sum().backward()
print(w.grad)
y = cpoly(w.detach(), [0.0, 0.0, 1.0])
print(y.requires_grad, y.grad_fn, y.is_leaf)
with torch.no_grad():
    y = cpoly(w, [0.0, 1.0])
print(y.requires_grad)
y = cpoly(w, [0.0, 1.0])
print(y.requires_grad)

# a compiled function that returns None, a scalar tensor and a Python value
@torch.compile
def summary(t, scale: float):
    m = t.mean() * scale
    return {"mean": m, "n": t.numel(), "shape": t.shape, "nothing": None}, (m, t.ndim)


d, (m, nd) = summary(torch.arange(4.0), 2)
print(d["mean"], d["n"], d["shape"], d["nothing"], m, nd, type(d["n"]).__name__)
d, _ = summary(torch.ones(2, 3, dtype=torch.float64), 0.5)
print(d["mean"], d["n"], d["shape"], type(d["shape"]).__name__)

@torch.compile
def nothing(t):
    t.add_(1)


buf = torch.zeros(3)
print(nothing(buf), buf)
print(nothing(buf), buf)

# in-place updates on an argument and a returned view
@torch.compile
def scale_rows(m, factors):
    m.mul_(factors.unsqueeze(1))
    return m[:, 0]


mat = torch.ones(2, 3)
col = scale_rows(mat, torch.tensor([2.0, 3.0]))
print(mat, col)
col = scale_rows(mat, torch.tensor([0.5, 1.0]))
print(mat, col)

# integer tensor argument used for indexing, list of tensors
@torch.compile
def pick(tensors, idx):
    return torch.stack([t[idx] for t in tensors]).sum(0)


print(pick([torch.arange(5.0), torch.arange(5.0) * 10], torch.tensor([0, 4])))
print(pick([torch.arange(3.0)] * 3, torch.tensor([2])))

# errors inside a compiled function surface as the same exception type
try:
    cpoly(torch.ones(2, 3), [torch.ones(3, 2)])
except RuntimeError as e:
    print("RuntimeError raised")
