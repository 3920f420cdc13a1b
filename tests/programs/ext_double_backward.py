# Double backward through custom Functions (the "Double Backward with Custom Functions"
# tutorial): a backward written with differentiable ops, gradgradcheck, and once_differentiable.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 3 * x ** 2


class MySquareOnce(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


class SinSaveOutput(Function):
    # saves an intermediate computed in forward, as the tutorial's Exp example
    @staticmethod
    def forward(ctx, x):
        s, c = x.sin(), x.cos()
        ctx.save_for_backward(c, x)
        return s

    @staticmethod
    def backward(ctx, g):
        c, x = ctx.saved_tensors
        return g * c


x = torch.tensor([0.5, 1.0, -2.0], requires_grad=True)
y = Cube.apply(x)
(dx,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print("dy/dx", dx, dx.grad_fn.name())
(d2x,) = torch.autograd.grad(dx.sum(), x)
print("d2y/dx2", d2x)

xd = torch.linspace(-1, 1, 4, dtype=torch.double, requires_grad=True)
print("gradcheck", torch.autograd.gradcheck(Cube.apply, (xd,)))
print("gradgradcheck", torch.autograd.gradgradcheck(Cube.apply, (xd,)))

# Hessian-vector product through the custom function
v = torch.tensor([1.0, 0.0, 2.0])
(g,) = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
(hvp,) = torch.autograd.grad(g, x, grad_outputs=v)
print("hvp", hvp)

# once_differentiable: first order fine, second order raises
z = MySquareOnce.apply(x)
(gz,) = torch.autograd.grad(z.sum(), x, create_graph=True)
print("once grad", gz, gz.requires_grad, type(gz.grad_fn).__name__)
try:
    gz.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)

# backward saved only cos(x): the graph of its grad does not reach x through cos
s = SinSaveOutput.apply(x)
(gs,) = torch.autograd.grad(s.sum(), x, create_graph=True)
print("gs", gs, gs.requires_grad)

# torch.autograd.functional.hessian on a scalar function built from the custom op
def f(t):
    return Cube.apply(t).sum()

h = torch.autograd.functional.hessian(f, torch.tensor([1.0, 2.0]))
print("hessian", h)
