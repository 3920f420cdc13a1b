"""Shape and movement primitives: views, indexing, concatenation.

View primitives return numpy views, so a view and its base share memory and (through the dispatcher)
one version counter, as in PyTorch.
"""
import builtins
import math
import numbers
import operator

import numpy as np

from .. import memory_format
from .._warnings import warn_at_caller
from ..autograd import grad_mode
from ..tensor import (_LEGACY_TYPE_NAMES, VIEW_OF_LEAF_INPLACE_ERROR, Tensor,
                      _contiguous_strides)
from .broadcast import expand, sum_to
from .creation import _index as _as_int, int_list
from .operands import check_tensor_elements, checked_number, type_name
from .registry import OTHER, VIEW, primitive
from .signatures import invalid_combination

__all__ = ["view", "reshape", "flatten", "unflatten", "transpose", "swapaxes", "swapdims", "t", "permute",
           "numpy_T", "squeeze", "unsqueeze", "getitem", "cat", "concat", "concatenate", "stack",
           "split", "tensor_split", "chunk", "unbind", "narrow", "select", "movedim", "moveaxis",
           "index_select", "gather"]


# ------------------------------------------------------------------------------- reshaping

@primitive("view", node="ViewBackward0", group=VIEW, is_view=True)
def _reshape(a, shape):
    return a.reshape(shape, copy=False)  # ValueError when the strides allow no view


@_reshape.vjp
def _(ctx, grad, shape):
    return _reshape(grad.contiguous(), shape=ctx.input_shapes[0])


@primitive("unsafe_view", node="UnsafeViewBackward0", group=VIEW)
def _unsafe_view(a, shape):
    """A reshape of a fresh contiguous result (PyTorch's ``_unsafe_view``), not tracked as a view."""
    return a.reshape(shape)


@_unsafe_view.vjp
def _(ctx, grad, shape):
    return reshape(grad, ctx.input_shapes[0])


def _infer_shape(shape, numel):
    """A view's shape with its one -1 worked out, refused as PyTorch's ``infer_size`` refuses it."""
    for index, s in enumerate(shape):
        if s < -1:
            raise RuntimeError(f"invalid shape dimension {s} at index {index} of shape "
                               f"{list(shape)}")
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        if known == 0 == numel:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} "
                               "because the unspecified dimension size -1 can be any value and "
                               "is ambiguous")
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


_NOT_A_VIEW = ("view size is not compatible with input tensor's size and stride (at least one "
               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")


def _sizes_argument(args, keywords, function, argument):
    """An ``int[]`` argument given as varargs / one sequence, or by its name
    (``torch.reshape(x, shape=(2, 3))``, ``x.permute(dims=(1, 0))``), refused in PyTorch's
    words when missing, given twice or joined by an unknown keyword."""
    if argument in keywords:
        if args:
            raise TypeError(f"{function}() got multiple values for argument '{argument}'")
        args = (keywords.pop(argument),)
    if not args:
        raise TypeError(f'{function}() missing 1 required positional arguments: "{argument}"')
    if keywords:
        raise TypeError(f"{function}() got an unexpected keyword argument '{next(iter(keywords))}'")
    return int_list(args, function, argument)


def view(input, *shape, **size):
    if size:
        if "size" not in size:  # PyTorch's two overloads, neither taking the keyword
            raise invalid_combination("view", shape, size,
                                      ("torch.dtype dtype", "tuple of ints size"))
        shape = (_sizes_argument(shape, size, "view", "size"),)
    try:
        if not shape:  # neither a shape nor a dtype
            raise TypeError
        shape = int_list(shape, "view", "size")
    except TypeError:
        raise TypeError(_view_signature_error(shape)) from None
    try:
        return _reshape(input, shape=_infer_shape(shape, input._array.size))
    except ValueError:
        raise RuntimeError(_NOT_A_VIEW) from None


def view_dtype(input, dtype):
    """``x.view(dtype)``: the same memory read as elements of ``dtype``, a view that is not
    differentiable. A different element size rescales the last dimension (which must be
    dense) and, by the ratio of the sizes, the other strides and the storage offset."""
    from .. import dtypes
    target = dtypes.float64 if dtype is builtins.float else dtypes.as_dtype(dtype)
    array = input._array
    if target.itemsize != array.itemsize and array.size:  # (an empty one has nothing to read)
        _check_view_dtype(input, target)
    result = Tensor._make(array.view(target.numpy))
    result._become_view_of(input)
    return result


def _check_view_dtype(input, target):
    """PyTorch's conditions for reading memory as elements of another size."""
    array = input._array
    what = (f"to view {_LEGACY_TYPE_NAMES[array.dtype.name]} as "
            f"{_LEGACY_TYPE_NAMES[target.numpy.name]} (different element sizes)")
    if array.ndim == 0:
        raise RuntimeError(f"self.dim() cannot be 0 {what}")
    if input.stride(-1) != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {input.stride(-1)}")
    ratio = target.itemsize // array.itemsize
    if ratio > 1:
        facts = [("self.size(-1)", array.shape[-1]),
                 ("self.storage_offset()", input.storage_offset())]
        facts += [(f"self.stride({d})", input.stride(d)) for d in range(array.ndim - 1)]
        for name, value in facts:
            if value % ratio:
                raise RuntimeError(f"{name} must be divisible by {ratio} {what}, but got {value}")


def _view_signature_error(args):
    """PyTorch's message for ``view`` called with neither a dtype nor a shape."""
    got = ", ".join(type(a).__name__ for a in args)
    why = (f"      didn't match because some of the arguments have invalid types: (!{got}!)\n"
           if len(args) == 1 else "")
    return (f"view() received an invalid combination of arguments - got ({got}), but expected "
            f"one of:\n * (torch.dtype dtype)\n{why} * (tuple of ints size)\n{why}")


def reshape(input, *shape, **keywords):
    """A view when the strides allow one; otherwise, as PyTorch, a contiguous copy reshaped."""
    shape = _sizes_argument(shape, keywords, "reshape", "shape")
    shape = _infer_shape(shape, input._array.size)
    try:
        result = _reshape(input, shape=shape)
    except ValueError:
        return _unsafe_view(input.contiguous(), shape=shape)
    node = result._grad_fn
    if node is not None and not input._array.flags.c_contiguous:  # a view all the same:
        node.__class__ = _reshape.variant_node_class("ReshapeAliasBackward0")  # PyTorch's name
    return result


def flatten(input, start_dim=0, end_dim=-1):
    shape = input._array.shape
    start, end = _axis(start_dim, len(shape)), _axis(end_dim, len(shape))
    if not shape:
        return reshape(input, 1)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return input
    return reshape(input, shape[:start] + (math.prod(shape[start:end + 1]),) + shape[end + 1:])


def unflatten(input, dim, sizes):
    shape = input._array.shape
    axis = _axis(dim, len(shape))
    if not shape:
        raise RuntimeError(f"unflatten got an unexpected error:\n{no_dimensions_error(dim)}")
    dim = axis
    sizes = tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if sizes.count(-1) < 2 and not _multiplies_up(sizes, shape[dim]):
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the "
                           f"size of dim {dim} ({shape[dim]}) in the input tensor")
    return reshape(input, shape[:dim] + _infer_shape(sizes, shape[dim]) + shape[dim + 1:])


