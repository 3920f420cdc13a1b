"""Vector and matrix norms.

Every vector p-norm is one primitive, ``vector_norm`` (PyTorch's ``LinalgVectorNormBackward0``),
rather than a chain of abs/pow/sum/sqrt: its backward rule is the stable one PyTorch uses (zero, not
nan, where the norm is zero), and it is a single pass over memory. ``Tensor.norm``, ``torch.norm``
and ``torch.linalg.norm`` all reach it; matrix 1- and inf-norms compose it from sum and amax, as
PyTorch does.
"""
import builtins
import math

import numpy as np

from .. import dtypes
from ..tensor import _LEGACY_TYPE_NAMES
from .creation import zeros_like
from .elementwise import abs, sign, where
from .reduction import amax, amin, normalize_dims
from .reduction import sum as _reduce_sum
from .registry import REDUCTION, primitive
from .shape import reshape

__all__ = ["norm", "vector_norm", "matrix_norm"]

_INF = math.inf


@primitive("vector_norm", node="LinalgVectorNormBackward0", group=REDUCTION, saves=("a", "out"))
def _vector_norm(a, ord, dims, keepdim):
    magnitude = np.abs(a)
    if ord == _INF:
        return np.max(magnitude, axis=dims, keepdims=keepdim)
    if ord == -_INF:
        return np.min(magnitude, axis=dims, keepdims=keepdim)
    if ord == 0:
        return np.sum(magnitude != 0, axis=dims, keepdims=keepdim).astype(a.dtype)
    if ord == 1:
        return np.sum(magnitude, axis=dims, keepdims=keepdim)
    if ord == 2:
        return np.sqrt(np.sum(magnitude * magnitude, axis=dims, keepdims=keepdim))
    return np.sum(magnitude ** ord, axis=dims, keepdims=keepdim) ** (1.0 / ord)


@_vector_norm.vjp
def _(ctx, grad, ord, dims, keepdim):
    """d|a|_p / da = sign(a) |a|^(p-1) / |a|_p^(p-1); zero where the norm is zero (PyTorch's
    choice at the kink). The inf-norms share the gradient among the entries that attain them."""
    a, norm_value = ctx.saved
    shape = ctx.input_shapes[0]
    if not keepdim:
        kept = tuple(1 if dims is None or d in dims else s for d, s in enumerate(shape))
        grad, norm_value = reshape(grad, kept), reshape(norm_value, kept)
    if ord == 0:
        return zeros_like(a)
    if ord == 1:
        return grad * sign(a)
    if builtins.abs(ord) == _INF:
        attains = (abs(a) == norm_value).to(grad.dtype)
        return grad * sign(a) * attains / _reduce_sum(attains, dims, keepdim=True)
    at_zero = norm_value == 0
    safe_norm = where(at_zero, 1.0, norm_value)  # no 0/0, even in a second derivative
    if ord == 2:
        scale = grad / safe_norm
    else:
        scale = grad * abs(a) ** (ord - 2) / safe_norm ** (ord - 1)
    return where(at_zero, 0.0, scale) * a


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """``torch.linalg.vector_norm``: the ``ord``-norm of the entries over ``dim`` (all of them)."""
    if dtype is not None:
        x = x.to(dtype)
    if x._array.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_LEGACY_TYPE_NAMES[x._array.dtype.name]}")
    dims = normalize_dims(dim, x._array.ndim)
    return _vector_norm(x, ord=float(ord), dims=dims, keepdim=keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """``torch.linalg.matrix_norm`` for ``'fro'`` and the induced 1- and inf-norms (largest column
    or row sum of magnitudes; -1 and -inf: the smallest)."""
    if dtype is not None:
        A = A.to(dtype)
    if A._array.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    rows, columns = (d % A._array.ndim for d in dim)
    if ord == "fro":
        return vector_norm(A, 2, (rows, columns), keepdim)
    if ord not in (1, -1, _INF, -_INF):
        raise NotImplementedError(f"linalg.matrix_norm: ord={ord!r} needs singular values, which "
                                  "tapegrad does not compute")
    summed_dim, extreme_dim = (rows, columns) if builtins.abs(ord) == 1 else (columns, rows)
    sums = _reduce_sum(abs(A), summed_dim, keepdim=keepdim)
    if not keepdim and extreme_dim > summed_dim:
        extreme_dim -= 1
    return (amax if ord > 0 else amin)(sums, extreme_dim, keepdim)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """``torch.norm``/``Tensor.norm``: a vector norm over ``dim`` (all entries by default);
    ``'fro'`` is the 2-norm of the entries."""
    if isinstance(p, str):
        if p != "fro":
            raise NotImplementedError(f"norm: p={p!r} needs singular values, which tapegrad does "
                                      "not compute")
        p = 2
    if dtype is not None:
        input = input.to(dtypes.as_dtype(dtype))
    return vector_norm(input, p, dim, keepdim)
