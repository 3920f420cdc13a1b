"""Vector and matrix norms, and condition numbers.

Every vector p-norm is one primitive, ``vector_norm`` (PyTorch's ``LinalgVectorNormBackward0``),
rather than a chain of abs/pow/sum/sqrt: its backward rule is the stable one PyTorch uses (zero, not
nan, where the norm is zero), and it is a single pass over memory. ``Tensor.norm``, ``torch.norm``
and ``torch.linalg.norm`` all reach it; the matrix norms compose it, or the singular values, with
sum, amax and amin, as PyTorch does.
"""
import builtins
import math
import numbers

import numpy as np

from .. import dtypes
from ..tensor import _LEGACY_TYPE_NAMES, Tensor, _wrap_dim
from .broadcast import sum_to
from .creation import zeros
from .elementwise import abs, reciprocal, sign, to_dtype, where
from .inplace import written_back
from .half_precision import in_float32
from .matrix import check_square_shape, inverse_or_inf, svdvals
from .operands import CPP_TYPE_NAMES, broadcast_error, check_overloads
from .reduction import amax, amin, normalize_dims, unsqueeze_reduced
from .reduction import sum as _reduce_sum
from .registry import OTHER, REDUCTION, primitive
from .shape import narrow, permute, reshape, squeeze, unsqueeze
from .special import nan_to_num

__all__ = ["norm", "vector_norm", "matrix_norm", "cond", "dist", "cdist", "pdist", "renorm",
           "renorm_", "norm_except_dim"]

_INF = math.inf


@primitive("vector_norm", node="LinalgVectorNormBackward0", group=REDUCTION, saves=("a", "out"))
@in_float32  # a float16 sum of squares overflows (300 ** 2) or underflows: PyTorch's does not
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
    if not keepdim:  # (PyTorch's norm_backward: unsqueezed, a whole norm broadcast)
        grad = unsqueeze_reduced(grad, shape, dims)
        norm_value = unsqueeze_reduced(norm_value, shape, dims)
    if a._array.dtype == np.float16:  # in float32 and rounded once, as the forward
        return _norm_gradient(grad.float(), a.float(), norm_value.float(), ord, dims).half()
    return _norm_gradient(grad, a, norm_value, ord, dims)


def _norm_gradient(grad, a, norm_value, ord, dims):
    """d|a|_p / da = sign(a) |a|^(p-1) / |a|_p^(p-1) times ``grad`` (both reduced over ``dims``
    with the dimensions kept); zero where the norm is zero (PyTorch's choice at the kink). The
    inf-norms share the gradient among the entries that attain them."""
    if ord == 0:  # a count: PyTorch's rule gives no gradient at all (``x.grad`` stays None)
        return None
    if ord == 1:
        return a.sgn() * grad  # PyTorch's sgn (SgnBackward0 under create_graph)
    if builtins.abs(ord) == _INF:  # PyTorch's order: sgn(a) * ((grad / count) * mask)
        attains = (abs(a) == norm_value).to(grad.dtype)
        return a.sgn() * ((grad / _reduce_sum(attains, dims, keepdim=True)) * attains)
    at_zero = norm_value == 0
    safe_norm = where(at_zero, 1.0, norm_value)  # no 0/0, even in a second derivative
    if ord == 2:  # PyTorch's grad * (a / norm), zero where the norm is
        return grad * where(at_zero, 0.0, a / safe_norm)
    scale = grad / safe_norm ** (ord - 1)
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
    ord = _number_order(ord)
    if x._array.dtype.kind not in "fc":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_LEGACY_TYPE_NAMES[x._array.dtype.name]}")
    x = _to_norm_dtype("linalg.vector_norm", x, dtype)
    if x._array.dtype.kind == "c":  # the norm of the magnitudes, a real number
        x = x.abs()
    dims = normalize_dims(dim, x._array.ndim)
    if ord < 0 or ord == _INF:
        _refuse_empty_extremum(x, ord, dim, dims)
    return _vector_norm(x, ord=float(ord), dims=dims, keepdim=keepdim)


def _number_order(ord):
    """``ord`` as a Python number (a 0-d tensor's value), or the argument parser's refusal."""
    if isinstance(ord, Tensor):
        return ord.item()
    if not isinstance(ord, numbers.Real):
        raise TypeError("linalg_vector_norm(): argument 'ord' must be Number, not "
                        f"{type(ord).__name__}")
    return ord


