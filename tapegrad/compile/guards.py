"""Guards: the assumptions a compiled specialization was traced under, checked on every call.

A specialization assumed the arguments' shapes, dtypes and ``requires_grad`` flags, the grad mode,
which tensors and parameters the function reached (by identity), the Python scalars it was called
with, the state of leaves' ``.grad`` it accumulated into, optimizer hyper-parameters, module
train/eval flags and settings (``Dropout.p``), and the numbers it read from globals. The checks
are generated as one Python function (a few microseconds per call); when one fails, its guard
says what changed in plain words: ``x.shape[0] changed 32 → 17``.
"""
import numbers

from ..autograd import grad_mode
from ..tensor import Tensor
from . import pytree
from .reads import forward_hooks
from .trace import ArgSource, ExternalSource, GradSource, global_names

__all__ = ["GuardSet", "build_guards"]

_SCALARS = (bool, int, float, complex, str, bytes, type(None))


class GuardSet:
    """The guards of one specialization: ``check(args, kwargs)`` is -1 when all hold."""

    def __init__(self, steps, descriptions, texts, bindings, simple_arity):
        self.descriptions = descriptions
        self.texts = texts
        self._steps = steps
        self.flattens = simple_arity is None
        self.bindings = dict(bindings, _flatten=pytree.flatten, G=grad_mode._state)
        source = "\n".join(["def check(args, kwargs):", *self.lines(str), "    return -1"])
        namespace = dict(self.bindings)
        exec(compile(source, "<tapegrad guards>", "exec"), namespace)
        self.check = namespace["check"]

    def lines(self, failed):
        """The checks as the body of a function of ``(args, kwargs)`` (names in ``bindings``),
        returning ``failed(k)`` (source text) where guard ``k`` fails and going on where all
        hold: ``check`` ends it with ``return -1``, a specialization's generated call with the
        call itself (``dispatch.runner``)."""
        lines = ["    flat = _flatten((args, kwargs))[0]"] if self.flattens else []
        conditions = 0
        for step in self._steps:
            if type(step) is tuple:  # a local name for a value later conditions read again
                lines.append(f"    {step[0]} = {step[1]}")
            else:
                lines.append(f"    if not ({step}):")
                lines.append(f"        return {failed(conditions)}")
                conditions += 1
        return lines

    def failure(self, args, kwargs):
        """None if every guard holds, else the first failure in words."""
        try:
            index = self.check(args, kwargs)
        except (IndexError, KeyError, TypeError, AttributeError, ValueError):
            return "the arguments changed structure"
        return None if index < 0 else self.descriptions[index](args, kwargs)

    def __str__(self):
        return "\n".join(self.texts)


class _Builder:
    def __init__(self):
        self.steps = []      # conditions (source text) and (local name, expression) assignments
        self.descriptions = []
        self.texts = []
        self.bindings = {}
        self.locals = {}     # expression -> the local name holding its value

    def bind(self, obj):
        name = f"g{len(self.bindings)}"  # (a call's generated code binds K, C, A, V and T names)
        self.bindings[name] = obj
        return name

    def local(self, expr):
        """A local name for ``expr``, assigned here: the checks that follow read ``args[0]`` or
        ``args[0]._array`` once instead of once per condition. Valid from this point on, so call
        it only where ``expr`` can be evaluated (after the conditions it depends on)."""
        name = self.locals.get(expr)
        if name is None:
            name = self.locals[expr] = f"L{len(self.locals)}"
            self.steps.append((name, expr))
        return name

    def add(self, condition, describe, text):
        """``condition``: Python source; ``describe(args, kwargs)``: what changed when it fails;
        ``text``: the assumption in words, for ``explain()``. A condition already checked is
        not added again."""
        if condition in self.steps:
            return
        self.steps.append(condition)
        self.descriptions.append(describe)
        self.texts.append(text)


