"""Elementwise math beyond the core table: log1p, expm1, hyperbolic, inverse trigonometric and
inverse hyperbolic functions (with numpy's ``arc*`` names), erf, erfc and erfinv, sinc, entr,
rsqrt, log2/log10/exp2, trunc/frac, atan2, hypot, lerp, logit,
nan_to_num, and the pointwise helpers of optimizers and numerics code: addcmul/addcdiv, fmod,
copysign, fmax/fmin, logaddexp, xlogy, float_power, deg2rad, heaviside, gcd/lcm.

Each is a primitive with PyTorch's node name and a backward rule written with tapegrad ops;
integer inputs compute in the default float dtype, as in PyTorch. Their in-place forms
(``asinh_`` …) keep the tensor's dtype, so an integer tensor refuses them, as in PyTorch.
"""
import math

import numpy as np

from .. import dtypes
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .broadcast import sum_to
from .conjugation import _complex_sgn, complex_sgn
from .creation import _fma
from .elementwise import (
    _SIGN_LOWERING, _constant_op, _floating, _refuse_complex, _refusing_integer_zero, _rounding,
    _sign_values, cos, div, exp, isfinite, isnan, log, mul_scalar, pow, reciprocal, sin, to_dtype,
    where,
)
from .erf import erf as _erf_values, erfc as _erfc_values, erfinv as _erfinv_values
from .inplace import (_binary_inplace, _cast_operand, _unary_inplace, apply_inplace,
                      check_result_type, pow_)
from .operands import (CPP_TYPE_NAMES, NUMBER_OTHER, TENSORS_ONLY, _number_array, broadcast_error,
                       cast_operand, not_a_tensor, promote, refuse_complex, tensor_operands,
                       with_overloads)
from .reduction import return_types
from .signatures import invalid_combination
from .half_precision import in_float32
from . import libm, single_rounding
from .registry import ELEMENTWISE, Primitive, primitive

__all__ = [
    "log1p", "expm1", "sinh", "cosh", "tan", "atan", "asin", "acos", "erf", "erfinv", "erfinv_",
    "rsqrt", "log2", "log10", "exp2", "trunc", "fix", "frac", "atan2", "arctan2", "hypot", "lerp",
    "lerp_", "logit", "nan_to_num", "sgn", "signbit", "isposinf", "isneginf", "isreal", "fmax",
    "fmin", "copysign", "fmod", "addcmul", "addcdiv", "addcmul_", "addcdiv_", "logaddexp",
    "logaddexp2", "xlogy", "float_power", "positive", "deg2rad", "rad2deg", "heaviside",
    "gcd", "lcm", "trunc_", "fix_", "frac_", "sgn_", "fmod_", "copysign_", "xlogy_", "deg2rad_",
    "rad2deg_", "hypot_", "gcd_", "lcm_", "ldexp", "ldexp_", "frexp", "float_power_",
    "asinh", "acosh", "atanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh",
    "erfc", "sinc",
    "asinh_", "acosh_", "atanh_", "arcsin_", "arccos_", "arctan_", "arcsinh_", "arccosh_",
    "arctanh_", "acos_", "asin_", "atan_", "cosh_", "sinh_", "tan_", "erf_", "erfc_", "exp2_",
    "expm1_", "log10_", "log1p_", "log2_", "rsqrt_", "logit_", "sinc_", "atan2_", "arctan2_",
]


@primitive("log1p", node="Log1PBackward0", group=ELEMENTWISE, saves=("a",))
def _log1p(a):
    return libm.log1p(a)


@_log1p.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad / (a + 1)


@primitive("expm1", node="Expm1Backward0", group=ELEMENTWISE, saves=("out",))
def _expm1(a):
    return libm.expm1(a)


@_expm1.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * (out + 1)


@primitive("sinh", node="SinhBackward0", group=ELEMENTWISE, saves=("a",))
def _sinh(a):
    return libm.sinh(a)


@_sinh.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _cosh(a)


@primitive("cosh", node="CoshBackward0", group=ELEMENTWISE, saves=("a",))
def _cosh(a):
    return libm.cosh(a)


@_cosh.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _sinh(a)


@primitive("tan", node="TanBackward0", group=ELEMENTWISE, saves=("out",))
def _tan(a):
    return libm.tan(a)


@_tan.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * (out * out + 1)


@primitive("atan", node="AtanBackward0", group=ELEMENTWISE, saves=("a",))
def _atan(a):
    return libm.arctan(a)


@_atan.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad / (a * a + 1)


@primitive("asin", node="AsinBackward0", group=ELEMENTWISE, saves=("a",))
def _asin(a):
    return libm.arcsin(a)


@primitive("acos", node="AcosBackward0", group=ELEMENTWISE, saves=("a",))
def _acos(a):
    return libm.arccos(a)


@_asin.vjp
@_acos.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    slope = rsqrt(-a * a + 1)  # PyTorch's formulas, so that create_graph records its nodes
    return grad * (slope if ctx.primitive is _asin else -slope)


@primitive("asinh", node="AsinhBackward0", group=ELEMENTWISE, saves=("a",),
           lowering="(sign({0}) * log(abs({0}) + sqrt({0} * {0} + 1)))")
def _asinh(a):
    return libm.arcsinh(a)


@_asinh.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * rsqrt(a ** 2 + 1)


@primitive("acosh", node="AcoshBackward0", group=ELEMENTWISE, saves=("a",),
           lowering="log({0} + sqrt(({0} - 1) * ({0} + 1)))")
def _acosh(a):
    return libm.arccosh(a)  # nan below 1


@_acosh.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * rsqrt(a * a - 1)


@primitive("atanh", node="AtanhBackward0", group=ELEMENTWISE, saves=("a",),
           lowering="0.5 * log((1 + {0}) / (1 - {0}))")
def _atanh(a):
    return libm.arctanh(a)  # ±inf at ±1, nan outside [-1, 1]


@_atanh.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad / (1 - a ** 2)


@primitive("erf", node="ErfBackward0", group=ELEMENTWISE, saves=("a",))
def _erf_forward(a):
    _refuse_complex("erf_vml_cpu", a)
    return _erf_values(a)


