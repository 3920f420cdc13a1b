# Forward-mode AD with custom Functions: save_for_forward + jvp, used through
# torch.autograd.forward_ad dual tensors and torch.func.jvp, next to the usual backward.
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd import Function


class MyExp(Function):
    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)
        ctx.save_for_forward(output)

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result

    @staticmethod
    def jvp(ctx, x_t):
        (result,) = ctx.saved_tensors
        return x_t * result


class MulAdd(Function):
    @staticmethod
    def forward(ctx, x, y, alpha):
        ctx.save_for_forward(x, y)
        ctx.alpha = alpha
        return x * y + alpha

    @staticmethod
    def jvp(ctx, x_t, y_t, _):
        x, y = ctx.saved_tensors
        return x_t * y + x * y_t

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError("not needed")


x = torch.tensor([0.0, 0.5, 1.0])
t = torch.tensor([1.0, 2.0, -1.0])
with fwAD.dual_level():
    dual = fwAD.make_dual(x, t)
    out = MyExp.apply(dual)
    primal, tangent = fwAD.unpack_dual(out)
    print("primal", primal)
    print("tangent", tangent)

    y = torch.tensor([2.0, 3.0, 4.0])
    out2 = MulAdd.apply(dual, y, 1.5)
    p2, t2 = fwAD.unpack_dual(out2)
    print("muladd", p2, t2)

    # composing with builtin ops
    out3 = MyExp.apply(dual).sin() * 2
    print("composed tangent", fwAD.unpack_dual(out3).tangent)

# the same Function still supports backward
xr = x.clone().requires_grad_()
MyExp.apply(xr).sum().backward()
print("backward", xr.grad)

# torch.func.jvp
p, jt = torch.func.jvp(lambda a: MyExp.apply(a) * 3, (x,), (t,))
print("func.jvp", p, jt)

# a Function without jvp used with forward AD


class NoJvp(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


with fwAD.dual_level():
    try:
        NoJvp.apply(fwAD.make_dual(x, t))
    except NotImplementedError as e:
        print(type(e).__name__, e)
