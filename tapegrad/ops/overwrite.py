"""Out-of-place writes of one tensor into part of a copy of another: select_scatter,
slice_scatter, diagonal_scatter (the inverses of select, slicing and diagonal, which functional
code and PyTorch's decompositions use instead of an in-place write), and put / put_ (at flat
indices, as ``take`` reads them).

Each is a primitive: the gradient of the tensor written into is the incoming one with the
written part zeroed (the same write, of zeros), that of the written values is the part read back.
"""
import numpy as np

from ..autograd import grad_mode
from ..memory_format import _element_strides, _empty_strided
from ..tensor import _LEGACY_TYPE_NAMES
from .creation import zeros
from .inplace import apply_inplace
from .layout import diagonal
from .registry import OTHER, primitive
from .scatter import take
from .shape import getitem, select

__all__ = ["select_scatter", "slice_scatter", "diagonal_scatter", "put", "put_"]


def _select_key(dim, index):
    return (slice(None),) * dim + (index,)


def _slice_key(dim, start, end, step):
    return (slice(None),) * dim + (slice(start, end, step),)


def _copy_with_strides(a):
    """A copy of ``a`` with ``a``'s strides, as PyTorch's scatter ops copy their input (the
    memory it spans, gaps included); one that overlaps itself (a stride 0) is copied row-major."""
    strides = _element_strides(a)
    if any(n > 1 and s <= 0 for n, s in zip(a.shape, strides)):
        return a.copy()
    out = _empty_strided(a.shape, strides, a.dtype)
    out[...] = a
    return out


def _write_diagonal(out, src, offset, dim1, dim2):
    """``src`` into the diagonal ``diagonal(out, offset, dim1, dim2)`` (which numpy only reads)
    of the writable view with the two dimensions last."""
    matrices = np.moveaxis(out, (dim1, dim2), (-2, -1))
    length = src.shape[-1]
    steps = np.arange(length)
    rows, cols = (steps, steps + offset) if offset >= 0 else (steps - offset, steps)
    matrices[..., rows, cols] = src


@primitive("select_scatter", node="SelectScatterBackward0", group=OTHER)
def _select_scatter(a, src, *, dim, index):
    out = _copy_with_strides(a)
    out[_select_key(dim, index)] = src
    return out


@_select_scatter.vjp
def _(ctx, grad, dim, index):
    need_a, need_src = ctx.needs_input_grad
    return (_select_scatter(grad, zeros(ctx.input_shapes[1], dtype=grad.dtype), dim=dim,
                            index=index) if need_a else None,
            select(grad, dim, index) if need_src else None)


@primitive("slice_scatter", node="SliceScatterBackward0", group=OTHER)
def _slice_scatter(a, src, *, dim, start, end, step):
    out = _copy_with_strides(a)
    out[_slice_key(dim, start, end, step)] = src
    return out


@_slice_scatter.vjp
def _(ctx, grad, dim, start, end, step):
    need_a, need_src = ctx.needs_input_grad
    return (_slice_scatter(grad, zeros(ctx.input_shapes[1], dtype=grad.dtype), dim=dim,
                           start=start, end=end, step=step) if need_a else None,
            getitem(grad, _slice_key(dim, start, end, step)) if need_src else None)


@primitive("diagonal_scatter", node="DiagonalScatterBackward0", group=OTHER)
def _diagonal_scatter(a, src, *, offset, dim1, dim2):
    out = _copy_with_strides(a)
    _write_diagonal(out, src, offset, dim1, dim2)
    return out


@_diagonal_scatter.vjp
def _(ctx, grad, offset, dim1, dim2):
    need_a, need_src = ctx.needs_input_grad
    return (_diagonal_scatter(grad, zeros(ctx.input_shapes[1], dtype=grad.dtype), offset=offset,
                              dim1=dim1, dim2=dim2) if need_a else None,
            diagonal(grad, offset, dim1, dim2) if need_src else None)