@_erf_forward.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return mul_scalar(exp(-(a ** 2)), 2 / math.sqrt(math.pi)) * grad


def kernel_forward(name, kernel=None):
    """A forward running the unary ufunc ``name`` of ``special_kernels`` (Numba, imported on
    the first call: importing it is slow); a complex operand is refused with the name of
    PyTorch's CPU ``kernel`` (``<name>_cpu`` unless given)."""
    def forward(a):
        _refuse_complex(kernel or f"{name}_cpu", a)
        from . import special_kernels
        return special_kernels.apply(getattr(special_kernels, name), a)
    forward.__name__ = name
    return forward


@primitive("erfc", node="ErfcBackward0", group=ELEMENTWISE, saves=("a",))
def _erfc(a):
    _refuse_complex("erfc_vml_cpu", a)
    return _erfc_values(a)


@_erfc.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return mul_scalar(exp(-(a ** 2)), -2 / math.sqrt(math.pi)) * grad


@primitive("erfinv", node="ErfinvBackward0", group=ELEMENTWISE, saves=("a",))
def _erfinv(a):
    _refuse_complex("erfinv_vml_cpu", a)
    return _erfinv_values(a)  # ±inf at ±1, nan outside [-1, 1]


@_erfinv.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    # PyTorch's formula, recomputing erfinv(a) so that double backward records the same graph
    return math.sqrt(math.pi) / 2 * exp(_erfinv(a) ** 2) * grad


@primitive("sinc", node="SincBackward0", group=ELEMENTWISE, saves=("a",),
           lowering=f"(1.0 if {{0}} == 0 else sin({{0}} * {math.pi!r}) / ({{0}} * {math.pi!r}))")
@in_float32  # float16 as PyTorch's kernel computes it: in float32, rounded once
def _sinc(a):
    """sin(pi x) / (pi x), 1 at 0; pi x rounded in the input's dtype, as PyTorch computes it."""
    product = a * a.dtype.type(math.pi)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(a == 0, a.dtype.type(1), np.sin(product) / product)


@_sinc.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    product = a * math.pi
    squared = a * a * math.pi
    return where(squared == 0, 0.0, grad * (product * cos(product) - sin(product)) / squared)


@primitive("special_entr", node="SpecialEntrBackward0", group=ELEMENTWISE, saves=("a",))
def _entr(a):
    """-x log x: 0 at 0, -inf below (outside the domain), nan for nan."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(a > 0, -a * np.log(a), np.where(a == 0, 0, -np.inf))
    return np.where(np.isnan(a), a, out).astype(a.dtype, copy=False)


@_entr.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * -(log(a) + 1)


@primitive("rsqrt", node="RsqrtBackward0", group=ELEMENTWISE, saves=("out",),
           lowering="1 / sqrt({0})")
def _rsqrt(a):
    return 1 / np.sqrt(a)


@_rsqrt.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * (out * out * out) * -0.5


@primitive("log2", node="Log2Backward0", group=ELEMENTWISE, saves=("a",))
def _log2(a):
    return libm.log2(a)


@primitive("log10", node="Log10Backward0", group=ELEMENTWISE, saves=("a",))
def _log10(a):
    return libm.log10(a)  # (numpy's float32 log10(100) is 2.0000002)


@_log2.vjp
@_log10.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad / mul_scalar(a, math.log(2) if ctx.primitive is _log2 else math.log(10))


@primitive("exp2", node="Exp2Backward0", group=ELEMENTWISE, saves=("out",))
def _exp2(a):
    return libm.exp2(a)


@_exp2.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return mul_scalar(grad * out, math.log(2))


@primitive("frac", node="FracBackward0", group=ELEMENTWISE)
def _frac(a):
    return a - np.trunc(a)


@_frac.vjp
def _(ctx, grad):
    return grad


@primitive("atan2", node="Atan2Backward0", group=ELEMENTWISE, saves=("a", "b"),
           error=broadcast_error)
def _atan2(a, b):
    _refuse_complex("atan2_cpu", a)
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
    return _lerp_values(start, end, weight)


@_lerp.vjp
def _(ctx, grad, weight):
    need_start, need_end = ctx.needs_input_grad
    return (sum_to(grad * (1 - weight), ctx.input_shapes[0]) if need_start else None,
            sum_to(grad * weight, ctx.input_shapes[1]) if need_end else None)


@primitive("lerp_tensor", node="LerpBackward1", group=ELEMENTWISE, saves=("start", "end",
                                                                          "weight"))
def _lerp_tensor(start, end, weight):
    return _lerp_values(start, end, weight)


def _lerp_values(start, end, weight):
    """PyTorch's CPU lerp: ``start + weight * (end - start)`` for ``|weight| < 0.5``, else
    ``end - (1 - weight) * (end - start)`` (exact at both ends), each one fused multiply-add
    in float (float16's too), double or the complex type, a Python ``weight`` taken in that
    type."""
    compute = start.dtype if start.dtype.kind == "c" or start.dtype == np.float64 else np.float32
    weight = np.asarray(weight, dtype=compute)
    small = np.abs(weight) < 0.5
    begin = np.where(small, start, end).astype(compute, copy=False)
    difference = end.astype(compute, copy=False) - start.astype(compute, copy=False)
    result = _fused_multiply_add(np.where(small, weight, weight - 1), difference, begin)
    return result.astype(start.dtype, copy=False)


def _fused_multiply_add(a, b, c):
    """``a * b + c`` rounded once, as an FMA instruction: a product of floats is exact in double;
    for doubles, Dekker's exact product unless it overflows (inf and nan operands included).
    Complex numbers multiply and add plainly, as PyTorch's complex kernel does."""
    if a.dtype.kind == "c":
        return a * b + c
    if a.dtype != np.float64:
        return (a.astype(np.float64) * b + c).astype(a.dtype)
    with np.errstate(all="ignore"):
        plain = a * b + c
        fused = _fma(a, b, c)
    return np.where(np.isfinite(fused), fused, plain)


@_lerp_tensor.vjp
def _(ctx, grad):
    start, end, weight = ctx.saved
    need_start, need_end, need_weight = ctx.needs_input_grad
    return (sum_to(grad * (1 - weight), ctx.input_shapes[0]) if need_start else None,
            sum_to(grad * weight, ctx.input_shapes[1]) if need_end else None,
            sum_to(grad * (end - start), ctx.input_shapes[2]) if need_weight else None)


@primitive("logit", node="LogitBackward0", group=ELEMENTWISE, saves=("a",))
def _logit(a, eps):
    _refuse_complex("logit_cpu", a)
    if eps is not None:
        a = np.clip(a, eps, 1 - eps)
    return np.log(a / (1 - a))


@_logit.vjp
def _(ctx, grad, eps):
    (a,) = ctx.saved
    slope = grad / (a * (1 - a))
    if eps is None:  # nan outside [0, 1], where logit is nan
        return where((a < 0) | (a > 1), math.nan, slope)
    return where((a < eps) | (a > 1 - eps), 0.0, slope)  # clamped away: no dependence


@primitive("nan_to_num", node="NanToNumBackward0", group=ELEMENTWISE, saves=("a",))
def _nan_to_num(a, nan, posinf, neginf):
    with np.errstate(over="ignore"):  # a bound beyond float16's range becomes inf, quietly
        return np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)


