"""Activation primitives, each recorded as PyTorch's node for it.

GELU: the exact form needs ``erf``, which numpy lacks, so the forward, its derivative and its
second derivative are written out here. ``gelu`` records ``GeluBackward0``; its rule calls
``gelu_backward`` (``GeluBackwardBackward0``), whose own rule is written with tapegrad ops, so
higher derivatives work as for any primitive.

The pointwise activations below it (``leaky_relu``, ``elu``, ``softplus``, ``silu``, ``mish``,
``hardtanh``, ``log_sigmoid``, ``hardswish``, ``hardsigmoid``) share one shape: a numpy forward
and a derivative written with tapegrad ops, the rule being ``grad * derivative(input)``.
"""
import functools
import math

import numpy as np

from .elementwise import where
from .inplace import apply_inplace
from .registry import OTHER, primitive

__all__ = ["gelu", "leaky_relu", "elu", "softplus", "silu", "mish", "hardtanh", "log_sigmoid",
           "hardswish", "hardsigmoid"]

APPROXIMATIONS = ("none", "tanh")
_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_CUBIC = 0.044715


@functools.cache
def _erf_ufunc():
    """``math.erf`` as a numpy ufunc, compiled by Numba on first use (exact to the last ulp)."""
    import numba

    @numba.vectorize(["float32(float32)", "float64(float64)"], cache=True)
    def erf(x):
        return math.erf(x)

    return erf


def _erf(a):
    return _apply_ufunc(_erf_ufunc(), a)


@functools.cache
def _erfinv_ufunc():
    """The inverse of erf as a numpy ufunc compiled by Numba on first use, to the last ulp or so.

    A rough start (Giles' single-precision approximation, "Approximating the erfinv function",
    2010) and Newton steps on erf — on log(erfc) in the tails, where ``1 - |y|`` is exact and
    erf's own rounding would swamp the step. Computed in float64 for every input type.
    """
    import numba

    @numba.vectorize(["float32(float32)", "float64(float64)"], cache=True)
    def erfinv(y):
        if not -1.0 <= y <= 1.0:
            return math.nan
        a = abs(float(y))
        if a == 1.0:
            return math.copysign(math.inf, y)
        w = -math.log((1.0 - a) * (1.0 + a))
        if w < 5.0:
            w -= 2.5
            p = 2.81022636e-08
            for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                      -0.00125372503, -0.00417768164, 0.246640727, 1.50140941):
                p = c + p * w
        else:
            w = math.sqrt(w) - 3.0
            p = -0.000200214257
            for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                      -0.0076224613, 0.00943887047, 1.00167406, 2.83297682):
                p = c + p * w
        x = p * a
        tail = 1.0 - a
        for _ in range(8):  # each step squares the relative error: 1e-7 -> 1e-14 -> exact
            slope = 1.1283791670955126 * math.exp(-x * x)  # erf'(x) = 2/sqrt(pi) exp(-x^2)
            if a < 0.5:
                step = (math.erf(x) - a) / slope
            else:  # on log(erfc): nearly linear in the far tail, where plain Newton crawls
                complement = math.erfc(x)
                step = (math.log(tail) - math.log(complement)) * complement / slope
            x -= step
            if abs(step) <= 1e-17 * x:
                break
        return math.copysign(x, y)

    return erfinv


def _erfinv(a):
    return _apply_ufunc(_erfinv_ufunc(), a)


def _apply_ufunc(ufunc, a):
    """A float32/float64 ufunc on ``a``; half precision goes through float32 and back."""
    if a.dtype == np.float16:
        return ufunc(a.astype(np.float32)).astype(np.float16)
    return ufunc(a)


def _tanh_inner(a):
    return _SQRT_2_OVER_PI * (a + _CUBIC * a * a * a)


@primitive("gelu", node="GeluBackward0", group=OTHER, saves=("a",))
def _gelu(a, approximate):
    if approximate == "tanh":
        return 0.5 * a * (1 + np.tanh(_tanh_inner(a)))
    return 0.5 * a * (1 + _erf(a * a.dtype.type(_SQRT_HALF)))


