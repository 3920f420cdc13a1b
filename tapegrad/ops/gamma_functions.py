"""The gamma function family: lgamma, digamma, polygamma, mvlgamma, the Hurwitz zeta function
(and ``_standard_gamma`` sampling).

Each derivative is the next member (lgamma' = digamma, digamma' = polygamma(1, ·), …,
d zeta(x, q) / dq = -x zeta(x + 1, q)), so the rules are one line and higher derivatives come for
free. The kernels are PyTorch's algorithms, compiled by Numba (see ``special_kernels``).
"""
import functools
import math

import numpy as np

from .. import dtypes, random
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .broadcast import sum_to
from .elementwise import _refuse_complex
from .inplace import apply_inplace, _unary_inplace
from .operands import broadcast_error, not_a_tensor, promote
from .registry import ELEMENTWISE, OTHER, primitive

__all__ = ["lgamma", "digamma", "polygamma", "mvlgamma", "lgamma_", "digamma_", "polygamma_",
           "mvlgamma_"]  # and torch.special's zeta


def _kernel(name, a, *leading):
    """The ufunc ``name`` of ``special_kernels`` (Numba, imported on first use) on ``a``, after
    the ``leading`` numbers (polygamma's order)."""
    from . import special_kernels
    return special_kernels.apply(functools.partial(getattr(special_kernels, name), *leading), a)


@primitive("lgamma", node="LgammaBackward0", group=ELEMENTWISE, saves=("a",))
def _lgamma(a):
    _refuse_complex("lgamma_vml_cpu", a)
    return _kernel("lgamma", a)


@_lgamma.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _digamma(a)


@primitive("digamma", node="DigammaBackward0", group=ELEMENTWISE, saves=("a",))
def _digamma(a):
    _refuse_complex("digamma", a)
    return _kernel("digamma", a)


@_digamma.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _polygamma(a, n=1)


@primitive("polygamma", node="PolygammaBackward0", group=ELEMENTWISE, saves=("a",))
def _polygamma(a, *, n):
    _refuse_complex("trigamma" if n == 1 else "polygamma", a)
    return _kernel("polygamma", a, float(n))


@_polygamma.vjp
def _(ctx, grad, n):
    (a,) = ctx.saved
    return grad * _polygamma(a, n=n + 1)


def _floating(input):
    """Integer inputs are computed in the default dtype, as PyTorch's unary float ops do."""
    if input._array.dtype.kind in "fc":
        return input
    return input.to(dtypes.get_default_dtype())


def _tensor_argument(name, input):
    """PyTorch's argument parser refuses a number (or anything else) where a tensor goes."""
    if not isinstance(input, Tensor):
        raise not_a_tensor(name, "input", 1, input)


def lgamma(input):
    """log |Gamma(input)|."""
    _tensor_argument("lgamma", input)
    return _lgamma(_floating(input))


def digamma(input):
    """d/dx log Gamma(x)."""
    _tensor_argument("digamma", input)
    return _digamma(_floating(input))