def _multiplies_up(sizes, size):
    """Whether ``sizes`` (with at most one -1 to infer) can make ``size`` elements."""
    known = math.prod(s for s in sizes if s != -1)
    if -1 in sizes:
        return known != 0 and size % known == 0
    return known == size


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
def _(ctx, grad, dims):
    inverse = [0] * len(dims)  # the inverse permutation (np.argsort costs more than the op)
    for position, dim in enumerate(dims):
        inverse[dim] = position
    return _permute(grad, dims=tuple(inverse))


@_transpose.vjp
def _(ctx, grad, dims):
    return _transpose(grad, dims=dims)  # a swap undoes itself, as PyTorch's backward records


@_t.vjp
def _(ctx, grad, dims):
    return _t(grad, dims=dims)


def no_dimensions_error(dim):
    """ATen's error for a ``dim`` of a 0-d tensor where the operation needs a real dimension."""
    return IndexError(f"Dimension specified as {dim} but tensor has no dimensions")


def _axis(dim, ndim):
    rank = builtins.max(ndim, 1)
    if not -rank <= dim < rank:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, "
                         f"{rank - 1}], but got {dim})")
    return dim % rank


def transpose(input, dim0, dim1):
    ndim = input._array.ndim
    dims = list(range(ndim))
    d0, d1 = _axis(dim0, ndim), _axis(dim1, ndim)  # a 0-d input takes -1 and 0
    if ndim:
        dims[d0], dims[d1] = dims[d1], dims[d0]
    return _transpose(input, dims=tuple(dims))


def swapaxes(input, axis0, axis1):
    """``transpose`` under numpy's name, its dims named as numpy names them."""
    return transpose(input, axis0, axis1)


def swapdims(input, dim0, dim1):
    return transpose(input, dim0, dim1)


def t(input):
    if input._array.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{input._array.ndim}D")
    return _t(input, dims=tuple(reversed(range(input._array.ndim))))


def permute(input, *dims, **keywords):
    dims = _sizes_argument(dims, keywords, "permute", "dims")
    ndim = input._array.ndim
    if len(dims) != ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does "
                           f"not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {ndim} is not equal to len(dims) = {len(dims)}")
    dims = tuple(_axis(d, ndim) for d in dims)
    if len(set(dims)) != ndim:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _permute(input, dims=dims)


def numpy_T(input):
    return _permute(input, dims=tuple(reversed(range(input._array.ndim))))


def movedim(input, source, destination):
    """Dims ``source`` (an int or a sequence) moved to ``destination``; the others keep their
    order in the places left free."""
    ndim = input._array.ndim
    source, destination = _dim_list(source), _dim_list(destination)
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({source} dims) "
                           f"should contain the same number of dims as destination "
                           f"({destination} dims)")
    # PyTorch wraps every dim before it looks for repeated ones
    source_axes, destination_axes = ([_axis(d, ndim) for d in dims]
                                     for dims in (source, destination))
    source = _distinct_axes(source_axes, source, "source")
    destination = _distinct_axes(destination_axes, destination, "destination")
    order = [d for d in range(ndim) if d not in source]
    for d, s in sorted(zip(destination, source)):  # ascending, so each lands where it belongs
        order.insert(d, s)
    return _permute(input, dims=tuple(order[:ndim]))  # a 0-d tensor accepts dim 0 and stays 0-d


def _distinct_axes(axes, dims, name):
    if len(set(axes)) != len(axes):
        raise RuntimeError(f"movedim: repeated dim in `{name}` ({dims})")
    return axes


def _dim_list(dims):
    return [dims] if isinstance(dims, int) else list(dims)


moveaxis = movedim


# ----------------------------------------------------------------------- squeeze, unsqueeze

@primitive("squeeze", node="SqueezeBackward0", group=VIEW, is_view=True)
def _squeeze_all(a, shape):
    return a.reshape(shape)


@primitive("squeeze_dim", node="SqueezeBackward1", group=VIEW, is_view=True)
def _squeeze_dim(a, shape):
    return a.reshape(shape)


@primitive("unsqueeze", node="UnsqueezeBackward0", group=VIEW, is_view=True)
def _unsqueeze(a, shape):
    return np.lib.stride_tricks.as_strided(a, shape, _strides_with_new_ones(a, shape))


def _strides_with_new_ones(a, shape):
    """The (byte) strides PyTorch gives ``a`` with size-1 dims inserted to make ``shape``: a new
    dim strides over the whole dim after it (its size times its stride), or 1 at the end."""
    kept, old = [], 0
    for size in shape:  # which dims of ``shape`` are ``a``'s own (the first that fit)
        mine = old < a.ndim and a.shape[old] == size
        kept.append(mine)
        old += mine
    strides, after = [0] * len(shape), a.itemsize
    for d in reversed(range(len(shape))):
        if kept[d]:
            old -= 1
            strides[d], after = a.strides[old], a.strides[old] * a.shape[old]
        else:
            strides[d] = after
    return tuple(strides)


@_squeeze_all.vjp
@_squeeze_dim.vjp
def _(ctx, grad, shape):
    return _unsqueeze(grad, shape=ctx.input_shapes[0])  # PyTorch's grad.unsqueeze(dim)


@_unsqueeze.vjp
def _(ctx, grad, shape):
    return _squeeze_dim(grad, shape=ctx.input_shapes[0])  # PyTorch's grad.squeeze(dim)


def rename_node(node, name):
    """``node`` (a primitive's, just made) under another of PyTorch's names, ``name``; its rule
    is unchanged. None (nothing recorded) is left alone."""
    if node is not None and type(node).__name__ != name and hasattr(node, "primitive"):
        node.__class__ = node.primitive.variant_node_class(name)


def squeeze(input, dim=None):
    shape = input._array.shape
    if dim is None:
        return _squeeze_all(input, shape=tuple(s for s in shape if s != 1))
    dims = [_axis(d, len(shape)) for d in ((dim,) if isinstance(dim, int) else dim)]
    for d in dims:
        if dims.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    result = _squeeze_dim(input, shape=tuple(s for i, s in enumerate(shape)
                                             if not (i in dims and s == 1)))
    if not isinstance(dim, int):
        rename_node(result.grad_fn, "SqueezeBackward2")  # PyTorch's ``squeeze.dims`` overload
    return result