@_nan_to_num.vjp
def _(ctx, grad, nan, posinf, neginf):
    """PyTorch's ``grad * isfinite(a)``: a product, so a nan or infinite gradient (or tangent,
    in forward mode) at a replaced element stays nan, as there."""
    (a,) = ctx.saved
    return grad * isfinite(a)


def atan2(input, other):
    return _atan2(*promote_floating(input, other))


# two tensors only, as PyTorch defines them (a number is its parser's TypeError)
atan2, arctan2 = (with_overloads(atan2, TENSORS_ONLY, name) for name in ("atan2", "arctan2"))


def hypot(input, other):
    a, b = promote(input, other)
    return _hypot(_require_floating("hypot_cpu", a), b)


hypot = with_overloads(hypot, TENSORS_ONLY)


_LERP_OVERLOADS = ("Tensor end, Tensor weight", "Tensor end, Number weight")


def _check_lerp_end(name, arguments, overloads):
    """PyTorch's parser takes ``end`` as a tensor only (``arguments``: the call's, after the
    tensor for a method)."""
    if not isinstance(arguments[-2], Tensor):
        raise invalid_combination(name, arguments, {}, overloads)


def lerp(input, end, weight):
    _check_lerp_end("lerp", (input, end, weight), [f"Tensor input, {o}, *, Tensor out = None"
                                                   for o in _LERP_OVERLOADS])
    _check_lerp_dtypes(input, end, weight)
    if isinstance(weight, Tensor):
        input, end, weight = _lerp_common_dtype(input, end, weight)
        return _lerp_tensor(_require_lerp_type("lerp_kernel_tensor", input), end, weight)
    input, end = promote(input, end)
    return _lerp(_require_lerp_type("lerp_kernel_scalar", input), end, weight=weight)


def _check_lerp_dtypes(input, end, weight):
    """PyTorch's lerp checks that ``end``, and a ``weight`` tensor with dimensions, have
    ``input``'s dtype; a 0-d ``weight`` joins the type promotion instead."""
    for name, value in (("end", end), ("weight", weight)):
        if name == "weight" and isinstance(value, Tensor) and value._array.ndim == 0:
            continue
        if isinstance(input, Tensor) and isinstance(value, Tensor) \
                and value._array.dtype != input._array.dtype:
            raise RuntimeError(f"expected dtype {CPP_TYPE_NAMES[input._array.dtype.name]} for "
                               f"`{name}` but got dtype {CPP_TYPE_NAMES[value._array.dtype.name]}")


def _lerp_common_dtype(input, end, weight):
    """The ends and a tensor ``weight`` in their common dtype: the ends share one (checked), a 0-d
    ``weight`` promotes as 0-d tensors do (a double one weighs float ends in float, a complex one
    makes the result complex)."""
    common = dtypes.result_type(end if input._array.ndim == 0 else input, weight)
    return tuple(cast_operand(t, common) for t in (input, end, weight))


def lerp_(input, end, weight):
    _check_lerp_end("lerp_", (end, weight), _LERP_OVERLOADS)
    _check_lerp_dtypes(input, end, weight)
    if isinstance(weight, Tensor):
        _require_lerp_type("lerp_kernel_tensor", input)
        common = dtypes.result_type(end if input._array.ndim == 0 else input, weight)
        check_result_type(input, common)
        return apply_inplace(_lerp_tensor, input, (end, _cast_operand(weight, input)), {})
    _require_lerp_type("lerp_kernel_scalar", input)
    return apply_inplace(_lerp, input, (end,), {"weight": weight})


def _require_lerp_type(kernel, tensor):
    """``tensor``, or PyTorch's refusal of lerp's kernel (floating and complex types only)."""
    if tensor._array.dtype.kind == "c":
        return tensor
    return _require_floating(kernel, tensor)


def _require_floating(kernel, tensor):
    """``tensor``, or PyTorch's refusal of a floating-point-only kernel for its dtype."""
    name = tensor._array.dtype.name
    if tensor._array.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_LEGACY_TYPE_NAMES[name]}\'')
    return tensor


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
asinh = arcsinh = _float_function(_asinh, "asinh")
acosh = arccosh = _float_function(_acosh, "acosh")
atanh = arctanh = _float_function(_atanh, "atanh")
arcsin, arccos, arctan = asin, acos, atan
erfc = _float_function(_erfc, "erfc")
sinc = _float_function(_sinc, "sinc")
entr = _float_function(_entr, "entr")  # torch.special.entr


trunc = _constant_op("trunc", "TruncBackward0", _rounding("trunc_vml_cpu", np.trunc), None)


fix = trunc


def frac(input):
    return _frac(_require_floating("frac_cpu", input))



# ------------------------------------------------------------- signs, infinities, nan-ignoring

_real_sgn = _constant_op("sgn", "SgnBackward0", _sign_values, _SIGN_LOWERING)


def sgn(input):
    """The sign of a real number; ``z / |z|`` of a complex one (0 at 0), which has a gradient."""
    return complex_sgn(input) if input._array.dtype.kind == "c" else _real_sgn(input)


sgn.primitive = _real_sgn.primitive


