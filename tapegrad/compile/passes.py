"""Graph passes, each a named function from graph to graph (or to a schedule), in pipeline order.

* ``decompose`` — ``addmm`` becomes ``mm`` + ``add``, so the bias add fuses with what follows.
* ``fold_constants`` — one-element values computed from constants alone become constants.
* ``fold_transposes`` — a transposed product becomes the product of transposes (no copy).
* ``common_subexpression_elimination`` — one node per distinct (op, inputs, parameters).
* ``dead_code_elimination`` — only what the outputs need.
* ``partition`` — splits AOTAutograd's joint graph into forward and backward, choosing per value
  that the backward needs whether the forward saves it or the backward recomputes it.
* ``fuse`` — groups elementwise chains and the reductions that consume them into loop nests.
"""
import numpy as np

from ..ops import ELEMENTWISE, PRIMITIVES, REDUCTION, VIEW
from .ir import Graph, Node, Operand, Value, format_param

__all__ = ["decompose", "fold_constants", "fold_transposes", "common_subexpression_elimination",
           "dead_code_elimination",
           "partition", "fuse", "Partition", "Loop", "Call", "REDUCTIONS", "reduction_axes"]


# ------------------------------------------------------------------------------- small passes

def decompose(graph):
    """``addmm(bias, a, b)`` → ``add(bias, mm(a, b))``: the same numbers (eager computes
    ``bias + a @ b``), and the add can join the elementwise loop after the product."""
    nodes = []
    for node in graph.nodes:
        if node.op == "addmm" and node.params.get("beta", 1) == 1 and \
                node.params.get("alpha", 1) == 1:
            bias, a, b = node.inputs
            out = node.outputs[0]
            product = Value(out.shape, out.dtype)
            nodes.append(Node("mm", (a, b), (product,), {}))
            nodes.append(Node("add", (bias, product), (out,), {}))
        else:
            nodes.append(node)
    return Graph(graph.inputs, nodes, graph.outputs, graph.constants)


def fold_constants(graph):
    """Compute now the one-element nodes whose inputs are all constants (a mean's ``1 / n``, a
    learning rate times a constant): the op's own numpy forward, so the numbers are eager's. The
    kernel then reads a literal, and the loops on either side of such a node fuse into one
    (the line fit's forward and backward become one pass)."""
    constants = dict(graph.constants)
    nodes = []
    for node in graph.nodes:
        primitive = PRIMITIVES.get(node.op)
        if (primitive is not None and len(node.outputs) == 1 and node.outputs[0].size == 1
                and node.inputs and all(v in constants for v in node.inputs)
                and not any(isinstance(p, Operand) for p in node.params.values())):
            out = node.outputs[0]
            result = primitive.forward(*(constants[v] for v in node.inputs), **node.params)
            constants[out] = np.asarray(result, out.dtype).reshape(out.shape)
        else:
            nodes.append(node)
    return Graph(graph.inputs, nodes, graph.outputs, constants)  # (later passes drop what is dead)


def _is_matrix_transpose(node):
    return node.op in ("t", "transpose", "permute") and len(node.inputs[0].shape) == 2 and \
        tuple(node.params.get("dims", ())) == (1, 0)


def fold_transposes(graph):
    """``t(mm(a, b))`` → ``mm(t(b), t(a))``, and ``t(t(x))`` → ``x``.

    Weight gradients come out of the rules as ``(x.T @ grad).T``; folded, BLAS writes ``grad.T @ x``
    directly in the layout the parameter update reads (no transposed copy). The product it
    replaces is left to dead-code elimination.
    """
    producers = graph.producers()
    replace = {}
    nodes = []

    def transpose_of(value):
        source = producers.get(value)
        if source is not None and _is_matrix_transpose(source):
            return source.inputs[0]
        out = Value(value.shape[::-1], value.dtype)
        nodes.append(Node("t", (value,), (out,), {"dims": (1, 0)}))
        return out

    for node in graph.nodes:
        node = Node(node.op, [replace.get(v, v) for v in node.inputs], node.outputs, node.params)
        source = producers.get(node.inputs[0]) if node.inputs else None
        if _is_matrix_transpose(node) and source is not None and source.op == "mm":
            a, b = source.inputs
            b_t, a_t = transpose_of(b), transpose_of(a)
            nodes.append(Node("mm", (b_t, a_t), node.outputs, {}))
        elif _is_matrix_transpose(node) and source is not None and _is_matrix_transpose(source):
            replace[node.outputs[0]] = source.inputs[0]
        else:
            nodes.append(node)
    outputs = [replace.get(v, v) for v in graph.outputs]
    return dead_code_elimination(Graph(graph.inputs, nodes, outputs, graph.constants))


def dead_code_elimination(graph):
    """Drop the nodes none of whose outputs the graph's outputs need."""
    needed = set(graph.outputs)
    kept = []
    for node in reversed(graph.nodes):
        if any(out in needed for out in node.outputs):
            kept.append(node)
            needed.update(node.inputs)
    kept.reverse()
    constants = {v: a for v, a in graph.constants.items() if v in needed}
    return Graph(graph.inputs, kept, graph.outputs, constants)