def unsqueeze(input, dim):
    shape = list(input._array.shape)
    shape.insert(_axis(dim, len(shape) + 1), 1)
    return _unsqueeze(input, shape=tuple(shape))


# -------------------------------------------------------------------------------- indexing
#
# PyTorch applies an indexing key part by part, each a view: an integer is a ``select``, a slice a
# ``slice``, None an ``unsqueeze``; the index tensors (integer arrays, boolean masks) are then
# applied together by one ``index``. tapegrad records the same steps, and so keeps PyTorch's
# semantics where numpy's differ (``x[1, :, idx]`` keeps the sliced dimension first).

def _index_forward(a, key):
    return a[key]


_select = primitive("select", node="SelectBackward0", group=VIEW, is_view=True)(_index_forward)
_slice = primitive("slice", node="SliceBackward0", group=VIEW, is_view=True)(_index_forward)
_index = primitive("index", node="IndexBackward0", group=OTHER, complex_rule=True)(_index_forward)


@primitive("index_select", node="IndexSelectBackward0", group=OTHER, complex_rule=True)
def _index_select(a, key):
    return np.asarray(a[key], order="C")  # ATen allocates index_select's output row-major


_gather = primitive("gather", node="GatherBackward0", group=OTHER,
                    complex_rule=True)(_index_forward)


@primitive("narrow_copy", node="NarrowCopyBackward0", group=OTHER, complex_rule=True)
def _narrow_copy(a, key):
    return a[key].copy()


@_select.vjp
@_narrow_copy.vjp
@_slice.vjp
@_index.vjp
@_index_select.vjp
@_gather.vjp
def _(ctx, grad, key):
    result = _index_backward(grad, shape=ctx.input_shapes[0], key=key)
    if result._grad_fn is not None:  # (create_graph) the node PyTorch's backward op records
        result._grad_fn.__class__ = _index_backward.variant_node_class(
            _BACKWARD_NODES.get(ctx.primitive) or _basic_backward_node(key))
    return result


def _basic_backward_node(key):
    """``x[1, ::2]`` runs select then slice in PyTorch: select's backward comes last."""
    picks = builtins.any(isinstance(part, int) for part in key)
    return "SelectBackwardBackward0" if picks else "SliceBackwardBackward0"


@primitive("index_backward", node="IndexPutBackward0", group=OTHER, complex_rule=True)
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
    return (_slice if _is_basic(key) else _index)(grad, key=key)


_BACKWARD_NODES = {_index: "IndexPutImplBackward0", _index_select: "IndexAddBackward0",
                   _gather: "ScatterAddBackward0", _narrow_copy: "SliceBackwardBackward0"}


def _is_basic(key):
    return builtins.all(part is None or part is Ellipsis or isinstance(part, (int, slice))
                        for part in key)


@primitive("alias", node="AliasBackward0", group=VIEW, is_view=True)
def _alias(a):
    return a.view()


@_alias.vjp
def _(ctx, grad):
    return grad


_SEQUENCE_AS_TUPLE_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in "
    "pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as "
    "tensor index, x[torch.tensor(seq)], which will result either in an error or a different "
    "result")


def _reads_as_tuple(key):
    """PyTorch's (and old NumPy's) heuristic, deprecated with a warning: a short list holding a
    tensor, a sequence, a slice, Ellipsis or None is a tuple of indices (``A[[rows, cols]]``)."""
    if type(key) is not list or len(key) >= 32:
        return False
    if builtins.any(isinstance(item, (Tensor, list, tuple, range, np.ndarray, slice))
                    or item is None or item is Ellipsis for item in key):
        warn_at_caller(_SEQUENCE_AS_TUPLE_WARNING)
        return True
    return False


_BYTE_MASK_WARNING = ("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                      "torch.bool instead.")


def _key_parts(key, warn_byte_masks=True):
    """The parts of an indexing key, with tensors and lists as numpy arrays (0-d ones as Python
    numbers, as PyTorch reads them) and anything else refused with PyTorch's message. A uint8
    tensor is a mask, with PyTorch's deprecation warning (unless the caller gives it)."""
    parts = list(key) if type(key) is tuple or _reads_as_tuple(key) else [key]
    specified = 0
    for i, part in enumerate(parts):
        specified += _dims_specified(part)
        if isinstance(part, Tensor):
            if warn_byte_masks and part._array.dtype == np.uint8 and part._array.ndim:
                warn_at_caller(_BYTE_MASK_WARNING)
            if part._array.ndim and part._array.dtype.kind in "iu" and \
                    part._array.dtype not in (np.int64, np.int32, np.uint8):  # (0-d: a number)
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            part = part._array
        elif isinstance(part, (list, tuple, range)):
            part = _sequence_index(part)
        if isinstance(part, (np.ndarray, np.generic)):
            kind = part.dtype.kind
            if kind == "b" or part.dtype == np.uint8:  # byte tensors are masks, as in PyTorch
                part = builtins.bool(part) if part.ndim == 0 else part.astype(np.bool_, copy=False)
            elif kind in "iu":
                part = builtins.int(part) if part.ndim == 0 else part.astype(np.int64, copy=False)
            else:
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        elif isinstance(part, (str, bytes)):  # a sequence PyTorch tries to make a tensor of
            raise TypeError(f"new(): invalid data type '{type(part).__name__}'")
        elif isinstance(part, builtins.int) and not -2 ** 63 <= part < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")
        elif not (part is None or part is Ellipsis or isinstance(part, (builtins.int, slice))):
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                             f"Variables are valid indices (got {type(part).__name__})")
        parts[i] = part
    return parts, specified


def _dims_specified(part):
    """How many dimensions PyTorch counts a key part as indexing, before reading it: a mask
    tensor one per dimension, None, Ellipsis and bools none, anything else one (a list of bools
    too, which then indexes as many as it has)."""
    if part is None or part is Ellipsis or type(part) is bool:
        return 0
    if isinstance(part, Tensor) and part._array.dtype in (np.bool_, np.uint8):
        return part._array.ndim
    return 1


def _sequence_index(sequence):
    """A sequence in a key as PyTorch reads it: bools only are a mask, anything else longs
    (floats truncated toward zero, as a float tensor is refused)."""
    array = np.asarray(sequence) if len(sequence) else np.zeros(0, dtype=np.int64)
    if array.dtype.kind != "f":
        return array
    if not (np.abs(array) < 2.0 ** 63).all():  # nan and inf too
        raise RuntimeError("value cannot be converted to type int64 without overflow")
    return np.trunc(array).astype(np.int64)


