"""Writing to and reading from positions given by indices or masks: scatter, scatter_add,
scatter_reduce, index_add, index_reduce, index_copy, index_put, masked_select, nonzero.

The backward of a write gathers the gradient at the same indices; of an accumulating write,
the source gradient is the gradient gathered at the indices it was added to.
"""
import functools

import numpy as np

from .._warnings import warn_at_caller
from ..autograd import grad_mode
from ..memory_format import copy_in, preserve_format
from ..tensor import _LEGACY_TYPE_NAMES, Tensor, _warn_once
from .broadcast import expand, expand_shape, sum_to
from .elementwise import to_dtype, where
from .inplace import apply_inplace
from .layout import _dims_of
from .operands import CPP_TYPE_NAMES, broadcast_error, check_tensor_elements, checked_number
from .reduction import sum as _reduce_sum
from .registry import ELEMENTWISE, OTHER, primitive
from .shape import (_axis, _check_index_put, _index_backward, _index_put, _key_parts, _parse_key,
                    cat, check_index_bounds, check_put_shape, gather, getitem,
                    index_put_dtype_error, index_select, no_dimensions_error)

__all__ = [
    "masked_fill", "masked_fill_", "masked_select", "nonzero", "nonzero_static", "argwhere",
    "index_fill", "index_fill_", "masked_scatter", "masked_scatter_", "scatter", "scatter_",
    "scatter_add", "scatter_add_", "index_add", "index_add_", "index_put", "index_put_",
    "scatter_reduce", "scatter_reduce_", "index_reduce", "index_reduce_", "index_copy",
    "index_copy_", "take", "take_along_dim",
]


# Elementwise selects, so compiled kernels fuse them (std's backward uses masked_fill).
@primitive("masked_fill", node="MaskedFillBackward0", group=ELEMENTWISE, saves=("mask",),
           nondifferentiable=("mask",), lowering="{value} if {1} else {0}")
def _masked_fill(a, mask, *, value):
    # ATen fills a row-major clone, whatever the input's order
    return np.asarray(np.where(mask, np.asarray(value, dtype=a.dtype), a), order="C")


@primitive("masked_fill_tensor", node="MaskedFillBackward1", group=ELEMENTWISE, saves=("mask",),
           nondifferentiable=("mask",), lowering="{2} if {1} else {0}")
def _masked_fill_tensor(a, mask, value):
    return np.asarray(np.where(mask, value.astype(a.dtype), a), order="C")


_masked_fill.inplace = lambda out, mask, *, value: np.copyto(out, value, where=mask,
                                                             casting="unsafe")
_masked_fill_tensor.inplace = lambda out, mask, value: np.copyto(out, value, where=mask,
                                                                 casting="unsafe")


@_masked_fill.vjp
def _(ctx, grad, value):
    (mask,) = ctx.saved  # PyTorch's grad.masked_fill(mask, 0) (MaskedFillBackward0 in turn)
    return sum_to(_masked_fill(grad, mask, value=0.0), ctx.input_shapes[0]), None


@_masked_fill_tensor.vjp
def _(ctx, grad):
    (mask,) = ctx.saved
    needs_input, _, needs_value = ctx.needs_input_grad
    return (sum_to(_masked_fill(grad, mask, value=0.0), ctx.input_shapes[0]) if needs_input
            else None, None,
            _reduce_sum(where(mask, grad, 0.0)) if needs_value else None)


def _out_of_place(prim, input, others, params):
    """How the out-of-place forms apply their primitive (the in-place ones: ``apply_inplace``)."""
    result = prim(input, *others, **params)
    _check_recordable(input, others)
    return result


def _check_recordable(input, others):
    """An integer result cannot record operands that require grad (a filled value may differ
    in dtype); PyTorch finds out once the result is computed."""
    if input._array.dtype.kind in "biu" and grad_mode.is_grad_enabled() and \
            any(other.requires_grad for other in others):
        raise RuntimeError(f"Autograd not support dtype: {_type_name(input)}")


def _masked_fill_call(input, mask, value, apply):
    if isinstance(value, Tensor) and value._array.ndim:
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value._array.ndim} dimension(s).")
    if mask._array.dtype != np.bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{CPP_TYPE_NAMES[mask._array.dtype.name]}")
    if not isinstance(value, Tensor):
        value = checked_number(value, input._array.dtype)  # PyTorch's range check of a number
        return apply(_masked_fill, input, (mask,), {"value": value})
    return apply(_masked_fill_tensor, input, (mask, value), {})


def masked_fill(input, mask, value):
    """``input`` with ``value`` where ``mask`` is True."""
    if mask._array.shape != input._array.shape:
        try:  # first, PyTorch broadcasts the mask against the input, naming the mask first
            np.broadcast_shapes(mask._array.shape, input._array.shape)
        except ValueError:
            raise RuntimeError(broadcast_error((mask, input), {})) from None
    return _masked_fill_call(input, mask, value, _out_of_place)


def masked_fill_(input, mask, value):
    return _masked_fill_call(input, mask, value, apply_inplace)


@primitive("masked_select", node="MaskedSelectBackward0", group=OTHER, saves=("mask",),
           nondifferentiable=("mask",))
def _masked_select(a, mask):
    shape = np.broadcast_shapes(a.shape, mask.shape)
    return np.broadcast_to(a, shape)[np.broadcast_to(mask, shape)]


@_masked_select.vjp
def _(ctx, grad):
    (mask,) = ctx.saved
    shape = np.broadcast_shapes(ctx.input_shapes[0], mask._array.shape)
    zeros = Tensor._make(np.zeros(shape, grad._array.dtype))
    return sum_to(_masked_scatter(zeros, mask, grad), ctx.input_shapes[0]), None


def masked_select(input, mask):
    """The elements of ``input`` where ``mask`` (broadcast together) is True, as a vector."""
    if mask._array.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    try:
        np.broadcast_shapes(input._array.shape, mask._array.shape)
    except ValueError:
        raise RuntimeError(broadcast_error((mask, input), {})) from None  # PyTorch: a is the mask
    return _masked_select(input, mask)


