"""Elementwise math beyond the core table: log1p, expm1, hyperbolic and inverse trigonometric
functions, erf and erfinv, rsqrt, log2/log10/exp2, trunc/frac, atan2, hypot, lerp, logit,
nan_to_num.

Each is a primitive with PyTorch's node name and a backward rule written with tapegrad ops;
integer inputs compute in the default float dtype, as in PyTorch.
"""
import math

import numpy as np

from ..tensor import Tensor
from .activation import _erf, _erfinv as _erfinv_values
from .broadcast import sum_to
from .elementwise import _constant_op, _floating, exp, isfinite, reciprocal, sqrt, where
from .inplace import _unary_inplace
from .operands import broadcast_error, promote
from .registry import ELEMENTWISE, primitive

__all__ = [
    "log1p", "expm1", "sinh", "cosh", "tan", "atan", "asin", "acos", "erf", "erfinv", "erfinv_",
    "rsqrt", "log2", "log10", "exp2", "trunc", "frac", "atan2", "arctan2", "hypot", "lerp", "logit",
    "nan_to_num",
]


@primitive("log1p", node="Log1PBackward0", group=ELEMENTWISE, saves=("a",))
def _log1p(a):
    return np.log1p(a)


@_log1p.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad / (a + 1)


@primitive("expm1", node="Expm1Backward0", group=ELEMENTWISE, saves=("out",))
def _expm1(a):
    return np.expm1(a)


@_expm1.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * (out + 1)


@primitive("sinh", node="SinhBackward0", group=ELEMENTWISE, saves=("a",))
def _sinh(a):
    return np.sinh(a)


@_sinh.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _cosh(a)


@primitive("cosh", node="CoshBackward0", group=ELEMENTWISE, saves=("a",))
def _cosh(a):
    return np.cosh(a)


@_cosh.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _sinh(a)


@primitive("tan", node="TanBackward0", group=ELEMENTWISE, saves=("out",))
def _tan(a):
    return np.tan(a)


@_tan.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * (out * out + 1)


@primitive("atan", node="AtanBackward0", group=ELEMENTWISE, saves=("a",))
def _atan(a):
    return np.arctan(a)


@_atan.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad / (a * a + 1)


@primitive("asin", node="AsinBackward0", group=ELEMENTWISE, saves=("a",))
def _asin(a):
    return np.arcsin(a)


@primitive("acos", node="AcosBackward0", group=ELEMENTWISE, saves=("a",))
def _acos(a):
    return np.arccos(a)


@_asin.vjp
@_acos.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    slope = grad / sqrt(1 - a * a)
    return slope if ctx.primitive is _asin else -slope


@primitive("erf", node="ErfBackward0", group=ELEMENTWISE, saves=("a",))
def _erf_forward(a):
    return _erf(a)


@_erf_forward.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * (2 / math.sqrt(math.pi)) * exp(-(a * a))


@primitive("erfinv", node="ErfinvBackward0", group=ELEMENTWISE, saves=("a",))
def _erfinv(a):
    return _erfinv_values(a)  # ±inf at ±1, nan outside [-1, 1]


@_erfinv.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    # PyTorch's formula, recomputing erfinv(a) so that double backward records the same graph
    return math.sqrt(math.pi) / 2 * exp(_erfinv(a) ** 2) * grad


@primitive("rsqrt", node="RsqrtBackward0", group=ELEMENTWISE, saves=("out",))
def _rsqrt(a):
    return 1 / np.sqrt(a)


@_rsqrt.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * (out * out * out) * -0.5


@primitive("log2", node="Log2Backward0", group=ELEMENTWISE, saves=("a",))
def _log2(a):
    return np.log2(a)


@primitive("log10", node="Log10Backward0", group=ELEMENTWISE, saves=("a",))
def _log10(a):
    # numpy's float32 log10 misses exact powers of ten (log10(100) = 2.0000002); float64 does not
    return np.log10(a, dtype=np.float64).astype(a.dtype) if a.dtype == np.float32 else np.log10(a)


@_log2.vjp
@_log10.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad / (a * (math.log(2) if ctx.primitive is _log2 else math.log(10)))


@primitive("exp2", node="Exp2Backward0", group=ELEMENTWISE, saves=("out",))
def _exp2(a):
    return np.exp2(a)


@_exp2.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * out * math.log(2)


@primitive("frac", node="FracBackward0", group=ELEMENTWISE)
def _frac(a):
    return a - np.trunc(a)


@_frac.vjp
def _(ctx, grad):
    return grad


@primitive("atan2", node="Atan2Backward0", group=ELEMENTWISE, saves=("a", "b"),
           error=broadcast_error)
def _atan2(a, b):
    return np.arctan2(a, b)


