"""``tapegrad.compile``: the compiled function, its specializations, and its backward node.

A call checks the guards of each specialization (newest first) and runs the first that holds:
gather the source arrays, call the forward kernel, write back mutations and ``.grad``
assignments, wrap the outputs. Differentiable outputs share one ``CompiledFunctionBackward``
node, so eager ``backward()`` runs the fused backward kernel. A miss traces the call (which runs
it eagerly), compiles a new specialization and says which guard failed.
"""
import functools
import inspect
import time
import warnings
import weakref

from .. import _profiling
from ..tensor import Tensor, meta_in_use
from ..autograd import function as autograd_function
from . import logs, pytree
from .dispatch import MISS, attempt, fetcher, runner
from .guards import build_guards
from .ir import Value
from .node import CompiledFunctionBackward, kernel_argument
from .trace import RandomSource, trace, tracing_here

__all__ = ["compile", "reset", "CompiledFunction", "CompiledFunctionBackward", "CompileWarning",
           "InvalidBackend"]


class CompileWarning(UserWarning):
    """tapegrad.compile fell back to eager execution (graph break, limit, compile failure)."""


class InvalidBackend(RuntimeError):
    """``backend=`` names no backend (PyTorch's ``torch._dynamo.exc.InvalidBackend``)."""


# PyTorch's backend names: its compilers map to tapegrad's one, its debugging backends (which
# run the captured graph without compiling it) to running the function eagerly.
BACKENDS = {"numba": "numba", "inductor": "numba", "eager": "eager", "aot_eager": "eager"}
MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")
# ``torch.compiler.set_stance``: how every compiled function behaves in this process. "default"
# compiles; "force_eager" runs the Python function; "eager_on_recompile" uses what is compiled
# but runs eagerly instead of compiling again; "fail_on_recompile" raises instead of compiling.
STANCES = ("default", "force_eager", "eager_on_recompile", "fail_on_recompile")
stance = "default"
recompile_limit = 8  # specializations per function before it stays eager, unless compile() says
                     # (torch._dynamo.config.recompile_limit, alias cache_size_limit)


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None,
            options=None, disable=False, recompile_limit=None):
    """Compile a function or an ``nn.Module`` into Numba kernels (see DESIGN.md, compiled mode).

    Usable as ``@tapegrad.compile``, ``@tapegrad.compile(fullgraph=True)``, ``tapegrad.compile(fn)``
    and ``tapegrad.compile(model)``. ``fullgraph=True`` raises ``GraphBreakError`` where the
    function depends on tensor data; otherwise such calls run eagerly with one warning.
    ``recompile_limit`` bounds the specializations (default: ``torch._dynamo.config``'s, 8) before
    the function stays eager.

    PyTorch's other arguments are accepted with their meaning here: ``backend`` "inductor" (the
    default) or "numba" compile, "eager" and "aot_eager" run the function as it is; every
    ``mode`` compiles the same kernels; shapes always specialize, ``dynamic=True`` included (each
    new shape compiles once, within the recompile limit).
    """
    if not (isinstance(backend, str) and backend in BACKENDS):
        raise InvalidBackend(f"Invalid backend: {backend!r}, see `torch._dynamo.list_backends()` "
                             "for available backends.")
    if mode is not None and options is not None:
        raise RuntimeError("Either mode or options can be specified, but both can't be specified "
                           "at the same time.")
    if mode is not None and mode not in MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(MODES)}")
    disable = disable or BACKENDS[backend] == "eager"
    settings = dict(fullgraph=fullgraph, recompile_limit=recompile_limit, disable=disable)
    if model is None:
        return lambda fn: compile(fn, **settings)
    if _is_module(model):
        return _compile_module(model, settings)
    if not callable(model):  # (PyTorch's assertion, message and all)
        raise AssertionError(f"A callable function is expected, but {type(model)} is provided.")
    return CompiledFunction(model, **settings)


def _is_module(obj):
    return callable(getattr(obj, "_compiled", None)) and callable(getattr(obj, "forward", None))


def _compile_module(module, settings):
    """The module's compiled forward, wrapped as nn.Module wraps it (``OptimizedModule``, which
    holds ``module`` as ``_orig_mod``: the compiler itself imports nothing from nn). What
    compiles is ``forward``; the module's own hooks run in Python around it, so a hook that
    records something records it on every call, as PyTorch replays it."""
    return module._compiled(CompiledFunction(type(module).forward.__get__(module), **settings))


