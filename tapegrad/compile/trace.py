"""Tracing: run the user's function once, eagerly, and record every primitive it applies.

The trace is an instrumented eager call. Every primitive call goes through ``Tracer.__call__``
(the op table's interceptor hook): the primitive runs as in eager mode — values, errors and the
recorded tape are eager's own — and a node is appended to an ``ir.Graph``. Tensors are identified
by their numpy array, so aliases (``p.data``) and in-place writes resolve to the same value.

* Tensors that existed before the call become graph inputs (*sources*): the arguments by position,
  anything else (parameters, captured tensors, ``p.grad``) by identity. Tensors made inside the call
  by creation functions (``zeros_like``, wrapped numbers) become constants.
* In-place writes (``p -= lr * p.grad``, ``zero_()``, ``x[i] = v``) are recorded as out-of-place
  nodes whose result re-binds the written tensor; at the end, every source whose value changed is a
  *mutation* the compiled code must write back.
* ``loss.backward()`` inside the call runs the eager engine; its backward rules are primitives too,
  so they are recorded like any other op, and a hook on each leaf records what reaches ``.grad``.
* Random numbers drawn through ``tapegrad.random.drawn`` (``rand``, ``randn``, dropout's mask …)
  become *random sources*: graph inputs each compiled call draws anew, by the same recipe, before
  its kernel runs.
* Python that depends on tensor data (``.item()``, ``bool(t)``, ``.tolist()``, printing), and
  random draws or reseeds the graph cannot replay, cannot be captured: it is a *graph break*. The call still completes eagerly; the
  compiler is told not to compile (or, with ``fullgraph=True``, ``GraphBreakError`` is raised).
"""
import builtins
import gc
import os
import sys
import threading
import weakref

import numpy as np

from .. import random as tapegrad_random
from ..autograd import grad_mode
from ..autograd.function import Function
from ..ops import registry
from ..ops import shape as shape_ops
from ..tensor import Tensor
from . import pytree
from .ir import Graph, Node, Operand, Value
from .reads import changed, python_reads, python_writes

