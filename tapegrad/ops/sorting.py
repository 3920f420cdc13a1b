"""Value-selecting operations: sort, argsort, topk, kthvalue, median, cummax, and the
counting ones (unique, bincount, histc).

sort, topk, kthvalue, median and cummax share one primitive shape: the indices are computed on
numpy, the values are taken along a dimension, and the gradient is scatter-added back to those
indices.
"""
import builtins
import math
import numbers

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ..autograd.graph import Node
from .._warnings import warn_at_caller
from ..return_types import structseq
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from . import selection
from .operands import CPP_TYPE_NAMES, refuse_complex
from .creation import linspace, zeros
from .copies import rename_node
from .cumulative import NO_DIM, required_dim
from .layout import _dims_of, laid_out_like
from .reduction import evenly_distribute, return_types
from .registry import OTHER, Primitive, _edge, primitive
from .scatter import _scatter, _scatter_add
from .signatures import invalid_combination
from .shape import _axis, gather, no_dimensions_error, reshape, squeeze, transpose, unsqueeze

__all__ = [
    "sort", "argsort", "topk", "kthvalue", "median", "nanmedian", "mode", "quantile",
    "nanquantile", "cummax", "cummin", "unique", "bincount", "histc", "histogram", "histogramdd", "searchsorted",
    "bucketize", "msort", "isin", "unique_consecutive",
]


def _take_along_forward(a, indices, *, dim, keepdim):
    if dim is None:
        return a.reshape(-1)[indices].reshape(())
    values = np.take_along_axis(a, indices, axis=dim)
    return values if keepdim else values.squeeze(dim)


def _row_major(values, a):
    return np.asarray(values, order="C")  # (0-d stays 0-d)


def _take_along(name, node, layout=None, accumulate=False):
    """A value-selecting primitive: ``values = input`` at ``indices`` along ``dim``, laid out
    by ``layout(values, input)`` when the ATen kernel has its own rule for that. Its gradient
    is scattered into zeros (PyTorch's value_selecting_reduction_backward, ScatterBackward0
    under create_graph), or added where indices repeat (``accumulate``: the running extrema's
    cummaxmin_backward)."""
    place = _scatter_add if accumulate else _scatter
    forward = _take_along_forward if layout is None else (
        lambda a, indices, *, dim, keepdim: layout(
            _take_along_forward(a, indices, dim=dim, keepdim=keepdim), a))
    prim = Primitive(name, forward, node=node, group=OTHER, saves=("indices",),
                     nondifferentiable=("indices",))

    @prim.vjp
    def _(ctx, grad, dim, keepdim):
        (indices,) = ctx.saved
        shape = ctx.input_shapes[0]
        if dim is None:
            flat = _scatter_add(zeros(math.prod(shape), dtype=grad.dtype), indices,
                                reshape(grad, (1,)), dim=0)
            return reshape(flat, shape), None
        if not keepdim:
            grad = grad.unsqueeze(dim)
        return place(zeros(shape, dtype=grad.dtype), indices, grad, dim=dim), None
    return prim


# sort's outputs are laid out as its input (``empty_like``); topk's and the running extrema's
# row-major, whatever the input's order
_sort_values = _take_along("sort", "SortBackward0", laid_out_like)
_topk_values = _take_along("topk", "TopkBackward0", _row_major)
_kthvalue_values = _take_along("kthvalue", "KthvalueBackward0")
_median_values = _take_along("median", "MedianBackward1")
_nanmedian_values = _take_along("nanmedian", "NanmedianBackward1")
_mode_values = _take_along("mode", "ModeBackward0")
_cummax_values = _take_along("cummax", "CummaxBackward0", _row_major, accumulate=True)
_cummin_values = _take_along("cummin", "CumminBackward0", _row_major, accumulate=True)


def _lower_median(a, ignore_nan):
    """The lower median of all entries: nan when there is one (unless ignored) or none (cast
    to an empty input's dtype, whatever it is, as PyTorch)."""
    if a.size == 0:
        with np.errstate(invalid="ignore"):
            return np.array(np.nan).astype(a.dtype)
    flat = a.reshape(-1)
    if ignore_nan:
        flat = flat[~np.isnan(flat)]
    elif np.isnan(flat).any():
        return np.array(np.nan, dtype=a.dtype)
    if flat.size == 0:
        return np.array(np.nan, dtype=a.dtype)
    middle = (flat.size - 1) // 2
    return np.partition(flat, middle)[middle]


_median_all = Primitive("median_all", lambda a: _lower_median(a, False), node="MedianBackward0",
                        group=OTHER, saves=("a", "out"))
_nanmedian_all = Primitive("nanmedian_all", lambda a: _lower_median(a, True),
                           node="NanmedianBackward0", group=OTHER, saves=("a", "out"))


@_median_all.vjp
@_nanmedian_all.vjp
def _(ctx, grad):
    a, out = ctx.saved
    return evenly_distribute(grad, a, out)


def _slices(a, dim):
    """The slices of ``a`` along ``dim`` as the rows of a 2-d array; spelled with the row count
    so that empty slices (``a.shape[dim] == 0``) keep their number of rows."""
    moved = np.moveaxis(a, dim, -1)
    return moved.reshape(int(np.prod(moved.shape[:-1], dtype=np.int64)), a.shape[dim])


@primitive("sort_indices", node="SortIndicesBackward0", group=OTHER)
def _sort_indices(a, dim, descending, stable=True):
    """Ordering indices along ``dim``; NaN counts as the largest value, as in PyTorch. Equal
    values keep their order when ``stable``, else they end where PyTorch's std::sort puts them.
    A primitive (not numpy in the public functions) so that a compiled graph computes the order
    from each call's data instead of keeping the traced one."""
    if not stable and _sorts_unstably(a, dim, descending):
        rows = _slices(a, dim)
        found = selection.sort_positions(rows, descending).reshape(np.moveaxis(a, dim, -1).shape)
        return laid_out_like(np.ascontiguousarray(np.moveaxis(found, -1, dim)), a)
    if not descending:
        return laid_out_like(np.argsort(a, axis=dim, kind="stable"), a)
    reversed_order = np.argsort(np.flip(a, axis=dim), axis=dim, kind="stable")
    return laid_out_like(a.shape[dim] - 1 - np.flip(reversed_order, axis=dim), a)