def _signbit_values(a):
    if a.dtype.kind == "c":
        raise NotImplementedError("signbit is not implemented for complex tensors.")
    return np.signbit(a) if a.dtype.kind == "f" else a < 0


signbit = _constant_op("signbit", "SignbitBackward0", _signbit_values, None)


def _real_only(test):
    """``test`` refusing complex numbers, whose infinities have no sign, as PyTorch does."""
    def apply(input):
        if input._array.dtype.kind == "c":
            raise RuntimeError(f"{test.__name__} does not support complex inputs.")
        return test(input)
    apply.__name__, apply.primitive = test.__name__, test.primitive
    return apply


isposinf = _real_only(_constant_op("isposinf", "IsposinfBackward0", lambda a: a == np.inf,
                                   "(isinf({0}) and {0} > 0)"))
isneginf = _real_only(_constant_op("isneginf", "IsneginfBackward0", lambda a: a == -np.inf,
                                   "(isinf({0}) and {0} < 0)"))
# a zero imaginary part: every real number has one, a complex NaN imaginary part is not one
isreal = _constant_op("isreal", "IsrealBackward0", lambda a: np.imag(a) == 0, "({0}.imag == 0)")


@primitive("fmax", node="FmaxBackward0", group=ELEMENTWISE, saves=("a", "b"),
           lowering="({0} if {0} >= {1} or {1} != {1} else {1})", error=broadcast_error)
def _fmax(a, b):
    return _first_unless_nan_or_smaller(a, b)


@primitive("fmin", node="FminBackward0", group=ELEMENTWISE, saves=("a", "b"),
           lowering="({0} if {0} <= {1} or {1} != {1} else {1})", error=broadcast_error)
def _fmin(a, b):
    return _first_unless_nan_or_larger(a, b)


def _first_unless_nan_or_smaller(a, b):
    """``fmax`` as PyTorch's kernel picks: ``a`` on ties (0.0 and -0.0 keep their order, where
    numpy's vectorized fmax picks either) and where ``b`` is NaN."""
    return np.where((a >= b) | np.isnan(b), a, b)


def _first_unless_nan_or_larger(a, b):
    """``fmin``, picking as ``fmax`` does."""
    return np.where((a <= b) | np.isnan(b), a, b)


@_fmax.vjp
@_fmin.vjp
def _(ctx, grad):
    """The gradient goes to the input chosen: ``a`` on ties and where ``b`` is NaN, as PyTorch."""
    a, b = ctx.saved
    chose_a = ((a >= b) if ctx.primitive is _fmax else (a <= b)) | isnan(b)
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(where(chose_a, grad, 0.0), ctx.input_shapes[0]) if need_a else None,
            sum_to(where(chose_a, 0.0, grad), ctx.input_shapes[1]) if need_b else None)


def fmax(input, other):
    """The larger of each pair, ignoring a NaN unless both are NaN (``maximum`` propagates it)."""
    return _fmax(*_real_tensor_operands("fmax", input, other))


def fmin(input, other):
    return _fmin(*_real_tensor_operands("fmin", input, other))


def _real_tensor_operands(name, input, other):
    """The operands of fmax/fmin, which PyTorch defines for real numbers only."""
    a, b = tensor_operands(name, input, other)
    refuse_complex(a, f"{name} not implemented for complex tensors.")
    return a, b


# ------------------------------------------------------------------------- copysign and fmod


@primitive("copysign", node="CopysignBackward0", group=ELEMENTWISE, saves=("a", "out"),
           error=broadcast_error)
def _copysign(a, b):
    _refuse_complex("copysign_cpu", a)
    return np.copysign(a, b)


@primitive("copysign_scalar", node="CopysignBackward1", group=ELEMENTWISE, saves=("a", "out"))
def _copysign_scalar(a, other):
    _refuse_complex("copysign_cpu", a)
    return np.copysign(a, a.dtype.type(other))


@_copysign.vjp
@_copysign_scalar.vjp
def _(ctx, grad, **_):
    """``out / a`` is the sign flip, taken as 0 where ``a`` is 0; the sign source gets zeros."""
    a, out = ctx.saved
    grad_a = sum_to(grad * where(a == 0, 0.0, out / a), ctx.input_shapes[0])
    if ctx.primitive is _copysign_scalar:
        return grad_a
    need_a, need_b = ctx.needs_input_grad
    return (grad_a if need_a else None,
            Tensor._make(np.zeros(ctx.input_shapes[1], ctx.input_dtypes[1])) if need_b else None)


def copysign(input, other):
    """``|input|`` with the sign of ``other``; integers compute in the default float dtype."""
    common = _floating_result(input, other)
    if common.is_complex:
        raise NotImplementedError(f'"copysign_cpu" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[common.name]}'")
    if isinstance(other, Tensor):
        return _copysign(*promote_floating(input, other))
    return _copysign_scalar(_floating(input), other=other)


copysign = with_overloads(copysign, NUMBER_OTHER)  # a number as the sign source only


_fmod_values = _refusing_integer_zero(np.fmod, "fmod_cpu")


@primitive("fmod", node="FmodBackward1", group=ELEMENTWISE, saves=("a", "b"),
           saves_for={"a": ("b",), "b": ("b",)}, error=broadcast_error)
def _fmod(a, b):
    return _fmod_values(a, b)


@_fmod.vjp
def _(ctx, grad):
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(grad, ctx.input_shapes[0]) if need_a else None,
            sum_to(-grad * div(a, b, rounding_mode="trunc"), ctx.input_shapes[1])
            if need_b else None)


@primitive("fmod_scalar", node="FmodBackward0", group=ELEMENTWISE)
def _fmod_scalar(a, other):
    return _fmod_values(a, _number_array(other, a.dtype))  # (wrapping into an integer dtype)


@_fmod_scalar.vjp
def _(ctx, grad, other):
    return grad


def fmod(input, other):
    """The remainder of C's fmod: the sign of ``input`` (``remainder`` takes that of ``other``)."""
    a, b = promote(input, other)
    if isinstance(other, Tensor):
        return _fmod(a, b)
    return _fmod_scalar(a, other=b._array.item())  # the number in the result's dtype