__all__ = ["trace", "Trace", "GraphBreakError", "Unsupported", "UserError", "ArgSource",
           "ExternalSource", "GradSource", "RandomSource"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_TRACE_LOCK = threading.RLock()  # recordings nest (autodiff checks a rule in a scratch one)
_active = None  # the Tracer of the trace in progress (one at a time, see _TRACE_LOCK)


class GraphBreakError(RuntimeError):
    """The traced function cannot be captured whole (raised as ``Unsupported``)."""


class Unsupported(GraphBreakError):
    """What ``fullgraph=True`` raises at a graph break, under PyTorch's name
    (``torch._dynamo.exc.Unsupported``)."""


class UserError(GraphBreakError):
    """What ``fullgraph=True`` raises at ``.item()``: PyTorch captures the number, and its
    ``torch._dynamo.exc.UserError`` comes when code branches on it (not an ``Unsupported``)."""


class GraphBreak:
    """Why and where tracing had to stop: the user's line, and the library line if different."""

    def __init__(self, reason, hint, user_frame, library_frame, requested=False):
        self.reason = reason
        self.hint = hint
        self.requested = requested  # asked for (torch.compiler.disable): nothing to warn about
        self.filename, self.lineno = user_frame
        self.library = library_frame

    @property
    def location(self):
        return f"{self.filename}:{self.lineno}"

    def message(self, function_name):
        via = ""
        if self.library is not None and self.library != (self.filename, self.lineno):
            via = f" (in {os.path.relpath(self.library[0], _PACKAGE_DIR)}:{self.library[1]})"
        return (f"graph break in {function_name}() at {self.location}{via}: {self.reason}. "
                f"Hint: {self.hint}.")


_DATA_HINT = ("keep .item(), .tolist(), print() and `if tensor:` outside the compiled function, "
              "or compute with tensor operations (torch.where) instead")


# ------------------------------------------------------------------------------------- sources

class ArgSource:
    """A tensor passed in the call's arguments (``index`` into the flattened arguments)."""

    __slots__ = ("index", "name")

    def __init__(self, index, name):
        self.index, self.name = index, name

    def fetch(self, flat_args):
        return flat_args[self.index]


class ExternalSource:
    """A tensor the function reaches by itself (a parameter, a captured tensor): by identity."""

    __slots__ = ("tensor", "name")

    def __init__(self, tensor, name):
        self.tensor, self.name = tensor, name

    def fetch(self, flat_args):
        return self.tensor


class GradSource:
    """``owner.grad`` as it is at call time (accumulation reads it; ``optimizer.step`` too)."""

    __slots__ = ("owner", "name")

    def __init__(self, owner):
        self.owner, self.name = owner, owner.name + ".grad"

    def fetch(self, flat_args):
        return self.owner.fetch(flat_args)._grad


class RandomSource:
    """Random numbers drawn inside the call (``rand``, dropout's mask …): drawn again by the same
    recipe on each compiled call, so a compiled call gets fresh numbers, the ones eager would."""

    __slots__ = ("recipe", "name")

    def __init__(self, recipe, array):
        self.recipe = recipe
        self.name = f"<random {array.dtype} {list(array.shape)}>"

    def fetch(self, flat_args):
        return Tensor._make(self.recipe())


# ------------------------------------------------------------------------------------- result

class Trace:
    """What one traced call did, in terms the rest of the compiler uses.

    ``graph`` has one input per source and no outputs yet; ``output_leaves`` holds the returned
    tensors' values (``output_spec`` rebuilds the returned structure); ``mutations`` (source index,
    final value) and ``grad_sets`` (owner source, value or None) are the side effects to replay.
    """

    def __init__(self):
        self.graph = Graph()
        self.sources = []
        self.concrete = {}            # Value -> an array of its shape and dtype (from the trace)
        self.differentiable = set()   # Values that required grad during the trace
        self.untaped_writes = set()   # Values written in place where eager's tape did not see it
                                      # (no_grad, ``.data``): their gradient passes to the old value
        self.output_spec = None
        self.output_leaves = []       # Value for tensor leaves, the object itself otherwise
        self.output_freed = []        # per tensor output: its tape was freed by backward inside
        self.output_requires_grad = []  # per tensor output: as returned (``.detach()`` is False)
        self.output_is_source = []    # per tensor output: it is a source tensor itself
        self.output_has_grad_fn = []  # per tensor output: as returned
        self.output_versions = []     # per tensor output: its _version as returned
        self.mutations = []
        self.version_bumps = []       # (source index, how much eager bumped its _version)
        self.grad_sets = []
        self.grad_assumptions = []    # (owner source, entry grad was None) the graph depends on
        self.breaks = []
        self.escapes = []
        self.flat_args = []
        self.source_tensors = []      # per source, the tensor it was when first read
        self.arg_spec = None
        self.arg_names = []
        self.discovered = None
        self.python_reads = []        # places in Python the function read (reads.Read)
        self.result = None


# ------------------------------------------------------------------------------------- tracer

class Recorder:
    """The op table's interceptor: runs each primitive eagerly and appends it to a graph.

    Values are found by array identity. ``Tracer`` (user functions) and autodiff (backward
    rules) differ only in what an unknown tensor is and in when recording is on.
    """

    def __init__(self, graph, concrete, differentiable):
        self.graph = graph
        self.concrete = concrete              # Value -> array of its shape and dtype
        self.differentiable = differentiable  # Values that require grad
        self.untaped_writes = set()           # results of writes autograd does not record
        self.values = {}                      # id(array) -> (array, Value)
        self.thread = threading.get_ident()

    def recording(self):
        return threading.get_ident() == self.thread

    def before_event(self):
        """Hook run before each recorded operation."""

    def __call__(self, primitive, inputs, params):
        if not self.recording():
            return primitive.apply(inputs, params)
        self.before_event()
        in_values = [self.value_of(t) for t in inputs]
        ir_params, index_values = self._lift_params(params, len(in_values))
        result = primitive.apply(inputs, params)
        outputs = result if type(result) is tuple else (result,)
        self._record(primitive.name, in_values + index_values, outputs, ir_params)
        if primitive.is_view:
            self.note_view(inputs[0], outputs[0])
        return result

    def record_inplace(self, primitive, target, others, params):
        """Called by ``apply_inplace`` after the write: the new contents become a new value."""
        if not self.recording():
            return
        self.before_event()
        if self.check_inplace(target) is False:
            return
        old = self.value_of(target)  # still bound to the contents before the write
        in_values = [old] + [self.value_of(o) for o in others]
        self._refuse_complex(primitive.name, in_values)
        ir_params, index_values = self._lift_params(params, len(in_values))
        out = Value(target._array.shape, target._array.dtype)
        self.graph.nodes.append(Node(primitive.name, in_values + index_values, (out,), ir_params))
        self.bind(target._array, out)
        # (called before eager records the write on its tape, by the same rule: a target that is
        # to require grad because of what was written into it, ``y.copy_(x)``, does not yet)
        taped = grad_mode.is_grad_enabled() and (
            target._requires_grad or any(o._requires_grad for o in others))
        if taped:
            self.differentiable.add(out)
        elif old in self.differentiable:  # under no_grad, or through ``.data``: the tensor keeps
            self.differentiable.add(out)  # its history, which gradients reach past the write
            self.untaped_writes.add(out)

    def check_inplace(self, target):
        return True

    def data_dependent_shape(self):
        """Hook: an op's output shape depends on tensor data (a boolean mask)."""

    def note_born(self, tensor):
        """Hook: a tensor was created while recording."""

    def note_grad_write(self, tensor):
        """Hook: a tensor's ``.grad`` was assigned while recording."""

    def note_draw(self, recipe, array, events):
        """Hook: ``array`` of random numbers was drawn by ``recipe`` (``random.drawn``)."""

    def reads_traced_data(self, tensor):
        """Whether Python is about to see the contents of a recorded (non-constant) value."""
        if not self.recording():
            return False
        entry = self.values.get(id(tensor._array))
        return entry is not None and entry[0] is tensor._array and \
            entry[1] not in self.graph.constants

    def graph_break(self, reason, hint=None, requested=False, error=None):
        """Hook: recording cannot go on (by default: an error that says why)."""
        raise GraphBreakError(reason)

    def note_view(self, base, view):
        """Hook: a view primitive made ``view`` of ``base``."""

    # -- values ---------------------------------------------------------------------------------
    def value_of(self, tensor):
        array = tensor._array
        entry = self.values.get(id(array))
        if entry is not None and entry[0] is array:
            return entry[1]
        return self.unknown(tensor)

    def unknown(self, tensor):
        """A tensor the recording has not seen: by default a constant."""
        return self.constant(tensor._array)

    def constant(self, array):
        value = Value(array.shape, array.dtype)
        self.graph.constants[value] = np.array(array)
        self.bind(array, value)
        return value

    def bind(self, array, value):
        self.values[id(array)] = (array, value)
        self.concrete[value] = array

    def _refuse_complex(self, op, values):
        """Generated kernels compute in real numbers: a complex value breaks the graph."""
        if any(v.dtype.kind == "c" for v in values):
            self.graph_break(f"{op} computes in complex numbers",
                             "complex tensors run eagerly; keep them outside the compiled function")

    def _record(self, op, in_values, outputs, params):
        self._refuse_complex(op, [*in_values, *(t._array for t in outputs)])
        out_values = []
        for tensor in outputs:
            value = Value(tensor._array.shape, tensor._array.dtype)
            self.bind(tensor._array, value)
            if tensor._requires_grad:
                self.differentiable.add(value)
            out_values.append(value)
        self.graph.nodes.append(Node(op, in_values, out_values, params))
        return out_values

    def _lift_params(self, params, first_index):
        """Parameters with index arrays replaced by ``Operand``s; the arrays become inputs.

        An index array that belongs to a tensor of the trace (``target`` of a loss, an argument)
        must be read at call time, not baked in: ``logits[range(n), y]`` with a new ``y`` each
        step. Arrays that belong to no tensor are the function's own constants.
        """
        extra = []

        def convert(param):
            if isinstance(param, np.ndarray) and id(param) in self.values:
                value = self.values[id(param)][1]
                if param.dtype == np.bool_ and value not in self.graph.constants:
                    self.data_dependent_shape()
                extra.append(value)
                return Operand(first_index + len(extra) - 1)
            if isinstance(param, (tuple, list)):
                return type(param)(convert(p) for p in param)
            return param

        return {key: convert(p) for key, p in params.items()}, extra


class Tracer(Recorder):
    """The recorder of a user function's call: sources, side effects and graph breaks."""

    def __init__(self, fullgraph, function_name, discovered):
        self.trace = Trace()
        super().__init__(self.trace.graph, self.trace.concrete, self.trace.differentiable)
        self.untaped_writes = self.trace.untaped_writes
        self.fullgraph = fullgraph
        self.function_name = function_name
        self.source_of = {}       # id(source tensor) -> source index
        self.source_tensors = self.trace.source_tensors
        self.discovered = discovered
        self.leaves = {id(leaf): (leaf, discovered.entry_grads[id(leaf)], name)
                       for leaf, name in discovered.leaves()}  # id -> (leaf, entry .grad, name)
        self.born = {}            # id(tensor) -> weakref: tensors created during the trace
        self.pending = []         # deposits into leaves' .grad, resolved at the next event
        self.watch_handles = []
        self.view_tensors = {}    # id(base array) -> weakrefs of traced views of it
        self.view_arrays = {}     # id(array) -> array, of those views
        self.grad_written = set()  # ids of tensors whose .grad the call assigned
        self.captured_draws = 0   # random-state events the random sources account for
        self.broken = False
        self.entry_versions = {}  # id(version counter) -> (counter, its value on entry)

    def recording(self):
        return not self.broken and threading.get_ident() == self.thread

    def before_event(self):
        self._resolve_deposits()

    def check_inplace(self, target):
        self.note_version(target, writes_done=1)  # (before the write makes it a source)
        if self._has_live_views(target):
            self.graph_break("an in-place write into a tensor that has views (or is one) cannot "
                             "be traced", "write into the whole tensor, or use the out-of-place "
                             "operation")
            return False
        return True

    def unknown(self, tensor):
        array = tensor._array
        known = self.discovered.arrays.get(id(array))
        if known is not None and known[0]._array is array:
            return self._lift(known[0], known[1])
        if not array.flags.writeable:  # read-only (cached wrapped numbers): immutable, a constant
            return self.constant(array)
        ref = self.born.get(id(tensor))
        if ref is not None and ref() is tensor:
            return self.constant(array)
        return self._lift(tensor, None)

    def _lift(self, tensor, name):
        return self.add_source(tensor, self._source_for(tensor, name))

    def add_source(self, tensor, source):
        """A tensor from outside the call becomes a graph input, read from ``source`` each call."""
        value = Value(tensor._array.shape, tensor._array.dtype)
        self.source_of[id(tensor)] = len(self.trace.sources)
        self.note_version(tensor)
        self.trace.sources.append(source)
        self.source_tensors.append(tensor)
        self.graph.inputs.append(value)
        self.bind(tensor._array, value)
        if tensor._requires_grad:
            self.differentiable.add(value)
            if tensor._grad_fn is None:
                self._watch_leaf(tensor, source.name)
        return value

    def note_version(self, tensor, writes_done=0):
        """Remember the ``_version`` a tensor entered the call with (the first time it is seen,
        ``writes_done`` writes into it ago): a mutated source's is bumped as often as eager's."""
        counter = tensor._version_counter
        self.entry_versions.setdefault(id(counter), (counter, counter.value - writes_done))

    def _source_for(self, tensor, name):
        owner = self.discovered.grad_owner.get(id(tensor))
        if owner is not None and owner[0]._grad is tensor:
            return GradSource(self._owner_source(owner[0], owner[1]))
        for source, candidate in zip(self.trace.sources, self.source_tensors):
            if candidate._grad is tensor:
                return GradSource(source)
        if name is None:
            name = f"<captured tensor {list(tensor._array.shape)}>"
        return ExternalSource(tensor, name)

    def _owner_source(self, leaf, name):
        index = self.source_of.get(id(leaf))
        if index is not None:
            return self.trace.sources[index]
        return ExternalSource(leaf, name)

    # -- leaves' gradients ----------------------------------------------------------------------
    def _watch_leaf(self, leaf, name):
        self.leaves.setdefault(id(leaf), (leaf, leaf._grad, name))
        self.watch_handles.append(leaf.register_hook(_DepositWatch(self, leaf)))

    def _resolve_deposits(self):
        """Record what the engine stored in ``leaf.grad`` since the watch hooks ran."""
        while self.pending:
            leaf, grad_value, before, overwritten = self.pending.pop(0)
            after = leaf._grad
            if before is None:
                if after is not None:
                    self.bind(after._array, grad_value)
                    self._assume_grad_state(leaf, before, overwritten)
            elif after is before:  # added in place: after = before + grad
                old = self.value_of(before)
                new = Value(before._array.shape, before._array.dtype)
                self.graph.nodes.append(Node("add", (old, grad_value), (new,), {}))
                self.bind(before._array, new)
                self._assume_grad_state(leaf, before, overwritten)

    def _assume_grad_state(self, leaf, seen, overwritten):
        """The graph took the 'None' or the 'accumulate' branch: guard it if that was the state
        the call started with (``zero_grad()`` inside the call makes it independent of it)."""
        entry = self.leaves[id(leaf)][1]
        if entry is seen and not overwritten:
            owner = self._owner_source(leaf, self.discovered.name_of(leaf))
            self.trace.grad_assumptions.append((owner, seen is None))

    # -- views and in-place writes --------------------------------------------------------------
    def note_view(self, base, view):
        if np.may_share_memory(view._array, base._array):
            key = id(base._array if base._base is None else base._base._array)
            self.view_tensors.setdefault(key, []).append(weakref.ref(view))
            self.view_arrays[id(view._array)] = view._array

    def _has_live_views(self, target):
        """Whether writing into ``target`` changes memory another traced value reads: it is a view
        of part of a tensor (or an alias of one, ``view.data``), or such views of it are alive.
        (Full aliases — ``detach()``, ``.data`` — share the array object itself, which the trace
        already treats as one value.)"""
        if target._base is not None and target._base._array is not target._array:
            return True
        if self.view_arrays.get(id(target._array)) is target._array:
            return True
        refs = self.view_tensors.get(id(target._array), ())
        return any(ref() is not None for ref in refs)

    # -- graph breaks ---------------------------------------------------------------------------
    def data_dependent_shape(self):
        self.graph_break("indexing with a boolean mask gives a shape that depends on the data",
                         "use torch.where(mask, x, 0) to keep the shape")

    def reads_traced_data(self, tensor):
        """True when Python is about to see the contents of a tensor the graph computes or reads."""
        if not self.recording():
            return False
        entry = self.values.get(id(tensor._array))
        if entry is not None and entry[0] is tensor._array:
            return entry[1] not in self.graph.constants
        ref = self.born.get(id(tensor))
        return not (ref is not None and ref() is tensor) and tensor._array.flags.writeable

    def graph_break(self, reason, hint=_DATA_HINT, requested=False, error=Unsupported):
        user, library = _frames_outside_package()
        info = GraphBreak(reason, hint, user, library, requested)
        if self.fullgraph:
            raise error(info.message(self.function_name))
        self.trace.breaks.append(info)
        self.broken = True

    def note_grad_write(self, tensor):
        """``tensor.grad`` (or ``._grad``) was assigned: from then on the call's graph does not
        depend on the gradient the tensor entered the call with."""
        if threading.get_ident() == self.thread:
            self.grad_written.add(id(tensor))

    def note_born(self, tensor):
        if threading.get_ident() == self.thread:
            self.born[id(tensor)] = weakref.ref(tensor)

    def note_draw(self, recipe, array, events):
        if self.recording():
            self.captured_draws += events
            self.add_source(Tensor._make(array), RandomSource(recipe, array))


class _DepositWatch:
    """A hook on a leaf: notes the gradient value about to be stored in ``leaf.grad``."""

    __slots__ = ("tracer", "leaf")

    def __init__(self, tracer, leaf):
        self.tracer, self.leaf = tracer, leaf

    def __call__(self, grad):
        tracer = self.tracer
        if not tracer.broken and threading.get_ident() == tracer.thread:
            tracer._resolve_deposits()
            leaf = self.leaf
            if leaf._grad is not None:  # (the engine may add into it in place)
                tracer.note_version(leaf._grad)
            tracer.pending.append((leaf, tracer.value_of(grad), leaf._grad,
                                   id(leaf) in tracer.grad_written))
        return None


def _frames_outside_package():
    """(filename, line) of the innermost user frame, and of the innermost tapegrad frame."""
    frame = sys._getframe(2)
    library = None
    compile_dir = os.path.dirname(os.path.abspath(__file__))
    while frame is not None:
        filename = os.path.abspath(frame.f_code.co_filename)
        if filename.startswith(compile_dir):
            frame = frame.f_back
            continue
        if not filename.startswith(_PACKAGE_DIR + os.sep):
            return (frame.f_code.co_filename, frame.f_lineno), library
        if library is None:
            library = (filename, frame.f_lineno)
        frame = frame.f_back
    return ("<unknown>", 0), library


# ------------------------------------------------------------------------------- discovery

class Discovered:
    """Tensors, modules and optimizers the function can reach, found before it runs.

    Knowing them up front gives readable names in messages (``model.0.weight``), lets an alias
    such as ``w.data`` resolve to ``w``, and records each leaf's ``.grad`` as it was on entry.
    """

    def __init__(self):
        self.arrays = {}       # id(array) -> (tensor, name)
        self.names = {}        # id(tensor) -> name
        self.entry_grads = {}  # id(leaf) -> its .grad (or None) when the call started
        self.grad_owner = {}   # id(grad tensor) -> (leaf, name)
        self.modules = []      # (name, module)
        self.optimizers = []   # (name, optimizer)

    def leaves(self):
        for tensor, name in self.arrays.values():
            if id(tensor) in self.entry_grads:
                yield tensor, name

    def name_of(self, tensor):
        return self.names.get(id(tensor), f"<captured tensor {list(tensor._array.shape)}>")

    def add_tensor(self, tensor, name):
        if id(tensor) in self.names:
            return
        self.names[id(tensor)] = name
        self.arrays.setdefault(id(tensor._array), (tensor, name))
        if tensor._requires_grad and tensor._grad_fn is None:
            self.entry_grads[id(tensor)] = tensor._grad
            if tensor._grad is not None:
                self.grad_owner[id(tensor._grad)] = (tensor, name)

    def add_object(self, obj, name):
        if isinstance(obj, Tensor):
            self.add_tensor(obj, name)
        elif callable(getattr(obj, "named_parameters", None)) and hasattr(obj, "training"):
            self.modules.append((name, obj))
            for pname, param in obj.named_parameters():
                self.add_tensor(param, f"{name}.{pname}")
            for bname, buffer in obj.named_buffers():
                self.add_tensor(buffer, f"{name}.{bname}")
        elif _is_optimizer(obj):
            self.optimizers.append((name, obj))
            for g, group in enumerate(obj.param_groups):
                for i, param in enumerate(group["params"]):
                    self.add_tensor(param, f"{name}.param_groups[{g}]['params'][{i}]")
            for param, state in obj.state.items():
                for key, value in state.items():
                    if isinstance(value, Tensor):
                        self.add_tensor(value, f"{name}.state[{self.name_of(param)}][{key!r}]")


def discover(fn, flat_args, arg_names):
    """Everything ``fn`` reaches by name: arguments, ``self``, closure cells and the globals its
    code names. Modules are named before optimizers, so a parameter reads ``model.0.weight``."""
    candidates = list(zip(flat_args, arg_names))
    self = getattr(fn, "__self__", None)
    if self is not None:
        candidates.append((self, "self"))
        fn = fn.__func__
    code = getattr(fn, "__code__", None)
    if code is not None:
        for name, cell in zip(code.co_freevars, fn.__closure__ or ()):
            try:
                candidates.append((cell.cell_contents, name))
            except ValueError:  # an empty cell
                pass
        namespace = getattr(fn, "__globals__", {})
        candidates += [(namespace[name], name) for name in global_names(code) if name in namespace]
    found = Discovered()
    for obj, name in sorted(candidates, key=lambda c: _is_optimizer(c[0])):
        found.add_object(obj, name)
    return found


def _is_optimizer(obj):
    return isinstance(getattr(obj, "param_groups", None), list) and hasattr(obj, "state")


def global_names(code):
    names = list(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names.extend(global_names(const))
    return names


# ---------------------------------------------------------------------------- patches

def _tensor_contents_readers():
    """Tensor methods that hand the contents of a tensor to Python."""
    return ("item", "tolist", "numpy", "__bool__", "__float__", "__int__", "__index__",
            "__array__", "__repr__", "__str__", "__format__", "__deepcopy__", "__reduce_ex__")


# Op-table functions that compute from tensor values outside the primitives (``input._array``):
# what they make looks like a constant to the trace, so calling them on traced tensors is a
# graph break. Keep in step with tapegrad.ops (making them primitives would let them compile).
_DATA_READING_FUNCTIONS = ("isclose", "equal", "allclose", "nonzero", "unique", "bincount", "histc",
                           "masked_select")


def _reader(name, original):
    def read(*args, **kwargs):
        tracer = _active
        if tracer is not None:
            for arg in (*args, *kwargs.values()):
                if isinstance(arg, Tensor) and tracer.reads_traced_data(arg):
                    tracer.graph_break(f"{name}() reads the value of a traced tensor",
                                       error=UserError if name == "Tensor.item" else Unsupported)
                    break
        return original(*args, **kwargs)
    read.__name__ = getattr(original, "__name__", name)
    read.__doc__ = getattr(original, "__doc__", None)
    return read


class _Patches:
    """Swap Tensor's data readers (and the op table's) for versions that detect graph breaks,
    and watch tensor creation, for the duration of one trace."""

    def __init__(self, tracer):
        self.tracer = tracer
        self.undo = []

    def __enter__(self):
        for name in _tensor_contents_readers():
            original = Tensor.__dict__.get(name)
            if original is not None:
                self._swap(Tensor, name, _reader(f"Tensor.{name}", original))
        originals = {}
        from .. import ops
        for name in _DATA_READING_FUNCTIONS:
            function = getattr(ops, name, None)
            if function is not None:
                originals[id(function)] = (function, _reader(name, function))
        for owner in [Tensor, *_tapegrad_modules()]:
            namespace = owner.__dict__
            for key, value in list(namespace.items()):
                entry = originals.get(id(value))
                if entry is not None and entry[0] is value:
                    self._swap(owner, key, entry[1])
        original_init, original_make = Tensor._init, Tensor._make
        tracer = self.tracer

        def init(tensor, *args, **kwargs):
            original_init(tensor, *args, **kwargs)
            tracer.note_born(tensor)

        def make(*args, **kwargs):
            tensor = original_make(*args, **kwargs)
            tracer.note_born(tensor)
            return tensor
        self._swap(Tensor, "_init", init)
        self._swap(Tensor, "_make", staticmethod(make))
        def get_grad(tensor):  # a tensor's ``_grad`` lives in its __dict__ once set
            return tensor.__dict__.get("_grad")

        def set_grad(tensor, value):
            tracer.note_grad_write(tensor)
            tensor.__dict__["_grad"] = value
        self._swap(Tensor, "_grad", property(get_grad, set_grad))
        self._swap(builtins, "print", _breaking_print(builtins.print))
        self._swap(shape_ops, "_key_parts", _breaking_key_parts(shape_ops._key_parts))
        self._swap(Function, "apply", _breaking_apply(Function.__dict__["apply"].__func__))
        return self

    def _swap(self, owner, name, replacement):
        self.undo.append((owner, name, owner.__dict__[name]))
        setattr(owner, name, replacement)

    def __exit__(self, *exc):
        for owner, name, original in reversed(self.undo):
            setattr(owner, name, original)
        self.undo.clear()
        return False


def _breaking_apply(original):
    """``autograd.Function.apply`` while tracing: its forward's operations are recorded, but its
    backward is the user's Python, which a compiled backward cannot run; where a gradient would
    flow through it, the call is a graph break."""
    def apply(cls, *args, **kwargs):
        inputs = pytree.flatten((args, kwargs))[0]
        if _active is not None and _active.recording() and grad_mode._state.grad_enabled and \
                any(isinstance(a, Tensor) and a._requires_grad for a in inputs):
            _active.graph_break(f"{cls.__name__} is a custom autograd.Function, whose backward "
                                "(Python) a compiled backward cannot run",
                                "call it outside the compiled function, or write it with tensor "
                                "operations, which compile with their derivatives")
        return original(cls, *args, **kwargs)
    return classmethod(apply)


def _breaking_key_parts(original):
    """The op table's reading of an indexing key while tracing: a 0-d integer or bool tensor in
    it is read as a Python number (``x[scores.argmax()]`` is ``x[i]``, a view), which a graph
    cannot take at call time, so a graph break where that tensor is traced data."""
    def key_parts(key, *args, **kwargs):
        parts = key if type(key) in (tuple, list) else (key,)
        if _active is not None and any(isinstance(p, Tensor) and not p._array.ndim and
                                       _active.reads_traced_data(p) for p in parts):
            _active.graph_break("indexing with a 0-d tensor reads its value",
                                "index with a one-element tensor (x.index_select(0, i.view(1)))"
                                ", which the graph reads at call time")
        return original(key, *args, **kwargs)
    return key_parts


def _breaking_print(original):
    """``print`` while tracing: a side effect a compiled graph would not repeat on later calls,
    so a graph break (as in PyTorch), then the print itself."""
    def print(*args, **kwargs):
        # (Numba prints into its own buffers while compiling a kernel the trace called for the
        # first time, e.g. a special function's ufunc: not the user's output.)
        if tracing_here() and not sys._getframe(1).f_globals.get("__name__", "").startswith(
                ("numba.", "llvmlite.")):
            _active.graph_break("print() is a side effect that a compiled graph would not repeat",
                                "print outside the compiled function, or in a helper marked "
                                "torch.compiler.disable")
        original(*args, **kwargs)
    print.__module__ = "builtins"  # it stands in for builtins.print (Numba resolves it there)
    return print


def _tapegrad_modules():
    return [module for name, module in list(sys.modules.items())
            if module is not None and (name == "tapegrad" or name.startswith("tapegrad."))
            and not name.startswith("tapegrad.compile")]


def break_graph_here(reason, hint):
    """Stop compiling the function being traced, if any (it runs eagerly, or raises under
    ``fullgraph``): ``torch.compiler.disable``'s functions are never compiled. The user asked
    for it, so unlike other graph breaks it is logged but not warned about."""
    if tracing_here():
        _active.graph_break(reason, hint, requested=True)


def tracing_here():
    """Whether this thread is inside a recording (a compiled function called while tracing)."""
    return _active is not None and _active.thread == threading.get_ident()


def graph_broken_here():
    """Whether the recording this thread is inside has hit a graph break (the rest runs eagerly)."""
    return tracing_here() and getattr(_active, "broken", False)


class recording:
    """While active, ``recorder`` intercepts every primitive call and in-place write, and the
    patched Tensor methods report data reads and tensor creation to it (one at a time)."""

    def __init__(self, recorder):
        self.recorder = recorder
        self.patches = _Patches(recorder)

    def __enter__(self):
        global _active
        _TRACE_LOCK.acquire()
        self.previous = (registry.set_interceptor(self.recorder), _active,
                         tapegrad_random.draw_observer)
        _active = self.recorder
        tapegrad_random.draw_observer = self.recorder.note_draw
        self.patches.__enter__()
        return self.recorder

    def __exit__(self, *exc):
        global _active
        self.patches.__exit__(*exc)
        interceptor, _active, tapegrad_random.draw_observer = self.previous
        registry.set_interceptor(interceptor)
        _TRACE_LOCK.release()
        return False


# ------------------------------------------------------------------------------- entry point

def trace(fn, args, kwargs, *, fullgraph, function_name, arg_names):
    """Call ``fn(*args, **kwargs)`` eagerly while recording it; returns a ``Trace``."""
    flat_args, arg_spec = pytree.flatten((args, kwargs))
    discovered = discover(fn, flat_args, arg_names)
    tracer = Tracer(fullgraph, function_name, discovered)
    result_trace = tracer.trace
    result_trace.flat_args, result_trace.arg_spec = flat_args, arg_spec
    result_trace.arg_names, result_trace.discovered = arg_names, discovered
    for index, (arg, name) in enumerate(zip(flat_args, arg_names)):
        if isinstance(arg, Tensor) and id(arg._array) not in tracer.values:
            tracer.add_source(arg, ArgSource(index, name))
    draws = tapegrad_random.draws
    result_trace.python_reads = python_reads(fn, [m for _, m in discovered.modules])
    try:
        with recording(tracer):
            result = fn(*args, **kwargs)
            tracer._resolve_deposits()
    finally:
        for handle in tracer.watch_handles:
            handle.remove()
    result_trace.result = result
    if not tracer.broken and tapegrad_random.draws - draws != tracer.captured_draws:
        tracer.graph_break("it seeds a random generator, or draws random numbers in a way a "
                           "compiled graph cannot draw again, so every call would repeat the same "
                           "numbers", "seed outside the compiled function; draw such random "
                           "tensors outside and pass them in")
    if not tracer.broken:
        _check_python_effects(tracer, fn, result_trace.python_reads)
    if not tracer.broken:
        _finish(tracer, result)
    return result_trace


def _check_python_effects(tracer, fn, reads):
    """A compiled call runs no Python: a function that changes Python state cannot compile."""
    writes = python_writes(fn)
    moved = changed(reads)
    if writes or moved is not None:
        what = f"assigns the {writes[0]}" if writes else f"changes {moved.text}, which it reads"
        tracer.graph_break(f"it {what}: a compiled call runs no Python, so it would not",
                           "return new values from the function and update Python state outside "
                           "it")


def _finish(tracer, result):
    """Outputs, side effects and escapes, once the function has returned."""
    t = tracer.trace
    leaves, t.output_spec = pytree.flatten(result)
    for leaf in leaves:
        if isinstance(leaf, Tensor):
            t.output_leaves.append(tracer.value_of(leaf))
            t.output_freed.append(_tape_freed(leaf._grad_fn))
            t.output_requires_grad.append(leaf._requires_grad)
            t.output_is_source.append(id(leaf) in tracer.source_of)
            t.output_has_grad_fn.append(leaf._grad_fn is not None)
            t.output_versions.append(leaf._version_counter.value)
        else:
            t.output_leaves.append(leaf)
    _collect_effects(tracer)
    t.escapes = _escapes(tracer, [leaf for leaf in leaves if isinstance(leaf, Tensor)])


def _tape_freed(node):
    """Whether backward already ran through (and freed) the tape behind an output."""
    pending, seen = [node], set()
    while pending:
        node = pending.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if getattr(node, "was_freed", False):
            return True
        pending.extend(child for child, _ in node.next_functions)
    return False


def _collect_effects(tracer):
    """Mutations: sources whose tensor ends with another value. Grad sets: leaves whose ``.grad``
    is another object than on entry (a first deposit, ``zero_grad()`` setting it to None)."""
    t = tracer.trace
    for index, tensor in enumerate(tracer.source_tensors):
        if type(t.sources[index]) is RandomSource:
            continue
        final = tracer.value_of(tensor)
        if final is not t.graph.inputs[index]:
            t.mutations.append((index, final))
        bumps = tensor._version_counter.value - \
            tracer.entry_versions[id(tensor._version_counter)][1]
        if bumps:  # (writes, and in-place view ops such as a view's squeeze_())
            t.version_bumps.append((index, bumps))
    for leaf, entry, name in list(tracer.leaves.values()):
        final = leaf._grad
        if final is not entry:
            value = None if final is None else tracer.value_of(final)
            t.grad_sets.append((tracer._owner_source(leaf, name), value))


def _escapes(tracer, outputs):
    """Tensors made during the call that something outside still holds (optimizer state created
    on the first step, a cache): compiled calls would never update them."""
    keep = _held_by_the_call(tracer, outputs)
    refs = [ref for ref in tracer.born.values() if _escaped(ref(), keep)]
    if refs:  # a reference cycle can keep a dead temporary alive until the collector runs
        gc.collect()
        refs = [ref for ref in refs if _escaped(ref(), keep)]
    return [f"a tensor of shape {list(ref()._array.shape)} created during the call is still "
            "referenced after it" for ref in refs if ref() is not None]


def _escaped(tensor, keep):
    return tensor is not None and id(tensor) not in keep and tensor._array.flags.writeable


def _held_by_the_call(tracer, outputs):
    """Ids of the tensors the call legitimately leaves behind: its outputs and what their tapes
    saved, the sources, the leaves' gradients, and the bases of all of these."""
    pending = list(outputs) + list(tracer.source_tensors)
    pending += [leaf._grad for leaf, _, _ in tracer.leaves.values() if leaf._grad is not None]
    nodes, seen = [t._grad_fn for t in outputs if t._grad_fn is not None], set()
    while nodes:
        node = nodes.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        pending += [entry[0] for entry in getattr(node, "_saved", None) or ()
                    if isinstance(entry, tuple) and isinstance(entry[0], Tensor)]
        nodes += [child for child, _ in node.next_functions if child is not None]
    keep = set()
    while pending:
        tensor = pending.pop()
        if id(tensor) not in keep:
            keep.add(id(tensor))
            if tensor._base is not None:
                pending.append(tensor._base)
    return keep
