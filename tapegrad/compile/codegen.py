"""Code generation: a scheduled graph becomes the Python source of one Numba kernel.

The kernel takes the graph's inputs (and its array constants) and returns its outputs. Each
``Loop`` group of the schedule becomes one loop nest; each ``Call`` becomes a library call or a
small template (``lowerings.py``). Variables are named after the IR (value ``c`` is ``v_c``), so
the source reads side by side with the printed graph.

How loops are written, from measurements on this machine:
* dimensions that every operand treats alike are merged, so most loops are flat;
* elementwise expressions are the primitives' ``lowering`` strings, each result cast to its dtype
  so float32 stays float32 (vector width);
* reductions accumulate in registers; long float32 sums add 4096-element float32 blocks into a
  float64 total (vectorized and accurate);
* above ``PARALLEL_MIN`` elements the outer loop is a ``prange`` over blocks of 16384 elements
  (slices keep the inner loop's index provably non-negative, which it needs to vectorize) —
  except in a kernel that calls BLAS (or numpy): OpenBLAS runs its own threads, and Numba's
  OpenMP workers, spinning after each parallel loop, take the cores from them (the large MLP
  training step ran 2.4× slower with both; serial loops beside threaded matrix products cost
  nothing measurable);
* one-element values are numbers, not arrays, until something needs an array;
* a loop runs to an input's ``.shape[k]`` or ``.size`` rather than to the literal size it equals
  (guards make them the same): with a constant trip count LLVM lays a short loop out worse — a
  100-element fused reduction took 26 ns with ``range(100)`` and 16 ns with ``range(n)``, a
  16-element one 22 and 9 ns; from 1000 elements on the two are the same.
"""
import ast

import numpy as np

from ..ops import PRIMITIVES
from . import lowerings
from .kernel_math import LOWERING_FUNCTIONS, function_for
from .passes import REDUCTIONS, Loop, reduction_axes

__all__ = ["generate", "Kernel", "PARALLEL_MIN", "numba_dtype"]

PARALLEL_MIN = 1 << 17
BLOCK = 16384
SUM_BLOCK = 4096
UNMERGED_FROM = 16  # a kept dimension this long is not merged into the one before it
FASTMATH = ("contract", "nsz", "arcp", "reassoc")


def numba_dtype(dtype):
    """The name of ``dtype`` in generated code (``np.float32``)."""
    return {"bool": "np.bool_"}.get(np.dtype(dtype).name, f"np.{np.dtype(dtype).name}")


class Kernel:
    """One generated function: its source lines, and what to pass it."""

    def __init__(self, name, source, effects_source, args, parallel, fallbacks, constants,
                 returned):
        self.name = name
        self.source = source
        self.effects_source = effects_source  # ``{name}_effects``: the same work, returning
                                              # nothing (no arrays made for results nobody reads)
        self.returned = returned      # positions of the graph outputs the kernel returns
        self.constants = constants    # module-level definitions the kernel uses
        self.args = args              # per parameter: ("input", i), ("constant", array) or
                                      # ("function", ctypes function)
        self.parallel = parallel
        self.fallbacks = fallbacks    # key -> (primitive name, params) run through numpy


def generate(graph, schedule, name, fallback_prefix, writebacks=None):
    """The ``Kernel`` computing ``graph`` in the order of ``schedule``.

    ``writebacks`` maps output positions to input positions: those outputs are written into the
    input arrays at the end (a parameter update, ``p.grad.zero_()``) instead of returned.
    """
    return _Builder(graph, schedule, name, fallback_prefix, writebacks or {}).build()