@_atan2.vjp
def _(ctx, grad):
    """Zero at the origin, where atan2 has no derivative, as in PyTorch (not 0/0 = nan)."""
    a, b = ctx.saved
    squared_radius = a * a + b * b
    scale = grad * where(squared_radius == 0, 0.0, reciprocal(squared_radius))
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(scale * b, ctx.input_shapes[0]) if need_a else None,
            sum_to(scale * -a, ctx.input_shapes[1]) if need_b else None)


@primitive("hypot", node="HypotBackward0", group=ELEMENTWISE, saves=("a", "b", "out"),
           error=broadcast_error)
def _hypot(a, b):
    return np.hypot(a, b)


@_hypot.vjp
def _(ctx, grad):
    a, b, out = ctx.saved
    scale = grad / out
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(scale * a, ctx.input_shapes[0]) if need_a else None,
            sum_to(scale * b, ctx.input_shapes[1]) if need_b else None)


@primitive("lerp", node="LerpBackward0", group=ELEMENTWISE, error=broadcast_error)
def _lerp(start, end, weight):
    return start + weight * (end - start)


@_lerp.vjp
def _(ctx, grad, weight):
    need_start, need_end = ctx.needs_input_grad
    return (sum_to(grad * (1 - weight), ctx.input_shapes[0]) if need_start else None,
            sum_to(grad * weight, ctx.input_shapes[1]) if need_end else None)


@primitive("lerp_tensor", node="LerpBackward1", group=ELEMENTWISE, saves=("start", "end",
                                                                          "weight"))
def _lerp_tensor(start, end, weight):
    return start + weight * (end - start)


@_lerp_tensor.vjp
def _(ctx, grad):
    start, end, weight = ctx.saved
    need_start, need_end, need_weight = ctx.needs_input_grad
    return (sum_to(grad * (1 - weight), ctx.input_shapes[0]) if need_start else None,
            sum_to(grad * weight, ctx.input_shapes[1]) if need_end else None,
            sum_to(grad * (end - start), ctx.input_shapes[2]) if need_weight else None)


@primitive("logit", node="LogitBackward0", group=ELEMENTWISE, saves=("a",))
def _logit(a, eps):
    if eps is not None:
        a = np.clip(a, eps, 1 - eps)
    return np.log(a / (1 - a))


@_logit.vjp
def _(ctx, grad, eps):
    (a,) = ctx.saved
    slope = grad / (a * (1 - a))
    if eps is None:
        return slope
    return where((a < eps) | (a > 1 - eps), 0.0, slope)  # clamped away: no dependence


@primitive("nan_to_num", node="NanToNumBackward0", group=ELEMENTWISE, saves=("a",))
def _nan_to_num(a, nan, posinf, neginf):
    return np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)


@_nan_to_num.vjp
def _(ctx, grad, nan, posinf, neginf):
    (a,) = ctx.saved
    return where(isfinite(a), grad, 0.0)


def atan2(input, other):
    a, b = promote(input, other)
    return _atan2(_floating(a), _floating(b))


arctan2 = atan2


def hypot(input, other):
    return _hypot(*promote(input, other))


def lerp(input, end, weight):
    input, end = promote(input, end)
    if isinstance(weight, Tensor):
        return _lerp_tensor(input, end, weight)
    return _lerp(input, end, weight=weight)


def logit(input, eps=None):
    return _logit(_floating(input), eps=eps)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    return _nan_to_num(input, nan=nan, posinf=posinf, neginf=neginf)


def _float_function(prim, name):
    """The public function of a floating-point primitive: integer inputs compute in the default
    float dtype, as in PyTorch."""
    def apply(input):
        return prim(_floating(input))
    apply.__name__ = name
    return apply


log1p = _float_function(_log1p, "log1p")
expm1 = _float_function(_expm1, "expm1")
sinh = _float_function(_sinh, "sinh")
cosh = _float_function(_cosh, "cosh")
tan = _float_function(_tan, "tan")
atan = _float_function(_atan, "atan")
asin = _float_function(_asin, "asin")
acos = _float_function(_acos, "acos")
erf = _float_function(_erf_forward, "erf")
erfinv = _float_function(_erfinv, "erfinv")
erfinv_ = _unary_inplace(_erfinv)
rsqrt = _float_function(_rsqrt, "rsqrt")
log2 = _float_function(_log2, "log2")
log10 = _float_function(_log10, "log10")
exp2 = _float_function(_exp2, "exp2")


# Integers are already whole: trunc leaves them as they are (numpy would make them floats).
trunc = _constant_op("trunc", "TruncBackward0",
                     lambda a: np.trunc(a) if a.dtype.kind == "f" else a.copy(), None)


def frac(input):
    return _frac(input)
