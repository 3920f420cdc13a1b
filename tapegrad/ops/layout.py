"""Operations that rearrange elements without arithmetic: flips, rolls, triangles, repeats,
stacking helpers, broadcasting helpers, diagonals and traces."""
import builtins
import functools
import warnings

import numpy as np

from ..memory_format import (_element_strides, _empty_strided, contiguous_format, copy_in, is_in,
                             is_non_overlapping_and_dense, suggested)
from ..tensor import _LEGACY_TYPE_NAMES, Size, Tensor
from .broadcast import expand
from .creation import _index, arange, zeros
from .inplace import fill_
from .legacy_print import legacy_print
from .operands import broadcast_error
from .reduction import normalize_dims
from .reduction import sum as _reduce_sum
from .registry import OTHER, VIEW, Primitive, primitive
from .shape import _axis, cat, getitem, index_select, reshape

__all__ = [
    "flip", "fliplr", "flipud", "roll", "tril", "triu", "repeat", "tile", "repeat_interleave",
    "hstack", "vstack", "broadcast_tensors", "broadcast_shapes", "meshgrid", "diagonal", "diag",
    "diag_embed", "trace", "fill_diagonal_",
]


def laid_out_like(result, source):
    """``result`` (of ``source``'s shape) laid out as PyTorch's ``empty_like(source)`` is:
    with ``source``'s strides when they are dense, else in the format they suggest."""
    if source.flags.c_contiguous:
        return np.asarray(result, order="C")
    if is_non_overlapping_and_dense(source) and builtins.min(source.strides) >= 0:
        out = _empty_strided(source.shape, _element_strides(source), result.dtype)
        out[...] = result
        return out
    format = suggested(source)
    return result if is_in(result, format) else copy_in(result, format)


# ---------------------------------------------------------------------- flips, rolls, triangles


def _dims_of(dims, ndim):
    """``dims`` (an int or a sequence) as a sorted tuple of non-negative axes; () for 0-d."""
    return normalize_dims((dims,) if isinstance(dims, int) else tuple(dims), ndim) or ()


@primitive("flip", node="FlipBackward0", group=OTHER, complex_rule=True)
def _flip(a, dims):
    # PyTorch's flip copies into the input's layout (a channels_last image stays one)
    return np.flip(a, axis=dims).copy(order="K")


@_flip.vjp
def _(ctx, grad, dims):
    return _flip(grad, dims=dims)


def _int_list(function, name, value, position=None, scalar_ok=False):
    """``value`` as PyTorch's argument parser takes an ``int[]``: a tuple or list of ints (an
    int alone too when ``scalar_ok``), else its TypeError."""
    if scalar_ok and _index(value) is not None:  # also an integer tensor of one element
        return _index(value)
    if isinstance(value, (tuple, list)) and builtins.all(
            isinstance(v, (builtins.int, np.integer)) for v in value):
        return tuple(value)
    where = "" if position is None else f" (position {position})"
    raise TypeError(f"{function}(): argument '{name}'{where} must be tuple of ints, not "
                    f"{type(value).__name__}")


def _varargs(function, name, args, value):
    """A method's ``int[]`` given as ``x.f(0, 1)``, ``x.f((0, 1))`` or ``x.f(name=(0, 1))``."""
    if value is not None:
        return _int_list(function, name, value)
    if not args:
        raise TypeError(f'{function}() missing 1 required positional arguments: "{name}"')
    return _int_list(function, name, args[0] if len(args) == 1 and isinstance(
        args[0], (tuple, list)) else args, 1)


def flip(input, dims):
    """``flip(x, (0, 1))``: reverse the order along ``dims`` (a tuple or list, as PyTorch)."""
    dims = _int_list("flip", "dims", dims, 2)
    return _flip(input, dims=_dims_of(dims, input._array.ndim))


def flip_method(input, *args, dims=None):
    """``x.flip(0, 1)``, ``x.flip((0, 1))`` or ``x.flip(dims=[0])``."""
    return flip(input, _varargs("flip", "dims", args, dims))


