# Custom autograd Functions used twice over: backward written with differentiable torch ops
# (so double backward works), gradgradcheck, once_differentiable refusing create_graph,
# saving an intermediate result, ctx.needs_input_grad with a non-tensor argument,
# and a custom Function inside torch.compile.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable

VERBOSE = True


class Softplus(Function):
    @staticmethod
    def forward(ctx, x, beta):
        sig = torch.sigmoid(beta * x)       # an intermediate saved for backward
        ctx.save_for_backward(x, sig)
        ctx.beta = beta
        return torch.log1p(torch.exp(beta * x)) / beta

    @staticmethod
    def backward(ctx, g):
        x, sig = ctx.saved_tensors
        if VERBOSE:
            print("needs_input_grad", ctx.needs_input_grad)
        if torch.is_grad_enabled():         # create_graph=True: recompute from x
            sig = torch.sigmoid(ctx.beta * x)
        return g * sig, None


x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
y = Softplus.apply(x, 2.0)
print(y)
g, = torch.autograd.grad(y.sum(), x, retain_graph=True)
print(g, g.requires_grad)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn.name())
h, = torch.autograd.grad(g.sum(), x)
print(h)
print(torch.allclose(y, torch.nn.functional.softplus(x, beta=2.0)))
VERBOSE = False
xd = torch.tensor([-1.0, 0.5], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: Softplus.apply(t, 1.5), (xd,)))
print(torch.autograd.gradgradcheck(lambda t: Softplus.apply(t, 1.5), (xd,)))


class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        if VERBOSE:
            print("inside once_differentiable:", g.requires_grad, torch.is_grad_enabled())
        return 2 * x * g


VERBOSE = True
s = torch.tensor([3.0], requires_grad=True)
g, = torch.autograd.grad(Square.apply(s), s, create_graph=True)
print(g, g.requires_grad)
try:
    torch.autograd.grad(g, s)
except RuntimeError as e:
    print("RuntimeError:", e)
VERBOSE = False
try:
    print(torch.autograd.gradgradcheck(Square.apply, (torch.tensor([1.0], dtype=torch.float64, requires_grad=True),)))
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])

# saved_tensors can be read many times in one backward
class Twice(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        a2, b2 = ctx.saved_tensors
        print(a is a2, ctx.needs_input_grad)
        return g * b2, g * a2


p = torch.tensor([2.0], requires_grad=True)
q = torch.tensor([5.0])
Twice.apply(p, q).backward()
print(p.grad, q.grad)

# in-place Function on a leaf that requires grad is refused; on a view of a non-leaf it works
class AddOne_(Function):
    @staticmethod
    def forward(ctx, t):
        t.add_(1)
        ctx.mark_dirty(t)
        return t

    @staticmethod
    def backward(ctx, g):
        return g


base = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
work = base * 2
out = AddOne_.apply(work)
print(out is work, work, work.grad_fn.name())
(work * work).sum().backward()
print(base.grad)
try:
    AddOne_.apply(base)
except RuntimeError as e:
    print("RuntimeError:", e)

# a custom Function called inside a compiled function
@torch.compile
def model(t):
    return Softplus.apply(t * 2, 1.0).sum()


t = torch.tensor([0.0, 1.0], requires_grad=True)
loss = model(t)
loss.backward()
print(round(loss.item(), 4), t.grad)
