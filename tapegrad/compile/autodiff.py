"""Reverse mode on the traced graph: the backward graph comes from the op table's own rules.

Each differentiable node's ``vjp`` rule — the very function eager ``backward()`` runs — is called
with tracing tensors: a context holding tensors for the node's saved values and a tensor for the
incoming gradient. The rule's operations are primitives, so the recorder appends them to the same
graph: the result is AOTAutograd's joint graph (forward nodes, then backward nodes), which the
partitioner later splits into a forward and a backward kernel. There is no derivative written in
the compiler.
"""
import numpy as np

from ..autograd import grad_mode
from ..ops import ELEMENTWISE, PRIMITIVES
from ..tensor import Tensor
from .ir import Graph, Operand, Value, format_param
from .trace import GraphBreakError, Recorder, recording

__all__ = ["differentiate", "MissingRuleError"]


class MissingRuleError(NotImplementedError):
    """A primitive on the path to a gradient has no backward rule the compiler can trace (none,
    or one that reads tensor data in Python)."""


class RuleContext:
    """What a backward rule reads from ``ctx``: the same fields as an eager ``OpNode`` has."""

    __slots__ = ("primitive", "params", "saved", "input_shapes", "input_dtypes",
                 "needs_input_grad")


def tensor_inputs(node):
    """The node's inputs that are the primitive's tensor arguments (not index operands)."""
    n_operands = sum(1 for _ in _operands(node.params.values()))
    return node.inputs[:len(node.inputs) - n_operands]


def _operands(params):
    for param in params:
        if isinstance(param, Operand):
            yield param
        elif isinstance(param, tuple):
            yield from _operands(param)


def differentiate(graph, concrete, differentiable, outputs, wrt, untaped=frozenset()):
    """Append the backward of ``outputs`` with respect to ``wrt`` to ``graph``; the gradient of a
    value in ``untaped`` (an in-place write autograd did not record) goes to the value it wrote
    over, as eager's unchanged tape sends it.

    Returns ``(cotangents, grads)``: one new graph input per output (its incoming gradient) and,
    per ``wrt`` value, the value of its gradient (None where no gradient flows).
    """
    forward_nodes = list(graph.nodes)
    recorder = Recorder(graph, concrete, set())
    tensors = {}

    def tensor_of(value):
        tensor = tensors.get(value)
        if tensor is None:
            array = concrete[value].view()  # its own array object: an identity for this value
            tensor = tensors[value] = Tensor._make(array)
            recorder.bind(array, value)
        return tensor

    cotangents = []
    grads = {}
    for value in outputs:
        cotangent = Value(value.shape, value.dtype)
        concrete[cotangent] = np.ones(value.shape, value.dtype)
        cotangents.append(cotangent)
        grads[value] = _accumulate(grads.get(value), tensor_of(cotangent))

    with recording(recorder), grad_mode.no_grad():
        for node in reversed(forward_nodes):
            if PRIMITIVES[node.op].n_outputs is None:  # every output differentiable (split)
                grad = tuple(grads.get(v) if v in differentiable else None for v in node.outputs)
                if not any(g is not None for g in grad):
                    continue
            else:
                grad = grads.get(node.outputs[0])
                if grad is None or node.outputs[0] not in differentiable:
                    continue
            inputs = tensor_inputs(node)
            if node.outputs[0] in untaped:  # a write eager did not record: the target's history
                grads[inputs[0]] = _accumulate(grads.get(inputs[0]), grad)  # is unchanged
                continue
            first_node = len(graph.nodes)
            try:
                input_grads = _apply_rule(node, inputs, grad, differentiable, tensor_of)
            except GraphBreakError as error:
                raise MissingRuleError(f"the backward rule of '{node.op}' cannot be compiled: "
                                       f"{error}") from None
            except RuntimeError as error:
                if not getattr(error, "no_derivative", False):
                    raise
                raise MissingRuleError(f"'{node.op}' has no derivative ({error})") from None
            if PRIMITIVES[node.op].group != ELEMENTWISE:
                recorded = _signature(graph.nodes[first_node:], graph.constants)
                _check_data_independent(node, inputs, _each_gradient(recorder.value_of, grad),
                                        concrete, graph.constants, differentiable, recorded)
            for value, input_grad in zip(inputs, input_grads):
                if input_grad is not None and value in differentiable:
                    grads[value] = _accumulate(grads.get(value), input_grad)
    result = {}
    for value in wrt:
        grad = grads.get(value)
        result[value] = None if grad is None else recorder.value_of(grad)
    return cotangents, result


