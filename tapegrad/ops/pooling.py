"""Adaptive average and max pooling, and max unpooling, as primitives.

Adaptive pooling splits each of the last two dimensions into ``output_size`` bins as PyTorch
does (bin i spans [floor(i·n/m), ceil((i+1)·n/m)), neighbours may overlap):

* the average is linear: ``R @ x @ Cᵀ`` with 0/1 bin-membership matrices, divided by the bin
  areas; its gradient is the transpose, ``Rᵀ @ (grad / areas) @ C``, written with ``matmul``;
* the maximum gathers every bin (padded to the widest by repeating its last position, which
  never changes a maximum) and takes the argmax; the positions are an integer primitive's
  output and the values a gather at them, whose gradient is a ``scatter_add`` back — so the
  compiler traces it like any other op.

The 1-d forms are the 2-d primitives over a unit height, as in PyTorch (``SqueezeBackward1`` on
top). ``max_unpool2d`` scatters values to the flat positions ``max_pool2d`` returned; its gradient
gathers from them.
"""
import numpy as np

from .. import dtypes
from ..tensor import Tensor
from .conv import _pair, _single
from .creation import zeros
from .linalg import matmul
from .registry import OTHER, primitive
from .scatter import scatter_add
from .shape import gather

__all__ = ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d",
           "adaptive_max_pool2d", "max_unpool1d", "max_unpool2d"]


def _bins(size, bins):
    """Where each adaptive bin starts and (exclusively) ends along a dimension of ``size``."""
    index = np.arange(bins)
    return (index * size) // bins, -((-(index + 1) * size) // bins)


def _membership(size, bins):
    """(bins, size): 1 where a position belongs to a bin."""
    start, end = _bins(size, bins)
    positions = np.arange(size)
    return (positions >= start[:, None]) & (positions < end[:, None])


def _bin_areas(shape, output_size, dtype):
    rows, cols = (_membership(n, m).sum(1) for n, m in zip(shape[-2:], output_size))
    return np.outer(rows, cols).astype(dtype)


# ------------------------------------------------------------------------------- average

@primitive("adaptive_avg_pool2d", node="AdaptiveAvgPool2DBackward0", group=OTHER)
def _adaptive_avg_pool2d(x, *, output_size):
    rows, cols = (_membership(n, m).astype(x.dtype) for n, m in zip(x.shape[-2:], output_size))
    return (rows @ x @ cols.T) / _bin_areas(x.shape, output_size, x.dtype)


@_adaptive_avg_pool2d.vjp
def _(ctx, grad, output_size):
    shape, dtype = ctx.input_shapes[0], ctx.input_dtypes[0]
    rows, cols = (Tensor._make(_membership(n, m).astype(dtype))
                  for n, m in zip(shape[-2:], output_size))
    spread = grad / Tensor._make(_bin_areas(shape, output_size, dtype))
    return matmul(matmul(rows.t(), spread), cols)


def _output_size(output_size, shape, spatial, name):
    """``output_size`` as a tuple of ``spatial`` ints, None standing for the input's size."""
    if isinstance(output_size, int):
        return (output_size,) * spatial
    if spatial == 1:
        if len(output_size) != 1:
            raise RuntimeError(f"{name}() argument 'output_size' should contain one int (got "
                               f"{len(output_size)})")
        return tuple(output_size)
    if len(shape) <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    return tuple(size if wanted is None else wanted
                 for wanted, size in zip(output_size, shape[-len(output_size):]))


def _check_output_size(input, output_size):
    if min(output_size) < 0:
        shape = [*input.shape[:-2], *output_size]
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(output_size)}: "
                           f"{shape}")


def _check_2d(input, name, got="got"):
    if input.dim() not in (3, 4):
        raise RuntimeError(f"{name}(): Expected 3D or 4D tensor, but {got} {list(input.shape)}")
    for axis in range(input.dim() - 3, input.dim()):
        if input.shape[axis] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {axis} being empty")


