"""Vector and matrix norms, and condition numbers.

Every vector p-norm is one primitive, ``vector_norm`` (PyTorch's ``LinalgVectorNormBackward0``),
rather than a chain of abs/pow/sum/sqrt: its backward rule is the stable one PyTorch uses (zero, not
nan, where the norm is zero), and it is a single pass over memory. ``Tensor.norm``, ``torch.norm``
and ``torch.linalg.norm`` all reach it; the matrix norms compose it, or the singular values, with
sum, amax and amin, as PyTorch does.
"""
import builtins
import math

import numpy as np

from .. import dtypes
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .broadcast import sum_to
from .creation import zeros, zeros_like
from .elementwise import abs, reciprocal, sign, where
from .inplace import written_back
from .matrix import check_square_shape, inverse_or_inf, svdvals
from .reduction import amax, amin, normalize_dims
from .reduction import sum as _reduce_sum
from .registry import REDUCTION, primitive
from .shape import index_select, narrow, permute, reshape, squeeze, unsqueeze
from .special import nan_to_num

__all__ = ["norm", "vector_norm", "matrix_norm", "cond", "dist", "cdist", "pdist", "renorm", "renorm_"]

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
        return np.add.reduce(magnitude, axis=dims, keepdims=keepdim)
    if ord == 2:
        return np.sqrt(np.add.reduce(magnitude * magnitude, axis=dims, keepdims=keepdim))
    with np.errstate(divide="ignore"):  # a negative ord at a zero entry: inf, silently
        return np.add.reduce(magnitude ** ord, axis=dims, keepdims=keepdim) ** (1.0 / ord)


@_vector_norm.vjp
def _(ctx, grad, ord, dims, keepdim):
    a, norm_value = ctx.saved
    shape = ctx.input_shapes[0]
    if not keepdim:
        kept = tuple(1 if dims is None or d in dims else s for d, s in enumerate(shape))
        grad, norm_value = reshape(grad, kept), reshape(norm_value, kept)
    return _norm_gradient(grad, a, norm_value, ord, dims)


def _norm_gradient(grad, a, norm_value, ord, dims):
    """d|a|_p / da = sign(a) |a|^(p-1) / |a|_p^(p-1) times ``grad`` (both reduced over ``dims``
    with the dimensions kept); zero where the norm is zero (PyTorch's choice at the kink). The
    inf-norms share the gradient among the entries that attain them."""
    if ord == 0:
        return zeros_like(a)
    if ord == 1:
        return grad * sign(a)
    if builtins.abs(ord) == _INF:
        attains = (abs(a) == norm_value).to(grad.dtype)
        return grad * sign(a) * attains / _reduce_sum(attains, dims, keepdim=True)
    at_zero = norm_value == 0
    safe_norm = where(at_zero, 1.0, norm_value)  # no 0/0, even in a second derivative
    scale = grad / safe_norm if ord == 2 else grad / safe_norm ** (ord - 1)
    return where(at_zero, 0.0, scale) * _signed_power(a, ord - 1)


def _signed_power(a, exponent):
    """sign(a) |a|^exponent, zero at zero entries even for an exponent below 1 (where PyTorch
    masks them), and finite in a second derivative."""
    if exponent == 1:
        return a
    if exponent > 1:
        return a * abs(a) ** (exponent - 1)
    zero = a == 0
    return where(zero, 0.0, sign(a) * where(zero, 1.0, abs(a)) ** exponent)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """``torch.linalg.vector_norm``: the ``ord``-norm of the entries over ``dim`` (all of them)."""
    if x._array.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_LEGACY_TYPE_NAMES[x._array.dtype.name]}")
    x = _to_norm_dtype("linalg.vector_norm", x, dtype)
    dims = normalize_dims(dim, x._array.ndim)
    return _vector_norm(x, ord=float(ord), dims=dims, keepdim=keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """``torch.linalg.matrix_norm``: ``'fro'`` (the entries' 2-norm), ``'nuc'`` (the sum of the
    singular values), 2 and -2 (the largest and the smallest singular value), and the induced 1-
    and inf-norms (the largest column or row sum of magnitudes; -1 and -inf: the smallest)."""
    if isinstance(ord, str):
        supported, uses_singular_values = ord in ("fro", "nuc"), ord == "nuc"
    else:
        supported = builtins.abs(ord) in (1, 2, _INF)
        uses_singular_values = builtins.abs(ord) == 2
    if not supported:
        raise RuntimeError(f"linalg.matrix_norm: Order {_format_number(ord)} not supported.")
    rows, columns = _matrix_dims(A, dim, low_precision=not uses_singular_values)
    A = _to_norm_dtype("linalg.matrix_norm", A, dtype)
    if ord == "fro":
        return vector_norm(A, 2, (rows, columns), keepdim)
    if uses_singular_values:
        return _singular_value_norm(A, ord, rows, columns, keepdim)
    summed_dim, extreme_dim = (rows, columns) if builtins.abs(ord) == 1 else (columns, rows)
    sums = vector_norm(A, 1, summed_dim, keepdim)
    if not keepdim and extreme_dim > summed_dim:
        extreme_dim -= 1
    return (amax if ord > 0 else amin)(sums, extreme_dim, keepdim)


def _format_number(value):
    """A number as PyTorch's messages print it: 3.0 as 3, 3.5 as 3.5, False as 0."""
    if isinstance(value, (bool, float)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _matrix_dims(A, dim, low_precision):
    """PyTorch's checks of a matrix norm's input and ``dim``; the two dimensions, non-negative."""
    ndim = A._array.ndim
    if ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if A._array.dtype.kind != "f":
        raise RuntimeError("linalg.matrix_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_LEGACY_TYPE_NAMES[A._array.dtype.name]}")
    if not low_precision and A._array.dtype == np.float16:
        raise RuntimeError("linalg.matrix_norm: Low precision dtypes not supported. Got Half")
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dims) != 2:
        raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got "
                           + " ".join(map(str, dims)))
    for d in dims:
        if not -ndim <= d < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                             f"{ndim - 1}], but got {d})")
    rows, columns = (d % ndim for d in dims)
    if rows == columns:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({rows}, {columns})")
    return rows, columns


