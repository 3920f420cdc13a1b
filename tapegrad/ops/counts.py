"""Random counts drawn from tensors of parameters: ``binomial`` and ``poisson``.

The numbers come from tapegrad's generator (numpy's), so a seed reproduces them but does not
give PyTorch's; shapes, dtypes, argument checks and gradients are PyTorch's.
"""
import numpy as np

from .. import random
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .operands import broadcast_error
from .registry import OTHER, primitive

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
    return _poisson(input, values=random.generator(generator).poisson(rates))


def binomial(count, prob, generator=None):
    """The number of successes in ``count`` trials of probability ``prob`` (broadcast
    together), in their floating dtype. No gradient: PyTorch has no derivative for it either."""
    if count._array.dtype.kind != "f":
        raise ValueError("binomial only supports floating-point dtypes for count, got: "
                         f"{_LEGACY_TYPE_NAMES[count._array.dtype.name]}")
    if prob._array.dtype != count._array.dtype:
        raise RuntimeError(f"Found dtype {_LEGACY_TYPE_NAMES[prob._array.dtype.name]} but "
                           f"expected {_LEGACY_TYPE_NAMES[count._array.dtype.name]}")
    try:
        trials, chance = np.broadcast_arrays(count._array, prob._array)
    except ValueError:
        raise RuntimeError(broadcast_error((count, prob), {})) from None
    draws = random.generator(generator).binomial(np.maximum(trials, 0).astype(np.int64),
                                                 np.clip(chance, 0, 1))
    return Tensor._make(draws.astype(count._array.dtype))
