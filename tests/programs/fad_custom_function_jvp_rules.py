# A custom autograd.Function with both backward and jvp (forward-mode) rules, the way
# functorch-compatible extensions are written: setup_context, ctx.save_for_forward,
# generate_vmap_rule=True, then used with forward_ad, torch.func.jvp, jacfwd, jacrev and vmap.
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import jacfwd, jacrev, jvp, vmap


class SoftClip(torch.autograd.Function):
    """y = x / (1 + |x| / c), a smooth clipping nonlinearity."""
    generate_vmap_rule = True

    @staticmethod
    def forward(x, c):
        return x / (1 + x.abs() / c)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, c = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        ctx.c = c

    @staticmethod
    def backward(ctx, gy):
        (x,) = ctx.saved_tensors
        return gy / (1 + x.abs() / ctx.c) ** 2, None

    @staticmethod
    def jvp(ctx, tx, _tc):
        (x,) = ctx.saved_tensors
        return tx / (1 + x.abs() / ctx.c) ** 2


class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


x = torch.linspace(-3, 3, 7, dtype=torch.float64)
t = torch.ones_like(x)
with fwAD.dual_level():
    y = SoftClip.apply(fwAD.make_dual(x, t), 2.0)
    primal, tangent = fwAD.unpack_dual(y)
print("primal ", primal)
print("tangent", tangent)
print("grad_fn under dual level:", type(y.grad_fn).__name__ if y.grad_fn is not None else None)

out, jv = jvp(lambda z: SoftClip.apply(z, 2.0), (x,), (t,))
print("func.jvp matches:", torch.allclose(jv, tangent))
Jf = jacfwd(SoftClip.apply)(x, 2.0)
Jr = jacrev(SoftClip.apply)(x, 2.0)
print("jacfwd diag", Jf.diagonal())
print("jacfwd == jacrev:", torch.allclose(Jf, Jr), "off-diagonal zero:", bool((Jf - torch.diag(Jf.diagonal())).abs().max() == 0))

batch = torch.stack([x, 2 * x, x.flip(0)])
per_row = vmap(jacfwd(SoftClip.apply), in_dims=(0, None))(batch, 2.0)
print("vmap(jacfwd) shape", tuple(per_row.shape))
print(per_row.diagonal(dim1=1, dim2=2))


def gradcheck_fn(z):
    return SoftClip.apply(z, 1.5)


xs = torch.tensor([-0.7, 0.2, 1.1], dtype=torch.float64, requires_grad=True)
print("gradcheck fwd+rev:", torch.autograd.gradcheck(gradcheck_fn, (xs,), check_forward_ad=True))

with fwAD.dual_level():
    try:
        NoJvp.apply(fwAD.make_dual(x, t))
    except Exception as e:
        print(type(e).__name__, str(e).splitlines()[0])
try:
    jvp(NoJvp.apply, (x,), (t,))
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])
