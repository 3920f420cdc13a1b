# Custom Functions that return views of their inputs, torch.autograd.graph.increment_version for
# ops that write through numpy/raw data, and the in-place-on-view errors that follow.
import torch
from torch.autograd import Function


class FirstHalf(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.n = x.shape[0]
        return x[: x.shape[0] // 2]

    @staticmethod
    def backward(ctx, g):
        out = g.new_zeros(ctx.n, *g.shape[1:])
        out[: ctx.n // 2] = g
        return out


class Identity(Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g


x = torch.arange(6.0, requires_grad=True)
y = x * 1.0
v = FirstHalf.apply(y)
print(v, v._base is y, v.grad_fn.name())
(v * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)

i = Identity.apply(y)
print("identity returns new tensor:", i is y, i.grad_fn.name())

try:
    v2 = FirstHalf.apply(x * 1.0)
    v2.mul_(2)
except RuntimeError as e:
    print(type(e).__name__, str(e).split("\n")[0][:150])

# increment_version: tell autograd a saved tensor was modified behind its back
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2
c = b.pow(2)  # saves b
print("version", b._version)
b.detach().numpy()[0] = 10.0  # raw write autograd cannot see
torch.autograd.graph.increment_version(b)
print("version", b._version)
try:
    c.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e)[:160])

# version counter shared by views
base = torch.zeros(4)
view = base[1:3]
view.add_(1)
print(base._version, view._version)
torch.autograd.graph.increment_version(base)
print(base._version, view._version)
