"""Views given by explicit strides: ``as_strided`` and ``unfold`` (sliding windows).

Both return numpy views of their input's memory, so that, as in PyTorch, they share it and (through
the dispatcher) its version counter. Their elements may overlap, so their gradients add up, at each
position of memory, the gradient of every element that views it.
"""
import math

import numpy as np
from numpy.lib.array_utils import byte_bounds

from ..tensor import Tensor, _address
from .creation import _index
from .inplace import _inplace_view
from .registry import OTHER, VIEW, primitive
from .shape import _axis

__all__ = ["as_strided", "as_strided_", "unfold", "unfold_backward"]


# ------------------------------------------------------------------------------------- unfold

def _windows(a, dimension, size, step):
    """The windows of ``size`` elements every ``step`` along ``dimension``, as the last dimension
    (a 0-d array is one element: its windows lose the window count, as in PyTorch)."""
    whole = np.atleast_1d(a)
    shape, strides = whole.shape, whole.strides
    count = (shape[dimension] - size) // step + 1
    windows = np.lib.stride_tricks.as_strided(
        whole, shape[:dimension] + (count,) + shape[dimension + 1:] + (size,),
        strides[:dimension] + (strides[dimension] * step,) + strides[dimension + 1:]
        + (strides[dimension],))
    return windows if a.ndim else windows[0]


_unfold = primitive("unfold", node="UnfoldBackward0", group=VIEW, is_view=True)(_windows)


@_unfold.vjp
def _(ctx, grad, dimension, size, step):
    return _unfold_backward(grad, shape=ctx.input_shapes[0], dimension=dimension, size=size,
                            step=step)


@primitive("unfold_backward", node="UnfoldBackwardBackward0", group=OTHER)
def _unfold_backward(grad, shape, dimension, size, step):
    """Each window element's gradient added to the input element it views."""
    element = np.arange(math.prod(shape)).reshape(shape)
    return _add_back(grad, _windows(element, dimension, size, step), element)


@_unfold_backward.vjp
def _(ctx, grad, shape, dimension, size, step):
    return _unfold(grad, dimension=dimension, size=size, step=step)


def unfold_backward(grad, input_sizes, dim, size, step):
    """The gradient of ``unfold``: each window element added back where it came from (an
    overlap-add when the windows overlap)."""
    return _unfold_backward(grad, shape=tuple(input_sizes), dimension=dim, size=size, step=step)


def unfold(input, dimension, size, step):
    """``Tensor.unfold``: a view of the windows of ``size`` elements every ``step`` elements
    along ``dimension``, added as a last dimension."""
    shape = input._array.shape
    dimension = _axis(dimension, len(shape))
    length = shape[dimension] if shape else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dimension} is {length} but size "
                           f"is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return _unfold(input, dimension=dimension, size=size, step=step)


# ---------------------------------------------------------------------------------- as_strided

@primitive("as_strided", node="AsStridedBackward0", group=VIEW, is_view=True)
def _as_strided(a, size, stride, offset, input_stride):
    """The view of ``a``'s memory with ``size`` and ``stride``, starting ``offset`` elements from
    ``a``'s first element (both may reach outside ``a``, into the memory ``a`` is a view of).
    ``input_stride`` is ``a``'s layout, which the backward rule needs."""
    start = _address(a) + offset * a.itemsize
    byte_strides = tuple(s * a.itemsize for s in stride)
    if 0 not in size:
        low, high = byte_bounds(_memory_owner(a))
        end = start + sum((n - 1) * s for n, s in zip(size, byte_strides)) + a.itemsize
        if start < low or end > high:  # never read outside the memory behind ``a``
            raise ValueError("as_strided: the view lies outside its input's memory")
    interface = dict(a.__array_interface__, shape=tuple(size), strides=byte_strides,
                     data=(start, not a.flags.writeable))
    return np.asarray(_Memory(a, interface))


class _Memory:
    """Memory of an existing array described anew, for numpy to wrap (as numpy's as_strided
    does); holding the array as ``base`` keeps the memory alive as long as the view."""

    def __init__(self, base, interface):
        self.base = base
        self.__array_interface__ = interface


def _memory_owner(array):
    """The array whose memory ``array`` views: through numpy's views, and through the stand-ins
    that strided views (numpy's as_strided and ours) wrap, each holding its array as ``base``."""
    base = array.base
    if not isinstance(base, np.ndarray):
        base = getattr(base, "base", None)
    return _memory_owner(base) if isinstance(base, np.ndarray) else array


@_as_strided.vjp
def _(ctx, grad, size, stride, offset, input_stride):
    input_layout = (ctx.input_shapes[0], input_stride, 0)
    result = _as_strided_backward(grad, source=(size, stride, offset), target=input_layout)
    sharing = _elements_per_position(*input_layout, dtype=ctx.input_dtypes[0])
    return result if sharing is None else result / sharing


