"""Building, splitting and turning whole tensors: block_diag, rot90, atleast_1d/2d/3d,
tril_/triu_, vander, diagflat, column_stack/row_stack/dstack, hsplit/vsplit/dsplit, ravel,
unravel_index; and the predicates is_nonzero, is_same_size, is_signed."""
import numpy as np

from .. import dtypes
from ..tensor import Tensor
from . import layout  # noqa: F401  (registers the tril/triu primitives the in-place forms use)
from .creation import ones, zeros
from .cumulative import cumprod
from .inplace import apply_inplace
from .layout import diag_embed, flip, hstack, require_tensors, vstack
from .registry import OTHER, PRIMITIVES, primitive
from .creation import _index as _as_int
from .operands import check_tensor_elements
from .shape import _axis, _same_dtype, cat, getitem, reshape, setitem, tensor_split, unsqueeze
from .signatures import invalid_combination

__all__ = ["block_diag", "rot90", "atleast_1d", "atleast_2d", "atleast_3d", "tril_", "triu_",
           "vander", "diagflat", "column_stack", "row_stack", "dstack", "hsplit", "vsplit",
           "dsplit", "ravel", "unravel_index", "is_nonzero", "is_same_size", "is_signed"]


def _as_matrix_shape(shape):
    """How block_diag places a tensor: a 0-d one as 1 x 1, a vector as one row."""
    return (1, 1) if len(shape) == 0 else (1, shape[0]) if len(shape) == 1 else shape


def _block_corners(shapes):
    """The (row, column) where each block starts, and the result's shape."""
    sizes = np.array([_as_matrix_shape(s) for s in shapes], np.int64).reshape(-1, 2)
    starts = np.concatenate([np.zeros((1, 2), np.int64), np.cumsum(sizes, axis=0)])
    return starts[:-1], sizes, tuple(int(v) for v in starts[-1])


@primitive("block_diag", node="BlockDiagBackward0", group=OTHER)
def _block_diag(*arrays):
    starts, sizes, shape = _block_corners([a.shape for a in arrays])
    out = np.zeros(shape, arrays[0].dtype)
    for array, (row, col), (rows, cols) in zip(arrays, starts, sizes):
        out[row:row + rows, col:col + cols] = array.reshape(rows, cols)
    return out


@_block_diag.vjp
def _(ctx, grad):
    starts, sizes, _ = _block_corners(ctx.input_shapes)
    return tuple(
        reshape(getitem(grad, (slice(row, row + rows), slice(col, col + cols))), shape)
        if needed else None
        for (row, col), (rows, cols), shape, needed
        in zip(starts.tolist(), sizes.tolist(), ctx.input_shapes, ctx.needs_input_grad))


def block_diag(*tensors):
    """The tensors (at most 2-d; a vector is one row) along the diagonal of a zero matrix."""
    for i, tensor in enumerate(tensors):
        if tensor._array.ndim > 2:
            raise RuntimeError("torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                               f"Input {i} has {tensor._array.ndim} dimensions")
    if not tensors:
        return zeros(1, 0)  # as PyTorch: one empty row, of the default dtype
    return _block_diag(*_same_dtype(tensors))


@primitive("rot90", node="Rot90Backward0", group=OTHER)
def _rot90(a, *, k, dims):
    """PyTorch's construction, strides included: a quarter turn is a flip copied, then
    transposed (a non-contiguous result); a half turn a flip of both dims."""
    first, second = dims
    if k == 1:
        return np.ascontiguousarray(np.flip(a, second)).swapaxes(first, second)
    if k == 3:
        return np.ascontiguousarray(np.flip(a, first)).swapaxes(first, second)
    return np.ascontiguousarray(np.flip(a, dims) if k == 2 else a)


@_rot90.vjp
def _(ctx, grad, k, dims):
    return _rot90(grad, k=-k % 4, dims=dims)


def rot90(input, k=1, dims=(0, 1)):
    """``input`` turned by 90 degrees ``k`` times in the plane ``dims``, from the first axis
    towards the second."""
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input._array.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input._array.ndim}")
    first, second = (_axis(d, input._array.ndim) for d in dims)
    if first == second:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and "
                           f"dim1 = {dims[1]}")
    return _rot90(input, k=k % 4, dims=(first, second))


def _atleast(tensors, ndim, grow):
    """One tensor or a sequence (given as arguments or as one list) of them, each with at least
    ``ndim`` dimensions (a 0-d one viewed as all ones, the others grown by ``grow``); those that
    have them come back as they are: one tensor alone, more (or one in a sequence) as a tuple."""
    name = f"atleast_{ndim}d"
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors, single = tuple(tensors[0]), False
    elif len(tensors) == 1 and not isinstance(tensors[0], Tensor):
        raise invalid_combination(name, tensors, {}, ("Tensor input", "tuple of Tensors tensors"))
    else:
        single = len(tensors) == 1
    check_tensor_elements(tensors)
    grown = tuple(t if t._array.ndim >= ndim else reshape(t, (1,) * ndim) if not t._array.ndim
                  else grow(t) for t in tensors)
    return grown[0] if single else grown


def atleast_1d(*tensors):
    return _atleast(tensors, 1, None)


def atleast_2d(*tensors):
    return _atleast(tensors, 2, lambda t: unsqueeze(t, 0))


