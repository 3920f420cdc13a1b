"""The op table's machinery: a ``Primitive`` holds an operation's forward, backward rule and lowering.

Every differentiable operation in tapegrad is one ``Primitive``:

* ``forward`` computes the result on numpy arrays (the eager kernel);
* ``vjp`` — the backward rule, a vector-Jacobian product written with tapegrad operations, so that it
  runs eagerly, under ``create_graph`` (higher derivatives) and on the compiler's tracing tensors;
* ``lowering`` — how the compiler writes the op into a kernel (a scalar expression for elementwise
  ops, see ``tapegrad.compile``).

Calling a primitive with tensors runs the forward and, when grad mode is on and an input requires
grad, records a node of the primitive's own class (``MulBackward0`` …) on the tape.
"""
import functools
import inspect
import warnings

import numpy as np

from ..autograd import grad_mode
from ..autograd.grad_mode import _state as _grad_state
from ..autograd.graph import FREED_MESSAGE, AccumulateGrad, Node, PackedTensor
from .._warnings import numpy_quiet, quiet_numpy
from .legacy_print import aten_type_name

__all__ = ["Primitive", "primitive", "without_derivative", "ELEMENTWISE", "REDUCTION", "VIEW",
           "OTHER", "PRIMITIVES"]

# Groups let passes ask "is this elementwise?" instead of listing names.
ELEMENTWISE, REDUCTION, VIEW, OTHER = "elementwise", "reduction", "view", "other"

PRIMITIVES = {}  # name -> Primitive: the op table

# While the compiler traces, every primitive call goes to this function instead:
# ``interceptor(primitive, inputs, params) -> result``. See ``set_interceptor``.
_interceptor = None


# Context-manager factories ``observer(primitive, target, others, params)`` wrapped around every
# in-place write (which bypasses the interceptor): the profiler times it, forward-mode AD updates
# the target's tangent. Empty unless one of them is active.
inplace_observers = []


def set_interceptor(fn):
    """Route all primitive calls through ``fn`` (None restores eager execution); returns the
    previous interceptor so that callers can restore it."""
    global _interceptor
    previous, _interceptor = _interceptor, fn
    return previous


