"""The von Mises distribution on the circle: density ``e^(κ cos(x − loc)) / (2π I₀(κ))``.
Sampled by Best and Fisher's rejection method (not reparameterizable)."""
import math

import numpy as np

from .. import ops, random
from ..tensor import Tensor
from . import constraints
from .distribution import Distribution
from .utils import broadcast_all, lazy_property

__all__ = ["VonMises"]

# Abramowitz & Stegun 9.8.1–9.8.4: polynomials in (x / 3.75)² below 3.75 and in 3.75 / x above,
# as PyTorch evaluates log I₀ and log I₁ (so log_prob agrees to the last digit).
_COEF_SMALL = [[1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.0360768, 0.0045813],
               [0.5, 0.87890594, 0.51498869, 0.15084934, 0.02658733, 0.00301532, 0.00032411]]
_COEF_LARGE = [[0.39894228, 0.01328592, 0.00225319, -0.00157565, 0.00916281, -0.02057706,
                0.02635537, -0.01647633, 0.00392377],
               [0.39894228, -0.03988024, -0.00362018, 0.00163801, -0.01031555, 0.02282967,
                -0.02895312, 0.01787654, -0.00420059]]


def _eval_poly(y, coefficients):
    """Horner's rule."""
    result = coefficients[-1]
    for coefficient in reversed(coefficients[:-1]):
        result = coefficient + y * result
    return result


def _log_modified_bessel_fn(x, order=0):
    """log Iₙ(x) for n = 0 or 1 and x > 0 (differentiable). Each branch sees only its own range,
    so the other's polynomial is never out of its domain."""
    below = x.clamp(max=3.75)
    small = _eval_poly((below / 3.75) ** 2, _COEF_SMALL[order])
    if order == 1:
        small = below.abs() * small
    above = x.clamp(min=3.75)
    large = above - 0.5 * above.log() + _eval_poly(3.75 / above, _COEF_LARGE[order]).log()
    return ops.where(x < 3.75, small.log(), large)


def _rejection_sample(loc, concentration, proposal_r, shape):
    """Angles in [−π, π), as PyTorch draws them: each round ``rand((3,) + shape)`` in float64
    for every element, and every acceptance taken, a later one replacing an earlier one."""
    loc, concentration, proposal_r = np.broadcast_arrays(loc, concentration, proposal_r)
    x = np.zeros(shape)
    done = np.zeros(shape, dtype=bool)
    while not done.all():
        u1, u2, u3 = random.drawn(lambda: random.source().uniform((3,) + shape, np.float64))
        z = np.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        with np.errstate(divide="ignore", invalid="ignore"):
            accept = (c * (2 - c) - u2 > 0) | (np.log(c / u2) + 1 - c >= 0)
        x = np.where(accept, np.sign(u3 - 0.5) * np.arccos(f), x)
        done |= accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(Distribution):
    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None):
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, (), validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return (self.concentration * (value - self.loc).cos() - math.log(2 * math.pi)
                - _log_modified_bessel_fn(self.concentration, order=0))

    def _proposal_r(self, kappa):
        """The wrapped-Cauchy envelope's parameter (a Taylor form for tiny κ)."""
        tau = 1 + np.sqrt(1 + 4 * kappa ** 2)
        with np.errstate(divide="ignore", invalid="ignore"):
            rho = (tau - np.sqrt(2 * tau)) / (2 * kappa)
            exact = (1 + rho ** 2) / (2 * rho)
            taylor = 1 / kappa + kappa
        return np.where(kappa < 1e-5, taylor, exact)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        loc = self.loc.detach().numpy().astype(np.float64)
        kappa = self.concentration.detach().numpy().astype(np.float64)
        angles = _rejection_sample(loc, kappa, self._proposal_r(kappa), tuple(shape))
        return Tensor._make(angles.astype(self.loc.dtype.numpy))

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @lazy_property
    def variance(self):
        return 1 - (_log_modified_bessel_fn(self.concentration, order=1)
                    - _log_modified_bessel_fn(self.concentration, order=0)).exp()