def fliplr(input):
    """Columns in reverse order: ``flip`` along dim 1."""
    if input._array.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return _flip(input, dims=(1,))


def flipud(input):
    """Rows in reverse order: ``flip`` along dim 0."""
    if input._array.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return _flip(input, dims=(0,))


@primitive("roll", node="RollBackward0", group=OTHER, complex_rule=True)
def _roll(a, shifts, dims):
    # PyTorch's roll writes row-major (channels_last when the input suggests it), whatever
    # order the input's strides have
    rolled = np.roll(a, shifts, axis=dims)
    format = suggested(a) if dims is not None else contiguous_format
    return rolled if is_in(rolled, format) else copy_in(rolled, format)


@_roll.vjp
def _(ctx, grad, shifts, dims):
    back = -shifts if isinstance(shifts, int) else tuple(-s for s in shifts)
    return _roll(grad, shifts=back, dims=dims)


def roll(input, shifts, dims=None):
    """Elements shifted along ``dims`` (all of them, flattened, when None), wrapping around."""
    shifts = _int_list("roll", "shifts", shifts, 2, scalar_ok=True)
    if dims is not None:
        dims = _int_list("roll", "dims", dims, 3, scalar_ok=True)
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:0")
        return _roll(input, shifts=shifts[0], dims=None)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                           f"{len(dims)}")
    ndim = input._array.ndim
    if ndim == 0:  # a scalar rolls only flattened (dims=None)
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    if not input._array.size:  # PyTorch copies an empty input as it is, its dims unchecked
        return _roll(input, shifts=shifts, dims=(0,) * len(dims))
    return _roll(input, shifts=shifts, dims=tuple(_dims_of(d, ndim)[0] for d in dims))


def _triangle(name, node, keep):
    """``tril``/``triu``: the entries on one side of a diagonal of the last two dimensions."""
    prim = Primitive(name, lambda a, diagonal: keep(a, diagonal), node=node, group=OTHER)
    prim.vjp(lambda ctx, grad, diagonal: prim(grad, diagonal=diagonal))

    def apply(input, diagonal=0):
        if input._array.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        return prim(input, diagonal=diagonal)
    apply.__name__ = name
    return apply


tril = _triangle("tril", "TrilBackward0", lambda a, k: np.tril(a, k))
triu = _triangle("triu", "TriuBackward0", lambda a, k: np.triu(a, k))


# ------------------------------------------------------------------------------------- repeats


@primitive("repeat", node="RepeatBackward0", group=OTHER, complex_rule=True)
def _repeat(a, repeats):
    return np.asarray(np.tile(a, repeats), order="C")  # row-major, whatever the input's order


@_repeat.vjp
def _(ctx, grad, repeats):
    """Each input element received one gradient per copy: PyTorch's repeat_backward sums the
    leading new dims away one at a time, then folds each repeated dim out as (repeat, size)
    and sums the copies in one go (so that create_graph records its nodes)."""
    shape = ctx.input_shapes[0]
    if 0 in repeats:
        return zeros(shape, dtype=grad.dtype)
    for _ in range(len(repeats) - len(shape)):
        grad = _reduce_sum(grad, 0)
    folded, copies = [], []
    for repeat, size in zip(repeats[len(repeats) - len(shape):], shape):
        if repeat != 1:
            copies.append(len(folded))
            folded.append(repeat)
        folded.append(size)
    if copies:
        grad = _reduce_sum(reshape(grad, tuple(folded)), tuple(copies))
    return grad


def repeat(input, *sizes, repeats=None):
    """``x.repeat(2, 1)``, ``x.repeat((2, 1))`` or ``x.repeat(repeats=(2, 1))``: the tensor
    tiled, each dimension ``sizes[i]`` times (leading new dimensions for extra sizes)."""
    sizes = tuple(builtins.int(s) for s in _varargs("repeat", "repeats", sizes, repeats))
    if len(sizes) < input._array.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    if any(s < 0 for s in sizes):
        _refuse_negative_size(input._array.shape, sizes)
    return _repeat(input, repeats=sizes)


