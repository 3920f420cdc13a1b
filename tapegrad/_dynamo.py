"""``torch._dynamo``: the names PyTorch programs reach there (``reset``, ``list_backends``,
``graph_break``, ``explain``, ``set_stance``, the ``exc`` exceptions)."""
import types

from .compile.runtime import BACKENDS, CompiledFunction, InvalidBackend, reset
from .compile.trace import Unsupported, break_graph_here
from .compiler import set_stance

__all__ = ["reset", "list_backends", "exc", "graph_break", "explain", "set_stance"]

exc = types.SimpleNamespace(InvalidBackend=InvalidBackend, Unsupported=Unsupported)


def list_backends(exclude_tags=("debug", "experimental")):
    """The backend names ``compile`` accepts (the debugging ones only when not excluded)."""
    debug = {"eager", "aot_eager"}
    return sorted(name for name in BACKENDS if not (exclude_tags and name in debug))


def graph_break():
    """Stop the graph here: the compiled function that calls it runs eagerly (asked for, so
    without a warning; with ``fullgraph=True`` it is an error)."""
    break_graph_here("torch._dynamo.graph_break() was called",
                     "remove the call to compile the whole function")


def explain(fn):
    """``explain(fn)(*args)``: compile ``fn`` for these arguments and report what happened —
    how many graphs, the graph breaks and their reasons (an ``ExplainOutput``)."""
    def run(*args, **kwargs):
        compiled = CompiledFunction(fn)
        compiled(*args, **kwargs)
        return ExplainOutput(compiled.explain())
    return run


class ExplainOutput:
    """PyTorch's summary fields over ``CompiledFunction.explain()``. tapegrad compiles a
    function whole or runs it eagerly, so a graph break leaves no graph."""

    def __init__(self, explanation):
        self.explanation = explanation
        entries = explanation.specializations
        self.break_reasons = [entry.graph_break for entry in entries
                              if getattr(entry, "graph_break", None) is not None]
        self.graph_break_count = len(self.break_reasons)
        self.graph_count = sum(hasattr(entry, "program") for entry in entries)
        self.out_guards = [entry.guards for entry in entries]

    def __str__(self):
        lines = [f"Graph Count: {self.graph_count}",
                 f"Graph Break Count: {self.graph_break_count}", "Break Reasons:"]
        for i, reason in enumerate(self.break_reasons, 1):
            lines += [f"  Break Reason {i}:", f"    Reason: {reason.reason}",
                      f"    User Stack: {reason.location}"]
        return "\n".join(lines) + "\n\n" + str(self.explanation)
