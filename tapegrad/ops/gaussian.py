"""The standard normal distribution's functions of ``torch.special``: ``ndtr`` (its CDF),
``log_ndtr``, ``ndtri`` (its quantile) and the scaled complementary error function ``erfcx``.

``ndtr`` is composed of erf, as PyTorch composes it (its autograd graph and its values alike);
the others are primitives over the kernels in ``special_kernels``, accurate in the tails where
``log(ndtr(x))`` or ``exp(x^2) * erfc(x)`` would underflow or overflow.
"""
import math

from .elementwise import _floating, exp, mul_scalar
from .registry import ELEMENTWISE, primitive
from .special import erf, kernel_forward

__all__ = []  # torch.special's only: see tapegrad.special


_log_ndtr = primitive("special_log_ndtr", node="SpecialLogNdtrBackward0", group=ELEMENTWISE,
                      saves=("a", "out"))(kernel_forward("log_ndtr"))
_ndtri = primitive("special_ndtri", node="SpecialNdtriBackward0", group=ELEMENTWISE,
                   saves=("out",))(kernel_forward("ndtri"))
_erfcx = primitive("special_erfcx", node="SpecialErfcxBackward0", group=ELEMENTWISE,
                   saves=("a", "out"))(kernel_forward("erfcx"))


@_log_ndtr.vjp
def _(ctx, grad):
    """The normal density over the CDF, exp(-x^2 / 2 - log_ndtr(x)) / sqrt(2 pi)."""
    a, out = ctx.saved
    return grad / math.sqrt(2 * math.pi) * exp(-(out + a * a / 2))


@_ndtri.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * math.sqrt(2 * math.pi) * exp(out * out / 2)


@_erfcx.vjp
def _(ctx, grad):
    a, out = ctx.saved
    return (2.0 * a * out - 2.0 / math.sqrt(math.pi)) * grad


def ndtr(input):
    """The standard normal CDF, (1 + erf(x / sqrt 2)) / 2, its products by numbers ATen's
    ``mul.Scalar`` (MulBackward1), as PyTorch's C++ composes it."""
    return mul_scalar(1 + erf(mul_scalar(_floating(input), math.sqrt(0.5))), 0.5)


def log_ndtr(input):
    return _log_ndtr(_floating(input))


def ndtri(input):
    return _ndtri(_floating(input))


def erfcx(input):
    return _erfcx(_floating(input))
