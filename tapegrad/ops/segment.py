"""``segment_reduce``: reductions over consecutive runs (segments) of a dimension, the runs given
by their lengths or offsets — the sum, mean, max, min or product of each graph's nodes in a batch
of graphs.

The forward reduces with numpy's ``ufunc.at`` over a segment id per element; the backward
gathers each segment's gradient back to its elements (``index_select``) and puts it in place
(``index_add``), so it is itself differentiable.
"""
import numpy as np

from ..dtypes import SCALAR_TYPE_NAMES
from ..tensor import Tensor
from .elementwise import where
from .layout import _dims_of
from .registry import OTHER, primitive
from .scatter import index_add
from .shape import index_select

__all__ = ["segment_reduce"]

_REDUCTIONS = {"sum": "sum", "mean": "mean", "max": "max", "min": "min", "prod": "prod",
               "amax": "max", "amin": "min"}
_UFUNCS = {"sum": np.add, "mean": np.add, "max": np.maximum, "min": np.minimum,
           "prod": np.multiply}
_IDENTITIES = {"sum": 0.0, "mean": 0.0, "max": -np.inf, "min": np.inf, "prod": 1.0}


def _segments(lengths, starts, shape):
    """Where the segments of ``lengths`` ``(B, S)`` are, over data seen as ``shape``
    ``(B, N, T)`` (the dimensions before the axis, along it, after it), each row's first
    segment starting at ``starts[b]``: ``(lengths, shape, ids, positions)``, with the segment
    (of ``B * S``) and the row of data (of ``B * N``) of every element some segment holds. (A
    plain tuple of arrays: the compiler reads parameters so.)"""
    rows, count = lengths.shape
    size = shape[1]
    totals = lengths.sum(axis=1)
    ids = np.repeat(np.arange(rows * count), lengths.reshape(-1))
    first = np.repeat(np.cumsum(totals) - totals, totals)  # each element's row's first
    along = np.repeat(starts, totals) + np.arange(ids.size) - first
    inside = along < size  # ``unsafe`` lengths may claim more than there is
    if not inside.all():
        ids, along = ids[inside], along[inside]
    return lengths, shape, ids, ids // count * size + along


@primitive("segment_reduce", node="SegmentReduceBackward0", group=OTHER, saves=("a", "out"))
def _segment_reduce(a, segments, reduce, initial, out_shape):
    lengths, (rows, size, inner), ids, positions = segments
    identity = _IDENTITIES[reduce] if initial is None or reduce == "mean" else initial
    out = np.full((lengths.size, inner), identity, dtype=a.dtype)
    _UFUNCS[reduce].at(out, ids, a.reshape(rows * size, inner)[positions])
    if reduce == "mean":
        lengths = lengths.reshape(-1, 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            if initial is None:
                out = out / lengths
            else:
                out = np.where(lengths > 0, (out + initial) / np.maximum(lengths, 1), initial)
    return out.astype(a.dtype, copy=False).reshape(out_shape)


@_segment_reduce.vjp
def _(ctx, grad, segments, reduce, initial, out_shape):
    a, out = ctx.saved
    lengths, (rows, size, inner), ids, positions = segments
    picked = index_select(grad.reshape(-1, inner), 0, Tensor._make(ids))
    values = index_select(a.reshape(rows * size, inner), 0, Tensor._make(positions))
    if reduce == "mean":
        picked = picked / Tensor._make(lengths.reshape(-1, 1)[ids].astype(a._array.dtype))
    elif reduce in ("max", "min"):
        hits = values == index_select(out.reshape(-1, inner), 0, Tensor._make(ids))
        ties = _reduce_picked(hits.to(a.dtype), segments, "sum", None).clamp(min=1)
        picked = where(hits, picked / index_select(ties, 0, Tensor._make(ids)), 0.0)  # evenly
    elif reduce == "prod":
        picked = picked * _product_of_others(values, segments, initial)
    if positions.size == rows * size and (positions == np.arange(positions.size)).all():
        return picked.reshape(a.shape)  # every element in a segment, in order
    zeros = Tensor._make(np.zeros((rows * size, inner), a._array.dtype))
    return index_add(zeros, 0, Tensor._make(positions), picked).reshape(a.shape)


def _product_of_others(values, segments, initial):
    """Each element's segment's product without it, zeros allowed: the product of the non-zero
    values over the element when it is the only zero, zero when there is another zero."""
    ids = Tensor._make(segments[2])
    zero = values == 0
    nonzero = where(zero, 1.0, values)
    product = _reduce_picked(nonzero, segments, "prod", initial)
    zeros = _reduce_picked(zero.to(values.dtype), segments, "sum", None)
    others_zeros = index_select(zeros, 0, ids) - zero.to(values.dtype)
    return where(others_zeros > 0, 0.0, index_select(product, 0, ids) / nonzero)


def _reduce_picked(values, segments, reduce, initial):
    """``reduce`` over the segments of ``values`` ``(M, T)``, one row per element a segment
    holds, in segment order: one ``(B * S, T)`` row per segment."""
    lengths = segments[0].reshape(1, -1)
    picked = _segments(lengths, np.zeros(1, np.int64), (1, values.shape[0], values.shape[1]))
    return _segment_reduce(values.reshape(picked[1]), segments=picked, reduce=reduce,
                           initial=initial, out_shape=(lengths.size, values.shape[1]))


def _segment_lengths(lengths, offsets, axis):
    """The lengths and the first segment's start of each row, checked as PyTorch does."""
    if lengths is not None:
        counts = _index_array(lengths, "lengths")
        if counts.ndim - 1 != axis:
            raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of "
                               f"lengths but got {axis}.")
        return counts, None
    if offsets is not None:
        bounds = _index_array(offsets, "offsets")
        if bounds.ndim - 1 != axis:
            raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of "
                               f"offsets but got {axis}.")
        counts = np.diff(bounds, axis=-1)
        if (counts < 0).any():
            raise RuntimeError("Expected segment_length >= 0 to be true, but got false.  (Could "
                               "this error message be improved?  If so, please report an "
                               "enhancement request to PyTorch.)")
        return counts, bounds[..., 0]
    raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")


