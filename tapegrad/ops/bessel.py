"""The modified Bessel functions of the first kind: ``i0`` and ``torch.special``'s ``i0e``,
``i1``, ``i1e`` (the ``e`` forms scaled by exp(-|x|), finite where I0 and I1 overflow).

Each derivative is another member of the family (I0' = I1, I1' = I0 - I1 / x), so the rules are
written with these primitives and higher derivatives come for free. The kernels are Cephes'
Chebyshev expansions, as PyTorch's (see ``special_kernels``).
"""
import numpy as np

from .elementwise import _floating, reciprocal, sign, where
from .inplace import _unary_inplace
from .registry import ELEMENTWISE, primitive
from .special import kernel_forward

__all__ = ["i0", "i0_"]  # and torch.special's i0e, i1, i1e


_i0 = primitive("i0", node="I0Backward0", group=ELEMENTWISE, saves=("a",))(
    kernel_forward("i0", "i0_vml_cpu"))
_i0e = primitive("special_i0e", node="SpecialI0EBackward0", group=ELEMENTWISE,
                 saves=("a", "out"))(kernel_forward("i0e"))
_i1 = primitive("special_i1", node="SpecialI1Backward0", group=ELEMENTWISE,
                saves=("a", "out"))(kernel_forward("i1"))
_i1e = primitive("special_i1e", node="SpecialI1EBackward0", group=ELEMENTWISE,
                 saves=("a", "out"))(kernel_forward("i1e"))


@_i0.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _i1(a)


@_i0e.vjp
def _(ctx, grad):
    a, out = ctx.saved
    return grad * (_i1e(a) - sign(a) * out)


@_i1.vjp
@_i1e.vjp
def _(ctx, grad):
    """PyTorch's rule: I0 - I1 / x (for i1e, i0e - i1e (sgn x + 1 / x)), 1/2 at |x| <= eps,
    where the quotient would be 0 / 0."""
    a, out = ctx.saved
    eps = float(np.finfo(ctx.input_dtypes[0]).eps)
    not_tiny = a.abs() > eps
    safe = where(not_tiny, a, eps)
    if ctx.primitive is _i1:
        slope = _i0(safe) - out * reciprocal(safe)
    else:
        slope = _i0e(safe) - out * (sign(safe) + reciprocal(safe))
    return grad * where(not_tiny, slope, 0.5)


def _public(prim, name):
    def apply(input):
        return prim(_floating(input))
    apply.__name__ = name
    return apply


i0 = _public(_i0, "i0")
i0e = _public(_i0e, "i0e")
i1 = _public(_i1, "i1")
i1e = _public(_i1e, "i1e")
i0_ = _unary_inplace(_i0)