def nonzero(input, *, as_tuple=False):
    """The indices of the nonzero elements: one row each, or one index tensor per dimension
    (``as_tuple``; a 0-d input counts as 1-d there, as in PyTorch)."""
    array = input._array
    if as_tuple:
        return tuple(Tensor._make(i.astype(np.int64)) for i in np.nonzero(np.atleast_1d(array)))
    if not array.ndim:  # one row of no coordinates if the value is nonzero, else none
        rows = np.zeros((int(array != 0), 0), np.int64)
    else:
        rows = np.argwhere(array)
    return Tensor._make(np.asfortranarray(rows, np.int64))  # ATen's layout: column by column


argwhere = nonzero


def nonzero_static(input, *, size, fill_value=-1):
    """``nonzero``'s rows in a result of a fixed number of rows (``size``): the first ``size``
    found, then rows of ``fill_value`` (a shape known before the data, for export)."""
    if not isinstance(size, int) or size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    found = nonzero(input)._array[:size]
    filler = np.full((size - found.shape[0], found.shape[1]), fill_value, np.int64)
    return Tensor._make(np.concatenate([found, filler]))


# --------------------------------------------------------------------- index_fill, masked_scatter

@primitive("index_fill", node="IndexFillBackward0", group=OTHER, saves=("index",),
           nondifferentiable=("index",))
def _index_fill(a, index, *, dim, value):
    out = copy_in(a, preserve_format)  # ATen fills a clone that keeps the input's layout
    _fill_into(out, index, dim, value)
    return out


@primitive("index_fill_tensor", node="IndexFillBackward1", group=OTHER, saves=("index",),
           nondifferentiable=("index",))
def _index_fill_tensor(a, index, value, *, dim):
    out = copy_in(a, preserve_format)
    _fill_into(out, index, dim, value)
    return out


def _fill_into(out, index, dim, value):
    if out.ndim == 0:  # a 0-d input is one slice: filled if the index names it at all
        if index.size:
            out[()] = value
        return
    out[(slice(None),) * dim + (index,)] = value


_index_fill.inplace = lambda out, index, *, dim, value: _fill_into(out, index, dim, value)
_index_fill_tensor.inplace = lambda out, index, value, *, dim: _fill_into(out, index, dim, value)


@_index_fill.vjp
def _(ctx, grad, dim, value):
    (index,) = ctx.saved
    return _index_fill(grad, index, dim=dim, value=0), None


@_index_fill_tensor.vjp
def _(ctx, grad, dim):
    (index,) = ctx.saved
    cleared = _index_fill(grad, index, dim=dim, value=0)
    _, _, need_value = ctx.needs_input_grad
    if not need_value:
        return cleared, None, None
    # the value's gradient as PyTorch gathers it (index_select refuses negative indices): what
    # reached the filled slices, each counted once
    filled = Tensor._make(np.unique(index._array.reshape(-1)))
    return cleared, None, _reduce_sum(index_select(grad, dim, filled))


def _index_fill_call(input, dim, index, value, apply):
    ndim = max(input._array.ndim, 1)
    if index._array.dtype != np.int64:  # before ``dim``, as PyTorch
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                         f"{ndim - 1}], but got {dim})")
    if index._array.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    _check_fill_index(index._array.reshape(-1), dim % ndim,
                      input._array.shape[dim] if input._array.ndim else 1)
    params = {"dim": dim % ndim}
    if not isinstance(value, Tensor):
        value = checked_number(value, input._array.dtype)  # PyTorch's range check of a number
        return apply(_index_fill, input, (index,), {**params, "value": value})
    if value._array.ndim:
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got "
                           f"tensor with {value._array.ndim} dimension(s).")
    return apply(_index_fill_tensor, input, (index, value), params)


def index_fill(input, dim, index, value):
    """``input`` with ``value`` in the slices ``index`` selects along ``dim``."""
    return _index_fill_call(input, dim, index, value,
                            _out_of_place)


def index_fill_(input, dim, index, value):
    return _index_fill_call(input, dim, index, value, apply_inplace)


@primitive("masked_scatter", node="MaskedScatterBackward0", group=OTHER, saves=("mask",),
           nondifferentiable=("mask",))
def _masked_scatter(a, mask, source):
    out = a.copy()
    _masked_scatter_into(out, mask, source)
    return out


def _masked_scatter_into(out, mask, source):
    mask = np.broadcast_to(mask, out.shape)
    out[mask] = source.reshape(-1)[:np.count_nonzero(mask)]


_masked_scatter.inplace = _masked_scatter_into


@_masked_scatter.vjp
def _(ctx, grad):
    (mask,) = ctx.saved
    need_input, _, need_source = ctx.needs_input_grad
    source_grad = None
    if need_source:  # the masked gradients, in order, at the front of the source
        picked = getitem(grad, mask.expand(grad.shape))
        size = int(np.prod(ctx.input_shapes[2]))
        source_grad = cat([picked, Tensor._make(np.zeros(size - picked._array.size,
                                                         grad._array.dtype))]
                          ).reshape(ctx.input_shapes[2])
    return (where(mask, 0.0, grad) if need_input else None, None, source_grad)


def _masked_scatter_call(input, mask, source, apply):
    """PyTorch's in-place masked_scatter_ checks, in its order: the dtypes, the mask expanding
    to the input (a 0-d input counts as one element), the mask's dtype, enough source."""
    if source._array.dtype != input._array.dtype:  # (PyTorch's message lacks the space)
        raise RuntimeError("masked_scatter: expected self and source to have same dtypes but got"
                           f"{_type_name(input)} and {_type_name(source)}")
    expand_shape(mask, input._array.shape or ((1,) if mask._array.ndim else ()))
    if mask._array.dtype != np.bool_:
        raise RuntimeError("masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{_type_name(mask)}")
    needed = np.count_nonzero(np.broadcast_to(mask._array, input._array.shape))
    if source._array.size < needed:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return apply(_masked_scatter, input, (mask, source), {})