def build_guards(trace, function):
    """The guard set for ``trace`` (a ``trace.Trace``) of ``function``."""
    g = _Builder()
    leaves, spec = trace.flat_args, trace.arg_spec
    (args_spec, kwargs_spec) = spec[1]
    simple = all(child is None for child in args_spec[1]) and \
        all(child is None for _, child in kwargs_spec[1])
    n_args = len(args_spec[1])
    keys = [key for key, _ in kwargs_spec[1]]
    if simple:
        access = [f"args[{i}]" for i in range(n_args)] + [f"kwargs[{k!r}]" for k in keys]
        g.add(f"len(args) == {n_args} and len(kwargs) == {len(keys)}" +
              "".join(f" and {k!r} in kwargs" for k in keys),
              lambda args, kwargs: f"the call has {len(args)} positional and {len(kwargs)} "
                                   f"keyword arguments, not {n_args} and {len(keys)}",
              f"called with {n_args} positional argument(s)" +
              (f" and keywords {', '.join(keys)}" if keys else ""))
    else:
        access = [f"flat[{i}]" for i in range(len(leaves))]
        spec_name = g.bind(spec)
        g.add(f"_flatten((args, kwargs))[1] == {spec_name}",
              lambda args, kwargs: "the nesting of the arguments changed",
              "arguments nested as in the first call")

    enabled = grad_mode._state.grad_enabled
    g.add(f"G.grad_enabled is {enabled}",
          lambda args, kwargs: f"grad mode changed {_mode(enabled)} → {_mode(not enabled)}",
          f"grad mode {_mode(enabled)}")

    tensor_args = []
    for i, (leaf, name, expr) in enumerate(zip(leaves, trace.arg_names, access)):
        if isinstance(leaf, Tensor):
            _tensor_guards(g, leaf, name, expr, i)
            inference = leaf.is_inference()  # (eager refuses to save one for backward)
            tensor = g.local(expr)  # (a meta tensor runs eagerly)
            g.add(f"{tensor}._inference is {inference} and not {tensor}._meta",
                  _attribute_changed(name, "is_inference()", inference,
                                     lambda t: t.is_inference(), i),
                  f"{name}.is_inference() == {inference}")
            tensor_args.append(g.local(f"{g.local(expr)}._array"))
        elif type(leaf) in _SCALARS:
            value = g.bind(leaf)
            g.add(f"type({expr}) is {g.bind(type(leaf))} and {expr} == {value}",
                  _value_changed(name, leaf, i), f"{name} == {leaf!r}")
        else:
            g.add(f"{expr} is {g.bind(leaf)}", _object_changed(name, i),
                  f"{name} is the same {type(leaf).__name__} object")
    if len(tensor_args) > 1:
        distinct = len({id(t._array) for t in leaves if isinstance(t, Tensor)})
        g.add(f"len({{{', '.join(f'id({a})' for a in tensor_args)}}}) == {distinct}",
              lambda args, kwargs: "which arguments share memory changed",
              f"{distinct} distinct arrays among the tensor arguments")

    for source, tensor in zip(trace.sources, trace.source_tensors):
        if type(source) is ExternalSource:
            _tensor_guards(g, tensor, source.name, g.bind(tensor), None)
        elif type(source) is GradSource:
            owner = _owner_expression(g, source.owner, access)
            g.add(f"{g.local(owner)}._grad is not None", _grad_now(source.owner.name, present=True),
                  f"{source.owner.name}.grad is a tensor")
            _tensor_guards(g, tensor, source.name, f"{owner}._grad", None)
    for index, _ in trace.mutations:  # written in place by the kernel: must be its own array
        source, tensor = trace.sources[index], trace.source_tensors[index]
        if tensor._array.size <= 1:
            continue  # always C-contiguous (numpy ignores the strides of length-1 dimensions)
        expr = access[source.index] if type(source) is ArgSource else \
            f"{_owner_expression(g, source.owner, access)}._grad" if type(source) is GradSource \
            else g.bind(tensor)
        g.add(f"{g.local(f'{g.local(expr)}._array')}.flags.c_contiguous",
              _layout_changed(source.name),
              f"{source.name} is C-contiguous (the kernel writes into it)")
    for owner, was_none in trace.grad_assumptions:
        expr = g.local(_owner_expression(g, owner, access))
        g.add(f"{expr}._grad is {'' if was_none else 'not '}None",
              _grad_now(owner.name, present=not was_none),
              f"{owner.name}.grad is {'None' if was_none else 'a tensor'}")

    _reach_guards(g, function, trace.discovered)
    for read in trace.python_reads:
        g.add(read.inline_condition(g.bind) or f"{g.bind(read)}.holds()", lambda args, kwargs, read=read: read.describe(),
              read.guard_text())
    return GuardSet(g.steps, g.descriptions, g.texts, g.bindings,
                    n_args if simple else None)