def _refuse_negative_size(shape, repeats):
    """PyTorch's error for a negative repeat: the first negative size of the result it would
    allocate (each size the input's times its repeat)."""
    padded = (1,) * (len(repeats) - len(shape)) + tuple(shape)
    result = [n * r for n, r in zip(padded, repeats)]
    first = next(n for n in result if n < 0)
    raise RuntimeError(f"Trying to create tensor with negative dimension {first}: {result}")


def tile(input, dims):
    """``tile(x, (2, 1))``: ``repeat``, with the dims a tuple shorter than the tensor leaves
    alone."""
    dims = _int_list("tile", "dims", dims, 2)
    return repeat(input, (1,) * (input._array.ndim - len(dims)) + dims)


def tile_method(input, *args, dims=None):
    """``x.tile(2, 1)``, ``x.tile((2, 1))`` or ``x.tile(dims=(2,))``."""
    return tile(input, _varargs("tile", "dims", args, dims))


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element repeated in place: ``[1, 2] -> [1, 1, 2, 2]``. With a tensor alone, the
    indices repeated by its counts (``repeat_interleave(tensor([1, 2])) -> [0, 1, 1]``)."""
    if repeats is None:
        if input._array.ndim != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        return Tensor._make(_repeated_indices(input._array, output_size))
    if dim is None:  # flattened (a vector is itself: no view in the graph)
        input, dim = (input if input._array.ndim == 1 else reshape(input, -1)), 0
    if isinstance(repeats, Tensor):
        counts = repeats._array
        if counts.ndim > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        size = input.size(dim)  # PyTorch's errors for ``dim``, which its message repeats as given
        if counts.size == 1:  # one count for every element, as PyTorch expands it
            counts = np.broadcast_to(counts.reshape(1), (size,))
        if counts.shape != (size,):
            raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                               f"repeats.size(0) = {counts.size} and input.size({dim}) = {size}")
        return index_select(input, dim, Tensor._make(_repeated_indices(counts, output_size)))
    dim = (_dims_of(dim, input._array.ndim) or (0,))[0]  # (a 0-d input takes 0 and -1)
    times = builtins.int(repeats)
    if times < 0:
        raise RuntimeError("Repeats must be non-negative")
    spread = input.unsqueeze(dim + 1)  # (PyTorch's error for a 0-d input, which has no dim + 1)
    shape = input._array.shape
    if output_size is not None and output_size != shape[dim] * times:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected "
                           f"{shape[dim] * times} but got {output_size}")
    spread = expand(spread, shape[:dim + 1] + (times,) + shape[dim + 1:])
    return spread.contiguous().view(shape[:dim] + (shape[dim] * times,) + shape[dim + 1:])


def _repeated_indices(counts, output_size):
    """Each index ``i`` ``counts[i]`` times, with PyTorch's checks of the counts: none of no
    counts; ``output_size`` is the size it allocates, before checking that it is the total."""
    if counts.dtype not in (np.int32, np.int64):
        raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[counts.dtype.name]}'")
    if counts.size and output_size is not None:
        if output_size < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {output_size}: "
                               f"[{output_size}]")
        if output_size != counts.sum():
            raise RuntimeError("allocated size does not match required size")
    if counts.size and counts.min() < 0:
        raise RuntimeError("repeats can not be negative")
    return np.repeat(np.arange(counts.size, dtype=counts.dtype), counts)  # (int32 stays int32)


def _at_least(tensor, ndim):
    """``atleast_1d``/``atleast_2d``: leading size-1 dimensions up to ``ndim``."""
    shape = tensor._array.shape
    return tensor if len(shape) >= ndim else reshape(tensor, (1,) * (ndim - len(shape)) + shape)


def require_tensors(name, tensors):
    """PyTorch refuses an empty sequence before looking at any tensor."""
    if not len(tensors):
        raise RuntimeError(f"{name} expects a non-empty TensorList")


def hstack(tensors):
    require_tensors("hstack", tensors)
    tensors = [_at_least(t, 1) for t in tensors]
    return cat(tensors, 0 if tensors[0]._array.ndim == 1 else 1)


def vstack(tensors):
    require_tensors("vstack", tensors)
    return cat([_at_least(t, 2) for t in tensors], 0)


def broadcast_shapes(*shapes):
    """The shape the given shapes broadcast to; a mismatch is reported as PyTorch reports it,
    against what the shapes before it broadcast to."""
    given = [(s,) if isinstance(s, int) else s for s in shapes]
    result = [1] * max((len(s) for s in given), default=0)
    for index, shape in enumerate(given):
        for dim in range(-1, -1 - len(shape), -1):
            size = shape[dim]
            if size == 1 or size == result[dim]:
                continue
            if result[dim] != 1 or size < 0:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {size} at {dim}! Mismatching "
                    f"argument at index {index} had {shape!r}; but expected shape should be "
                    f"broadcastable to {result}")
            result[dim] = size
    return Size(tuple(result))


def broadcast_tensors(*tensors):
    try:
        shape = Size(np.broadcast_shapes(*(t._array.shape for t in tensors)))
    except ValueError:
        raise RuntimeError(broadcast_error(tensors, {})) from None
    return tuple(t if t._array.shape == shape else expand(t, shape) for t in tensors)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids: each 0-d or 1-d tensor viewed along its own dim and expanded to the
    grid's shape; ``"xy"`` puts the first two along dims 1 and 0 (matrix vs Cartesian order)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        _warn_meshgrid_needs_indexing()
        indexing = "ij"
    _check_meshgrid(tensors, indexing)
    dims = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) > 1:
        dims[0], dims[1] = 1, 0
    shape = [0] * len(tensors)
    for t, d in zip(tensors, dims):
        shape[d] = t._array.size
    return tuple(expand(reshape(t, [-1 if i == d else 1 for i in range(len(shape))]), shape)
                 for t, d in zip(tensors, dims))


def _check_meshgrid(tensors, indexing):
    """ATen's checks in its order: the list, the dtypes, ``indexing``, then the dimensions, of
    the first two tensors swapped for ``"xy"``."""
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    if len({t._array.dtype for t in tensors}) > 1:
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: '
                           f"{indexing}")
    tensors = list(tensors)
    if indexing == "xy" and len(tensors) > 1:
        tensors[0], tensors[1] = tensors[1], tensors[0]
    for t in tensors:
        if t._array.ndim > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got: {legacy_print(t._array)}")


@functools.cache
def _warn_meshgrid_needs_indexing():
    """Once per process, as PyTorch's TORCH_WARN_ONCE."""
    warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the "
                  "indexing argument.", UserWarning, stacklevel=3)