@primitive("topk_indices", node="TopkIndicesBackward0", group=OTHER)
def _topk_indices(a, k, dim, largest, sorted):
    """The positions of the ``k`` largest (smallest) along ``dim``, in PyTorch's order also among
    equal values. Without ties, when the result is sorted, that is a stable argsort's; ties, or
    an unsorted result PyTorch leaves in nth_element's order, need PyTorch's algorithm itself
    (in Python: beyond ``selection.EXACT_TIES_BUDGET`` elements, the stable order instead)."""
    rows = _slices(a, dim)
    n = rows.shape[1]
    if rows.size > selection.EXACT_TIES_BUDGET or (sorted or 64 * k <= n) and not _has_ties(rows):
        found = _sort_indices.forward(rows, 1, largest)[:, :k]
    else:
        found = selection.topk_positions(rows, k, largest, sorted)
    shape = np.moveaxis(a, dim, -1).shape[:-1] + (k,)
    return np.asarray(np.moveaxis(found.reshape(shape), -1, dim), np.int64, order="C")


def _sorts_unstably(a, dim, descending):
    """Whether PyTorch's unstable sort can order ``a``'s ties otherwise than a stable one: a
    slice longer than std::sort's insertion-sort threshold, holding ties, and not a long 1-d
    ascending integer sort (ATen radix-sorts those, stably) nor an expanded ``dim`` (which ATen
    leaves in order); within the Python budget."""
    n = a.shape[dim]
    radix = (a.ndim == 1 and n >= _RADIX_SORT_MINIMUM and a.dtype.kind in "iu" and not descending)
    if (n <= selection.THRESHOLD or radix or a.strides[dim] == 0
            or a.size > selection.EXACT_TIES_BUDGET):
        return False
    return _has_ties(_slices(a, dim))


_RADIX_SORT_MINIMUM = 32768  # at::internal::GRAIN_SIZE


def _has_ties(rows):
    """Whether a row holds a value twice (two nans count: PyTorch's comparator ties them)."""
    ordered = np.sort(rows, axis=1)  # nans last
    return bool((ordered[:, 1:] == ordered[:, :-1]).any()
                or (rows.dtype.kind == "f" and (np.isnan(ordered[:, -2:]).sum(1) == 2).any()))


