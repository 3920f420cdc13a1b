# Custom autograd.Functions written for torch.func, as in functorch's extending guide: an
# in-place op with ctx.mark_dirty and a jvp rule used under forward AD, an op with an explicit
# vmap staticmethod (batching rule) used with vmap/jacrev/jacfwd, and integer outputs under jvp.
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import jacfwd, jacrev, jvp, vmap


class ScaleInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        ctx.mark_dirty(x)
        return x.mul_(k)

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None

    @staticmethod
    def jvp(ctx, tx, _tk):
        return tx.mul_(ctx.k)


x0 = torch.tensor([1.0, -2.0, 3.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x0.clone(), torch.tensor([1.0, 0.5, 0.25]))
    out = ScaleInplace.apply(d, 3.0)
    p, t = fwAD.unpack_dual(out)
    print("primal", p, "tangent", t, "same object:", out is d)


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return Cube3x2.apply(x) * g

    @staticmethod
    def jvp(ctx, tx):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * tx

    @staticmethod
    def vmap(info, in_dims, x):
        return Cube.apply(x), in_dims[0]


class Cube3x2(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return 3 * x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 6 * x * g


xs = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.0, 3.0]])
print("vmap:", vmap(Cube.apply)(xs))
J = jacrev(Cube.apply)(torch.tensor([1.0, 2.0]))
print("jacrev:", J)
Jf = jacfwd(Cube.apply)(torch.tensor([1.0, 2.0]))
print("jacfwd:", Jf)
print("second derivative via jacrev(jacrev):", jacrev(jacrev(Cube.apply))(torch.tensor([1.0, 2.0])).diagonal())
y, ty = jvp(Cube.apply, (torch.tensor([2.0]),), (torch.tensor([1.0]),))
print("jvp", y, ty)


def with_int_output(x):
    return x.sin(), x.argmax()


(s, idx), (ts, tidx) = jvp(with_int_output, (x0,), (torch.ones(3),))
print("int output primal", idx, "tangent", tidx, tidx.dtype)

try:
    vmap(ScaleInplace.apply, in_dims=(0, None))(xs.clone(), 2.0)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:160])
