"""GELU as primitives: the exact form needs ``erf``, which numpy lacks and the op table has no
entry for, so the forward, its derivative and its second derivative are written out here.

``gelu`` records ``GeluBackward0``; its rule calls ``gelu_backward`` (``GeluBackwardBackward0``),
whose own rule is written with tapegrad ops, so higher derivatives work as for any primitive.
"""
import functools
import math

import numpy as np

from .registry import OTHER, primitive

__all__ = ["gelu"]

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
    if a.dtype == np.float16:
        return _erf_ufunc()(a.astype(np.float32)).astype(np.float16)
    return _erf_ufunc()(a)


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