def _refuse_lone_int_or_slice_of_0d(part):
    """PyTorch's errors for a 0-d tensor indexed by one int or slice (not in a tuple): 0 would be
    ``item()``'s job, any other int is out of bounds of a dimension of size 0, a slice has no dim
    to cut."""
    if type(part) is builtins.int:
        if part:
            raise IndexError(f"index {part} is out of bounds for dimension 0 with size 0")
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if type(part) is slice:
        _check_step(part)
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")


def _check_step(part):
    if part.step == 0:  # (Python's own message)
        raise ValueError("slice step cannot be zero")
    if part.step is not None and part.step < 0:
        raise ValueError("step must be greater than zero")


def _parse_key(shape, parts, specified, skip_full_slices=True, check_bounds=True):
    """PyTorch's reading of a key: the view steps ``(kind, numpy key, dim)`` applied in order, then
    the numpy key of the index tensors over the result (None when there are none). ``specified``
    is how many dimensions PyTorch counts the key as indexing (``_key_parts`` gives it). Writes check the index tensors' values last (``check_bounds=False``), as PyTorch's
    kernel does."""
    ndim = len(shape)
    if specified > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    shape = list(shape)  # the shape of the view built so far
    steps, indices, dim = [], [], 0
    for real_dim, part in enumerate(parts):
        lead = (slice(None),) * dim
        if part is Ellipsis:
            dim += ndim - specified
        elif part is None or type(part) is bool:  # a bool adds a dimension it then indexes
            _axis(dim, len(shape) + 1)
            steps.append(("unsqueeze", lead + (None,), dim))
            shape.insert(dim, 1)
            if type(part) is bool:
                indices.append((dim, np.zeros(builtins.int(part), dtype=np.int64)))
            dim += 1
        elif isinstance(part, builtins.int):
            size = shape[dim] if dim < len(shape) else 0  # (past a list mask PyTorch counts once)
            if not -size <= part < size:
                raise IndexError(f"index {part} is out of bounds for dimension {real_dim} with "
                                 f"size {size}")
            steps.append(("select", lead + (part, Ellipsis), dim))
            del shape[dim]
        elif isinstance(part, slice):
            _check_step(part)
            _axis(dim, len(shape))
            bounds = part.indices(shape[dim])
            if not (skip_full_slices and bounds == (0, shape[dim], 1)):
                steps.append(("slice", lead + (part,), dim))
                shape[dim] = len(range(*bounds))
            dim += 1
        else:
            indices.append((dim, part))
            dim += part.ndim if part.dtype == np.bool_ else 1
    for dim, index in indices:  # against the whole view, once all its steps are known
        _check_mask_shape(index, shape, dim)
    advanced = _advanced_key(indices, shape)
    if check_bounds:
        check_index_bounds(shape, advanced)
    return steps, advanced


def _check_mask_shape(index, shape, dim):
    if index.dtype != np.bool_:
        return
    for j, size in enumerate(index.shape):
        _axis(dim + j, len(shape))  # (past the view after a list mask PyTorch counts once)
        if shape[dim + j] != size:
            raise IndexError(f"The shape of the mask {list(index.shape)} at index {j} does not "
                             f"match the shape of the indexed tensor {shape} at index {dim + j}")


def _indexed_dims(shape, advanced):
    """``(size, index array)`` of each dimension the index arrays of a numpy key index, a mask
    giving one array per dimension it covers (its nonzero positions), as PyTorch expands it."""
    dims, dim = [], 0
    for part in advanced:
        if isinstance(part, np.ndarray) and part.dtype == np.bool_:
            dims += zip(shape[dim:dim + part.ndim], np.nonzero(part) if part.ndim else ())
            dim += part.ndim
        else:
            if isinstance(part, np.ndarray):
                dims.append((shape[dim], part))
            dim += 1
    return dims


def check_index_bounds(shape, advanced):
    """PyTorch's index kernel: the first element (in the order of the broadcast indices) that
    some index tensor puts out of bounds, the index tensors taken in order for each element."""
    if advanced is None or not _reads_outside(shape, advanced):
        return
    dims = _indexed_dims(shape, advanced)
    arrays = np.broadcast_arrays(*(index for _, index in dims))
    outside = np.stack([(a >= size) | (a < -size) for (size, _), a in zip(dims, arrays)], axis=-1)
    if outside.any():
        element = np.argmax(outside.any(axis=-1).reshape(-1))
        j = builtins.int(np.argmax(outside.reshape(-1, len(dims))[element]))
        raise IndexError(f"index {arrays[j].reshape(-1)[element]} is out of bounds for dimension "
                         f"{j} with size {dims[j][0]}")


def _reads_outside(shape, advanced):
    """Whether an integer index array of the numpy key reads outside its dimension (a mask's
    positions are inside: its shape is checked)."""
    dim = 0
    for part in advanced:
        if isinstance(part, np.ndarray) and part.dtype == np.bool_:
            dim += part.ndim
            continue
        if isinstance(part, np.ndarray) and part.size and \
                (part.max() >= shape[dim] or part.min() < -shape[dim]):
            return True
        dim += 1
    return False


def _advanced_key(indices, shape):
    """``(dim, array)`` pairs as one numpy key: full slices up to each array's dimension."""
    if not indices:
        return None
    if len(indices) > 1:  # (one index broadcasts with itself)
        _check_broadcastable(index for _, index in indices)
    if indices[-1][0] >= len(shape):  # (past a list mask PyTorch counts once)
        raise IndexError(f"too many indices for tensor of dimension {len(shape)} (got "
                         f"{indices[-1][0] + 1})")
    key, position = [], 0
    for dim, index in indices:
        key.extend([slice(None)] * (dim - position))
        key.append(index)
        position = dim + (index.ndim if index.dtype == np.bool_ else 1)
    if 0 in shape:  # an empty result reads no index value: PyTorch checks none
        _check_empty_dims(shape, key)
        key = [np.zeros_like(part) if isinstance(part, np.ndarray) and part.dtype != np.bool_
               else part for part in key]
    return tuple(key)


def _check_empty_dims(shape, key):
    """An index into a dimension of size 0 is out of bounds, whatever its value (unless the
    indices select nothing)."""
    dims = _indexed_dims(shape, key)
    if builtins.any(size == 0 for size, _ in dims) and \
            0 not in np.broadcast_shapes(*(index.shape for _, index in dims)):
        raise IndexError("index is out of bounds for dimension with size 0")


def _check_broadcastable(indices):
    """Index tensors must broadcast together (a mask counts as one index per dimension)."""
    shapes = []
    for index in indices:
        if index.dtype == np.bool_:
            shapes += [[int(np.count_nonzero(index))]] * index.ndim
        else:
            shapes.append(list(index.shape))
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with "
                         f"shapes {', '.join(map(str, shapes))}") from None