def _check_1d(input, name):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor "
                           f"for argument #1 'self' (while checking arguments for {name})")


def adaptive_avg_pool2d(input, output_size):
    """Means over adaptive bins of the last two dimensions of a 3-d or 4-d ``input``; a 1x1
    output is a plain mean (``MeanBackward1``), as in PyTorch."""
    _check_2d(input, "adaptive_avg_pool2d")
    output_size = _output_size(output_size, input.shape, 2, "adaptive_avg_pool2d")
    _check_output_size(input, output_size)
    if output_size == (1, 1):
        return input.mean((-2, -1), keepdim=True)
    return _adaptive_avg_pool2d(input, output_size=output_size)


def adaptive_avg_pool1d(input, output_size):
    _check_1d(input, "adaptive_avg_pool1d")
    (length,) = _output_size(output_size, input.shape, 1, "adaptive_avg_pool1d")
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, length)).squeeze(-2)


# ------------------------------------------------------------------------------- maximum

def _bin_positions(size, bins):
    """(bins, widest bin): each bin's positions, the shorter ones repeating their last."""
    start, end = _bins(size, bins)
    width = (end - start).max(initial=1)
    return np.minimum(start[:, None] + np.arange(width), end[:, None] - 1)


def _adaptive_max(x, output_size):
    """Each bin's maximum and its flat position in the (H, W) plane (the first, on ties)."""
    height, width = x.shape[-2:]
    rows, cols = (_bin_positions(n, m) for n, m in zip((height, width), output_size))
    flat = rows[:, None, :, None] * width + cols[None, :, None, :]  # (OH, OW, KH, KW)
    flat = flat.reshape(len(rows), len(cols), rows.shape[1] * cols.shape[1])
    windows = x.reshape(*x.shape[:-2], height * width)[..., flat]
    best = windows.argmax(-1)[..., None]
    positions = np.take_along_axis(np.broadcast_to(flat, windows.shape), best, -1)[..., 0]
    return np.take_along_axis(windows, best, -1)[..., 0], positions.astype(np.int64)


@primitive("adaptive_max_pool2d_indices", node="AdaptiveMaxPool2DBackward0", group=OTHER)
def _adaptive_max_indices(x, *, output_size):
    """Where each bin's maximum is (integers: recorded by no node, traced by the compiler)."""
    return _adaptive_max(x, output_size)[1]


@primitive("adaptive_max_pool2d", node="AdaptiveMaxPool2DBackward0", group=OTHER,
           saves=("indices",), nondifferentiable=("indices",))
def _adaptive_max_pool2d(x, indices):
    """The values at ``indices``: the positions travel as a tensor, so the gradient (added
    back at them; overlapping bins may pick one position twice) is written with tapegrad ops."""
    picked = np.take_along_axis(x.reshape(*x.shape[:-2], -1),
                                indices.reshape(*indices.shape[:-2], -1), -1)
    return picked.reshape(indices.shape)