def polygamma(n, input):
    """The n-th derivative of digamma."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return _digamma(_floating(input)) if n == 0 else _polygamma(_floating(input), n=n)


def polygamma_method(input, n):
    """``Tensor.polygamma(n)``: the tensor comes first, unlike ``torch.polygamma(n, input)``."""
    return polygamma(n, input)


def _mvlgamma_offsets(p, dtype):
    """-(p - 1) / 2, ..., -1/2, 0: the arguments' shifts, in PyTorch's order of summation."""
    return np.arange(-p / 2 + 0.5, 0.5, 0.5, dtype=dtype)


@primitive("mvlgamma", node="MvlgammaBackward0", group=ELEMENTWISE, saves=("a",))
def _mvlgamma(a, p):
    _refuse_complex("arange_cpu", a)  # (PyTorch's first step with the input's dtype)
    terms = _kernel("lgamma", a[..., None] + _mvlgamma_offsets(p, a.dtype))
    return (terms.sum(-1) + a.dtype.type(p * (p - 1) * math.log(math.pi) / 4)).astype(a.dtype)


@_mvlgamma.vjp
def _(ctx, grad, p):
    from .reduction import sum as _sum
    (a,) = ctx.saved
    offsets = Tensor._make(_mvlgamma_offsets(p, ctx.input_dtypes[0]))
    return grad * _sum(_digamma(a.unsqueeze(-1) + offsets), -1)


def _check_mvlgamma(input, p):
    if input._array.dtype == np.bool_:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")


def mvlgamma(input, p):
    """The multivariate log-gamma function of dimension ``p``."""
    _check_mvlgamma(input, p)
    return _mvlgamma(_floating(input), p=p)


lgamma_ = _unary_inplace(_lgamma)
digamma_ = _unary_inplace(_digamma)


def polygamma_(input, n):
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return digamma_(input) if n == 0 else apply_inplace(_polygamma, input, (), {"n": n})


def mvlgamma_(input, p):
    _check_mvlgamma(input, p)
    if input._array.dtype.kind in "iu":  # (PyTorch's message names the two dtypes swapped)
        raise RuntimeError(f"mvlgamma: result type {_LEGACY_TYPE_NAMES[input._array.dtype.name]} "
                           "can't be cast to the desired output type "
                           f"{_LEGACY_TYPE_NAMES[dtypes.get_default_dtype().name]}")
    return apply_inplace(_mvlgamma, input, (), {"p": p})


# ------------------------------------------------------------------------- Hurwitz zeta

_ZETA_NOT_DIFFERENTIABLE = "the derivative for 'zeta' is not implemented."


def _zeta_values(x, q):
    from . import special_kernels  # Numba, imported on first use
    return special_kernels.apply(special_kernels.zeta, x, q)


@primitive("special_zeta", node="SpecialZetaBackward0", group=ELEMENTWISE, saves=("a", "b"),
           error=broadcast_error)
def _zeta(a, b):
    return _zeta_values(a, b)


@_zeta.vjp
def _(ctx, grad):
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    if need_a:
        raise NotImplementedError(_ZETA_NOT_DIFFERENTIABLE)
    return None, sum_to(grad * -a * _zeta(a + 1, b), ctx.input_shapes[1])


@primitive("special_zeta_scalar_self", node="SpecialZetaBackward1", group=ELEMENTWISE,
           saves=("b",))
def _zeta_scalar_self(b, number):
    return _zeta_values(np.asarray(number, b.dtype), b)


@_zeta_scalar_self.vjp
def _(ctx, grad, number):
    (b,) = ctx.saved
    return grad * -number * _zeta_scalar_self(b, number=number + 1)


@primitive("special_zeta_scalar_other", node="SpecialZetaBackward2", group=ELEMENTWISE)
def _zeta_scalar_other(a, other):
    return _zeta_values(a, np.asarray(other, a.dtype))


@_zeta_scalar_other.vjp
def _(ctx, grad, other):
    raise NotImplementedError(_ZETA_NOT_DIFFERENTIABLE)


def zeta(input, other):
    """The Hurwitz zeta function sum_k (k + other)^-input; differentiable in ``other`` only."""
    a, b = promote(input, other)
    a, b = _floating(a), _floating(b)
    if not isinstance(other, Tensor):
        return _zeta_scalar_other(a, other=b._array.item())
    if not isinstance(input, Tensor):
        return _zeta_scalar_self(b, number=a._array.item())
    return _zeta(a, b)


@primitive("standard_gamma", node="StandardGammaBackward0", group=OTHER,
           saves=("concentration", "out"))
def _standard_gamma_forward(concentration, *, values):
    """The samples ``values`` drawn beforehand for ``concentration`` (the compiler replays
    them), in its dtype, no smaller than its smallest normal number (as PyTorch clamps)."""
    return np.maximum(values.astype(concentration.dtype), np.finfo(concentration.dtype).tiny)


@_standard_gamma_forward.vjp
def _(ctx, grad, values):
    concentration, sample = ctx.saved
    return grad * _standard_gamma_grad(sample, concentration)


@primitive("standard_gamma_grad", node="StandardGammaGradBackward0", group=OTHER)
def _standard_gamma_grad(x, alpha):
    """d sample / d concentration of a Gamma(alpha, 1) sample ``x``, holding its quantile fixed
    (implicit reparameterization: -(dF/d alpha) / (dF/dx), F the CDF), as PyTorch computes it:
    a series for small x, Rice's saddle-point expansion for large alpha, and elsewhere Jankowiak
    and Obermeyer's bivariate rational fit in log(x / alpha) and log(alpha)."""
    dtype = np.result_type(x, alpha)
    x, alpha = np.broadcast_arrays(x.astype(np.float64), alpha.astype(np.float64))
    with np.errstate(all="ignore"):
        result = np.where(x < 0.8, _gamma_grad_small_x(x, alpha),
                          np.where(alpha > 8.0, _gamma_grad_large_alpha(x, alpha),
                                   _gamma_grad_rational(x, alpha)))
    return result.astype(dtype)