def _owner_expression(g, source, access):
    if type(source) is ArgSource:
        return access[source.index]
    return g.bind(source.tensor)


def _tensor_guards(g, tensor, name, expr, index):
    """``expr``: source text that reaches the tensor from the call's arguments (or a binding),
    which the failure descriptions evaluate; the conditions read it through local names."""
    array = tensor._array
    value = g.local(expr)
    g.add(f"type({value}) is {g.bind(type(tensor))}", _object_changed(name, index, "a tensor"),
          f"{name} is a {type(tensor).__name__}")
    data = g.local(f"{value}._array")
    g.add(f"{data}.shape == {g.bind(array.shape)}",
          _shape_changed(name, array.shape, expr, g.bindings), f"{name}.shape == {array.shape}")
    dtype = g.bind(array.dtype)  # dtypes are mostly numpy's singletons: try identity first
    g.add(f"{data}.dtype is {dtype} or {data}.dtype == {dtype}",
          _attribute_changed(name, "dtype", array.dtype, lambda t: t._array.dtype, index),
          f"{name}.dtype == {array.dtype.name}")
    g.add(f"{value}._requires_grad is {tensor._requires_grad}",
          _attribute_changed(name, "requires_grad", tensor._requires_grad,
                             lambda t: t._requires_grad, index),
          f"{name}.requires_grad == {tensor._requires_grad}")
    if tensor._requires_grad:
        leaf = tensor._grad_fn is None
        g.add(f"({value}._grad_fn is None) is {leaf}",
              _attribute_changed(name, "is_leaf", leaf, lambda t: t._grad_fn is None, index),
              f"{name}.is_leaf == {leaf}")


def _reach_guards(g, function, discovered):
    """What the function reached by name must still be the same objects and settings."""
    for name, module in discovered.modules:
        guard = _ModuleGuard(module)
        g.add(f"{g.bind(guard)}()", _module_changed(name, module, guard.state),
              f"{name} has the same parameters, train/eval modes and settings")
    for name, optimizer in discovered.optimizers:
        state = g.bind(_optimizer_state)
        g.add(f"{state}({g.bind(optimizer)}) == {g.bind(_optimizer_state(optimizer))}",
              _settings_changed(name, "parameters or hyper-parameters"),
              f"{name} has the same parameters and hyper-parameters")
    target = getattr(function, "__func__", function)
    namespace = getattr(target, "__globals__", None)
    code = getattr(target, "__code__", None)
    if namespace is None or code is None:
        return
    reached = {id(obj) for _, obj in discovered.modules + discovered.optimizers}
    reached |= set(discovered.names)
    for name in dict.fromkeys(global_names(code)):
        obj = namespace.get(name)
        if obj is not None and id(obj) in reached:
            g.add(f"{g.bind(namespace)}.get({name!r}) is {g.bind(obj)}",
                  lambda args, kwargs, name=name: f"the global '{name}' now names another object",
                  f"global '{name}' names the same object")
        elif name in namespace and _is_setting(obj):
            # a number the trace read into the graph as a constant (``x * SCALE``)
            g.add(f"{g.bind(_same_setting)}({g.bind(namespace)}.get({name!r}, {g.bind(_MISSING)}),"
                  f" {g.bind(obj)})",
                  _global_changed(namespace, name, obj), f"global '{name}' == {obj!r}")


_MISSING = object()


def _is_setting(value):
    """A Python value a trace bakes into the graph: a number, string, None, or a tuple of them."""
    if type(value) is tuple:
        return all(_is_setting(v) for v in value)
    return type(value) in _SCALARS


def _same_setting(value, recorded):
    return type(value) is type(recorded) and value == recorded


def _global_changed(namespace, name, old):
    def describe(args, kwargs):
        return f"the global '{name}' changed {old!r} → {namespace.get(name, '(deleted)')!r}"
    return describe


