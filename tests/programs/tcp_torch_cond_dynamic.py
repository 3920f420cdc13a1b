# Data-dependent branches written the compile-friendly way (torch.cond, torch.where) next to the
# plain Python `if` that causes a graph break; called with dynamic=True on changing shapes.
import torch


def true_fn(x):
    return x.sin() * 2


def false_fn(x):
    return x.cos() - 1


@torch.compile(dynamic=True)
def branchy(x):
    return torch.cond(x.sum() > 0, true_fn, false_fn, (x,))


@torch.compile(dynamic=True)
def python_if(x):
    if x.mean() > 0.5:
        return x * 10
    return -x


@torch.compile
def clip_where(x, lo: float, hi: float):
    return torch.where(x < lo, torch.full_like(x, lo), torch.where(x > hi, hi * torch.ones_like(x), x))


for n in (3, 5, 8):
    a = torch.linspace(-1.0, 2.0, n)
    b = torch.linspace(-2.0, 0.5, n)
    print(n, torch.round(branchy(a), decimals=4), torch.round(branchy(b), decimals=4))

for t in (torch.tensor([0.2, 0.4]), torch.tensor([0.9, 0.7, 0.8]), torch.arange(4.0)):
    print(python_if(t))

g = torch.linspace(-1, 1, 5, requires_grad=True)
out = branchy(g)
out.sum().backward()
print(torch.round(g.grad, decimals=4))

x = torch.linspace(-3, 3, 7)
print(clip_where(x, -1.0, 2.0))
print(clip_where(x, 0.0, 0.5))