def masked_scatter(input, mask, source):
    """``input`` (broadcast with ``mask``, which may be larger) with the elements of ``source``,
    in order, where ``mask`` is True."""
    try:
        shape = np.broadcast_shapes(mask._array.shape, input._array.shape)
    except ValueError:
        raise RuntimeError(broadcast_error((mask, input), {})) from None  # PyTorch: a is the mask
    if shape != input._array.shape:
        input = expand(input, shape)
    return _masked_scatter_call(input, mask, source, _out_of_place)


def masked_scatter_(input, mask, source):
    return _masked_scatter_call(input, mask, source, apply_inplace)

# ------------------------------------------------------------------------- scatter, index_add


def _scatter_site(out, index, dim):
    """Where a scatter writes, as ATen's kernels see it (a 0-d tensor as a 1-element vector):
    ``out`` (viewed) and the numpy key that addresses ``out[..., index[i][j], ...]`` along
    ``dim`` (gather's key); an empty index addresses nothing, whatever its rank or dtype."""
    target = out.reshape(1) if out.ndim == 0 else out
    if not index.size:
        return target, (np.zeros(0, np.int64),) * target.ndim
    index = index.reshape(-1) if index.ndim == 0 else index
    grids = np.indices(index.shape, sparse=True)
    index = index.astype(np.int64, copy=False)
    return target, tuple(index if d == dim else grids[d] for d in range(index.ndim))


def _leading(src, index):
    """The leading block of ``src`` that the index covers (src may be larger than the index;
    a 0-d one is a 1-element vector; an empty index covers nothing)."""
    if not index.size:
        return np.empty(0, dtype=src.dtype)
    src = src.reshape(-1) if src.ndim == 0 else src
    return src[tuple(slice(0, n) for n in index.shape or (1,))]


@primitive("scatter", node="ScatterBackward0", group=OTHER, saves=("index",),
           nondifferentiable=("index",))
def _scatter(a, index, src, *, dim):
    out = a.copy()
    target, key = _scatter_site(out, index, dim)
    target[key] = _leading(src, index)
    return out


@primitive("scatter_value", node="ScatterBackward1", group=OTHER, saves=("index",),
           nondifferentiable=("index",))
def _scatter_value(a, index, *, dim, value):
    out = a.copy()
    target, key = _scatter_site(out, index, dim)
    target[key] = value
    return out


@primitive("scatter_add", node="ScatterAddBackward0", group=OTHER, saves=("index",),
           nondifferentiable=("index",))
def _scatter_add(a, index, src, *, dim):
    out = a.copy()
    np.add.at(*_scatter_site(out, index, dim), _leading(src, index))
    return out


_LEGACY_REDUCTIONS = {"add": np.add, "multiply": np.multiply}


@primitive("scatter_reduce_legacy", node="NotImplemented", group=OTHER)
def _scatter_reduced(a, index, src, *, dim, reduce, op):
    out = a.copy()
    _LEGACY_REDUCTIONS[reduce].at(*_scatter_site(out, index, dim), _leading(src, index))
    return out


@_scatter_reduced.vjp
def _(ctx, grad, dim, reduce, op):
    """PyTorch has no derivative for ``scatter(..., reduce=)``: backward through it fails."""
    raise RuntimeError(f"derivative for aten::{op} is not implemented")


def _src_grad(grad, index, dim, src_shape):
    """The gradient of a scatter's ``src``: ``grad`` gathered at the index, zero elsewhere."""
    picked = gather(grad, dim, index)
    if tuple(picked.shape) == tuple(src_shape):
        return picked
    key = tuple(slice(0, n) for n in index.shape)
    return _index_backward(picked, shape=tuple(src_shape), key=key)


@_scatter.vjp
def _(ctx, grad, dim):
    (index,) = ctx.saved
    need_a, _, need_src = ctx.needs_input_grad
    return (_scatter_value(grad, index, dim=dim, value=0) if need_a else None, None,
            _src_grad(grad, index, dim, ctx.input_shapes[2]) if need_src else None)


@_scatter_value.vjp
def _(ctx, grad, dim, value):
    (index,) = ctx.saved
    return _scatter_value(grad, index, dim=dim, value=0), None


@_scatter_add.vjp
def _(ctx, grad, dim):
    (index,) = ctx.saved
    need_a, _, need_src = ctx.needs_input_grad
    return (grad if need_a else None, None,
            _src_grad(grad, index, dim, ctx.input_shapes[2]) if need_src else None)


def _check_scatter(input, dim, index, src, kernel=None, refused_kinds=""):
    """PyTorch's checks, in its order: ``dim`` within the input's rank; an integer index; a
    source of the input's dtype; then (for a non-empty index) ranks and sizes — see
    ``_check_scatter_shapes`` —, the refusal of an input of one of the ``refused_kinds`` by
    a ``kernel`` (that orders values: not complex ones), and the index's values inside
    ``dim``."""
    positions, shape = index._array, input._array.shape
    dim = _axis(dim, len(shape))  # a 0-d input takes -1 and 0
    if positions.size and positions.dtype not in (np.int32, np.int64):  # (an empty one may be
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")  # of any dtype)
    if isinstance(src, Tensor) and src._array.dtype != input._array.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if positions.size == 0:
        return dim
    _check_scatter_shapes(shape, dim, positions.shape, src._array.shape if isinstance(src, Tensor)
                          else None)
    _refuse_kinds(input, kernel, refused_kinds)
    size = _nonempty_size(shape, dim)
    outside = (positions < 0) | (positions >= size)
    if outside.any():
        raise RuntimeError(f"index {positions[outside].flat[0]} is out of bounds for dimension "
                           f"{dim} with size {size}")
    return dim