@_gelu.vjp
def _(ctx, grad, approximate):
    (a,) = ctx.saved
    return _gelu_backward(grad, a, approximate=approximate)


@primitive("gelu_backward", node="GeluBackwardBackward0", group=OTHER, saves=("grad", "a"))
def _gelu_backward(grad, a, approximate):
    """``grad * gelu'(a)``."""
    if approximate == "tanh":
        t = np.tanh(_tanh_inner(a))
        slope = _SQRT_2_OVER_PI * (1 + 3 * _CUBIC * a * a)
        return grad * (0.5 * (1 + t) + 0.5 * a * (1 - t * t) * slope)
    cdf = 0.5 * (1 + _erf(a * a.dtype.type(_SQRT_HALF)))
    pdf = np.exp(-0.5 * a * a) * a.dtype.type(_INV_SQRT_2PI)
    return grad * (cdf + a * pdf)


@_gelu_backward.vjp
def _(ctx, upstream, approximate):
    grad, a = ctx.saved
    need_grad, need_a = ctx.needs_input_grad
    return (_gelu_backward(upstream, a, approximate=approximate) if need_grad else None,
            upstream * grad * _gelu_second_derivative(a, approximate) if need_a else None)


def _gelu_second_derivative(a, approximate):
    """gelu''(a), written with tapegrad ops."""
    if approximate == "tanh":
        t = (_SQRT_2_OVER_PI * (a + _CUBIC * a * a * a)).tanh()
        slope = _SQRT_2_OVER_PI * (1 + 3 * _CUBIC * a * a)
        return (1 - t * t) * (slope - a * t * slope * slope + 3 * _CUBIC * _SQRT_2_OVER_PI * a * a)
    pdf = (-0.5 * a * a).exp() * _INV_SQRT_2PI
    return pdf * (2 - a * a)


def gelu(input, approximate="none"):
    """Gaussian error linear unit: ``x Φ(x)``, or its tanh approximation."""
    if approximate not in APPROXIMATIONS:
        raise RuntimeError("approximate argument must be either none or tanh.")
    return _gelu(input, approximate=approximate)


# ---------------------------------------------------------------------- pointwise activations

def _pointwise(name, node, forward, derivative, saves="a"):
    """A primitive ``forward(a, **params)`` whose rule is ``grad * derivative(v, **params)``, v
    being the saved input ``a`` or (``saves="out"``) the saved result."""
    prim = primitive(name, node=node, group=OTHER, saves=(saves,))(forward)

    @prim.vjp
    def _(ctx, grad, **params):
        (value,) = ctx.saved
        return grad * derivative(value, **params)

    return prim


def _mask(condition, like):
    return condition.to(like.dtype)


def _softplus_array(a, beta, threshold):
    scaled = a * beta
    with np.errstate(over="ignore"):
        smooth = np.log1p(np.exp(np.minimum(scaled, threshold))) / beta
    return np.where(scaled > threshold, a, smooth).astype(a.dtype)


def _softplus_tensor(a):
    """``log(1 + exp(a))`` with tapegrad ops, stable for large ``|a|``."""
    return a.clamp_min(0) + (1 + (-a.abs()).exp()).log()


def _leaky_relu_forward(a, negative_slope):
    return np.where(a > 0, a, a * a.dtype.type(negative_slope))


def _leaky_relu_slope(value, negative_slope):
    """From the input or the result alike: both are positive exactly where the slope is 1."""
    return _mask(value > 0, value) * (1 - negative_slope) + negative_slope


_leaky_relu = _pointwise("leaky_relu", "LeakyReluBackward0", _leaky_relu_forward,
                         _leaky_relu_slope)
# In place, PyTorch saves the result instead of the overwritten input: another node name.
_leaky_relu_ = _pointwise("leaky_relu_", "LeakyReluBackward1", _leaky_relu_forward,
                          _leaky_relu_slope, saves="out")

