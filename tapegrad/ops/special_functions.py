"""``torch.special``'s Bessel functions and classical orthogonal polynomials.

PyTorch gives none of them a derivative: their results never require grad, so a backward from
one of them alone finds no ``grad_fn`` (a product with a tensor that requires grad treats them as
constants). They are therefore plain functions here, not primitives of the op table.

Integer and bool inputs compute in the default float dtype, float16 is refused with PyTorch's
kernel message. The polynomials take ``x`` and the degree ``n`` as tensors or numbers, promoted
together and broadcast; ``n`` is truncated to an integer in that dtype (negative, or NaN: the
polynomial is 0), and each is evaluated as PyTorch evaluates it: the three-term recurrence in the
result's dtype with each a * b - c fused into one rounding as its compiled kernels fuse it (so
values, signed zeros and overflow come out alike), and for Chebyshev polynomials of high degree
inside (-1, 1) the trigonometric closed forms.

The Bessel functions compute in float64 and round to the result's dtype:
- J0, J1, Y0, Y1: power series for |x| <= 2; Miller's backward recurrence up to x = 25, which
  gives J0 and J1 normalised by J0 + 2 (J2 + J4 + ...) = 1 and Y0, Y1 by the Neumann series
  Y0 = (2/pi)(ln(x/2) + gamma) J0 - (4/pi) sum (-1)^k J_2k / k and its derivative; Hankel's
  asymptotic expansion beyond.
- K0, K1 and their exp(x)-scaled forms: power series for x <= 1; above, the trapezoidal rule on
  K_nu(x) e^x = int_0^inf exp(-x (cosh t - 1)) cosh(nu t) dt (exponentially accurate for this
  smooth, doubly decaying integrand) up to x = 25, and the asymptotic expansion beyond.
- I0, I1: the same kernels as ``torch.i0`` and ``torch.special.i1``.
- Ai: for -11.25 <= x <= 2 the Taylor series about the nearest point of a grid of step 1/8,
  whose values were stepped out from Ai(0) and Ai'(0) by the same series (the Airy equation
  y'' = x y gives its coefficients); above 2, Ai = sqrt(x/3) K_{1/3}(2/3 x^{3/2}) / pi; below
  -11.25, Hankel's expansion of J_{1/3} + J_{-1/3}.
PyTorch's own J0, J1, Y0, Y1 (for x in (5, 25)) and Ai (near x = -2) are off by up to 3e-6, where
these are accurate to a few units of float64 rounding.
"""
import math
import numbers

import numpy as np

from .. import dtypes
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .operands import as_tensor_operand, broadcast_error

__all__ = [
    "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
    "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1", "spherical_bessel_j0", "airy_ai",
    "chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
    "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "legendre_polynomial_p",
    "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
]

_EULER_GAMMA = 0.57721566490153286061


# ------------------------------------------------------------------ operands


def _result_dtype(name, operands):
    """PyTorch's promotion of the operands, integers and bool to the default float dtype."""
    dtype = dtypes.result_type(*operands)
    np_dtype = np.dtype(dtype.numpy)
    if np_dtype.kind in "biu":
        return np.dtype(dtypes.get_default_dtype().numpy)
    if np_dtype.kind == "c" or np_dtype == np.float16:
        raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[np_dtype.name]}'")
    return np_dtype


def _unary(name, values, argument="input"):
    """A public function of one tensor (its parameter named ``argument``, as in PyTorch):
    ``values`` maps a float64 array to float64 values."""
    def compute(input):
        if not isinstance(input, Tensor):
            raise TypeError(f"special_{name}(): argument '{argument}' (position 1) must be Tensor, "
                            f"not {type(input).__name__}")
        dtype = _result_dtype(name, (input,))
        with np.errstate(all="ignore"):  # overflow to inf and NaN are results here
            out = np.asarray(values(input._array.astype(np.float64))).astype(dtype)
        return Tensor._make(out)

    if argument == "x":
        def apply(x):
            return compute(x)
    else:
        def apply(input):
            return compute(input)
    apply.__name__ = name
    apply.__doc__ = values.__doc__
    return apply


