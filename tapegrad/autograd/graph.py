"""The nodes of the recorded graph.

A node stands for one operation in the backward direction: it receives the gradient of the
operation's output(s) and returns the gradients of its inputs. ``next_functions`` holds one
``(node, output_nr)`` edge per input: ``AccumulateGrad`` for a leaf that requires grad, ``None`` for
an input that needs none. This module knows nothing about particular operations; the op table
(``tapegrad.ops``) makes one ``Node`` subclass per primitive, named as PyTorch names it.
"""
import contextlib
import itertools
import sys
import weakref
from typing import NamedTuple, Optional

from ..tensor import Tensor
from .grad_mode import _state

__all__ = ["Node", "AccumulateGrad", "SavedTensorsFreedError", "saved_tensors_hooks",
           "save_on_cpu", "disable_saved_tensors_hooks", "register_multi_grad_hook",
           "increment_version", "GradientEdge", "get_gradient_edge",
           "allow_mutation_on_saved_tensors"]

_sequence = itertools.count()

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


class SavedTensorsFreedError(RuntimeError):
    pass


class Node:
    """One backward step. Subclasses implement ``apply(grads) -> tuple of input grads``.

    ``sequence_nr`` orders execution: among nodes that are ready, the engine runs the most recently
    created first, as PyTorch does, so hooks fire in a predictable order. Hooks live in one
    ``_hooks`` slot (None for the vast majority of nodes, so the engine checks one attribute).
    """

    __slots__ = ("next_functions", "sequence_nr", "_hooks", "_metadata", "__weakref__")
    # True when ``apply`` may return tensors someone else holds (user code): the engine then
    # copies such a gradient before storing it in a leaf's .grad.
    gradients_may_be_shared = False

    def __init__(self, next_functions):
        self.next_functions = next_functions
        self.sequence_nr = next(_sequence)
        self._hooks = None

    qualified_name = None  # PyTorch's name() where it differs from the class name
    # How many outputs the node's forward made, where known (None: as many as gradients arrived
    # for); node hooks get one gradient slot per output, None for those nothing flowed into.
    output_count = None

    def name(self):
        return self.qualified_name or type(self).__name__

    @property
    def metadata(self):
        """A dict for user annotations on this node (empty until used), as PyTorch's."""
        try:
            return self._metadata
        except AttributeError:
            self._metadata = {}
            return self._metadata

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"

    def apply(self, grads):
        raise NotImplementedError

    def __call__(self, *grads):
        """Run the backward step on one gradient per output, as PyTorch's nodes may be called:
        the gradients for the inputs (a lone one unwrapped)."""
        primitive = getattr(self, "primitive", None)  # (split's pieces: as many as it made)
        expected = self.output_count or getattr(primitive, "n_outputs", None) or len(grads)
        if len(grads) != expected:
            raise TypeError(f"expected {expected} arguments, got {len(grads)} instead")
        result = self.apply(grads)
        return result[0] if len(result) == 1 else result

    def release(self):
        """Drop what the backward step saved (called after backward unless retain_graph)."""

    def _hook_table(self):
        if self._hooks is None:
            self._hooks = NodeHooks()
        return self._hooks

    # -- hooks, as PyTorch's Node exposes them --------------------------------------------------
    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new grad_inputs."""
        return RemovableHandle.append(self._hook_table().post, fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        return RemovableHandle.append(self._hook_table().pre, fn)

    def _add_tensor_pre_hook(self, output_nr, fn, retain_grad=False):
        """A hook of the tensor that is output ``output_nr`` of this node (``register_hook``,
        ``retain_grad``); retain_grad hooks run last, one per output."""
        table = self._hook_table()
        hooks = (table.retain_grad if retain_grad else table.tensor).setdefault(output_nr, [])
        if retain_grad:
            hooks.clear()
        return RemovableHandle.append(hooks, fn)


class NodeHooks:
    """The hooks registered on one node, by kind."""

    __slots__ = ("tensor", "pre", "retain_grad", "post")

    def __init__(self):
        self.tensor, self.pre, self.retain_grad, self.post = {}, [], {}, []


class AccumulateGrad(Node):
    """The node of a leaf tensor: adds the incoming gradient into ``variable.grad``.

    A leaf keeps only a weak reference to its AccumulateGrad, while the graph holds it strongly: so
    every graph built from one leaf shares one node, and no reference cycle is made.
    """

    __slots__ = ("variable",)

    def __init__(self, variable):
        # (Node's fields set here: as PyTorch's, the node takes no sequence number; its gradient
        # is stored once it is ready)
        self.next_functions = ()
        self.sequence_nr = sys.maxsize
        self._hooks = None
        self.variable = variable

    qualified_name = "torch::autograd::AccumulateGrad"

    @staticmethod
    def of(tensor):
        ref = tensor._grad_accumulator
        node = ref() if ref is not None else None
        if node is None:
            node = AccumulateGrad(tensor)
            tensor._grad_accumulator = weakref.ref(node)
        return node

    def apply(self, grads):
        raise AssertionError("the engine accumulates leaves itself")


class RemovableHandle:
    """What registering a tensor or node hook returns: ``remove()`` unregisters it (also on
    leaving a ``with`` block)."""

    __slots__ = ("_hooks", "_fn")

    def __init__(self, hooks, fn):
        self._hooks, self._fn = hooks, fn

    @classmethod
    def append(cls, hooks, fn):
        hooks.append(fn)
        return cls(hooks, fn)

    def remove(self):
        if self._fn in self._hooks:
            self._hooks.remove(self._fn)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()


# ------------------------------------------------------------------ hooks on saved tensors

def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """``fn(grads)`` once per backward pass, when the gradients of all of ``tensors`` that the
    pass computes have arrived (a list, None for the others); ``mode="any"``: ``fn(grad)`` with
    the first one to arrive (tensors that don't require grad are skipped, as in PyTorch)."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    pass_state = {"walk": None, "grads": None, "waiting": None}

    def arrived(position, grad):
        walk = _state.walk
        if pass_state["walk"] is not walk:  # the first gradient of a new pass
            pass_state["walk"], pass_state["grads"] = walk, [None] * len(tensors)
            if mode == "any":
                fn(grad)
                return
            pass_state["waiting"] = {i for i, t in enumerate(tensors)
                                     if _walk_reaches(walk, _edge_node(t))}
        elif mode == "any":
            return
        pass_state["grads"][position] = grad
        pass_state["waiting"].discard(position)
        if not pass_state["waiting"]:
            fn(pass_state["grads"])

    handles = [t.register_hook(lambda grad, i=i: arrived(i, grad)) for i, t in enumerate(tensors)
               if mode == "all" or t.requires_grad]
    return _MultiHandle(handles)


def _walk_reaches(walk, node):
    """Whether the backward walk ``(counts, roots, visits, captured)`` runs ``node`` (PyTorch's
    ``_will_engine_execute_node``, which refuses a leaf whose gradient ``grad()`` returns)."""
    counts, roots, visits, captured = walk
    reached = node in counts or any(node is root for (root, _), _ in roots)
    if reached and type(node) is AccumulateGrad and node in captured:
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are "
                           "currently running autograd.grad(). This is currently not supported.")
    return reached and (visits is None or node in visits)


