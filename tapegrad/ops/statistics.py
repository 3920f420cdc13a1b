"""Covariance and correlation of variables observed together: cov, corrcoef.

Composed of differentiable operations, in PyTorch's order, so the gradients and the last node
(``SqueezeBackward0``, ``ClampBackward1``) are PyTorch's.
"""
import numbers

from .. import dtypes
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .._warnings import warn_at_caller
from .conjugation import complex as _complex, conj, imag, real
from .elementwise import clamp, sqrt
from .linalg import mm
from .reduction import sum as _sum

__all__ = ["cov", "corrcoef"]


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in the rows of ``input`` (a vector: one variable),
    observations in the columns, optionally weighted by frequency and importance."""
    correction = _correction(correction)
    if input.ndim > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input.ndim} dimensions")
    if input.dtype == dtypes.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input if input.ndim == 2 else input.reshape(1, -1)
    observations = x.shape[1]
    _check_weights("fweights", fweights, observations, "iu", "integral")
    _check_weights("aweights", aweights, observations, "f", "floating point")
    if not (x.is_floating_point() or x.is_complex()):
        x = x.to(dtypes.get_default_dtype())
    weights = fweights
    if aweights is not None:
        weights = aweights if weights is None else weights * aweights
    if weights is not None and not _sum(weights)._array.any():
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    total = x.shape[1] if weights is None else _sum(weights)
    mean = _sum(x if weights is None else x * weights, 1) / total
    if weights is None or correction == 0 or aweights is None:
        norm_factor = total - correction
    else:
        norm_factor = total - correction * _sum(weights * aweights) / total
    if _value(norm_factor) <= 0:
        warn_at_caller("cov(): degrees of freedom is <= 0. Correction should be strictly less "
                       "than the number of observations.")
        norm_factor = 0
    centered = x - mean.unsqueeze(1)
    product = mm(centered, _adjoint(centered if weights is None else centered * weights))
    return (product / norm_factor).squeeze()


def _correction(correction):
    """``correction`` as PyTorch's parser reads an int: an integer, or a 0-d integer tensor."""
    if (isinstance(correction, Tensor) and not correction.ndim
            and correction._array.dtype.kind in "iu"):
        return correction.item()
    if isinstance(correction, (bool, Tensor)) or not isinstance(correction, numbers.Integral):
        raise TypeError("cov(): argument 'correction' must be int, not "
                        f"{type(correction).__name__}")
    return int(correction)


def _adjoint(matrix):
    """The conjugate transpose, the ``t().conj()`` of PyTorch's complex covariance."""
    transposed = matrix.t()
    return conj(transposed) if transposed.is_complex() else transposed


def _value(number):
    """A Python number or a one-element tensor's value, read without touching its graph (a
    learnable weight's ``float()`` would warn)."""
    return float(number.detach()) if isinstance(number, Tensor) else number


def _check_weights(name, weights, observations, kinds, kind_name):
    """PyTorch's checks of ``fweights``/``aweights``, in its order."""
    if weights is None:
        return
    array = weights._array
    if array.ndim > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                           f"{name} with {array.ndim} dimensions")
    if array.dtype.kind not in kinds:
        raise RuntimeError(f"cov(): expected {name} to have {kind_name} dtype but got {name} "
                           f"with {_LEGACY_TYPE_NAMES[array.dtype.name]} dtype")
    if array.size != observations:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {array.size} != {observations}")
    if observations and array.min() < 0:
        raise RuntimeError(f"cov(): {name} cannot be negative")


def corrcoef(input):
    """Pearson's correlation coefficients of the rows of ``input``, clamped to [-1, 1] (complex
    ones part by part, scaled by the real standard deviations)."""
    c = cov(input)
    if c.ndim == 0:
        return c / c
    variances = c.diagonal()
    stddev = sqrt(real(variances) if variances.is_complex() else variances)
    c = c / stddev.reshape(-1, 1)
    c = c / stddev.reshape(1, -1)
    if c.is_complex():
        return _complex(clamp(real(c), -1, 1), clamp(imag(c), -1, 1))
    return clamp(c, -1, 1)