fmod = with_overloads(fmod, NUMBER_OTHER)  # a number as the divisor only


# ----------------------------------------------------------------------- addcmul and addcdiv


def _broadcast_error_of_all(inputs, params):
    """PyTorch's message for the first operand whose shape does not broadcast with the ones
    before it."""
    shape = inputs[0]._array.shape
    for t in inputs[1:]:
        try:
            shape = np.broadcast_shapes(shape, t._array.shape)
        except ValueError:
            so_far = Tensor._make(np.broadcast_to(np.empty((), np.int8), shape))
            return broadcast_error((so_far, t), params)
    return broadcast_error(inputs, params)


@primitive("addcmul", node="AddcmulBackward0", group=ELEMENTWISE, saves=("tensor1", "tensor2"),
           saves_for={"tensor1": ("tensor2",), "tensor2": ("tensor1",)},
           lowering="{0} + {value} * {1} * {2}", error=_broadcast_error_of_all)
@in_float32
def _addcmul(input, tensor1, tensor2, value):
    """PyTorch's ``fma(value * tensor1, tensor2, input)``: floats round once (see
    ``single_rounding``); float16 computes so in float32, rounded at the end."""
    if input.dtype.kind != "f" or input.size == 0:
        return input + value * tensor1 * tensor2
    return single_rounding.multiply_add(input, value * tensor1, tensor2)


@_addcmul.vjp
def _(ctx, grad, value):
    tensor1, tensor2 = ctx.saved
    need_input, need_1, need_2 = ctx.needs_input_grad
    return (sum_to(grad, ctx.input_shapes[0]) if need_input else None,
            sum_to(grad * (tensor2 * value), ctx.input_shapes[1]) if need_1 else None,
            sum_to(grad * (tensor1 * value), ctx.input_shapes[2]) if need_2 else None)


@primitive("addcdiv", node="AddcdivBackward0", group=ELEMENTWISE, saves=("tensor1", "tensor2"),
           saves_for={"tensor1": ("tensor2",)}, lowering="{0} + {value} * {1} / {2}",
           error=_broadcast_error_of_all)
@in_float32  # float16 as PyTorch's kernel computes it, ``value`` in float32
def _addcdiv(input, tensor1, tensor2, value):
    return input + value * tensor1 / tensor2


@_addcdiv.vjp
def _(ctx, grad, value):
    tensor1, tensor2 = ctx.saved
    need_input, need_1, need_2 = ctx.needs_input_grad
    return (sum_to(grad, ctx.input_shapes[0]) if need_input else None,
            # C++'s ``value / tensor2``: a tensor of ``value`` divided, not Python's reciprocal
            sum_to(grad * (tensor2.new_full((), value) / tensor2), ctx.input_shapes[1])
            if need_1 else None,
            sum_to(-grad * (value * tensor1 / (tensor2 * tensor2)), ctx.input_shapes[2])
            if need_2 else None)


_ADDCDIV_INTEGER_ERROR = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
    "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
    "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer "
    "inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv "
    "behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all "
    "dtypes.")


def _value_of_kind(value, np_dtype):
    return value if np_dtype.kind == "f" else int(value)


def _pointwise(prim):
    """addcmul or addcdiv and its in-place form. ``value`` takes the computation's dtype
    category, as PyTorch's kernels do (0.5 is 0 for integers); addcdiv refuses integer
    division."""
    def check(tensor1, tensor2):
        if prim is _addcdiv and all(t._array.dtype.kind in "biu" for t in (tensor1, tensor2)):
            raise RuntimeError(_ADDCDIV_INTEGER_ERROR)

    def op(input, tensor1, tensor2, *, value=1):
        check(tensor1, tensor2)
        result = dtypes.result_type(input, tensor1, tensor2)
        operands = [cast_operand(t, result) for t in (input, tensor1, tensor2)]
        return prim(*operands, value=_value_of_kind(value, result.numpy))

    def op_(input, tensor1, tensor2, *, value=1):
        check(tensor1, tensor2)
        others = tuple(t if t._array.dtype == input._array.dtype else _cast_operand(t, input)
                       for t in (tensor1, tensor2))
        return apply_inplace(prim, input, others,
                             {"value": _value_of_kind(value, input._array.dtype)})
    op.__name__, op_.__name__ = prim.name, prim.name + "_"
    return op, op_


addcmul, addcmul_ = _pointwise(_addcmul)
addcdiv, addcdiv_ = _pointwise(_addcdiv)


# --------------------------------------------------------------------- logaddexp and xlogy


@primitive("logaddexp", node="LogaddexpBackward0", group=ELEMENTWISE, saves=("a", "b"),
           lowering="({0} + 0.6931471805599453 if {0} == {1} else "
                    "max({0}, {1}) + log(1 + exp(-abs({0} - {1}))))",
           error=broadcast_error)
def _logaddexp(a, b):
    return np.logaddexp(a, b)


@primitive("logaddexp2", node="Logaddexp2Backward0", group=ELEMENTWISE, saves=("a", "b"),
           lowering="({0} + 1 if {0} == {1} else max({0}, {1}) + "
                    "log(1 + exp(-abs({0} - {1}) * 0.6931471805599453)) * 1.4426950408889634)",
           error=broadcast_error)
def _logaddexp2(a, b):
    return np.logaddexp2(a, b)


@_logaddexp.vjp
@_logaddexp2.vjp
def _(ctx, grad):
    a, b = ctx.saved
    power = exp if ctx.primitive is _logaddexp else exp2
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(grad / (1 + power(b - a)), ctx.input_shapes[0]) if need_a else None,
            sum_to(grad / (1 + power(a - b)), ctx.input_shapes[1]) if need_b else None)


def logaddexp(input, other):
    """``log(exp(input) + exp(other))`` without overflow."""
    a, b = promote(input, other)
    return _logaddexp(_require_floating("logaddexp_cpu", a), b)


def logaddexp2(input, other):
    a, b = promote(input, other)
    return _logaddexp2(_require_floating("logaddexp2_cpu", a), b)


logaddexp, logaddexp2 = (with_overloads(op, TENSORS_ONLY) for op in (logaddexp, logaddexp2))


