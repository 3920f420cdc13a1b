"""erf, erfc and erfinv on numpy arrays, vectorized: numpy has none of them, and the exact GELU
of every transformer needs erf, so eager mode computes them without Numba (importing it and
loading its compiled code costs seconds on first use).

erf and erfc are W. J. Cody's rational Chebyshev approximations ("Rational Chebyshev
approximation for the error function", Math. Comp. 23, 1969; his CALERF): erf(x) = x R(x^2)
for |x| < 0.46875, erfc(|x|) = exp(-x^2) R(|x|) up to 4 and exp(-x^2) R(1/x^2) / |x| beyond,
with exp(-x^2) split so that the rounding of x^2 costs nothing. erfinv refines Giles'
approximation ("Approximating the erfinv function", 2010) by Newton steps on erf — on
log(erfc) in the tails. Every dtype computes in float64 and returns in its own floating dtype
(float64 for integers and bools). Accuracy, measured: float64 within 4 ulps of the C library's
erf and 8 of its erfc (the rounding in evaluating the rationals; their own error is 0.15 ulp),
subnormal results and the underflow point included; float32 within an ulp of PyTorch's.
The work runs over cache-sized blocks: some thirty numpy passes per value.
"""
import math

import numpy as np

from .layout import laid_out_like

__all__ = ["erf", "erfc", "erfinv"]

_SMALL = 0.46875  # below it erf(x) = x R(x^2); above, erfc(|x|) = exp(-x^2) R(|x|)
_MIDDLE = 4.0     # above it, R in 1/x^2
_ZERO_BEYOND = 40.0  # erfc underflows to 0 well before: clipping keeps inf out of the algebra
_BLOCK = 16384  # float64 values: the temporaries of a block stay in L2
_SUBNORMAL_SQUARE = 700.0  # exp(-r^2) is close to the subnormals beyond
_INV_SQRT_PI = 1.0 / math.sqrt(math.pi)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)

# erf(x) / x on |x| < 0.46875, in x^2: numerator highest order first, denominator monic
_SMALL_P = (1.85777706184603153e-1, 3.16112374387056560e00, 1.13864154151050156e02,
            3.77485237685302021e02, 3.20937758913846947e03)
_SMALL_Q = (2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03,
            2.84423683343917062e03)
_SMALL_P_MINUS_Q = tuple(np.subtract(_SMALL_P, (1.0,) + _SMALL_Q))
# exp(x^2) erfc(x) on [0.46875, 4], in x
_MIDDLE_P = (2.15311535474403846e-8, 5.64188496988670089e-1, 8.88314979438837594e00,
             6.61191906371416295e01, 2.98635138197400131e02, 8.81952221241769090e02,
             1.71204761263407058e03, 2.05107837782607147e03, 1.23033935479799725e03)
_MIDDLE_Q = (1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02,
             1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03,
             3.43936767414372164e03, 1.23033935480374942e03)
# (1/sqrt(pi) - x exp(x^2) erfc(x)) x^2 beyond 4, in z = 1/x^2
_LARGE_P = (1.63153871373020978e-2, 3.05326634961232344e-1, 3.60344899949804439e-1,
            1.25781726111229246e-1, 1.60837851487422766e-2, 6.58749161529837803e-4)
_LARGE_Q = (2.56852019228982242e00, 1.87295284992346725e00, 5.27905102951428412e-1,
            6.05183413124413191e-2, 2.33520497626869185e-3)


def _polynomial(x, coefficients, monic=False):
    """sum c_i x^(n-i) by Horner's rule, coefficients highest order first (a leading 1 if
    ``monic``)."""
    result = x + coefficients[0] if monic else x * coefficients[0] + coefficients[1]
    for c in coefficients[1 if monic else 2:]:
        result *= x
        result += c
    return result


def _erf_small(x):
    """erf(x) for |x| < 0.46875 (exact at ±0 and in the subnormals), as x + x (R(x^2) - 1): the
    rounding errors of R then weigh (R - 1) / R = 1/9 of an ulp each."""
    square = x * x
    return x + x * (_polynomial(square, _SMALL_P_MINUS_Q)
                    / _polynomial(square, _SMALL_Q, monic=True))


