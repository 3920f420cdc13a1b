# Testing forward-mode AD the way library tests do: dual numbers with torch.autograd.forward_ad,
# custom Functions with a jvp rule, and gradcheck(check_forward_ad=True) pass/fail cases.
import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd import Function, gradcheck


class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return 2 * x * t


class BadJvp(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        ctx.save_for_backward(x)
        return x.exp()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.exp()

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return t * x  # wrong: should be t * exp(x)


primal = torch.linspace(-1, 1, 5, dtype=torch.float64)
tangent = torch.ones(5, dtype=torch.float64)

with fwAD.dual_level():
    dual = fwAD.make_dual(primal, tangent)
    out = torch.sin(dual) * dual
    p, t = fwAD.unpack_dual(out)
    print("primal:", p)
    print("tangent:", t)
    print("expected:", torch.cos(primal) * primal + torch.sin(primal))
    torch.testing.assert_close(t, torch.cos(primal) * primal + torch.sin(primal))
    unpacked = fwAD.unpack_dual(out)
    print("namedtuple fields:", unpacked._fields, unpacked.tangent is t)
    print("plain tensor tangent:", fwAD.unpack_dual(primal).tangent)

    sq = Square.apply(fwAD.make_dual(primal, tangent * 2))
    print("Square jvp:", fwAD.unpack_dual(sq).tangent)

with fwAD.dual_level():
    try:
        fwAD.make_dual(primal, torch.ones(4, dtype=torch.float64))
    except RuntimeError as e:
        print("RuntimeError:", e)

try:
    fwAD.make_dual(primal, tangent)
except RuntimeError as e:
    print("outside level:", type(e).__name__, e)

x = primal.clone().requires_grad_()
print("gradcheck fwd Square:", gradcheck(Square.apply, (x,), check_forward_ad=True))
print("gradcheck fwd only:", gradcheck(Square.apply, (x,), check_forward_ad=True, check_backward_ad=False))
print("BadJvp backward only:", gradcheck(BadJvp.apply, (x,)))
print("BadJvp fwd:", gradcheck(BadJvp.apply, (x,), check_forward_ad=True, raise_exception=False))
try:
    gradcheck(BadJvp.apply, (x,), check_forward_ad=True)
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    gradcheck(Square.apply, (x,), check_forward_ad=False, check_backward_ad=False)
except AssertionError as e:
    print("AssertionError:", e)

# jvp through torch.func-free API: torch.autograd.functional.jvp vs forward AD
def f(v):
    return torch.stack([v[0] * v[1], v[1].exp(), v[2] ** 2])

v = torch.tensor([1.0, 0.5, -2.0], dtype=torch.float64)
u = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64)
_, jvp_rev = torch.autograd.functional.jvp(f, v, u)
with fwAD.dual_level():
    jvp_fwd = fwAD.unpack_dual(f(fwAD.make_dual(v, u))).tangent
print("jvp agree:", torch.allclose(jvp_rev, jvp_fwd), jvp_fwd)