class _Builder:
    def __init__(self, graph, schedule, name, fallback_prefix, writebacks):
        self.graph = graph
        self.writebacks = writebacks
        self.schedule = schedule
        self.kernel_name = name
        self.fallback_prefix = fallback_prefix
        self.names = {v: "v_" + n for v, n in graph.names().items()}
        self.lines = []
        self.indent = 1
        self.layout = {}        # value -> "C" | "F" | "A", for arrays defined in the kernel
        self.transposed = {}    # value -> the value it is the 2-D transpose of
        self.literals = {}      # size-1 constants written as literals
        self.scalars = {}       # one-element results held in a variable (an array only if asked)
        self.args = []
        self.parallel = False   # whether any loop was written as a prange
        self.threads_allowed = not any(type(group) is not Loop and
                                       lowerings.calls_threaded_library(group.node)
                                       for group in schedule)
        self.fallbacks = {}
        self.extra_args = {}    # id(array) -> argument name, arrays found in node parameters
        self.module_constants = {}  # source text -> module-level name
        self.users = graph.users()
        self.outputs = set(graph.outputs)
        self.counter = 0
        self.last_read = {}     # value -> index in the schedule of the last group reading it
        self.extent_names = {}  # size -> the name bound to an input's dimension of that size
        for index, group in enumerate(schedule):
            for node in group.nodes:
                for value in node.inputs:
                    self.last_read[value] = index
        self.in_place = {}      # written-back output computed straight into its input's array

    # -- plumbing -------------------------------------------------------------------------------
    def emit(self, line):
        self.lines.append("    " * self.indent + line)

    def fresh(self, stem):
        self.counter += 1
        return f"{stem}{self.counter}"

    def name(self, value):
        return self.names[value]

    def array(self, value):
        """The variable holding ``value`` as an array (a literal or a number is made one)."""
        number = self.literals.get(value, self.scalars.get(value))
        if number is not None and value not in self.layout:
            self.filled(self.name(value), value.shape, number, value.dtype)
            self.layout[value] = "C"
        return self.name(value)

    def scalar(self, value):
        """One-element ``value`` as a number: its literal, its variable, or its array's element
        (indexed, not reshaped: in a tiny kernel each reshape costs more than the arithmetic)."""
        number = self.literals.get(value, self.scalars.get(value))
        if number is not None:
            return number
        return f"{self.array(value)}[{_zero_index(len(value.shape))}]"

    def filled(self, name, shape, value, dtype):
        """Emit ``name = np.full(shape, value, dtype)`` as ``np.empty`` and a loop: every numpy
        function a kernel calls is compiled for it, and np.full, np.zeros and .sum() cost
        0.1–0.2 s of a first compile each, which one allocation and plain loops do not."""
        self.emit(f"{name} = np.empty({_shape_text(shape)}, {numba_dtype(dtype)})")
        size = int(np.prod(shape)) if shape else 1
        if size == 1:
            self.emit(f"{name}[{_zero_index(len(shape))}] = {value}")
            return
        indices = [self.fresh("i") for _ in shape]  # (nested loops: a flat view is a reshape)
        for depth, (i, extent) in enumerate(zip(indices, shape)):
            self.emit("    " * depth + f"for {i} in range({self.extent(extent)}):")
        self.emit("    " * len(shape) + f"{name}[{', '.join(indices)}] = {value}")

    def contiguous(self, value, allow_fortran=False):
        """A name for ``value`` as a C-contiguous array (F allowed for BLAS operands)."""
        name = self.array(value)
        layout = self.layout.get(value, "C")
        if layout == "C" or (allow_fortran and layout == "F"):
            return name
        copy = self.fresh(name + "_c")
        # no copy when the array is contiguous after all: an output that is a view of an input
        # (``x[2:].view(-1)``) must stay one
        self.emit(f"{copy} = np.ascontiguousarray({name})")
        return copy

    def shaped(self, value, shape):
        """A name for ``value`` as a C-contiguous array of ``shape`` (of as many elements)."""
        return self.reshaped(self.contiguous(value), value.shape, shape)

    @staticmethod
    def reshaped(name, shape, new_shape):
        """``name`` (a C-contiguous array of ``shape``) viewed as ``new_shape``: itself when the
        shapes agree (each reshape costs Numba ~10 ms of compiling)."""
        if tuple(shape) == tuple(new_shape):
            return name
        return f"{name}.reshape({_shape_text(new_shape)})"

    def copy_into(self, view, shape, source, broadcast=False):
        """``view[...] = source`` (of ``shape``, or one element when ``broadcast``) as a loop
        nest: Numba compiles an array assigned into a slice (its shape-mismatch error path),
        ``np.transpose`` with axes and ``np.concatenate`` slowly, a loop nest quickly. Writing
        them all as loops cut a small GRU's training step from 29 to 23 s of Numba."""
        indices = [self.fresh("j") for _ in shape]
        for depth, (index, extent) in enumerate(zip(indices, shape)):
            self.emit("    " * depth + f"for {index} in range({self.extent(extent)}):")
        at = f"[{', '.join(indices)}]" if shape else "[()]"
        read = f"{source}[()]" if broadcast else source + at
        self.emit("    " * len(shape) + f"{view}{at} = {read}")

    def define(self, value, expression, layout="C"):
        self.emit(f"{self.name(value)} = {expression}")
        self.layout[value] = layout

    def destination_to_overwrite(self, value, group):
        """The input that ``value``, a result of elementwise loop ``group``, is written back into
        (a parameter update) when the loop may store into it directly: nothing after the loop
        reads the input, the loop reads it only at the element it writes, and ``value`` is not
        also returned. Saves a temporary array and a copy per parameter."""
        outputs = self.graph.outputs
        if group.axes or outputs.count(value) != 1:
            return None
        target = self.writebacks.get(outputs.index(value))
        if target is None:
            return None
        destination = self.graph.inputs[target]
        if (destination in self.outputs or destination in self.in_place.values()
                or self.last_read.get(destination, -1) > group.index
                or destination.shape != value.shape or destination.dtype != value.dtype
                or destination.shape != group.shape):
            return None
        return destination

    def extent(self, size):
        """``size`` as a loop bound: a name bound to an input's ``.shape[k]`` or ``.size`` that
        equals it (a trip count LLVM cannot see; see the module docstring), else the literal."""
        size = int(size)
        if size not in self.extent_names:
            self.extent_names[size] = self._input_extent(size)
        return self.extent_names[size][0] if self.extent_names[size] else str(size)

    def _input_extent(self, size):
        """(name, definition) of an input's dimension or size equal to ``size``, or None."""
        if size <= 1:
            return None
        for value in self.graph.inputs:
            for axis, n in enumerate(value.shape):
                if n == size:
                    return f"n{size}", f"{self.name(value)}.shape[{axis}]"
        for value in self.graph.inputs:
            if int(np.prod(value.shape)) == size:
                return f"n{size}", f"{self.name(value)}.size"
        return None

    def runs_parallel(self, size):
        """Whether a loop nest over ``size`` elements is written with a ``prange``."""
        return self.threads_allowed and size >= PARALLEL_MIN

    def module_constant(self, text):
        """A module-level name bound to ``text`` (evaluated once, when the module loads)."""
        if text not in self.module_constants:
            self.module_constants[text] = f"{self.kernel_name}_T{len(self.module_constants)}"
        return self.module_constants[text]

    def param_array(self, array):
        """An array found in a node's parameters, passed to the kernel as an argument."""
        return self._extra_arg("constant", array)

    def param_function(self, function):
        """A ctypes function (numpy's BLAS) passed to the kernel as an argument."""
        return self._extra_arg("function", function)

    def _extra_arg(self, kind, obj):
        key = id(obj)
        if key not in self.extra_args:
            self.extra_args[key] = f"p_{len(self.extra_args)}"
            self.args.append((kind, obj))
        return self.extra_args[key]

    # -- the kernel ----------------------------------------------------------------------------
    def build(self):
        params = []
        for i, value in enumerate(self.graph.inputs):
            params.append(self.name(value))
            self.args.append(("input", i))
            self.layout[value] = "C"
        for value, array in self.graph.constants.items():
            if array.size == 1:
                self.literals[value] = _literal(array.reshape(()).item(), value.dtype)
            else:
                params.append(self.name(value))
                self.args.append(("constant", array))
                self.layout[value] = "C"
        for group in self.schedule:
            if type(group) is Loop:
                self._emit_loop(group)
            else:
                lowerings.emit_call(self, group.node)
        for position, target in self.writebacks.items():
            value, destination = self.graph.outputs[position], self.graph.inputs[target]
            if self.in_place.get(value) is not destination:  # (a loop: see copy_into)
                self.copy_into(self.name(destination), destination.shape, self.array(value))
        effects_end = len(self.lines)
        returned = [i for i in range(len(self.graph.outputs)) if i not in self.writebacks]
        results = ", ".join(self.array(self.graph.outputs[i]) for i in returned)
        self.emit(f"return ({results}{',' if len(returned) == 1 else ''})")
        params += list(self.extra_args.values())
        fastmath = "{" + ", ".join(repr(flag) for flag in FASTMATH) + "}"
        decorator = (f"@njit(cache=True, error_model=\"numpy\", fastmath={fastmath}, "
                     f"parallel={self.parallel})")
        signature = f"({', '.join(params)}):"
        extents = [f"    {name} = {definition}"
                   for name, definition in filter(None, self.extent_names.values())]
        source = "\n".join([decorator, f"def {self.kernel_name}{signature}", *extents,
                            *self.lines]) + "\n"
        effects_source = "\n".join([decorator, f"def {self.kernel_name}_effects{signature}",
                                    *extents, *self.lines[:effects_end], "    return"]) + "\n"
        constants = [f"{name} = {text}" for text, name in self.module_constants.items()]
        return Kernel(self.kernel_name, source, effects_source, self.args, self.parallel,
                      self.fallbacks, constants, returned)

    # -- loops ----------------------------------------------------------------------------------
    def _emit_loop(self, group):
        plan = _LoopPlan(self, group)
        self.emit(f"# {group.describe(self.graph.names())}")
        plan.emit()

    def expression(self, node, operands):
        """The scalar expression of an elementwise node, of its output's dtype.

        Numbers in the lowering become literals of the computing dtype, so float32 arithmetic
        stays float32 without a cast; a cast is written only where the dtype changes.
        """
        out = node.outputs[0]
        if node.op == "expand":
            return operands[0]
        primitive = PRIMITIVES[node.op]
        compute = node.inputs[0].dtype if node.inputs else out.dtype
        params = {k: _literal(v, compute) for k, v in node.params.items()
                  if isinstance(v, (bool, int, float, type(None)))}
        text = _qualify(primitive.lowering.format(*operands, **params), out.dtype, compute)
        same = all(v.dtype == out.dtype for v in node.inputs) and out.dtype.kind in "fb"
        if same and node.op != "pow_scalar":
            return text
        return f"{numba_dtype(out.dtype)}({text})" if out.dtype.kind != "b" else f"bool({text})"


