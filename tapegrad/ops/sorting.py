"""Value-selecting operations: sort, argsort, topk, kthvalue, median, cummax, and the
counting ones (unique, bincount, histc).

sort, topk, kthvalue, median and cummax share one primitive shape: the indices are computed on
numpy, the values are taken along a dimension, and the gradient is scatter-added back to those
indices.
"""
import builtins
import math

import numpy as np

from .. import dtypes
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .creation import zeros
from .layout import _dims_of
from .reduction import return_types
from .registry import OTHER, Primitive, primitive
from .scatter import _scatter_add
from .shape import narrow, reshape, squeeze

__all__ = [
    "sort", "argsort", "topk", "kthvalue", "median", "cummax", "unique", "bincount", "histc",
    "searchsorted", "bucketize",
]


def _take_along_forward(a, indices, *, dim, keepdim):
    if dim is None:
        return a.reshape(-1)[indices].reshape(())
    values = np.take_along_axis(a, indices, axis=dim)
    return values if keepdim else values.squeeze(dim)


def _take_along(name, node):
    """A value-selecting primitive: ``values = input`` at ``indices`` along ``dim``."""
    prim = Primitive(name, _take_along_forward, node=node, group=OTHER, saves=("indices",))

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
        return _scatter_add(zeros(shape, dtype=grad.dtype), indices, grad, dim=dim), None
    return prim


_sort_values = _take_along("sort", "SortBackward0")
_topk_values = _take_along("topk", "TopkBackward0")
_kthvalue_values = _take_along("kthvalue", "KthvalueBackward0")
_median_all_values = _take_along("median_all", "MedianBackward0")
_median_values = _take_along("median", "MedianBackward1")
_cummax_values = _take_along("cummax", "CummaxBackward0")


@primitive("sort_indices", node="SortIndicesBackward0", group=OTHER)
def _sort_indices(a, dim, descending):
    """Stable ordering indices along ``dim``; NaN counts as the largest value, as in PyTorch.
    A primitive (not numpy in the public functions) so that a compiled graph computes the order
    from each call's data instead of keeping the traced one."""
    if not descending:
        return np.argsort(a, axis=dim, kind="stable")
    reversed_order = np.argsort(np.flip(a, axis=dim), axis=dim, kind="stable")
    return a.shape[dim] - 1 - np.flip(reversed_order, axis=dim)


