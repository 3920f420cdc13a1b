# torch.autograd.Function corners from the "Extending PyTorch" notes and forum threads:
# setup_context-style Functions, returning views / the input itself, non-tensor outputs,
# mark_non_differentiable, apply() with keyword arguments, and materialize_grads=False.
import torch
from torch.autograd import Function


class MulConst(Function):
    # the PyTorch 2.0 style: forward without ctx, setup_context saves what backward needs
    @staticmethod
    def forward(x, k):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, k = inputs
        ctx.k = k
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ctx.k, None


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = MulConst.apply(x, 2.5)
print(y, type(y.grad_fn).__name__, y.grad_fn.name())
y.sum().backward()
print(x.grad)
# apply() forwards keyword arguments to forward
print(MulConst.apply(x, k=2.0))


class FirstRow(Function):
    # returns a view of the input
    @staticmethod
    def forward(ctx, m):
        ctx.shape = m.shape
        return m[0]

    @staticmethod
    def backward(ctx, g):
        out = g.new_zeros(ctx.shape)
        out[0] = g
        return out


m = torch.arange(6.0).view(2, 3).requires_grad_()
r = FirstRow.apply(m)
print(r, r._base is m, r.is_leaf, r.grad_fn.name())
(r * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(m.grad)


class WithStats(Function):
    # a tensor output, an integer index output and a plain Python number
    @staticmethod
    def forward(ctx, x):
        idx = x.argmax()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        ctx.n = x.numel()
        return x.max(), idx, x.numel()

    @staticmethod
    def backward(ctx, g, g_idx, g_n):
        idx, = ctx.saved_tensors
        print("grads in:", g, g_idx, g_n)
        out = torch.zeros(ctx.n)
        out[idx] = g
        return out


v = torch.tensor([0.5, 4.0, -1.0], requires_grad=True)
mx, idx, n = WithStats.apply(v)
print(mx, idx, n, type(n).__name__, mx.requires_grad, idx.requires_grad)
(mx * 3).backward()
print(v.grad)
try:
    idx.float().sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class PassThrough(Function):
    # returning an input unchanged (no mark_dirty): the output is a new tensor in the graph
    @staticmethod
    def forward(ctx, a, b):
        return a, b + 1

    @staticmethod
    def backward(ctx, ga, gb):
        return ga * 10, gb


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
a2, b2 = PassThrough.apply(a, b)
print(a2 is a, a2.grad_fn.name(), a2.is_leaf, a2.requires_grad)
(a2.sum() + b2.sum()).backward()
print(a.grad, b.grad)

# no input requires grad: output is a plain tensor
out = MulConst.apply(torch.ones(2), 3.0)
print(out, out.requires_grad, out.grad_fn)
with torch.no_grad():
    out = MulConst.apply(x, 3.0)
print(out.requires_grad)


class NoneGrads(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1 None:", g1 is None, "g2 None:", g2 is None)
        total = torch.zeros(2)
        if g1 is not None:
            total = total + 2 * g1
        if g2 is not None:
            total = total + 3 * g2
        return total


w = torch.tensor([1.0, 1.0], requires_grad=True)
p, q = NoneGrads.apply(w)
q.sum().backward()
print(w.grad)
gp, = torch.autograd.grad(p.sum(), w)
print(gp)