def _apply_key(input, steps, advanced):
    """The recorded ops of a parsed key: its view steps, then one index."""
    result = input
    for kind, key, dim in steps:
        if kind == "unsqueeze":
            result = unsqueeze(result, dim)
        elif kind == "strided":
            result = _strided_region(result, geometry=key)
        else:
            result = (_select if kind == "select" else _slice)(result, key=key)
    return result if advanced is None else _index(result, key=advanced)


def _view_of(array, steps):
    """The numpy view the steps select (what an assignment writes into)."""
    for kind, key, _ in steps:
        array = _strided(array, key) if kind == "strided" else array[key]
    return array


def _strided(array, geometry):
    """The region ``(shape, strides, offset)`` (in elements of the C-order layout) of ``array``."""
    shape, strides, offset = geometry
    flat = np.ascontiguousarray(array).reshape(-1)
    return np.lib.stride_tricks.as_strided(flat[offset:], shape,
                                           [stride * array.itemsize for stride in strides])


def strided_key(geometry):
    """An assignment key for the region a view occupies in its base (in-place ops on views)."""
    return [("strided", geometry, None)], None


@primitive("as_strided_copy", node="AsStridedBackward0", group=OTHER)
def _strided_region(a, geometry):
    """A copy of a view's region of its base: how an in-place op on a view reads the base."""
    return _strided(a, geometry).copy()


@_strided_region.vjp
def _(ctx, grad, geometry):
    shape = ctx.input_shapes[0]
    if _overlaps(geometry):  # (an expanded view: its elements' gradients add up)
        from .strided import _as_strided_backward  # (strided builds on this module)
        base_layout = (shape, _contiguous_strides(shape), 0)
        return _as_strided_backward(grad, source=geometry, target=base_layout)
    zeros = Tensor._make(np.zeros(shape, dtype=grad._array.dtype))
    return _copy_slices(zeros, grad, key=strided_key(geometry))


def _overlaps(geometry):
    """Whether two elements of the region ``(shape, strides, offset)`` may share a position:
    unless, with its dimensions ordered by stride, each stride clears the span of those before."""
    shape, strides, _ = geometry
    span = 0
    for size, stride in sorted(((n, abs(s)) for n, s in zip(shape, strides) if n > 1),
                               key=lambda dim: dim[1]):
        if stride <= span:
            return True
        span += stride * (size - 1)
    return False


def getitem(input, key):
    if type(key) is builtins.int and input._array.ndim and \
            -input._array.shape[0] <= key < input._array.shape[0]:
        return _select(input, key=(key, Ellipsis))  # x[i], the common case, read directly
    parts, specified = _key_parts(key)
    if not input._array.ndim:
        _refuse_lone_int_or_slice_of_0d(key)
    lone_slice = len(parts) == 1 and isinstance(parts[0], slice)  # PyTorch records even ``x[:]``
    steps, advanced = _parse_key(input._array.shape, parts, specified,
                                 skip_full_slices=not lone_slice)
    result = _apply_key(input, steps, advanced)
    return _alias(input) if result is input else result


def _put_forward(a, value, key):
    out = a.copy()
    _put_inplace(out, value, key)
    return out


def _put_inplace(a, value, key):
    steps, advanced = key
    _view_of(a, steps)[Ellipsis if advanced is None else advanced] = value


def _put_error(inputs, params):
    a, value = inputs
    steps, advanced = params["key"]
    target = _view_of(a._array, steps)
    indexed = target.shape if advanced is None else target[advanced].shape
    return (f"shape mismatch: value tensor of shape {list(value._array.shape)} cannot be broadcast "
            f"to indexing result of shape {list(indexed)}")


# ``x[key] = value``: PyTorch's IndexPutBackward0 when the key is index tensors only, CopySlices
# when the assignment goes through a view of ``x``.
_index_put = primitive("index_put", node="IndexPutBackward0", group=OTHER,
                       error=_put_error)(_put_forward)
_copy_slices = primitive("copy_slices", node="CopySlices", group=OTHER,
                         error=_put_error)(_put_forward)
_index_put.inplace = _copy_slices.inplace = _put_inplace


@_index_put.vjp
@_copy_slices.vjp
def _(ctx, grad, key):
    need_a, need_value = ctx.needs_input_grad
    grad_a = grad_value = None
    if need_a:
        zero = Tensor._make(np.zeros((), dtype=grad._array.dtype))
        grad_a = ctx.primitive(grad, zero, key=key)
    if need_value:
        grad_value = sum_to(_apply_key(grad, *key), ctx.input_shapes[1])
    return grad_a, grad_value


def setitem(input, key, value):
    """``input[key] = value`` as PyTorch does it: a copy (or fill) into the selected view, or an
    index_put for index tensors; recorded as CopySlices when it writes through a view."""
    from .inplace import apply_inplace, copy_, fill_
    if type(key) is bool:  # PyTorch writes nothing for a lone False, and reads True as None
        if key is False:
            if not isinstance(value, Tensor):
                _value_of_dtype(value, input)  # (still refused if it is no number)
            return None
        key = None
    parts, specified = _key_parts(key, warn_byte_masks=False)
    if not input._array.ndim:
        _refuse_lone_int_or_slice_of_0d(key)
    steps, advanced = _parse_key(input._array.shape, parts, specified, check_bounds=False)
    _check_byte_masks(key, value)
    if steps and input._requires_grad and input._grad_fn is None and grad_mode.is_grad_enabled():
        raise RuntimeError(VIEW_OF_LEAF_INPLACE_ERROR)  # PyTorch writes through a view of it
    if steps and advanced is None and 0 in input._array.strides and input._array.size:
        # an expanded tensor: write through the view the key selects, as PyTorch does, so that
        # only its elements are written (and checked for sharing memory)
        input, steps = _apply_key(input, steps, None), []
    if advanced is not None:
        if isinstance(value, Tensor):
            value = _view_without_leading_ones(value)
        _check_index_put(input, _view_of(input._array, steps).shape, advanced, value)
        value = _value_of_dtype(value, input)
        prim = _copy_slices if steps else _index_put
        return apply_inplace(prim, input, (value,), {"key": (steps, advanced)})
    target_shape = _view_of(input._array, steps).shape
    if isinstance(value, Tensor) and value._array.shape != target_shape and value._array.ndim:
        value = view(value, _without_leading_ones(value._array.shape))  # (always a view, as
        if value._array.shape != target_shape:  # PyTorch's copy_ path; of the value's dtype)
            value = expand(value, target_shape)
    value = _value_of_dtype(value, input)
    if steps:
        return apply_inplace(_copy_slices, input, (value,), {"key": (steps, None)})
    return fill_(input, value) if value._array.ndim == 0 else copy_(input, value)


