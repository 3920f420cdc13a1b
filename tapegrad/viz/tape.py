"""The recorded autograd graph of tensors, as a ``Diagram``.

The walk starts at the output tensors and follows ``grad_fn.next_functions`` (iteratively: a tape
can be 100,000 nodes deep). Each operation box shows the node's class name as torchviz does
(``MulBackward0``; ``AccumulateGrad`` rather than ``name()``'s ``torch::autograd::AccumulateGrad``),
its inputs' shapes and the shapes of the tensors it saved for backward ("freed" once backward has
released them); each leaf shows its shape and the shape of its ``.grad``. ``(None, 0)`` edges —
inputs that need no gradient — are left out, as torchviz leaves them out.
"""
import sys
from collections import deque

from ..autograd.function import BackwardCFunction
from ..autograd.graph import FREED_MESSAGE, AccumulateGrad
from ..ops.registry import OpNode
from ..tensor import Tensor
from .diagram import Diagram, format_shape

__all__ = ["tape_diagram"]


def tape_diagram(outputs, params=None):
    """The graph behind ``outputs`` (a tensor or a sequence of tensors); ``params`` maps names to
    leaf tensors (e.g. ``dict(model.named_parameters())``) so their boxes are labelled."""
    outputs = _as_tensor_tuple(outputs)
    names = _names_by_id(params)
    diagram = Diagram()
    pending = deque()
    for tensor in outputs:
        key = _key(tensor)
        if key in diagram:
            continue
        diagram.add_box(key, _tensor_lines(tensor, names), "output")
        node = tensor.grad_fn
        if node is None:
            continue
        if _key(node) not in diagram:  # outputs of one node (a compiled call's) share it
            _add_node_box(diagram, node, names)
            pending.append(node)
        diagram.add_edge(_key(node), key)
    while pending:
        node = pending.popleft()
        for child, _ in node.next_functions:
            if child is None:
                continue
            if _key(child) not in diagram:
                _add_node_box(diagram, child, names)
                pending.append(child)
            diagram.add_edge(_key(child), _key(node))
    return diagram


def _as_tensor_tuple(outputs):
    tensors = (outputs,) if isinstance(outputs, Tensor) else outputs
    if not isinstance(tensors, (tuple, list)) or not all(isinstance(t, Tensor) for t in tensors):
        raise TypeError(f"expected a Tensor or a sequence of Tensors, got {_describe(outputs)}")
    return tuple(tensors)


def _describe(value):
    if isinstance(value, (tuple, list)):
        return f"a {type(value).__name__} holding " + ", ".join(
            sorted({type(v).__name__ for v in value}))
    return type(value).__name__


def _names_by_id(params):
    if params is None:
        return {}
    names = {}
    for name, tensor in dict(params).items():
        if not isinstance(tensor, Tensor):
            raise TypeError(f"params[{name!r}] is a {type(tensor).__name__}, not a Tensor")
        names[id(tensor)] = name
    return names


def _key(obj):
    return id(obj)


def _tensor_lines(tensor, names):
    name = names.get(id(tensor))
    shape = format_shape(tensor.shape)
    return (name, shape) if name else (shape,)


def _add_node_box(diagram, node, names):
    diagram.add_box(_key(node), (type(node).__name__, *_node_details(node)), "op")
    if isinstance(node, AccumulateGrad):
        leaf = node.variable
        diagram.add_box(_key(leaf), _leaf_lines(leaf, names), "leaf")
        diagram.add_edge(_key(leaf), _key(node))


def _leaf_lines(leaf, names):
    grad = leaf.grad
    return (*_tensor_lines(leaf, names), "grad " + ("None" if grad is None else format_shape(grad.shape)))


def _node_details(node):
    shapes = getattr(node, "input_shapes", None)
    lines = [] if shapes is None else ["in " + " ".join(format_shape(s) for s in shapes)]
    return lines + _saved_lines(node)


def _saved_lines(node):
    """One line per saved tensor, read by unpacking them as backward would."""
    try:
        named = _named_saved_tensors(node)
    except RuntimeError as exc:
        return ["saved: freed" if str(exc) == FREED_MESSAGE else "saved: modified in place"]
    return [f"saved {name} " + ("None" if t is None else format_shape(t.shape)) for name, t in named]


def _named_saved_tensors(node):
    if isinstance(node, OpNode):
        names = node.primitive.saves
        return list(zip(names, node.saved)) if names else []
    if isinstance(node, BackwardCFunction):
        return list(enumerate(node.saved_tensors))
    if _is_compiled_backward(node):
        if node.residuals is None:
            raise RuntimeError(FREED_MESSAGE)
        return ([("residual", array) for array in node.residuals]
                + [("input", tensor) for tensor, _ in node.saved_sources])
    return []


def _is_compiled_backward(node):
    # The compiler's node exists only once the compiler is loaded; asking this way keeps drawing
    # an eager tape from importing it (and Numba).
    runtime = sys.modules.get("tapegrad.compile.runtime")
    return runtime is not None and isinstance(node, runtime.CompiledFunctionBackward)