class CompiledFunction:
    """The callable ``tapegrad.compile`` returns for a function."""

    def __init__(self, fn, *, fullgraph=False, recompile_limit=None, disable=False):
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._name = getattr(fn, "__qualname__", getattr(fn, "__name__", repr(fn)))
        self._fullgraph = fullgraph
        self._limit = recompile_limit
        self._disabled = disable
        self._entries = []        # newest first
        self._attempts = 0
        self._warned_break = False
        self._warned_limit = False
        self._history = []        # (reason for the specialization, entry)
        _ALL.add(self)

    def reset(self):
        """Forget every specialization (the next call traces and compiles again)."""
        self._entries.clear()
        self._history.clear()
        self._attempts = 0
        self._warned_break = self._warned_limit = False

    def __get__(self, instance, owner):
        """Decorating a method binds like a function (``self`` is then an argument the guards
        check by identity, so each instance gets its own specialization)."""
        return self if instance is None else functools.partial(self, instance)

    def __call__(self, *args, **kwargs):
        if (tracing_here() or stance == "force_eager"  # tracing: inlined into the caller
                or autograd_function.forward_ad_level is not None):  # tangents: the op table
            return self._fn(*args, **kwargs)
        if _profiling.active is None:
            for entry in self._entries:
                result = entry.attempt(args, kwargs)
                if result is not MISS:
                    return result
            return self._miss(args, kwargs)
        entry = self._lookup(args, kwargs)
        if entry is None:
            return self._miss(args, kwargs)
        with _profiling.Range("CompiledFunction"):
            return entry.call(args, kwargs)

    def repeat(self, times, *args, **kwargs):
        """Call the function ``times`` times with the same arguments; return the last result.

        The same as ``for _ in range(times): result = fn(*args, **kwargs)``, but once a call
        finds the arguments in the state the previous call's specialization started from (a
        training step that updates its parameters in place), the remaining calls run inside one
        kernel launch: no Python, guards or tensor wrapping per step (the seed's 200-step line
        fit: 2 ms as separate calls, tens of µs repeated).
        """
        if isinstance(times, bool) or not isinstance(times, int) or times < 1:
            raise ValueError(f"repeat() expects a positive number of calls, got {times!r}")
        previous = None
        for done in range(times):
            entry = None if tracing_here() or stance == "force_eager" else \
                self._lookup(args, kwargs)
            if isinstance(entry, Specialization) and (entry is previous or entry.repeats_itself):
                # what a call of it changes (in-place updates, new .grad tensors) keeps its
                # guards true, whatever the values: so for every later call too
                entry.repeats_itself = True
                return entry.run(args, kwargs, times=times - done)
            result = self(*args, **kwargs) if entry is None else entry.run(args, kwargs)
            previous = entry
        return result

    def _lookup(self, args, kwargs):
        """The newest specialization whose guards hold for these arguments, or None."""
        for entry in self._entries:
            if entry.guards.check(args, kwargs) < 0:
                return entry
        return None

    # -- a call no specialization accepts ------------------------------------------------------
    def _miss(self, args, kwargs):
        if self._disabled or self._warned_limit or _has_meta_tensor(args, kwargs):
            return self._fn(*args, **kwargs)  # (meta tensors have no data for a kernel)
        reason = "first call" if not self._entries else self._entries[0].guards.failure(
            args, kwargs)
        if stance == "eager_on_recompile" and self._entries:
            return self._fn(*args, **kwargs)
        if stance == "fail_on_recompile":
            code = getattr(self._fn, "__code__", None)
            where = "" if code is None else (f" filename: '{code.co_filename}', function name: "
                                             f"'{self._name}', line number: {code.co_firstlineno}")
            raise RuntimeError("Detected recompile when torch.compile stance is "
                               f"'fail_on_recompile'.{where}\n    triggered by: {reason}")
        limit = recompile_limit if self._limit is None else self._limit
        if self._attempts >= limit:
            self._warned_limit = True
            warnings.warn(f"tapegrad.compile: {self._name}() reached the recompile limit "
                          f"({limit}); running it eagerly from now on. Last reason: "
                          f"{reason}", CompileWarning, stacklevel=3)
            return self._fn(*args, **kwargs)
        self._attempts += 1
        if self._entries:
            logs.log("recompiles", f"recompiling {self._name}(): {reason}")
        started = time.perf_counter()
        arg_names = _argument_names(self._fn, args, kwargs)
        arguments_before = pytree.flatten((args, kwargs))
        recorded = trace(self._fn, args, kwargs, fullgraph=self._fullgraph,
                         function_name=self._name, arg_names=arg_names)
        traced_in = time.perf_counter() - started
        if recorded.breaks:
            self._graph_break(recorded)
        elif recorded.escapes:
            logs.log("recompiles", f"{self._name}(): {recorded.escapes[0]} (state created on "
                                   "this call, such as optimizer buffers); tracing again next call")
        else:
            entry = self._compile(recorded, reason, traced_in)
            if isinstance(entry, Specialization) and entry.changes_nothing() and \
                    _same_arguments(arguments_before, pytree.flatten((args, kwargs))):
                return entry.run(args, kwargs)  # what later calls return (and their grad_fn)
        return recorded.result

    def _graph_break(self, recorded):
        info = recorded.breaks[0]
        message = "tapegrad.compile: " + info.message(self._name) + \
            " This call and later ones with these inputs run eagerly."
        logs.log("graph_breaks", message)
        if not (self._warned_break or info.requested):
            self._warned_break = True
            warnings.warn_explicit(message, CompileWarning, info.filename, info.lineno)
        entry = _EagerEntry(build_guards(recorded, self._fn), self._fn, info.message(self._name),
                            graph_break=info)
        self._entries.insert(0, entry)
        self._history.append(("graph break", entry))

    def _compile(self, recorded, reason, traced_in):
        from .pipeline import CompileError, build  # imports Numba: only once something compiles
        guards = build_guards(recorded, self._fn)
        try:
            program = build(recorded, self._name)
        except (CompileError, NotImplementedError) as error:
            warnings.warn(f"tapegrad.compile: could not compile {self._name}(): {error}. It runs "
                          "eagerly for these inputs.", CompileWarning, stacklevel=4)
            entry = _EagerEntry(guards, self._fn, str(error))
        else:
            program.timings = {"trace": traced_in, **program.timings}
            logs.log("timing", f"{self._name}(): " + ", ".join(
                f"{stage} {seconds:.3f}s" for stage, seconds in program.timings.items()))
            entry = Specialization(guards, program, recorded)
        self._entries.insert(0, entry)
        self._history.append((reason, entry))
        return entry

    # -- explanation ---------------------------------------------------------------------------
    def explain(self):
        """What the compiler did, per specialization: guards, graphs, fused groups, kernels."""
        if not self._history:
            raise RuntimeError(f"{self._name}() has not been called yet: call it once, then "
                               "explain() describes what was compiled")
        return Explanation(self._name, self._history)


