"""Shape and movement primitives: views, indexing, concatenation.

View primitives return numpy views, so a view and its base share memory and (through the dispatcher)
one version counter, as in PyTorch.
"""
import builtins
import math

import numpy as np

from ..tensor import Tensor
from .broadcast import expand, sum_to
from .registry import OTHER, VIEW, primitive

__all__ = ["view", "reshape", "flatten", "unflatten", "transpose", "swapaxes", "t", "permute",
           "numpy_T", "squeeze", "unsqueeze", "getitem", "cat", "concat", "concatenate", "stack",
           "split", "chunk", "unbind", "narrow", "movedim", "index_select", "gather"]


# ------------------------------------------------------------------------------- reshaping

@primitive("view", node="ViewBackward0", group=VIEW, is_view=True)
def _reshape(a, shape):
    return a.reshape(shape)


@_reshape.vjp
def _(ctx, grad, shape):
    return _reshape(grad.contiguous(), shape=ctx.input_shapes[0])


def _infer_shape(shape, numel):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    shape = tuple(builtins.int(s) for s in shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def view(input, *shape):
    shape = _infer_shape(shape, input._array.size)
    out = _reshape(input, shape=shape)
    if input._array.size and not np.may_share_memory(out._array, input._array):
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    return out


def reshape(input, *shape):
    return _reshape(input, shape=_infer_shape(shape, input._array.size))


def flatten(input, start_dim=0, end_dim=-1):
    shape = input._array.shape
    if not shape:
        return reshape(input, 1)
    start, end = start_dim % len(shape), end_dim % len(shape)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    return reshape(input, shape[:start] + (math.prod(shape[start:end + 1]),) + shape[end + 1:])


def unflatten(input, dim, sizes):
    shape = input._array.shape
    dim %= len(shape)
    sizes = _infer_shape(tuple(sizes), shape[dim])
    return reshape(input, shape[:dim] + sizes + shape[dim + 1:])


# ---------------------------------------------------------------------------- transposes

@primitive("permute", node="PermuteBackward0", group=VIEW, is_view=True)
def _permute(a, dims):
    return a.transpose(dims)


@primitive("transpose", node="TransposeBackward0", group=VIEW, is_view=True)
def _transpose(a, dims):
    return a.transpose(dims)


@primitive("t", node="TBackward0", group=VIEW, is_view=True)
def _t(a, dims):
    return a.transpose(dims)


@_permute.vjp
@_transpose.vjp
@_t.vjp
def _(ctx, grad, dims):
    return _permute(grad, dims=tuple(np.argsort(dims)))


def _axis(dim, ndim):
    rank = builtins.max(ndim, 1)
    if not -rank <= dim < rank:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, "
                         f"{rank - 1}], but got {dim})")
    return dim % rank


def transpose(input, dim0, dim1):
    ndim = input._array.ndim
    dims = list(range(ndim))
    if ndim:
        d0, d1 = _axis(dim0, ndim), _axis(dim1, ndim)
        dims[d0], dims[d1] = dims[d1], dims[d0]
    return _transpose(input, dims=tuple(dims))


swapaxes = swapdims = transpose


def t(input):
    if input._array.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{input._array.ndim}D")
    return _t(input, dims=tuple(reversed(range(input._array.ndim))))


def permute(input, *dims):
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = dims[0]
    ndim = input._array.ndim
    dims = tuple(_axis(d, ndim) for d in dims)
    if sorted(dims) != list(range(ndim)):
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {ndim} is not equal to len(dims) = {len(dims)}"
                           if len(dims) != ndim else "permute(): duplicate dims are not allowed.")
    return _permute(input, dims=dims)


def numpy_T(input):
    return _permute(input, dims=tuple(reversed(range(input._array.ndim))))


def movedim(input, source, destination):
    ndim = input._array.ndim
    order = [d for d in range(ndim) if d != _axis(source, ndim)]
    order.insert(_axis(destination, ndim), _axis(source, ndim))
    return _permute(input, dims=tuple(order))


# ----------------------------------------------------------------------- squeeze, unsqueeze

@primitive("squeeze", node="SqueezeBackward0", group=VIEW, is_view=True)
def _squeeze_all(a, shape):
    return a.reshape(shape)


@primitive("squeeze_dim", node="SqueezeBackward1", group=VIEW, is_view=True)
def _squeeze_dim(a, shape):
    return a.reshape(shape)