def _nonempty_rank(shape):
    """A rank as ATen's scatter checks count it: a 0-d tensor counts as 1-d."""
    return max(len(shape), 1)


def _nonempty_size(shape, d):
    """Size ``d`` of ``shape``, 1 for a 0-d tensor; past the rank, PyTorch's IndexError."""
    if not shape:
        return 1
    return shape[_dims_of(d, len(shape))[0]]


def _check_scatter_shapes(shape, dim, index_shape, src_shape):
    """ATen's: the index of the input's rank, no larger than the input outside ``dim`` nor than
    the source anywhere (the source's sizes are read up to the input's rank, so a source of lower
    rank fails with an IndexError there); a source of another rank than the index is refused."""
    rank = _nonempty_rank(shape)
    if rank != _nonempty_rank(index_shape):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    too_large = any(d != dim and _nonempty_size(index_shape, d) > _nonempty_size(shape, d)
                    for d in range(rank))
    if src_shape is None:
        if too_large:
            raise RuntimeError(f"Expected index {list(index_shape)} to be no larger than self "
                               f"{list(shape)} apart from dimension {dim}")
        return
    too_large = too_large or any(_nonempty_size(index_shape, d) > _nonempty_size(src_shape, d)
                                 for d in range(rank))
    same_rank = _nonempty_rank(src_shape) == _nonempty_rank(index_shape)
    if too_large and same_rank:
        raise RuntimeError(f"Expected index {list(index_shape)} to be no larger than self "
                           f"{list(shape)} apart from dimension {dim} and to be no larger size "
                           f"than src {list(src_shape)}")
    if not same_rank:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")


def _scatter_call(op, input, dim, index, src, value, reduce, apply):
    """``scatter`` (``op``: its name) with a source tensor (ScatterBackward0) or a number
    (ScatterBackward1), or accumulating into the input with ``reduce`` (checked after the
    tensors, as PyTorch does)."""
    if value is None and not isinstance(src, Tensor):
        src, value = None, src
    dim = _check_scatter(input, dim, index, src)
    if reduce is not None and reduce not in _LEGACY_REDUCTIONS:
        raise RuntimeError("reduce argument must be either add or multiply.")
    if src is None:
        value = checked_number(value, input._array.dtype)  # PyTorch's range check of a number
    if reduce is not None:
        return _legacy_reduce_call(op, input, dim, index, src, value, reduce, apply)
    if src is not None:
        return apply(_scatter, (index, src), {"dim": dim})
    value = np.array(value, dtype=input._array.dtype).item()
    return apply(_scatter_value, (index,), {"dim": dim, "value": value})


def _legacy_reduce_call(op, input, dim, index, src, value, reduce, apply):
    """The deprecated ``reduce=`` of scatter: a number is spread to the index's shape first."""
    if src is None:
        src = Tensor._make(np.full(index._array.shape, value, dtype=input._array.dtype))
    else:
        _warn_reduce_is_deprecated()
    return apply(_scatter_reduced, (index, src), {"dim": dim, "reduce": reduce, "op": op})


@functools.cache
def _warn_reduce_is_deprecated():
    """Once per process, as PyTorch's TORCH_WARN_ONCE."""
    warn_at_caller("The reduce argument of torch.scatter with Tensor src is deprecated and will "
                   "be removed in a future PyTorch release. Use torch.scatter_reduce instead for "
                   "more reduction options.")


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    return _scatter_call("scatter", input, dim, index, src, value, reduce,
                         lambda prim, others, params: prim(input, *others, **params))


def scatter_(input, dim, index, src=None, *, value=None, reduce=None):
    return _scatter_call("scatter_", input, dim, index, src, value, reduce,
                         lambda prim, others, params: apply_inplace(prim, input, others, params))


def scatter_add(input, dim, index, src):
    _require_tensor("scatter_add", "src", 4, src)
    dim = _check_scatter(input, dim, index, src)
    return _scatter_add(input, index, src, dim=dim)


def scatter_add_(input, dim, index, src):
    _require_tensor("scatter_add_", "src", 3, src)
    dim = _check_scatter(input, dim, index, src)
    return apply_inplace(_scatter_add, input, (index, src), {"dim": dim})


@primitive("index_add", node="IndexAddBackward0", group=OTHER, saves=("index",),
           nondifferentiable=("index",))
def _index_add(a, index, source, *, dim, alpha):
    out = a.copy()
    target = out.reshape(1) if out.ndim == 0 else out  # a scalar is indexed as one element
    if target.size:  # (an empty matrix's indices are not read)
        np.add.at(target, (slice(None),) * dim + (index,), source * alpha if alpha != 1 else source)
    return out


@_index_add.vjp
def _(ctx, grad, dim, alpha):
    (index,) = ctx.saved
    need_a, _, need_source = ctx.needs_input_grad
    picked = index_select(grad, dim, index) if need_source else None
    return (grad if need_a else None, None,
            (picked * alpha if alpha != 1 else picked) if need_source else None)


def _check_index_func(op, input, dim, index, source):
    """PyTorch's shared checks of index_add and index_reduce (its ``index_func_meta``), in its
    order, their messages naming ``op``; returns ``dim`` made non-negative and the index as a
    vector (a 0-d one is one index). The range of the index values is left to the caller."""
    dim = _dims_of(dim, max(input._array.ndim, 1))[0]  # a scalar has one dimension here
    positions, shape, source_shape = index._array, input._array.shape, source._array.shape
    if positions.ndim > 1:
        raise IndexError(f"{op}(): Index is supposed to be a vector, but got dim: "
                         f"{positions.ndim} with type: {_type_name(index)} and size: "
                         f"{list(positions.shape)}")
    if positions.dtype not in (np.int32, np.int64):
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index but got: "
                           f"{_type_name(index)}")
    if source._array.dtype != input._array.dtype:
        raise RuntimeError(f"{op}(): self ({_type_name(input)}) and source "
                           f"({_type_name(source)}) must have the same scalar type")
    if dim and dim >= len(source_shape):
        raise RuntimeError(f"{op}(): Indexing dim {dim} is out of bounds of the source "
                           f"tensor with dim {len(source_shape)}")
    if positions.size != (source_shape[dim] if source_shape else 1):
        raise RuntimeError(f"{op}(): Number of indices ({positions.size}) should be equal "
                           f"to source.size(dim): ({source.size(dim)}), for dim: {dim}")
    if source_shape and shape:  # a scalar on either side is compared whole
        shape, source_shape = _without_dim(shape, dim), _without_dim(source_shape, dim)
    if source_shape != shape:
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(input._array.shape)} "
                           f"source.shape = {list(source._array.shape)}")
    return dim, index.reshape(1) if positions.ndim == 0 else index


