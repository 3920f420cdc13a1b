# Modern custom autograd.Function (forward + setup_context, jvp, vmap via generate_vmap_rule)
# tested the way extension libraries do: gradcheck, forward-mode check, torch.func transforms.
import torch
from torch.autograd import Function, gradcheck, gradgradcheck
from torch.testing import assert_close


class ScaledTanh(Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x, scale):
        return torch.tanh(x) * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * ctx.scale * (1 - torch.tanh(x) ** 2), None

    @staticmethod
    def jvp(ctx, tx, tscale):
        (x,) = ctx.saved_tensors
        return tx * ctx.scale * (1 - torch.tanh(x) ** 2)


class SplitMinMax(Function):
    @staticmethod
    def forward(ctx, x):
        lo, hi = x.min(dim=-1), x.max(dim=-1)
        ctx.save_for_backward(lo.indices, hi.indices)
        ctx.mark_non_differentiable(lo.indices)
        ctx.shape = x.shape
        return lo.values, hi.values, lo.indices

    @staticmethod
    def backward(ctx, g_lo, g_hi, _):
        lo_idx, hi_idx = ctx.saved_tensors
        grad = torch.zeros(ctx.shape, dtype=g_lo.dtype)
        grad.scatter_add_(-1, lo_idx.unsqueeze(-1), g_lo.unsqueeze(-1))
        grad.scatter_add_(-1, hi_idx.unsqueeze(-1), g_hi.unsqueeze(-1))
        return grad


x = torch.linspace(-2, 2, 12, dtype=torch.float64).reshape(3, 4).requires_grad_()
f = lambda t: ScaledTanh.apply(t, 1.5)
print("gradcheck:", gradcheck(f, (x,)))
print("gradgradcheck:", gradgradcheck(f, (x,)))
print("forward ad:", gradcheck(f, (x,), check_forward_ad=True, check_backward_ad=False))
print("batched:", gradcheck(f, (x,), check_batched_grad=True))

per_row = torch.func.vmap(f)(x.detach())
assert_close(per_row, torch.tanh(x.detach()) * 1.5)
print("vmap ok", tuple(per_row.shape))
jac = torch.func.jacrev(f)(x.detach()[0])
assert_close(jac, torch.diag(1.5 * (1 - torch.tanh(x.detach()[0]) ** 2)))
print("jacrev ok", tuple(jac.shape))
jf = torch.func.jacfwd(f)(x.detach()[0])
assert_close(jf, jac)
print("jacfwd ok")
_, tangent = torch.func.jvp(f, (x.detach(),), (torch.ones_like(x),))
print("jvp tangent row 0:", tangent[0])

y = torch.tensor([[0.3, -1.0, 2.0, 0.5], [1.0, 0.2, -0.4, 0.9]], dtype=torch.float64,
                 requires_grad=True)
lo, hi, idx = SplitMinMax.apply(y)
print("outputs:", lo, hi, idx, sep="\n")
print("requires_grad:", lo.requires_grad, hi.requires_grad, idx.requires_grad)
print("gradcheck SplitMinMax:", gradcheck(lambda t: SplitMinMax.apply(t)[:2], (y,)))
(lo.sum() * 2 + hi.sum()).backward()
print("grad:", y.grad)
try:
    ScaledTanh.apply(x)
except TypeError as e:
    print("TypeError:", e)
