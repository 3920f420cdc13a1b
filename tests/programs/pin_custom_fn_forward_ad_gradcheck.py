# Custom autograd.Function with setup_context, a jvp staticmethod (forward-mode) and a backward,
# verified with gradcheck(check_forward_ad=True, check_batched_grad=True) and gradgradcheck;
# a deliberately wrong backward caught by gradcheck(raise_exception=False).
import torch
from torch.autograd import Function, gradcheck, gradgradcheck
import torch.autograd.forward_ad as fwAD


class SoftplusSqFwd(Function):
    """f(x, beta) = softplus(beta * x)^2 / beta, differentiable in x only."""

    @staticmethod
    def forward(x, beta):
        return torch.nn.functional.softplus(beta * x) ** 2 / beta

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, beta = inputs
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
        ctx.beta = beta

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        b = ctx.beta
        return grad_out * 2 * torch.nn.functional.softplus(b * x) * torch.sigmoid(b * x), None

    @staticmethod
    def jvp(ctx, x_t, beta_t):
        (x,) = ctx.saved_tensors
        b = ctx.beta
        return x_t * 2 * torch.nn.functional.softplus(b * x) * torch.sigmoid(b * x)


class WrongGrad(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.exp() * 1.01


x = torch.linspace(-2.0, 2.0, 7, dtype=torch.float64).requires_grad_(True)
beta = 1.5
print("forward:", SoftplusSqFwd.apply(x, beta).detach())
print("gradcheck backward:", gradcheck(lambda t: SoftplusSqFwd.apply(t, beta), (x,)))
print("gradcheck forward ad:", gradcheck(lambda t: SoftplusSqFwd.apply(t, beta), (x,),
                                         check_forward_ad=True, check_backward_ad=False,
                                         check_undefined_grad=False))
print("gradcheck batched:", gradcheck(lambda t: SoftplusSqFwd.apply(t, beta), (x,), check_batched_grad=True))
print("gradgradcheck:", gradgradcheck(lambda t: SoftplusSqFwd.apply(t, beta), (x,)))

with fwAD.dual_level():
    dual = fwAD.make_dual(x.detach(), torch.ones(7, dtype=torch.float64))
    out = SoftplusSqFwd.apply(dual, beta)
    primal, tangent = fwAD.unpack_dual(out)
    print("tangent:", tangent)

y = SoftplusSqFwd.apply(x, beta)
y.sum().backward()
print("backward grad:", x.grad)
print("match:", torch.allclose(x.grad, tangent))

xw = torch.linspace(-1.0, 1.0, 4, dtype=torch.float64).requires_grad_(True)
print("wrong grad passes?", gradcheck(WrongGrad.apply, (xw,), raise_exception=False))
try:
    gradcheck(WrongGrad.apply, (xw,), eps=1e-6, atol=1e-5)
except Exception as e:
    msg = str(e)
    print(type(e).__name__, msg.splitlines()[0])
    print("mentions numerical:", "numerical" in msg, "analytical:" in msg)
print("wrong grad fast_mode:", gradcheck(WrongGrad.apply, (xw,), fast_mode=True, raise_exception=False))
print("loose atol:", gradcheck(WrongGrad.apply, (xw,), atol=0.1, rtol=0.1, raise_exception=False))