def _check_index_put(input, shape, advanced, value):
    """PyTorch's checks of ``index_put_`` in its order: the value's shape, its dtype (unless a
    one-element value is filled through a lone mask, which casts it), then the index values."""
    if isinstance(value, Tensor):
        if not fills_through_mask(advanced, value):
            check_put_shape(value, shape, advanced)
            if value._array.dtype != input._array.dtype:
                raise RuntimeError(index_put_dtype_error(input, value))
    check_index_bounds(shape, advanced)


def fills_through_mask(advanced, value):
    """Whether PyTorch's ``index_put_`` fills ``value`` with ``masked_fill_``: a one-element value
    through a lone mask."""
    arrays = [part for part in advanced if isinstance(part, np.ndarray)]
    return value._array.size == 1 and len(arrays) == 1 and arrays[0].dtype == np.bool_


def check_put_shape(value, shape, advanced):
    """The value must broadcast to what the index tensors select (their values unread)."""
    unread = tuple(np.zeros_like(part) if isinstance(part, np.ndarray) and part.dtype != np.bool_
                   else part for part in advanced)
    indexed = np.broadcast_to(np.empty((), np.bool_), shape)[unread].shape
    given = value._array.shape
    if len(given) > len(indexed) or builtins.any(
            size not in (1, target) for size, target in zip(given[::-1], indexed[::-1])):
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(given)} cannot be "
                           f"broadcast to indexing result of shape {list(indexed)}")


def _check_byte_masks(key, value):
    """PyTorch assigns a one-element value through a lone mask with ``masked_fill_``, which
    refuses a uint8 mask; other assignments read it as a (deprecated) bool mask."""
    parts = key if type(key) in (tuple, list) else (key,)
    indices = [p for p in parts if _is_index(p)]
    byte_masks = [p for p in indices if isinstance(p, Tensor) and p._array.dtype == np.uint8]
    if not byte_masks:
        return
    if len(indices) == 1 and (not isinstance(value, Tensor) or value._array.size == 1):
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           "unsigned char")
    for _ in byte_masks:
        warn_at_caller(_BYTE_MASK_WARNING)


def _is_index(part):
    """Whether PyTorch indexes with a key part as a tensor (bools too), not as a view step."""
    if isinstance(part, (list, tuple, range)) or type(part) is bool:
        return True
    array = part._array if isinstance(part, Tensor) else part
    return isinstance(array, np.ndarray) and (array.ndim > 0 or array.dtype == np.bool_)


def index_put_dtype_error(destination, source):
    return ("Index put requires the source and destination dtypes match, got "
            f"{_LEGACY_TYPE_NAMES[destination._array.dtype.name]} for the destination and "
            f"{_LEGACY_TYPE_NAMES[source._array.dtype.name]} for the source.")


def _value_of_dtype(value, input):
    if not isinstance(value, Tensor):
        if not isinstance(value, numbers.Number):  # (a sequence is no value either)
            raise TypeError(f"can't assign a {type_name(type(value))} to a {input.type()}")
        # PyTorch's range check (-1 still gives uint8 255; float16 alone is unchecked: inf)
        if input._array.dtype.kind in "iub" or input._array.dtype == np.float32:
            value = checked_number(value, input._array.dtype)
        return Tensor._make(np.array(value, dtype=input._array.dtype))
    if value._array.dtype != input._array.dtype:
        from .elementwise import to_dtype
        return to_dtype(value, input.dtype)
    return value


def _view_without_leading_ones(value):
    stripped = _without_leading_ones(value._array.shape)
    return value if stripped == value._array.shape else view(value, stripped)


def _without_leading_ones(shape):
    """numpy's legacy rule PyTorch keeps: leading size-1 dimensions of a value are dropped."""
    lead = 0
    while lead < len(shape) and shape[lead] == 1:
        lead += 1
    return shape[lead:]


def index_select(input, dim, index):
    if not isinstance(index, Tensor):
        raise TypeError(f"index_select(): argument 'index' (position 2) must be Tensor, not "
                        f"{type(index).__name__}")
    positions = index._array
    dim = _axis(dim, input._array.ndim)  # PyTorch's order: dim, the index's rank, its dtype
    if positions.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if positions.dtype not in (np.int32, np.int64):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    _check_selected_positions(input._array.shape, dim, positions.reshape(-1))
    if input._array.ndim == 0:
        return _index_select(input, key=())
    key = [slice(None)] * input._array.ndim
    # the index tensor's own array when it is a vector: a compiler tracing this call sees that
    # array as the argument's (read at each call), where a reshaped copy would be a constant
    key[dim] = positions if positions.ndim == 1 else positions.reshape(-1)
    return _index_select(input, key=tuple(key))


def _check_selected_positions(shape, dim, positions):
    """index_select's bounds checks, each with the message of the ATen kernel that makes it
    (a scalar takes exactly one index; a matrix's dim 1 has its own fast kernel)."""
    if not shape:
        if positions.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{positions.size} value(s)")
        shape = (1,)
    outside = (positions < 0) | (positions >= shape[dim])
    if len(shape) > 1 and positions.size and shape[dim] == 0:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    if not outside.any():
        return
    if len(shape) > 1 and dim == 1:
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={positions[outside][0]} "
                           f"axis_dim={shape[dim]}")
    raise IndexError("index out of range in self")


def gather(input, dim, index, *, sparse_grad=False):
    """``out[i][j] = input[index[i][j]][j]`` (for dim 0), as an advanced-indexing primitive.
    ``sparse_grad`` asks for a sparse gradient, which tapegrad (dense only) cannot give."""
    if sparse_grad and input.requires_grad and grad_mode.is_grad_enabled():
        raise NotImplementedError("gather: sparse gradients are not supported")
    positions, shape = index._array, input._array.shape
    dim = _axis(dim, len(shape))
    if positions.size == 0 and shape:  # PyTorch checks nothing more: an empty result
        return _gather(input, key=(np.zeros(positions.shape, np.int64),) * len(shape))
    if positions.dtype not in (np.int32, np.int64):
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    if builtins.max(positions.ndim, 1) != builtins.max(len(shape), 1):  # (0-d counts as 1-d)
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    if not shape and positions.ndim:  # a 0-d input gathers as a vector of its one element
        return gather(reshape(input, (1,)), dim, index)
    if not shape:  # a 0-d input is one element, which only a 0-d index 0 names
        if positions != 0:
            raise RuntimeError(f"index {positions} is out of bounds for dimension 0 with size 1")
        return _gather(input, key=())
    for d, (got, limit) in enumerate(zip(positions.shape, shape)):
        if d != dim and got > limit:
            raise RuntimeError(f"Size does not match at dimension {d} expected index "
                               f"{list(positions.shape)} to be no larger than self {list(shape)} "
                               f"apart from dimension {dim}")
    outside = (positions < 0) | (positions >= shape[dim])
    if outside.any():
        raise RuntimeError(f"index {positions[outside].flat[0]} is out of bounds for dimension "
                           f"{dim} with size {shape[dim]}")
    grids = np.indices(positions.shape, sparse=True)
    key = tuple(positions if d == dim else grids[d] for d in range(len(shape)))
    return _gather(input, key=key)