def _has_meta_tensor(args, kwargs):
    """Whether an argument is a meta tensor, which runs eagerly (its shapes, its graph); the
    guards send such a call here."""
    return meta_in_use[0] and any(isinstance(leaf, Tensor) and leaf._meta
                                  for leaf in pytree.flatten((args, kwargs))[0])


def _argument_names(fn, args, kwargs):
    """Readable names for the flattened arguments (the parameter names where known)."""
    try:
        names = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        names = []
    positional = [names[i] if i < len(names) and names[i] not in kwargs else f"args[{i}]"
                  for i in range(len(args))]
    _, spec = pytree.flatten((args, kwargs))
    result = []
    args_spec, kwargs_spec = spec[1]
    for name, child in zip(positional, args_spec[1]):
        result += pytree.leaf_names(child, name)
    for key, child in kwargs_spec[1]:
        result += pytree.leaf_names(child, key)
    return result


class Explanation:
    """The printable account ``CompiledFunction.explain()`` returns."""

    def __init__(self, name, history):
        self.name = name
        self.history = history

    @property
    def specializations(self):
        return [entry for _, entry in self.history]

    def __str__(self):
        parts = []
        for i, (reason, entry) in enumerate(self.history):
            parts.append(f"=== {self.name}() specialization {i} ({reason}) ===")
            parts.append("guards:\n" + _indent(str(entry.guards)))
            parts.append(entry.describe())
        return "\n\n".join(parts)

    __repr__ = __str__


def _indent(text):
    return "\n".join("  " + line for line in text.splitlines())


class _EagerEntry:
    """A specialization that runs the function eagerly (after a graph break or a failure)."""

    def __init__(self, guards, fn, reason, graph_break=None):
        self.guards = guards
        self.fn = fn
        self.reason = reason
        self.graph_break = graph_break  # the GraphBreak that made it, if one did

    def call(self, args, kwargs):
        return self.fn(*args, **kwargs)

    run = call

    def attempt(self, args, kwargs):
        return self.fn(*args, **kwargs) if self.guards.check(args, kwargs) < 0 else MISS

    def describe(self):
        return "runs eagerly: " + self.reason


