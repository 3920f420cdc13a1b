"""Random counts drawn from tensors of parameters: ``binomial`` and ``poisson``.

Both draw from the generator as PyTorch's CPU kernels do, so a seed gives PyTorch's counts;
shapes, dtypes, argument checks and gradients are PyTorch's too.
"""
import numpy as np

from .. import random
from ..tensor import _LEGACY_TYPE_NAMES
from .operands import broadcast_error
from .registry import OTHER, primitive, without_derivative

__all__ = ["binomial", "poisson"]


@primitive("poisson", node="PoissonBackward0", group=OTHER)
def _poisson(rates, *, values):
    """The counts ``values`` drawn beforehand for ``rates`` (the compiler replays them)."""
    return values.astype(rates.dtype)


@_poisson.vjp
def _(ctx, grad, values):
    return grad * 0  # the draws do not move with the rate: PyTorch's zero gradient


def poisson(input, generator=None):
    """A Poisson count for each rate in ``input``, in ``input``'s dtype."""
    rates = input._array
    if rates.dtype.kind != "f":
        raise NotImplementedError(f'"poisson_cpu" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[rates.dtype.name]}'")
    if not (rates >= 0).all():  # also refuses nan
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return _poisson(input, values=_poisson_draws(rates, generator))


def _poisson_draws(rates, generator):
    """PyTorch's counts, drawn from the generator as its kernel draws them."""
    return random.source(generator).poisson(rates)


@primitive("binomial", node="NotImplemented", group=OTHER)
def _binomial(count, prob, *, values):
    """The successes ``values`` drawn beforehand for ``count`` and ``prob`` (broadcast)."""
    return values.astype(count.dtype)


without_derivative(_binomial, "binomial")  # its result requires grad; backward refuses


def binomial(count, prob, generator=None):
    """The number of successes in ``count`` trials of probability ``prob`` (broadcast
    together), in their floating dtype (float32 or float64, as PyTorch's CPU kernel)."""
    if count._array.dtype.kind != "f":
        raise ValueError("binomial only supports floating-point dtypes for count, got: "
                         f"{_LEGACY_TYPE_NAMES[count._array.dtype.name]}")
    if prob._array.dtype != count._array.dtype:
        raise RuntimeError(f"Found dtype {_LEGACY_TYPE_NAMES[prob._array.dtype.name]} but "
                           f"expected {_LEGACY_TYPE_NAMES[count._array.dtype.name]}")
    if count._array.dtype == np.float16:
        raise NotImplementedError('"binomial_cpu" not implemented for \'Half\'')
    try:
        np.broadcast_shapes(count._array.shape, prob._array.shape)
    except ValueError:
        raise RuntimeError(broadcast_error((count, prob), {})) from None
    return _binomial(count, prob, values=_binomial_draws(count._array, prob._array, generator))


def _binomial_draws(trials, chance, generator):
    """PyTorch's counts, drawn from the generator as its kernel draws them."""
    return random.source(generator).binomial(trials, chance, trials.dtype)
