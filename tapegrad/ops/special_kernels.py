"""Scalar kernels of the special functions numpy lacks, compiled by Numba into numpy ufuncs.

Imported on first use (importing Numba is slow). Each kernel computes in float64 whatever the
input dtype and is a ufunc, so no Python loop runs over elements. The algorithms and
coefficients are those PyTorch's CPU kernels use (ATen's Math.h): Cephes' Chebyshev expansions
for the modified Bessel functions, Cephes' ndtri, Hurwitz zeta and digamma, polygamma through
zeta, the C library's lgamma, and log_ndtr through erfcx (erf, erfc and erfinv, which common
models reach, are plain numpy: see ``erf``),
so values agree with PyTorch's to float64 rounding, edge values (inf, nan) included.

Cephes Math Library, Copyright 1984, 1987, 1992, 2000 by Stephen L. Moshier (3-clause BSD).
"""
import functools
import math

import numba
import numpy as np

_JIT = {"cache": True}
_UNARY = ["float64(float64)"]
_BINARY = ["float64(float64, float64)"]


class _LazyUfunc:
    """A Numba ufunc built on its first call (compiled, or loaded from Numba's cache): a program
    pays only for the special functions it uses, not for every kernel of this module (about 2 s
    cold and 0.6 s warm for all of them)."""

    def __init__(self, function, signatures):
        functools.update_wrapper(self, function)
        self._function, self._signatures, self._ufunc = function, signatures, None

    def __call__(self, *arrays):
        if self._ufunc is None:
            self._ufunc = numba.vectorize(self._signatures, **_JIT)(self._function)
        return self._ufunc(*arrays)


def _ufunc(signatures):
    return lambda function: _LazyUfunc(function, signatures)


def apply(ufunc, *arrays):
    """``ufunc`` on arrays, computed in float64 and returned in the first one's dtype if it is a
    float (float64 otherwise: an in-place op on an integer tensor then refuses the result)."""
    dtype = arrays[0].dtype if arrays[0].dtype.kind == "f" else np.float64
    with np.errstate(all="ignore"):  # overflow to inf and nan are results here, as in PyTorch
        return ufunc(*[a.astype(np.float64, copy=False) for a in arrays]).astype(dtype, copy=False)


@numba.njit(**_JIT)
def _chbevl(x, coefficients):
    """Cephes' sum of Chebyshev polynomials T_i(x / 2), coefficients highest order first."""
    b0 = coefficients[0]
    b1 = 0.0
    b2 = 0.0
    for i in range(1, coefficients.shape[0]):
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + coefficients[i]
    return 0.5 * (b0 - b2)


@numba.njit(**_JIT)
def _polevl(x, coefficients):
    result = 0.0
    for c in coefficients:
        result = result * x + c
    return result


# ------------------------------------------------------------------ modified Bessel functions

# exp(-x) I0(x) on [0, 8] and exp(-x) sqrt(x) I0(x) on [8, inf] (inverted interval)
_I0E_A = np.array([
    -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
    1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
    9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
    1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
    -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
    1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
    -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
    1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1])
_I0E_B = np.array([
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
    7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
    3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
    2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
    8.04490411014108831608E-1])
# exp(-x) I1(x) / x on [0, 8] and exp(-x) sqrt(x) I1(x) on [8, inf]
_I1E_A = np.array([
    2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
    -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
    3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
    -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
    9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
    -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
    4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
    -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
    2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
    -1.76416518357834055153E-1, 2.52587186443633654823E-1])
_I1E_B = np.array([
    7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
    -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
    -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
    4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
    -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
    3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
    -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
    -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
    7.78576235018280120474E-1])


@numba.njit(**_JIT)
def _scaled_bessel(x, order):
    """exp(-|x|) I_order(|x|) for order 0 or 1 (the sign of I1 is the caller's)."""
    x = abs(x)
    if x <= 8.0:
        if order == 0:
            return _chbevl(x / 2.0 - 2.0, _I0E_A)
        return _chbevl(x / 2.0 - 2.0, _I1E_A) * x
    return _chbevl(32.0 / x - 2.0, _I0E_B if order == 0 else _I1E_B) / math.sqrt(x)


@_ufunc(_UNARY)
def i0(x):
    return math.exp(abs(x)) * _scaled_bessel(x, 0)  # nan at ±inf (inf * 0), as PyTorch


@_ufunc(_UNARY)
def i0e(x):
    return _scaled_bessel(x, 0)


@_ufunc(_UNARY)
def i1(x):
    out = math.exp(abs(x)) * _scaled_bessel(x, 1)
    return -out if x < 0 else out