def narrow(input, dim, start, length):
    if input._array.ndim:  # (narrow checks the length first, narrow_copy after the start)
        _check_narrow_length(length)
    return _slice(input, key=_narrow_key(input, dim, start, length))


def _check_narrow_length(length):
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")


def narrow_copy(input, dim, start, length):
    """``narrow`` as a new tensor rather than a view."""
    return _narrow_copy(input, key=_narrow_key(input, dim, start, length))


def _narrow_key(input, dim, start, length):
    if input._array.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if isinstance(start, Tensor):
        if start._array.ndim or start._array.dtype.kind not in "iu":
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = builtins.int(start._array)
    dim = _axis(dim, input._array.ndim)
    size = input._array.shape[dim]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but "
                         f"got {start})")
    _check_narrow_length(length)
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return (slice(None),) * dim + (slice(start, start + length),)


def select(input, dim, index):
    """The view of ``input`` at ``index`` along ``dim``, that dimension removed (``x[:, i]``)."""
    shape = input._array.shape
    if not shape:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _axis(dim, len(shape))
    try:
        index = operator.index(index)  # an int, or an integer tensor of one element
    except TypeError:
        raise TypeError(f"select(): argument 'index' (position 2) must be int, not "
                        f"{type(index).__name__}") from None
    if not -shape[dim] <= index < shape[dim]:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(shape)} "
                         f"at dimension {dim}")
    return _select(input, key=(slice(None),) * dim + (index, Ellipsis))  # 0-d: still a view


# ---------------------------------------------------------------------------- cat, stack

def _is_legacy_empty(shape):
    """PyTorch's cat skips 1-D tensors with no elements (``torch.tensor([])`` accumulators)
    whatever the other tensors' number of dimensions."""
    return shape == (0,)


@primitive("cat", node="CatBackward0", group=OTHER, complex_rule=True)
def _cat(*arrays, dim):
    kept = [a for a in arrays if not _is_legacy_empty(a.shape)] or arrays
    shape = list(kept[0].shape)
    shape[dim] = builtins.sum(a.shape[dim] for a in kept)
    out = memory_format._empty_in(tuple(shape), kept[0].dtype, _cat_memory_format(arrays))
    return np.concatenate(kept, axis=dim, out=out)


def _cat_memory_format(arrays):
    """PyTorch's layout of a concatenation: the format all inputs suggest (channels_last when
    every input looks channels_last), else row-major, whatever order the inputs' strides have."""
    formats = {memory_format.suggested(a) for a in arrays}
    return formats.pop() if len(formats) == 1 else memory_format.contiguous_format


@_cat.vjp
def _(ctx, grad, dim):
    grads, start = [], 0
    for needed, shape in zip(ctx.needs_input_grad, ctx.input_shapes):
        if len(shape) != grad.ndim:  # a skipped legacy empty input: its gradient is empty too
            # (taken from ``grad``, not made from nothing, so that a compiled backward has it)
            grads.append(_slice(reshape(grad, (-1,)), key=(slice(0, 0),)) if needed else None)
            continue
        stop = start + shape[dim]
        key = (slice(None),) * dim + (slice(start, stop),)
        grads.append(_slice(grad, key=key) if needed else None)
        start = stop
    return tuple(grads)


@primitive("stack", node="StackBackward0", group=OTHER)
def _stack(*arrays, dim):
    return np.asarray(np.stack(arrays, axis=dim), order="C")  # row-major, as PyTorch's


@_stack.vjp
def _(ctx, grad, dim):
    return tuple(_select(grad, key=(slice(None),) * dim + (i,)) if needed else None
                 for i, needed in enumerate(ctx.needs_input_grad))


def _same_dtype(tensors):
    from .. import dtypes
    common = dtypes.result_type(*tensors)
    return [t if t._array.dtype == common.numpy else t.to(common) for t in tensors]