@_adaptive_max_pool2d.vjp
def _(ctx, grad):
    (indices,) = ctx.saved
    shape = ctx.input_shapes[0]
    plane = zeros(*shape[:-2], shape[-2] * shape[-1], dtype=grad.dtype)
    return scatter_add(plane, -1, indices.flatten(-2), grad.flatten(-2)).reshape(shape), None


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Maxima over adaptive bins of the last two dimensions, and (``return_indices``) their
    flat positions in the (H, W) plane, as ``max_pool2d`` returns them."""
    _check_2d(input, "adaptive_max_pool2d", got="got:")
    output_size = _output_size(output_size, input.shape, 2, "adaptive_max_pool2d")
    _check_output_size(input, output_size)
    indices = _adaptive_max_indices(input, output_size=output_size)
    values = _adaptive_max_pool2d(input, indices)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d(input, output_size, return_indices=False):
    _check_1d(input, "adaptive_max_pool1d")
    (length,) = _output_size(output_size, input.shape, 1, "adaptive_max_pool1d")
    values, indices = adaptive_max_pool2d(input.unsqueeze(-2), (1, length), True)
    values = values.squeeze(-2)
    return (values, indices.squeeze(-2)) if return_indices else values


# ------------------------------------------------------------------------------ unpooling

@primitive("max_unpool2d", node="MaxUnpool2DBackward0", group=OTHER, saves=("indices",),
           nondifferentiable=("indices",))
def _max_unpool2d(x, indices, *, output_size):
    *batch, height, width = x.shape
    plane = np.zeros((*batch, output_size[0] * output_size[1]), dtype=x.dtype)
    np.put_along_axis(plane, indices.reshape(*batch, height * width),
                      x.reshape(*batch, height * width), axis=-1)
    return plane.reshape(*batch, *output_size)


@_max_unpool2d.vjp
def _(ctx, grad, output_size):
    (indices,) = ctx.saved
    shape = ctx.input_shapes[0]
    return gather(grad.flatten(-2), -1, indices.flatten(-2)).reshape(shape), None


def _unpool_output_size(input, kernel, stride, padding, output_size):
    """PyTorch's: the size max pooling came from, or ``output_size`` if it is one it could."""
    spatial = len(kernel)
    default = [(n - 1) * s + k - 2 * p for n, k, s, p in zip(input.shape[-spatial:], kernel,
                                                              stride, padding)]
    if output_size is None:
        size = default
    else:
        if len(output_size) == spatial + 2:
            output_size = output_size[2:]
        if len(output_size) != spatial:
            raise ValueError(f"output_size should be a sequence containing {spatial} or "
                             f"{spatial + 2} elements, but it has a length of "
                             f"'{len(output_size)}'")
        for d, (wanted, n, s) in enumerate(zip(output_size, default, stride)):
            if not n - s < wanted < n + s:
                raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between '
                                 f'{n - s} and {n + s})')
        size = output_size
    for d, n in enumerate(size):
        if n < 0:
            raise ValueError("max_unpooling: output_size must contain non-negative spatial "
                             f"dimensions, but got output_size[{d}]={n}")
    return tuple(size)


def _as_tuple(value, spatial, name):
    return (_single(value, name),) if spatial == 1 else _pair(value, name)


def _unpool(input, indices, output_size):
    """Checks as ATen's max_unpool2d, then the primitive over (H, W) = ``output_size``."""
    if input.dim() not in (3, 4):
        raise RuntimeError("Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor "
                           f"with {input.dim()} dimensions.")
    if indices.dtype != dtypes.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: "
                           f"{indices.type()[6:-6]}")
    if indices.shape != input.shape:
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    positions = indices._array
    outside = (positions < 0) | (positions >= output_size[0] * output_size[1])
    if outside.any():
        raise RuntimeError(f"Found an invalid max index: {positions[outside].flat[-1]} (output "
                           f"volumes are of size {output_size[0]}x{output_size[1]})")
    return _max_unpool2d(input, indices, output_size=output_size)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of ``max_pool2d(return_indices=True)``: each value put back at its index,
    zeros elsewhere."""
    kernel = _as_tuple(kernel_size, 2, "kernel_size")
    stride = kernel if stride is None else _as_tuple(stride, 2, "stride")
    size = _unpool_output_size(input, kernel, stride, _as_tuple(padding, 2, "padding"),
                               output_size)
    return _unpool(input, indices, size)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """``max_unpool2d`` over a unit width, as PyTorch computes it."""
    kernel = _as_tuple(kernel_size, 1, "kernel_size")
    stride = kernel if stride is None else _as_tuple(stride, 1, "stride")
    (length,) = _unpool_output_size(input, kernel, stride, _as_tuple(padding, 1, "padding"),
                                    output_size)
    return _unpool(input.unsqueeze(-1), indices.unsqueeze(-1), (length, 1)).squeeze(-1)