def common_subexpression_elimination(graph):
    """Merge nodes that apply the same op to the same values with the same parameters (backward
    rules often rebuild what the forward made, such as ``w.t()``); equal constants merge too."""
    replace = {}
    constants = {}
    constant_keys = {}
    for value, array in graph.constants.items():
        key = (array.dtype.str, array.shape, array.tobytes())
        if key in constant_keys:
            replace[value] = constant_keys[key]
        else:
            constant_keys[key] = value
            constants[value] = array
    seen = {}
    nodes = []
    for node in graph.nodes:
        inputs = tuple(replace.get(v, v) for v in node.inputs)
        key = (node.op, tuple(id(v) for v in inputs), _params_key(node.params))
        twin = seen.get(key)
        if twin is not None:
            replace.update(zip(node.outputs, twin.outputs))
            continue
        node = Node(node.op, inputs, node.outputs, node.params)
        seen[key] = node
        nodes.append(node)
    outputs = [replace.get(v, v) for v in graph.outputs]
    return Graph(graph.inputs, nodes, outputs, constants), replace


def _params_key(params):
    return tuple((k, format_param(v), tuple(id(a) for a in _arrays(v))) for k, v in params.items())


def _arrays(param):
    if hasattr(param, "__array_interface__"):
        yield param
    elif isinstance(param, tuple):
        for p in param:
            yield from _arrays(p)


# ---------------------------------------------------------------------------------- partition

class Partition:
    """A joint graph split in two: the forward computes its outputs and the ``saved`` values;
    the backward takes ``saved``, the ``sources`` it reads and the cotangents."""

    def __init__(self, forward, backward, saved, sources, recomputed):
        self.forward = forward
        self.backward = backward
        self.saved = saved          # values the forward returns for the backward
        self.sources = sources      # graph inputs the backward reads directly
        self.recomputed = recomputed  # forward nodes the backward runs again instead

    def __str__(self):
        names = self.forward.names()
        saved = ", ".join(f"{names[v]}:{v.type_text}" for v in self.saved) or "nothing"
        recomputed = ", ".join(n.op for n in self.recomputed) or "nothing"
        return f"saved for backward: {saved}\nrecomputed in backward: {recomputed}"


def partition(joint, forward_outputs, cotangents, grads):
    """Split ``joint`` (inputs: sources then cotangents) into forward and backward graphs.

    A value the backward needs is recomputed when it comes from a cheap elementwise or view node
    whose result the forward keeps only inside a fused loop; it is saved when it comes from a
    matmul, a reduction or any other op, or when the forward materialises it anyway.
    """
    producers = joint.producers()
    sources = [v for v in joint.inputs if v not in set(cotangents)]
    tangent = set(cotangents)
    for node in joint.nodes:
        if any(v in tangent for v in node.inputs):
            tangent.update(node.outputs)
    backward_nodes = _needed_nodes(joint.nodes, [g for g in grads if g is not None])
    forward_nodes = _needed_nodes(joint.nodes, forward_outputs)
    materialized = _materialized_in(forward_nodes, forward_outputs)
    # max/amax/min/amin rules find their extremum by comparing the input with the saved output:
    # a recomputed input may round differently (fused differently) and match nothing
    exact = {v for n in joint.nodes if _compares_input_with_output(n) for v in n.inputs}

    saved, needed_sources, recompute = [], [], set()
    decided = set()
    source_set = set(sources)

    def provide(value):
        if value in decided or value in tangent:
            return
        decided.add(value)
        if value in source_set:
            needed_sources.append(value)
            return
        if value in joint.constants:
            return
        node = producers[value]
        if _recomputable(node) and value not in materialized and value not in exact:
            recompute.add(id(node))
            for v in node.inputs:
                provide(v)
        else:
            saved.append(value)

    for node in backward_nodes:
        if any(v in tangent for v in node.outputs):
            for value in node.inputs:
                provide(value)
    for grad in grads:  # a gradient no cotangent reaches (zero, through floor) comes from forward
        if grad is not None:
            provide(grad)

    keep_forward = {id(n) for n in _needed_nodes(joint.nodes, forward_outputs + saved)}
    forward = Graph(sources, [n for n in joint.nodes if id(n) in keep_forward],
                    forward_outputs + saved, joint.constants)
    backward_ids = {id(n) for n in backward_nodes if any(v in tangent for v in n.outputs)}
    backward_ids |= recompute
    backward = Graph(saved + needed_sources + list(cotangents),
                     [n for n in joint.nodes if id(n) in backward_ids],
                     [g for g in grads if g is not None], joint.constants)
    recomputed = [n for n in joint.nodes if id(n) in recompute]
    return Partition(dead_code_elimination(forward), dead_code_elimination(backward), saved,
                     needed_sources, recomputed)


def _needed_nodes(nodes, outputs):
    needed = set(outputs)
    kept = []
    for node in reversed(nodes):
        if any(out in needed for out in node.outputs):
            kept.append(node)
            needed.update(node.inputs)
    kept.reverse()
    return kept