def _erfc_nonnegative(y):
    """erfc(y) for 0.46875 <= y (finite below), nan passing through."""
    y = np.minimum(y, _ZERO_BEYOND)  # keeps nan
    scaled = _polynomial(y, _MIDDLE_P) / _polynomial(y, _MIDDLE_Q, monic=True)  # exp(y^2) erfc(y)
    beyond = y > _MIDDLE
    if beyond.any():
        tail = np.maximum(y, _MIDDLE)
        z = 1.0 / (tail * tail)
        ratio = z * _polynomial(z, _LARGE_P) / _polynomial(z, _LARGE_Q, monic=True)
        scaled = np.where(beyond, (_INV_SQRT_PI - ratio) / tail, scaled)
    # exp(-y^2) = exp(-r^2) exp(-(y - r)(y + r)) with r = y to 4 bits, so that r^2 is exact
    rounded = np.trunc(y * 16.0) / 16.0
    square = rounded * rounded
    scaled *= np.exp(-(y - rounded) * (y + rounded))
    out = np.exp(-square) * scaled
    deep = square > _SUBNORMAL_SQUARE
    if deep.any():  # exp(-r^2) goes in as two halves, so that the subnormal result rounds once
        half = np.exp(-0.5 * square[deep])
        out[deep] = half * scaled[deep] * half
    return out


def _blockwise(values, a):
    """``values`` (float64 in and out) over blocks of ``a`` that stay in the CPU's cache; ``a``'s
    dtype comes back if it is a float, float64 otherwise, and its layout (a channels-last
    input gives a channels-last result, as PyTorch's elementwise kernels do)."""
    a = np.asarray(a)
    flat = a.astype(np.float64, copy=False).ravel()
    out = np.empty(flat.shape, a.dtype if a.dtype.kind == "f" else np.float64)
    with np.errstate(over="ignore", invalid="ignore"):  # in the branches np.where drops
        for start in range(0, flat.size, _BLOCK):
            out[start:start + _BLOCK] = values(flat[start:start + _BLOCK])
    return laid_out_like(out.reshape(a.shape), a)


def _erf_values(x):
    magnitude = np.abs(x)
    small = magnitude < _SMALL
    if small.all():
        return _erf_small(x)
    large = np.copysign(1.0 - _erfc_nonnegative(magnitude), x)
    return np.where(small, _erf_small(x), large) if small.any() else large


def _erfc_values(x):
    magnitude = np.abs(x)
    small = magnitude < _SMALL
    if small.all():
        return 1.0 - _erf_small(x)
    complement = _erfc_nonnegative(magnitude)
    large = np.where(x < 0, 2.0 - complement, complement)
    return np.where(small, 1.0 - _erf_small(x), large) if small.any() else large


def erf(a):
    return _blockwise(_erf_values, a)


def erfc(a):
    return _blockwise(_erfc_values, a)


# Giles' single-precision erfinv(y) / y, in w = -log(1 - y^2) - 2.5 (w < 5) and in
# sqrt(w) - 3 (w >= 5), highest order first
_GILES_CENTRAL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                  0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_GILES_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
               -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)
_NEWTON_STEPS = 4  # each squares the relative error; Giles' start is rough in float64's far tail


def erfinv(a):
    """The inverse of erf: ±inf at ±1, nan outside [-1, 1]."""
    return _blockwise(_erfinv_values, a)


def _erfinv_values(y):
    magnitude = np.abs(y)
    inside = magnitude < 1.0
    out = np.where(magnitude == 1.0, np.inf, np.nan)
    target = magnitude[inside]
    tail = 1.0 - target  # exact for |y| >= 0.5
    w = -np.log(tail * (1.0 + target))
    central = w < 5.0
    x = target * np.where(central, _polynomial(w - 2.5, _GILES_CENTRAL),
                          _polynomial(np.sqrt(np.maximum(w, 5.0)) - 3.0, _GILES_TAIL))
    near_zero = target < 0.5
    x[near_zero] = _newton_on_erf(x[near_zero], target[near_zero])
    far = ~near_zero
    x[far] = _newton_on_log_erfc(x[far], tail[far])
    out[inside] = x
    return np.copysign(out, y)


def _newton_on_erf(x, target):
    for _ in range(_NEWTON_STEPS):
        x = x - (_erf_values(x) - target) / (_TWO_OVER_SQRT_PI * np.exp(-x * x))
    return x


def _newton_on_log_erfc(x, tail):
    """Newton on log(erfc(x)) = log(1 - |y|): nearly linear in the far tail, where plain Newton
    on erf crawls, and 1 - |y| is exact there while erf's own rounding would swamp the step."""
    log_tail = np.log(tail)
    for _ in range(_NEWTON_STEPS):
        complement = _erfc_values(x)
        x = x - (log_tail - np.log(complement)) * complement / (_TWO_OVER_SQRT_PI * np.exp(-x * x))
    return x
