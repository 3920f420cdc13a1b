# "Tensor puzzles": broadcasting-only implementations of outer, pairwise distances, eye,
# triu, cumsum, diff, vstack, roll, flip... checked against the library versions.
import torch


def arange(n):
    return torch.arange(n)


def where(q, a, b):
    return q * a + (~q) * b


def ones(i):
    return where(arange(i) >= 0, 1, 0)


def outer(a, b):
    return a[:, None] * b[None, :]


def eye(j):
    return (arange(j)[:, None] == arange(j)).long()


def triu(j):
    return (arange(j)[:, None] <= arange(j)).long()


def cumsum(a):
    return (a[:, None] * triu(a.shape[0])).sum(0)


def diff(a):
    return a[1:] - a[:-1]


def vstack(a, b):
    return where(arange(2)[:, None] == 0, a, b)


def roll(a):
    i = arange(a.shape[0])
    return a[(i + 1) % a.shape[0]]


def flip(a):
    i = arange(a.shape[0])
    return a[a.shape[0] - 1 - i]


def pairwise_dist(x, y):
    return ((x[:, None, :] - y[None, :, :]) ** 2).sum(-1).sqrt()


a = torch.tensor([3, 1, 4, 1, 5, 9])
b = torch.tensor([2, 7, 1])
print("ones", ones(4))
print("outer\n", outer(a, b))
print("eye ok", torch.equal(eye(4), torch.eye(4, dtype=torch.long)))
print("triu ok", torch.equal(triu(4), torch.ones(4, 4, dtype=torch.long).triu()))
print("cumsum", cumsum(a), torch.equal(cumsum(a), a.cumsum(0)))
print("diff", diff(a), torch.equal(diff(a), torch.diff(a)))
print("vstack\n", vstack(a[:3], b))
print("roll", roll(a), torch.equal(roll(a), a.roll(-1)))
print("flip", flip(a), torch.equal(flip(a), a.flip(0)))

x = torch.stack([torch.cos(torch.arange(5.0)), torch.sin(torch.arange(5.0))], dim=1)
y = torch.tensor([[0.0, 0.0], [1.0, 1.0], [-1.0, 0.5]])
d = pairwise_dist(x, y)
print("pairwise\n", d)
print("cdist close:", torch.allclose(d, torch.cdist(x, y)))
print("cdist p=1\n", torch.cdist(x, y, p=1))
print("cdist inf\n", torch.cdist(x, y, p=float("inf")))
print("batched cdist shape", torch.cdist(x.expand(3, 5, 2), y.expand(3, 3, 2)).shape)
print("nearest", d.argmin(dim=1), d.min(dim=1))

# broadcasting shapes
print(torch.broadcast_shapes((3, 1), (1, 4), (2, 1, 1)))
try:
    torch.ones(3, 2) + torch.ones(3)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.broadcast_shapes((3, 2), (4,))
except RuntimeError as e:
    print("RuntimeError", e)
A, B = torch.broadcast_tensors(torch.arange(3)[:, None], torch.arange(2))
print(A.shape, A.stride(), B.stride(), A.is_contiguous())
print(torch.arange(4).expand(2, 4).stride(), torch.arange(4)[:, None].expand(4, 3).stride())
# in-place broadcast rules
t = torch.zeros(2, 3)
t += torch.arange(3)
print(t)
try:
    s = torch.zeros(3)
    s += torch.ones(2, 3)
except RuntimeError as e:
    print("RuntimeError", e)
# outer variants agree
print(torch.equal(torch.outer(a, b), outer(a, b)), torch.equal(torch.einsum("i,j->ij", a, b), outer(a, b)))
print(torch.ger(a.float(), b.float()).dtype)
