"""Building and turning whole tensors: block_diag, rot90, atleast_1d/2d/3d, tril_/triu_."""
import numpy as np

from . import layout  # noqa: F401  (registers the tril/triu primitives the in-place forms use)
from .inplace import apply_inplace
from .layout import _dims_of
from .registry import OTHER, PRIMITIVES, primitive
from .shape import _same_dtype, getitem, reshape, unsqueeze

__all__ = ["block_diag", "rot90", "atleast_1d", "atleast_2d", "atleast_3d", "tril_", "triu_"]


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
    out = np.zeros(shape, arrays[0].dtype if arrays else np.float32)
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
    return _block_diag(*_same_dtype(tensors)) if tensors else _block_diag()


@primitive("rot90", node="Rot90Backward0", group=OTHER)
def _rot90(a, *, k, dims):
    return np.ascontiguousarray(np.rot90(a, k, axes=dims))


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
    first, second = (d % input._array.ndim for d in dims)
    if first == second:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {first} and "
                           f"dim1 = {second}")
    _dims_of(dims, input._array.ndim)  # PyTorch's range check
    return _rot90(input, k=k % 4, dims=(first, second))


def _atleast(tensors, ndim, grow):
    """One tensor or a sequence (given as arguments or as one list) of them, each with at least
    ``ndim`` dimensions (a 0-d one viewed as all ones, the others grown by ``grow``); those that
    have them come back as they are."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    grown = tuple(t if t._array.ndim >= ndim else reshape(t, (1,) * ndim) if not t._array.ndim
                  else grow(t) for t in tensors)
    return grown[0] if len(grown) == 1 else grown


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