def _scatter_into(input, src, part, prim, params):
    """``prim`` after PyTorch's checks: ``part`` (the view that is overwritten, which also checks
    the arguments) must have ``src``'s shape; ``src`` takes ``input``'s dtype."""
    if part.shape != src.shape:
        raise RuntimeError("expected src to have a size equal to the slice of self. src size = "
                           f"{list(src.shape)}, slice size = {list(part.shape)}")
    if src._array.dtype != input._array.dtype:
        src = src.to(input.dtype)
    return prim(input, src, **params)


def _view_of(view, *args):
    with grad_mode.no_grad():
        return view(*args)


def select_scatter(input, src, dim, index):
    """``input`` with ``src`` in place of ``input.select(dim, index)``."""
    part = _view_of(select, input, dim, index)
    dim = dim % input._array.ndim
    index = index % input._array.shape[dim]
    return _scatter_into(input, src, part, _select_scatter, {"dim": dim, "index": index})


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    """``input`` with ``src`` in place of the slice ``start:end:step`` along ``dim``."""
    dim = dim % max(input._array.ndim, 1)
    part = _view_of(getitem, input, _slice_key(dim, start, end, step))
    start, end, step = slice(start, end, step).indices(input._array.shape[dim])
    return _scatter_into(input, src, part, _slice_scatter,
                         {"dim": dim, "start": start, "end": end, "step": step})


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """``input`` with ``src`` in place of ``input.diagonal(offset, dim1, dim2)``."""
    part = _view_of(diagonal, input, offset, dim1, dim2)
    ndim = input._array.ndim
    return _scatter_into(input, src, part, _diagonal_scatter,
                         {"offset": offset, "dim1": dim1 % ndim, "dim2": dim2 % ndim})


@primitive("put", node="PutBackward0", group=OTHER, saves=("index",),
           nondifferentiable=("index",))
def _put(a, index, source, *, accumulate):
    out = a.copy()
    _put_into(out, index, source, accumulate=accumulate)
    return out


def _put_into(out, index, source, *, accumulate):
    flat = out.reshape(-1)  # a view: ``out`` is contiguous
    if accumulate:
        np.add.at(flat, index.reshape(-1), source.reshape(-1))
    else:
        flat[index.reshape(-1)] = source.reshape(-1)


@_put.vjp
def _(ctx, grad, accumulate):
    (index,) = ctx.saved
    need_a, _, need_source = ctx.needs_input_grad
    grad_a = None
    if need_a:
        grad_a = grad if accumulate else _put(
            grad, index, zeros(ctx.input_shapes[2], dtype=grad.dtype), accumulate=False)
    return (grad_a, None,
            take(grad, index).reshape(ctx.input_shapes[2]) if need_source else None)


def _put_call(input, index, source, accumulate, apply):
    if index._array.dtype != np.int64:
        raise RuntimeError("put_(): Expected a long tensor for index, but got "
                           f"{_LEGACY_TYPE_NAMES[index._array.dtype.name]}")
    if source._array.dtype != input._array.dtype:
        raise RuntimeError("put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {_LEGACY_TYPE_NAMES[input._array.dtype.name]} and "
                           f"source.dtype = {_LEGACY_TYPE_NAMES[source._array.dtype.name]}")
    if source._array.size != index._array.size:
        raise IndexError("put_(): Expected source and index to have the same number of elements, "
                         f"but got source.numel() = {source._array.size}, index.numel() = "
                         f"{index._array.size}")
    size, positions = input._array.size, index._array
    if size == 0 and positions.size:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    outside = (positions < -size) | (positions >= size)
    if outside.any():
        raise IndexError(f"out of range: tried to access index {positions[outside].flat[0]} on a "
                         f"tensor of {size} elements.")
    return apply(_put, input, (index, source), {"accumulate": bool(accumulate)})


def put(input, index, source, accumulate=False):
    """A copy of ``input`` with ``source`` written at the flat positions ``index`` (added there
    with ``accumulate``)."""
    return _put_call(input, index, source, accumulate, lambda prim, a, others, params:
                     prim(a, *others, **params))


def put_(input, index, source, accumulate=False):
    return _put_call(input, index, source, accumulate, apply_inplace)