def _materialized_in(nodes, outputs):
    """Values the forward writes to memory anyway: outputs and inputs of non-loop nodes."""
    materialized = set(outputs)
    for node in nodes:
        if not is_loopable(node):
            materialized.update(node.inputs)
            materialized.update(node.outputs)
    return materialized


def _compares_input_with_output(node):
    """A reduction whose rule saves both its input and its output (relates them exactly)."""
    primitive = PRIMITIVES.get(node.op)
    return (primitive is not None and primitive.group == REDUCTION
            and {"a", "out"} <= set(primitive.saves))


def _recomputable(node):
    primitive = PRIMITIVES.get(node.op)
    return primitive is not None and (is_elementwise(node) or primitive.group == VIEW)


# --------------------------------------------------------------------------------------- fusion

# Reductions a fused loop can compute: primitive name -> how the accumulator combines.
# A loop nest reads at most this many arrays and holds at most this many nodes: past that, LLVM's
# vectorizer (runtime alias checks between every pair of arrays) and Numba's compile time grow
# faster than fusion saves.
MAX_LOOP_READS = 12
MAX_LOOP_NODES = 48

REDUCTIONS = {"sum": "sum", "sum_all": "sum", "sum_to": "sum", "mean": "mean",
              "mean_all": "mean", "amax": "max", "amin": "min", "max_all": "max",
              "min_all": "min"}


def is_elementwise(node):
    primitive = PRIMITIVES.get(node.op)
    if primitive is None:
        return False
    if node.op == "expand":  # a broadcasting read: the identity in a loop
        return True
    return primitive.group == ELEMENTWISE and primitive.lowering is not None


def is_loopable(node):
    return is_elementwise(node) or node.op in REDUCTIONS


def reduction_axes(node):
    """The reduced axes of a loop reduction's input, in ascending order."""
    shape = node.inputs[0].shape
    if node.op == "sum_to":
        target = node.params["shape"]
        lead = len(shape) - len(target)
        return tuple(range(lead)) + tuple(lead + i for i, size in enumerate(target)
                                          if size == 1 and shape[lead + i] != 1)
    dims = node.params.get("dims")
    return tuple(range(len(shape))) if dims is None else tuple(sorted(dims))


class Loop:
    """One fused loop nest over ``shape``: elementwise nodes, then reductions over ``axes``."""

    def __init__(self, shape, index):
        self.shape = shape
        self.index = index
        self.nodes = []
        self.axes = None        # reduced axes once a reduction joined
        self.defined = set()    # values computed inside
        self.reduced = set()    # reduction outputs (complete only after the loop)
        self.reads = set()      # values read from outside

    @property
    def kind(self):
        return "loop"

    def describe(self, names):
        ops = " → ".join(n.op for n in self.nodes)
        shape = ",".join(map(str, self.shape))
        axes = f" reducing axes {self.axes}" if self.axes else ""
        return f"loop over [{shape}]{axes}: {ops}"


class Call:
    """A node that is not fused: a matmul, a view, a row-wise template, a numpy fallback."""

    def __init__(self, node, index):
        self.node = node
        self.index = index
        self.nodes = [node]

    @property
    def kind(self):
        return "call"

    def describe(self, names):
        outs = ", ".join(names.get(v, "?") for v in self.node.outputs)
        return f"call {self.node.op} -> {outs}"


def fuse(graph):
    """The graph's nodes as a schedule of ``Loop`` and ``Call`` groups, in execution order.

    Each loopable node joins the latest loop of its iteration shape that runs after everything
    it reads, unless it reads a reduction finished only at the end of that loop; reductions join
    a loop that reduces the same axes (or none yet).
    """
    groups = []
    group_of = {}  # value -> group that defines it
    for node in graph.nodes:
        earliest = max((group_of[v].index for v in node.inputs if v in group_of), default=-1)
        if is_loopable(node):
            reducing = node.op in REDUCTIONS
            shape = node.inputs[0].shape if reducing else node.outputs[0].shape
            axes = reduction_axes(node) if reducing else None
            target = None
            for group in reversed(groups):
                if group.index < earliest:
                    break
                if type(group) is Loop and group.shape == shape and _joinable(group, node, axes):
                    target = group
                    break
            if target is None:
                target = Loop(shape, len(groups))
                groups.append(target)
            target.nodes.append(node)
            target.reads.update(v for v in node.inputs if v not in target.defined)
            target.defined.update(node.outputs)
            if reducing:
                target.axes = axes
                target.reduced.update(node.outputs)
        else:
            target = Call(node, len(groups))
            groups.append(target)
        for out in node.outputs:
            group_of[out] = target
    return groups


def _joinable(group, node, axes):
    if any(v in group.reduced for v in node.inputs):
        return False
    new_reads = {v for v in node.inputs if v not in group.defined and v not in group.reads}
    if len(group.reads) + len(new_reads) > MAX_LOOP_READS or len(group.nodes) >= MAX_LOOP_NODES:
        return False
    if axes is not None and group.axes is not None and group.axes != axes:
        return False
    if axes == ():  # a reduction over nothing is a copy; keep it simple and separate
        return False
    return True