def _require_index_tensor(function, index):
    """The argument parser's check, naming the function called (``index_add`` or ``index_add_``)."""
    _require_tensor(function, "index", 2, index)


def _require_tensor(function, name, position, value):
    """The argument parser's TypeError for a ``Tensor`` parameter given something else."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be Tensor, "
                        f"not {type(value).__name__}")


def _indices_outside(input, dim, index):
    """The index values outside ``input``'s size along ``dim`` (negative ones do not wrap)."""
    size = input._array.shape[dim] if input._array.ndim else 1
    positions = index._array
    return positions[(positions < 0) | (positions >= size)]


def _check_index_add(input, dim, index, source, alpha):
    """index_add's checks: the shared ones, then its range check, which an empty matrix or more
    skips and whose message is the scatter_add kernel's when PyTorch adds through it (an int64
    index, an alpha of 1, along the first or last dimension of a matrix or more)."""
    dim, index = _check_index_func("index_add_", input, dim, index, source)
    ndim = input._array.ndim
    if ndim > 1 and not input._array.size:
        return dim, index
    outside = _indices_outside(input, dim, index)
    if outside.size:
        if ndim > 1 and dim in (0, ndim - 1) and alpha == 1 and index._array.dtype == np.int64:
            raise RuntimeError(f"index {outside[0]} is out of bounds for dimension {dim} with "
                               f"size {input._array.shape[dim]}")
        raise IndexError("index out of range in self")
    return dim, index


def _without_dim(shape, dim):
    return shape[:dim] + shape[dim + 1:]


def index_add(input, dim, index, source, *, alpha=1):
    _require_index_tensor("index_add", index)
    dim, index = _check_index_add(input, dim, index, source, alpha)
    alpha = checked_number(alpha, input._array.dtype)  # an integer tensor truncates it
    return _index_add(input, index, source, dim=dim, alpha=alpha)


def index_add_(input, dim, index, source, *, alpha=1):
    _require_index_tensor("index_add_", index)
    dim, index = _check_index_add(input, dim, index, source, alpha)
    alpha = checked_number(alpha, input._array.dtype)
    return apply_inplace(_index_add, input, (index, source), {"dim": dim, "alpha": alpha})


@primitive("index_put_accumulate", node="IndexPutBackward0", group=OTHER)
def _index_put_accumulate(a, values, *, key):
    out = a.copy()
    np.add.at(out, key, values)
    return out


_index_put_accumulate.inplace = lambda out, values, *, key: np.add.at(out, key, values)


@_index_put_accumulate.vjp
def _(ctx, grad, key):
    need_a, need_values = ctx.needs_input_grad
    return (grad if need_a else None,
            sum_to(getitem(grad, key), ctx.input_shapes[1]) if need_values else None)


def _index_put_key(name, input, indices, values):
    """The numpy key of ``index_put``'s index tensors, checked as PyTorch checks them: a tuple
    (or list) of tensors, integer or mask dtypes, masks of the input's shape, broadcasting
    together (their values, and how ``values`` broadcasts, are for the caller to check)."""
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"{name}(): argument 'indices' (position 1) must be tuple of Tensors, "
                        f"not {type(indices).__name__}")
    if not isinstance(values, Tensor):
        raise TypeError(f"{name}(): argument 'values' (position 2) must be Tensor, not "
                        f"{type(values).__name__}")
    check_tensor_elements(indices)
    shape = input._array.shape
    parts, given = _key_parts(tuple(indices))
    parts = [np.asarray(p) if type(p) is int else p for p in parts]  # 0-d tensors index too
    if given > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)} (got {given})")
    _parse_key(shape, parts, given, check_bounds=False)
    return tuple(np.asarray(p) for p in parts)


def _check_accumulated_put(input, key, values):
    """``index_put_``'s checks when it adds up (no mask fill then): the values' shape and dtype,
    then the index values."""
    check_put_shape(values, input._array.shape, key)
    if values._array.dtype != input._array.dtype:
        raise RuntimeError(index_put_dtype_error(input, values))
    check_index_bounds(input._array.shape, key)


def index_put(input, indices, values, accumulate=False):
    """``index_put_`` into a copy of ``input``, recorded as PyTorch records it: one
    IndexPutBackward0 node of ``input`` and ``values``, no clone in between."""
    key = _index_put_key("index_put", input, indices, values)
    if accumulate:
        _check_accumulated_put(input, key, values)
        return _index_put_accumulate(input, values, key=key)
    _check_index_put(input, input._array.shape, key, values)
    cast = values  # (a one-element value filled through a mask may have another dtype)
    if values._array.dtype != input._array.dtype:
        cast = to_dtype(values, input.dtype)
    result = _index_put(input, cast, key=([], key))  # (no view steps: index tensors only)
    _check_recordable(input, (values,))
    return result


def index_put_(input, indices, values, accumulate=False):
    """``input[indices] = values``, or ``+=`` with repeated indices adding up (``accumulate``)."""
    key = _index_put_key("index_put_", input, indices, values)
    if not accumulate:
        # checked here: the assignment drops the values' leading ones and selects with 0-d indices
        _check_index_put(input, input._array.shape, key, values)
        input[tuple(indices)] = values
        return input
    _check_accumulated_put(input, key, values)
    return apply_inplace(_index_put_accumulate, input, (values,), {"key": key})