def _edge_node(tensor):
    if tensor._grad_fn is not None:
        return tensor._grad_fn
    ref = tensor._grad_accumulator
    return None if ref is None else ref()


class _MultiHandle:
    def __init__(self, handles):
        self._handles = handles

    def remove(self):
        for handle in self._handles:
            handle.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()


class saved_tensors_hooks:
    """While active, every tensor an operation saves for backward is stored as
    ``pack_hook(tensor)`` and given back to the backward as ``unpack_hook(packed)`` (PyTorch's
    context manager; to offload, compress or log what the graph keeps). Thread-local; the
    innermost pair applies. A packed tensor is not checked against in-place changes: the hooks
    own what they stored."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        if _state.saved_tensors_hooks_refusal is not None:
            raise RuntimeError(_state.saved_tensors_hooks_refusal)
        _state.saved_tensors_hooks.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc):
        _state.saved_tensors_hooks.pop()
        return False


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors kept as copies in CPU memory (where tapegrad's tensors already live: a copy
    that later in-place changes cannot reach)."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(lambda tensor: tensor.detach().clone(), lambda packed: packed)


class disable_saved_tensors_hooks:
    """Inside, entering ``saved_tensors_hooks`` raises RuntimeError(``error_message``)."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        self._previous = _state.saved_tensors_hooks_refusal
        _state.saved_tensors_hooks_refusal = self.error_message
        return self

    def __exit__(self, *exc):
        _state.saved_tensors_hooks_refusal = self._previous
        return False


class _SavedForMutation:
    """One tensor saved under ``allow_mutation_on_saved_tensors``, with the copy of its value
    taken just before an in-place write first reached its memory."""

    __slots__ = ("tensor", "original", "__weakref__")

    def __init__(self, tensor):
        self.tensor, self.original = tensor, None


