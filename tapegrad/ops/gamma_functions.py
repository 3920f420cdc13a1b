"""The gamma function family: lgamma, digamma, polygamma (and ``_standard_gamma`` sampling).

Each derivative is the next member (lgamma' = digamma, digamma' = polygamma(1, ·), …), so the
rules are one line and higher derivatives come for free. The numpy kernels are vectorized:
Lanczos for lgamma, recurrence up to a large argument then the asymptotic series for the others,
with the reflection formula for negative arguments.
"""
import math

import numpy as np

from .. import dtypes, random
from ..tensor import Tensor
from .registry import ELEMENTWISE, OTHER, primitive

__all__ = ["lgamma", "digamma", "polygamma", "mvlgamma"]

_LANCZOS_G = 7.0
_LANCZOS = np.array([0.99999999999980993, 676.5203681218851, -1259.1392167224028,
                     771.32342877765313, -176.61502916214059, 12.507343278686905,
                     -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7])
# The Bernoulli numbers B2, B4, ..., B14 of the asymptotic series
_BERNOULLI = np.array([1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6])


def _lgamma_positive(x):
    """log|Gamma(x)| for x >= 0.5 (Lanczos, about 15 significant digits)."""
    z = x - 1.0
    series = _LANCZOS[0] + sum(c / (z + i) for i, c in enumerate(_LANCZOS[1:], 1))
    t = z + _LANCZOS_G + 0.5
    return 0.5 * math.log(2 * math.pi) + (z + 0.5) * np.log(t) - t + np.log(series)


def _lgamma_array(a):
    x = np.atleast_1d(a.astype(np.float64))  # 1-d at least: masked assignment below
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        reflected = x < 0.5
        result = np.where(reflected, 0.0, _lgamma_positive(np.where(reflected, 1.0, x)))
        if reflected.any():
            small = x[reflected]
            result[reflected] = (np.log(np.pi / np.abs(np.sin(np.pi * small)))
                                 - _lgamma_positive(1.0 - small))
        result[(x <= 0) & (x == np.floor(x))] = np.inf  # the poles
        result[np.isinf(x)] = np.inf
    return result.reshape(a.shape).astype(a.dtype)


def _polygamma_array(n, a):
    """psi^(n)(x): n = 0 is digamma. Shift x up past 20 with the recurrence, then sum the
    asymptotic series; negative x by reflection (digamma) or the shift alone."""
    x = np.atleast_1d(a.astype(np.float64))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        poles = (x <= 0) & (x == np.floor(x))
        reflected = (x < 0) & ~poles & (n == 0)
        x_used = np.where(reflected, 1.0 - x, x)
        shift = np.zeros_like(x_used)
        steps = np.clip(np.ceil(20.0 - x_used), 0, None)
        steps[~np.isfinite(steps)] = 0
        for k in range(int(steps.max()) if steps.size else 0):
            active = k < steps
            term = (x_used + k) ** -(n + 1)
            shift += np.where(active, term, 0.0)
        y = x_used + steps
        if n == 0:
            series = np.log(y) - 0.5 / y
            power = y ** -2
            for k, b in enumerate(_BERNOULLI, 1):
                series -= b / (2 * k) * power
                power = power / (y * y)
            result = series - shift
            result = np.where(reflected, result - np.pi / np.tan(np.pi * x), result)
            result = np.where(poles, np.where(x == 0, -np.inf, np.nan), result)
            result = np.where(x == np.inf, np.inf, np.where(x == -np.inf, np.nan, result))
        else:
            # psi^(n)(y) ~ (-1)^(n+1) [(n-1)!/y^n + n!/(2 y^(n+1))
            #                           + sum_k B2k (2k+n-1)!/(2k)! / y^(2k+n)]
            series = math.factorial(n - 1) / y ** n + math.factorial(n) / (2 * y ** (n + 1))
            for k, b in enumerate(_BERNOULLI, 1):
                weight = math.factorial(2 * k + n - 1) / math.factorial(2 * k)
                series += b * weight / y ** (2 * k + n)
            sign = (-1) ** (n + 1)
            result = sign * (series + math.factorial(n) * shift)
            result = np.where(poles, np.inf if n % 2 else -np.inf, result)
            result = np.where(np.isinf(x), 0.0 if n % 2 else np.nan, result)
    return result.reshape(a.shape).astype(a.dtype)


@primitive("lgamma", node="LgammaBackward0", group=ELEMENTWISE, saves=("a",))
def _lgamma(a):
    return _lgamma_array(a)


@_lgamma.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _digamma(a)


@primitive("digamma", node="DigammaBackward0", group=ELEMENTWISE, saves=("a",))
def _digamma(a):
    return _polygamma_array(0, a)


@_digamma.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _polygamma(a, n=1)


@primitive("polygamma", node="PolygammaBackward0", group=ELEMENTWISE, saves=("a",))
def _polygamma(a, *, n):
    return _polygamma_array(n, a)


@_polygamma.vjp
def _(ctx, grad, n):
    (a,) = ctx.saved
    return grad * _polygamma(a, n=n + 1)


def _floating(input):
    """Integer inputs are computed in the default dtype, as PyTorch's unary float ops do."""
    if input._array.dtype.kind in "fc":
        return input
    return input.to(dtypes.get_default_dtype())


def lgamma(input):
    """log |Gamma(input)|."""
    return _lgamma(_floating(input))


def digamma(input):
    """d/dx log Gamma(x)."""
    return _digamma(_floating(input))


def polygamma(n, input):
    """The n-th derivative of digamma."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return _digamma(_floating(input)) if n == 0 else _polygamma(_floating(input), n=n)


def mvlgamma(input, p):
    """The multivariate log-gamma function of dimension ``p``."""
    from .reduction import sum as _sum
    offsets = Tensor._make(-np.arange(p, dtype=input._array.dtype) / 2)
    constant = p * (p - 1) / 4 * math.log(math.pi)
    return _sum(lgamma(input.unsqueeze(-1) + offsets), -1) + constant


@primitive("standard_gamma", node="StandardGammaBackward0", group=OTHER)
def _standard_gamma_forward(concentration, *, seed):
    draws = np.random.Generator(np.random.PCG64(seed)).standard_gamma(concentration)
    return np.maximum(draws, np.finfo(concentration.dtype).tiny).astype(concentration.dtype)


@_standard_gamma_forward.vjp
def _(ctx, grad, seed):
    raise RuntimeError("the derivative of a gamma sample with respect to its concentration "
                       "(PyTorch's _standard_gamma_grad) is not implemented in tapegrad")


def standard_gamma(concentration, generator=None):
    """Gamma(concentration, 1) samples, one per element (PyTorch's ``torch._standard_gamma``)."""
    seed = int(random.generator(generator).integers(0, 2 ** 63 - 1))
    return _standard_gamma_forward(concentration, seed=seed)
