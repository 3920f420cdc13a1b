# In-place custom Functions: ctx.mark_dirty on a tensor modified in forward, the version
# counter it bumps, and the errors PyTorch raises for leaves and for saved tensors.
import torch
from torch.autograd import Function


class InplaceReLU(Function):
    @staticmethod
    def forward(ctx, x):
        x.clamp_(min=0)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * (out > 0).to(grad.dtype)


class ScaleInplace(Function):
    @staticmethod
    def forward(ctx, x, factor):
        ctx.factor = factor
        x.mul_(factor)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.factor, None


a = torch.linspace(-2, 2, 5, requires_grad=True)
b = a * 1.5
print("version before:", b._version)
c = InplaceReLU.apply(b)
print("same object:", c is b, "version after:", b._version)
print(c)
print(c.grad_fn.name())
c.sum().backward()
print("a.grad", a.grad)

# chaining two in-place functions
a.grad = None
h = a + 0.5
h = ScaleInplace.apply(h, 3.0)
h = InplaceReLU.apply(h)
print(h, h._version)
h.backward(torch.ones(5))
print("a.grad", a.grad)

# a leaf that requires grad cannot be modified in place
leaf = torch.ones(3, requires_grad=True)
try:
    InplaceReLU.apply(leaf)
except RuntimeError as e:
    print(type(e).__name__, e)

# a tensor saved by another op and then dirtied
x = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
y = x * 2
z = y.exp()  # saves its output
w = y.sin()  # saves y
ScaleInplace.apply(y, 2.0)
try:
    w.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e)[:120])

# without grad the function just runs
with torch.no_grad():
    t = torch.tensor([-1.0, 3.0])
    r = InplaceReLU.apply(t)
print(r, r.requires_grad, r.grad_fn)
