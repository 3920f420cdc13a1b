"""Transcendental functions of float32 (and float16) arrays, with the results PyTorch's CPU
kernels give.

PyTorch computes ``exp``, ``log``, ``tanh``, ``sin`` … of float32 tensors with SLEEF's 1-ulp
vector functions (and glibc's scalar ones for a loop's tail): both return the correctly rounded
float32 value in over 99 % of elements. numpy's float32 SIMD loops trade accuracy for speed:
20-45 % of their results are one unit off in the last bit, so every training step through a
tanh, a sigmoid or an exponential drifted away from PyTorch's. Computed in float64 and rounded
once to float32, the result is the correctly rounded value (double rounding aside, which is
vanishingly rare), so it equals PyTorch's wherever PyTorch's is correctly rounded.

Float16 is rounded once from float64 too (PyTorch computes it in float32 and rounds again,
which the coarse float16 grid nearly always hides).

The float64 pass costs about 1 ns per element, so arrays above ``ROUNDED_ONCE_LIMIT`` elements
(where a program no longer prints values, and last-bit differences average out in what it does
print) are computed in their own dtype, 2-3 times faster. A 0-d array goes through Python's
``math`` module, which is cheaper than a numpy call on a scalar. Float64 is computed as numpy
computes it, as accurately as PyTorch does.
"""
import math

import numpy as np

__all__ = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
           "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
           "arctanh", "power", "rounds_once", "ROUNDED_ONCE_LIMIT"]

_FLOAT32 = np.dtype(np.float32)
ROUNDED_ONCE_LIMIT = 1 << 16


def rounds_once(a):
    """Whether ``a`` (an array or numpy scalar) is computed in float64 and rounded once."""
    return a.dtype.char in "ef" and a.size <= ROUNDED_ONCE_LIMIT  # float16, float32


def _rounded_once(ufunc, scalar_function):
    """``ufunc(a, out=None)`` (an array, also for a 0-d ``a``), for a float16 or float32 ``a``
    computed in float64 and rounded once; ``scalar_function`` (from ``math``, or None) does a
    0-d float32 array's value."""
    def compute(a, out=None):
        if not rounds_once(a):
            return ufunc(a, out=out)
        if a.ndim == 0 and scalar_function is not None and a.dtype == _FLOAT32:
            try:
                value = scalar_function(float(a))
            except (ValueError, OverflowError):  # outside math's domain: numpy gives inf or nan
                pass
            else:
                if out is None:
                    return np.array(value, _FLOAT32)
                out[()] = value
                return out
        result = ufunc(a.astype(np.float64))  # (a third faster than ufunc(a, dtype=float64))
        if out is None:
            return result.astype(a.dtype)
        np.copyto(out, result, casting="same_kind")
        return out
    compute.__name__ = compute.__qualname__ = ufunc.__name__
    compute.__doc__ = f"``np.{ufunc.__name__}``, rounded once from float64 (see the module)."
    return compute


exp = _rounded_once(np.exp, math.exp)
exp2 = _rounded_once(np.exp2, None)  # (math.exp2 is new in Python 3.11)
expm1 = _rounded_once(np.expm1, math.expm1)
log = _rounded_once(np.log, math.log)
log2 = _rounded_once(np.log2, math.log2)
log10 = _rounded_once(np.log10, math.log10)
log1p = _rounded_once(np.log1p, math.log1p)
sin = _rounded_once(np.sin, math.sin)
cos = _rounded_once(np.cos, math.cos)
tan = _rounded_once(np.tan, math.tan)
arcsin = _rounded_once(np.arcsin, math.asin)
arccos = _rounded_once(np.arccos, math.acos)
arctan = _rounded_once(np.arctan, math.atan)
sinh = _rounded_once(np.sinh, math.sinh)
cosh = _rounded_once(np.cosh, math.cosh)
tanh = _rounded_once(np.tanh, math.tanh)
arcsinh = _rounded_once(np.arcsinh, math.asinh)
arccosh = _rounded_once(np.arccosh, math.acosh)
arctanh = _rounded_once(np.arctanh, math.atanh)


def power(a, exponent):
    """``a ** exponent`` (an array, or a number which PyTorch's kernel takes in the array's
    dtype), rounded once from float64 (the exact cases, squares and square roots, are the
    caller's)."""
    if not rounds_once(a):
        return a ** exponent
    if type(exponent) is not np.ndarray and type(exponent) is not complex:
        exponent = np.float32(exponent)
    return np.power(a.astype(np.float64), exponent).astype(a.dtype)