@primitive("as_strided_backward", node="AsStridedBackward0", group=OTHER)
def _as_strided_backward(grad, source, target):
    """``grad`` laid out in memory as ``source`` (shape, strides, offset), summed where elements
    share a position, and read back laid out as ``target``."""
    return _add_back(grad, _positions(*source), _positions(*target))


@_as_strided_backward.vjp
def _(ctx, grad, source, target):
    return _as_strided_backward(grad, source=target, target=source)


def _positions(shape, strides, offset):
    """The memory position, in elements, of each element of a strided layout."""
    positions = np.full(shape, offset, dtype=np.int64)
    for grid, stride in zip(np.indices(shape, sparse=True), strides):
        positions += grid * stride
    return positions


def _add_back(values, read, write):
    """Sum each of ``values`` into the memory position ``read`` gives it, then read memory at the
    positions ``write`` gives: a gradient moved between two views of one memory."""
    low = min(read.min(initial=0), write.min(initial=0))
    memory = np.zeros(max(read.max(initial=0), write.max(initial=0)) - low + 1, values.dtype)
    np.add.at(memory, read.reshape(-1) - low, values.reshape(-1))
    return memory[write - low]


def _elements_per_position(shape, strides, offset, dtype):
    """For an input whose elements overlap in memory (an expanded one), how many of them share
    each one's position: PyTorch splits a position's gradient evenly among them. None if none do."""
    positions = _positions(shape, strides, offset)
    _, inverse, counts = np.unique(positions, return_inverse=True, return_counts=True)
    if counts.size == positions.size:
        return None
    return Tensor._make(counts[inverse].reshape(shape).astype(dtype))


def as_strided(input, size, stride, storage_offset=None):
    """A view of ``input``'s storage with the given sizes and strides (in elements), starting
    ``storage_offset`` elements into the storage (by default where ``input`` starts)."""
    size = _ints("size", size, 2)
    stride = _ints("stride", stride, 3)
    own_offset = input.storage_offset()
    offset = own_offset if storage_offset is None else _offset(storage_offset)
    _check_geometry(input, size, stride, offset)
    return _as_strided(input, size=size, stride=stride, offset=offset - own_offset,
                       input_stride=input.stride())


def _ints(name, values, position):
    """An ``int[]`` argument of ``torch.as_strided``, read as its parser reads one: the first
    element tells the overload (so must be an int), the others convert (a bool too)."""
    where = f"as_strided(): argument '{name}'"
    if not isinstance(values, (tuple, list)):
        raise TypeError(f"{where} (position {position}) must be tuple of ints, not "
                        f"{type(values).__name__}")
    if values and _index(values[0]) is None:
        raise TypeError(f"{where} (position {position}) must be tuple of ints, but found element "
                        f"of type {type(values[0]).__name__} at pos 0")
    numbers = []
    for at, value in enumerate(values, 1):
        number = value if isinstance(value, bool) else _index(value)
        if number is None:
            raise TypeError(f'{where} failed to unpack the object at pos {at} with error "type '
                            f'must be tuple of ints,but got {type(value).__name__}"')
        numbers.append(int(number))
    return tuple(numbers)


def _offset(storage_offset):
    if _index(storage_offset) is None:
        raise TypeError("as_strided(): argument 'storage_offset' (position 4) must be int, not "
                        f"{type(storage_offset).__name__}")
    return _index(storage_offset)


def _check_geometry(input, size, stride, offset):
    """PyTorch's checks of an ``as_strided`` geometry, in its order."""
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got "
                           f"strides: {list(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    itemsize = input._array.itemsize
    needed = 0 if 0 in size else (offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1)
    available = input.untyped_storage().nbytes()
    if needed * itemsize > available:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage "
                           f"offset {offset}, and itemsize {itemsize} requiring a storage size of "
                           f"{needed * itemsize} are out of bounds for storage of size {available}")


def as_strided_(input, size, stride, storage_offset=None):
    """``Tensor.as_strided_``: the tensor becomes its own ``as_strided`` view, still over the
    storage it had, so its ``storage_offset()`` and storage size are measured there."""
    storage = input._storage_array()
    _as_strided_in_place(input, size, stride, storage_offset)
    if input._base is None:
        input._storage = storage
    return input


_as_strided_in_place = _inplace_view("AsStridedBackward1", as_strided)


def is_set_to(input, tensor):
    """``Tensor.is_set_to``: whether both tensors are the same window on the same storage (one
    storage, offset, sizes and strides), as after ``a.set_(b)``."""
    mine, theirs = input.untyped_storage(), tensor.untyped_storage()
    return (mine.data_ptr() == theirs.data_ptr() and mine.nbytes() == theirs.nbytes()
            and input.storage_offset() == tensor.storage_offset()
            and input.shape == tensor.shape and input.stride() == tensor.stride())
