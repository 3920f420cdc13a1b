"""Sampling from distributions given by a tensor: multinomial and bernoulli."""

import numpy as np

from .. import dtypes, random
from ..tensor import Tensor

__all__ = [
    "multinomial", "bernoulli",
]


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Draw category indices with probabilities proportional to each row of ``input``."""
    weights = input._array.astype(np.float64)
    rows = weights.reshape(-1, weights.shape[-1])
    if (rows < 0).any() or not np.isfinite(rows).all():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (rows.sum(axis=1) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if not replacement and num_samples > rows.shape[1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    rng = random.generator(generator)
    if replacement:
        cumulative = np.cumsum(rows / rows.sum(axis=1, keepdims=True), axis=1)
        uniform = rng.random((rows.shape[0], num_samples))
        draws = np.array([np.searchsorted(c, u, side="right") for c, u in zip(cumulative, uniform)])
        draws = np.minimum(draws, rows.shape[1] - 1)  # a sum rounded below 1 cannot overshoot
    else:
        # PyTorch's race: the smallest exponential(1) / weight win, zero weights last
        with np.errstate(divide="ignore"):
            keys = rng.exponential(size=rows.shape) / rows
        draws = np.argsort(keys, axis=1, kind="stable")[:, :num_samples]
    return Tensor._make(draws.astype(np.int64).reshape(weights.shape[:-1] + (num_samples,)))


def bernoulli(input, p=None, *, generator=None):
    """Ones with probability ``input`` (or ``p``), zeros otherwise, in ``input``'s dtype."""
    probability = input._array if p is None else np.full(input._array.shape, p)
    draws = random.generator(generator).random(input._array.shape) < probability
    return Tensor._make(draws.astype(input._array.dtype if input._array.dtype.kind == "f"
                                     else dtypes.get_default_dtype().numpy))