def _refuse_empty_extremum(x, ord, dim, dims):
    """The inf-norms and negative orders reduce with max / min (a negative power's sum is
    inf-like at zero): over an empty dimension they have no value, and PyTorch refuses.
    ``dims``: ``dim`` normalized (None: all of them, as for ``dim=()`` or a 0-d ``x``)."""
    prefix = f"linalg.vector_norm cannot compute the {_format_number(ord)} norm on"
    if dims is None:
        if x._array.size == 0:
            raise RuntimeError(f"{prefix} an empty tensor because the operation does not have "
                               "an identity")
        return
    for d in (dim,) if isinstance(dim, int) else dim:
        if x._array.shape[d] == 0:
            raise RuntimeError(f"{prefix} the dimension {d}because this dimension is empty and "
                               "the operation does not have an identity")


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
    if ord > 0 and sums._array.shape[extreme_dim] == 0:
        return _reduce_sum(sums, extreme_dim, keepdim=keepdim)  # an empty matrix's norms are 0
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
    if A._array.dtype.kind not in "fc":
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
    """``A`` in ``dtype``, a floating dtype (complex for a complex ``A``, real for a real one)
    which must hold A's values without narrowing (PyTorch's rule)."""
    if dtype is None:
        return A
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{function}: dtype should be floating point or complex, but got "
                           f"{_LEGACY_TYPE_NAMES[dtype.name]}")
    if dtype.is_complex != (A._array.dtype.kind == "c"):
        kind = "real" if dtype.is_complex else "complex"  # the input's kind
        raise RuntimeError(f"{function}: dtype should be {kind} for {kind} inputs, but got "
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
        return zeros(A._array.shape[:-2], dtype=A.dtype.to_real())
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


def norm_except_dim(v, pow=2, dim=0):
    """The ``pow``-norm of each slice along ``dim`` (the other dimensions of size 1), as weight
    normalization takes it; ``dim`` -1 means the norm of all the entries."""
    if dim == -1:
        return vector_norm(v, pow)
    dim = _wrap_dim(dim, v._array.ndim)
    size = v._array.shape[dim]
    slices = reshape(v.transpose(0, dim), (size, -1))
    shape = [1] * v._array.ndim
    shape[dim] = size
    return vector_norm(slices, pow, 1).view(shape)


# ------------------------------------------------------------------------------------- distances

@primitive("dist", node="DistBackward0", group=REDUCTION, saves=("a", "b", "out"))
def _dist(a, b, p):
    return _vector_norm.forward(a - b, ord=p, dims=None, keepdim=False)


@_dist.vjp
def _(ctx, grad, p):
    a, b, out = ctx.saved
    difference = a - b  # (PyTorch's norm_backward over no dim: the 0-d gradient broadcasts)
    need_a, need_b = ctx.needs_input_grad
    g = _norm_gradient(grad, difference, out, p, None)
    if g is None:  # p = 0: no gradient, which PyTorch's rule then negates for ``other``
        if need_b:
            raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor "
                               "in C++) for argument #0 'self'")
        return None, None
    if need_a and need_b:  # each its own norm_backward, as PyTorch's (two paths from ``grad``)
        g_b = -_norm_gradient(grad, difference, out, p, None)
    else:
        g_b = -g if need_b else None
    return (sum_to(g, ctx.input_shapes[0]) if need_a else None,
            None if g_b is None else sum_to(g_b, ctx.input_shapes[1]))


def dist(input, other, p=2):
    """The ``p``-norm of ``input - other`` (broadcast, in their promoted dtype), as one node."""
    check_overloads("dist", ("Tensor input, Tensor other, Scalar p = 2",), input, other)
    common = dtypes.result_type(input, other)
    if not common.is_floating_point:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {_LEGACY_TYPE_NAMES[common.numpy.name]} instead.")
    return _dist(input.to(common), other.to(common), p=float(p))


# The distance kernels PyTorch gives one node each: ``cdist`` (exact differences) and ``pdist``,
# whose backward kernels have no derivative of their own (``CdistBackwardBackward0`` and
# ``PdistBackwardBackward0`` raise in a second backward pass), and ``cdist``'s matrix-product
# form for Euclidean distances, ``_euclidean_dist``, which is twice differentiable.

@primitive("cdist", node="CdistBackward0", group=REDUCTION, saves=("x1", "x2", "out"))
def _cdist(x1, x2, p):
    """Every row of x1 against every row of x2 (over matching batches): the ``p``-norms of the
    pairwise differences, computed from the broadcast differences (exact at zero distance)."""
    difference = x1[..., :, None, :] - x2[..., None, :, :]
    return _vector_norm.forward(difference, ord=p, dims=(difference.ndim - 1,), keepdim=False)


