"""``torch.*_copy`` and the ``unsafe_*`` splits: view operations giving tensors that are not views.

``torch.diagonal_copy(x)`` is ``x.diagonal()`` in memory of its own (contiguous, as PyTorch makes
it); ``torch.unsafe_split(x, 2)`` gives ``x.split(2)``'s pieces on ``x``'s memory but without view
tracking. Both record the view's own node, renamed as PyTorch names it (``DiagonalBackward0_copy``,
``UnsafeSplitBackward0``): the backward rule is the view's, so no derivative is written twice.
"""
import builtins

import numpy as np

from ..autograd import grad_mode
from ..autograd.graph import Node
from ..memory_format import contiguous_format
from ..tensor import Tensor
from . import conjugation, registry, shape, strided
from .broadcast import expand
from .registry import PRIMITIVES, _edge
from .shape import rename_node  # noqa: F401  (where the other modules take it from)

__all__ = ["alias_copy", "as_strided_copy", "detach_copy", "diagonal_copy", "expand_copy",
           "permute_copy", "select_copy", "slice_copy", "split_copy", "split_with_sizes_copy",
           "squeeze_copy", "t_copy", "transpose_copy", "unbind_copy", "unfold_copy",
           "unsqueeze_copy", "view_as_complex_copy", "view_as_real_copy", "view_copy",
           "unsafe_chunk", "unsafe_split", "unsafe_split_with_sizes"]


def _unviewed(view, array, suffix=None, name=None):
    """``view``'s value held in ``array`` as a tensor that is not a view: recorded by the view's
    node, renamed to ``name`` (or its own name plus ``suffix``); its tangent follows."""
    result = Tensor._make(array)
    node = view._grad_fn
    if node is not None:
        rename_node(node, name or node.primitive.node_class.__name__ + suffix)
        result._grad_fn, result._output_nr, result._requires_grad = node, view._output_nr, True
    if view._fw_grad is not None:
        result._fw_grad = view._fw_grad.clone()
    return result


def tracing():
    """Whether a compiler is tracing: it tells tensors apart by their arrays, so a tensor made
    here around a new array would be a constant to it; a recorded operation must make it."""
    return registry._interceptor is not None


def _copied(views):
    """A view (or a tuple of views) as contiguous copies recorded as ``<Node>_copy`` (as a
    recorded contiguous clone while a compiler traces)."""
    if not isinstance(views, Tensor):
        return tuple(_copied(view) for view in views)
    if tracing():
        return views.clone(memory_format=contiguous_format)
    return _unviewed(views, np.array(views._array, order="C"), suffix="_copy")


def diagonal_copy(input, offset=0, dim1=0, dim2=1):
    return _copied(input.diagonal(offset, dim1, dim2))


def permute_copy(input, dims):
    return _copied(input.permute(dims))


def t_copy(input):
    return _copied(input.t())


def transpose_copy(input, dim0, dim1):
    return _copied(input.transpose(dim0, dim1))


def view_copy(input, size):
    """``size``: a shape, or a dtype (the bytes reinterpreted, as ``Tensor.view(dtype)``). A new
    shape needs no viewable strides: the result is a copy anyway (as PyTorch's)."""
    if isinstance(size, (builtins.list, builtins.tuple)) or hasattr(size, "__index__"):
        return _copied(input.contiguous().view(size))
    return _copied(input.view(dtype=size))


def unsqueeze_copy(input, dim):
    return _copied(input.unsqueeze(dim))


def squeeze_copy(input, dim=None):
    return _copied(input.squeeze() if dim is None else input.squeeze(dim))


def select_copy(input, dim, index):
    return _copied(input.select(dim, index))


def slice_copy(input, dim=0, start=None, end=None, step=1):
    """``input[..., start:end:step, ...]`` along ``dim``, copied."""
    dim = shape._axis(dim, input._array.ndim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    return _copied(input[(builtins.slice(None),) * dim + (builtins.slice(start, end, step),)])


def expand_copy(input, size, *, implicit=False):
    return _copied(expand(input, size))


def alias_copy(input):
    return _copied(PRIMITIVES["alias"](input))


def unbind_copy(input, dim=0):
    return _copied(shape.unbind(input, dim))


def split_copy(input, split_size, dim=0):
    return _copied(shape.split(input, split_size, dim))


def split_with_sizes_copy(input, split_sizes, dim=0):
    return _copied(shape.split_with_sizes(input, split_sizes, dim))


def unfold_copy(input, dimension, size, step):
    return _copied(strided.unfold(input, dimension, size, step))


def as_strided_copy(input, size, stride, storage_offset=None):
    return _copied(strided.as_strided(input, size, stride, storage_offset))


def view_as_real_copy(input):
    return _copied(conjugation.view_as_real(input))


def view_as_complex_copy(input):
    return _copied(conjugation.view_as_complex(input))


def detach_copy(input):
    """``input.detach()`` copied. PyTorch defines no derivative for it: a result of an input that
    requires grad requires grad too, and backward through it is refused."""
    if tracing():
        return input.detach().clone(memory_format=contiguous_format)
    result = Tensor._make(np.array(input._array, order="C"))
    if input._requires_grad and grad_mode.is_grad_enabled():
        result._grad_fn, result._requires_grad = _NotImplementedNode(input), True
    return result


class _NotImplementedNode(Node):
    """PyTorch's ``NotImplemented`` node: shows in the graph, refuses to run."""

    __slots__ = ()
    qualified_name = "torch::autograd::NotImplemented"

    def __init__(self, input):
        super().__init__((_edge(input),))

    def apply(self, grads):
        raise RuntimeError("derivative for aten::detach_copy is not implemented")


_NotImplementedNode.__name__ = _NotImplementedNode.__qualname__ = "NotImplemented"


# -- splits without view tracking ---------------------------------------------------------------

def _unsafe(pieces, name):
    """``pieces`` (views of one tensor) as plain tensors on its memory, recorded as ``name``."""
    return tuple(_unviewed(piece, piece._array, name=name) for piece in pieces)


def _require_int(function, name, value):
    """PyTorch's TypeError for an ``int`` argument given as something else (a list of sizes:
    those are ``unsafe_split_with_sizes``'s)."""
    if isinstance(value, builtins.bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{function}(): argument '{name}' (position 2) must be int, not "
                        f"{type(value).__name__}")


def unsafe_split(input, split_size, dim=0):
    _require_int("unsafe_split", "split_size", split_size)
    return _unsafe(shape.split(input, split_size, dim), "UnsafeSplitBackward0")


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    return _unsafe(shape.split_with_sizes(input, split_sizes, dim),
                   "UnsafeSplitWithSizesBackward0")


def unsafe_chunk(input, chunks, dim=0):
    _require_int("unsafe_chunk", "chunks", chunks)
    return _unsafe(shape.chunk(input, chunks, dim), "UnsafeSplitBackward0")