class OpNode(Node):
    """The backward node of one primitive application; doubles as the rule's ``ctx``.

    A rule reads ``ctx.saved`` (the tensors named in ``saves``, checked against in-place changes;
    None for one ``saves_for`` left out),
    ``ctx.input_shapes``, ``ctx.input_dtypes`` and ``ctx.needs_input_grad``.
    """

    __slots__ = ("_saved", "params", "input_shapes", "input_dtypes", "needs_input_grad")
    primitive = None  # set on each generated subclass

    @property
    def saved(self):
        saved = self._saved
        if saved is None:
            raise RuntimeError(FREED_MESSAGE)
        return tuple([_unpack(self, entry) for entry in saved])

    def apply(self, grads):
        if self.primitive.n_outputs is None:  # a gradient (or None) per output, up to the last
            grad = grads                      # one that arrived; the rule knows how many
        else:
            grad = grads[0] if len(grads) == 1 else grads
        input_grads = self.primitive.vjp_rule(self, grad, **self.params)
        if type(input_grads) is not tuple:
            return (input_grads,)
        positions = self.primitive.edge_positions
        return input_grads if positions is None else tuple(input_grads[i] for i in positions)

    def release(self):
        if self._saved is not None:
            self._saved = None

    def _apply_conjugated(self, grads):
        """The rule of a primitive with a complex output, by PyTorch's convention: a gradient is
        the conjugate Wirtinger derivative, ``grad * conj(f'(z))`` for a holomorphic ``f``.

        Rules are written for real numbers, where they compute ``J^T grad``; conjugating the
        incoming gradients and what the rule returns turns that into ``J^H grad``. A real input
        of a complex result (``x * 1j``) takes the real part, as PyTorch's ``handle_r_to_c``.
        """
        grads = tuple([None if g is None else g.conj() for g in grads])
        input_grads = OpNode.apply(self, grads)
        positions = self.primitive.edge_positions or range(len(input_grads))
        dtypes = self.input_dtypes
        return tuple([None if g is None else _conjugated(g) if dtypes[i].kind == "c" else g.real
                      for i, g in zip(positions, input_grads)])

    def __getattr__(self, name):
        """PyTorch's ``_saved_<name>`` attributes, for code that inspects a graph: the saved
        tensors under PyTorch's names (``self``, ``other``, ``result``), the input shapes
        (``_saved_self_sym_sizes``) and the parameters (``_saved_exponent``, ``_saved_dim``)."""
        if name.startswith("_saved_"):
            found = self._saved_attribute(name[len("_saved_"):])
            if found is not _MISSING:
                return found
        elif name.startswith("_raw_saved_"):
            key = name[len("_raw_saved_"):]
            ours = key if key in self.primitive.saves else _OUR_ARGUMENT_NAMES.get(key, key)
            if ours in self.primitive.saves:
                return SavedTensor(self, self.primitive.saves.index(ours))
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def _saved_attribute(self, key):
        primitive = self.primitive
        ours = key if key in primitive.saves else _OUR_ARGUMENT_NAMES.get(key, key)
        if ours in primitive.saves:
            if self._saved is None:
                raise RuntimeError(FREED_MESSAGE)
            return _unpack(self, self._saved[primitive.saves.index(ours)])
        if key.endswith("_sym_sizes"):
            argument = key[:-len("_sym_sizes")]
            argument = _OUR_ARGUMENT_NAMES.get(argument, argument)
            if argument in primitive.arg_names:
                return self.input_shapes[primitive.arg_names.index(argument)]
        for parameter in (key, key + "s"):  # PyTorch's ``dim`` is tapegrad's ``dims``
            if parameter in self.params:
                return self.params[parameter]
        return _MISSING

    @property
    def was_freed(self):
        return self._saved is None and bool(self.primitive.save_positions)


def _conjugated(gradient):
    """``conj(gradient)`` with its imaginary zeros positive: PyTorch computes ``g * conj(w)``
    directly, where an exact zero comes out of ``x + (-x)`` as +0; conjugating a product
    computed the other way round would print those zeros as -0."""
    result = gradient.conj()
    if result._array.dtype.kind == "c":  # (a rule may give a real gradient: kept as it is)
        imaginary = result._array.imag
        imaginary += 0.0  # -0.0 + 0.0 is +0.0; every other value is unchanged
    return result


def _unpack(node, entry):
    """A saved value back as a tensor, refusing one that was modified in place since (None: one
    the node did not need to save)."""
    if entry is None:
        return None
    saved, version = entry
    if version is None:
        return saved.unpack()
    if saved._version_counter.value != version:
        raise RuntimeError(_modified_message(saved, version, node))
    if type(saved) is _SavedOutput:
        output = Tensor._make(saved._array, node, saved._output_nr)
        if saved._fw_grad is not None:
            output._fw_grad = saved._fw_grad
        return output
    return saved


class SavedTensor:
    """One tensor a node saved, as ``node._raw_saved_<name>`` gives it, to put a pair of
    saved-tensor hooks on that tensor alone: the pack hook runs at once, the unpack hook when
    the backward (or ``_saved_<name>``) reads it."""

    __slots__ = ("_node", "_index")

    def __init__(self, node, index):
        self._node, self._index = node, index

    def register_hooks(self, pack_hook, unpack_hook):
        if not (callable(pack_hook) and callable(unpack_hook)):
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument types "
                "are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n\nInvoked "
                f"with: {self!r}, {pack_hook!r}, {unpack_hook!r}")
        saved = self._node._saved
        if saved is None:
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved "
                "intermediate values of the graph are freed when you call .backward() or "
                "autograd.grad(). Specify retain_graph=True if you need to backward through the "
                "graph a second time or if you need to access saved variables after calling "
                "backward.")
        entry = saved[self._index]
        if entry is not None and entry[1] is None:  # packed already (here or by a context)
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already "
                               "been set. Hint: only one pair of hooks is allowed at a time.")
        if entry is None:
            return
        hooked = _HookedSaved(_unpack(self._node, entry), pack_hook, unpack_hook)
        self._node._saved = saved[:self._index] + ((hooked, None),) + saved[self._index + 1:]

    def __repr__(self):
        return f"<torch._C._autograd.SavedTensor object at {hex(id(self))}>"