@_ufunc(_UNARY)
def i1e(x):
    out = _scaled_bessel(x, 1)
    return -out if x < 0 else out


# ------------------------------------------------------------- the normal distribution, erfcx

_NDTRI_P0 = np.array([-5.99633501014107895267E1, 9.80010754185999661536E1,
                      -5.66762857469070293439E1, 1.39312609387279679503E1,
                      -1.23916583867381258016E0])
_NDTRI_Q0 = np.array([1.00000000000000000000E0, 1.95448858338141759834E0,
                      4.67627912898881538453E0, 8.63602421390890590575E1,
                      -2.25462687854119370527E2, 2.00260212380060660359E2,
                      -8.20372256168333339912E1, 1.59056225126211695515E1,
                      -1.18331621121330003142E0])
_NDTRI_P1 = np.array([4.05544892305962419923E0, 3.15251094599893866154E1,
                      5.71628192246421288162E1, 4.40805073893200834700E1,
                      1.46849561928858024014E1, 2.18663306850790267539E0,
                      -1.40256079171354495875E-1, -3.50424626827848203418E-2,
                      -8.57456785154685413611E-4])
_NDTRI_Q1 = np.array([1.00000000000000000000E0, 1.57799883256466749731E1,
                      4.53907635128879210584E1, 4.13172038254672030440E1,
                      1.50425385692907503408E1, 2.50464946208309415979E0,
                      -1.42182922854787788574E-1, -3.80806407691578277194E-2,
                      -9.33259480895457427372E-4])
_NDTRI_P2 = np.array([3.23774891776946035970E0, 6.91522889068984211695E0,
                      3.93881025292474443415E0, 1.33303460815807542389E0,
                      2.01485389549179081538E-1, 1.23716634817820021358E-2,
                      3.01581553508235416007E-4, 2.65806974686737550832E-6,
                      6.23974539184983293730E-9])
_NDTRI_Q2 = np.array([1.00000000000000000000E0, 6.02427039364742014255E0,
                      3.67983563856160859403E0, 1.37702099489081330271E0,
                      2.16236993594496635890E-1, 1.34204006088543189037E-2,
                      3.28014464682127739104E-4, 2.89247864745380683936E-6,
                      6.79019408009981274425E-9])
_EXP_MINUS_2 = 0.13533528323661269189
_SQRT_2PI = 2.50662827463100050242


@_ufunc(_UNARY)
def ndtri(p):
    """The quantile of the standard normal: rational approximations in the centre and in
    sqrt(-2 log p) in the tails (Cephes)."""
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    if not 0.0 < p < 1.0:
        return math.nan
    upper = p > 1.0 - _EXP_MINUS_2
    y = 1.0 - p if upper else p
    if y > _EXP_MINUS_2:
        y -= 0.5
        y2 = y * y
        return (y + y * (y2 * _polevl(y2, _NDTRI_P0) / _polevl(y2, _NDTRI_Q0))) * _SQRT_2PI
    x = math.sqrt(-2.0 * math.log(y))
    z = 1.0 / x
    if x < 8.0:
        correction = z * _polevl(z, _NDTRI_P1) / _polevl(z, _NDTRI_Q1)
    else:
        correction = z * _polevl(z, _NDTRI_P2) / _polevl(z, _NDTRI_Q2)
    x = x - math.log(x) / x - correction
    return x if upper else -x


@numba.njit(**_JIT)
def _exp_of_square(x):
    """exp(x * x) with x * x carried exactly (Dekker's product): the rounding of x * x would
    otherwise cost up to x * x ulps in the result."""
    square = x * x
    split = 134217729.0 * x
    high = split - (split - x)
    low = x - high
    error = ((high * high - square) + 2.0 * high * low) + low * low
    return math.exp(square) * (1.0 + error)


@numba.njit(**_JIT)
def _erfcx_nonnegative(x):
    if x < 26.0:
        return _exp_of_square(x) * math.erfc(x)
    # erfc underflows beyond: the asymptotic series 1/(x sqrt(pi)) sum (-1)^k (2k-1)!!/(2x^2)^k
    inverse = 1.0 / (2.0 * x * x)
    term = 1.0
    total = 1.0
    for k in range(1, 10):
        term *= -(2 * k - 1) * inverse
        total += term
    return total / (x * math.sqrt(math.pi))


@_ufunc(_UNARY)
def erfcx(x):
    """exp(x^2) erfc(x), without its overflow and underflow."""
    if x != x:
        return x
    if x >= 0.0:
        return _erfcx_nonnegative(x)
    if x < -26.7:
        return math.inf
    return 2.0 * math.exp(x * x) - _erfcx_nonnegative(-x)  # x * x rounded, as PyTorch's