# ----------------------------------------------------------------------- diagonals, traces


def _diagonal_view(a, offset, dim1, dim2):
    """The (writable) strided view of a diagonal, last dimension the diagonal, as PyTorch's."""
    start = [slice(None)] * a.ndim
    if offset >= 0:
        start[dim2] = slice(offset, None)
    else:
        start[dim1] = slice(-offset, None)
    shifted = a[tuple(start)]
    length = builtins.min(shifted.shape[dim1], shifted.shape[dim2])
    rest = [d for d in range(a.ndim) if d not in (dim1, dim2)]
    shape = tuple(shifted.shape[d] for d in rest) + (length,)
    strides = tuple(shifted.strides[d] for d in rest) + (shifted.strides[dim1] +
                                                         shifted.strides[dim2],)
    return np.lib.stride_tricks.as_strided(shifted, shape, strides)


@primitive("diagonal", node="DiagonalBackward0", group=VIEW, is_view=True)
def _diagonal(a, offset, dim1, dim2):
    return _diagonal_view(a, offset, dim1, dim2)


@primitive("diagonal_copy", node="DiagonalBackward0_copy", group=OTHER)
def _diagonal_copy(a, offset, dim1, dim2):
    return _diagonal_view(a, offset, dim1, dim2).copy()


@_diagonal.vjp
@_diagonal_copy.vjp
def _(ctx, grad, offset, dim1, dim2):
    return _diagonal_backward(grad, shape=ctx.input_shapes[0], offset=offset, dim1=dim1,
                              dim2=dim2)