class _HookedSaved:
    """A saved tensor packed by hooks put on it alone. As PyTorch's, the hooks see its data
    (no history, run without recording); what the unpack hook gives back takes the saved
    tensor's place in the graph again."""

    __slots__ = ("packed", "unpack_hook", "_grad_fn", "_output_nr", "_requires_grad")

    def __init__(self, tensor, pack_hook, unpack_hook):
        self._grad_fn, self._output_nr = tensor._grad_fn, tensor._output_nr
        self._requires_grad = tensor._requires_grad
        self.unpack_hook = unpack_hook
        with grad_mode.no_grad():
            self.packed = pack_hook(tensor.detach())

    def unpack(self):
        with grad_mode.no_grad():
            data = self.unpack_hook(self.packed)
        if not isinstance(data, Tensor):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got "
                            f"result of type {type(data).__name__}")
        tensor = Tensor._make(data._array, self._grad_fn, self._output_nr)
        tensor._requires_grad = self._requires_grad
        return tensor


class _SavedOutput:
    """A node's own output, saved without the tensor: holding the tensor would make a cycle
    (output -> node -> output). Unpacking rebuilds a tensor that points at the node."""

    __slots__ = ("_array", "_version_counter", "_output_nr", "_fw_grad", "__weakref__")

    def __init__(self, tensor, output_nr=0):
        self._array = tensor._array
        self._version_counter = tensor._version_counter
        self._output_nr = output_nr
        self._fw_grad = None  # the output's tangent (forward-mode AD), for rules that read it


def _modified_message(saved, expected, node):
    kind = aten_type_name(saved._array.dtype.name)  # torch.FloatTensor, CPUComplexFloatType, …
    producer = node if type(saved) is _SavedOutput else saved.grad_fn  # a stale view: AsStrided
    source = ("" if producer is None else f", which is output {saved._output_nr} of "
              f"{producer.name().rsplit('Backward', 1)[0]},")
    shape = ", ".join(map(str, saved._array.shape))
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{kind} [{shape}]]{source} is at version "
        f"{saved._version_counter.value}; expected version {expected} instead. Hint: enable anomaly "
        "detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False)."
    )