def _tensor_list(tensors, name):
    """The tensors of a ``TensorList`` argument, refused as PyTorch's parser refuses others."""
    if not isinstance(tensors, (tuple, list)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not {type(tensors).__name__}")
    check_tensor_elements(tensors)
    return list(tensors)


def cat(tensors, dim=0):
    tensors = _tensor_list(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for position, t in enumerate(tensors):
        if not t._array.ndim:
            raise RuntimeError(f"zero-dimensional tensor (at position {position}) cannot be "
                               "concatenated")
    tensors = _same_dtype(tensors)
    kept = [(i, t._array.shape) for i, t in enumerate(tensors)
            if not _is_legacy_empty(t._array.shape)]
    if not kept:
        return _cat(*tensors, dim=0)
    (_, first), *others = kept
    dim = _axis(dim, len(first))
    for i, shape in others:
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
    tensors = _tensor_list(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    tensors = _same_dtype(tensors)
    first = tensors[0]._array.shape
    for i, t in enumerate(tensors[1:], 1):
        if t._array.shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(first)} "
                               f"at entry 0 and {list(t._array.shape)} at entry {i}")
    return _stack(*tensors, dim=_axis(dim, len(first) + 1))


# ------------------------------------------------------------------------- split, unbind
# Several views of one tensor made by one operation: one node, each piece its output i, as in
# PyTorch (``SplitBackward0``, ``SplitWithSizesBackward0``, ``UnbindBackward0``).

def _pieces(a, bounds, dim):
    prefix = (slice(None),) * dim
    return tuple(a[prefix + (slice(start, stop),)] for start, stop in bounds)


_split = primitive("split", node="SplitBackward0", group=VIEW, is_view=True,
                   n_outputs=None)(_pieces)
_split_with_sizes = primitive("split_with_sizes", node="SplitWithSizesBackward0", group=VIEW,
                              is_view=True, n_outputs=None)(_pieces)


@_split.vjp
@_split_with_sizes.vjp
def _(ctx, grads, bounds, dim):
    """The pieces' gradients side by side; zeros for a piece no gradient reached."""
    shape = list(ctx.input_shapes[0])
    parts = []
    for i, (start, stop) in enumerate(bounds):
        grad = grads[i] if i < len(grads) else None
        if grad is None:
            shape[dim] = stop - start
            grad = Tensor._make(np.zeros(shape, ctx.input_dtypes[0]))
        parts.append(grad)
    return cat(parts, dim) if len(parts) > 1 else parts[0]


@primitive("unbind", node="UnbindBackward0", group=VIEW, is_view=True, n_outputs=None)
def _unbind(a, dim):
    prefix = (slice(None),) * dim
    return tuple(a[prefix + (i, Ellipsis)] for i in range(a.shape[dim]))  # 0-d: views too


@_unbind.vjp
def _(ctx, grads, dim):
    """The pieces' gradients stacked back; zeros for a piece no gradient reached."""
    shape = list(ctx.input_shapes[0])
    del shape[dim]
    parts = [grads[i] if i < len(grads) and grads[i] is not None
             else Tensor._make(np.zeros(shape, ctx.input_dtypes[0]))
             for i in range(ctx.input_shapes[0][dim])]
    return stack(parts, dim)


def split(input, split_size_or_sections, dim=0):
    """Pieces of ``split_size`` along ``dim`` (the last one shorter), or of the given sizes."""
    if input._array.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    step = _as_int(split_size_or_sections)
    if step is None:
        return split_with_sizes(input, split_size_or_sections, dim)
    if step < 0:  # (before ``dim``, as PyTorch)
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={step}")
    dim = _axis(dim, input._array.ndim)
    size = input._array.shape[dim]
    if step == 0 and size:
        raise RuntimeError("split_size can only be 0 if dimension size is 0, but got dimension "
                           f"size of {size}")
    bounds = [(s, builtins.min(s + step, size)) for s in range(0, size, step or 1)] or [(0, 0)]
    return _split(input, bounds=tuple(bounds), dim=dim)


def split_with_sizes(input, split_sizes, dim=0):
    if not isinstance(split_sizes, (tuple, list)):
        raise TypeError("split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of "
                        f"ints, not {type(split_sizes).__name__}")
    sizes = list(int_list((split_sizes,), "split_with_sizes", "split_sizes"))
    given_dim, dim = dim, _axis(dim, input._array.ndim)
    size = input._array.shape[dim]
    if builtins.any(s < 0 for s in sizes):
        raise RuntimeError("split_with_sizes expects split_sizes have only non-negative entries, "
                           f"but got split_sizes={sizes}")
    edges = np.cumsum([0, *sizes])
    if edges[-1] != size:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} "
                           f"(input tensor's size at dimension {given_dim}), but got split_sizes="
                           f"{sizes}")
    bounds = tuple(zip(edges[:-1].tolist(), edges[1:].tolist()))
    return _split_with_sizes(input, bounds=bounds, dim=dim)


def tensor_split(input, *args, **kwargs):
    """Views along ``dim``: ``n`` near-equal pieces (the first ``size % n`` one longer) or the
    pieces between the given indices, which slice as Python does (clamped, maybe empty).

    PyTorch's three overloads: ``(indices_or_sections, dim=0)`` positionally, or by keyword
    ``indices=``, ``sections=`` or ``tensor_indices_or_sections=`` (the name says which)."""
    indices_or_sections, dim = _tensor_split_arguments(input, args, kwargs)
    if input._array.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    dim = _axis(dim, input._array.ndim)
    if isinstance(indices_or_sections, Tensor):
        indices_or_sections = _split_points(indices_or_sections)
    elif isinstance(indices_or_sections, (tuple, list)):
        indices_or_sections = int_list((indices_or_sections,), "tensor_split", "indices")
    elif _as_int(indices_or_sections) is None:
        raise invalid_combination("tensor_split", (input, indices_or_sections), {},
                                  _TENSOR_SPLIT_OVERLOADS)
    if isinstance(indices_or_sections, int):
        indices_or_sections = _section_starts(indices_or_sections, input._array.shape[dim])
    edges = [None, *indices_or_sections, None]
    prefix = (slice(None),) * dim
    return tuple(_slice(input, key=prefix + (slice(start, stop),))
                 for start, stop in zip(edges[:-1], edges[1:]))


_TENSOR_SPLIT_OVERLOADS = ("Tensor input, tuple of ints indices, int dim = 0",
                          "Tensor input, Tensor tensor_indices_or_sections, int dim = 0",
                          "Tensor input, int sections, int dim = 0")
_TENSOR_SPLIT_KEYWORDS = {"indices": (tuple, list), "sections": (builtins.int,),
                          "tensor_indices_or_sections": (Tensor,)}


def _tensor_split_arguments(input, args, kwargs):
    """``(indices_or_sections, dim)`` from a call's arguments, or PyTorch's TypeError."""
    named = [key for key in kwargs if key in _TENSOR_SPLIT_KEYWORDS]
    unknown = set(kwargs) - set(named) - {"dim"}
    if len(args) > 2 or (len(args) == 2 and "dim" in kwargs) or unknown or \
            len(args) + len(named) != 1 + (len(args) == 2):
        raise invalid_combination("tensor_split", (input, *args), kwargs, _TENSOR_SPLIT_OVERLOADS)
    if named:
        value = kwargs[named[0]]
        if not isinstance(value, _TENSOR_SPLIT_KEYWORDS[named[0]]) or isinstance(value, bool):
            raise invalid_combination("tensor_split", (input, *args), kwargs,
                                      _TENSOR_SPLIT_OVERLOADS)
        return value, kwargs.get("dim", 0)
    return args[0], args[1] if len(args) == 2 else kwargs.get("dim", 0)


def _section_starts(sections, size):
    if sections <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
    longer, length = size % sections, size // sections
    return [i * length + builtins.min(i, longer) for i in range(1, sections)]


def _split_points(tensor):
    """A tensor argument of tensor_split: 0-d, a number of sections; 1-d, the indices."""
    points = tensor._array
    if points.ndim > 1:
        raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a "
                           f"zero-dimensional or one-dimensional tensor, but got a tensor with "
                           f"{points.ndim} dims")
    if points.dtype != np.int64:
        raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype of "
                           f"long, but got {_LEGACY_TYPE_NAMES[tensor.dtype.name]}")
    return points.tolist()


def chunk(input, chunks, dim=0):
    if _as_int(chunks) is None:
        raise TypeError(f"chunk(): argument 'chunks' (position 2) must be int, not "
                        f"{type(chunks).__name__}")
    if input._array.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = input._array.shape[_axis(dim, input._array.ndim)]
    if size == 0:  # PyTorch then makes ``chunks`` empty pieces
        return split_with_sizes(input, [0] * chunks, dim)
    return split(input, -(-size // chunks), dim)


def unbind(input, dim=0):
    dim = _axis(dim, input._array.ndim)
    if input._array.ndim == 0:
        raise no_dimensions_error(dim)
    return _unbind(input, dim=dim)


def expand_as(input, other):
    return expand(input, other._array.shape)
