"""``torch._dynamo``: the names PyTorch programs reach there (``reset``, ``list_backends``,
``graph_break``, ``explain``, ``set_stance``, the ``exc`` exceptions)."""
import types

from .compile import runtime
from .compile.runtime import CompiledFunction, InvalidBackend, reset
from .compile.trace import Unsupported, UserError, break_graph_here
from .compile.runtime import compile
from .compiler import (allow_in_graph, disable, is_compiling, list_backends,  # noqa: F401
                       set_stance)

__all__ = ["reset", "list_backends", "exc", "graph_break", "explain", "set_stance", "config",
           "disable", "is_compiling", "allow_in_graph", "mark_dynamic", "mark_static",
           "maybe_mark_dynamic", "optimize"]

exc = types.SimpleNamespace(InvalidBackend=InvalidBackend, Unsupported=Unsupported,
                            UserError=UserError)


class _Config:
    """``torch._dynamo.config``: the settings programs write, with PyTorch's defaults. The
    recompile limit (``cache_size_limit``) is the compiler's; the others are recorded, not acted
    on. An unknown name is an error, as in PyTorch."""

    _ALIASES = {"cache_size_limit": "recompile_limit",
                "accumulated_cache_size_limit": "accumulated_recompile_limit"}

    def __init__(self):
        object.__setattr__(self, "_values", {
            "accumulated_recompile_limit": 256, "suppress_errors": False,
            "verbose": False, "capture_scalar_outputs": False,
            "capture_dynamic_output_shape_ops": False, "optimize_ddp": True,
            "automatic_dynamic_shapes": True, "assume_static_by_default": True,
            "dynamic_shapes": True, "guard_nn_modules": True, "specialize_int": False,
            "specialize_float": False, "inline_inbuilt_nn_modules": True,
            "force_parameter_static_shapes": True, "error_on_recompile": False})

    def _key(self, name):
        name = self._ALIASES.get(name, name)
        if name not in self._values and name != "recompile_limit":
            raise AttributeError(f"torch._dynamo.config.{name} does not exist")
        return name

    def __getattr__(self, name):
        key = self._key(name)
        return runtime.recompile_limit if key == "recompile_limit" else self._values[key]

    def __setattr__(self, name, value):
        key = self._key(name)
        if key == "recompile_limit":
            runtime.recompile_limit = value
        else:
            self._values[key] = value


config = _Config()


def mark_dynamic(t, index, *, hint_override=None, min=None, max=None, specialize_on=None):
    """Accepted and ignored: tapegrad specializes every shape (a new size compiles once, within
    the recompile limit)."""


def mark_static(t, index=None):
    """Accepted and ignored: every shape is static to tapegrad."""


maybe_mark_dynamic = mark_dynamic


def optimize(backend="inductor", *, nopython=False, **_):
    """The old spelling of ``torch.compile``: ``torch._dynamo.optimize("inductor")(fn)``."""
    return lambda fn: compile(fn, backend=backend, fullgraph=nopython)


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