@primitive("median_indices", node="MedianIndicesBackward0", group=OTHER)
def _median_indices(a, dim, ignore_nan):
    """Where the lower median of each slice along ``dim`` is (kept dimension). A slice holding
    nan has its first nan as median, unless nans are ignored (``nanmedian``)."""
    order = np.argsort(a, axis=dim, kind="stable")  # nan last, in their order
    valid = (~np.isnan(a)).sum(axis=dim, keepdims=True)
    if ignore_nan:
        position = np.maximum(valid - 1, 0) // 2
    else:
        position = np.where(valid < a.shape[dim], valid, (a.shape[dim] - 1) // 2)
    return np.take_along_axis(order, position, axis=dim)


@primitive("kthvalue_indices", node="KthvalueIndicesBackward0", group=OTHER)
def _kthvalue_indices(a, k, dim):
    """Where the k-th smallest of each slice along ``dim`` is (kept dimension), found by
    PyTorch's quickselect so that ties resolve to the same position."""
    rows = _slices(a, dim)
    found = np.array([_quickselect(row.tolist(), k - 1) for row in rows], dtype=np.int64)
    shape = list(np.moveaxis(a, dim, -1).shape[:-1]) + [1]
    return np.moveaxis(found.reshape(shape), -1, dim)


def _quickselect(values, k):
    """PyTorch's ``quick_select_template`` (median of three, Hoare partition) on a list, moving
    the positions with the values; the position that ends at ``k``. NaN counts as largest."""
    positions = list(range(len(values)))

    def greater(x, y):
        return (x != x and y == y) or x > y

    def swap(i, j):
        values[i], values[j] = values[j], values[i]
        positions[i], positions[j] = positions[j], positions[i]

    left, right = 0, len(values) - 1
    while right > left:
        if right == left + 1:
            if greater(values[left], values[right]):
                swap(left, right)
            break
        swap(left + (right - left) // 2, left + 1)
        if greater(values[left + 1], values[right]):
            swap(left + 1, right)
        if greater(values[left], values[right]):
            swap(left, right)
        if greater(values[left + 1], values[left]):
            swap(left + 1, left)
        i, j, pivot = left + 1, right, values[left]
        while True:
            i += 1
            while greater(pivot, values[i]):
                i += 1
            j -= 1
            while greater(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(left, j)
        if j <= k:
            left = i
        if j >= k:
            right = j - 1
    return positions[k]


@primitive("mode_indices", node="ModeIndicesBackward0", group=OTHER)
def _mode_indices(a, dim):
    """Where the mode of each slice along ``dim`` is (kept dimension), at the position PyTorch's
    kernel reports (``selection.mode_positions``). Beyond ``selection.EXACT_TIES_BUDGET``: the
    smallest of the most frequent values, at its last position."""
    moved = np.moveaxis(a, dim, -1)
    rows = _slices(a, dim)
    if rows.size <= selection.EXACT_TIES_BUDGET:
        found = selection.mode_positions(rows)
        return np.moveaxis(found.reshape(moved.shape[:-1] + (1,)), -1, dim)
    count, length = rows.shape
    ordered = np.sort(rows, axis=-1)
    starts = np.ones(rows.shape, dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    runs = np.cumsum(starts, axis=-1) - 1 + np.arange(count)[:, None] * length
    frequency = np.bincount(runs.reshape(-1), minlength=count * length)[runs]
    best = np.argmax(frequency, axis=-1)  # the first of the most frequent: the smallest value
    mode = ordered[np.arange(count), best][:, None]
    last = length - 1 - np.argmax((rows == mode)[:, ::-1], axis=-1)
    return np.moveaxis(last.reshape(moved.shape[:-1] + (1,)), -1, dim).astype(np.int64)


def _running_extremum_indices(a, dim, largest):
    """Where each running maximum (minimum) along ``dim`` was found, by PyTorch's rule: a value
    takes over when it is a nan or, while the extremum is not a nan, when it ties or beats it; so
    the latest position on ties, and each new nan's own position once one was seen. The position
    is the last one up to here whose value equals the running extremum (or is a nan)."""
    if a.ndim == 0:
        return np.zeros((), np.int64)
    running = (np.maximum if largest else np.minimum).accumulate(a, axis=dim)
    takes_over = (a == running) | (a != a)
    positions = np.arange(a.shape[dim], dtype=np.int64).reshape(
        [-1 if d == dim else 1 for d in range(a.ndim)])
    found = np.maximum.accumulate(np.where(takes_over, positions, 0), axis=dim)
    return np.asarray(found, order="C")


_cummax_indices = Primitive("cummax_indices", lambda a, dim: _running_extremum_indices(
    a, dim, True), node="CummaxIndicesBackward0", group=OTHER)
_cummin_indices = Primitive("cummin_indices", lambda a, dim: _running_extremum_indices(
    a, dim, False), node="CumminIndicesBackward0", group=OTHER)


def _sort_dim(input, dim):
    """``dim`` checked first, as PyTorch does (a 0-d input takes -1 and 0); None for 0-d."""
    axis = _axis(dim, input._array.ndim)
    return axis if input._array.ndim else None


def _check_reducible(name, input, dim):
    """A selection along a dimension of size 0 has no value to select."""
    if input._array.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")


def _with_values(prim, input, indices, dim, keepdim=True):
    """Values at ``indices`` (along ``dim``) recorded by ``prim``, and the indices."""
    values = prim(input, indices, dim=dim, keepdim=keepdim)
    return values, indices if keepdim else squeeze(indices, dim)


def _scalar_selection(prim, input):
    """A 0-d input's one value, at index 0, recorded by ``prim`` (PyTorch's node, not a
    clone's)."""
    return _with_values(prim, input, zeros((), dtype=dtypes.int64), None)


_SORT_REFUSES_COMPLEX = " Sort does not support complex dtypes on CPU"


# ``stable`` left out: PyTorch's first ``sort`` overload; naming it (even as None) picks the
# ``sort.stable`` one, whose graph node is SortBackward1.
_STABLE_NOT_GIVEN = object()


def sort(input, dim=-1, descending=False, stable=_STABLE_NOT_GIVEN):
    """Sorted values and their indices; ties keep their order when ``stable``, else they end
    where PyTorch's unstable sort puts them."""
    refuse_complex(input, _SORT_REFUSES_COMPLEX)
    dim = _sort_dim(input, dim)
    stable_overload = stable is not _STABLE_NOT_GIVEN
    if dim is None:  # a 0-d tensor: its one value, at index 0
        values, order = _scalar_selection(_sort_values, input)
    else:
        order = _sort_indices(input, dim=dim, descending=descending,
                              stable=bool(stable) if stable_overload else False)
        values, order = _with_values(_sort_values, input, order, dim)
    if stable_overload:
        rename_node(values.grad_fn, "SortBackward1")
    return return_types.sort(values, order)


def argsort(input, dim=-1, descending=False, stable=False):
    dim = _sort_dim(input, dim)
    refuse_complex(input, _SORT_REFUSES_COMPLEX)
    if dim is None:
        return zeros((), dtype=dtypes.int64)
    return _sort_indices(input, dim=dim, descending=descending, stable=stable)


def topk(input, k, dim=-1, largest=True, sorted=True):
    k = _int_argument("topk", "k", 2, k)
    dim = _sort_dim(input, _int_argument("topk", "dim", 3, dim))
    size = 1 if dim is None else input._array.shape[dim]
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if input._array.dtype == np.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    refuse_complex(input, " topk does not support complex dtypes on CPU")
    if dim is None:
        return return_types.topk(*_scalar_selection(_topk_values, input))
    first_k = _topk_indices(input, k=k, dim=dim, largest=largest, sorted=sorted)
    return return_types.topk(*_with_values(_topk_values, input, first_k, dim))


def kthvalue(input, k, dim=-1, keepdim=False):
    k = _int_argument("kthvalue", "k", 2, k)
    dim = _sort_dim(input, _int_argument("kthvalue", "dim", 3, dim))
    if dim is not None:
        _check_reducible("kthvalue", input, dim)
    size = 1 if dim is None else input._array.shape[dim]
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension "
                           f"{0 if dim is None else dim}")
    if dim is None:  # PyTorch answers a 0-d input before looking at its dtype
        return return_types.kthvalue(*_scalar_selection(_kthvalue_values, input))
    _refuse_unordered(input, "kthvalue_cpu")
    kth = _kthvalue_indices(input, k=k, dim=dim)
    return return_types.kthvalue(*_with_values(_kthvalue_values, input, kth, dim, keepdim))


def median(input, dim=NO_DIM, keepdim=None):
    """The lower median (no averaging of the two middle values), as PyTorch computes it; nan
    where there is a nan."""
    return _median(input, *_median_dim("median", dim, keepdim), False)


def nanmedian(input, dim=NO_DIM, keepdim=None):
    """The lower median of the values that are not nan."""
    return _median(input, *_median_dim("nanmedian", dim, keepdim), True)


def _median_dim(function, dim, keepdim):
    """``dim`` and ``keepdim`` as PyTorch's parser takes them: no ``dim`` is the whole tensor's
    median, but ``keepdim`` alone asks for a ``dim``; ``None`` is no int."""
    if dim is NO_DIM:
        if keepdim is not None:
            required_dim(function, dim)
        return None, False
    return required_dim(function, dim), bool(keepdim)


def _int_argument(function, name, position, value):
    """``value`` as PyTorch's parser takes an int argument: anything with ``__index__`` (a 0-d
    integer tensor too) but a bool."""
    if isinstance(value, builtins.bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be int, not "
                        f"{type(value).__name__}")
    return value.__index__()


def _refuse_bool(input, kernel):
    """PyTorch's selection kernels have no bool version."""
    if input._array.dtype == np.bool_:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


def _refuse_unordered(input, kernel):
    """Nor a complex one: complex numbers have no order."""
    _refuse_bool(input, kernel)
    refuse_complex(input, kernel=kernel)


def _median(input, dim, keepdim, ignore_nan):
    if dim is None:
        if input._array.size:  # PyTorch answers an empty input before looking at its dtype
            _refuse_unordered(input, "median_cpu")
        return (_nanmedian_all if ignore_nan else _median_all)(input)
    dim = _sort_dim(input, dim)
    if dim is not None:
        _check_reducible("median", input, dim)
    _refuse_unordered(input, "median_out")  # after checking ``dim``, as PyTorch
    make = return_types.nanmedian if ignore_nan else return_types.median
    prim = _nanmedian_values if ignore_nan else _median_values
    if dim is None:
        return make(*_scalar_selection(prim, input))
    middle = _median_indices(input, dim=dim, ignore_nan=ignore_nan)
    return make(*_with_values(prim, input, middle, dim, keepdim))


def mode(input, dim=-1, keepdim=False):
    """The most frequent value of each slice (the smallest on a tie) and its last position."""
    dim = _sort_dim(input, _int_argument("mode", "dim", 2, dim))
    refuse_complex(input, kernel="mode_cpu")
    if dim is None:
        return return_types.mode(*_scalar_selection(_mode_values, input))
    _check_reducible("mode", input, dim)
    where = _mode_indices(input, dim=dim)
    return return_types.mode(*_with_values(_mode_values, input, where, dim, keepdim))


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """The ``q``-quantiles along ``dim`` (of all entries by default), interpolated between the
    two sorted values around ``q * (n - 1)``; nan for a slice holding nan. Differentiable
    through the sort."""
    return _quantile(input, q, dim, keepdim, interpolation, False)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear"):
    """``quantile`` of the values that are not nan (nan for a slice of nans only)."""
    return _quantile(input, q, dim, keepdim, interpolation, True)


def _quantile(input, q, dim, keepdim, interpolation, ignore_nan):
    q_values = _checked_quantiles(input, q, interpolation)
    single_q = not isinstance(q, Tensor) or q._array.ndim == 0  # no dimension for q's values
    values = _sorted_slices(input, dim, keepdim)
    ranks = _quantile_ranks(values._array, q_values, interpolation, ignore_nan)
    below = ranks.astype(np.int64)
    result = gather(values, -1, Tensor._make(below))
    if interpolation in ("linear", "midpoint"):
        weights = np.full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - below
        above = gather(values, -1, Tensor._make(np.ceil(ranks).astype(np.int64)))
        result = result.lerp(above, Tensor._make(weights.astype(ranks.dtype)))
    # As PyTorch: the quantiles lie along a last dimension, which goes first (in place)
    if single_q:
        return result.squeeze_(-1)
    return result.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)


def _checked_quantiles(input, q, interpolation):
    """``q``'s values as a 1-D array in the input's dtype (PyTorch computes the ranks in it:
    0.1 * 5 is 0.5 in float32, not above), or PyTorch's refusal of the arguments, in its order:
    a number ``q`` first, then the interpolation, the input, and a tensor ``q``'s values last."""
    scalar_q = not isinstance(q, Tensor)
    q_array = np.asarray(q) if scalar_q else q._array
    out_of_range = not ((q_array >= 0) & (q_array <= 1)).all()  # nan too
    if scalar_q and out_of_range:
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {_cpp_number(q)}")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    if input._array.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q_array.ndim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if input._array.dtype not in (np.float32, np.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if not scalar_q and q_array.dtype != input._array.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if out_of_range:
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    return np.atleast_1d(q_array.astype(input._array.dtype))


def _sorted_slices(input, dim, keepdim):
    """The input sorted along ``dim`` (all entries by default; nan last), viewed as the result's
    shape plus a last dimension of the sorted slices, with PyTorch's nodes."""
    ndim = input._array.ndim
    if dim is None:
        out_shape = (1,) * ndim if keepdim else ()
        return sort(reshape(input, (-1,)), dim=-1).values.view(out_shape + (-1,))
    axis = _dims_of(dim, builtins.max(ndim, 1))[0]
    out_shape = list(input._array.shape)
    if ndim:
        out_shape[axis] = 1
        if not keepdim:
            del out_shape[axis]
    if axis == ndim - 1:
        values = sort(input, dim=-1).values
    else:
        values = sort(transpose(unsqueeze(input, -1), axis, -1), dim=-1).values
    return values.view(tuple(out_shape) + (-1,))


def _quantile_ranks(values, q_values, interpolation, ignore_nan):
    """Each quantile's position in its sorted slice, one per q along a last dimension: a slice
    holding nan points at its last value (nan) for quantile; nanquantile counts the values that
    are not nan, and a slice of nans only points at its first (nan). Rounded as
    ``interpolation`` says."""
    if ignore_nan:
        counted = (~np.isnan(values)).sum(axis=-1, keepdims=True).astype(q_values.dtype)
        ranks = np.maximum(q_values * (counted - 1), 0)
    else:
        last = q_values.dtype.type(values.shape[-1] - 1)
        has_nan = np.isnan(values).any(axis=-1, keepdims=True)
        ranks = np.where(has_nan, last, q_values * last)
    rounding = {"lower": np.floor, "higher": np.ceil, "nearest": np.round}.get(interpolation)
    return rounding(ranks) if rounding else ranks  # np.round: ties to even, as torch.round


def cummax(input, dim=NO_DIM):
    """Running maxima along ``dim`` and where each was found (the latest position on ties)."""
    return _running_extremum(_cummax_indices, _cummax_values, return_types.cummax, input, dim)


def cummin(input, dim=NO_DIM):
    """Running minima along ``dim`` and where each was found (the latest position on ties)."""
    return _running_extremum(_cummin_indices, _cummin_values, return_types.cummin, input, dim)


def _running_extremum(find, take, result_type, input, dim):
    """A 0-d input is one element: its value, at index 0; an empty one has nothing to
    check."""
    dim = required_dim(result_type.__name__, dim)
    if input._array.ndim == 0:
        if dim not in (0, -1):
            raise IndexError(f"{result_type.__name__}(): Expected reduction dim -1 or 0 for "
                             f"scalar but got {dim}")
        dim = None
    elif input._array.size:
        dim = _dims_of(dim, input._array.ndim)[0]
        refuse_complex(input, kernel=f"{result_type.__name__}_cpu")
    else:  # PyTorch checks neither the dim nor the dtype of an empty input
        dim = 0
    indices = find(input, dim=dim)
    return result_type(*_with_values(take, input, indices, dim))


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (slices along ``dim``), sorted; NaNs are never equal, so each stays."""
    if dim is not None:
        if input._array.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        dim = _dims_of(dim, input._array.ndim)[0]
        _check_zero_sizes(input._array.shape, dim)
    refuse_complex(input, kernel="unique" if dim is None else "unique_dim")
    options = {"equal_nan": False} if dim is None else {"axis": dim}
    values, inverse, counts = np.unique(input._array, return_inverse=True, return_counts=True,
                                        **options)
    node = _Unique2Backward0 if dim is None else _UniqueDimBackward0
    return _unique_result(input, dim, values, inverse, counts, return_inverse, return_counts,
                          node)


class _NotDifferentiable(Node):
    """The node of an operation PyTorch has no derivative for: recorded so that its result
    has PyTorch's ``grad_fn``; a backward pass through it raises PyTorch's error."""

    __slots__ = ()
    op_name = None

    def apply(self, grads):
        raise NotImplementedError(f"the derivative for '{self.op_name}' is not implemented.")


def _not_differentiable(node_name, op_name):
    return type(node_name, (_NotDifferentiable,), {"__slots__": (), "op_name": op_name})


_Unique2Backward0 = _not_differentiable("Unique2Backward0", "_unique2")
_UniqueDimBackward0 = _not_differentiable("UniqueDimBackward0", "unique_dim")
_UniqueConsecutiveBackward0 = _not_differentiable("UniqueConsecutiveBackward0",
                                                  "unique_consecutive")


def _unique_result(input, dim, values, inverse, counts, return_inverse, return_counts, node):
    result = [Tensor._make(values)]
    if input._requires_grad and values.dtype.kind == "f" and grad_mode.is_grad_enabled():
        result[0]._grad_fn, result[0]._requires_grad = node((_edge(input),)), True
    if return_inverse:
        result.append(Tensor._make(inverse.reshape(input._array.shape if dim is None else -1)
                                   .astype(np.int64)))
    if return_counts:
        result.append(Tensor._make(counts.astype(np.int64)))
    return result[0] if len(result) == 1 else tuple(result)


def _check_zero_sizes(shape, dim):
    """ATen's refusal of slices along ``dim`` that hold no elements (an empty ``dim`` itself is
    fine, when it is the only empty one)."""
    empty = shape.count(0)
    if shape[dim] == 0 and empty > 1:
        raise RuntimeError("Number of zero sized dimensions is more than one, so unique cannot be "
                           "applied ")
    if shape[dim] != 0 and empty:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """The values (slices along ``dim``) with each run of equal neighbours kept once."""
    if dim is not None:
        if input._array.ndim == 0:
            raise no_dimensions_error(dim)
        _check_zero_sizes(input._array.shape, _dims_of(dim, input._array.ndim)[0])
    refuse_complex(input, kernel="unique")
    array = input._array.reshape(-1) if dim is None else np.moveaxis(
        input._array, _dims_of(dim, input._array.ndim)[0], 0)
    if array.shape[0]:
        rows = array.reshape(array.shape[0], -1)
        starts = np.concatenate([[True], (rows[1:] != rows[:-1]).any(axis=1)])
    else:
        starts = np.zeros(0, bool)
    values = array[starts]
    if dim is not None:
        values = np.moveaxis(values, 0, _dims_of(dim, input._array.ndim)[0])
    inverse = np.cumsum(starts) - 1
    counts = np.diff(np.append(np.flatnonzero(starts), len(starts)))
    return _unique_result(input, dim, np.ascontiguousarray(values), inverse, counts,
                          return_inverse, return_counts, _UniqueConsecutiveBackward0)


def msort(input):
    """``input`` sorted along its first dimension."""
    return sort(input, dim=0).values


_ISIN_OVERLOADS = [
    f"{operands}, *, bool assume_unique = False, bool invert = False, Tensor out = None"
    for operands in ("Tensor elements, Tensor test_elements", "Number element, Tensor test_elements",
                     "Tensor elements, Number test_element")]


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """Whether each element equals one of ``test_elements`` (a NaN equals nothing). One of the
    two may be a number; booleans are refused, as PyTorch's kernel refuses them."""
    if not (isinstance(elements, Tensor) and isinstance(test_elements, (Tensor, numbers.Number))
            or isinstance(elements, numbers.Number) and isinstance(test_elements, Tensor)):
        raise invalid_combination("isin", (elements, test_elements), {}, _ISIN_OVERLOADS)
    for operand in (elements, test_elements):
        dtype = dtypes.result_type(operand, operand)
        if dtype is dtypes.bool or dtype.is_complex:
            name = "ComplexDouble" if isinstance(operand, complex) else _scalar_type_name(dtype)
            raise RuntimeError(f"Unsupported input type encountered for isin(): {name}")
    tested = [e._array if isinstance(e, Tensor) else np.asarray(e)
              for e in (elements, test_elements)]
    common = dtypes.result_type(elements, test_elements).numpy
    found = np.isin(tested[0].astype(common), tested[1].astype(common), invert=invert)
    return Tensor._make(np.asarray(found))


def _scalar_type_name(dtype):
    """PyTorch's name of a dtype in its kernels' messages ("Bool", "ComplexFloat")."""
    return dtypes.SCALAR_TYPE_NAMES[dtype.name]


class _BincountBackward(Node):
    """PyTorch's node for bincount's weights: it has no derivative (``NotImplemented``)."""

    __slots__ = ()
    qualified_name = "torch::autograd::NotImplemented"

    def apply(self, grads):
        raise RuntimeError("derivative for aten::bincount is not implemented")


_BincountBackward.__name__ = "NotImplemented"


def bincount(input, weights=None, minlength=0):
    """Counts (or summed ``weights``) of each non-negative integer, with PyTorch's checks in its
    order and its dtypes: int64 counts, float32 or float64 sums, int64 for an empty input."""
    if type(minlength) is bool or not isinstance(minlength, (int, Tensor)):
        raise TypeError(f"bincount(): argument 'minlength' must be int, not "
                        f"{type(minlength).__name__}")
    minlength = minlength.__index__()
    values = input._array
    if values.dtype.kind not in "iu":
        raise NotImplementedError(f'"bincount_cpu" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[values.dtype.name]}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if values.ndim == 1 and values.size == 0:
        return Tensor._make(np.zeros(minlength, np.int64))
    if values.ndim != 1 or values.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return Tensor._make(np.bincount(values, minlength=minlength).astype(np.int64))
    if weights._array.shape != values.shape:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    result = Tensor._make(_weighted_counts(values, weights._array, minlength))
    if weights._requires_grad and grad_mode.is_grad_enabled():
        result._grad_fn, result._requires_grad = _BincountBackward((_edge(weights),)), True
    return result


def _weighted_counts(values, weights, minlength):
    """The weights summed per value in PyTorch's accumulator, one by one in order: float32
    weights in float32, any other (complex ones by their real parts) in double."""
    dtype = np.float32 if weights.dtype == np.float32 else np.float64
    counts = np.zeros(builtins.max(minlength, values.max() + 1), dtype)
    np.add.at(counts, values, _real_weights(weights).astype(dtype))
    return counts


def _real_weights(weights):
    """Complex weights count by their real parts, as PyTorch's cast to double warns."""
    if weights.dtype.kind == "c":
        warn_at_caller("Casting complex values to real discards the imaginary part")
        return weights.real
    return weights


def _cpp_number(value):
    """A double as C++'s ``ostream`` prints it in PyTorch's messages (``1``, ``0.123457``,
    ``1e+10``, ``inf``)."""
    return ("-" if np.isnan(value) and np.signbit(value) else "") + f"{value:g}"


def _cpp_dtype(array):
    """A dtype as PyTorch's C++ messages name it (``float``, ``double``, ``long int``)."""
    return CPP_TYPE_NAMES.get(array.dtype.name, array.dtype.name)


def _refuse_unbinnable(values, kernel="histogram_cpu", half=True):
    """PyTorch bins floating dtypes only, and finds the data's range (its ``"histogramdd"``
    kernel) of float and double only."""
    if values.dtype.kind != "f" or (not half and values.dtype == np.float16):
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[values.dtype.name]}'")


def _check_bin_counts(counts):
    for dim, count in enumerate(counts):
        if count <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {count} for "
                               f"dimension {dim}")