@primitive("diagonal_backward", node="DiagonalBackwardBackward0", group=OTHER)
def _diagonal_backward(grad, shape, offset, dim1, dim2):
    out = np.zeros(shape, dtype=grad.dtype)
    _diagonal_view(out, offset, dim1, dim2)[...] = grad
    return out


@_diagonal_backward.vjp
def _(ctx, grad, shape, offset, dim1, dim2):
    return _diagonal(grad, offset=offset, dim1=dim1, dim2=dim2)


def diagonal(input, offset=0, dim1=0, dim2=1):
    ndim = input._array.ndim
    first, second = _axis(dim1, ndim), _axis(dim2, ndim)  # a 0-d input takes -1 and 0
    if first == second:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return _diagonal(input, offset=offset, dim1=first, dim2=second)


@primitive("diag_embed", node="DiagEmbedBackward0", group=OTHER)
def _diag_embed(a, offset, dim1, dim2):
    size = a.shape[-1] + builtins.abs(offset)
    out = np.zeros(a.shape[:-1] + (size, size), dtype=a.dtype)
    _diagonal_view(out, offset, out.ndim - 2, out.ndim - 1)[...] = a
    return np.ascontiguousarray(np.moveaxis(out, (-2, -1), (dim1, dim2)))


@_diag_embed.vjp
def _(ctx, grad, offset, dim1, dim2):
    return _diagonal(grad, offset=offset, dim1=dim1, dim2=dim2)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Matrices in the planes (``dim1``, ``dim2``) of a result with one more dimension, with the
    last dimension of ``input`` along their ``offset`` diagonal."""
    ndim = input._array.ndim + 1
    first, second = _axis(dim1, ndim), _axis(dim2, ndim)
    if first == second:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return _diag_embed(input, offset=offset, dim1=first, dim2=second)


def diag(input, diagonal=0):
    """A vector's square diagonal matrix, or a copy of a matrix's diagonal."""
    ndim = input._array.ndim
    if ndim == 1:
        return _diag_embed(input, offset=diagonal, dim1=0, dim2=1)
    if ndim == 2:
        return _diagonal_copy(input, offset=diagonal, dim1=0, dim2=1)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {ndim}D")


@primitive("trace", node="TraceBackward0", group=OTHER)
def _trace(a):
    return np.asarray(np.trace(a, dtype=np.int64 if a.dtype.kind in "iu" else None))


@_trace.vjp
def _(ctx, grad):
    """PyTorch's trace_backward: ``grad`` filled into the diagonal of zeros (no ``inf * 0``
    off it), viewed as the matrix."""
    from .scatter import _index_fill_tensor  # (scatter builds on this module)
    rows, columns = ctx.input_shapes[0]
    diagonal = arange(0, builtins.min(rows, columns) * (columns + 1), columns + 1)
    filled = _index_fill_tensor(zeros(rows * columns, dtype=grad.dtype), diagonal, grad, dim=0)
    return reshape(filled, (rows, columns))


def trace(input):
    if input._array.ndim != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim "
                           f"{input._array.ndim}")
    if input._array.dtype == np.bool_:
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    return _trace(input)


def fill_diagonal_(input, fill_value, wrap=False):
    """Fill the main diagonal in place (``a[i, i, …] = value``); ``wrap`` restarts it below a
    tall matrix's square part, every ``columns + 1`` rows, as in PyTorch."""
    shape = input._array.shape
    if len(shape) < 2 or len(set(shape)) != 1 and len(shape) > 2:
        raise RuntimeError("all dimensions of input must be of equal length"
                           if len(shape) > 2 else "dimensions must larger than 1")
    if wrap and len(shape) == 2 and shape[0] > shape[1] + 1:
        flat = input.view(-1)
        fill_(getitem(flat, slice(0, None, shape[1] + 1)), fill_value)
        return input
    target = input
    while target._array.ndim > 1:
        target = diagonal(target, 0, 0, 1)
    fill_(target, fill_value)
    return input
