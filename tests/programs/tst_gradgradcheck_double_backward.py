# Testing second-order derivatives of custom Functions (double backward) with gradgradcheck,
# including a once-differentiable Function and a backward that is not differentiable correctly.
import torch
from torch.autograd import Function, gradcheck, gradgradcheck
from torch.autograd.gradcheck import GradcheckError
from torch.autograd.function import once_differentiable


class Softplus(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.log1p(torch.exp(x))

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * torch.sigmoid(x)  # differentiable: built from torch ops


class SoftplusOnce(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.log1p(torch.exp(x))

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * torch.sigmoid(x)


class DetachedBackward(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.detach().cos()  # grad w.r.t. x lost in double backward


x = torch.linspace(-1.5, 1.5, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()

print("gradcheck Softplus:", gradcheck(Softplus.apply, (x,)))
print("gradgradcheck Softplus:", gradgradcheck(Softplus.apply, (x,)))
print("gradcheck SoftplusOnce:", gradcheck(SoftplusOnce.apply, (x,)))
try:
    gradgradcheck(SoftplusOnce.apply, (x,))
except RuntimeError as e:
    # grad_outputs are random: print only what does not depend on them
    print(type(e).__name__, ":", str(e).splitlines()[0])
    print("analytical all zero:", "analytical:tensor([[0., 0., 0., 0., 0., 0.]," in str(e))

print("gradcheck DetachedBackward:", gradcheck(DetachedBackward.apply, (x,)))
print("gradgradcheck DetachedBackward:",
      gradgradcheck(DetachedBackward.apply, (x,), raise_exception=False))
try:
    gradgradcheck(DetachedBackward.apply, (x,))
except GradcheckError as e:
    msg = str(e)
    print(msg.splitlines()[0])

# gradgradcheck with explicit grad_outputs
go = torch.linspace(0.5, 1.0, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
print("with grad_outputs:", gradgradcheck(Softplus.apply, (x,), (go,)))

# builtin ops and functional compositions
w = torch.linspace(-0.5, 0.5, 12, dtype=torch.float64).reshape(3, 4).requires_grad_()
f = lambda x, w: torch.tanh(x @ w).pow(2).sum(dim=1)
print("gradcheck mlp:", gradcheck(f, (x, w)))
print("gradgradcheck mlp:", gradgradcheck(f, (x, w)))

# ones whose output does not require grad
print("gradcheck integer output ignored:",
      gradcheck(lambda x: (x.exp(), x.argmax()), (x,)))

# first derivative correct, gradgradcheck with gen_non_contig_grad_outputs
print("non contig:", gradgradcheck(Softplus.apply, (x,), gen_non_contig_grad_outputs=True))
