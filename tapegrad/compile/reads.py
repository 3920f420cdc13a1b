"""The Python state a traced function reads, found in its bytecode, and whether the call changed it.

A trace bakes what the function read from Python into the graph: ``cfg["lr"]`` and ``c.bias``
become constants, ``buffers["w"]`` a captured tensor, a closure's ``scale`` a number. So each such
place is re-read by a guard on every call (``Read.holds``), and a change recompiles. A function
that changes Python state outside itself — ``global``/``nonlocal`` assignments, ``d["n"] += 1``,
``log.append(loss)``, ``obj.count += 1`` — cannot be compiled: a compiled call runs no Python. The
places are the chains ``root.attr[key]...`` that start at a global, a closure cell or ``self`` and
go on with attribute loads and constant subscripts, in the function, in the plain Python functions
it calls by name, and in the ``forward`` and forward hooks of the modules it reaches.
"""
import dis
import os
import types

import numpy as np

from ..tensor import Tensor

__all__ = ["Read", "python_reads", "python_writes", "changed", "forward_hooks"]

_MISSING = object()
_SETTINGS = (bool, int, float, complex, str, bytes, type(None))
_CONTAINERS = (list, dict, set, tuple)
_MAX_CONTAINER = 64       # larger containers are guarded by identity only
_CALLEE_DEPTH = 2         # plain functions called by name, scanned this deep


class Read:
    """One place the function reads: a root — ``("global", namespace, name)``, ``("cell", cell,
    name)`` or ``("self", object, "self")`` — and a path of ``(is_attribute, name or key)``."""

    __slots__ = ("text", "root", "path", "recorded", "snapshot")

    def __init__(self, text, root, path):
        self.text, self.root, self.path = text, root, path
        self.recorded = _resolve(root, path)
        self.snapshot = _snapshot(self.recorded)

    def value(self):
        return _resolve(self.root, self.path)

    def holds(self):
        """Whether the place still holds what the trace read."""
        return _same(self.value(), self.recorded, self.snapshot)

    def inline_condition(self, bind):
        """``holds()`` as guard source for the commonest reads, a global holding a number or a
        string and a closure cell holding a tensor (what a training step reads: ``LR``, ``x``),
        at a tenth of its cost; None for the others. ``bind(obj)`` names an object."""
        if self.path:
            return None
        kind, holder, name = self.root
        recorded = self.recorded
        if kind == "global" and type(recorded) in _SETTINGS:
            value = f"{bind(holder)}.get({name!r}, {bind(_MISSING)})"
            return f"type({value}) is {bind(type(recorded))} and {value} == {bind(recorded)}"
        if kind == "cell" and isinstance(recorded, (Tensor, np.ndarray)):
            return f"{bind(holder)}.cell_contents is {bind(recorded)}"  # (an emptied cell raises)
        return None

    def describe(self):
        return f"{self.text} changed {_show(self.recorded)} → {_show(self.value())}"

    def guard_text(self):
        return f"{self.text} == {_show(self.recorded)}" if _is_setting(self.recorded) \
            else f"{self.text} is the same {type(self.recorded).__name__}"


def _resolve(root, path):
    kind, holder, name = root
    try:
        obj = holder.get(name, _MISSING) if kind == "global" else \
            holder.cell_contents if kind == "cell" else holder
        for is_attribute, step in path:
            if obj is _MISSING:
                break
            obj = getattr(obj, step) if is_attribute else obj[step]
    except Exception:  # noqa: BLE001  a property or __getitem__ that fails: the place is gone
        return _MISSING
    return obj


def _is_setting(value):
    """A value compared by equality: a number, string, None, or a tuple of them."""
    if type(value) is tuple:
        return all(_is_setting(v) for v in value)
    return type(value) in _SETTINGS


def _same(value, recorded, snapshot):
    if _is_setting(recorded):
        return type(value) is type(recorded) and value == recorded
    if value is recorded:
        return snapshot is None or _snapshot(value) == snapshot
    if isinstance(recorded, (Tensor, np.ndarray) + _CONTAINERS):
        return False
    try:  # a device or dtype made anew by a property: equal is the same
        return bool(value == recorded)
    except Exception:  # noqa: BLE001
        return False


def _snapshot(value):
    """The identities a container holds (a list appended to, a dict entry replaced), or None."""
    if not isinstance(value, _CONTAINERS) or len(value) > _MAX_CONTAINER:
        return None
    if isinstance(value, dict):
        return tuple((id(k), id(v)) for k, v in value.items())
    return tuple(map(id, value))


def _show(value):
    if value is _MISSING:
        return "(missing)"
    if _is_setting(value):
        return repr(value)
    return f"another {type(value).__name__}" if isinstance(value, (Tensor, np.ndarray)) else \
        f"a {type(value).__name__}"


def changed(reads):
    """The first read whose place no longer holds what it held before the call, or None."""
    return next((read for read in reads if not read.holds()), None)


