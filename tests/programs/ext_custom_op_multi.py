# More of the torch.library custom-op API as library repos use it: ops returning a tuple,
# default and keyword-only arguments, registration by name (register_fake / register_autograd /
# register_kernel), and an op whose backward calls another custom op.
import numpy as np
import torch
from torch import Tensor


@torch.library.custom_op("extlib::minmax_norm", mutates_args=())
def minmax_norm(x: Tensor, eps: float = 1e-5) -> tuple[Tensor, Tensor, Tensor]:
    a = x.numpy()
    lo, hi = a.min(), a.max()
    out = (a - lo) / (hi - lo + eps)
    return torch.from_numpy(out), torch.tensor(lo), torch.tensor(hi)


@torch.library.register_fake("extlib::minmax_norm")
def _(x, eps=1e-5):
    return torch.empty_like(x), x.new_empty(()), x.new_empty(())


@torch.library.custom_op("extlib::scale", mutates_args=())
def scale(x: Tensor, factor: float) -> Tensor:
    return torch.from_numpy(x.numpy() * factor)


def scale_setup(ctx, inputs, output):
    ctx.factor = inputs[1]


def scale_backward(ctx, grad):
    return scale(grad, ctx.factor), None


torch.library.register_autograd("extlib::scale", scale_backward, setup_context=scale_setup)


def norm_setup(ctx, inputs, output):
    out, lo, hi = output
    ctx.save_for_backward(lo, hi)
    ctx.eps = inputs[1]


def norm_backward(ctx, g_out, g_lo, g_hi):
    lo, hi = ctx.saved_tensors
    # treat lo/hi as constants (a common simplification)
    return g_out / (hi - lo + ctx.eps), None


minmax_norm.register_autograd(norm_backward, setup_context=norm_setup)

x = torch.tensor([2.0, 4.0, 3.0, 6.0], requires_grad=True)
out, lo, hi = minmax_norm(x)
print(out, lo, hi)
print(out.requires_grad, type(out.grad_fn).__name__)
out.sum().backward()
print(x.grad)

out2, _, _ = minmax_norm(x.detach(), eps=1.0)
print(out2)
out3, _, _ = minmax_norm(x.detach(), 0.5)
print(out3)

s = torch.tensor([1.0, -1.0], requires_grad=True)
y = scale(s, 3.0)
(g,) = torch.autograd.grad(y.sum(), s)
print(y, g)

# a CPU-specific kernel registered later replaces the default one
@torch.library.register_kernel("extlib::scale", "cpu")
def _(x, factor):
    return torch.from_numpy(x.numpy() * factor + 100)


print(scale(torch.tensor([1.0]), 2.0))
print(torch.ops.extlib.scale(torch.tensor([1.0]), 2.0))
print(minmax_norm)

# in a small training loop
w = torch.tensor([0.5, -0.5], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for step in range(5):
    opt.zero_grad()
    loss = (torch.ops.extlib.scale.default(w, 2.0) - 1).pow(2).sum()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}")