def _zero_where_x_is(logarithm, kernel):
    """``x * logarithm(y)``, 0 where ``x`` is 0 unless ``y`` is NaN (0 * log 0 would be NaN);
    PyTorch's CPU ``kernel`` has no complex form."""
    def compute(x, y):
        _refuse_complex(kernel, x)
        _refuse_complex(kernel, y)
        with np.errstate(divide="ignore", invalid="ignore"):  # (log 0 is meant; masked after)
            return np.where((x == 0) & ~np.isnan(y), 0, x * logarithm(y))
    return compute


_xlogy_values = _zero_where_x_is(np.log, "xlogy_cpu")
_xlog1py_values = _zero_where_x_is(np.log1p, "xlog1py_cpu")


@primitive("xlogy", node="XlogyBackward0", group=ELEMENTWISE, saves=("a", "b"),
           lowering="(0 if {0} == 0 and {1} == {1} else {0} * log({1}))", error=broadcast_error)
def _xlogy(a, b):
    return _xlogy_values(a, b)


@primitive("special_xlog1py", node="SpecialXlog1PyBackward0", group=ELEMENTWISE,
           saves=("a", "b"), error=broadcast_error)
def _xlog1py(a, b):
    return _xlog1py_values(a, b)


@_xlogy.vjp
@_xlog1py.vjp
def _(ctx, grad):
    """PyTorch's rule: the gradient in ``a`` is log(b) (log1p(b)) times grad, zeroed only
    where a = 0 and b is outside the logarithm's domain; in ``b`` it is grad a / b (/ (b + 1))."""
    a, b = ctx.saved
    prim = ctx.primitive
    need_a, need_b = ctx.needs_input_grad
    edge = 0 if prim is _xlogy else -1
    return (sum_to(where((a == 0) & (b <= edge), 0.0, prim(grad, b)), ctx.input_shapes[0])
            if need_a else None,
            sum_to(grad * a / (b if prim is _xlogy else b + 1), ctx.input_shapes[1])
            if need_b else None)


@primitive("xlogy_scalar_other", node="XlogyBackward2", group=ELEMENTWISE, saves=("a",),
           lowering="(0 if {0} == 0 and {other} == {other} else {0} * log({other}))")
def _xlogy_scalar_other(a, other):
    return _xlogy_values(a, np.asarray(other, a.dtype))


@primitive("special_xlog1py_scalar_other", node="SpecialXlog1PyBackward2", group=ELEMENTWISE,
           saves=("a",))
def _xlog1py_scalar_other(a, other):
    return _xlog1py_values(a, np.asarray(other, a.dtype))


@_xlogy_scalar_other.vjp
@_xlog1py_scalar_other.vjp
def _(ctx, grad, other):
    """As for two tensors: zeroed where a = 0 only if ``other`` is outside the domain."""
    (a,) = ctx.saved
    values = ctx.primitive(grad, other=other)
    edge = 0 if ctx.primitive is _xlogy_scalar_other else -1
    return values if other > edge else where(a != 0, values, 0.0)


@primitive("xlogy_scalar_self", node="XlogyBackward1", group=ELEMENTWISE, saves=("b",),
           lowering="(0 if {number} == 0 and {0} == {0} else {number} * log({0}))")
def _xlogy_scalar_self(b, number):
    return _xlogy_values(np.asarray(number, b.dtype), b)


@primitive("special_xlog1py_scalar_self", node="SpecialXlog1PyBackward1", group=ELEMENTWISE,
           saves=("b",))
def _xlog1py_scalar_self(b, number):
    return _xlog1py_values(np.asarray(number, b.dtype), b)


@_xlogy_scalar_self.vjp
@_xlog1py_scalar_self.vjp
def _(ctx, grad, number):
    (b,) = ctx.saved
    return grad * number / (b if ctx.primitive is _xlogy_scalar_self else b + 1)


def _x_times_logarithm(input, other, both, number_other, number_self):
    """xlogy or xlog1py: a number on either side records PyTorch's own node for it."""
    a, b = promote_floating(input, other)
    if not isinstance(other, Tensor):
        return number_other(a, other=b._array.item())
    if not isinstance(input, Tensor):
        return number_self(b, number=a._array.item())
    return both(a, b)


def xlogy(input, other):
    """``input * log(other)``, 0 where ``input`` is 0 (entropy terms ``p log p`` at p = 0)."""
    return _x_times_logarithm(input, other, _xlogy, _xlogy_scalar_other, _xlogy_scalar_self)


def xlog1py(input, other):
    """``input * log1p(other)``, 0 where ``input`` is 0."""
    return _x_times_logarithm(input, other, _xlog1py, _xlog1py_scalar_other,
                              _xlog1py_scalar_self)


# a number on either side, not both (xlog1py is torch.special's only: named so)
_X_LOGARITHM_OVERLOADS = (TENSORS_ONLY[0], "Number self, Tensor other, *, Tensor out = None",
                          NUMBER_OTHER[1])
xlogy = with_overloads(xlogy, _X_LOGARITHM_OVERLOADS)
xlog1py = with_overloads(xlog1py, _X_LOGARITHM_OVERLOADS, "special_xlog1py")



# ------------------------------------------------------------------------------- and the rest


def float_power(input, exponent):
    """``pow`` computed in float64 (complex128 if either operand is complex), whatever the
    operands' dtypes."""
    result = _float_power_dtype(input, exponent)
    return pow(*[to_dtype(v, result) if isinstance(v, Tensor) else v for v in (input, exponent)])


def _float_power_dtype(input, exponent):
    return dtypes.complex128 if dtypes.result_type(input, exponent).is_complex else \
        dtypes.float64


float_power = with_overloads(float_power, tuple(
    overload.replace(" other", " exponent") for overload in _X_LOGARITHM_OVERLOADS))


@primitive("ldexp", node="LdexpBackward0", group=ELEMENTWISE, saves=("a", "b"),
           lowering="{0} * exp({1} * 0.6931471805599453)", error=broadcast_error)
def _ldexp(a, b):
    if a.dtype == np.float16:  # as PyTorch computes it, in float32: 0 * 2 ** 20 is 0, not 0 * inf
        with np.errstate(over="ignore"):  # a product beyond float16's range is inf, quietly
            return (a.astype(np.float32) * np.exp2(b.astype(np.float32))).astype(np.float16)
    return a * np.exp2(b)