class Primitive:
    """One entry of the op table. Call it with tensors (and keyword parameters) to apply it."""

    def __init__(self, name, forward, *, node, group, saves=(), saves_for=None, lowering=None,
                 n_outputs=1, ufunc=None, is_view=False, error=None, nondifferentiable=(),
                 notes_transposed=None, complex_rule=False):
        self.name = name
        self.forward = _c_ordered_results(forward) if group == REDUCTION else forward
        self.group = group
        self.lowering = lowering
        # 1; k > 1: outputs after the first are never differentiable (max's indices); None: the
        # forward returns a tuple of any length, every output differentiable and recorded as
        # output i of one node (split's pieces: SplitBackward0)
        self.n_outputs = n_outputs
        self.ufunc = ufunc  # numpy ufunc for in-place application without recording
        self.is_view = is_view
        self.plain = n_outputs == 1 and not is_view  # __call__'s fast path
        self.error = error  # error(inputs, params) -> message, for a forward that numpy rejected
        self.vjp_rule = None
        self.arg_names = [p.name for p in inspect.signature(forward).parameters.values()
                          if p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty]
        self.saves = tuple(saves)
        self.save_positions = tuple(_save_position(s, self.arg_names) for s in saves)
        # ``saves_for={"a": ("b",)}``: ``a`` is saved only when ``b`` needs its gradient (the rule
        # then reads None for it), as PyTorch saves ``self`` of ``x * w`` only for ``w``'s sake.
        # Holding less is memory, and a tensor not saved may be modified in place before backward.
        self.save_conditions = tuple(
            None if saves_for is None or s not in saves_for
            else tuple(self.arg_names.index(n) for n in saves_for[s]) for s in saves)
        if not any(self.save_conditions):
            self.save_conditions = None
        self._positions_by_needs = {}
        # ``notes_transposed="b"``: the rule gets ``transposed=`` (whether ``b`` was a transposed
        # matrix), the layout its gradient should have, without the node keeping ``b`` itself
        self.transposed_position = (None if notes_transposed is None
                                    else self.arg_names.index(notes_transposed))
        # Inputs that never carry a gradient (where's condition) get no edge, as in PyTorch; the
        # rule still returns one entry per input, and the node keeps those of the others.
        skipped = {self.arg_names.index(n) for n in nondifferentiable}
        self.edge_positions = (None if not skipped else
                               tuple(i for i in range(len(self.arg_names)) if i not in skipped))
        attributes = {"__slots__": (), "primitive": self}
        if node in _CPP_NODE_NAMES:
            attributes["qualified_name"] = "torch::autograd::" + node
        self.node_class = type(node, (OpNode,), attributes)
        # ``complex_rule``: the rule handles complex numbers itself (abs, real, the FFTs), as the
        # rules of views and of other maps linear with real coefficients (add, sum, cat, pad)
        # do; any other rule is conjugated around when the output is complex (see
        # ``_apply_conjugated``), which for those would only turn zeros into -0.
        complex_rule = complex_rule or is_view
        self.complex_node_class = self.node_class if complex_rule else type(
            node, (self.node_class,), {"__slots__": (), "apply": OpNode._apply_conjugated})
        PRIMITIVES[name] = self

    def variant_node_class(self, name):
        """A node class of this primitive under another of PyTorch's names: its in-place form
        records the same node as ``TBackward1`` where the out-of-place ``t`` is TBackward0."""
        variants = self.__dict__.setdefault("_variants", {})
        if name not in variants:
            variants[name] = type(name, (self.node_class,), {"__slots__": ()})
        return variants[name]

    def vjp(self, rule):
        """Decorator: ``rule(ctx, grad, **params)`` returns one gradient per input (None: none)."""
        self.vjp_rule = rule
        return rule

    def __repr__(self):
        return f"<primitive {self.name}>"

    def __call__(self, *inputs, **params):
        """Run the forward on the inputs' arrays and record the node (the eager path).

        This is the hottest code in eager mode (every operation, and every operation of every
        backward rule, passes here), so the common one- and two-input cases are spelled out: a
        list comprehension would cost more than a 0-d addition.
        """
        if _interceptor is not None:
            return _interceptor(self, inputs, params)
        filters = warnings.filters
        if not filters or filters[0] is not numpy_quiet[0]:  # see tapegrad._warnings
            quiet_numpy()
        try:
            if len(inputs) == 2:
                a, b = inputs
                out = self.forward(a._array, b._array, **params) if params else \
                    self.forward(a._array, b._array)
            elif len(inputs) == 1:
                out = self.forward(inputs[0]._array, **params) if params else \
                    self.forward(inputs[0]._array)
            else:
                out = self.forward(*[t._array for t in inputs], **params)
        except (ValueError, IndexError, TypeError) as exc:
            if self.error is None:
                raise
            raise RuntimeError(self.error(inputs, params)) from exc
        except AttributeError:
            self._check_tensors(inputs)
            raise
        if not self.plain:
            return self._general(inputs, params, out)
        if type(out) is not np.ndarray:
            out = np.asarray(out)  # numpy returns scalars, not 0-d arrays, from 0-d operations
        result = _new_tensor(Tensor)  # (Tensor._make, inlined)
        result._array = out
        result._requires_grad = False
        result._grad_fn = None
        result._version_counter = VersionCounter()
        if meta_in_use[0] and any(t._meta for t in inputs):  # a meta input gives meta results
            _make_meta(result)
        state = _grad_state
        if state.grad_enabled and not state.inference:  # (enable_grad inside inference_mode
            for t in inputs:                            # records nothing either)
                if t._requires_grad:
                    self._record(inputs, params, result)
                    break
        elif state.inference:
            result._inference = True  # only ever set here: eager training pays nothing for it
        return result

    def _general(self, inputs, params, out):
        """The rest of ``__call__``: views and several outputs."""
        if self.n_outputs is None:
            return self._several(inputs, params, out)
        if self.n_outputs > 1:
            out, *extra = out
            extra = [Tensor._make(np.asarray(e)) for e in extra]
        if type(out) is not np.ndarray:
            out = np.asarray(out)  # numpy returns scalars, not 0-d arrays, from 0-d operations
        result = Tensor._make(out)
        if self.is_view:
            first = inputs[0]
            if np.may_share_memory(out, first._array) or not out.size:  # (empty: no memory to
                result._become_view_of(first)                            # share, still a view)
        if meta_in_use[0] and any(t._meta for t in inputs):  # a meta input gives meta results
            for t in (result, *extra) if self.n_outputs > 1 else (result,):
                _make_meta(t)
        state = _grad_state
        if state.grad_enabled and not state.inference:  # (enable_grad inside inference_mode
            for t in inputs:                            # records nothing either)
                if t._requires_grad:
                    self._record(inputs, params, result, extra if self.n_outputs > 1 else None)
                    break
        elif state.inference and result._base is None:
            result._inference = True  # only ever set here: eager training pays nothing for it
        elif self.is_view and result._base is not None and inputs[0]._requires_grad:
            _mark_view_made_without_grad(result, state)
        return (result, *extra) if self.n_outputs > 1 else result

    def _several(self, inputs, params, outs):
        """A forward that returned several differentiable outputs: one node, result ``i`` its
        output ``i``; a view primitive's results are views of the first input."""
        results = [Tensor._make(np.asarray(o)) for o in outs]
        if self.is_view:
            for result in results:
                result._become_view_of(inputs[0])
        if meta_in_use[0] and any(t._meta for t in inputs):
            for result in results:
                _make_meta(result)
        state = _grad_state
        if state.grad_enabled and not state.inference:
            if results and any(t._requires_grad for t in inputs):
                self._record(inputs, params, results)
        elif state.inference and not self.is_view:
            for result in results:
                result._inference = True
        elif self.is_view and inputs[0]._requires_grad:
            for result in results:
                _mark_view_made_without_grad(result, state)
        return tuple(results)

    def positions_to_save(self, needs_input_grad):
        """``save_positions`` with None for what the gradients ``needs_input_grad`` asks for do
        not use (see ``saves_for``); remembered per combination (recording is a hot path)."""
        if self.save_conditions is None:
            return self.save_positions
        positions = self._positions_by_needs.get(needs_input_grad)
        if positions is None:
            positions = self._positions_by_needs[needs_input_grad] = tuple(
                None if condition is not None and
                not any(needs_input_grad[j] for j in condition) else position
                for position, condition in zip(self.save_positions, self.save_conditions))
        return positions

    def _check_tensors(self, inputs):
        """PyTorch's TypeError for a number or other object where a tensor belongs."""
        from .operands import not_a_tensor  # only on this error path: operands imports Tensor
        for position, value in enumerate(inputs):
            if not isinstance(value, Tensor):
                name = "input" if position == 0 else self.arg_names[position]
                raise not_a_tensor(self.name, name, position + 1, value) from None

    def apply(self, inputs, params):
        """The eager path even while an interceptor is set (what a tracer calls for values)."""
        global _interceptor
        saved, _interceptor = _interceptor, None
        try:
            return self(*inputs, **params)
        finally:
            _interceptor = saved

    def _node(self, inputs, node_class):
        """A new node with edges to the inputs' nodes and their shapes, dtypes and flags."""
        edges, shapes, dtypes, needs = [], [], [], []
        for t in inputs:
            array = t._array
            shapes.append(array.shape)
            dtypes.append(array.dtype)
            needs.append(t._requires_grad)
            edges.append(_edge(t) if t._requires_grad else _NO_EDGE)
        if self.edge_positions is not None:
            edges = [edges[i] for i in self.edge_positions]
        node = node_class(tuple(edges))
        node.input_shapes = tuple(shapes)
        node.input_dtypes = tuple(dtypes)
        node.needs_input_grad = tuple(needs)
        return node

    def _record(self, inputs, params, result, extra=None):
        """Attach a new node to ``result`` (a list: to each, as output i): edges to the inputs'
        nodes, what the rule will need. ``extra``: the outputs after the first of a primitive
        whose other outputs are not differentiable (max's indices), which ``saves`` may name."""
        several = type(result) is list
        kind = (result[0] if several else result)._array.dtype.kind
        if kind == "f":
            node_class = self.node_class
        elif kind == "c":
            node_class = self.complex_node_class
        else:
            return
        if len(inputs) == 2 and self.edge_positions is None:  # spelled out, as in __call__
            a, b = inputs
            x, y = a._array, b._array
            need_a, need_b = a._requires_grad, b._requires_grad
            node = node_class(((_edge(a) if need_a else _NO_EDGE),
                                    (_edge(b) if need_b else _NO_EDGE)))
            node.input_shapes = (x.shape, y.shape)
            node.input_dtypes = (x.dtype, y.dtype)
            node.needs_input_grad = (need_a, need_b)
        elif len(inputs) == 1 and self.edge_positions is None:
            a = inputs[0]
            x, need_a = a._array, a._requires_grad
            node = node_class(((_edge(a) if need_a else _NO_EDGE),))
            node.input_shapes = (x.shape,)
            node.input_dtypes = (x.dtype,)
            node.needs_input_grad = (need_a,)
        else:
            node = self._node(inputs, node_class)
        if self.transposed_position is not None:
            array = inputs[self.transposed_position]._array
            params = {**params, "transposed": array.ndim == 2 and array.flags.f_contiguous
                      and not array.flags.c_contiguous}
        node.params = params
        if self.save_positions:
            positions = self.save_positions
            if self.save_conditions is not None:
                positions = self.positions_to_save(node.needs_input_grad)
            hooks = _grad_state.saved_tensors_hooks
            if hooks:
                node._saved = tuple([None if i is None else
                                     _save_input(inputs[i])
                                     if i >= 0 and inputs[i]._wrapped_number else
                                     _pack(inputs[i] if i >= 0 else
                                           result[-1 - i] if several else
                                           result if i == -1 else extra[-2 - i], hooks[-1])
                                     for i in positions])
            else:
                node._saved = tuple([None if i is None else
                                     _save_input(inputs[i]) if i >= 0 else
                                     _save(_saved_output(result, -1 - i))
                                     if i == -1 or several else
                                     _save(extra[-2 - i])  # (no grad_fn: no cycle to avoid)
                                     for i in positions])
        else:
            node._saved = ()
        if several:
            for output_nr, output in enumerate(result):
                output._grad_fn, output._output_nr, output._requires_grad = node, output_nr, True
                if self.is_view:
                    output._view_version = output._version_counter.value
        else:
            result._grad_fn = node
            result._requires_grad = True
            if result._output_nr:  # rebased by an in-place op: now output 0 of the new node
                result._output_nr = 0
            if self.is_view and result._base is not None:
                result._view_version = result._version_counter.value


