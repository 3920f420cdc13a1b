"""ATen's ``_dirichlet_grad`` (``dirichlet_grad_one``): the reparameterized gradient of a
Dirichlet sample's coordinate x with respect to its concentration α (total τ = Σα), in terms of
the marginal Beta(α, τ − α): −(∂/∂α cdf(x)) / pdf(x) / (1 − x). PyTorch differentiates
``Dirichlet.rsample`` (and ``Beta.rsample``) through it, so tapegrad evaluates the same
approximations, branch for branch, in float64 (ATen's accumulation type on the CPU)."""
import numpy as np

from ..ops.gamma_functions import digamma
from ..tensor import Tensor

__all__ = ["dirichlet_grad"]

# the rational correction's coefficients: [numerator, denominator][u power][a power][b power]
_C = np.array([
    [[[1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
      [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
      [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013]],
     [[0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
      [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
      [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05]],
     [[-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
      [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
      [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05]]],
    [[[1, -0.02924021934, -0.04438342661, 0.007285809825],
      [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
      [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149]],
     [[0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
      [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
      [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05]],
     [[0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
      [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
      [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06]]]])


def _digamma(x):
    return digamma(Tensor._make(np.asarray(x, dtype=np.float64)))._array


def _alpha_small(x, alpha, beta):
    """A Taylor series for x near 0 (NaN becomes 0, as in ATen)."""
    factor = _digamma(alpha) - _digamma(alpha + beta) - np.log(x)
    numer = np.ones_like(x)
    series = numer / alpha * (factor + 1 / alpha)
    for i in range(1, 11):
        numer = numer * (i - beta) * x / i
        denom = alpha + i
        series = series + numer / denom * (factor + 1 / denom)
    result = x * (1 - x) ** -beta * series
    return np.where(np.isnan(result), 0.0, result)


def _beta_small(x, alpha, beta):
    """The gradient with respect to β, a Taylor series for x near 0."""
    factor = _digamma(alpha + beta) - _digamma(beta)
    numer, betas, dbetas = np.ones_like(x), np.ones_like(x), np.zeros_like(x)
    series = factor / alpha
    for i in range(1, 9):
        numer = numer * -x / i
        dbetas = dbetas * (beta - i) + betas
        betas = betas * (beta - i)
        series = series + numer / (alpha + i) * (dbetas + factor * betas)
    result = -(1 - x) ** (1 - beta) * series
    return np.where(np.isnan(result), 0.0, result)


def _alpha_mid(x, alpha, beta):
    """Rice's saddle-point expansion, for α and β both large."""
    total = alpha + beta
    mean = alpha / total
    std = np.sqrt(alpha * beta / (total + 1)) / total
    poly = 47 * x * beta ** 4 + alpha * (
        (43 + 20 * (16 + 27 * beta) * x) * beta ** 3 + alpha * (
            3 * (59 + 180 * beta - 90 * x) * beta ** 2 + alpha * (
                (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                    8 * (1 - x) * (135 * beta - 11)))))
    prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
    prefactor_den = 12960 * alpha ** 3 * beta ** 2 * (1 + 12 * total)
    at_mean = prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / np.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha))
                * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    axbx = alpha * (x - 1) + beta * x
    term1 = ((2 * alpha * alpha * (x - 1) + alpha * beta * (x - 1) - x * beta * beta)
             / (np.sqrt(2 * alpha / beta) * total ** 1.5 * axbx * axbx))
    term2 = 0.5 * np.log(alpha / (total * x))
    term3 = np.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4 = (beta * np.log(beta / (total * (1 - x)))
             + alpha * np.log(alpha / (total * x))) ** -1.5
    general = stirling * prefactor * (term1 + term2 * (term3 + np.where(x < mean, term4, -term4)))
    return np.where((mean - 0.1 * std <= x) & (x <= mean + 0.1 * std), at_mean, general)


def _rational(x, alpha, total):
    """A rational correction to x (ψ(τ) − ψ(α)) / β."""
    u = np.log(x)
    a = np.log(alpha) - u
    b = np.log(total) - a
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = u ** i * a ** j
            p = p + ua * (_C[0, i, j, 0] + b * (_C[0, i, j, 1] + b * (_C[0, i, j, 2]
                                                                      + b * _C[0, i, j, 3])))
            q = q + ua * (_C[1, i, j, 0] + b * (_C[1, i, j, 1] + b * (_C[1, i, j, 2]
                                                                      + b * _C[1, i, j, 3])))
    return p / q * x * (_digamma(total) - _digamma(alpha)) / (total - alpha)


def dirichlet_grad(x, alpha, total):
    """``torch._dirichlet_grad(x, alpha, total)`` of arrays, in x's dtype."""
    dtype = x.dtype
    boundary = total * x * (1 - x)  # the branches are chosen in the arrays' own dtype
    near_0 = (x <= 0.5) & (boundary < 2.5)
    near_1 = ~near_0 & (x >= 0.5) & (boundary < 0.75)
    mid = ~near_0 & ~near_1 & (alpha > 6) & (total - alpha > 6)
    x, alpha, total = (np.asarray(v, dtype=np.float64) for v in (x, alpha, total))
    beta = total - alpha
    with np.errstate(all="ignore"):
        result = np.select(
            [near_0, near_1, mid],
            [_alpha_small(x, alpha, beta), -_beta_small(1 - x, beta, alpha),
             _alpha_mid(x, alpha, beta)],
            _rational(x, alpha, total))
    return result.astype(dtype)