def _polynomial(name, values):
    """A public polynomial of ``x`` and degree ``n`` (tensors or numbers, one at least a
    tensor): ``values(x, n)`` on the broadcast arrays in the result's dtype, ``n`` integral."""
    def apply(x, n):
        if not (isinstance(x, Tensor) or isinstance(n, Tensor)):
            raise TypeError(f"special_{name}() received an invalid combination of arguments - got "
                            f"({type(x).__name__}, {type(n).__name__}), but expected one of:\n"
                            " * (Tensor x, Tensor n, *, Tensor out = None)\n"
                            " * (Number x, Tensor n, *, Tensor out = None)\n"
                            " * (Tensor x, Number n, *, Tensor out = None)\n")
        dtype = _result_dtype(name, (x, n))
        x_array, n_array = (_operand_array(v, dtype) for v in (x, n))
        try:
            x_array, n_array = np.broadcast_arrays(x_array, n_array)
        except ValueError:
            raise RuntimeError(broadcast_error([Tensor._make(x_array), Tensor._make(n_array)],
                                               {})) from None
        with np.errstate(all="ignore"):
            out = np.asarray(values(x_array, _degrees(n_array)), dtype=dtype)
        return Tensor._make(out)
    apply.__name__ = name
    apply.__doc__ = values.__doc__
    return apply


def _operand_array(value, dtype):
    if isinstance(value, numbers.Number):
        return np.array(value, dtype=dtype)
    return as_tensor_operand(value)._array.astype(dtype)


def _degrees(n):
    """The degree as C++ casts the dtype's value to int64: truncated, NaN to a negative one."""
    n = np.where(np.isnan(n), -1, np.clip(n, -1, 2 ** 62))
    return np.trunc(n).astype(np.int64)


# ------------------------------------------------------------------ polynomials


def _recurrence(x, n, first, step):
    """P_n(x) from P_0 = 1, P_1 = ``first`` and P_m = step(m, x, P_{m-1}, P_{m-2}), for each
    element up to its own degree (elements of degree < 2 keep P_1)."""
    one = np.ones_like(x)
    previous, current = one, first
    needed = n[n >= 2]
    for m in range(2, int(needed.max()) + 1 if needed.size else 2):
        following = step(m, x, current, previous)
        active = m <= n
        previous = np.where(active, current, previous)
        current = np.where(active, following, current)
    return np.where(n < 0, 0, np.where(n == 0, one, current))


def _fused_multiply_subtract(a, b, c):
    """a * b - c rounded once, as the fused multiply-add PyTorch's compiled recurrences use.
    float32: the product is exact in float64. float64: Dekker's exact product (Veltkamp's split)
    and Knuth's exact sum, then one final rounding (finite values; others as a * b - c)."""
    if a.dtype != np.float64:
        wide = a.astype(np.float64) * b.astype(np.float64) - c.astype(np.float64)
        return wide.astype(a.dtype)
    a, b = np.broadcast_arrays(a, b)
    product = a * b
    a_high, a_low = _split(a)
    b_high, b_low = _split(b)
    product_error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
    total = product - c
    virtual = total - product
    sum_error = (product - (total - virtual)) + (-c - virtual)
    correction = sum_error + product_error
    fused = np.where(correction == 0, total, total + correction)  # keeps an exact -0.
    return np.where(np.isfinite(fused), fused, total)


def _split(a):
    """a = high + low, each with at most 26 significant bits."""
    scaled = 134217729.0 * a  # 2^27 + 1
    high = scaled - (scaled - a)
    return high, a - high


def _chebyshev_step(m, x, current, previous):
    return _fused_multiply_subtract(x + x, current, previous)


def _chebyshev(x, n, first, threshold, closed_form, at_one, at_minus_one):
    """A Chebyshev polynomial: its value at x = +-1, the closed form in theta = acos(x) when
    n > ``threshold`` and |x| < 1, the recurrence otherwise."""
    closed = (n > threshold) & (np.abs(x) < 1)
    recurred = _recurrence(x, np.where(closed, 0, n), first, _chebyshev_step)
    theta = _acos(np.where(closed, x, 0))
    value = np.where(closed, closed_form(x, n.astype(x.dtype), theta), recurred)
    value = np.where(x == 1, at_one(n), np.where(x == -1, at_minus_one(n), value))
    return np.where(n < 0, 0, value).astype(x.dtype)


_LIBM_ACOS = np.frompyfunc(math.acos, 1, 1)


