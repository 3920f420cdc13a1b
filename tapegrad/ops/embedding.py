"""``embedding`` and ``embedding_bag`` as one primitive each, PyTorch's ``EmbeddingBackward0``
and ``EmbeddingBagBackward0``.

Both backwards add the incoming rows into a zero table, leaving the padding row at zero: that
row is the padding vector by design, not a learned one. ``embedding``'s is its own primitive
(``EmbeddingDenseBackwardBackward0``, differentiable again as ATen's); with ``sparse=True`` both
give a sparse COO gradient instead, one stored row per looked-up index. A bag's rows are
reduced without materialising them; max mode sends each maximum's gradient back to the one row
it came from (the first, on ties, as ATen). ``embedding_renorm_`` is the in-place step of
``max_norm`` lookups.
"""
import numpy as np

from .. import dtypes
from .creation import arange, ones, ones_like, zeros
from .elementwise import where
from .inplace import apply_inplace
from .registry import OTHER, primitive
from .scatter import _index_add

__all__ = ["embedding", "embedding_bag", "embedding_renorm_"]


@primitive("embedding", node="EmbeddingBackward0", group=OTHER, saves=("indices",),
           nondifferentiable=("indices",))
def _embedding(weight, indices, *, padding_idx, scale_grad_by_freq, sparse=False):
    return weight[indices]


@_embedding.vjp
def _(ctx, grad, padding_idx, scale_grad_by_freq, sparse=False):
    (indices,) = ctx.saved
    rows, width = ctx.input_shapes[0]
    if sparse:
        return _sparse_rows_gradient(grad, indices, rows, padding_idx, scale_grad_by_freq), None
    scale = _position_scale(indices.reshape(-1), rows, padding_idx, scale_grad_by_freq,
                            grad.dtype)
    return _embedding_dense_backward(grad, indices, scale, rows=rows,
                                     padding_idx=padding_idx), None


def _position_scale(flat, rows, padding_idx, scale_grad_by_freq, dtype):
    """(N, 1): what each position's incoming row is multiplied by: 0 at the padding index,
    else one over its row's frequency if asked, else 1."""
    scale = ones(len(flat), dtype=dtype)
    if scale_grad_by_freq:
        scale = _inverse_frequency(flat, rows, dtype)[flat]
    return _without_padding(scale, flat, padding_idx).unsqueeze(-1)


def _without_padding(values, flat, padding_idx):
    """``values`` (one per position, along dim 0) zeroed where the index is ``padding_idx``."""
    if padding_idx is None:
        return values
    kept = (flat != padding_idx).to(values.dtype)
    return values * kept.reshape(-1, *[1] * (values.dim() - 1))


@primitive("embedding_dense_backward", node="EmbeddingDenseBackwardBackward0", group=OTHER,
           saves=("indices",), nondifferentiable=("indices", "scale"))
def _embedding_dense_backward(grad, indices, scale, *, rows, padding_idx):
    """The (rows, D) table gradient: each incoming row, times its position's ``scale``, added
    into the row its index picked (in order). Its own node, as PyTorch records it when the
    backward is differentiated (a gradient penalty)."""
    flat = indices.reshape(-1)
    table = np.zeros((rows, grad.shape[-1]), grad.dtype)
    np.add.at(table, flat, grad.reshape(len(flat), grad.shape[-1]) * scale)
    return table


@_embedding_dense_backward.vjp
def _(ctx, grad, rows, padding_idx):
    """The rows the indices pick, zero at the padding index but not scaled by frequency: ATen's
    double backward, which also makes forward-mode (derived from it) give the plain lookup."""
    (indices,) = ctx.saved
    flat = indices.reshape(-1)
    picked = _without_padding(grad.index_select(0, flat), flat, padding_idx)
    return picked.reshape(*indices.shape, grad.shape[1]), None, None


def _inverse_frequency(indices, rows, dtype):
    """One over how often the batch picked each row, as ATen's scale: the reciprocal taken in
    double precision, then each incoming row multiplied by it (not divided by the count)."""
    counts = indices.bincount(minlength=rows).to(dtypes.float64)
    return counts.clamp_min(1).reciprocal().to(dtype)