@_ldexp.vjp
def _(ctx, grad):
    a, b = ctx.saved
    scale = grad * exp2(b)
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(scale, ctx.input_shapes[0]) if need_a else None,
            sum_to(scale * a * math.log(2), ctx.input_shapes[1]) if need_b else None)


def ldexp(input, other):
    """``input * 2 ** other``, in floating point."""
    _check_exponent(input, other)
    return _ldexp(*promote_floating(input, other))


def _check_exponent(input, other):
    """PyTorch's ldexp kernel for a floating-point ``input`` has no bool exponent."""
    if input._array.dtype.kind in "fc" and other._array.dtype == np.bool_:
        raise NotImplementedError('"ldexp_cpu_exp" not implemented for \'Bool\'')


ldexp = with_overloads(ldexp, TENSORS_ONLY)


@primitive("frexp", node="FrexpBackward0", group=ELEMENTWISE, saves=("a",), n_outputs=2)
def _frexp(a):
    mantissa, exponent = np.frexp(a)
    return mantissa, exponent.astype(np.int32)


@_frexp.vjp
def _(ctx, grad):
    # the exponent is piecewise constant: d mantissa / d input = 2 ** -exponent
    (a,) = ctx.saved
    exponent = _frexp(a)[1]
    return grad / exp2(to_dtype(exponent, grad.dtype))


def frexp(input):
    """``input`` as ``mantissa * 2 ** exponent``, the mantissa in [0.5, 1) in magnitude."""
    if input._array.dtype.kind != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    return return_types.frexp(*_frexp(input))


def float_power_(input, exponent):
    result = _float_power_dtype(input, exponent)
    if input._array.dtype != result.numpy:
        raise RuntimeError("the base given to float_power_ has dtype "
                           f"{_LEGACY_TYPE_NAMES[input._array.dtype.name]} but the operation's "
                           f"result requires dtype {_LEGACY_TYPE_NAMES[result.name]}")
    if isinstance(exponent, Tensor):
        exponent = to_dtype(exponent, result)
    return pow_(input, exponent)


def positive(input):
    if input._array.dtype == np.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


_RADIANS_PER_DEGREE, _DEGREES_PER_RADIAN = math.pi / 180, 180 / math.pi


@in_float32  # float16 as PyTorch's kernel multiplies it: by the float32 constant
def _times_constant(a, constant):
    """``a * constant`` as PyTorch multiplies by a number: the constant rounded to ``a``'s
    dtype first (numpy's rad2deg keeps it in double for float32, a last bit apart)."""
    return a * a.dtype.type(constant)


@primitive("deg2rad", node="Deg2RadBackward0", group=ELEMENTWISE,
           lowering=f"{{0}} * {_RADIANS_PER_DEGREE!r}")
def _deg2rad(a):
    _refuse_complex_angle("deg2rad", a)
    return _times_constant(a, constant=_RADIANS_PER_DEGREE)


@primitive("rad2deg", node="Rad2DegBackward0", group=ELEMENTWISE,
           lowering=f"{{0}} * {_DEGREES_PER_RADIAN!r}")
def _rad2deg(a):
    _refuse_complex_angle("rad2deg", a)
    return _times_constant(a, constant=_DEGREES_PER_RADIAN)


def _refuse_complex_angle(name, a):
    if a.dtype.kind == "c":
        raise RuntimeError(f"{name} is not supported for complex tensors.")


@_deg2rad.vjp
@_rad2deg.vjp
def _(ctx, grad):
    return grad * (_RADIANS_PER_DEGREE if ctx.primitive is _deg2rad else _DEGREES_PER_RADIAN)


deg2rad = _float_function(_deg2rad, "deg2rad")
rad2deg = _float_function(_rad2deg, "rad2deg")


@primitive("heaviside", node="NotImplemented", group=ELEMENTWISE,
           lowering="({1} if {0} == 0 else (1 if {0} > 0 else 0))", error=broadcast_error)
def _heaviside(a, values):
    return np.where(a == 0, values, a > 0)


@_heaviside.vjp
def _(ctx, grad):
    raise RuntimeError("derivative for aten::heaviside is not implemented")


_heaviside.node_class.qualified_name = "torch::autograd::NotImplemented"  # PyTorch's C++ node


def _heaviside_operands(input, values, name="heaviside"):
    """PyTorch's checks; the in-place form is a method only, ``values`` its first argument."""
    arguments = (("values", values),) if name == "heaviside_" else (("input", input),
                                                                     ("values", values))
    for position, (argument, value) in enumerate(arguments, 1):
        if not isinstance(value, Tensor):
            raise TypeError(f"{name}(): argument '{argument}' (position {position}) must be "
                            f"Tensor, not {type(value).__name__}")
    if input._array.dtype.kind == "c" or values._array.dtype.kind == "c":
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if input._array.dtype != values._array.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


def heaviside(input, values):
    """The step function: 0 below zero, 1 above, ``values`` at zero."""
    _heaviside_operands(input, values)
    return _heaviside(input, values)


def heaviside_(input, values):
    _heaviside_operands(input, values, "heaviside_")
    return apply_inplace(_heaviside, input, (values,), {})


def _integer_function(name, compute):
    """gcd and lcm: integer-only (PyTorch has no float kernel), never differentiable."""
    op = _constant_op(name, f"{name.capitalize()}Backward0", compute, None)

    def apply(input, other):
        a, b = promote(input, other)
        if a._array.dtype.kind not in "iu":
            raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                      f"'{_LEGACY_TYPE_NAMES[a._array.dtype.name]}'")
        return op(a, b)
    apply.__name__, apply.primitive = name, op.primitive
    return apply


gcd = with_overloads(_integer_function("gcd", np.gcd), TENSORS_ONLY)
lcm = with_overloads(_integer_function("lcm", np.lcm), TENSORS_ONLY)


def _tensor_other_inplace(inplace, name=None):
    """The in-place form (a method) of an operation PyTorch defines for two tensors only: a
    number ``other``, its first argument, is its parser's TypeError."""
    def op(input, other):
        if not isinstance(other, Tensor):
            raise not_a_tensor(op.__name__, "other", 1, other)
        return inplace(input, other)
    op.__name__ = name or inplace.__name__
    return op


