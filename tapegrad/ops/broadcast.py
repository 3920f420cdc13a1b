"""Broadcasting and its transpose: ``expand`` and ``sum_to``.

Every binary rule in the table ends with ``sum_to(grad, input_shape)``: the one helper that undoes
broadcasting, instead of a fix in every rule.
"""
import numpy as np

from .legacy_print import aten_type_name
from .registry import REDUCTION, VIEW, primitive
from .summation import add_reduce

__all__ = ["expand", "broadcast_to", "sum_to", "sum_to_size", "expand_shape"]


@primitive("expand", node="ExpandBackward0", group=VIEW, is_view=True)
def _expand(a, shape):
    lead = len(shape) - a.ndim
    if 1 in shape[:lead] or (1 in a.shape and any(n == 1 == m
                                                   for n, m in zip(a.shape, shape[lead:]))):
        # size-1 dims, where numpy's broadcast gives stride 0 and ATen another (what
        # ``.stride()`` and layout checks see): the strides ATen's expand computes
        return np.lib.stride_tricks.as_strided(a, shape, _expanded_strides(a, shape, lead),
                                               writeable=False)
    return np.broadcast_to(a, shape)


def _expanded_strides(a, shape, lead):
    """ATen's ``inferExpandGeometry`` (in bytes): an expanded dim steps 0; a size-1 dim keeps
    its stride; a new size-1 dim steps over the dims after it (0 when none follow)."""
    strides = [0] * len(shape)
    for i in reversed(range(len(shape))):
        if i >= lead:
            strides[i] = a.strides[i - lead] if a.shape[i - lead] == shape[i] else 0
        elif shape[i] == 1 and i + 1 < len(shape):
            strides[i] = shape[i + 1] * strides[i + 1]
    return tuple(strides)


@_expand.vjp
def _(ctx, grad, shape):
    return sum_to(grad, ctx.input_shapes[0])


@primitive("sum_to", node="SumToSizeBackward0", group=REDUCTION, complex_rule=True)
def _sum_to(a, shape):
    lead = a.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, size in enumerate(shape) if size == 1 and a.shape[lead + i] != 1)
    return add_reduce(a, axes, True).reshape(shape)


@_sum_to.vjp
def _(ctx, grad, shape):
    return _expand(grad, shape=ctx.input_shapes[0])


def sum_to(tensor, shape):
    """Sum ``tensor`` down to ``shape`` (the gradient of broadcasting); a no-op when equal."""
    if tensor._array.shape == shape:
        return tensor
    result = _sum_to(tensor, shape=tuple(shape))
    if result._grad_fn is not None:  # (recorded: create_graph) under PyTorch's node for it
        result._grad_fn.__class__ = _sum_to.variant_node_class(
            _sum_to_node(tensor._array.ndim, shape))
    return result


def _sum_to_node(ndim, shape):
    """The last node ATen's ``sum_to`` records: a whole sum (``SumBackward0``) for a 0-d shape,
    else a sum keeping its dims (``SumBackward1``), viewed as ``shape`` when dims lead."""
    if not shape:
        return "SumBackward0"
    return "ViewBackward0" if ndim > len(shape) else "SumBackward1"


def sum_to_size(input, *size):
    """``input`` summed down to ``size``, a shape it expands from (``Tensor.sum_to_size``)."""
    shape = tuple(size[0] if len(size) == 1 and not isinstance(size[0], int) else size)
    current = input._array.shape
    lead = len(current) - len(shape)
    if lead < 0 or any(s not in (1, c) for s, c in zip(shape, current[lead:])):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(current)}}}.")
    return sum_to(input, shape)


def expand_shape(input, sizes):
    """PyTorch's ``expand`` sizes: -1 keeps a dimension; new dimensions may only lead."""
    current = input._array.shape
    sizes = tuple(sizes)
    lead = len(sizes) - len(current)
    if lead < 0:
        raise RuntimeError(
            f"expand({aten_type_name(input._array.dtype.name)}{{{list(current)}}}, "
            f"size={list(sizes)}): the number of "
            f"sizes provided ({len(sizes)}) must be greater or equal to the number of dimensions "
            f"in the tensor ({len(current)})")
    shape = list(sizes)
    for i in reversed(range(len(sizes))):  # from the last dimension, as PyTorch reports
        size = sizes[i]
        if i < lead:
            if size == -1:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a "
                                   f"leading, non-existing dimension {i}")
            continue
        old = current[i - lead]
        if size == -1:
            shape[i] = old
        elif old != 1 and size != old:
            raise RuntimeError(
                f"The expanded size of the tensor ({size}) must match the existing size ({old}) at "
                f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                f"{list(current)}")
    return tuple(shape)


def expand(input, *sizes, size=None, implicit=False):
    """``input`` broadcast to ``sizes`` (varargs, one sequence, or ``size=``), as a view."""
    if size is not None:
        if sizes:
            raise TypeError("expand() got multiple values for argument 'size'")
        sizes = (size,)
    if not sizes:
        raise TypeError('expand() missing 1 required positional arguments: "size"')
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = sizes[0]
    return _expand(input, shape=expand_shape(input, sizes))


def broadcast_to(input, *size):
    """``expand`` with PyTorch's name (``x.broadcast_to(3, 1)`` or a size)."""
    return expand(input, *size)
