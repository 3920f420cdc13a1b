# Mistakes people make when writing autograd.Functions, and PyTorch's messages for them
# (forum "custom autograd function" threads): wrong gradient counts/shapes, backward twice,
# save_for_backward with non-tensors, gradients for non-tensor inputs.
import torch
from torch.autograd import Function


def report(fn):
    try:
        fn()
        print("ok")
    except Exception as e:
        print(type(e).__name__ + ":", str(e).split("\n")[0])


class TooFew(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, g):
        return g


class WrongShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()

    @staticmethod
    def backward(ctx, g):
        return torch.ones(5)


class BroadcastGrad(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return (g * 2).unsqueeze(0)  # shape (1, 2, 3): summed back to x's shape


class GradForInt(Function):
    @staticmethod
    def forward(ctx, x, n):
        return x * n

    @staticmethod
    def backward(ctx, g):
        return g, torch.ones(1)


class SavesNumber(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, 3)
        return x


class Saves(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


class NoBackward(Function):
    @staticmethod
    def forward(ctx, x):
        return x + 1


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
report(lambda: TooFew.apply(x, y).sum().backward())
report(lambda: WrongShape.apply(x).backward())

m = torch.ones(2, 3, requires_grad=True)
BroadcastGrad.apply(m).sum().backward()
print("broadcast grad summed:", m.grad)

report(lambda: GradForInt.apply(x, 3).sum().backward())
report(lambda: SavesNumber.apply(x))
report(lambda: NoBackward.apply(x).sum().backward())

out = Saves.apply(x)
out.sum().backward(retain_graph=False)
print(x.grad)
report(lambda: out.sum().backward())

# calling forward directly is not the way: apply is
report(lambda: Saves.forward(None, x))

# inputs that do not require grad: no graph
z = Saves.apply(torch.tensor([1.0, 2.0]))
print(z.requires_grad, z.grad_fn)

# under no_grad
with torch.no_grad():
    z2 = Saves.apply(x)
print(z2.requires_grad, z2.grad_fn)

# integer outputs never require grad
class ArgMax(Function):
    @staticmethod
    def forward(ctx, x):
        return x.argmax()

    @staticmethod
    def backward(ctx, g):
        return None

a = ArgMax.apply(x)
print(a, a.requires_grad, a.grad_fn)

# a backward returning the wrong dtype is cast back
class HalfGrad(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        return g.double()

d = torch.ones(2, requires_grad=True)
HalfGrad.apply(d).sum().backward()
print(d.grad, d.grad.dtype)