def _sparse_rows_gradient(grad, indices, rows, padding_idx, scale_grad_by_freq):
    """The weight's gradient as ``nn.Embedding(sparse=True)`` gives it: a sparse COO tensor
    with one stored row per looked-up index (repeats not summed, the padding index left out),
    its values the incoming rows. Scaling by frequency is refused, as in PyTorch."""
    from .._sparse_tensor import SparseCooTensor  # (the sparse layer imports the op table)
    width = grad.shape[-1]
    flat, values = indices.reshape(-1), grad.reshape(-1, width)
    if scale_grad_by_freq:
        raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with sparse "
                           "gradients")
    if padding_idx is not None:
        kept = (flat != padding_idx).nonzero().reshape(-1)
        flat, values = flat[kept], values.index_select(0, kept)
    return SparseCooTensor._build(flat.to(dtypes.int64).unsqueeze(0), values, (rows, width),
                                  False)


def check_indices(indices, op, argument=1):
    """ATen's check that ``indices`` (its ``argument``-th) are Long or Int, with its message
    (which names a bool tensor by its backend type)."""
    dtype = indices._array.dtype
    if dtype not in (np.int64, np.int32):
        got = "CPUBoolType" if dtype == np.bool_ else indices.type()
        raise RuntimeError(f"Expected tensor for argument #{argument} 'indices' to have one of "
                           f"the following scalar types: Long, Int; but got {got} instead "
                           f"(while checking arguments for {op})")


def embedding(weight, indices, padding_idx=None, scale_grad_by_freq=False, sparse=False):
    """Rows of the 2-D ``weight`` picked by the integer tensor ``indices``."""
    check_indices(indices, "embedding")
    if weight._array.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    values = indices._array
    if values.size and (values.min() < 0 or values.max() >= weight._array.shape[0]):
        raise IndexError("index out of range in self")
    return _embedding(weight, indices, padding_idx=padding_idx,
                      scale_grad_by_freq=bool(scale_grad_by_freq), sparse=bool(sparse))


@primitive("embedding_renorm", node="EmbeddingRenormBackward0", group=OTHER)
def _embedding_renorm(weight, *, rows, max_norm, norm_type):
    """``weight`` with each of ``rows`` whose ``norm_type``-norm exceeds ``max_norm`` scaled
    by ``max_norm / (norm + 1e-7)``, as ATen's kernel (the norm in the weight's dtype)."""
    rows = np.asarray(rows, dtype=np.int64)
    picked = weight[rows]
    norms = np.linalg.norm(picked, ord=norm_type, axis=1).astype(np.float64)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0).astype(picked.dtype)
    out = weight.copy()
    out[rows] = picked * scale[:, None]
    return out


@_embedding_renorm.vjp
def _(ctx, grad, rows, max_norm, norm_type):
    raise NotImplementedError("the derivative for 'embedding_renorm' is not implemented.")


def embedding_renorm_(input, indices, max_norm, norm_type):
    """Renormalise, in place, the rows of ``input`` that ``indices`` pick (each once) to a
    ``norm_type``-norm of at most ``max_norm``: what ``max_norm`` embeddings do at lookup.
    Recorded as PyTorch records it, with a backward that refuses to run."""
    check_indices(indices, "embedding_renorm_", argument=2)
    rows = np.unique(indices._array)
    if rows.size and (rows[-1] >= input.shape[0] or rows[0] < -input.shape[0]):
        bad = rows[-1] if rows[-1] >= input.shape[0] else rows[0]
        raise IndexError(f"select(): index {bad} out of range for tensor of size "
                         f"{list(input.shape)} at dimension 0")
    return apply_inplace(_embedding_renorm, input, (), {
        "rows": tuple(int(r) for r in rows % max(input.shape[0], 1)),
        "max_norm": float(max_norm), "norm_type": float(norm_type)})


# ------------------------------------------------------------------------------ embedding_bag
# ``bags`` gives each position of ``indices`` its bag (-1: in none, past the last offset); the
# positions that count are those in a bag and not ``padding_idx``. The backward rules derive all
# of it with tapegrad ops from the saved tensors, so the compiler traces them like any other.

def _counted(indices, bags, padding_idx):
    counted = bags >= 0
    return counted if padding_idx is None else counted & (indices != padding_idx)


@primitive("embedding_bag", node="EmbeddingBagBackward0", group=OTHER,
           saves=("weight", "indices", "bags", "per_sample_weights"),
           nondifferentiable=("indices", "bags"))
def _embedding_bag(weight, indices, bags, per_sample_weights, *, mean, num_bags, padding_idx,
                   scale_grad_by_freq, sparse=False):
    """Sums (or means) of the counted rows, each scaled by its sample weight, per bag."""
    positions = np.flatnonzero(_counted(indices, bags, padding_idx))
    owner = bags[positions]
    out = np.zeros((num_bags, weight.shape[1]), weight.dtype)
    np.add.at(out, owner, weight[indices[positions]] * per_sample_weights[positions, None])
    if mean:
        out /= np.maximum(np.bincount(owner, minlength=num_bags), 1)[:, None].astype(out.dtype)
    return out