@_cdist.vjp
def _(ctx, grad, p):
    """Each side's gradient from its own differences (x2's from x2 - x1, as PyTorch's kernel
    runs on the transposed problem), so that a sum of cancelling terms is +0, not -0."""
    x1, x2, out = ctx.saved
    need_1, need_2 = ctx.needs_input_grad
    return (_cdist_backward(grad, x1, x2, out, p=p) if need_1 else None,
            _cdist_backward(grad.mT, x2, x1, out.mT, p=p) if need_2 else None)


@primitive("cdist_backward", node="CdistBackwardBackward0", group=OTHER)
def _cdist_backward(grad, x1, x2, out, p):
    """The gradient of ``cdist(x1, x2)`` with respect to ``x1`` (summed to its shape)."""
    difference = x1[..., :, None, :] - x2[..., None, :, :]
    gradient = _distance_gradient(grad[..., None], difference, out[..., None], p).sum(-2)
    return _summed_to(gradient, x1.shape)


@primitive("pdist", node="PdistBackward0", group=REDUCTION, saves=("a", "out"))
def _pdist(a, p):
    """The distances between the rows of a matrix, each pair once (row-major upper triangle)."""
    first, second = np.triu_indices(a.shape[0], 1)
    return _vector_norm.forward(a[first] - a[second], ord=p, dims=(1,), keepdim=False)


@_pdist.vjp
def _(ctx, grad, p):
    a, out = ctx.saved
    return _pdist_backward(grad, a, out, p=p)


@primitive("pdist_backward", node="PdistBackwardBackward0", group=OTHER)
def _pdist_backward(grad, a, out, p):
    """Each pair's gradient added to its first row and subtracted from its second."""
    first, second = np.triu_indices(a.shape[0], 1)
    pair = _distance_gradient(grad[:, None], a[first] - a[second], out[:, None], p)
    result = np.zeros_like(a)
    np.add.at(result, first, pair)
    np.subtract.at(result, second, pair)
    return result


def _not_differentiable(ctx, *grads, **params):
    """PyTorch has no derivative for its distance kernels' backward: a second backward pass
    through one raises its error."""
    raise NotImplementedError(f"the derivative for '_{ctx.primitive.name}' is not implemented.")


_cdist_backward.vjp(_not_differentiable)
_pdist_backward.vjp(_not_differentiable)


def _distance_gradient(grad, difference, distance, p):
    """d distance / d difference times ``grad``, as ATen's distance kernels give it (numpy
    arrays, the distance with the reduced axis kept): zero where the distance is zero, zero
    for p = 0, and for p = inf the whole gradient to every entry that attains the maximum."""
    if p == 0:
        return np.zeros_like(difference)
    if p == 1:
        return grad * np.sign(difference)
    if p == _INF:
        return grad * np.sign(difference) * (np.abs(difference) == distance)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(distance == 0, 0, grad / distance ** (p - 1))
        powered = np.where(difference == 0, 0,
                           np.sign(difference) * np.abs(difference) ** (p - 1))
    return (scale * powered).astype(difference.dtype, copy=False)


def _summed_to(array, shape):
    """``array`` summed down to ``shape``, the shape it was broadcast from (batch dimensions)."""
    array = array.sum(tuple(range(array.ndim - len(shape))))
    stretched = tuple(d for d, size in enumerate(shape) if size == 1 and array.shape[d] != 1)
    return array.sum(stretched, keepdims=True) if stretched else array


@primitive("euclidean_dist", node="EuclideanDistBackward0", group=REDUCTION,
           saves=("x1", "x2", "out"))
def _euclidean_dist(x1, x2):
    """Euclidean distances from one matrix product, ``|a|² - 2 a·b + |b|²`` (clamped at zero,
    then the square root): fast for many rows, inexact near zero distance — what PyTorch's
    ``cdist`` computes for p = 2 when ``compute_mode`` asks for it, or by default past 25 rows."""
    squared1 = (x1 * x1).sum(-1, keepdims=True)
    squared2 = (x2 * x2).sum(-1, keepdims=True)
    left = np.concatenate([-2 * x1, squared1, np.ones_like(squared1)], -1)
    right = np.concatenate([x2, np.ones_like(squared2), squared2], -1)
    return np.sqrt(np.maximum(left @ np.swapaxes(right, -1, -2), 0))