# ------------------------------------------------------ scatter_reduce, index_reduce, index_copy

_REDUCE_UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum,
                  "amin": np.minimum}


def _reduce_identity(reduce, dtype):
    """The start value of a position whose own value is left out (``include_self=False``)."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    if dtype.kind == "b":
        return reduce == "amin"
    limits = np.iinfo(dtype)
    return limits.min if reduce == "amax" else limits.max


def _scatter_reduce_into(out, key, values, reduce, include_self):
    """Reduce ``values`` into ``out[key]`` in place, as PyTorch's scatter_reduce: a mean divides
    by the number of values (and the position's own value, with ``include_self``), integers
    rounding down."""
    if not include_self:
        out[key] = _reduce_identity(reduce, out.dtype)
    _REDUCE_UFUNCS[reduce].at(out, key, values)
    if reduce == "mean":
        counts = np.full(out.shape, int(include_self), np.int64)
        np.add.at(counts, key, 1)
        counts = np.maximum(counts, 1)
        if out.dtype.kind in "iu":
            np.floor_divide(out, counts, out=out, casting="unsafe")
        else:
            np.divide(out, counts, out=out, casting="unsafe")


@primitive("scatter_reduce", node="ScatterReduceBackward0", group=OTHER,
           saves=("a", "index", "src", "out"), nondifferentiable=("index",))
def _scatter_reduce(a, index, src, *, dim, reduce, include_self):
    out = a.copy()
    _scatter_reduce_into(*_scatter_site(out, index, dim), _leading(src, index), reduce,
                         include_self)
    return out


_scatter_reduce.inplace = lambda out, index, src, *, dim, reduce, include_self: (
    _scatter_reduce_into(*_scatter_site(out, index, dim), _leading(src, index), reduce,
                         include_self))


def _index_expanded(index, dim, shape):
    """index_reduce's vector ``index`` as a scatter index of the source's ``shape``."""
    view = [1] * len(shape)
    view[dim] = -1
    return np.broadcast_to(index.reshape(view), shape)


@primitive("index_reduce", node="IndexReduceBackward0", group=OTHER,
           saves=("a", "index", "source", "out"), nondifferentiable=("index",))
def _index_reduce(a, index, source, *, dim, reduce, include_self):
    return _scatter_reduce.forward(a, _index_expanded(index, dim, source.shape), source,
                                   dim=dim, reduce=reduce, include_self=include_self)


_index_reduce.inplace = lambda out, index, source, *, dim, reduce, include_self: (
    _scatter_reduce.inplace(out, _index_expanded(index, dim, source.shape), source, dim=dim,
                            reduce=reduce, include_self=include_self))


def _scatter_reduce_grads(ctx, grad, index, dim, reduce, include_self):
    """PyTorch's scatter_reduce_backward: the gradients of ``self`` and ``src``.

    A mean spreads the gradient over the values it averaged; amax/amin share it evenly among
    the values equal to the result (the position's own value counted even when left out, as
    PyTorch does); a product divides the result by each factor, with a single zero factor's
    gradient the product of the others."""
    a, _, src, result = ctx.saved
    dtype = grad._array.dtype
    need_self, _, need_src = ctx.needs_input_grad
    scatter = functools.partial(_scatter_reduce, dim=dim, reduce=reduce,
                                include_self=include_self)
    if reduce == "sum":
        grad_self, grad_src = grad, gather(grad, dim, index)
    elif reduce == "mean":
        counts = _scatter_add(Tensor._make(np.full(grad.shape, float(include_self), dtype)),
                              index, Tensor._make(np.ones(index.shape, dtype)), dim=dim)
        counts = masked_fill(counts, counts == 0, 1)
        grad_self, grad_src = grad / counts, gather(grad, dim, index) / gather(counts, dim, index)
    elif reduce in ("amax", "amin"):
        value = gather(result, dim, index)
        self_is_result, src_is_result = a == result, _leading_tensor(src, index) == value
        shares = _scatter_add(self_is_result.to(grad.dtype), index, src_is_result.to(grad.dtype),
                              dim=dim)
        distributed = grad / shares
        # products, not ``where``: a negative gradient leaves -0.0 (and a nan result a nan)
        grad_self = self_is_result * distributed
        grad_src = src_is_result * gather(distributed, dim, index)
    else:  # prod
        masked_self = masked_fill(a, a == 0, 1)
        grad_self = grad * scatter(masked_self, index, src) / masked_self
        src = _leading_tensor(src, index)
        src_zero = src == 0
        zeros_there = _scatter_add(Tensor._make(np.zeros(a.shape, dtype)), index,
                                   src_zero.to(grad.dtype), dim=dim)
        single_zero = src_zero & (gather(zeros_there, dim, index) == 1)
        others = scatter(a, index, masked_fill(src, single_zero, 1))
        grad_src = where(single_zero, gather(grad * others, dim, index),
                         gather(grad * result, dim, index) / masked_fill(src, src_zero, 1))
    if not include_self:
        grad_self = _scatter_value(grad_self, index, dim=dim, value=0)
    return grad_self if need_self else None, grad_src if need_src else None


def _leading_tensor(src, index):
    """The part of ``src`` the index covers, as a tensor."""
    if tuple(src.shape) == tuple(index.shape):
        return src
    return getitem(src, tuple(slice(0, n) for n in index.shape))


@_scatter_reduce.vjp
def _(ctx, grad, dim, reduce, include_self):
    index = ctx.saved[1]
    grad_self, grad_src = _scatter_reduce_grads(ctx, grad, index, dim, reduce, include_self)
    if grad_src is not None and tuple(grad_src.shape) != tuple(ctx.input_shapes[2]):
        key = tuple(slice(0, n) for n in index.shape)
        grad_src = _index_backward(grad_src, shape=tuple(ctx.input_shapes[2]), key=key)
    return grad_self, None, grad_src


@_index_reduce.vjp
def _(ctx, grad, dim, reduce, include_self):
    index = ctx.saved[1]
    if not include_self and index._array.dtype != np.int64:  # PyTorch's backward index_fills
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    expanded = Tensor._make(np.ascontiguousarray(
        _index_expanded(index._array, dim, ctx.input_shapes[2])))
    grad_self, grad_src = _scatter_reduce_grads(ctx, grad, expanded, dim, reduce, include_self)
    return grad_self, None, grad_src


_SCATTER_REDUCTIONS = tuple(_REDUCE_UFUNCS)
# The dtype kinds each reduction's CPU kernel refuses: ordering complex numbers, averaging bools.
_SCATTER_REFUSED_KINDS = {"amax": "c", "amin": "c", "mean": "b"}


def _refuse_kinds(input, kernel, kinds):
    """``kernel``'s NotImplementedError for an input whose dtype kind is one of ``kinds``."""
    if input._array.dtype.kind in kinds:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_type_name(input)}'")