def _number_argument(name, value):
    """histc's ``min``/``max`` as PyTorch's parser takes a Number: a 0-d tensor too."""
    if isinstance(value, Tensor) and not value._array.ndim:
        return value.item()
    if not isinstance(value, numbers.Number):
        raise TypeError(f"histc(): argument '{name}' must be Number, not {type(value).__name__}")
    return value


def histc(input, bins=100, min=0, max=0):
    """Counts in ``bins`` equal bins over [min, max] (the data's range when both are 0); values
    outside are ignored; the counts have the input's dtype."""
    if isinstance(bins, Tensor) and not bins._array.ndim and bins._array.dtype.kind in "iu":
        bins = bins.item()  # a 0-d integer tensor is an int to PyTorch's parser
    if not isinstance(bins, (builtins.int, np.integer)) or isinstance(bins, builtins.bool):
        raise TypeError(f"histc(): argument 'bins' must be int, not {type(bins).__name__}")
    min, max = (_number_argument(name, bound) for name, bound in (("min", min), ("max", max)))
    values = input._array
    _check_bin_counts([bins])
    low, high = builtins.float(min), builtins.float(max)
    if low == high and values.size:
        refuse_complex(input, kernel="aminmax_cpu")
        # x86's min/max reductions give its default nan, the negative one (PyTorch's "-nan"),
        # but of one value, that value
        low, high = (np.copysign(v, -1.0) if np.isnan(v) and values.size > 1 else v for v in (
            builtins.float(values.min()), builtins.float(values.max())))
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{_cpp_number(low)}, {_cpp_number(high)}] is "
                           "not finite")
    if low == high:
        low, high = low - 1, high + 1
    if low > high:
        raise RuntimeError("torch.histc: max must be larger than min")
    edges = _equal_bins(low, high, bins, values.dtype)._array  # (refuses bool)
    _refuse_unbinnable(values)
    return Tensor._make(_interpolated_counts(values.reshape(-1), edges[0], edges[-1], bins))


