"""The regularized incomplete gamma functions: P(a, x) (``igamma``, ``special.gammainc``) and its
complement Q(a, x) = 1 - P(a, x) (``igammac``, ``special.gammaincc``).

Values are computed in float64 and cast back to the operands' dtype. Where x < a + 1 the power
series of P converges fast and its terms are all positive (no cancellation); elsewhere Legendre's
continued fraction for Q does, evaluated by the modified Lentz method. Each function takes the
other's value as 1 minus it. Edge values follow PyTorch: nan for a negative operand, a nan,
a = x = 0 or a = x = inf; P = 1 at a = 0 or x = inf, P = 0 at x = 0 or a = inf. Convergence takes
about sqrt(a) steps near x = a (no asymptotic expansion for huge a).

PyTorch differentiates them with respect to ``x`` only, dP/dx = x^(a-1) e^-x / Gamma(a) (and -that
for Q), and raises for ``a``; so does tapegrad.
"""
import numpy as np

from ..tensor import Tensor
from .broadcast import sum_to
from .elementwise import exp, log
from .gamma_functions import _kernel, lgamma
from .inplace import apply_inplace
from .operands import broadcast_error, promote
from .registry import ELEMENTWISE, primitive

__all__ = ["igamma", "igammac", "igamma_", "igammac_"]

_EPSILON = np.finfo(np.float64).eps
_TINY = np.finfo(np.float64).tiny / _EPSILON  # Lentz's stand-in for a zero denominator


def _log_prefactor(a, x, shift):
    """log(x^a e^-x / Gamma(a + shift)): the factor both expansions share."""
    return a * np.log(x) - x - _kernel("lgamma", a + shift)


def _lower_series(a, x):
    """P(a, x) = x^a e^-x / Gamma(a + 1) * sum_n x^n / ((a + 1) ... (a + n)), for x < a + 1."""
    term, total, denominator = np.ones_like(a), np.ones_like(a), a.copy()
    active = np.arange(a.size)
    while active.size:
        denominator[active] += 1
        term[active] *= x[active] / denominator[active]
        total[active] += term[active]
        active = active[term[active] > total[active] * _EPSILON]
    return total * np.exp(_log_prefactor(a, x, 1))


def _upper_continued_fraction(a, x):
    """Q(a, x) = x^a e^-x / Gamma(a) * 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / ...)),
    for x >= a + 1: the modified Lentz method, each element until its factor is 1 to rounding."""
    b = x + 1 - a
    c = np.full_like(a, 1 / _TINY)
    d = 1 / b
    fraction = d.copy()
    active, i = np.arange(a.size), 0
    while active.size:
        i += 1
        numerator = -i * (i - a[active])
        b[active] += 2
        d_next = numerator * d[active] + b[active]
        d_next[np.abs(d_next) < _TINY] = _TINY
        c_next = b[active] + numerator / c[active]
        c_next[np.abs(c_next) < _TINY] = _TINY
        d[active], c[active] = 1 / d_next, c_next
        factor = c_next / d_next
        fraction[active] *= factor
        active = active[np.abs(factor - 1) > _EPSILON]
    return fraction * np.exp(_log_prefactor(a, x, 0))


def _regularized(a, x, upper):
    """P(a, x), or Q(a, x) if ``upper``, broadcast, in the operands' dtype."""
    dtype = np.result_type(a, x)
    a, x = (np.array(v, np.float64) for v in np.broadcast_arrays(a, x))
    lower = np.full(a.shape, np.nan)
    with np.errstate(invalid="ignore"):
        undefined = (np.isnan(a) | np.isnan(x) | (a < 0) | (x < 0) | ((a == 0) & (x == 0))
                     | (np.isinf(a) & np.isinf(x)))
    defined = ~undefined
    lower[defined & ((a == 0) | np.isinf(x))] = 1.0
    lower[defined & ((x == 0) | np.isinf(a))] = 0.0
    regular = defined & (a > 0) & (x > 0) & np.isfinite(a) & np.isfinite(x)
    by_series = regular & (x < a + 1)
    by_fraction = regular & ~by_series
    lower[by_series] = _lower_series(a[by_series], x[by_series])
    lower[by_fraction] = 1 - _upper_continued_fraction(a[by_fraction], x[by_fraction])
    if upper:
        result = 1 - lower
        result[by_fraction] = _upper_continued_fraction(a[by_fraction], x[by_fraction])
    else:
        result = lower
    return result.astype(dtype)


@primitive("igamma", node="IgammaBackward0", group=ELEMENTWISE, saves=("a", "b"),
           error=broadcast_error)
def _igamma(a, b):
    return _regularized(a, b, upper=False)


@primitive("igammac", node="IgammacBackward0", group=ELEMENTWISE, saves=("a", "b"),
           error=broadcast_error)
def _igammac(a, b):
    return _regularized(a, b, upper=True)


@_igamma.vjp
@_igammac.vjp
def _(ctx, grad):
    a, x = ctx.saved
    if ctx.needs_input_grad[0]:
        raise NotImplementedError(f"the derivative for '{ctx.primitive.name}: input' is not "
                                  "implemented.")
    density = exp((a - 1) * log(x) - x - lgamma(a))
    signed = -grad if ctx.primitive is _igammac else grad
    return None, sum_to(signed * density, ctx.input_shapes[1])


def _operands(name, input, other):
    """Both operands as tensors of one floating dtype, as PyTorch's kernels take them."""
    for position, (argument, value) in enumerate((("input", input), ("other", other)), 1):
        if not isinstance(value, Tensor):
            raise TypeError(f"{name}(): argument '{argument}' (position {position}) must be "
                            f"Tensor, not {type(value).__name__}")
    a, x = promote(input, other)
    if a._array.dtype.kind != "f":
        raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                  f"'{a.type()[6:-6]}'")
    return a, x


def igamma(input, other):
    """The regularized lower incomplete gamma function P(input, other)."""
    return _igamma(*_operands("igamma", input, other))


def igammac(input, other):
    """The regularized upper incomplete gamma function Q(input, other) = 1 - P(input, other)."""
    return _igammac(*_operands("igammac", input, other))


def igamma_(input, other):
    return apply_inplace(_igamma, input, (_operands("igamma", input, other)[1],), {})


def igammac_(input, other):
    return apply_inplace(_igammac, input, (_operands("igammac", input, other)[1],), {})