@primitive("median_position", node="MedianPositionBackward0", group=OTHER)
def _median_position(a):
    """The flat position (shape (1,)) of the lower median of all the entries."""
    flat = a.reshape(-1)
    return np.argsort(flat, kind="stable")[(flat.size - 1) // 2:(flat.size + 1) // 2]


@primitive("cummax_indices", node="CummaxIndicesBackward0", group=OTHER)
def _cummax_indices(a, dim):
    """Where each running maximum along ``dim`` was found (the latest position on ties)."""
    a = np.moveaxis(a, dim, -1)
    best = np.zeros(a.shape, dtype=np.int64)
    for i in range(1, a.shape[-1]):
        previous = np.take_along_axis(a, best[..., i - 1:i], axis=-1)[..., 0]
        best[..., i] = np.where((a[..., i] >= previous) | np.isnan(a[..., i]), i, best[..., i - 1])
    return np.moveaxis(best, -1, dim)


def _sort_dim(input, dim):
    if input._array.ndim == 0:
        return None
    return _dims_of(dim, input._array.ndim)[0]


def _with_values(prim, input, indices, dim, keepdim=True):
    """Values at ``indices`` (along ``dim``) recorded by ``prim``, and the indices."""
    values = prim(input, indices, dim=dim, keepdim=keepdim)
    return values, indices if keepdim else squeeze(indices, dim)


def sort(input, dim=-1, descending=False, stable=False):
    """Sorted values and their indices; always stable (ties keep their order), which ``stable``
    asks for and the default permits."""
    dim = _sort_dim(input, dim)
    if dim is None:
        return return_types.sort(input.clone(), zeros((), dtype=dtypes.int64))
    order = _sort_indices(input, dim=dim, descending=descending)
    return return_types.sort(*_with_values(_sort_values, input, order, dim))


def argsort(input, dim=-1, descending=False, stable=False):
    dim = _sort_dim(input, dim)
    if dim is None:
        return zeros((), dtype=dtypes.int64)
    return _sort_indices(input, dim=dim, descending=descending)


def topk(input, k, dim=-1, largest=True, sorted=True):
    dim = _sort_dim(input, dim)
    size = 1 if dim is None else input._array.shape[dim]
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if dim is None:
        return return_types.topk(input.clone(), zeros((), dtype=dtypes.int64))
    first_k = narrow(_sort_indices(input, dim=dim, descending=largest), dim, 0, k)
    return return_types.topk(*_with_values(_topk_values, input, first_k, dim))


def kthvalue(input, k, dim=-1, keepdim=False):
    dim = _sort_dim(input, dim)
    size = 1 if dim is None else input._array.shape[dim]
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    if dim is None:
        return return_types.kthvalue(input.clone(), zeros((), dtype=dtypes.int64))
    kth = narrow(_sort_indices(input, dim=dim, descending=False), dim, k - 1, 1)
    return return_types.kthvalue(*_with_values(_kthvalue_values, input, kth, dim, keepdim))


def median(input, dim=None, keepdim=False):
    """The lower median (no averaging of the two middle values), as PyTorch computes it."""
    if dim is None:
        if input._array.size == 0:
            return Tensor._make(np.array(np.nan, dtype=input._array.dtype))
        return _median_all_values(input, _median_position(input), dim=None, keepdim=False)
    dim = _sort_dim(input, dim)
    if dim is None:
        return return_types.median(input.clone(), zeros((), dtype=dtypes.int64))
    middle = narrow(_sort_indices(input, dim=dim, descending=False), dim,
                    (input._array.shape[dim] - 1) // 2, 1)
    return return_types.median(*_with_values(_median_values, input, middle, dim, keepdim))


def cummax(input, dim):
    """Running maxima along ``dim`` and where each was found (the latest position on ties)."""
    dim = _dims_of(dim, input._array.ndim)[0]
    indices = _cummax_indices(input, dim=dim)
    return return_types.cummax(*_with_values(_cummax_values, input, indices, dim))


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    values, inverse, counts = np.unique(input._array, return_inverse=True, return_counts=True,
                                        axis=dim)
    result = [Tensor._make(values)]
    if return_inverse:
        result.append(Tensor._make(inverse.reshape(input._array.shape if dim is None else -1)
                                   .astype(np.int64)))
    if return_counts:
        result.append(Tensor._make(counts.astype(np.int64)))
    return result[0] if len(result) == 1 else tuple(result)


def bincount(input, weights=None, minlength=0):
    values = input._array
    if values.ndim != 1 or values.dtype.kind not in "iu" or (values.size and values.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return Tensor._make(np.bincount(values, minlength=minlength).astype(np.int64))
    counts = np.bincount(values, weights=weights._array, minlength=minlength)
    return Tensor._make(counts.astype(weights._array.dtype if weights._array.dtype.kind == "f"
                                      else np.float64))


def histc(input, bins=100, min=0, max=0):
    """Counts in ``bins`` equal bins over [min, max] (the data's range when both are 0); values
    outside are ignored; the counts have the input's dtype."""
    values = input._array
    if values.dtype.kind != "f":
        raise RuntimeError(f'"histogram_cpu" not implemented for '
                           f"'{_LEGACY_TYPE_NAMES[values.dtype.name]}'")
    low, high = builtins.float(min), builtins.float(max)
    if low == high and values.size:
        low, high = builtins.float(values.min()), builtins.float(values.max())
    if low == high:
        low, high = low - 1, high + 1
    if low > high:
        raise RuntimeError("torch.histc: max must be larger than min")
    counts, _ = np.histogram(values, bins=bins, range=(low, high))
    return Tensor._make(counts.astype(values.dtype))


# ------------------------------------------------------------------------ searchsorted, bucketize


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """Where each value would be inserted to keep the (last dim of the) sequence sorted: before
    equal values, or after them with ``right``/``side="right"``. Not differentiable."""
    side = _search_side(right, side)
    boundaries = sorted_sequence._array
    values = input._array if isinstance(input, Tensor) else np.asarray(input)
    if sorter is not None:
        boundaries = np.take_along_axis(boundaries, sorter._array, -1)
    if boundaries.ndim == 1:
        positions = np.searchsorted(boundaries, values, side)
    else:
        positions = _searchsorted_rows(boundaries, values, side)
    return Tensor._make(np.asarray(positions, np.int32 if out_int32 else np.int64))


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


def _searchsorted_rows(boundaries, values, side):
    """Each row of values searched in its own row of boundaries (matching leading dims)."""
    if boundaries.shape[:-1] != values.shape[:-1]:
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or the "
                           f"first N-1 dimensions of boundaries tensor and input value tensor must "
                           f"match, but we got boundaries tensor {list(boundaries.shape)} and "
                           f"input value tensor {list(values.shape)}")
    rows = zip(boundaries.reshape(-1, boundaries.shape[-1]), values.reshape(-1, values.shape[-1]))
    return np.stack([np.searchsorted(b, v, side) for b, v in rows]).reshape(values.shape)


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The bucket of each value among 1-d ``boundaries``: ``searchsorted`` with the operands
    swapped (``right=False`` puts a value equal to a boundary in the bucket that boundary ends)."""
    if boundaries._array.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim("
                           f"{boundaries._array.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)
