"""A compiled function's IR (``tapegrad.compile.ir.Graph``) as a ``Diagram``.

For a compiled function the picture is the forward kernel's graph of its newest compiled
specialization (after the compiler's passes), inputs labelled with the argument names.

Values carry the short names the IR's text uses (``a``, ``b``, … as a jaxpr prints them), so the
picture and ``print(graph)`` can be read side by side. Boxes of one fused group — one loop nest
of the generated kernel, as the compiler's ``fuse`` pass schedules it — share a fill colour and
say which group they belong to.
"""
from ..compile.ir import Graph, format_param
from ..compile.passes import fuse
from ..compile.runtime import Specialization
from .diagram import Diagram

__all__ = ["compiled_diagram", "ir_diagram"]

MAX_PARAMS_CHARS = 40
# Pastels for fused groups, cycled; a group of one node (a call) stays white.
GROUP_FILLS = ("#fde2c8", "#d9ead3", "#e6dcf5", "#fff2b3", "#d0e6f5", "#f5d0d8")


def compiled_diagram(obj):
    """The diagram of an ``ir.Graph`` or of a ``CompiledFunction``'s newest forward kernel."""
    if isinstance(obj, Graph):
        return ir_diagram(obj)
    compiled = [entry for entry in obj.explain().specializations
                if isinstance(entry, Specialization)]
    if not compiled:
        raise RuntimeError(f"{obj.__name__}() has not been compiled: every call so far ran "
                           "eagerly (see its explain())")
    newest = compiled[-1]
    return ir_diagram(newest.program.graphs["forward"], [s.name for s in newest.sources])


def ir_diagram(graph, input_names=None):
    """Boxes for the graph's inputs, constants, nodes and outputs; ``input_names`` (one per
    input, e.g. the function's argument names) label the inputs."""
    names = graph.names()
    input_names = list(input_names) if input_names is not None else [names[v] for v in graph.inputs]
    if len(input_names) != len(graph.inputs):
        raise ValueError(f"input_names has {len(input_names)} names for {len(graph.inputs)} inputs")
    diagram = Diagram()
    source_of = {}  # value -> key of the box that defines it
    for value, label in zip(graph.inputs, input_names):
        source_of[value] = ("input", names[value])
        title = label if label == names[value] else f"{label} ({names[value]})"
        diagram.add_box(source_of[value], (title, value.type_text), "leaf")
    for value, array in graph.constants.items():
        source_of[value] = ("constant", names[value])
        text = repr(array.reshape(()).item()) if array.size == 1 else f"<{array.size} values>"
        diagram.add_box(source_of[value], (f"{names[value]} = {text}", value.type_text), "constant")
    for group in fuse(graph):
        fused = len(group.nodes) > 1
        for node in group.nodes:
            key = ("node", id(node))
            title = f"{node.op}  [{group.kind} {group.index}]" if fused else node.op
            outputs = " ".join(f"{names[v]}:{v.type_text}" for v in node.outputs)
            params = " ".join(f"{k}={format_param(p)}" for k, p in node.params.items())
            lines = [title, outputs] + ([_shorten(params)] if params else [])
            fill = GROUP_FILLS[group.index % len(GROUP_FILLS)] if fused else None
            diagram.add_box(key, lines, "op", fill=fill)
            for value in node.inputs:
                diagram.add_edge(source_of[value], key)
            for value in node.outputs:
                source_of[value] = key
    for i, value in enumerate(graph.outputs):
        key = ("output", i)
        diagram.add_box(key, (f"output {i}", f"{names[value]}:{value.type_text}"), "output")
        diagram.add_edge(source_of[value], key)
    return diagram


def _shorten(text):
    return text if len(text) <= MAX_PARAMS_CHARS else text[:MAX_PARAMS_CHARS - 1] + "…"