class _ModuleGuard:
    """Whether a module is as it was traced. Comparing its whole state costs tens of µs, so it
    is compared only after nn.Module's change counter moved (an attribute set, a mode switched
    anywhere); when it still matches, the counter's new value is remembered."""

    __slots__ = ("module", "state", "changes")

    def __init__(self, module):
        self.module = module
        self.state = _module_state(module)
        self.changes = getattr(module, "_changes", None)

    def __call__(self):
        changes = getattr(self.module, "_changes", None)
        if changes is not None and changes == self.changes:
            return True
        if _module_state(self.module) != self.state:
            return False
        self.changes = changes
        return True


def _module_state(module):
    """What a module's call may read besides tensors: its parameters' identities, every
    submodule's train/eval flag, its plain settings (``Dropout.p``, ``self.scale``) and its
    hooks (traced into the graph with the forward)."""
    return (tuple(id(p) for p in module.parameters()),
            tuple((m.training, tuple((k, v) for k, v in m.__dict__.items() if _is_setting(v)),
                   tuple(id(hook) for hook in forward_hooks(m)))
                  for m in module.modules()))


def _optimizer_state(optimizer):
    state = []
    for group in optimizer.param_groups:
        for key, value in group.items():
            if key == "params":
                state.append(tuple(id(p) for p in value))
            elif isinstance(value, numbers.Number) or isinstance(value, tuple):
                state.append((key, value))
            elif isinstance(value, Tensor):  # a tensor learning rate: its identity
                state.append((key, id(value)))
    return tuple(state)


# ---------------------------------------------------------------------------- descriptions

def _mode(enabled):
    return "enabled" if enabled else "disabled"


def _fetch(args, kwargs, index):
    leaves, _ = pytree.flatten((args, kwargs))
    return leaves[index] if index is not None and index < len(leaves) else None


def _shape_changed(name, old, expr, bindings):
    def describe(args, kwargs):
        tensor = _current(expr, bindings, args, kwargs)
        new = tensor._array.shape
        if len(new) != len(old):
            return f"{name}.dim() changed {len(old)} → {len(new)} (shape {list(old)} → {list(new)})"
        dim = next(d for d, (a, b) in enumerate(zip(old, new)) if a != b)
        return f"{name}.shape[{dim}] changed {old[dim]} → {new[dim]}"
    return describe


def _current(expr, bindings, args, kwargs):
    flat = pytree.flatten((args, kwargs))[0]
    return eval(expr, dict(bindings), {"args": args, "kwargs": kwargs, "flat": flat})


def _attribute_changed(name, attribute, old, read, index):
    def describe(args, kwargs):
        tensor = _fetch(args, kwargs, index)
        new = read(tensor) if isinstance(tensor, Tensor) else "?"
        return f"{name}.{attribute} changed {_text(old)} → {_text(new)}"
    return describe


def _value_changed(name, old, index):
    def describe(args, kwargs):
        return f"{name} changed {old!r} → {_fetch(args, kwargs, index)!r}"
    return describe


def _object_changed(name, index, what="the object"):
    def describe(args, kwargs):
        new = _fetch(args, kwargs, index) if index is not None else None
        if what == "a tensor" and not isinstance(new, Tensor) and index is not None:
            return f"{name} is no longer a tensor (got {type(new).__name__})"
        return f"{name} is another {type(new).__name__ if new is not None else 'object'}"
    return describe


def _layout_changed(name):
    def describe(args, kwargs):
        return f"{name} is no longer C-contiguous"
    return describe


def _grad_now(name, present):
    def describe(args, kwargs):
        return (f"{name}.grad changed None → a tensor" if not present else
                f"{name}.grad changed a tensor → None")
    return describe


def _module_changed(name, module, old):
    def describe(args, kwargs):
        new = _module_state(module)
        if new[0] != old[0]:
            return f"{name}'s parameters changed"
        for (path, _), (was_training, was, hooks_before), (training, now, hooks) in zip(
                module.named_modules(), old[1], new[1]):
            where = f"{name}.{path}" if path else name
            if was_training != training:
                return f"{where}.training changed {was_training} → {training}"
            for (key, before), (_, after) in zip(was, now):
                if before != after:
                    return f"{where}.{key} changed {before!r} → {after!r}"
            if hooks_before != hooks:
                return f"{where}'s forward hooks changed"
        return f"{name}'s settings changed"
    return describe


def _settings_changed(name, what):
    def describe(args, kwargs):
        return f"{name}'s {what} changed"
    return describe


def _text(value):
    return getattr(value, "name", value) if not isinstance(value, bool) else value