_SCATTER_ALIASES = {"max": "amax", "min": "amin"}  # PyTorch's scatter_reduce takes both names


def _scatter_reduce_call(function, input, dim, index, src, reduce, include_self, apply):
    _require_tensor(function, "src", 4 if apply is _out_of_place else 3, src)
    reduce = _SCATTER_ALIASES.get(reduce, reduce)
    if reduce not in _SCATTER_REDUCTIONS:  # checked after the tensors, as PyTorch does
        _check_scatter(input, dim, index, src)
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    kernel = f"scatter_gather_tensor_cpu_reduce_{reduce}"
    refused = _SCATTER_REFUSED_KINDS.get(reduce, "")
    # without self, PyTorch checks the index's values before its kernel refuses the dtype
    dim = _check_scatter(input, dim, index, src, kernel, refused if include_self else "")
    _refuse_kinds(input, kernel, refused)
    return apply(_scatter_reduce, input, (index, src),
                 {"dim": dim, "reduce": reduce, "include_self": include_self})


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """``input`` with the ``src`` values reduced (sum, prod, mean, amax, amin) into the positions
    ``index`` names along ``dim``; ``include_self=False`` leaves their old values out."""
    return _scatter_reduce_call("scatter_reduce", input, dim, index, src, reduce, include_self,
                                _out_of_place)


def scatter_reduce_(input, dim, index, src, reduce, *, include_self=True):
    return _scatter_reduce_call("scatter_reduce_", input, dim, index, src, reduce, include_self,
                                apply_inplace)


def _check_index_copy(input, dim, index, source):
    """index_copy's checks, in PyTorch's order: a vector of int64 indices, one per slice of
    ``source`` along ``dim`` (a 0-d source is one slice), a source of the input's shape elsewhere;
    returns ``dim`` made non-negative."""
    op = "index_copy_"
    if not isinstance(index, Tensor):
        raise TypeError(f"{op}(): argument 'index' (position 2) must be Tensor, not "
                        f"{type(index).__name__}")
    dim = _axis(dim, input._array.ndim)
    positions, shape, source_shape = index._array, input._array.shape, source._array.shape
    if positions.ndim > 1:
        raise IndexError(f"{op}(): Index should have dimension 1 or 0 (got {positions.ndim})")
    if not source_shape and positions.size != 1:
        raise IndexError(f"{op}(): When source is scalar, index should have one element (got "
                         f"{positions.size})")
    if len(source_shape) != len(shape) and source_shape and shape:
        raise IndexError(f"{op}(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality ({len(source_shape)}),"
                         f" destination dimensionality ({len(shape)})")
    if positions.dtype != np.int64:
        raise RuntimeError(f"{op}(): Expected a long tensor for index, but got {_type_name(index)}")
    if source._array.dtype != input._array.dtype:
        raise RuntimeError(f"{op}(): self and source expected to have the same dtype, but got "
                           f"(self) {_type_name(input)} and (source) {_type_name(source)}")
    _check_copied_slices(shape, source_shape, dim)
    if source_shape and positions.size != source_shape[dim]:
        raise IndexError(f"{op}(): Number of indices ({positions.size}) should be equal to "
                         f"source.size(dim) ({source_shape[dim]})")
    size = shape[dim] if shape else 1
    outside = (positions < 0) | (positions >= size)  # negative indices do not wrap
    if outside.any():
        raise IndexError(f"{op}(): index {positions[outside].flat[0]} is out of bounds for "
                         f"dimension {dim} with size {size}")
    return dim


def _check_copied_slices(shape, source_shape, dim):
    """The slices either side of ``dim`` must match (printed as ATen prints a size vector)."""
    sliced, source_sliced = _without_dim(shape, dim), _without_dim(source_shape, dim)
    if sliced != source_sliced:
        raise RuntimeError("index_copy_(): Source/destination tensor must have same slice shapes. "
                           f"Destination slice shape: {' '.join(map(str, sliced))} at dimension "
                           f"{dim} and source slice shape: {' '.join(map(str, source_sliced))} at "
                           "dimension 0.")


def _type_name(tensor):
    """PyTorch's name of a tensor's scalar type in messages ("Float", "Long")."""
    return _LEGACY_TYPE_NAMES[tensor._array.dtype.name]


_INDEX_REDUCTIONS = ("prod", "mean", "amax", "amin")