def _c_ordered_results(forward):
    """``forward`` with its results in C order: ATen allocates what a reduction (or softmax)
    returns contiguous whatever the input's layout, where numpy keeps the input's stride order
    (and ``x.permute(0, 2, 1).sum(1).view(-1)`` would then be refused)."""
    @functools.wraps(forward)
    def run(*args, **params):
        out = forward(*args, **params)
        if type(out) is np.ndarray:  # (the common case, spelled out: a reduction is a hot op)
            return out if out.flags.c_contiguous else np.ascontiguousarray(out)
        if type(out) is tuple:
            return tuple(o if type(o) is not np.ndarray or o.flags.c_contiguous
                         else np.ascontiguousarray(o) for o in out)
        return out
    return run


def _mark_view_made_without_grad(view, state):
    """A view of a tensor that requires grad, made under no_grad, requires grad too (PyTorch's
    rule), but as a leaf whose gradient goes nowhere; writing it in place with grad mode on is
    refused (see ``inplace.apply_inplace``)."""
    view._view_made_without_grad = "inference_mode" if state.inference else "no_grad"
    view._requires_grad = True


def _edge(tensor):
    """Where the gradient of ``tensor`` (which requires grad) goes: its node, or its leaf's
    (nowhere for a view made under no_grad)."""
    grad_fn = tensor._grad_fn
    if grad_fn is None:
        if tensor._view_made_without_grad is not None:
            return _NO_EDGE
        return AccumulateGrad.of(tensor), 0
    version = tensor._view_version
    if version is not None and version != tensor._version_counter.value:
        return tensor.grad_fn, 0  # a view whose base was written to since: history regenerated
    return grad_fn, tensor._output_nr