def _interpolated_counts(values, left, right, bins):
    """histc's kernel: each value in [left, right] goes to bin ``(value - left) * bins / (right
    - left)``, truncated and computed in the values' dtype (the last bin closed). Unlike
    histogram's, it does not check the edges, so a value next to one may land a bin away; and a
    position that overflows (float16's) truncates to x86's INT64_MIN, which lands in bin 0."""
    inside = values[(values >= left) & (values <= right)]
    with np.errstate(over="ignore", invalid="ignore"):
        positions = ((inside - left) * values.dtype.type(bins) / (right - left)).astype(np.int64)
    return np.bincount(np.clip(positions, 0, bins - 1), minlength=bins).astype(values.dtype)


_HISTOGRAM_OVERLOADS = [
    "Tensor input, Tensor bins, *, Tensor weight = None, bool density = False, "
    "tuple of Tensors out = None",
    "Tensor input, int bins = 100, *, tuple of floats range = None, Tensor weight = None, "
    "bool density = False, tuple of Tensors out = None"]


def histogram(input, bins=100, *, range=None, weight=None, density=False):
    """Counts (or summed ``weight``, or a density) in ``bins`` equal bins over ``range`` (the
    data's by default), or between the edges of a ``bins`` tensor; the histogram and its edges."""
    counted = isinstance(bins, (builtins.int, np.integer)) and not isinstance(bins, builtins.bool)
    if not (counted or isinstance(bins, Tensor)) or (not counted and range is not None):
        given = {"range": range, "weight": weight, "density": density or None}
        raise invalid_combination("histogram", (input, bins),
                                  {k: v for k, v in given.items() if v is not None},
                                  _HISTOGRAM_OVERLOADS)
    if counted:
        _check_bin_counts([bins])
    weight = weight if weight is None else reshape(weight, (-1,))  # any shape of input's size
    hist, (edges,) = _histogramdd(reshape(input, (-1, 1)), bins if isinstance(bins, Tensor)
                                  else [bins], range, weight, density)
    return return_types.histogram(hist, edges)