def _check_data_independent(node, inputs, grad_value, concrete, constants, differentiable,
                            recorded):
    """The rule again, on other values of the same shapes (constants kept), must record the
    same operations.

    A rule that reads a saved tensor's numbers in Python (``x._array``) bakes what it computed
    from them into the graph — indices, masks — and a compiled backward would reuse them for
    every later call. Such a rule is refused by name instead.
    """
    scratch = Recorder(Graph(), {}, set())
    rng = np.random.default_rng(0)
    tensors = {}

    def other_tensor_of(value):
        tensor = tensors.get(value)
        if tensor is None:
            array = np.array(constants[value]) if value in constants else \
                _other_values(concrete[value], rng)
            tensor = tensors[value] = Tensor._make(array)
            scratch.bind(array, value)
        return tensor

    with recording(scratch), grad_mode.no_grad(), np.errstate(all="ignore"):
        try:
            _apply_rule(node, inputs, _each_gradient(other_tensor_of, grad_value), differentiable,
                        other_tensor_of)
        except Exception:  # noqa: BLE001  failing on other data is data dependence too
            again = None
        else:
            again = _signature(scratch.graph.nodes, {**constants, **scratch.graph.constants})
    if again != recorded:
        raise MissingRuleError(f"the backward rule of '{node.op}' computes from tensor values "
                               "in Python (outside the op table), so its compiled form would "
                               "be right only for the traced data")


def _each_gradient(function, grad):
    """``function`` of a rule's incoming gradient, or of each one (None kept) for an op with
    several differentiable outputs."""
    if type(grad) is tuple:
        return tuple(None if g is None else function(g) for g in grad)
    return function(grad)


def _other_values(array, rng):
    """An array of ``array``'s shape, dtype and memory layout with other values: noise for
    floats, the same values shuffled for integers and booleans (indices stay valid). The layout
    is kept because a rule may choose how to compute by it (as ``mm``'s does for a transposed
    matrix), which is no dependence on the data."""
    other = np.empty_like(array)
    if array.dtype.kind == "f":
        other[...] = rng.standard_normal(array.shape)
    else:
        shuffled = np.array(array)
        if shuffled.ndim:
            rng.shuffle(shuffled.reshape(-1))
        other[...] = shuffled
    return other


def _signature(nodes, constants):
    """What recorded operations do, independent of which Value objects they use: ops,
    parameters (with the bytes of parameter arrays) and the bytes of constant inputs."""
    return tuple((n.op, tuple((k, format_param(p)) for k, p in n.params.items()),
                  tuple(a.tobytes() for a in _param_arrays(n.params.values())),
                  tuple(np.ascontiguousarray(constants[v]).tobytes() if v in constants else None
                        for v in n.inputs)) for n in nodes)


def _param_arrays(params):
    for param in params:
        if isinstance(param, np.ndarray):
            yield param
        elif isinstance(param, (tuple, list)):
            yield from _param_arrays(param)


def _apply_rule(node, inputs, grad, differentiable, tensor_of):
    primitive = PRIMITIVES[node.op]
    if primitive.vjp_rule is None:
        raise MissingRuleError(f"the primitive '{node.op}' has no backward rule, so the compiled "
                               "function cannot be differentiated through it")
    ctx = RuleContext()
    ctx.primitive = primitive
    ctx.params = _resolve(node.params, node.inputs, tensor_of)
    ctx.saved = tuple(tensor_of(node.outputs[-1 - position] if position < 0 else inputs[position])
                      for position in primitive.save_positions)
    ctx.input_shapes = tuple(v.shape for v in inputs)
    ctx.input_dtypes = tuple(v.dtype for v in inputs)
    ctx.needs_input_grad = tuple(v in differentiable for v in inputs)
    result = primitive.vjp_rule(ctx, grad, **ctx.params)
    return result if type(result) is tuple else (result,)


def _resolve(params, inputs, tensor_of):
    """Parameters with ``Operand``s turned back into the arrays the rule expects."""
    def resolve(param):
        if isinstance(param, Operand):
            return tensor_of(inputs[param.index])._array
        if isinstance(param, tuple):
            return tuple(resolve(p) for p in param)
        return param
    return {key: resolve(p) for key, p in params.items()}


def _accumulate(total, grad):
    return grad if total is None else total + grad