def _index_reduce_call(input, dim, index, source, reduce, include_self, apply):
    if reduce not in _INDEX_REDUCTIONS:
        raise RuntimeError("index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    dim, index = _check_index_func("index_reduce_", input, dim, index, source)
    if not include_self:  # PyTorch first fills the indexed slices with index_fill_
        _check_fill_index(index._array, dim, input._array.shape[dim] if input._array.ndim else 1)
    if _indices_outside(input, dim, index).size:
        raise IndexError("index out of range in self")
    _warn_once("index_reduce() is in beta and the API may change at any time.")
    # the kernel that first meets the values: the one filling the identity, without self
    _refuse_kinds(input, "index_func_" if include_self else "index_reduce_func_exclude_input_init",
                  "bc")
    params = {"dim": dim, "reduce": reduce, "include_self": include_self}
    if not input._array.ndim:
        return _apply_as_vector(apply, _index_reduce, input, (index, source), params)
    return apply(_index_reduce, input, (index, source), params)


def _check_fill_index(positions, dim, size):
    """index_fill's range check of its index: each in ``[-size, size)``."""
    unfillable = positions[(positions < -size) | (positions >= size)]
    if unfillable.size:
        raise IndexError(f"index {unfillable[0]} is out of bounds for dimension {dim} with size "
                         f"{size}")


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """``input`` with the slices of ``source`` reduced into the slices ``index`` names."""
    _require_index_tensor("index_reduce", index)
    return _index_reduce_call(input, dim, index, source, reduce, include_self,
                              _out_of_place)


def index_reduce_(input, dim, index, source, reduce, *, include_self=True):
    _require_index_tensor("index_reduce_", index)
    return _index_reduce_call(input, dim, index, source, reduce, include_self, apply_inplace)


@primitive("index_copy", node="IndexCopyBackward0", group=OTHER, saves=("index",),
           nondifferentiable=("index",))
def _index_copy(a, index, source, *, dim):
    out = a.copy()
    _copy_into(out, index, source, dim)
    return out


def _copy_into(out, index, source, dim):
    out[(slice(None),) * dim + (index,)] = source


_index_copy.inplace = lambda out, index, source, *, dim: _copy_into(out, index, source, dim)


@_index_copy.vjp
def _(ctx, grad, dim):
    (index,) = ctx.saved
    need_self, _, need_source = ctx.needs_input_grad
    return (_index_fill(grad, index, dim=dim, value=0) if need_self else None, None,
            index_select(grad, dim, index).reshape(ctx.input_shapes[2]) if need_source else None)


def _index_copy_call(input, dim, index, source, apply):
    dim = _check_index_copy(input, dim, index, source)
    if not index._array.ndim:
        index = index.reshape(1)
    if not input._array.ndim:
        return _apply_as_vector(apply, _index_copy, input, (index, source), {"dim": 0})
    return apply(_index_copy, input, (index, source), {"dim": dim})


def _apply_as_vector(apply, prim, input, others, params):
    """``prim`` applied to a 0-d input and its one-element operands as vectors of that element,
    as the kernels index them."""
    vector = apply(prim, input.reshape(1), tuple(other.reshape(1) for other in others), params)
    return input if apply is apply_inplace else vector.reshape(())


def index_copy(input, dim, index, source):
    """``input`` with the slices ``index`` names along ``dim`` replaced by those of ``source``."""
    return _index_copy_call(input, dim, index, source,
                            _out_of_place)


def index_copy_(input, dim, index, source):
    return _index_copy_call(input, dim, index, source, apply_inplace)


# ------------------------------------------------------------------------- take, take_along_dim

@primitive("take", node="TakeBackward0", group=OTHER, saves=("index",),
           nondifferentiable=("index",))
def _take(a, index):
    return a.reshape(-1)[index]


@_take.vjp
def _(ctx, grad):
    """PyTorch's take_backward: ``grad`` added into zeros at the flat positions (a ``put``,
    PutBackward0 under create_graph)."""
    from .overwrite import _put  # (overwrite builds on this module)
    (index,) = ctx.saved
    zeros = Tensor._make(np.zeros(ctx.input_shapes[0], grad._array.dtype))
    return _put(zeros, index, grad, accumulate=True), None


def take(input, index):
    """The elements of ``input`` read as one flat vector at ``index`` (negative counting from
    the end), in ``index``'s shape."""
    if index._array.dtype != np.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{_type_name(index)}")
    size, positions = input._array.size, index._array
    if size == 0 and positions.size:
        raise IndexError("take(): tried to take from an empty tensor")
    outside = (positions < -size) | (positions >= size)
    if outside.any():
        raise IndexError(f"out of range: tried to access index {positions[outside].flat[0]} on a "
                         f"tensor of {size} elements.")
    return _take(input, index)


def take_along_dim(input, indices, dim=None):
    """``gather`` along ``dim`` with ``input`` and ``indices`` broadcast against each other;
    along a ``dim`` the indices count modulo its size (``-1`` is the last), as PyTorch's
    implementation wraps them. No ``dim``: on the flattened input, indices as ``gather``'s."""
    if dim is not None and input._array.ndim != indices._array.ndim:
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {input._array.ndim} dimensions for "
                           f"input, and {indices._array.ndim} dimensions for indices")
    if dim is None:
        return gather(input.reshape(-1), 0, indices.reshape(-1))
    if indices._array.dtype != np.int64:
        raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_type_name(indices)}")
    dim = _axis(dim, input._array.ndim)
    if input._array.ndim == 0:
        raise no_dimensions_error(dim)
    sized_as_indices = list(input._array.shape)  # PyTorch broadcasts this with the indices
    sized_as_indices[dim] = indices._array.shape[dim]
    try:
        shape = list(np.broadcast_shapes(sized_as_indices, indices._array.shape))
    except ValueError:
        stand_in = Tensor._make(np.broadcast_to(np.zeros((), np.bool_), sized_as_indices))
        raise RuntimeError(broadcast_error((stand_in, indices), {})) from None
    size = input._array.shape[dim]
    if size == 0 and indices._array.size:
        raise RuntimeError("ZeroDivisionError")  # PyTorch's wrapping divides by the size
    wrapped = Tensor._make(np.remainder(indices._array, max(size, 1)))
    input_shape, index_shape = list(shape), list(shape)
    input_shape[dim], index_shape[dim] = size, indices._array.shape[dim]
    return gather(input.expand(input_shape), dim, wrapped.expand(index_shape))