def _to_norm_dtype(function, A, dtype):
    """``A`` in ``dtype``, a floating dtype which must hold A's values without narrowing
    (PyTorch's rule)."""
    if dtype is None:
        return A
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating_point:
        raise RuntimeError(f"{function}: dtype should be floating point or complex, but got "
                           f"{_LEGACY_TYPE_NAMES[dtype.name]}")
    if dtypes.promote_types(A.dtype, dtype) != dtype:
        raise RuntimeError(f"{function}: the dtype of the input "
                           f"({_LEGACY_TYPE_NAMES[A._array.dtype.name]}) should be convertible "
                           "without narrowing to the specified dtype "
                           f"({_LEGACY_TYPE_NAMES[dtype.name]})")
    return A.to(dtype)


def _singular_value_norm(A, ord, rows, columns, keepdim):
    """'nuc', 2 or -2 as PyTorch computes them: the two dimensions moved last, the singular
    values reduced, and with ``keepdim`` the kept dimensions moved back."""
    order = [d for d in range(A._array.ndim) if d not in (rows, columns)] + [rows, columns]
    values = svdvals(permute(A, order))
    if ord == "nuc" or (ord > 0 and values._array.shape[-1] == 0):
        result = _reduce_sum(values, -1, keepdim=keepdim)  # an empty matrix's norms are 0
    else:
        result = (amax if ord > 0 else amin)(values, -1, keepdim)
    if keepdim:
        result = permute(unsqueeze(result, -1), [order.index(d) for d in range(len(order))])
    return result


def cond(A, p=None):
    """``torch.linalg.cond``: the condition number in the ``p``-norm. For None, 2 and -2 the
    ratio of the extreme singular values (any matrix shape); otherwise ||A|| ||A^-1|| of square
    matrices, inf for a singular one; 0 for empty matrices (NumPy defines none)."""
    if A._array.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if isinstance(p, str):
        check_square_shape(f"linalg.cond(ord={p})", A)
    if p not in (None, 2, -2, 1, -1, _INF, -_INF, "fro", "nuc"):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {_format_number(p)}")
    if A._array.size == 0:
        return zeros(A._array.shape[:-2], dtype=A.dtype)
    if p in (None, 2, -2):
        values = svdvals(A)
        largest, smallest = narrow(values, -1, 0, 1), narrow(values, -1, -1, 1)
        return squeeze(smallest / largest if p == -2 else largest / smallest, -1)
    if p == "nuc":  # PyTorch's own formula: its matrix_norm would fail on the inf inverse
        values = svdvals(A)
        return _reduce_sum(values, -1) * _reduce_sum(reciprocal(values), -1)
    if not isinstance(p, str):
        ord_text = f"{p:f}" if isinstance(p, float) else str(p)
        check_square_shape(f"linalg.cond(ord={ord_text})", A)
    inverse = inverse_or_inf(A)
    return nan_to_num(matrix_norm(A, p) * matrix_norm(inverse, p), _INF, _INF, -_INF)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """``torch.norm``/``Tensor.norm``: a vector norm over ``dim`` (all entries by default),
    ``'fro'`` being the entries' 2-norm; ``'nuc'`` (or ``'fro'`` over more than two dimensions)
    goes to ``matrix_norm``, over all dimensions when ``dim`` is None."""
    if isinstance(p, str) and not (p == "fro" and (dim is None or isinstance(dim, int)
                                                  or len(dim) <= 2)):
        return matrix_norm(input, p, tuple(range(input._array.ndim)) if dim is None else dim,
                           keepdim, dtype=dtype)
    return vector_norm(input, 2 if isinstance(p, str) or p is None else p, dim, keepdim,
                       dtype=dtype)


# ------------------------------------------------------------------------------------- distances

@primitive("dist", node="DistBackward0", group=REDUCTION, saves=("a", "b", "out"))
def _dist(a, b, p):
    return _vector_norm.forward(a - b, ord=p, dims=None, keepdim=False)