# In-place forms: the tensor keeps its dtype, so floating-point-only ops need a float tensor.
trunc_ = fix_ = _unary_inplace(trunc.primitive)
_real_sgn_, _complex_sgn_ = _unary_inplace(sgn.primitive), _unary_inplace(_complex_sgn)


def sgn_(input):
    return (_complex_sgn_ if input._array.dtype.kind == "c" else _real_sgn_)(input)


def _float_result_unary_inplace(prim):
    """The in-place form of a unary primitive with a floating-point result, which PyTorch
    refuses to write into an integer or bool tensor (the primitive would round it into one)."""
    inplace = _unary_inplace(prim)

    def op(input):
        check_result_type(input, dtypes.get_default_dtype())
        return inplace(input)
    op.__name__ = inplace.__name__
    return op


deg2rad_ = _float_result_unary_inplace(_deg2rad)
rad2deg_ = _float_result_unary_inplace(_rad2deg)
def promote_floating(input, other):
    """Both operands cast straight to the floating dtype a binary floating-point function
    computes in (an int64 -3 beside a uint8 tensor stays -3, not 253 as it would through their
    common integer dtype)."""
    result = _floating_result(input, other)
    return cast_operand(input, result), cast_operand(other, result)


def _floating_result(input, other):
    """The dtype a floating-point binary operation computes in: the operands' common dtype,
    the default float dtype when that is an integer or bool."""
    common = dtypes.result_type(input, other)
    return common if common.numpy.kind in "fc" else dtypes.get_default_dtype()


def _float_result_inplace(inplace):
    """The in-place form of a binary operation with a floating-point result, which PyTorch
    refuses to write into an integer or bool tensor, naming the float dtype."""
    def op(input, other):
        check_result_type(input, _floating_result(input, other))
        return inplace(input, other)
    op.__name__ = inplace.__name__
    return op


def _kernel_checked_inplace(inplace, kernel, kinds):
    """The in-place form of a binary operation whose CPU ``kernel`` runs in the operands'
    common dtype, for the numpy ``kinds`` only: PyTorch checks the result fits the tensor,
    then refuses a common dtype the kernel has no version for."""
    def op(input, other):
        common = dtypes.result_type(input, other)
        check_result_type(input, common)
        if common.numpy.kind not in kinds:
            raise NotImplementedError(f'"{kernel}" not implemented for '
                                      f"'{_LEGACY_TYPE_NAMES[common.numpy.name]}'")
        return inplace(input, other)
    op.__name__ = inplace.__name__
    return op


hypot_ = _tensor_other_inplace(_kernel_checked_inplace(_binary_inplace(_hypot), "hypot_cpu", "f"))
copysign_ = _float_result_inplace(_binary_inplace(_copysign))
xlogy_ = _float_result_inplace(_binary_inplace(_xlogy))
gcd_, lcm_ = (_tensor_other_inplace(_kernel_checked_inplace(
    _binary_inplace(op.primitive), f"{op.__name__}_cpu", "iu")) for op in (gcd, lcm))
_ldexp_unchecked_ = _binary_inplace(_ldexp)


def ldexp_(input, other):
    """``input * 2 ** other`` in place: PyTorch's own words when its float result does not fit
    the tensor."""
    if not isinstance(other, Tensor):
        raise not_a_tensor("ldexp_", "other", 1, other)
    if not dtypes.can_cast(_floating_result(input, other), input.dtype):
        raise RuntimeError("ldexp can't be cast to the desired output type "
                           f"{_LEGACY_TYPE_NAMES[input._array.dtype.name]}")
    _check_exponent(input, other)
    return _ldexp_unchecked_(input, other)




def _undifferentiable_inplace(prim):
    """The in-place form of ``prim`` as PyTorch has it for the inverse hyperbolic functions: it
    records ``<Name>Backward1``, whose backward refuses to run (no derivative is implemented)."""
    name = prim.name
    inplace = Primitive(name + "_inplace", prim.forward, node=prim.node_class.__name__[:-1] + "1",
                        group=ELEMENTWISE, lowering=prim.lowering)

    @inplace.vjp
    def _(ctx, grad):
        raise NotImplementedError(
            f"the derivative for 'inplace version of {name}' is not implemented.")
    return _unary_inplace(inplace)


asinh_ = arcsinh_ = _undifferentiable_inplace(_asinh)
acosh_ = arccosh_ = _undifferentiable_inplace(_acosh)
atanh_ = arctanh_ = _undifferentiable_inplace(_atanh)
asin_ = arcsin_ = _unary_inplace(_asin)
acos_ = arccos_ = _unary_inplace(_acos)
atan_ = arctan_ = _unary_inplace(_atan)
sinh_ = _unary_inplace(_sinh)
cosh_ = _unary_inplace(_cosh)
tan_ = _unary_inplace(_tan)
erf_ = _unary_inplace(_erf_forward)
erfc_ = _unary_inplace(_erfc)
exp2_ = _unary_inplace(_exp2)
expm1_ = _unary_inplace(_expm1)
log2_ = _unary_inplace(_log2)
log10_ = _unary_inplace(_log10)
log1p_ = _unary_inplace(_log1p)
rsqrt_ = _unary_inplace(_rsqrt)
sinc_ = _unary_inplace(_sinc)
_atan2_into_float_ = _float_result_inplace(_binary_inplace(_atan2))
atan2_ = _tensor_other_inplace(_atan2_into_float_)
arctan2_ = _tensor_other_inplace(_atan2_into_float_, "arctan2_")


def logit_(input, eps=None):
    return apply_inplace(_logit, input, (), {"eps": eps})


def frac_(input):
    return apply_inplace(_frac, _require_floating("frac_cpu", input), (), {})


_fmod_tensor_ = _binary_inplace(_fmod)


def fmod_(input, other):
    if isinstance(other, Tensor):
        return _fmod_tensor_(input, other)
    check_result_type(input, dtypes.result_type(input, other))  # 2.5 into an integer tensor
    return apply_inplace(_fmod_scalar, input, (), {"other": other})
