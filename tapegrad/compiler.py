"""``torch.compiler``: the helpers around ``tapegrad.compile`` that PyTorch users call."""
import functools

from .compile.runtime import reset
from .compile.trace import break_graph_here, tracing_here

__all__ = ["reset", "disable", "is_compiling"]


def is_compiling():
    """Whether the caller runs inside a compiled function being traced."""
    return tracing_here()


def disable(fn=None, recursive=True, *, reason=None):
    """Keep ``fn`` out of compiled code: a compiled function that calls it runs eagerly (with
    ``fullgraph=True`` the call is an error), as a graph break would make it."""
    if fn is None:
        return lambda f: disable(f, recursive, reason=reason)

    @functools.wraps(fn)
    def run_eagerly(*args, **kwargs):
        name = getattr(fn, "__qualname__", repr(fn))
        break_graph_here(f"{name}() is marked torch.compiler.disable" +
                         (f" ({reason})" if reason else ""),
                         "remove the decorator to compile it")
        return fn(*args, **kwargs)
    return run_eagerly