@_dist.vjp
def _(ctx, grad, p):
    a, b, out = ctx.saved
    difference = a - b
    kept = (1,) * difference._array.ndim
    g = _norm_gradient(reshape(grad, kept), difference, reshape(out, kept), p, None)
    return sum_to(g, ctx.input_shapes[0]), sum_to(-g, ctx.input_shapes[1])


def dist(input, other, p=2):
    """The ``p``-norm of ``input - other`` (broadcast), as one node."""
    if input._array.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_LEGACY_TYPE_NAMES[input._array.dtype.name]}")
    return _dist(input, other, p=float(p))


@primitive("cdist", node="CdistBackward0", group=REDUCTION, saves=("x1", "x2", "out"))
def _cdist(x1, x2, p):
    """Every row of x1 against every row of x2 (over matching batches): the ``p``-norms of the
    pairwise differences, computed from the broadcast differences (exact at zero distance)."""
    difference = x1[..., :, None, :] - x2[..., None, :, :]
    return _vector_norm.forward(difference, ord=p, dims=(difference.ndim - 1,), keepdim=False)


@_cdist.vjp
def _(ctx, grad, p):
    x1, x2, out = ctx.saved
    need_1, need_2 = ctx.needs_input_grad
    """Each side's gradient from its own differences (x2's from x2 - x1, as PyTorch's kernel
    runs on the transposed problem), so that a sum of cancelling terms is +0, not -0."""
    difference = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    last = difference._array.ndim - 1
    grad, out = grad.unsqueeze(-1), out.unsqueeze(-1)

    def gradient(difference):
        if p == _INF:  # unlike the inf-norm's, every tied maximum gets the whole gradient
            return grad * sign(difference) * (abs(difference) == out).to(grad.dtype)
        return _norm_gradient(grad, difference, out, p, (last,))
    return (sum_to(_reduce_sum(gradient(difference), -2), ctx.input_shapes[0]) if need_1
            else None,
            sum_to(_reduce_sum(gradient(-difference), -3), ctx.input_shapes[1]) if need_2
            else None)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """``torch.cdist``: the ``p``-norm distances between the rows of ``x1`` and of ``x2``
    (batched over leading dimensions). ``compute_mode`` is accepted; the distances are always
    computed from the differences, the exact way."""
    for name, t in (("X1", x1), ("X2", x2)):
        if t._array.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: "
                               f"{t._array.ndim}D")
    if x1._array.shape[-1] != x2._array.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1._array.shape[-1]} X2: {x2._array.shape[-1]}")
    for name, t in (("X1", x1), ("X2", x2)):
        if t._array.dtype.kind != "f":
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{_LEGACY_TYPE_NAMES[t._array.dtype.name]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1._array.dtype == np.float16:
        raise NotImplementedError("\"cdist\" not implemented for 'Half'")
    if x1._array.dtype != x2._array.dtype:
        raise RuntimeError(f"expected scalar type {_LEGACY_TYPE_NAMES[x1._array.dtype.name]} but "
                           f"found {_LEGACY_TYPE_NAMES[x2._array.dtype.name]}")
    return _cdist(x1, x2, p=float(p))


def pdist(input, p=2):
    """The ``p``-norm distances between the rows of a matrix, each pair once (row-major upper
    triangle): the pairs' differences and their norms (zero gradient at zero distance)."""
    if input._array.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input._array.ndim}D")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    first, second = np.triu_indices(input._array.shape[0], 1)
    pick = (Tensor._make(first.astype(np.int64)), Tensor._make(second.astype(np.int64)))
    difference = index_select(input, 0, pick[0]) - index_select(input, 0, pick[1])
    return vector_norm(difference, p, -1)


@primitive("renorm", node="RenormBackward0", group=REDUCTION, saves=("a",))
def _renorm(a, *, ord, dim, maxnorm):
    norm_value = _vector_norm.forward(a, ord, _other_dims(a.ndim, dim), True)
    factor = np.where(norm_value > maxnorm, maxnorm / (norm_value + 1e-7), 1.0)
    return (a * factor).astype(a.dtype)


def _other_dims(ndim, dim):
    return tuple(d for d in range(ndim) if d != dim)


@_renorm.vjp
def _(ctx, grad, ord, dim, maxnorm):
    """PyTorch's renorm_backward: the scaled slices also feel their norm change."""
    (a,) = ctx.saved
    dims = _other_dims(a.ndim, dim)
    norm_value = _vector_norm(a, ord=ord, dims=dims, keepdim=True)
    along = _norm_gradient(_reduce_sum(a * grad, dims, keepdim=True), a, norm_value, ord, dims)
    inverse = reciprocal(norm_value + 1e-7)
    factor = inverse * maxnorm
    return where(norm_value > maxnorm, factor * grad - factor * inverse * along, grad)


def renorm(input, p, dim, maxnorm):
    """``input`` with each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` scaled down
    to norm ``maxnorm``."""
    if input._array.ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got "
                           f"{input._array.ndim} dimensions")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    if input._array.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_LEGACY_TYPE_NAMES[input._array.dtype.name]}")
    dim = normalize_dims(dim, input._array.ndim)[0]
    return _renorm(input, ord=float(p), dim=dim, maxnorm=float(maxnorm))


renorm_ = written_back(renorm)