# ---------------------------------------------------------------------------------- scanning

def python_reads(fn, modules=()):
    """The places ``fn`` (a function or bound method) reads, and those the ``forward`` of each
    user-defined module in ``modules`` and its forward hooks read."""
    reads, seen = {}, set()
    _scan_function(fn, reads, _CALLEE_DEPTH, seen)
    compiled_module = getattr(fn, "__self__", None)  # a compiled forward: its hooks run outside
    for module in modules:
        for submodule in module.modules():
            forward = getattr(type(submodule), "forward", None)
            if isinstance(forward, types.FunctionType):
                _scan_function(types.MethodType(forward, submodule), reads, 0, seen)
            for hook in forward_hooks(submodule) if submodule is not compiled_module else ():
                _scan_function(hook, reads, _CALLEE_DEPTH, seen)
    return list(reads.values())


def forward_hooks(module):
    """The hooks a module's call runs around its forward: user code a trace runs too."""
    return (*module._forward_pre_hooks.values(), *module._forward_hooks.values())


def python_writes(fn):
    """Names of globals and outer variables ``fn`` assigns (``global x``/``nonlocal x``)."""
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return []
    return [f"{'global' if i.opname == 'STORE_GLOBAL' else 'nonlocal'} '{i.argval}'"
            for i in dis.get_instructions(code)
            if i.opname == "STORE_GLOBAL" or (i.opname == "STORE_DEREF"
                                              and i.argval in code.co_freevars)]


def _scan_function(fn, reads, depth, seen):
    self = getattr(fn, "__self__", None)
    fn = getattr(fn, "__func__", fn)
    code = getattr(fn, "__code__", None)
    if code is None or (id(code), id(self)) in seen or not _is_user_code(code):
        return  # tapegrad's own modules read what the module guard covers
    seen.add((id(code), id(self)))
    cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
    _scan_code(code, getattr(fn, "__globals__", {}), cells, self, reads, depth, seen)


def _scan_code(code, namespace, cells, self, reads, depth, seen):
    instructions = list(dis.get_instructions(code))
    first_argument = code.co_varnames[0] if code.co_argcount else None
    for i, instruction in enumerate(instructions):
        root = _root(instruction, namespace, cells, self, first_argument)
        if root is None:
            continue
        text, path, j = root[2], [], i + 1
        while j < len(instructions):
            step = instructions[j]
            if step.opname == "LOAD_ATTR" and not isinstance(_resolve(root, path), Tensor):
                path.append((True, step.argval))
                text += f".{step.argval}"
                j += 1
            elif (step.opname == "LOAD_CONST" and j + 1 < len(instructions)
                  and instructions[j + 1].opname == "BINARY_SUBSCR"
                  and isinstance(step.argval, (int, str, tuple))):
                path.append((False, step.argval))
                text += f"[{step.argval!r}]"
                j += 2
            else:
                break
        read = Read(text, root, tuple(path))
        if _worth_guarding(read.recorded, root, path):
            reads.setdefault((id(root[1]), root[2], read.path), read)
        callee = read.recorded
        if depth and not path and isinstance(callee, types.FunctionType) and \
                _is_user_code(callee.__code__):
            _scan_function(callee, reads, depth - 1, seen)
    for const in code.co_consts:  # comprehensions and nested functions read the same globals
        if isinstance(const, types.CodeType):
            _scan_code(const, namespace, {}, None, reads, depth, seen)


def _root(instruction, namespace, cells, self, first_argument):
    """(kind, holder, name) where a chain starts, or None."""
    if instruction.opname == "LOAD_GLOBAL" and instruction.argval in namespace:
        return "global", namespace, instruction.argval
    if instruction.opname == "LOAD_DEREF" and instruction.argval in cells:
        return "cell", cells[instruction.argval], instruction.argval
    if instruction.opname == "LOAD_FAST" and self is not None and \
            instruction.argval == first_argument:
        return "self", self, "self"
    return None


def _worth_guarding(value, root, path):
    """What a global names and ``self``'s submodules have guards already; Python modules
    (``torch``, ``F``, ``math``), classes and functions are the program's vocabulary, not its
    state."""
    if value is _MISSING or isinstance(value, _VOCABULARY) or _is_vocabulary(_resolve(root, ())):
        return False
    if not path:  # a global's identity has its guard; a container's contents do not
        return root[0] == "cell" or isinstance(value, _CONTAINERS)
    return not (root[0] == "self" and _is_module(value))


_VOCABULARY = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
               types.MethodType)


def _is_vocabulary(root_value):
    return isinstance(root_value, (types.ModuleType, type))


def _is_module(value):
    return callable(getattr(value, "named_parameters", None)) and hasattr(value, "training")


def _is_user_code(code):
    """Code outside tapegrad and installed libraries."""
    filename = os.path.abspath(code.co_filename)
    return "site-packages" not in filename and not filename.startswith(_PACKAGE_DIR)


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