def _gamma_grad_small_x(x, alpha):
    """From the CDF's series ``x^alpha Σ (-x)^i / (i! (alpha + i))`` (six terms)."""
    numer, denom = np.ones_like(x), alpha.copy()
    series1, series2 = numer / denom, numer / (denom * denom)
    for i in range(1, 6):
        numer = numer * -x / i
        denom = denom + 1
        series1 = series1 + numer / denom
        series2 = series2 + numer / (denom * denom)
    pow_x_alpha = x ** alpha
    pdf = x ** (alpha - 1) * np.exp(-x)
    cdf_alpha = (np.log(x) - _kernel("digamma", alpha)) * pow_x_alpha * series1 \
        - pow_x_alpha * series2
    result = -cdf_alpha / pdf
    return np.where(np.isnan(result), 0.0, result)


def _gamma_grad_large_alpha(x, alpha):
    near = (0.9 * alpha <= x) & (x <= 1.1 * alpha)
    near_value = (1 + 24 * alpha * (1 + 12 * alpha)) * (
        1440 * alpha * alpha + 6 * x * (53 - 120 * x) - 65 * x * x / alpha
        + alpha * (107 + 3600 * x)) / (1244160 * alpha ** 4)
    denom = np.sqrt(8 * alpha)
    term2 = denom / (alpha - x)
    term3 = (x - alpha - alpha * np.log(x / alpha)) ** -1.5
    term23 = np.where(x < alpha, term2 - term3, term2 + term3)
    term1 = np.log(x / alpha) * term23 - np.sqrt(2 / alpha) * (alpha + x) / (alpha - x) ** 2
    stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
    return np.where(near, near_value, -stirling * x * term1 / denom)


# rows: the constant, linear and quadratic coefficients in u = log(x / alpha); columns: the
# numerator's then the denominator's cubic coefficients in v = log(alpha)
_GAMMA_GRAD_FIT = np.array([
    [0.16009398, -0.094634809, 0.025146376, -0.0030648343,
     1, 0.32668115, 0.10406089, 0.0014179084],
    [0.53487893, 0.1298071, 0.065735949, -0.0015649758,
     0.16639465, 0.020070113, -0.0035938915, -0.00058392623],
    [0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
     0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07]])


def _gamma_grad_rational(x, alpha):
    u, v = np.log(x / alpha), np.log(alpha)
    c = [_GAMMA_GRAD_FIT[0, i] + u * (_GAMMA_GRAD_FIT[1, i] + u * _GAMMA_GRAD_FIT[2, i])
         for i in range(8)]
    p = c[0] + v * (c[1] + v * (c[2] + v * c[3]))
    q = c[4] + v * (c[5] + v * (c[6] + v * c[7]))
    return np.exp(p / q)


@_standard_gamma_grad.vjp
def _(ctx, grad):
    raise RuntimeError("the derivative for '_standard_gamma_grad' is not implemented.")


def standard_gamma(concentration, generator=None):
    """Gamma(concentration, 1) samples, one per element (PyTorch's ``torch._standard_gamma``)."""
    alphas = concentration._array
    values = random.source(generator).standard_gamma(alphas, alphas.dtype)
    return _standard_gamma_forward(concentration, values=values)