def _same_arguments(before, after):
    """Whether the traced call left the arguments' Python structure as it found it: a function
    that stores into a dict or list it was given (``state["mean"] = ...``) has done its work
    once, and running the compiled call again would do it twice."""
    (leaves_before, spec_before), (leaves_after, spec_after) = before, after
    return spec_before == spec_after and all(a is b for a, b in zip(leaves_before, leaves_after))


class Specialization:
    """One compiled version of the function: guards plus a ``Program`` of kernels."""

    def __init__(self, guards, program, recorded):
        self.guards = guards
        self.program = program
        self.sources = recorded.sources
        self._fetch = fetcher(recorded.sources)
        self.output_spec = recorded.output_spec
        self.output_leaves = recorded.output_leaves
        args_spec, kwargs_spec = recorded.arg_spec[1]
        self.flat_is_args = not kwargs_spec[1] and all(c is None for c in args_spec[1])
        p = program
        self.constants = [kernel_argument(kind, a) for kind, a in p.forward_args
                          if kind != "input"]
        self.needs_node = any(d is not None for d in p.differentiable_outputs) or \
            any(p.freed_outputs)
        # Sources whose layout a call must check: guards fix shapes, so one-element arrays are
        # always C-contiguous, and guards check those the kernel writes into.
        self.layout_checks = {i for i, t in enumerate(recorded.source_tensors)
                              if t._array.size > 1 and i not in p.mutations}
        self.returns_one_tensor = (self.output_spec is None
                                   and self.is_tensor_leaf(self.output_leaves[0]))
        self.repeats_itself = False   # seen: its guards hold again after a call of it
        self._draws = any(type(s) is RandomSource for s in recorded.sources)
        self.call = runner(self)  # a call as generated code: run() without repeat's checks
        self.attempt = attempt(self)  # guards and call as one function: a call's fast path

    def describe(self):
        p = self.program
        lines = []
        for stage, text in p.text.items():
            lines.append(f"{stage}:\n{_indent(text)}")
        if p.fallback_ops:
            lines.append("ops without a lowering (numpy inside the kernel): " +
                         ", ".join(sorted(set(p.fallback_ops))))
        lines.append("kernel cache: " + p.cache_path +
                     (" (loaded)" if p.loaded_from_cache else " (compiled)"))
        lines.append("compile time: " + ", ".join(f"{k} {v:.3f}s" for k, v in p.timings.items()))
        return "\n".join(lines)

    def run(self, args, kwargs, times=1):
        """One call; or ``times`` calls in one kernel launch (``CompiledFunction.repeat``), when
        the state the kernel reads is all in the arrays it is given (and no fresh random numbers
        are drawn for it)."""
        if times > 1:
            if self._draws:  # fresh random numbers for each call
                return self._run_separately(args, kwargs, times)
            flat = args if self.flat_is_args else pytree.flatten((args, kwargs))[0]
            if self.program.grad_sets and self._replaces_what_it_reads(flat, self._fetch(flat)):
                return self._run_separately(args, kwargs, times)
        return self.call(args, kwargs, times)

    def changes_nothing(self):
        """Whether a call writes nothing (no tensors, no ``.grad``, no backward) and draws no
        random numbers: the traced call can then be run again compiled, for its result."""
        p = self.program
        return not (p.mutations or p.version_bumps or p.grad_sets or self._draws
                    or any(p.freed_outputs))

    def _run_separately(self, args, kwargs, times):
        for _ in range(times - 1):
            self.run(args, kwargs)
        return self.run(args, kwargs)

    def _replaces_what_it_reads(self, flat, tensors):
        """Whether a call assigns a new ``.grad`` that the next call would read: each call must
        then see the tensor the previous one made, which only separate calls can give it."""
        read = {id(t) for t in tensors}
        return any(k is not None and id(owner.fetch(flat)._grad) in read
                   for owner, k in self.program.grad_sets)

    @staticmethod
    def is_tensor_leaf(leaf):
        """Whether a returned leaf is a tensor the kernel makes (else a Python value)."""
        return isinstance(leaf, Value)


_ALL = weakref.WeakSet()  # every CompiledFunction alive, for reset()


def reset():
    """Forget the specializations of every compiled function (``torch.compiler.reset()``); the
    kernels stay in the on-disk cache, so recompiling them is quick."""
    for function in list(_ALL):
        function.reset()