class _AllowMutationOnSavedContext:
    """The saved tensors of the graphs recorded inside one ``allow_mutation_on_saved_tensors``."""

    def __init__(self):
        self.saved = weakref.WeakSet()
        self.closed = False

    def pack(self, tensor):
        entry = _SavedForMutation(tensor)
        self.saved.add(entry)
        return entry

    def unpack(self, entry):
        if self.closed:
            raise AssertionError("Trying to backward outside of the 'allow_mutation_on_saved_"
                                 "tensors' contextin which the graph was originally recorded.")
        return entry.tensor if entry.original is None else entry.original

    @contextlib.contextmanager
    def before_inplace(self, primitive, target, others, params):
        """Keep the value of every saved tensor the write is about to change (views too)."""
        import numpy as np
        for entry in self.saved:
            saved = entry.tensor
            if entry.original is None and np.may_share_memory(saved._array, target._array):
                entry.original = Tensor._make(saved._array.copy(), saved._grad_fn,
                                              saved._output_nr)
        yield


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Inside, a tensor saved for backward may be modified in place: the backward uses its value
    from before the modification (kept as a copy when the write happens). The graphs recorded
    inside must be differentiated inside."""
    from ..ops import registry
    ctx = _AllowMutationOnSavedContext()
    registry.inplace_observers.append(ctx.before_inplace)
    try:
        with saved_tensors_hooks(ctx.pack, ctx.unpack):
            yield ctx
    finally:
        registry.inplace_observers.remove(ctx.before_inplace)
        ctx.closed = True


PACK_HOOK_INPLACE_ERROR = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack "
    "hook cannot be modified by in-place operations as this can lead to unexpected side-effects. "
    "Please open an issue if you need to perform in-place operations on the input to a pack hook.")


class PackedTensor:
    """A saved tensor as the pack hook stored it, with the unpack hook that gives it back."""

    __slots__ = ("packed", "unpack_hook")

    def __init__(self, tensor, hooks):
        pack_hook, self.unpack_hook = hooks
        version = tensor._version_counter.value
        self.packed = _without_hooks(pack_hook, tensor, grad_enabled=False)
        if tensor._version_counter.value != version:  # the op's own value would change under it
            raise RuntimeError(PACK_HOOK_INPLACE_ERROR)

    def unpack(self):
        tensor = _without_hooks(self.unpack_hook, self.packed)
        if not isinstance(tensor, Tensor):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got "
                            f"result of type {type(tensor).__name__}")
        return tensor


def _without_hooks(hook, value, grad_enabled=None):
    """Run a pack or unpack hook with no saved-tensor hooks in force, as PyTorch does: what the
    hook computes (``t * t``) saves its own tensors plainly instead of packing them again.
    ``grad_enabled``: the grad mode to run it in (PyTorch packs with grad mode off), where
    not the current one."""
    stack, grad_was_enabled = _state.saved_tensors_hooks, _state.grad_enabled
    _state.saved_tensors_hooks = []
    if grad_enabled is not None:
        _state.grad_enabled = grad_enabled
    try:
        return hook(value)
    finally:
        _state.saved_tensors_hooks, _state.grad_enabled = stack, grad_was_enabled



def increment_version(tensor):
    """Count a modification of ``tensor`` (or of each tensor of an iterable) that autograd did
    not see — a write through numpy, say — so that a backward needing its old value refuses."""
    if isinstance(tensor, Tensor):
        tensor = (tensor,)
    elif not hasattr(tensor, "__iter__"):
        raise RuntimeError("increment_version expect a Iterable[Tensor] as input")
    for t in tensor:
        t._version_counter.value += 1


class GradientEdge(NamedTuple):
    """Where a tensor's gradient enters the graph: ``(node, output_nr)``. Usable as an input of
    ``autograd.grad`` / ``backward(inputs=...)`` in place of the tensor (which may be gone, or
    modified in place since)."""

    node: Node
    output_nr: int
    ownership_token: Optional[Node] = None


def get_gradient_edge(tensor):
    """The ``GradientEdge`` of ``tensor``: its ``grad_fn`` and output number, or for a leaf its
    ``AccumulateGrad`` node."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    grad_fn = tensor.grad_fn  # the property: a stale view's history is regenerated first
    if grad_fn is not None:
        return GradientEdge(grad_fn, tensor._output_nr)
    return GradientEdge(AccumulateGrad.of(tensor), 0)
