"""One level of differentiation, and how levels nest without PyTorch's functorch levels.

A transform differentiates with respect to tensors it makes itself: a fresh leaf for an input
that needs no grad, and a ``view_as`` alias for one that already requires grad (an outer
transform's input, or the user's parameter), so that the outer level still sees its history
(the trick of ``autograd.functional._prepare``). A result is then *inside* the level when every
path of its graph ends at this level's own leaves, and reaches *outside* when some path ends at
another tensor that requires grad. Only then does anything outside see the result, so only then
is the derivative recorded (``create_graph``) and the result kept differentiable; the others
are detached, as PyTorch's outermost results are.

The fresh leaves of a transform whose function has returned (``grad`` called inside the
function another ``grad`` transforms) are no one else's to differentiate: a path ending at one
of them does not reach outside. The leaves of a transform still running its function (one whose
``vjp`` function is called inside it) do.
"""
import contextlib
import weakref

from ..autograd import grad_mode
from ..autograd.functional import _grad, _prepare, transpose_point
from ..autograd.graph import AccumulateGrad
from ..tensor import Tensor
from ..utils import _pytree

__all__ = ["Level"]


class Level:
    """The leaves one transform call made, and whether grad mode was on outside it (under
    ``no_grad`` nothing outside records, so nothing is kept)."""

    def __init__(self):
        self.watched = grad_mode.is_grad_enabled()
        self._own = {}  # id -> leaf, held so that ids stay unique
        self._state = _RunState()

    @contextlib.contextmanager
    def running(self):
        """While the transformed function runs: its leaves count as outside for other levels."""
        self._state.running = True
        try:
            yield
        finally:
            self._state.running = False

    def _adopt(self, leaf):
        self._own[id(leaf)] = leaf
        _register_leaf(leaf, self._state)

    def track(self, tree):
        """``tree`` with each tensor replaced by the tensor to differentiate with respect to."""
        leaves, spec = _pytree.flatten(tree)
        for leaf in leaves:
            if not isinstance(leaf, Tensor):
                raise ValueError(f"Thing passed to transform API must be Tensor, got {type(leaf)}")
        with grad_mode.enable_grad():
            tracked = _prepare(leaves, create_graph=True, need_graph=True)
        for t in tracked:
            if t.is_leaf:
                self._adopt(t)
        return _pytree.unflatten(tracked, spec)

    def transpose_point(self, tensor):
        """A leaf of this level: the ``u`` of the double-vjp trick."""
        leaf = transpose_point(tensor)
        self._adopt(leaf)
        return leaf

    def reaches_outside(self, tensors):
        """Whether an outer computation can differentiate any of ``tensors``."""
        return self.watched and any(self._depends_on_outside(t) for t in tensors
                                    if isinstance(t, Tensor))

    def _depends_on_outside(self, tensor):
        if not tensor.requires_grad:
            return False
        if tensor.grad_fn is None:
            return self._is_outside_leaf(tensor)
        pending, seen = [tensor.grad_fn], set()
        while pending:
            for node, _ in pending.pop().next_functions:
                if node is None or id(node) in seen:
                    continue
                seen.add(id(node))
                if isinstance(node, AccumulateGrad):
                    if self._is_outside_leaf(node.variable):
                        return True
                else:
                    pending.append(node)
        return False

    def _is_outside_leaf(self, leaf):
        return id(leaf) not in self._own and not _is_retired(leaf)

    def grad(self, outputs, inputs, grad_outputs, create_graph, retain_graph=True):
        """``autograd.grad`` of the outputs with a grad_output (``None`` entries are zero
        cotangents, left out); ``None`` for an input no output reaches."""
        pairs = [(out, g) for out, g in zip(outputs, grad_outputs) if g is not None]
        if not pairs:
            return [None] * len(inputs)
        return list(_grad([out for out, _ in pairs], inputs, [g for _, g in pairs],
                          create_graph=create_graph, retain_graph=retain_graph))

    def unwrap(self, tree):
        """The results as the caller gets them: detached unless something outside sees them.
        Every leaf must be a tensor (PyTorch's message for an ``aux`` that is not)."""
        leaves, spec = _pytree.flatten(tree)
        for leaf in leaves:
            if not isinstance(leaf, Tensor):
                raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
        return _pytree.unflatten([t if self.reaches_outside([t]) else t.detach()
                                  for t in leaves], spec)


class _RunState:
    """Whether a level's function is still running (shared by the leaves it made)."""

    def __init__(self):
        self.running = False


_level_leaves = {}  # id(leaf) -> (weakref to the leaf, the _RunState of the level that made it)


def _register_leaf(leaf, state):
    key = id(leaf)
    forget = lambda _, key=key: _level_leaves.pop(key, None)  # noqa: E731
    _level_leaves[key] = (weakref.ref(leaf, forget), state)


def _is_retired(leaf):
    """Whether ``leaf`` is a fresh leaf of a transform whose function has returned."""
    entry = _level_leaves.get(id(leaf))
    return entry is not None and entry[0]() is leaf and not entry[1].running
