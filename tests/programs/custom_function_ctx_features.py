# "Extending torch.autograd": once_differentiable, mark_dirty for in-place Functions,
# set_materialize_grads, needs_input_grad, and what the engine checks about returned gradients.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * 3 * x ** 2


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)
print(y, y.grad_fn.name())
g, = torch.autograd.grad(y.sum(), x)
print(g, g.requires_grad)
Cube.apply(x).sum().backward()
print(x.grad)
g, = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
print(g.requires_grad)
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class MulTwo_(Function):
    """Doubles its input in place and says so with mark_dirty."""

    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * 2


a = torch.tensor([1.0, -1.0, 3.0], requires_grad=True)
b = a.clone()
version = b._version
c = MulTwo_.apply(b)
print(c is b, b._version > version, b.grad_fn.name(), b)
(b * b).sum().backward()
print(a.grad)
try:
    MulTwo_.apply(a)
except RuntimeError as e:
    print("RuntimeError:", e)


class SplitSum(Function):
    """Two outputs; only one of them is used, so the other's gradient would be None."""

    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.sum(), x.prod()

    @staticmethod
    def backward(ctx, grad_sum, grad_prod):
        seen.append((grad_sum is None, grad_prod is None))
        return torch.ones(3) * (0 if grad_sum is None else grad_sum)


class SplitSumMaterialized(Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum(), x.prod()

    @staticmethod
    def backward(ctx, grad_sum, grad_prod):
        seen.append((grad_sum, grad_prod))
        return torch.ones(3) * grad_sum


seen = []
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s, p = SplitSum.apply(v)
(s * 2).backward()
s, p = SplitSumMaterialized.apply(v)
(s * 2).backward()
print(seen, v.grad)


class Scale(Function):
    @staticmethod
    def forward(ctx, x, w, factor):
        ctx.save_for_backward(x, w)
        ctx.factor = factor
        return x * w * factor

    @staticmethod
    def backward(ctx, grad_output):
        x, w = ctx.saved_tensors
        print("needs_input_grad", ctx.needs_input_grad)
        gx = grad_output * w * ctx.factor if ctx.needs_input_grad[0] else None
        gw = grad_output * x * ctx.factor if ctx.needs_input_grad[1] else None
        return gx, gw, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0])
out = Scale.apply(x, w, 0.5)
out.sum().backward()
print(x.grad, w.grad, out.grad_fn.next_functions[0][0].name())
w.requires_grad_()
Scale.apply(x.detach(), w, 2.0).sum().backward()
print(w.grad)

# Returning a gradient of the wrong shape, or too many gradients, is caught by the engine
class BadShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, grad_output):
        return torch.ones(4)


class TooMany(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, grad_output


for fn in (BadShape, TooMany):
    try:
        fn.apply(torch.ones(3, requires_grad=True)).sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)

# Saved tensors are freed after backward
out = Cube.apply(torch.tensor([2.0], requires_grad=True))
out.backward()
try:
    out.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:75])