def _index_array(tensor, name):
    """The lengths or offsets, read through ``Tensor.numpy``: the segments they give are baked
    into a compiled graph, so a trace of lengths it computes or takes as input breaks there."""
    array = tensor.numpy()
    if array.dtype not in (np.int32, np.int64):
        raise NotImplementedError(f'"_segment_reduce_{name}_cpu_kernel1" not implemented for '
                                  f"'{SCALAR_TYPE_NAMES[array.dtype.name]}'")
    return array.astype(np.int64, copy=False)


def segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0,
                   unsafe=False, initial=None):
    """PyTorch's ``torch.segment_reduce``: ``reduce`` ('sum', 'mean', 'max', 'min', 'prod')
    over consecutive segments of dimension ``axis``, of the given ``lengths`` (or between
    ``offsets``); an empty segment gives ``initial`` or the reduction's identity (nan for a
    mean)."""
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    reduce = _REDUCTIONS[reduce]
    if indices is not None and lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    shape = data._array.shape
    axis = _dims_of(axis, len(shape))[0]
    counts, starts = _segment_lengths(lengths, offsets, axis)
    if data._array.dtype.kind != "f":
        raise NotImplementedError(f'"_segment_reduce_cpu" not implemented for '
                                  f"'{SCALAR_TYPE_NAMES[data._array.dtype.name]}'")
    if lengths is not None and not unsafe:
        if counts.size and counts.min() < 0:
            raise RuntimeError("lengths contains negative value!")
        if (counts.sum(axis=-1) != shape[axis]).any():
            raise RuntimeError("segment_reduce(): Expected all rows of lengths along axis to sum "
                               "to data.size(lengths.dim()-1) when !unsafe.")
    rows = int(np.prod(shape[:axis]))
    inner = int(np.prod(shape[axis + 1:]))
    counts = counts.reshape(rows, -1)
    starts = np.zeros(rows, np.int64) if starts is None else starts.reshape(rows)
    segments = _segments(counts, starts, (rows, shape[axis], inner))
    out_shape = shape[:axis] + (counts.shape[1],) + shape[axis + 1:]
    return _segment_reduce(data, segments=segments, reduce=reduce,
                           initial=None if initial is None else float(initial),
                           out_shape=out_shape)