def _save_position(name, arg_names):
    """What ``saves`` names: an input's position, or -1 - i for output i ("out" is the output;
    "out0", "out1", … those of a primitive with several differentiable outputs)."""
    if name == "out":
        return -1
    if name.startswith("out") and name[3:].isdigit():
        return -1 - int(name[3:])
    return arg_names.index(name)


def _save(value):
    return value, value._version_counter.value


def _save_input(tensor):
    if tensor._inference:
        raise RuntimeError(INFERENCE_SAVE_ERROR)
    return tensor, tensor._version_counter.value


INFERENCE_SAVE_ERROR = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a clone "
    "to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`.")


def _pack(tensor, hooks):
    """Saved through ``autograd.graph.saved_tensors_hooks``: no version to check."""
    return PackedTensor(tensor, hooks), None


def _saved_output(result, output_nr):
    return _SavedOutput(result[output_nr] if type(result) is list else result, output_nr)


_NO_EDGE = (None, 0)

# PyTorch's names for a node's inputs and output, as the op table names them
_OUR_ARGUMENT_NAMES = {"self": "a", "other": "b", "result": "out", "mat2": "b", "result1": "out1",
                       "indices": "out1"}
_MISSING = object()

# Nodes PyTorch implements in C++ outside the generated code: their name() is namespaced.
_CPP_NODE_NAMES = {"CopySlices", "CopyBackwards"}


def without_derivative(prim, aten_name):
    """Make ``prim`` one PyTorch gives no derivative: its results still require grad, recorded
    as a ``torch::autograd::NotImplemented`` node whose backward raises PyTorch's RuntimeError
    (marked ``no_derivative``: the compiler then runs the function eagerly, where the error
    comes when ``backward`` reaches the node)."""
    prim.node_class.qualified_name = "torch::autograd::NotImplemented"

    @prim.vjp
    def _(ctx, grad, **params):
        error = RuntimeError(f"derivative for aten::{aten_name} is not implemented")
        error.no_derivative = True
        raise error
    return prim


def primitive(name, *, node, group=OTHER, saves=(), lowering=None, **options):
    """Decorator form: ``@primitive("mul", node="MulBackward0", ...)`` over the forward function."""
    def register(forward):
        return Primitive(name, forward, node=node, group=group, saves=saves, lowering=lowering,
                         **options)
    return register


from ..tensor import (  # noqa: E402  (Tensor imports ops in turn)
    Tensor, VersionCounter, _make_meta, _new_tensor, meta_in_use)