@_embedding_bag.vjp
def _(ctx, grad, mean, num_bags, padding_idx, scale_grad_by_freq, sparse=False):
    """Each counted position receives its bag's gradient, scaled by its sample weight and, for
    mean, divided by its bag's size (and by its row's frequency if asked)."""
    weight, indices, bags, per_sample_weights = ctx.saved
    counted = _counted(indices, bags, padding_idx).to(grad.dtype)
    owner = bags.clamp_min(0)
    bag_grad = grad[owner]
    need_weight, _, _, need_sample_weights = ctx.needs_input_grad
    grad_weight = grad_sample_weights = None
    if need_weight:
        rows, width = ctx.input_shapes[0]
        sizes = _index_add(zeros(num_bags, dtype=grad.dtype), owner, counted, dim=0, alpha=1)
        if sparse:
            grad_weight = _sparse_bag_gradient(bag_grad, indices, bags, per_sample_weights,
                                               sizes[owner] if mean else None, rows,
                                               padding_idx, scale_grad_by_freq)
        else:
            scale = _bag_position_scale(counted, per_sample_weights, sizes[owner] if mean else
                                        None, indices, rows, scale_grad_by_freq)
            grad_weight = _index_add(zeros(rows, width, dtype=grad.dtype), indices,
                                     bag_grad * scale.unsqueeze(-1), dim=0, alpha=1)
    if need_sample_weights:
        grad_sample_weights = (bag_grad * weight[indices]).sum(1) * counted
    return grad_weight, None, None, grad_sample_weights


def _bag_position_scale(counted, per_sample_weights, bag_sizes, indices, rows,
                        scale_grad_by_freq):
    """What each position's bag gradient is multiplied by on its way to the weight: ATen's
    factor, built in double precision (1 / frequency / bag size * sample weight) and rounded
    once to the gradient's dtype."""
    scale = counted.to(dtypes.float64)
    if scale_grad_by_freq:
        scale = scale * _inverse_frequency(indices, rows, dtypes.float64)[indices]
    if bag_sizes is not None:
        scale = scale / bag_sizes.to(dtypes.float64).clamp_min(1)
    return (scale * per_sample_weights.to(dtypes.float64)).to(counted.dtype)


def _sparse_bag_gradient(bag_grad, indices, bags, per_sample_weights, bag_sizes, rows,
                         padding_idx, scale_grad_by_freq):
    """``EmbeddingBag(sparse=True)``'s weight gradient: one stored row per position in a bag
    (the padding index left out), its bag's gradient divided by the bag's size for mean and
    scaled by its sample weight, as ATen's sparse backward builds it."""
    in_bag = (bags >= 0).nonzero().reshape(-1)
    values = bag_grad
    if bag_sizes is not None:
        values = values / bag_sizes.clamp_min(1).unsqueeze(-1)
    values = values * per_sample_weights.unsqueeze(-1)
    return _sparse_rows_gradient(values.index_select(0, in_bag), indices.index_select(0, in_bag),
                                 rows, padding_idx, scale_grad_by_freq)


@primitive("embedding_bag_argmax", node="NotImplemented", group=OTHER)
def _bag_argmax(weight, indices, bags, *, num_bags, padding_idx):
    """(num_bags, D): the row of ``weight`` each bag's maximum comes from (the first position
    on ties, as ATen; -1 for an empty bag)."""
    positions = np.flatnonzero(_counted(indices, bags, padding_idx))
    owner = bags[positions]
    values = weight[indices[positions]]
    best = np.full((num_bags, weight.shape[1]), -np.inf, weight.dtype)
    np.maximum.at(best, owner, values)
    first = np.full(best.shape, len(indices), np.int64)
    np.minimum.at(first, owner, np.where(values == best[owner], positions[:, None], len(indices)))
    return np.where(first < len(indices), np.append(indices, -1)[first], -1)


@primitive("embedding_bag_max", node="EmbeddingBagBackward0", group=OTHER, saves=("argmax",),
           nondifferentiable=("argmax",))
def _embedding_bag_max(weight, argmax):
    found = argmax >= 0
    return np.where(found, np.take_along_axis(weight, np.maximum(argmax, 0), 0), 0).astype(
        weight.dtype, copy=False)


@_embedding_bag_max.vjp
def _(ctx, grad):
    (argmax,) = ctx.saved
    found = (argmax >= 0).to(grad.dtype)
    table = zeros(ctx.input_shapes[0], dtype=grad.dtype)
    return table.scatter_add(0, argmax.clamp_min(0), grad * found), None