class _LoopPlan:
    """One fused group laid out as loops: merged dimensions, operands, accumulators."""

    def __init__(self, builder, group):
        self.b = builder
        self.group = group
        self.shape = group.shape
        self.axes = set(group.axes or ())
        self.reductions = [n for n in group.nodes if n.op in REDUCTIONS]
        self.reads = []
        for node in group.nodes:
            for value in node.inputs:
                if value not in group.defined and value not in self.reads:
                    self.reads.append(value)
        self.stored = [out for node in group.nodes if node.op not in REDUCTIONS
                       for out in node.outputs if self._needed_outside(out)]
        self._merge_dimensions()

    def _needed_outside(self, value):
        if value in self.b.outputs:
            return True
        return any(user not in self.group.nodes for user in self.b.users.get(value, ()))

    # dimensions -------------------------------------------------------------------------------
    def _status(self, shape, dim):
        k = dim - (len(self.shape) - len(shape))
        size = shape[k] if k >= 0 else 1
        return "full" if size == self.shape[dim] else "bcast"

    def _merge_dimensions(self):
        shapes = [v.shape for v in self.reads] + [self.shape] * len(self.stored)
        shapes.append(tuple(1 if d in self.axes else s for d, s in enumerate(self.shape)))
        dims = [d for d, s in enumerate(self.shape) if s != 1]
        groups = []
        for d in dims:
            # a long kept dimension stays a loop of its own: merging it would reshape every
            # operand (Numba compiles each reshape for ~10 ms), and it vectorizes as it is
            long_kept = self.shape[d] >= UNMERGED_FROM and d not in self.axes
            if groups and not long_kept and all(
                    self._status(s, groups[-1][-1]) == self._status(s, d) for s in shapes) \
                    and (groups[-1][-1] in self.axes) == (d in self.axes):
                groups[-1].append(d)
            else:
                groups.append([d])
        self.merged = groups
        self.extents = [int(np.prod([self.shape[d] for d in g])) for g in groups]
        self.reduced = [g[0] in self.axes for g in groups]
        self.size = int(np.prod(self.shape)) if self.shape else 1

    def view_shape(self, shape):
        return tuple(self.extents[i] if self._status(shape, g[0]) == "full" else 1
                     for i, g in enumerate(self.merged))

    # emission ---------------------------------------------------------------------------------
    def emit(self):
        b = self.b
        self.operand = {}   # value -> (array name in merged view | None, scalar name | None)
        self.leading_ones = {}  # value -> how many leading loops its own shape lacks
        for value in self.reads:
            view = self.view_shape(value.shape)
            ones = len(view) - len(value.shape)
            if value in b.literals:
                self.operand[value] = (None, b.literals[value])
            elif all(s == 1 for s in view):
                scalar = b.fresh(b.name(value) + "_s")
                b.emit(f"{scalar} = {b.scalar(value)}")
                self.operand[value] = (None, scalar)
            elif view == value.shape:
                # indexed where it lies, whatever its strides (a slice of a gate's columns):
                # a contiguous copy would cost a pass over it, and Numba compiles each one
                self.operand[value] = (b.name(value), None)
            elif ones > 0 and view == (1,) * ones + value.shape:
                # broadcast along leading loops only (a bias): indexed by the inner loops'
                # variables, not reshaped (each reshape costs Numba ~10 ms of compiling)
                self.operand[value] = (b.name(value), None)
                self.leading_ones[value] = ones
            else:
                name = b.fresh(b.name(value) + "_l")
                b.emit(f"{name} = {b.contiguous(value)}.reshape({_shape_text(view)})")
                self.operand[value] = (name, None)
        self.store_views = {}
        for value in self.stored:
            destination = b.destination_to_overwrite(value, self.group)
            if destination is not None:
                b.in_place[value] = destination
                b.define(value, b.name(destination))
            else:
                b.define(value, f"np.empty({_shape_text(value.shape)}, "
                                f"{numba_dtype(value.dtype)})")
            view = self.view_shape(value.shape) or (1,)
            if view == value.shape:
                self.store_views[value] = b.name(value)
                continue
            if destination in self.operand and destination not in self.leading_ones and \
                    self.view_shape(destination.shape) == view:  # its reshape is made already
                self.store_views[value] = self.operand[destination][0]
                continue
            name = b.fresh(b.name(value) + "_l")
            b.emit(f"{name} = {b.name(value)}.reshape({_shape_text(view)})")
            self.store_views[value] = name
        n_reduced = sum(self.reduced)
        if not self.reductions:
            self._emit_map()
        elif not self.extents:
            self._emit_single_element_reduction()
        elif n_reduced and all(self.reduced[len(self.reduced) - n_reduced:]):
            self._emit_inner_reduction()
        else:
            self._emit_outer_reduction()

    def _index(self, value, names):
        """The subscript of ``value``'s merged view at loop variables ``names``."""
        view = self.view_shape(value.shape) if value in self.operand or value in self.stored \
            else None
        if view is None or not view:
            return "[0]"
        ones = self.leading_ones.get(value, 0)
        names, view = names[ones:], view[ones:]
        return "[" + ", ".join(n if s != 1 else "0" for n, s in zip(names, view)) + "]"

    def _body(self, names, sliced=None):
        """Loads, the nodes' expressions, stores of values needed outside; returns the local
        name of every value defined in the group."""
        b = self.b
        local = {}
        sliced = sliced or {}
        for value, (array, scalar) in self.operand.items():
            if scalar is not None:
                local[value] = scalar
            else:
                local[value] = b.fresh("x")
                b.emit(f"{local[value]} = {sliced.get(value, array)}{self._index(value, names)}")
        for node in self.group.nodes:
            if node.op in REDUCTIONS:
                continue
            out = node.outputs[0]
            local[out] = b.fresh("t")
            b.emit(f"{local[out]} = {b.expression(node, [local[v] for v in node.inputs])}")
            if out in self.store_views:
                target = sliced.get(out, self.store_views[out])
                b.emit(f"{target}{self._index(out, names)} = {local[out]}")
        return local

    def _emit_map(self):
        b = self.b
        if not self.extents:
            self._body([])
            return
        if b.runs_parallel(self.size) and len(self.extents) == 1:
            b.parallel = True
            lo, hi, sliced = self._open_blocks(self.extents[0], list(self.operand) + self.stored)
            b.emit(f"for i in range({hi} - {lo}):")
            b.indent += 1
            self._body(["i"], sliced)
            b.indent -= 2
            return
        names = self._open_loops(self.extents, parallel=b.runs_parallel(self.size))
        self._body(names)
        b.indent -= len(names)

    def _open_blocks(self, extent, values, parallel=True):
        """``for blk in prange(...)`` over blocks of ``BLOCK``, with per-block slices."""
        b = self.b
        count = b.fresh("blocks")
        blk, lo, hi = b.fresh("blk"), b.fresh("lo"), b.fresh("hi")
        b.emit(f"{count} = ({extent} + {BLOCK - 1}) // {BLOCK}")
        b.emit(f"for {blk} in {'prange' if parallel else 'range'}({count}):")
        b.indent += 1
        b.emit(f"{lo} = {blk} * {BLOCK}")
        b.emit(f"{hi} = min({lo} + {BLOCK}, {extent})")
        sliced = {}
        for value in values:
            array = self.operand[value][0] if value in self.operand else self.store_views[value]
            if array is None:
                continue
            sliced[value] = b.fresh("s")
            b.emit(f"{sliced[value]} = {array}[{lo}:{hi}]")
        return lo, hi, sliced

    def _open_loops(self, extents, parallel):
        b = self.b
        names = []
        for i, extent in enumerate(extents):
            name = b.fresh("i")
            use_prange = parallel and i == 0 and extent > 1
            b.parallel |= use_prange
            bound = b.extent(extent)
            b.emit(f"for {name} in {'prange' if use_prange else 'range'}({bound}):")
            b.indent += 1
            names.append(name)
        return names

    # reductions -------------------------------------------------------------------------------
    def _accumulator(self, node):
        """(kind, accumulator dtype, initial value text, count) of a reduction node."""
        kind = REDUCTIONS[node.op]
        value_dtype = node.inputs[0].dtype
        out_dtype = node.outputs[0].dtype
        count = int(np.prod([node.inputs[0].shape[a] for a in reduction_axes(node)]))
        if kind in ("sum", "mean"):
            dtype = np.dtype(np.float64) if out_dtype.kind == "f" and count > SUM_BLOCK \
                else out_dtype
            return kind, dtype, _literal(0, dtype), count
        if value_dtype.kind == "f":
            return kind, value_dtype, _literal(-np.inf if kind == "max" else np.inf, value_dtype), \
                count
        info = np.iinfo(value_dtype) if value_dtype.kind in "iu" else None
        start = (info.min if kind == "max" else info.max) if info else (kind == "min")
        return kind, value_dtype, _literal(start, value_dtype), count

    def _combine(self, kind, acc, value, dtype):
        if kind in ("sum", "mean"):
            return f"{acc} += {numba_dtype(dtype)}({value})"
        return f"{acc} = np.{'maximum' if kind == 'max' else 'minimum'}({acc}, {value})"

    def _finish(self, node, total):
        kind, _, _, count = self._accumulator(node)
        out = node.outputs[0]
        if kind == "mean":
            total = f"{total} / {count}"
        return f"{numba_dtype(out.dtype)}({total})"

    def _emit_single_element_reduction(self):
        """Every dimension has size 1: each reduction is its one element."""
        local = self._body([])
        self._hold_totals({node: local[node.inputs[0]] for node in self.reductions})

    def _hold_totals(self, totals):
        """Full reductions' results as numbers (``Builder.scalars``): the loops that read them
        take the number, and no array is made unless something needs one."""
        b = self.b
        for node, total in totals.items():
            out = node.outputs[0]
            b.scalars[out] = b.fresh(b.name(out) + "_v")
            b.emit(f"{b.scalars[out]} = {self._finish(node, total)}")

    def _emit_inner_reduction(self):
        """Reduced dimensions innermost: accumulators live in registers."""
        b = self.b
        n_kept = self.reduced.index(True)
        kept, reduced = self.extents[:n_kept], self.extents[n_kept:]
        if not kept and len(reduced) == 1 and reduced[0] > SUM_BLOCK:
            self._hold_totals(self._emit_blocked_total(reduced[0]))
            return
        results = {}
        if kept:  # (full reductions are held as numbers instead: _hold_totals)
            for node in self.reductions:
                results[node] = b.fresh(b.name(node.outputs[0]) + "_acc")
                b.emit(f"{results[node]} = np.empty({_shape_text(kept)}, "
                       f"{numba_dtype(node.outputs[0].dtype)})")
        outer = self._open_loops(kept, parallel=b.runs_parallel(self.size) and len(kept) > 0)
        accs = self._init_accumulators()
        inner = self._open_loops(reduced, parallel=False)
        local = self._body(outer + inner)
        self._accumulate(accs, local)
        b.indent -= len(inner)
        if not kept:
            self._hold_totals({node: accs[node][0] for node in self.reductions})
            return
        index = "[" + ", ".join(outer) + "]"
        for node in self.reductions:
            b.emit(f"{results[node]}{index} = {self._finish(node, accs[node][0])}")
        b.indent -= len(outer)
        for node in self.reductions:
            out = node.outputs[0]
            b.define(out, b.reshaped(results[node], kept, out.shape))

    def _init_accumulators(self):
        accs = {}
        for node in self.reductions:
            kind, dtype, start, _ = self._accumulator(node)
            accs[node] = (self.b.fresh("acc"), kind, dtype)
            self.b.emit(f"{accs[node][0]} = {start}")
        return accs

    def _accumulate(self, accs, local):
        for node, (acc, kind, dtype) in accs.items():
            self.b.emit(self._combine(kind, acc, local[node.inputs[0]], dtype))

    def _emit_blocked_total(self, extent):
        """A long full reduction: per block a native-dtype accumulator (vectorized), blocks'
        partial results combined in float64 (sums) — in parallel above ``PARALLEL_MIN``.
        Returns each reduction's total (a variable name)."""
        b = self.b
        parallel = b.runs_parallel(self.size)
        b.parallel |= parallel
        partials = {}
        count = b.fresh("nblocks")
        b.emit(f"{count} = ({extent} + {SUM_BLOCK - 1}) // {SUM_BLOCK}")
        for node in self.reductions:
            kind, dtype, _, _ = self._accumulator(node)
            partials[node] = b.fresh("partial")
            b.emit(f"{partials[node]} = np.empty({count}, {numba_dtype(dtype)})")
        blk, lo, hi = b.fresh("blk"), b.fresh("lo"), b.fresh("hi")
        b.emit(f"for {blk} in {'prange' if parallel else 'range'}({count}):")
        b.indent += 1
        b.emit(f"{lo} = {blk} * {SUM_BLOCK}")
        b.emit(f"{hi} = min({lo} + {SUM_BLOCK}, {extent})")
        sliced = {}
        for value in list(self.operand) + self.stored:
            array = self.operand[value][0] if value in self.operand else self.store_views[value]
            if array is not None:
                sliced[value] = b.fresh("s")
                b.emit(f"{sliced[value]} = {array}[{lo}:{hi}]")
        accs = {}
        for node in self.reductions:
            kind, _, _, _ = self._accumulator(node)
            block_dtype = node.inputs[0].dtype if node.inputs[0].dtype.kind == "f" else \
                node.outputs[0].dtype
            accs[node] = (b.fresh("acc"), kind, block_dtype)
            start = _literal(0 if kind in ("sum", "mean") else
                             (-np.inf if kind == "max" else np.inf), block_dtype)
            b.emit(f"{accs[node][0]} = {start}")
        b.emit(f"for i in range({hi} - {lo}):")
        b.indent += 1
        local = self._body(["i"], sliced)
        self._accumulate(accs, local)
        b.indent -= 1
        for node in self.reductions:
            b.emit(f"{partials[node]}[{blk}] = {accs[node][0]}")
        b.indent -= 1
        totals = {}
        for node in self.reductions:  # the blocks' results folded (a plain loop: see filled)
            kind, dtype, start, _ = self._accumulator(node)
            totals[node], j = b.fresh("total"), b.fresh("j")
            b.emit(f"{totals[node]} = {start}")
            b.emit(f"for {j} in range({count}):")
            b.emit("    " + self._combine(kind, totals[node], f"{partials[node]}[{j}]", dtype))
        return totals

    def _emit_outer_reduction(self):
        """Reduced dimensions anywhere: accumulator arrays indexed by the kept dimensions
        (e.g. a bias gradient summing rows: the inner loop runs along the row, vectorized)."""
        b = self.b
        arrays = {}
        kept = tuple(e for e, r in zip(self.extents, self.reduced) if not r)
        for node in self.reductions:
            kind, dtype, start, _ = self._accumulator(node)
            arrays[node] = b.fresh(b.name(node.outputs[0]) + "_acc")
            b.filled(arrays[node], kept, start, dtype)
        parallel = b.runs_parallel(self.size) and not self.reduced[0]
        names = self._open_loops(self.extents, parallel=parallel)
        local = self._body(names)
        index = "[" + ", ".join(n for n, r in zip(names, self.reduced) if not r) + "]"
        for node in self.reductions:
            kind, dtype, _, _ = self._accumulator(node)
            self.b.emit(self._combine(kind, arrays[node] + index, local[node.inputs[0]], dtype))
        b.indent -= len(names)
        for node in self.reductions:
            out = node.outputs[0]
            kind, _, _, count = self._accumulator(node)
            total = arrays[node] if kind != "mean" else f"({arrays[node]} / {count})"
            if np.dtype(dtype) != out.dtype or kind == "mean":
                total = f"{total}.astype({numba_dtype(out.dtype)})"
            b.define(out, b.reshaped(total, kept, out.shape))