@primitive("unsqueeze", node="UnsqueezeBackward0", group=VIEW, is_view=True)
def _unsqueeze(a, shape):
    return a.reshape(shape)


@_squeeze_all.vjp
@_squeeze_dim.vjp
@_unsqueeze.vjp
def _(ctx, grad, shape):
    return _reshape(grad, shape=ctx.input_shapes[0])


def squeeze(input, dim=None):
    shape = input._array.shape
    if dim is None:
        return _squeeze_all(input, shape=tuple(s for s in shape if s != 1))
    dims = {_axis(d, len(shape)) for d in ((dim,) if isinstance(dim, int) else dim)}
    return _squeeze_dim(input, shape=tuple(s for i, s in enumerate(shape)
                                           if not (i in dims and s == 1)))


def unsqueeze(input, dim):
    shape = list(input._array.shape)
    shape.insert(_axis(dim, len(shape) + 1), 1)
    return _unsqueeze(input, shape=tuple(shape))


# -------------------------------------------------------------------------------- indexing

def _numpy_key(key):
    """An indexing key with tensors replaced by numpy arrays; a tuple of parts always."""
    if not isinstance(key, tuple):
        key = (key,)
    parts = []
    for part in key:
        if isinstance(part, Tensor):
            part = part._array
        elif isinstance(part, list):
            part = np.asarray(part)
        if isinstance(part, np.ndarray) and part.dtype.kind == "f":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        parts.append(part)
    return tuple(parts)


def _is_basic(key):
    return builtins.all(part is None or part is Ellipsis or isinstance(part, (int, slice))
                        for part in key)


def _index_forward(a, key):
    return a[key]


_select = primitive("select", node="SelectBackward0", group=VIEW, is_view=True)(_index_forward)
_slice = primitive("slice", node="SliceBackward0", group=VIEW, is_view=True)(_index_forward)
_index = primitive("index", node="IndexBackward0", group=OTHER)(_index_forward)


@_select.vjp
@_slice.vjp
@_index.vjp
def _(ctx, grad, key):
    return _index_backward(grad, shape=ctx.input_shapes[0], key=key)


@primitive("index_backward", node="IndexPutBackward0", group=OTHER)
def _index_backward(grad, shape, key):
    """Scatter-add ``grad`` into zeros of ``shape`` at ``key`` (repeated indices add up)."""
    out = np.zeros(shape, dtype=grad.dtype)
    if _is_basic(key):
        out[key] = grad
    else:
        np.add.at(out, key, grad)
    return out


@_index_backward.vjp
def _(ctx, grad, shape, key):
    return _index_forward_op(grad, key)


def _index_forward_op(input, key):
    if _is_basic(key):
        only_ints = builtins.all(isinstance(part, int) for part in key)
        return (_select if only_ints else _slice)(input, key=key)
    return _index(input, key=key)


def getitem(input, key):
    key = _numpy_key(key)
    try:
        return _index_forward_op(input, key)
    except IndexError as exc:
        raise IndexError(_index_error(input, key, exc)) from None


def _index_error(input, key, exc):
    for dim, part in enumerate(p for p in key if p is not None and p is not Ellipsis):
        if isinstance(part, int) and dim < input._array.ndim:
            size = input._array.shape[dim]
            if not -size <= part < size:
                return f"index {part} is out of bounds for dimension {dim} with size {size}"
    return str(exc)


@primitive("index_put", node="CopySlices", group=OTHER)
def _index_put(a, value, key):
    out = a.copy()
    out[key] = value
    return out


@_index_put.vjp
def _(ctx, grad, key):
    need_a, need_value = ctx.needs_input_grad
    grad_a = grad_value = None
    if need_a:
        grad_a = _index_put(grad, _zeros_of(grad, ()), key=key)
    if need_value:
        grad_value = sum_to(_index_forward_op(grad, key), ctx.input_shapes[1])
    return grad_a, grad_value


def _zeros_of(like, shape):
    return Tensor._make(np.zeros(shape, dtype=like._array.dtype))


def _inplace_index_put(a, value, key):
    a[key] = value


_index_put.inplace = _inplace_index_put