_HistogramDD = structseq("histogramdd", "hist bin_edges")


def histogramdd(input, bins, range=None, weight=None, density=False):
    """The N-dimensional histogram of the points in the rows of ``input`` (..., N): ``bins`` an
    int (for every dimension), N ints, or N tensors of edges; ``range`` the flat
    [min_0, max_0, ..., min_N-1, max_N-1] of equal bins (the data's by default)."""
    if input._array.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    hist, edges = _histogramdd(input, bins, range, weight, density)
    return _HistogramDD(hist, edges)


def _histogramdd(input, bins, range, weight, density):
    """PyTorch's histogramdd, its checks in its order, counted by numpy: the histogram and a
    tuple of each dimension's edges."""
    values = input._array
    dims = values.shape[-1]
    points = values.reshape(-1, dims)
    if isinstance(bins, Tensor):
        bins = [bins]
    if not (isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], Tensor)):
        counts = [builtins.int(bins)] * dims if isinstance(bins, (builtins.int, np.integer)) \
            else [builtins.int(b) for b in bins]
        bins = _equal_bin_edges(points, counts, range)  # else a range is ignored, as PyTorch
    edges = _checked_edges(values, bins)
    _check_histogram_weight(input, weight)
    _check_bin_counts([len(e) - 1 for e in edges])
    _refuse_unbinnable(values)
    hist = _bin_totals(points, [_increasing(e) for e in edges],
                       None if weight is None else weight._array.reshape(-1), values.dtype)
    if density:
        hist = _density(hist, edges)
    return Tensor._make(hist), tuple(Tensor._make(e.astype(values.dtype)) for e in edges)


