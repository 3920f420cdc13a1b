"""Covariance and correlation of variables observed together: cov, corrcoef.

Composed of differentiable operations, in PyTorch's order, so the gradients and the last node
(``SqueezeBackward0``, ``ClampBackward1``) are PyTorch's.
"""
from .. import dtypes
from .._warnings import warn_at_caller
from .elementwise import clamp, sqrt
from .linalg import mm
from .reduction import sum as _sum

__all__ = ["cov", "corrcoef"]


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of ``input`` (a vector: one variable),
    observations in the columns, optionally weighted by frequency and importance."""
    if input.ndim > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.ndim} dimensions")
    x = input if input.ndim == 2 else input.reshape(1, -1)
    if not x.is_floating_point():
        x = x.to(dtypes.get_default_dtype())
    weights = fweights
    if aweights is not None:
        weights = aweights if weights is None else weights * aweights
    total = x.shape[1] if weights is None else _sum(weights)
    mean = _sum(x if weights is None else x * weights, 1) / total
    if weights is None or correction == 0:
        norm_factor = total - correction
    elif aweights is None:
        norm_factor = total - correction
    else:
        norm_factor = total - correction * _sum(weights * aweights) / total
    if float(norm_factor) <= 0:
        warn_at_caller("cov(): degrees of freedom is <= 0. Correction should be strictly less "
                       "than the number of observations.")
        norm_factor = 0
    centered = x - mean.unsqueeze(1)
    product = mm(centered, (centered if weights is None else centered * weights).t())
    return (product / norm_factor).squeeze()


def corrcoef(input):
    """Pearson's correlation coefficients of the rows of ``input``, clamped to [-1, 1]."""
    c = cov(input)
    if c.ndim == 0:
        return c / c
    stddev = sqrt(c.diagonal())
    c = c / stddev.reshape(-1, 1)
    c = c / stddev.reshape(1, -1)
    return clamp(c, -1, 1)
