"""``torch.compiler``: the helpers around ``tapegrad.compile`` that PyTorch users call."""
import functools

from .compile import runtime
from .compile.runtime import reset
from .compile.trace import break_graph_here, graph_broken_here, tracing_here

__all__ = ["reset", "disable", "is_compiling", "is_dynamo_compiling", "set_stance",
           "allow_in_graph", "assume_constant_result", "list_backends"]


def is_compiling():
    """Whether the caller runs inside a compiled function being traced (not in a part that runs
    eagerly after a graph break, such as a ``disable``d function)."""
    return tracing_here() and not graph_broken_here()


is_dynamo_compiling = is_compiling


def allow_in_graph(fn):
    """``fn`` as it is: tapegrad's tracer records what any Python function does with tensors, so
    there is nothing to allow."""
    return fn


def assume_constant_result(fn):
    """``fn`` as it is: a trace calls it once and keeps what it returned (guarded as any Python
    value the function reads)."""
    return fn


def list_backends(exclude_tags=("debug", "experimental")):
    """The backend names ``compile`` accepts (the debugging ones only when not excluded)."""
    debug = {"eager", "aot_eager"}
    return sorted(name for name in runtime.BACKENDS if not (exclude_tags and name in debug))


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


class set_stance:
    """How every compiled function behaves: ``"default"`` compiles, ``"force_eager"`` runs the
    Python function, ``"eager_on_recompile"`` uses what is compiled but runs eagerly rather than
    compile again, ``"fail_on_recompile"`` raises rather than compile.

    As in PyTorch: calling it sets the stance; as a context manager it restores the previous
    one on exit; as a decorator it applies only while the decorated function runs.
    ``skip_guard_eval_unsafe`` and ``force_backend`` are accepted for compatibility; tapegrad
    always checks guards and has one backend."""

    def __init__(self, stance="default", *, skip_guard_eval_unsafe=False, force_backend=None):
        if stance not in runtime.STANCES:
            raise ValueError(f"invalid torch.compile stance '{stance}'; expected one of "
                             f"{', '.join(runtime.STANCES)}")
        self.stance, self.previous = stance, runtime.stance
        runtime.stance = stance

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        runtime.stance = self.previous
        return False

    def __call__(self, fn):
        runtime.stance = self.previous  # decorating does not change the stance; calling does

        @functools.wraps(fn)
        def with_stance(*args, **kwargs):
            with set_stance(self.stance):
                return fn(*args, **kwargs)
        return with_stance