def _acos(x):
    """arccos as the C library computes it (numpy's own is an ulp off in a tenth of the cases,
    which n acos(x) multiplies), rounded to x's dtype."""
    return _LIBM_ACOS(x.astype(np.float64)).astype(x.dtype)


def _parity_sign(n):
    return np.where(n % 2 == 0, 1, -1)


def _chebyshev_t(x, n, threshold=6):
    """T_n(x) = cos(n acos x), the Chebyshev polynomials of the first kind."""
    return _chebyshev(x, n, x, threshold, lambda x, n, theta: np.cos(n * theta),
                      lambda n: 1, _parity_sign)


def _chebyshev_u(x, n, threshold=8):
    """U_n(x) = sin((n + 1) acos x) / sin(acos x), of the second kind."""
    def closed(x, n, theta):
        sine = np.sin(theta)
        return np.where(sine != 0, np.sin((n + 1) * theta) / sine,
                        (n + 1) * np.cos((n + 1) * theta) / x)
    return _chebyshev(x, n, x + x, threshold, closed, lambda n: n + 1,
                      lambda n: (n + 1) * _parity_sign(n))


def _chebyshev_v(x, n, threshold=8):
    """V_n(x) = cos((n + 1/2) acos x) / cos(acos(x) / 2), of the third kind."""
    def closed(x, n, theta):
        half = np.cos(theta / 2)
        return np.where(half != 0, np.cos((n + 0.5) * theta) / half,
                        (n + n + 1) * _parity_sign(n))
    return _chebyshev(x, n, x + x - 1, threshold, closed, lambda n: 1,
                      lambda n: (n + n + 1) * _parity_sign(n))


def _chebyshev_w(x, n, threshold=8):
    """W_n(x) = sin((n + 1/2) acos x) / sin(acos(x) / 2), of the fourth kind."""
    def closed(x, n, theta):
        half = np.sin(theta / 2)
        return np.where(half != 0, np.sin((n + 0.5) * theta) / half, n + n + 1)
    return _chebyshev(x, n, x + x + 1, threshold, closed, lambda n: n + n + 1, _parity_sign)


def _shifted(polynomial, threshold):
    """The shifted polynomial on [0, 1]: ``polynomial`` at 2x - 1 (PyTorch switches to the
    closed form above its own degree ``threshold`` for these)."""
    def shifted(x, n):
        return polynomial(x + x - 1, n, threshold)
    shifted.__doc__ = f"{polynomial.__doc__.split(',')[0]} shifted to [0, 1]: at 2x - 1."
    return shifted


def _legendre_p(x, n):
    """The Legendre polynomials: (m + 1) P_{m+1} = (2m + 1) x P_m - m P_{m-1}."""
    def step(m, x, current, previous):
        k = x.dtype.type(m - 1)
        return _fused_multiply_subtract((k + k + 1) * x, current, k * previous) / (k + 1)
    value = _recurrence(x, n, x, step)
    value = np.where(np.abs(x) == 1, np.where((x > 0) | (n % 2 == 0), 1, -1), value)
    return np.where(n < 0, 0, value)


def _hermite_h(x, n):
    """The physicists' Hermite polynomials: H_{m+1} = 2x H_m - 2m H_{m-1}."""
    def step(m, x, current, previous):
        return _fused_multiply_subtract(x + x, current, x.dtype.type(2 * (m - 1)) * previous)
    return _recurrence(x, n, x + x, step)


def _hermite_he(x, n):
    """The probabilists' Hermite polynomials: He_{m+1} = x He_m - m He_{m-1}."""
    def step(m, x, current, previous):
        return _fused_multiply_subtract(x, current, x.dtype.type(m - 1) * previous)
    return _recurrence(x, n, x, step)


def _laguerre_l(x, n):
    """The Laguerre polynomials: (m + 1) L_{m+1} = (2m + 1 - x) L_m - m L_{m-1}; 1 at x = 0."""
    def step(m, x, current, previous):
        k = x.dtype.type(m - 1)
        return _fused_multiply_subtract((k + k) + (1 - x), current, k * previous) / (k + 1)
    value = _recurrence(x, n, 1 - x, step)
    return np.where((x == 0) & (n >= 0), 1, value)