def _bin_totals(points, edges, weights, dtype):
    """The count (or summed weight) of the points in each bin, as numpy's histogramdd bins them
    (the last bin closed, the rest half-open, the others dropped), summed in ``dtype`` in the
    points' order as PyTorch's kernel sums."""
    positions = []
    for dim, dim_edges in enumerate(edges):
        column = points[:, dim]
        position = np.searchsorted(dim_edges, column, side="right")  # 0 and len: outside
        position[column == dim_edges[-1]] -= 1
        positions.append(position)
    outer = tuple(len(e) + 1 for e in edges)
    totals = np.zeros(outer, dtype)
    np.add.at(totals, tuple(positions), 1 if weights is None else weights.astype(dtype))
    return np.ascontiguousarray(totals[(slice(1, -1),) * len(edges)])


def _density(hist, edges):
    """PyTorch's normalization, in the histogram's dtype: divided by its total, then by each
    dimension's bin widths in turn (numpy's, in double, rounds differently)."""
    hist = hist / hist.dtype.type(hist.sum())
    for dim, dim_edges in enumerate(edges):
        shape = [1] * hist.ndim
        shape[dim] = -1
        hist = hist / np.diff(dim_edges).astype(hist.dtype).reshape(shape)
    return hist


def _checked_edges(values, bins):
    if len(bins) != values.shape[-1]:
        raise RuntimeError(f"torch.histogramdd: expected {values.shape[-1]} sequences of bin "
                           f"edges for a {values.shape[-1]}-dimensional histogram but got "
                           f"{len(bins)}")
    for dim, edges in enumerate(bins):
        array = edges._array
        if array.dtype != values.dtype:
            raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have the "
                               f"same dtype, but got input with dtype {_cpp_dtype(values)} and "
                               f"bins for dimension {dim} with dtype {_cpp_dtype(array)}")
        if array.ndim != 1:
            raise RuntimeError("torch.histogramdd: bins tensor should have one dimension, but got "
                               f"{array.ndim} dimensions in the bins tensor for dimension {dim}")
        if not array.size:
            raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, "
                               f"but got 0 elements in the bins tensor for dimension {dim}")
    return [e._array for e in bins]


def _increasing(edges):
    """Edges as numpy counts with them: PyTorch counts nothing between decreasing edges, numpy
    refuses them, so a decreasing run is flattened to an empty bin."""
    return edges if (np.diff(edges) >= 0).all() else np.maximum.accumulate(edges)