@_euclidean_dist.vjp
def _(ctx, grad, **params):
    """``grad / distance`` (zero at zero distance) spread back through the differences, written
    with tapegrad operations so that it has a derivative in turn."""
    x1, x2, out = ctx.saved
    ratio = where(out == 0, 0.0, grad / where(out == 0, 1.0, out))
    return (sum_to(x1 * ratio.sum(-1, keepdim=True) - ratio @ x2, ctx.input_shapes[0]),
            sum_to(x2 * unsqueeze(ratio.sum(-2), -1) - ratio.mT @ x1, ctx.input_shapes[1]))


_COMPUTE_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                  "donot_use_mm_for_euclid_dist")


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """``torch.cdist``: the ``p``-norm distances between the rows of ``x1`` and of ``x2``
    (batched over leading dimensions). Euclidean distances come from a matrix product, as
    PyTorch's do, when ``compute_mode`` asks for it or, by default, when either side has more
    than 25 rows; otherwise from the differences, exactly."""
    if compute_mode not in _COMPUTE_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
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
    _check_batches_broadcast(x1, x2)
    if not (x1._array.size and x2._array.size):  # no kernel runs (nor checks the dtypes): the
        return _cdist(x1, to_dtype(x2, x1.dtype), p=float(p))  # result is empty, or zeros
    if p == 2 and _uses_matrix_product(x1, x2, compute_mode):
        if x1._array.dtype != x2._array.dtype:
            raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                               f"{CPP_TYPE_NAMES[x1._array.dtype.name]} != "
                               f"{CPP_TYPE_NAMES[x2._array.dtype.name]}")
        distances = _euclidean_dist(x1, x2)
        return distances.view(distances.shape)  # PyTorch's node: ViewBackward0
    if x1._array.dtype == np.float16:
        raise NotImplementedError("\"cdist\" not implemented for 'Half'")
    if x1._array.dtype != x2._array.dtype:
        raise RuntimeError(f"expected scalar type {_LEGACY_TYPE_NAMES[x1._array.dtype.name]} but "
                           f"found {_LEGACY_TYPE_NAMES[x2._array.dtype.name]}")
    return _cdist(x1, x2, p=float(p))


def _check_batches_broadcast(x1, x2):
    """PyTorch's message when the batch dimensions (all but the last two) do not broadcast."""
    batches = [Tensor._make(np.empty(t._array.shape[:-2], np.bool_)) for t in (x1, x2)]
    try:
        np.broadcast_shapes(*(b._array.shape for b in batches))
    except ValueError:
        raise RuntimeError(broadcast_error(batches, {})) from None


def _uses_matrix_product(x1, x2, compute_mode):
    if compute_mode == "use_mm_for_euclid_dist_if_necessary":
        return builtins.max(x1._array.shape[-2], x2._array.shape[-2]) > 25
    return compute_mode == "use_mm_for_euclid_dist"


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """``F.pairwise_distance``: the ``p``-norm of ``x1 - x2 + eps`` (broadcast) over the last
    dimension, the ``eps`` keeping the gradient finite for equal rows. ATen computes it with
    ``at::norm``, so the node is ``NormBackward1`` (``Tensor.norm`` records
    ``LinalgVectorNormBackward0``); the rule is the same."""
    difference = x1 - x2 + eps
    distance = norm(difference, p, builtins.max(x1.dim(), x2.dim()) - 1, keepdim)
    return _recorded_as(distance, "NormBackward1")


def _recorded_as(result, node_name):
    """``result`` with its node renamed to the name PyTorch's equivalent call records."""
    node = result._grad_fn
    if node is not None:
        node.__class__ = node.primitive.variant_node_class(node_name)
    return result


def pdist(input, p=2):
    """The ``p``-norm distances between the rows of a matrix, each pair once (row-major upper
    triangle), as one ``PdistBackward0`` node."""
    if input._array.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input._array.ndim}D")
    if input._array.dtype.kind != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if input._array.dtype == np.float16:
        raise NotImplementedError("\"pdist\" not implemented for 'Half'")
    return _pdist(input, p=float(p))


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
    to norm ``maxnorm``. PyTorch checks the numbers, the input's dimensions, ``dim``, then
    computes the norms (refusing an integer input, or an inf-norm over an empty slice)."""
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if input._array.ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got "
                           f"{input._array.ndim} dimensions")
    dim = normalize_dims(dim, input._array.ndim)[0]
    if input._array.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_LEGACY_TYPE_NAMES[input._array.dtype.name]}")
    if p == _INF:
        others = _other_dims(input._array.ndim, dim)
        _refuse_empty_extremum(input, p, others, others)
    return _renorm(input, ord=float(p), dim=dim, maxnorm=float(maxnorm))


renorm_ = written_back(renorm)