chebyshev_polynomial_t = _polynomial("chebyshev_polynomial_t", _chebyshev_t)
chebyshev_polynomial_u = _polynomial("chebyshev_polynomial_u", _chebyshev_u)
chebyshev_polynomial_v = _polynomial("chebyshev_polynomial_v", _chebyshev_v)
chebyshev_polynomial_w = _polynomial("chebyshev_polynomial_w", _chebyshev_w)
shifted_chebyshev_polynomial_t = _polynomial("shifted_chebyshev_polynomial_t",
                                             _shifted(_chebyshev_t, 6))
shifted_chebyshev_polynomial_u = _polynomial("shifted_chebyshev_polynomial_u",
                                             _shifted(_chebyshev_u, 6))
shifted_chebyshev_polynomial_v = _polynomial("shifted_chebyshev_polynomial_v",
                                             _shifted(_chebyshev_v, 6))
shifted_chebyshev_polynomial_w = _polynomial("shifted_chebyshev_polynomial_w",
                                             _shifted(_chebyshev_w, 4))
legendre_polynomial_p = _polynomial("legendre_polynomial_p", _legendre_p)
hermite_polynomial_h = _polynomial("hermite_polynomial_h", _hermite_h)
hermite_polynomial_he = _polynomial("hermite_polynomial_he", _hermite_he)
laguerre_polynomial_l = _polynomial("laguerre_polynomial_l", _laguerre_l)


# ------------------------------------------------------------------ Bessel functions


def _harmonic(k):
    return sum(1.0 / j for j in range(1, k + 1))


_SERIES_TERMS = 24  # |x| <= 2: the k-th term is at most 1 / (k!)^2


def _small_bessel(x, order, kind):
    """Power series for 0 < |x| <= 2 (J, Y) or 1 (I, K): ``kind`` "J" gives J_order and Y_order,
    "I" gives I_order and K_order (A&S 9.1.11 and 9.6.11 with psi(k+1) = H_k - gamma). With
    L = ln(x/2) + gamma,
    s_k = (+-x^2/4)^k / (k! (k+order)!) (x/2)^order and S = sum (H_k + H_{k+order}) s_k:
    Y0 = (2/pi)(L J0 - S/2), Y1 = (2/pi)(L J1 - 1/x) - S/pi, K0 = -L I0 + S/2,
    K1 = 1/x + L I1 - S/2."""
    t = (x / 2) ** 2 * (-1.0 if kind == "J" else 1.0)
    term = np.ones_like(x) if order == 0 else x / 2
    first = term.copy()
    logarithmic = term * _harmonic(order)
    for k in range(1, _SERIES_TERMS):
        term = term * t / (k * (k + order))
        first = first + term
        logarithmic = logarithmic + term * (_harmonic(k) + _harmonic(k + order))
    logarithm = np.log(np.abs(x) / 2) + _EULER_GAMMA
    if kind == "J":
        if order == 0:
            return first, (2 / np.pi) * (logarithm * first - logarithmic / 2)
        return first, (2 / np.pi) * (logarithm * first - 1 / x) - logarithmic / np.pi
    if order == 0:
        return first, -logarithm * first + logarithmic / 2
    return first, 1 / x + logarithm * first - logarithmic / 2