def _equal_bin_edges(points, counts, range):
    """Each dimension's edges over ``range`` (the data's by default), as tensors."""
    dims = points.shape[1]
    if range is not None:
        if len(range) != 2 * dims:
            raise RuntimeError(f"torch.histogramdd: for a {dims}-dimensional histogram range "
                               f"should have {2 * dims} elements, but got {len(range)}")
        lows, highs = np.asarray(range[0::2], float), np.asarray(range[1::2], float)
    elif points.size:
        _refuse_unbinnable(points, "histogramdd", half=False)
        lows, highs = points.min(0).astype(float), points.max(0).astype(float)
    else:
        lows, highs = np.zeros(dims), np.ones(dims)
    for dim, (low, high) in enumerate(zip(lows, highs)):
        if not (np.isfinite(low) and np.isfinite(high)):
            raise RuntimeError(f"torch.histogramdd: dimension {dim}'s range [{_cpp_number(low)}, "
                               f"{_cpp_number(high)}] is not finite")
        if low > high:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                               f"{_cpp_number(low)} max {_cpp_number(high)} for dimension {dim}")
    widened = 0.5 * (lows == highs)  # numpy's widening of an empty range, as PyTorch's
    if len(counts) != dims:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost "
                           "dimension of the input.")
    return [_equal_bins(low, high, count, points.dtype)
            for low, high, count in zip(lows - widened, highs + widened, counts)]


def _equal_bins(low, high, count, dtype):
    """The edges of ``count`` equal bins, rounded as PyTorch's linspace kernel rounds them in the
    input's dtype (which refuses bool)."""
    return linspace(low, high, count + 1, dtype=dtypes.as_dtype(dtype))


def _check_histogram_weight(input, weight):
    if weight is None:
        return
    if weight._array.dtype != input._array.dtype:
        raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor and "
                           f"weight tensor should have the same dtype, but got input("
                           f"{_cpp_dtype(input._array)}), and weight({_cpp_dtype(weight._array)})")
    if (weight._array.shape or (1,)) != input._array.shape[:-1]:
        raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the "
                           "same shape as the input tensor excluding its innermost dimension, "
                           f"but got input with shape {list(input._array.shape)} and weight with "
                           f"shape {list(weight._array.shape)}")


# ------------------------------------------------------------------------ searchsorted, bucketize


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """Where each value would be inserted to keep the (last dim of the) sequence sorted: before
    equal values, or after them with ``right``/``side="right"``. Not differentiable."""
    side = _search_side(right, side)
    if sorter is not None:
        _check_sorter(sorted_sequence, sorter)
    values = input._array if isinstance(input, Tensor) else np.asarray(input)
    _check_search_shapes(sorted_sequence._array, values)
    common = dtypes.result_type(sorted_sequence, input)
    if values.size and (common is dtypes.bool or common.is_complex):  # (no kernel runs if empty)
        raise NotImplementedError(f'"searchsorted_out_cpu" not implemented for '
                                  f"'{_scalar_type_name(common)}'")
    boundaries = sorted_sequence._array.astype(common.numpy, copy=False)
    if sorter is not None:
        boundaries = np.take_along_axis(boundaries, sorter._array, -1)
    positions = _binary_search(boundaries, values.astype(common.numpy, copy=False), side)
    return Tensor._make(positions.astype(np.int32 if out_int32 else np.int64))


def _check_sorter(sorted_sequence, sorter):
    """ATen's checks of ``sorter``: the boundaries' shape, int64, entries within the last dim."""
    boundaries, order = sorted_sequence._array, sorter._array
    if order.shape != boundaries.shape:
        raise RuntimeError(f"torch.searchsorted(): boundary and sorter must have the same size, "
                           f"but got boundary tensor {list(boundaries.shape)}and got sorter "
                           f"tensor {list(order.shape)}")
    if order.dtype != np.int64:
        raise RuntimeError(f"torch.searchsorted(): sorter must be a tensor of long dtype but got "
                           f"dtype {_LEGACY_TYPE_NAMES[order.dtype.name]}")
    if order.size and not order.ndim:  # ATen asks a 0-d sorter for its last size
        raise RuntimeError("ArrayRef: attempted to access back() of empty list")
    if order.size and (order.min() < 0 or order.max() >= order.shape[-1]):
        raise RuntimeError("torch.searchsorted(): sorter index out of range")


def _check_search_shapes(boundaries, values):
    if values.ndim == 0 and boundaries.ndim != 1:
        raise RuntimeError(f"torch.searchsorted(): input value can be a scalar only when "
                           f"boundaries tensor dimension is 1, but we got boundaries tensor "
                           f"dim({boundaries.ndim}) and input value's dim({values.ndim}) "
                           f"numel({values.size})")
    if boundaries.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    if boundaries.ndim != 1 and boundaries.shape[:-1] != values.shape[:-1]:
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or the "
                           f"first N-1 dimensions of boundaries tensor and input value tensor must "
                           f"match, but we got boundaries tensor {list(boundaries.shape)} and "
                           f"input value tensor {list(values.shape)}")


def _binary_search(boundaries, values, side):
    """ATen's bisection, run on all values at once. Its comparisons decide where a NaN lands
    (a NaN value goes past every boundary; a NaN boundary compares as smaller than any value),
    which numpy's NaN-last ordering does not reproduce."""
    count = math.prod(boundaries.shape[:-1])
    rows = boundaries.reshape(count, boundaries.shape[-1])
    row = np.zeros(values.shape, np.int64) if boundaries.ndim == 1 else np.broadcast_to(
        np.arange(count).reshape(values.shape[:-1] + (1,)), values.shape)
    start, end = np.zeros(values.shape, np.int64), np.full(values.shape, rows.shape[1], np.int64)
    with np.errstate(invalid="ignore"):
        while (active := start < end).any():
            middle = (start + end) // 2
            pivot = rows[row, np.minimum(middle, rows.shape[1] - 1)]
            stop = pivot > values if side == "right" else pivot >= values
            start = np.where(active & ~stop, middle + 1, start)
            end = np.where(active & stop, middle, end)
    return start


def _search_side(right, side):
    if side is None:
        return "right" if right else "left"
    if side not in ("left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got "
                           f"{side}")
    if right and side == "left":
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got "
                           "side of left while right was True")
    return side


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The bucket of each value among 1-d ``boundaries``: ``searchsorted`` with the operands
    swapped (``right=False`` puts a value equal to a boundary in the bucket that boundary ends)."""
    if boundaries._array.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim("
                           f"{boundaries._array.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)