@_ufunc(_UNARY)
def log_ndtr(x):
    """log of the normal distribution function: through erfcx in the left tail (PyTorch's)."""
    t = x * 0.70710678118654752440
    if x < -1.0:
        return math.log(_erfcx_nonnegative(-t) / 2.0) - t * t
    return math.log1p(-math.erfc(t) / 2.0)


# --------------------------------------------------------------------------- Hurwitz zeta

# (2k)! / B_2k: the Euler-Maclaurin correction terms
_ZETA_A = np.array([12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
                    7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
                    -4.5979787224074726105e15, 1.8152105401943546773e17,
                    -7.1661652561756670113e18])
_MACHEP = 1.11022302462515654042E-16


@numba.njit(**_JIT)
def _zeta(x, q):
    """The Hurwitz zeta function sum_k (k + q)^-x: a direct sum, then Euler-Maclaurin (Cephes)."""
    if x == 1.0:
        return math.inf
    if x < 1.0:
        return math.nan
    if q <= 0.0:
        if q == math.floor(q):
            return math.inf
        if x != math.floor(x):
            return math.nan
    s = q ** -x
    a = q
    b = 0.0
    i = 0
    while i < 9 or a <= 9.0:
        i += 1
        a += 1.0
        b = a ** -x
        s += b
        if -_MACHEP * s < b < _MACHEP * s:
            return s
    w = a
    s += b * w / (x - 1.0)
    s -= 0.5 * b
    a = 1.0
    k = 0.0
    for coefficient in _ZETA_A:
        a *= x + k
        b /= w
        t = a * b / coefficient
        s = s + t
        if abs(t / s) < _MACHEP:
            return s
        k += 1.0
        a *= x + k
        b /= w
        k += 1.0
    return s


@_ufunc(_BINARY)
def zeta(x, q):
    return _zeta(x, q)


# ---------------------------------------------------------------------- the gamma family

# Cephes' asymptotic series of digamma, in 1 / x^2
_DIGAMMA_A = np.array([8.33333333333333333333E-2, -2.10927960927960927961E-2,
                       7.57575757575757575758E-3, -4.16666666666666666667E-3,
                       3.96825396825396825397E-3, -8.33333333333333333333E-3,
                       8.33333333333333333333E-2])
_PSI_10 = 2.25175258906672110764  # digamma(10)


@_ufunc(_UNARY)
def lgamma(x):
    return math.lgamma(x)  # the C library's, as PyTorch's


@numba.njit(**_JIT)
def _digamma(x):
    """Reflection below 0, the recurrence up to 10, then the asymptotic series (Cephes)."""
    if x == 0.0:
        return math.copysign(math.inf, -x)
    reflection = 0.0
    if x < 0.0:
        if x == np.trunc(x):
            return math.nan
        # pi / tan(pi r) with r the fractional part: tan(pi x) would lose digits for large x
        reflection = math.pi / math.tan(math.pi * (x - np.trunc(x)))
        x = 1.0 - x
    result = 0.0
    while x < 10.0:
        result -= 1.0 / x
        x += 1.0
    if x == 10.0:
        return result + _PSI_10 - reflection
    series = 0.0
    if x < 1.0e17:
        z = 1.0 / (x * x)
        series = z * _polevl(z, _DIGAMMA_A)
    return result + math.log(x) - 0.5 / x - series - reflection


@numba.njit(**_JIT)
def _trigamma(x):
    sign = 1.0
    result = 0.0
    if x < 0.5:
        sign = -1.0
        sin_pi_x = math.sin(math.pi * x)
        result -= math.pi * math.pi / (sin_pi_x * sin_pi_x)
        x = 1.0 - x
    for _ in range(6):
        result += 1.0 / (x * x)
        x += 1.0
    ixx = 1.0 / (x * x)
    result += (1.0 + 1.0 / (2.0 * x) + ixx * (1.0 / 6.0 - ixx * (1.0 / 30.0 - ixx / 42.0))) / x
    return sign * result


@_ufunc(_UNARY)
def digamma(x):
    return _digamma(x)


@_ufunc(_BINARY)
def polygamma(n, x):
    """The n-th derivative of digamma: digamma, trigamma, then (-1)^(n+1) n! zeta(n + 1, x)."""
    if n == 0.0:
        return _digamma(x)
    if n == 1.0:
        return _trigamma(x)
    sign = 1.0 if n % 2.0 == 1.0 else -1.0
    return sign * math.exp(math.lgamma(n + 1.0)) * _zeta(n + 1.0, x)