# ------------------------------------------------------------------------------- expressions

def _qualify(expression, dtype, compute):
    """Point the calls of a lowering expression at kernel functions for ``dtype``:
    ``exp(a)`` → ``M.exp32(a)`` on float32, ``np.exp(a)`` on float64; ``clamp(a, lo, hi)``
    → ``np.minimum(np.maximum(a, lo), hi)`` without the bound that is None.

    A name ``kernel_math`` does not know is an error naming the function, rather than a kernel
    that fails to compile later with Numba's message.
    """
    tree = ast.parse(expression, mode="eval")

    class Qualify(ast.NodeTransformer):
        def visit_Constant(self, constant):
            if compute.kind == "f" and type(constant.value) in (int, float):
                return ast.parse(_literal(constant.value, compute), mode="eval").body
            return constant

        def visit_BinOp(self, binop):
            if isinstance(binop.op, ast.Pow):  # an integer exponent stays one (repeated products)
                binop.left = self.visit(binop.left)
                return binop
            return self.generic_visit(binop)

        def visit_Call(self, call):
            if isinstance(call.func, ast.Attribute):  # already typed: np.float32(0.5)
                return call
            self.generic_visit(call)
            if not isinstance(call.func, ast.Name):
                return call
            name = call.func.id
            if name == "clamp":
                value, low, high = call.args
                if not _is_none(low):
                    value = ast.Call(_attribute("np.maximum"), [value, low], [])
                if not _is_none(high):
                    value = ast.Call(_attribute("np.minimum"), [value, high], [])
                return value
            if name not in LOWERING_FUNCTIONS:
                raise NotImplementedError(f"a lowering calls '{name}', which "
                                          "tapegrad.compile.kernel_math does not provide")
            call.func = _attribute(function_for(name, dtype))
            return call

    return "(" + ast.unparse(Qualify().visit(tree)) + ")"


def _is_none(node):
    return isinstance(node, ast.Constant) and node.value is None


def _attribute(dotted):
    module, name = dotted.split(".")
    return ast.Attribute(ast.Name(module, ast.Load()), name, ast.Load())


def _literal(value, dtype):
    """A Python number as source text of the given dtype (``np.float32(0.5)``)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        number = float(value)
        if np.isnan(number):
            text = "np.nan"
        elif np.isinf(number):
            text = "np.inf" if number > 0 else "-np.inf"
        else:
            text = repr(number)
        return f"{numba_dtype(dtype)}({text})"
    if dtype.kind == "b":
        return repr(bool(value))
    return f"{numba_dtype(dtype)}({int(value)})"


def _zero_index(ndim):
    """The subscript of the first element of an ``ndim``-dimensional array."""
    return ", ".join(["0"] * ndim) if ndim else "()"


def _shape_text(shape):
    shape = tuple(int(s) for s in shape)
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
