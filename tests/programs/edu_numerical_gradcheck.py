# Homework: numerical gradient check written by hand with centered differences in float64,
# compared against analytic/autograd gradients; relative errors printed in scientific notation.
import torch


def eval_numerical_gradient(f, x, h=1e-5):
    grad = torch.zeros_like(x)
    flat_x = x.view(-1)
    flat_g = grad.view(-1)
    for i in range(flat_x.numel()):
        old = flat_x[i].item()
        flat_x[i] = old + h
        fxph = f(x)
        flat_x[i] = old - h
        fxmh = f(x)
        flat_x[i] = old
        flat_g[i] = (fxph - fxmh) / (2 * h)
    return grad


def rel_error(x, y):
    return torch.max(torch.abs(x - y) / torch.clamp(torch.abs(x) + torch.abs(y), min=1e-8)).item()


x = torch.linspace(-2, 2, 12, dtype=torch.float64).reshape(3, 4)
W = torch.cos(torch.arange(20, dtype=torch.float64) / 3).reshape(4, 5)


def f_tanh_sum(inp):
    return (torch.tanh(inp @ W) ** 2).sum().item()


num = eval_numerical_gradient(f_tanh_sum, x.clone())
xa = x.clone().requires_grad_(True)
(torch.tanh(xa @ W) ** 2).sum().backward()
print("tanh grad rel err < 1e-7:", rel_error(num, xa.grad) < 1e-7)
print("num grad dtype:", num.dtype, "shape:", tuple(num.shape))


def softmax_ce(inp):
    labels = torch.tensor([1, 0, 4])
    logits = inp @ W
    return torch.nn.functional.cross_entropy(logits, labels).item()


num2 = eval_numerical_gradient(softmax_ce, x.clone())
xb = x.clone().requires_grad_(True)
torch.nn.functional.cross_entropy(xb @ W, torch.tensor([1, 0, 4])).backward()
print("ce grad rel err < 1e-7:", rel_error(num2, xb.grad) < 1e-7)
print("ce grad:\n", xb.grad.round(decimals=4))

# gradcheck from torch.autograd
from torch.autograd import gradcheck, gradgradcheck
inp = (torch.linspace(0.1, 0.9, 6, dtype=torch.float64).reshape(2, 3).requires_grad_(),)
print("gradcheck sigmoid:", gradcheck(torch.sigmoid, inp, eps=1e-6, atol=1e-4))
print("gradgradcheck softplus:", gradgradcheck(torch.nn.functional.softplus, inp))

# float32 numerical gradients are noisy: compare error magnitudes
x32 = x.float()
W32 = W.float()
num32 = eval_numerical_gradient(lambda t: (torch.tanh(t @ W32) ** 2).sum().item(), x32.clone(), h=1e-3)
print("float32 rel err > float64 rel err:", rel_error(num32.double(), xa.grad) > rel_error(num, xa.grad))

# gradcheck failing on a wrong backward
class BadSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t * t

    @staticmethod
    def backward(ctx, g):
        (t,) = ctx.saved_tensors
        return g * t  # missing the factor 2


try:
    gradcheck(BadSquare.apply, inp, eps=1e-6, atol=1e-4)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
print("raise_exception=False:", gradcheck(BadSquare.apply, inp, eps=1e-6, atol=1e-4, raise_exception=False))

# non-double input warning path
try:
    gradcheck(torch.sin, (torch.ones(2, requires_grad=True),))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