def _bag_ids(offsets, length, include_last_offset):
    """Each position's bag: a cumulative count of the bag starts at or before it."""
    starts = offsets[:-1] if include_last_offset else offsets
    marks = _index_add(zeros(length + 1, dtype=dtypes.int64), starts.long().clamp_max(length),
                       ones_like(starts, dtype=dtypes.int64), dim=0, alpha=1)
    bags = marks.cumsum(0)[:length] - 1
    if include_last_offset and len(offsets):
        bags = where(arange(length) < offsets[-1], bags, -1)
    return bags, len(starts)


def embedding_bag(weight, indices, offsets, mode, per_sample_weights, include_last_offset,
                  padding_idx, scale_grad_by_freq=False, sparse=False):
    """Sums, means or maxima of the rows of ``weight`` picked by the 1-D ``indices``, in the
    bags that start at ``offsets`` (and, with ``include_last_offset``, end at its last entry)."""
    padding_idx = _wrapped_padding_idx(padding_idx, weight.shape[0])
    indices, offsets = _common_index_dtype(indices, offsets)
    _check_bag_operands(weight, indices, offsets, per_sample_weights)
    if include_last_offset and not len(offsets):
        raise RuntimeError("include_last_offset: number of offset should be at least 1")
    bags, num_bags = _bag_ids(offsets, len(indices), include_last_offset)
    _check_bag_indices(weight, indices, bags, mode, padding_idx)
    if mode == "max":
        argmax = _bag_argmax(weight, indices, bags, num_bags=num_bags, padding_idx=padding_idx)
        return _embedding_bag_max(weight, argmax)
    if per_sample_weights is None:
        per_sample_weights = ones(len(indices), dtype=weight.dtype)
    return _embedding_bag(weight, indices, bags, per_sample_weights, mean=mode == "mean",
                          num_bags=num_bags, padding_idx=padding_idx,
                          scale_grad_by_freq=bool(scale_grad_by_freq), sparse=bool(sparse))


def _wrapped_padding_idx(padding_idx, rows):
    if padding_idx is None:
        return None
    if not -rows <= padding_idx < rows:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{rows} "
                           f"through {rows - 1}, but got {padding_idx}")
    return padding_idx % rows


def _common_index_dtype(indices, offsets):
    """ATen converts ``indices`` and ``offsets`` to their promoted dtype before checking them
    (so bool indices with int64 offsets pass, and float offsets fail as float indices)."""
    common = dtypes.promote_types(indices.dtype, offsets.dtype)
    return indices.to(common), offsets.to(common)


def _check_bag_operands(weight, indices, offsets, per_sample_weights):
    """ATen's dtype and offset checks, in its order."""
    check_indices(indices, "embedding_bag")
    if weight._array.dtype.kind != "f":
        raise RuntimeError("Expected tensor for argument #1 'weight' to have one of the following "
                           f"scalar types: Half, BFloat16, Float, Double; but got {weight.type()} "
                           "instead (while checking arguments for embedding_bag)")
    starts = offsets._array
    if len(starts) and starts[0] != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                           f"has to start from position 0. However, got {starts[0]}\n"
                           f"[ {offsets.type()}{{}} ]")  # ATen prints the 0-d tensor too
    if len(starts) and starts[-1] > len(indices):
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {len(indices)} "
                           f"but got offsets[-1] of {starts[-1]}")
    if per_sample_weights is not None and per_sample_weights.dtype != weight.dtype:
        raise RuntimeError("Expected tensor for argument #1 'weight' to have the same type as "
                           "tensor for argument #1 'per_sample_weights'; but type "
                           f"{weight.type()} does not equal {per_sample_weights.type()} (while "
                           "checking arguments for embedding_bag)")


def _check_bag_indices(weight, indices, bags, mode, padding_idx):
    """Indices outside the table, with the message of the ATen kernel that meets them: the fast
    sum/mean kernel (single-precision-or-less table, no padding) checks only the positions in
    a bag and names the first bad position; the others check every index."""
    values, rows = indices._array, weight.shape[0]
    fast = mode != "max" and padding_idx is None and weight.dtype is not dtypes.float64
    checked = np.flatnonzero(bags._array >= 0) if fast else np.arange(len(values))
    bad = checked[(values[checked] < 0) | (values[checked] >= rows)]
    if not bad.size:
        return
    if fast:
        raise RuntimeError(f"Index {bad[0]} of input takes value {values[bad[0]]} which is not "
                           f"in the valid range [0, {rows})")
    raise RuntimeError(f"embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx "
                       f"to be {values[bad[0]]}")