def _miller_bessel(x):
    """J0, J1, Y0, Y1 for 2 < x <= 25 by Miller's backward recurrence J_{k-1} = (2k/x) J_k -
    J_{k+1}, started far above x with arbitrary values and normalised by J0 + 2 sum J_2k = 1;
    Y0 and Y1 from the Neumann series (see the module's docstring) over the same J_k."""
    start = 2 * ((int(np.max(x, initial=0)) + 42) // 2)
    above, current = np.zeros_like(x), np.full_like(x, 1e-30)
    norm, y0_sum, y1_sum = np.zeros_like(x), np.zeros_like(x), np.zeros_like(x)
    for k in range(start, 0, -1):
        below = (2 * k / x) * current - above
        if k % 2 == 0:  # k = 2j: J_2j is ``current``, J_{2j-1} ``below``, J_{2j+1} ``above``
            j = k // 2
            sign = -1.0 if j % 2 else 1.0
            norm = norm + 2 * current
            y0_sum = y0_sum + sign * current / j
            y1_sum = y1_sum + sign * (below - above) / j
        above, current = current, below
    norm = norm + current
    j0, j1, y0_sum, y1_sum = current / norm, above / norm, y0_sum / norm, y1_sum / norm
    logarithm = np.log(x / 2) + _EULER_GAMMA
    y0 = (2 / np.pi) * (logarithm * j0) - (4 / np.pi) * y0_sum
    y1 = -(2 / (np.pi * x)) * j0 + (2 / np.pi) * (logarithm * j1) + (2 / np.pi) * y1_sum
    return j0, j1, y0, y1


_ASYMPTOTIC_TERMS = 30  # for x > 25 the k-th term is below k! / (2x)^k: 1e-19 at k = 30
_MILLER_LIMIT = 25.0


def _asymptotic_terms(x, order):
    """a_k(nu) / x^k = prod_{j <= k} (4 nu^2 - (2j - 1)^2) / (8 j x), for k = 0, 1, ..."""
    terms, mu = [np.ones_like(x)], 4.0 * order * order
    for k in range(1, _ASYMPTOTIC_TERMS):
        terms.append(terms[-1] * (mu - (2 * k - 1) ** 2) / (8 * k * x))
    return terms


def _hankel(x, order):
    """J and Y of order 0 or 1 for large x, Hankel's expansion: with chi = x - (order/2 + 1/4)
    pi, J = sqrt(2/(pi x)) (P cos chi - Q sin chi) and Y = sqrt(2/(pi x)) (P sin chi + Q cos chi),
    P and Q the even and odd terms with alternating signs. cos chi and sin chi come from
    cos x and sin x, so no rounding of x - pi/4 spoils a large x."""
    terms = _asymptotic_terms(x, order)
    p = sum(term * (-1.0) ** (k // 2) for k, term in enumerate(terms) if k % 2 == 0)
    q = sum(term * (-1.0) ** (k // 2) for k, term in enumerate(terms) if k % 2 == 1)
    cosine, sine = np.cos(x), np.sin(x)
    if order == 0:
        cos_chi, sin_chi = (cosine + sine) / math.sqrt(2), (sine - cosine) / math.sqrt(2)
    else:
        cos_chi, sin_chi = (sine - cosine) / math.sqrt(2), -(sine + cosine) / math.sqrt(2)
    amplitude = np.sqrt(2 / (np.pi * x))
    return amplitude * (p * cos_chi - q * sin_chi), amplitude * (p * sin_chi + q * cos_chi)


def _by_range(x, pieces, at_zero, at_infinity):
    """Values of a function of x >= 0 given piecewise: ``pieces`` maps (low, high] to a method
    returning a tuple of arrays; x = 0 and x = inf take the given tuples, the rest (x < 0, NaN)
    NaN."""
    results = [np.full_like(x, np.nan) for _ in at_zero]
    for (low, high), method in pieces:
        chosen = (low < x) & (x <= high)
        if chosen.any():
            for result, value in zip(results, method(x[chosen])):
                result[chosen] = value
    for result, zero, infinity in zip(results, at_zero, at_infinity):
        result[x == 0], result[x == np.inf] = zero, infinity
    return results


def _bessel_jy(x, order):
    """J_order(x) and Y_order(x) for x >= 0."""
    return _by_range(x, [((0, 2), lambda v: _small_bessel(v, order, "J")),
                         ((2, _MILLER_LIMIT), lambda v: _miller_bessel(v)[order::2]),
                         ((_MILLER_LIMIT, np.inf), lambda v: _hankel(v, order))],
                     at_zero=(1.0 - order, -np.inf), at_infinity=(np.nan, np.nan))


_QUADRATURE_NODES = np.arange(225) / 32  # t in [0, 7]: e^{-x (cosh t - 1)} < e^{-547} beyond
_QUADRATURE_WEIGHTS = np.where(_QUADRATURE_NODES == 0, 0.5, 1.0) / 32


def _scaled_k_quadrature(x, order):
    """K_nu(x) e^x = int_0^inf exp(-x (cosh t - 1)) cosh(nu t) dt by the trapezoidal rule, for
    moderate x (its error falls like exp(-2 pi d / h) for an integrand analytic in a strip of
    half-width d)."""
    t = _QUADRATURE_NODES
    integrand = np.exp(-x[..., None] * (np.cosh(t) - 1)) * np.cosh(order * t)
    return integrand @ _QUADRATURE_WEIGHTS


def _scaled_k_asymptotic(x, order):
    """K_nu(x) e^x = sqrt(pi / (2x)) sum a_k(nu) / x^k for large x."""
    return np.sqrt(np.pi / (2 * x)) * sum(_asymptotic_terms(x, order))


def _scaled_k(x, order):
    """K_order(x) e^x for x >= 0."""
    return _by_range(x, [((0, 1), lambda v: (_small_bessel(v, order, "I")[1] * np.exp(v),)),
                         ((1, _MILLER_LIMIT), lambda v: (_scaled_k_quadrature(v, order),)),
                         ((_MILLER_LIMIT, np.inf), lambda v: (_scaled_k_asymptotic(v, order),))],
                     at_zero=(np.inf,), at_infinity=(0.0,))[0]


def _odd(values):
    """An odd function from its values at |x|: -f(|x|) for x < 0 (and -0. at -0.)."""
    def odd(x):
        return np.where(np.signbit(x), -1.0, 1.0) * values(np.abs(x))
    return odd


def _j0(x):
    """J0, the Bessel function of the first kind of order 0 (even)."""
    return _bessel_jy(np.abs(x), 0)[0]


def _j1(x):
    """J1, the Bessel function of the first kind of order 1 (odd)."""
    return _odd(lambda v: _bessel_jy(v, 1)[0])(x)


def _y0(x):
    """Y0, the Bessel function of the second kind of order 0: -inf at 0, NaN for x < 0."""
    return _bessel_jy(x, 0)[1]


def _y1(x):
    """Y1, the Bessel function of the second kind of order 1: -inf at 0, NaN for x < 0."""
    return _bessel_jy(x, 1)[1]


def _modified_i(name):
    def values(x):
        from . import special_kernels
        return getattr(special_kernels, name)(x)
    values.__doc__ = f"{name.upper()}, the modified Bessel function of the first kind."
    return values


def _k(order, scaled):
    def values(x):
        result = _scaled_k(x, order)
        return result if scaled else result * np.exp(-x)
    values.__doc__ = (f"K{order}{' e^x' if scaled else ''}, the modified Bessel function of the "
                      "second kind: inf at 0, NaN for x < 0.")
    return values


def _spherical_j0(x):
    """j0(x) = sin(x) / x, by its Taylor series near 0; 0 at +-inf."""
    square, term, series = x * x, np.ones_like(x), np.ones_like(x)
    for k in range(1, 9):
        term = -term * square / ((2 * k) * (2 * k + 1))
        series = series + term
    near = np.abs(x) < 0.5
    value = np.where(near, series, np.sin(x) / np.where(near, 1.0, x))
    return np.where(np.isinf(x), 0.0, value)


_AIRY_STEP = 1 / 8
_AIRY_TAYLOR_TERMS = 50
_AIRY_OSCILLATING = -11.25  # below, zeta = (2/3)|x|^{3/2} > 25: Hankel's expansion
_AIRY_DECAYING = 2.0  # above: K_{1/3}
_AIRY_UNDERFLOW = 103.892  # Ai(x) < 2^-1074 beyond: 0, as in PyTorch
_AIRY_AT_ZERO = (1 / (3 ** (2 / 3) * math.gamma(2 / 3)), -1 / (3 ** (1 / 3) * math.gamma(1 / 3)))


def _airy_taylor(center, value, slope, offset):
    """Ai and Ai' at center + offset from their values at ``center``: the Taylor series whose
    coefficients the Airy equation y'' = x y gives, (n+2)(n+1) a_{n+2} = center a_n + a_{n-1}."""
    coefficients = [value, slope, center * value / 2]
    for n in range(1, _AIRY_TAYLOR_TERMS):
        coefficients.append((center * coefficients[n] + coefficients[n - 1]) / ((n + 2) * (n + 1)))
    total, derivative, power, previous_power = 0.0, 0.0, 1.0, 0.0  # offset^n, offset^(n-1)
    for n, coefficient in enumerate(coefficients):
        total = total + coefficient * power
        derivative = derivative + n * coefficient * previous_power
        previous_power, power = power, power * offset
    return total, derivative


def _airy_nodes():
    """Ai and Ai' on the grid of step 1/8 from _AIRY_OSCILLATING to _AIRY_DECAYING, stepped out
    from Ai(0) = 1 / (3^{2/3} Gamma(2/3)) and Ai'(0) = -1 / (3^{1/3} Gamma(1/3)) (stable towards
    negative x, where Ai oscillates; towards x = 2 rounding grows as Bi / Ai, some 50-fold)."""
    start = _AIRY_AT_ZERO
    nodes = {0: start}
    for direction, end in ((-1, _AIRY_OSCILLATING), (1, _AIRY_DECAYING)):
        value, slope = start
        for k in range(1, int(abs(end) / _AIRY_STEP) + 1):
            center = direction * (k - 1) * _AIRY_STEP
            value, slope = _airy_taylor(center, value, slope, direction * _AIRY_STEP)
            nodes[direction * k] = (value, slope)
    return nodes


_airy_grid = None


def _airy_near_zero(x):
    """Ai on [_AIRY_OSCILLATING, _AIRY_DECAYING]: Taylor series from the nearest grid node."""
    global _airy_grid
    if _airy_grid is None:
        _airy_grid = _airy_nodes()
    index = np.rint(x / _AIRY_STEP).astype(np.int64)
    values = np.array([_airy_grid[k] for k in index.tolist()]).reshape(x.shape + (2,))
    center = index * _AIRY_STEP
    offset = x - center
    return _airy_taylor(center, values[..., 0], values[..., 1], offset)[0]


def _airy_oscillating(x):
    """Ai(-z) = z^{-1/4} / sqrt(pi) (P cos(zeta - pi/4) - Q sin(zeta - pi/4)), zeta = (2/3)
    z^{3/2}, P and Q Hankel's sums for order 1/3 (those of J_{1/3} + J_{-1/3})."""
    z = -x
    zeta = 2 / 3 * z * np.sqrt(z)
    terms = _asymptotic_terms(zeta, 1 / 3)
    p = sum(term * (-1.0) ** (k // 2) for k, term in enumerate(terms) if k % 2 == 0)
    q = sum(term * (-1.0) ** (k // 2) for k, term in enumerate(terms) if k % 2 == 1)
    cosine, sine = np.cos(zeta), np.sin(zeta)
    cos_chi, sin_chi = (cosine + sine) / math.sqrt(2), (sine - cosine) / math.sqrt(2)
    return (p * cos_chi - q * sin_chi) / (np.sqrt(np.pi) * np.sqrt(np.sqrt(z)))


def _airy_decaying(x):
    """Ai(x) = sqrt(x / 3) K_{1/3}(zeta) / pi, zeta = (2/3) x^{3/2}."""
    zeta = 2 / 3 * x * np.sqrt(x)
    return np.sqrt(x / 3) / np.pi * _scaled_k(zeta, 1 / 3) * np.exp(-zeta)


def _airy_ai(x):
    """Ai, the Airy function of the first kind: 0 above x = 103.892 (underflow), NaN at +-inf."""
    return _by_range(x, [
        ((-np.inf, _AIRY_OSCILLATING), lambda v: (_airy_oscillating(v),)),
        ((_AIRY_OSCILLATING, _AIRY_DECAYING), lambda v: (_airy_near_zero(v),)),
        ((_AIRY_DECAYING, _AIRY_UNDERFLOW), lambda v: (_airy_decaying(v),)),
        ((_AIRY_UNDERFLOW, np.inf), lambda v: (np.zeros_like(v),))],
        at_zero=(_AIRY_AT_ZERO[0],), at_infinity=(np.nan,))[0]


bessel_j0 = _unary("bessel_j0", _j0)
bessel_j1 = _unary("bessel_j1", _j1)
bessel_y0 = _unary("bessel_y0", _y0)
bessel_y1 = _unary("bessel_y1", _y1)
modified_bessel_i0 = _unary("modified_bessel_i0", _modified_i("i0"))
modified_bessel_i1 = _unary("modified_bessel_i1", _modified_i("i1"))
modified_bessel_k0 = _unary("modified_bessel_k0", _k(0, scaled=False))
modified_bessel_k1 = _unary("modified_bessel_k1", _k(1, scaled=False))
scaled_modified_bessel_k0 = _unary("scaled_modified_bessel_k0", _k(0, scaled=True), "x")
scaled_modified_bessel_k1 = _unary("scaled_modified_bessel_k1", _k(1, scaled=True), "x")
spherical_bessel_j0 = _unary("spherical_bessel_j0", _spherical_j0, "x")
airy_ai = _unary("airy_ai", _airy_ai, "x")