def atleast_3d(*tensors):
    """A vector of n elements becomes 1 x n x 1, a matrix gains a last axis (as numpy)."""
    return _atleast(tensors, 3, lambda t: unsqueeze(atleast_2d(t), -1))


def tril_(input, diagonal=0):
    """``tril`` written into ``input``."""
    return _triangle_(PRIMITIVES["tril"], "tril", input, diagonal)


def triu_(input, diagonal=0):
    return _triangle_(PRIMITIVES["triu"], "triu", input, diagonal)


def _triangle_(prim, name, input, diagonal):
    if input._array.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return apply_inplace(prim, input, (), {"diagonal": diagonal})


def increasing_powers(x, n):
    """x^0 .. x^(n-1) along a new last dimension, as PyTorch builds them: a column of ones and the
    running products of ``x`` (integers and booleans give int64, as cumprod does)."""
    if x._array.dtype.kind in "biu":
        x = x.to(dtypes.int64)
    column = x._array.shape + (1,)
    if n <= 1:
        return ones(x._array.shape + (n,), dtype=x.dtype)
    products = cumprod(unsqueeze(x, -1).expand(x._array.shape + (n - 1,)), -1)
    return cat([ones(column, dtype=x.dtype), products], -1)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the vector ``x``: columns x^(N-1) .. x^0 (the other way round
    with ``increasing``), ``N`` defaulting to ``len(x)``."""
    if N is not None and _as_int(N) is None:
        raise TypeError(f"vander(): argument 'N' must be int, not {type(N).__name__}")
    if x._array.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    if N is not None and N < 0:
        raise RuntimeError("N must be non-negative.")
    if x._array.dtype.kind in "biu":
        x = x.to(dtypes.int64)
    size = x._array.shape[0]
    n = size if N is None else _as_int(N)
    powers = ones((size, n), dtype=x.dtype)
    if n > 1:  # written into the ones as PyTorch does (its grad_fn is CopySlices)
        setitem(powers, (slice(None), slice(1, None)),
                cumprod(unsqueeze(x, 1).expand((size, n - 1)), 1))
    return powers if increasing else flip(powers, (1,))


def diagflat(input, offset=0):
    """The elements of ``input``, flattened, on the ``offset`` diagonal of a zero matrix."""
    return diag_embed(reshape(input, (-1,)), offset)


def column_stack(tensors):
    """Tensors side by side as columns: a 0-d or 1-d one is one column."""
    require_tensors("column_stack", tensors)
    return hstack([reshape(t, (t._array.size, 1)) if t._array.ndim <= 1 else t
                   for t in tensors])


def row_stack(tensors):
    """``vstack``'s other name."""
    return vstack(tensors)


def dstack(tensors):
    """Tensors stacked along the third dimension (each made at least 3-d first)."""
    require_tensors("dstack", tensors)
    return cat([atleast_3d(t) for t in tensors], 2)


def _split_along(name, input, indices_or_sections, dim, min_ndim):
    if input._array.ndim < min_ndim:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {min_ndim} dimension, "
                           f"but got a tensor with {input._array.ndim} dimensions!")
    if isinstance(indices_or_sections, int):
        size = input._array.shape[dim]
        if indices_or_sections == 0 or size % indices_or_sections:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the "
                               f"size of the dimension {size} is not divisible by the split_size "
                               f"{indices_or_sections}!")
    return tensor_split(input, indices_or_sections, dim)


def hsplit(input, indices_or_sections):
    """``tensor_split`` along the columns (dimension 1; 0 for a vector), equal sections only."""
    return _split_along("hsplit", input, indices_or_sections, int(input._array.ndim > 1), 1)


def vsplit(input, indices_or_sections):
    return _split_along("vsplit", input, indices_or_sections, 0, 2)


def dsplit(input, indices_or_sections):
    return _split_along("dsplit", input, indices_or_sections, 2, 3)


def ravel(input):
    """A flat view when the layout allows one, a flat copy otherwise."""
    return reshape(input, (-1,))


def unravel_index(indices, shape):
    """The coordinates in a tensor of ``shape`` of the flat positions ``indices``: a tuple of
    int64 tensors, one per dimension (a position past the end or negative wraps, as PyTorch)."""
    if not isinstance(indices, Tensor) or indices._array.dtype.kind not in "iu":
        dtype = indices.dtype if isinstance(indices, Tensor) else type(indices).__name__
        raise TypeError(f"expected 'indices' to be integer dtype, but got {dtype}")
    if isinstance(shape, int):
        shape = (shape,)
    elif not isinstance(shape, (list, tuple)):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    for size in shape:
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got "
                            f"{type(size)}")
    if any(size < 0 for size in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {tuple(shape)}")
    strides = np.cumprod((1,) + tuple(shape[:0:-1]))[::-1].astype(np.int64)
    coordinates = np.floor_divide(indices._array.astype(np.int64)[..., None], strides) % \
        np.array(shape, np.int64)
    return tuple(Tensor._make(np.array(coordinates[..., i]))
                 for i in range(len(shape)))


def is_nonzero(input):
    """The truth of a one-element tensor."""
    if input._array.size == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if input._array.size > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input._array.reshape(()))


def is_same_size(input, other):
    return input._array.shape == other._array.shape


def is_signed(input):
    """Whether the dtype holds negative numbers (not uint8, not bool)."""
    return input._array.dtype.kind in "fic"