def setitem(input, key, value):
    """``input[key] = value``, recorded as PyTorch's CopySlices when autograd is involved."""
    from .inplace import apply_inplace
    from .operands import as_tensor_operand
    value = as_tensor_operand(value)
    if value._array.dtype != input._array.dtype:
        value = value.to(input.dtype)
    apply_inplace(_index_put, input, (value,), {"key": _numpy_key(key)})


def index_select(input, dim, index):
    key = [slice(None)] * input._array.ndim
    key[_axis(dim, input._array.ndim)] = index._array
    return _index(input, key=tuple(key))


def gather(input, dim, index):
    """``out[i][j] = input[index[i][j]][j]`` (for dim 0), as an advanced-indexing primitive."""
    dim = _axis(dim, input._array.ndim)
    grids = np.indices(index._array.shape, sparse=True)
    key = tuple(index._array if d == dim else grids[d] for d in range(input._array.ndim))
    return _index(input, key=key)


def narrow(input, dim, start, length):
    key = [slice(None)] * input._array.ndim
    key[_axis(dim, input._array.ndim)] = slice(start, start + length)
    return _slice(input, key=tuple(key))


# ---------------------------------------------------------------------------- cat, stack

@primitive("cat", node="CatBackward0", group=OTHER)
def _cat(*arrays, dim):
    return np.concatenate(arrays, axis=dim)


@_cat.vjp
def _(ctx, grad, dim):
    grads, start = [], 0
    for needed, shape in zip(ctx.needs_input_grad, ctx.input_shapes):
        stop = start + shape[dim]
        key = (slice(None),) * dim + (slice(start, stop),)
        grads.append(_slice(grad, key=key) if needed else None)
        start = stop
    return tuple(grads)


@primitive("stack", node="StackBackward0", group=OTHER)
def _stack(*arrays, dim):
    return np.stack(arrays, axis=dim)


@_stack.vjp
def _(ctx, grad, dim):
    return tuple(_select(grad, key=(slice(None),) * dim + (i,)) if needed else None
                 for i, needed in enumerate(ctx.needs_input_grad))


def _same_dtype(tensors, name):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError(f"{name}(): expected a non-empty list of Tensors")
    from .. import dtypes
    common = dtypes.result_type(*tensors)
    return [t if t._array.dtype == common.numpy else t.to(common) for t in tensors]


def cat(tensors, dim=0):
    tensors = _same_dtype(tensors, "torch.cat")
    ndim = builtins.max(t._array.ndim for t in tensors)
    dim = _axis(dim, ndim)
    first = tensors[0]._array.shape
    for i, t in enumerate(tensors[1:], 1):
        shape = t._array.shape
        if len(shape) != len(first):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {len(first)} "
                               f"and {len(shape)}")
        for d, (expected, got) in enumerate(zip(first, shape)):
            if d != dim and expected != got:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {dim}. Expected size "
                    f"{expected} but got size {got} for tensor number {i} in the list.")
    return _cat(*tensors, dim=dim)


concat = concatenate = cat


def stack(tensors, dim=0):
    tensors = _same_dtype(tensors, "stack")
    first = tensors[0]._array.shape
    for i, t in enumerate(tensors[1:], 1):
        if t._array.shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(first)} "
                               f"at entry 0 and {list(t._array.shape)} at entry {i}")
    return _stack(*tensors, dim=_axis(dim, len(first) + 1))


def split(input, split_size_or_sections, dim=0):
    dim = _axis(dim, input._array.ndim)
    size = input._array.shape[dim]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        bounds = [(s, builtins.min(s + step, size)) for s in range(0, size, step)] or [(0, 0)]
    else:
        edges = np.cumsum([0, *split_size_or_sections])
        if edges[-1] != size:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} "
                               f"(input tensor's size at dimension {dim}), but got split_sizes="
                               f"{list(split_size_or_sections)}")
        bounds = list(zip(edges[:-1].tolist(), edges[1:].tolist()))
    prefix = (slice(None),) * dim
    return tuple(_slice(input, key=prefix + (slice(a, b),)) for a, b in bounds)


def chunk(input, chunks, dim=0):
    size = input._array.shape[_axis(dim, input._array.ndim)]
    return split(input, builtins.max(1, -(-size // chunks)), dim)


def unbind(input, dim=0):
    dim = _axis(dim, input._array.ndim)
    prefix = (slice(None),) * dim
    return tuple(_select(input, key=prefix + (i,)) for i in range(input._array.shape[dim]))


def expand_as(input, other):
    return expand(input, other._array.shape)