def _elu_forward(a, alpha, scale, input_scale):
    negative = alpha * np.expm1(np.minimum(a, 0) * input_scale)
    return (scale * np.where(a > 0, a, negative)).astype(a.dtype)


_elu = _pointwise(
    "elu", "EluBackward0", _elu_forward,
    lambda a, alpha, scale, input_scale: scale * where(
        a > 0, 1.0, alpha * input_scale * (a.clamp_max(0) * input_scale).exp()).to(a.dtype))
# In place: from the result, whose negative part is scale·alpha·(exp(x·input_scale) - 1).
_elu_ = _pointwise(
    "elu_", "EluBackward1", _elu_forward,
    lambda out, alpha, scale, input_scale: where(
        out > 0, scale, (out + alpha * scale) * input_scale).to(out.dtype), saves="out")

_softplus = _pointwise(
    "softplus", "SoftplusBackward0", _softplus_array,
    lambda a, beta, threshold: where(a * beta > threshold, 1.0, (a * beta).sigmoid()).to(a.dtype))

_silu = _pointwise(
    "silu", "SiluBackward0",
    lambda a: a / (1 + np.exp(-a)),
    lambda a: a.sigmoid() * (1 + a * (1 - a.sigmoid())))

_mish = _pointwise(
    "mish", "MishBackward0",
    lambda a: a * np.tanh(_softplus_array(a, 1.0, 20.0)),
    lambda a: _softplus_tensor(a).tanh() + a * a.sigmoid() * (1 - _softplus_tensor(a).tanh() ** 2))

_hardtanh = _pointwise(
    "hardtanh", "HardtanhBackward0",
    lambda a, min_val, max_val: np.clip(a, min_val, max_val).astype(a.dtype),
    lambda a, min_val, max_val: _mask((a > min_val) & (a < max_val), a))

_log_sigmoid = _pointwise(
    "log_sigmoid", "LogSigmoidBackward0",
    lambda a: np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a))),
    lambda a: (-a).sigmoid())

_hardswish = _pointwise(
    "hardswish", "HardswishBackward0",
    lambda a: a * np.clip(a + 3, 0, 6) / 6,
    # 0 up to -3, (2a + 3) / 6 strictly between, 1 from 3 on: PyTorch's values at the kinks
    lambda a: where(a > -3, where(a < 3, a / 3 + 0.5, _mask(a > 0, a)), _mask(a > 0, a)))

_hardsigmoid = _pointwise(
    "hardsigmoid", "HardsigmoidBackward0",
    lambda a: (np.clip(a + 3, 0, 6) / 6).astype(a.dtype),
    lambda a: _mask((a > -3) & (a < 3), a) / 6)


def _apply(prim, input, inplace, inplace_prim=None, **params):
    """``prim`` on ``input``, or written into it (recorded as an in-place op, as
    ``inplace_prim`` if given) when ``inplace``."""
    if inplace:
        return apply_inplace(inplace_prim or prim, input, (), params)
    return prim(input, **params)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _apply(_leaky_relu, input, inplace, _leaky_relu_, negative_slope=negative_slope)


def elu(input, alpha=1.0, scale=1.0, input_scale=1.0, inplace=False):
    """ELU; with ``scale`` and ``input_scale`` it is also SELU and CELU, as in ATen."""
    return _apply(_elu, input, inplace, _elu_, alpha=alpha, scale=scale,
                  input_scale=input_scale)


def softplus(input, beta=1.0, threshold=20.0):
    return _softplus(input, beta=beta, threshold=threshold)


def silu(input, inplace=False):
    return _apply(_silu, input, inplace)


def mish(input, inplace=False):
    return _apply(_mish, input, inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _apply(_hardtanh, input, inplace, min_val=min_val, max_val=max_val)


def log_sigmoid(input):
    return _log_sigmoid(input)


def hardswish(input, inplace=False):
    return _apply(_hardswish, input, inplace)


def hardsigmoid(input, inplace=False):
    return _apply(_hardsigmoid, input, inplace)
