"""``autograd.Function``: user-defined operations with a hand-written backward, as in PyTorch.

```python
class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * y

y = Exp.apply(x)          # y.grad_fn is an <ExpBackward object ...>
```
PyTorch 2's split style — ``forward(x)`` without a ctx, plus ``setup_context(ctx, inputs, output)``
— works as well, and ``backward`` may be written under its other name, ``vjp``. The node recorded for a call is the ``ctx`` itself (a ``BackwardCFunction``), named after the class.
The gradients ``backward`` returns are checked as PyTorch checks them: one per ``forward`` argument,
None for non-tensor arguments, and a shape the input's shape can be broadcast to (summed back down).
"""
import contextlib
import inspect
import warnings
from typing import NamedTuple

import numpy as np

from .. import dtypes
from ..tensor import VIEW_OF_LEAF_INPLACE_ERROR, Tensor
from . import grad_mode
from .graph import FREED_MESSAGE, AccumulateGrad, Node, PackedTensor

__all__ = ["Function", "FunctionCtx", "once_differentiable"]


class FunctionCtx:
    """What ``forward`` may tell ``backward``: saved tensors, and any attribute it sets."""

    _in_jvp = False
    _saved_for_forward = ()

    def save_for_backward(self, *tensors):
        self._to_save = tensors

    def save_for_forward(self, *tensors):
        """Tensors ``jvp`` reads back as ``ctx.saved_tensors`` (forward-mode AD)."""
        self._saved_for_forward = tensors

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = {id(t) for t in tensors}

    def set_materialize_grads(self, value):
        self._materialize_grads = bool(value)

    @property
    def saved_tensors(self):
        if self._in_jvp:
            return self._saved_for_forward
        saved = self._saved
        if saved is None:
            raise RuntimeError(FREED_MESSAGE)
        from ..ops.registry import _modified_message
        result = []
        for entry, version in saved:
            if type(entry) is PackedTensor:
                result.append(entry.unpack())
                continue
            tensor = entry.unpack(self) if type(entry) is _SavedOutput else entry
            if tensor is not None and tensor._version_counter.value != version:
                raise RuntimeError(_modified_message(tensor, version, self))
            result.append(tensor)
        return tuple(result)


class _SavedOutput:
    """An output of the Function saved for backward, kept without the tensor itself: the tensor
    points at the node, so holding it would make a reference cycle that only ``gc`` could free."""

    __slots__ = ("array", "version_counter", "output_nr")

    def __init__(self, tensor, output_nr):
        self.array, self.version_counter, self.output_nr = (tensor._array,
                                                            tensor._version_counter, output_nr)

    def unpack(self, node):
        tensor = Tensor._make(self.array, node, self.output_nr)
        tensor._version_counter = self.version_counter
        return tensor


class BackwardCFunction(Node, FunctionCtx):
    """The node of one ``Function.apply`` call; also its ``ctx``. Has a ``__dict__`` for user state."""

    _function = None  # set on the per-Function subclass

    def __init__(self, next_functions):
        Node.__init__(self, next_functions)
        self._to_save = ()
        self._saved = ()
        self._dirty = ()
        self._non_differentiable = set()
        self._materialize_grads = True
        self._tensor_positions = ()
        self._input_meta = ()
        self._output_meta = ()

    @property
    def output_count(self):
        return len(self._output_meta) or None

    def __repr__(self):
        return f"<torch.autograd.function.{type(self).__name__} object at {id(self):#x}>"

    def apply(self, grads):
        # A second backward fails only if it reads the freed ``saved_tensors``, as in PyTorch.
        grads = grads + (None,) * (len(self._output_meta) - len(grads))
        if self._materialize_grads:  # a non-tensor output (meta None) gets None regardless
            grads = tuple(Tensor._make(np.zeros(*meta)) if g is None and meta is not None else g
                          for g, meta in zip(grads, self._output_meta))
        result = self._function._user_backward()(self, *grads)
        return self._checked(result if isinstance(result, tuple) else (result,))

    def _checked(self, result):
        """``backward``'s gradients for the tensor inputs, validated as PyTorch validates them."""
        name, n_args = type(self).__name__, self._n_args
        if len(result) != n_args:
            if len(result) > n_args and all(r is None for r in result[n_args:]):
                result = result[:n_args]
            else:
                raise RuntimeError(f"function {name} returned an incorrect number of gradients "
                                   f"(expected {n_args}, got {len(result)})")
        positions = set(self._tensor_positions)
        for i, g in enumerate(result):
            if g is not None and i not in positions:
                raise RuntimeError(f"function {name} returned a gradient different than None at "
                                   f"position {i + 1}, but the corresponding forward input was not "
                                   "a Variable")
        for position in self._tensor_positions:
            g = result[position]
            if g is not None and not isinstance(g, Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
        checked = []  # (the gradient of an input that does not require grad passes unchecked)
        for index, (position, (shape, dtype)) in enumerate(zip(self._tensor_positions,
                                                               self._input_meta)):
            g = result[position]
            checked.append(_fit_gradient(g, shape, dtype, name, index)
                           if g is not None and self.needs_input_grad[position] else g)
        return tuple(checked)

    def release(self):
        self._saved = None


def _fit_gradient(g, shape, dtype, name, index):
    """Sum a broadcast gradient back to the input's shape and cast it to the input's dtype."""
    if g._array.shape != shape:
        if not _broadcastable_to(shape, g._array.shape):
            raise RuntimeError(f"Function {name} returned an invalid gradient at index {index} - "
                               f"got {list(g._array.shape)} but expected shape compatible with "
                               f"{list(shape)}")
        from ..ops import sum_to
        g = sum_to(g, shape)
    if g._array.dtype != dtype:
        g = g.to(dtypes.from_numpy_dtype(dtype))
    return g


def _broadcastable_to(shape, target):
    if len(shape) > len(target):
        return False
    return all(s == t or s == 1 for s, t in zip(reversed(shape), reversed(target)))


class Function:
    """Subclass with static ``forward(ctx, *args)`` (or ``forward(*args)`` and ``setup_context``)
    and ``backward(ctx, *grads)``; call ``apply``."""

    _node_classes = {}

    def __init__(self, *args, **kwargs):
        """Functions are used through the class (``apply``); an instance is deprecated."""
        warnings.warn(f"{type(self)} should not be instantiated. Methods on autograd functions "
                      "are all static, so you should invoke them on the class itself. "
                      "Instantiating an autograd function will raise an error in a future "
                      "version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is "
                           "deprecated. Please use new-style autograd function with static "
                           "forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your "
                                  "custom autograd.Function to use it with backward mode AD.")

    @staticmethod
    def vjp(ctx, *grad_outputs):
        """PyTorch's other name for ``backward``: a Function defines one or the other."""
        raise NotImplementedError("You must implement either the backward or vjp method for your "
                                  "custom autograd.Function to use it with backward mode AD.")

    @classmethod
    def _user_backward(cls):
        has_backward, has_vjp = cls.backward is not Function.backward, cls.vjp is not Function.vjp
        if has_backward and has_vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is "
                               "not allowed. You should only implement one of them.")
        return cls.vjp if has_vjp else cls.backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """PyTorch 2's split style: ``forward(*args)`` computes without a ctx, then
        ``setup_context(ctx, inputs, output)`` saves what ``backward`` needs."""
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def _node_class(cls):
        node_class = Function._node_classes.get(cls)
        if node_class is None:
            # Its gradients are user code's tensors, which the caller may hold: the engine copies
            # them before storing one in a .grad.
            node_class = type(f"{cls.__name__}Backward", (BackwardCFunction,),
                              {"_function": cls, "gradients_may_be_shared": True})
            Function._node_classes[cls] = node_class
        return node_class

    @staticmethod
    def vmap(info, in_dims, *args):
        """A batching rule for ``torch.func.vmap``: ``(output, out_dims)`` for arguments batched
        at ``in_dims``; ``info`` has ``batch_size`` and ``randomness``."""
        raise NotImplementedError("To use autograd.Function with vmap, you must either override "
                                  "the vmap staticmethod or set generate_vmap_rule=True.")

    generate_vmap_rule = False

    @classmethod
    def _check_transformable(cls, split_style, args):
        """PyTorch's errors for a Function called under ``torch.func`` transforms that it cannot
        go through: only split-style Functions can, under vmap only with a vmap rule, under
        forward mode (for inputs that carry a tangent, here: require grad) only with a ``jvp``
        rule, and none under functionalize."""
        if not split_style:
            raise RuntimeError("In order to use an autograd.Function with functorch transforms "
                               "(vmap, grad, jvp, jacrev, ...), it must override the setup_context "
                               f"staticmethod. For more details, please see {_EXTENDING_FUNC_DOCS}")
        if _running("vmap"):
            cls._check_vmappable()
        if (_running("jvp") and cls.jvp is Function.jvp
                and any(isinstance(a, Tensor) and a._requires_grad for a in args)):
            Function.jvp(None)  # PyTorch's error: forward mode needs a jvp rule
        if _running("functionalize"):
            raise RuntimeError("NYI: Functionalize rule for custom_function_call")

    @classmethod
    def _check_vmappable(cls):
        custom_rule = cls.vmap is not Function.vmap
        if cls.generate_vmap_rule and custom_rule:
            raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it has both "
                               "generate_vmap_rule=True and an overridden vmap staticmethod. "
                               "Please set generate_vmap_rule=False or delete the overridden vmap "
                               "staticmethod to avoid ambiguity. For more details, please see "
                               f"{_EXTENDING_FUNC_DOCS}")
        if not (cls.generate_vmap_rule or custom_rule):
            raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it does not have vmap "
                               "support. Please override and implement the vmap staticmethod or "
                               "set generate_vmap_rule=True. For more details, please see "
                               f"{_EXTENDING_FUNC_DOCS}")

    @classmethod
    def apply(cls, *args, **kwargs):
        split_style = cls.setup_context is not Function.setup_context
        if active_transforms:
            cls._check_transformable(split_style, args)
        if split_style:  # keyword and default arguments become inputs, as in PyTorch
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, {}
        if active_transforms and _running("vmap") and cls.vmap is not Function.vmap:
            return _apply_vmap_rule(cls, args)
        positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
        tensors = [args[i] for i in positions]
        recording = grad_mode.is_grad_enabled() and any(t._requires_grad for t in tensors)
        ctx = cls._node_class()(tuple(
            ((t.grad_fn or AccumulateGrad.of(t)), t._output_nr) if t._requires_grad else (None, 0)
            for t in tensors))
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        ctx._tensor_positions = positions
        ctx._input_meta = tuple((t._array.shape, t._array.dtype) for t in tensors)
        ctx._n_args = len(args)
        dual = forward_ad_level is not None and any(t._fw_grad is not None for t in tensors)
        if dual and cls.jvp is Function.jvp:
            Function.jvp(ctx)  # PyTorch's error: no forward-mode rule
        with grad_mode.no_grad(), (_primals_only(tensors) if dual else
                                   contextlib.nullcontext(())) as tangents:
            if split_style:
                outputs = cls.forward(*args)
                cls.setup_context(ctx, args, outputs)
            else:
                outputs = cls.forward(ctx, *args, **kwargs)
        single = not isinstance(outputs, tuple)
        outputs = (outputs,) if single else outputs
        _check_dirty_returned(ctx._dirty, outputs)
        for dirty in ctx._dirty:  # PyTorch bumps a dirty tensor's version once more
            dirty._version_counter.value += 1
        if recording:  # (else no backward can read saved tensors: none saved, none checked)
            several_views = sum(_differentiable(ctx, out) for out in outputs) > 1
            outputs = tuple(_attach(ctx, i, out, tensors, len(outputs), several_views)
                            for i, out in enumerate(outputs))
            ctx._output_meta = tuple((o._array.shape, o._array.dtype) if isinstance(o, Tensor)
                                     else None for o in outputs)
            _check_saveable(ctx._to_save)
            ctx._saved = tuple(_save(t, outputs) for t in ctx._to_save)
        else:
            outputs = tuple(_unrecorded(ctx, out, tensors) for out in outputs)
        ctx._to_save = ()
        if dual:
            _attach_tangents(cls, ctx, args, tensors, tangents, outputs)
        return outputs[0] if single else outputs


# The active forward-AD level's propagator (set by autograd.forward_ad), or None.
forward_ad_level = None

class Transform(NamedTuple):
    """A running ``torch.func`` transform: its kind ("vmap", "grad", "jvp", "functionalize")
    and, for vmap, its randomness flag."""
    kind: str
    randomness: str = "error"


class VmapInfo(NamedTuple):
    """What a Function's ``vmap`` rule is told about the vmap it runs under."""
    batch_size: int
    randomness: str


# The transforms running around the current call, innermost last: ``func`` enters them with
# ``functorch_transform``, ``Function.apply`` checks them.
active_transforms = []
_EXTENDING_FUNC_DOCS = "https://pytorch.org/docs/main/notes/extending.func.html"


def _running(kind):
    """The innermost running transform of ``kind``, or None."""
    return next((t for t in reversed(active_transforms) if t.kind == kind), None)


def vmapped_innermost():
    """Whether vmap is the innermost running transform. PyTorch's batched tensors there report
    ``requires_grad=False``, so library code that records only for tensors requiring grad (module
    backward hooks) records nothing; tapegrad's per-example slices keep their flag and ask this."""
    return bool(active_transforms) and active_transforms[-1].kind == "vmap"


@contextlib.contextmanager
def functorch_transform(kind, randomness="error"):
    """While a ``torch.func`` transform of ``kind`` runs the function it transforms."""
    active_transforms.append(Transform(kind, randomness))
    try:
        yield
    finally:
        active_transforms.pop()


@contextlib.contextmanager
def _lowered(transform):
    """Without ``transform`` while a rule written for it runs (PyTorch's lower-to-next level)."""
    index = max(i for i, t in enumerate(active_transforms) if t is transform)
    del active_transforms[index]
    try:
        yield
    finally:
        active_transforms.insert(index, transform)


def _apply_vmap_rule(cls, args):
    """``cls.apply(*args)`` for one example through the Function's own ``vmap`` rule: tapegrad's
    vmap calls the function once per example, so the rule gets that example as a batch of one
    (every tensor argument batched at dimension 0) and its output is read back at index 0."""
    from ..utils import _pytree  # (tapegrad.utils imports this module)

    vmapping = _running("vmap")
    in_dims = tuple(0 if isinstance(a, Tensor) else None for a in args)
    batched = [a.unsqueeze(0) if isinstance(a, Tensor) else a for a in args]
    with _lowered(vmapping):
        result = cls.vmap(VmapInfo(1, vmapping.randomness), in_dims, *batched)
    message = ("Expected the vmap staticmethod to have two returns, an output and out_dims with "
               "pytree structure compatible with the output. ")
    if not isinstance(result, tuple):
        raise RuntimeError(message + f"Got a {type(result)} instead")
    if len(result) != 2:
        raise RuntimeError(message + f"Got {len(result)} returns instead")
    output, out_dims = result
    leaves, spec = _pytree.flatten(output)
    dims = _pytree.broadcast_prefix(out_dims, spec)
    if dims is None:
        raise ValueError(f"The autograd.Function's vmap staticmethod returned an incompatible "
                         f"(output, out_dims) tuple. Expected out_dims={out_dims} to be "
                         "compatible with the structure of `output`.")
    return _pytree.unflatten([leaf if dim is None else leaf.select(dim, 0)
                              for leaf, dim in zip(leaves, dims)], spec)


@contextlib.contextmanager
def _primals_only(tensors):
    """Run ``forward`` on the inputs without their tangents (yielded), as PyTorch does: an
    in-place op in ``forward`` must not also update a tangent, ``jvp`` does that."""
    tangents = tuple(t._fw_grad for t in tensors)
    for t in tensors:
        t._fw_grad = None
    try:
        with forward_ad_level.paused():
            yield tangents
    finally:
        for t, tangent in zip(tensors, tangents):
            t._fw_grad = tangent


def _input_tangents(ctx, args, tensors, tangents):
    """What ``jvp`` receives per argument: the tangent, zeros for a tensor without one (unless
    ``set_materialize_grads(False)``: None), None for a non-tensor."""
    by_id = {id(t): tangent for t, tangent in zip(tensors, tangents)}
    result = []
    for a in args:
        tangent = by_id.get(id(a)) if isinstance(a, Tensor) else None
        if tangent is None and isinstance(a, Tensor) and ctx._materialize_grads \
                and a._array.dtype.kind in "fc":
            tangent = Tensor._make(np.zeros_like(a._array))
        result.append(tangent)
    return result


def _attach_tangents(cls, ctx, args, tensors, tangents, outputs):
    """The outputs' tangents, from the Function's own ``jvp(ctx, *input_tangents)``."""
    level = forward_ad_level
    ctx._in_jvp = True
    try:
        with level.paused():
            tangents = cls.jvp(ctx, *_input_tangents(ctx, args, tensors, tangents))
    finally:
        ctx._in_jvp = False
    tangents = tangents if isinstance(tangents, tuple) else (tangents,)
    for output, tangent in zip(outputs, tangents):
        if isinstance(output, Tensor) and isinstance(tangent, Tensor):
            level.attach(output, tangent)


def _check_saveable(to_save):
    """``save_for_backward`` takes tensors and None only (checked after ``forward`` when a graph
    is recorded, as PyTorch does)."""
    for i, t in enumerate(to_save):
        if t is not None and not isinstance(t, Tensor):
            raise TypeError(f"save_for_backward can only save variables, but argument {i} is "
                            f"of type {type(t).__name__}")


def _save(tensor, outputs):
    if tensor is None:
        return None, 0
    hooks = grad_mode._state.saved_tensors_hooks
    if hooks:
        return PackedTensor(tensor, hooks[-1]), None
    for i, out in enumerate(outputs):
        if out is tensor and out._grad_fn is not None:
            return _SavedOutput(out, i), out._version_counter.value
    return tensor, tensor._version_counter.value


def _differentiable(ctx, out):
    """Only floating and complex tensors not marked non-differentiable are."""
    return (isinstance(out, Tensor) and id(out) not in ctx._non_differentiable
            and out._array.dtype.kind in "fc")


def _unrecorded(ctx, out, inputs):
    """An output when no graph is recorded: an input returned as it is comes back as an alias
    that does not require grad (a dirty one that does not require grad, as it is); a view of an
    input that requires grad may not be written in place with grad mode on, as a view made under
    no_grad, with PyTorch's words for a custom Function's."""
    if not isinstance(out, Tensor):
        return out
    if any(out is t for t in inputs):
        dirty = any(out is d for d in ctx._dirty)
        return out if dirty and not out._requires_grad else out.detach()
    if out._view_made_without_grad is not None:
        out._custom_function_view = (type(ctx).__name__.removesuffix("Backward"), False)
    return out


def _attach(ctx, index, out, inputs, n_outputs, several_views):
    """Make ``out`` the ``index``-th output of ``ctx``'s node."""
    if not isinstance(out, Tensor):
        return out
    if not _differentiable(ctx, out):
        # an input that requires grad comes back as a detached alias: the caller's tensor
        # keeps its history
        return out.detach() if out._requires_grad and any(out is t for t in inputs) else out
    if any(out is d for d in ctx._dirty):
        return _rebase_dirty(ctx, index, out, n_outputs)
    if any(out is t or np.may_share_memory(out._array, t._array) for t in inputs):
        if any(out is t for t in inputs):
            out = out.detach()  # an input returned unchanged becomes a new tensor of the graph
        # a view of an input: writing into it in place would bypass this node's backward
        out._custom_function_view = (type(ctx).__name__.removesuffix("Backward"), several_views)
        out._view_made_without_grad = None  # made under forward's no_grad, yet ctx's output
    out._grad_fn, out._output_nr, out._requires_grad = ctx, index, True
    return out


def _rebase_dirty(ctx, index, out, n_outputs):
    """A tensor ``forward`` modified in place gets ``ctx``'s node as its history, as after an
    in-place op: through its base's CopySlices when it is a view."""
    from ..ops.inplace import carry_retained_grad, rebase_view_history
    _check_dirty(out)
    if out._base is not None:
        if n_outputs > 1:
            raise RuntimeError(DIRTY_VIEW_OF_SEVERAL_OUTPUTS_ERROR)
        rebase_view_history(out, ctx)
        return out
    old_node, old_output_nr = out._grad_fn, out._output_nr
    out._grad_fn, out._output_nr, out._requires_grad = ctx, index, True
    carry_retained_grad(out, old_node, old_output_nr)
    return out


DIRTY_VIEW_OF_SEVERAL_OUTPUTS_ERROR = (
    "If your Function modifies inplace an input that is a view of another Tensor, your Function "
    "cannot return more than one Tensor. This is not supported by the current autograd engine. "
    "You should either make sure the input is not a view (using .clone() for example) or make "
    "your Function only return one Tensor (potentially splitting it into two Functions: one doing "
    "the inplace that returns a single Tensor and a second one that does the other operations). "
    "You can ask on the forum https://discuss.pytorch.org/ if you need help to do this change.")


def _check_dirty_returned(dirty, outputs):
    """Every tensor ``mark_dirty`` names must be an output (checked with or without a graph)."""
    if any(not any(d is o for o in outputs) for d in dirty):
        raise RuntimeError("Some elements marked as dirty during the forward method were not "
                           "returned as output. The inputs that are modified inplace must all be "
                           "outputs of the Function.")


def _check_dirty(out):
    """A tensor the forward modified in place may not be a leaf that requires grad (PyTorch's
    words differ from an in-place op's here: "has been used"), nor a view of one."""
    if out._grad_fn is None and out._requires_grad:
        raise RuntimeError(
            "a leaf Variable that requires grad has been used in an in-place operation.")
    base = out._base
    if base is not None and base._grad_fn is None and base._requires_grad:
        raise RuntimeError(VIEW_OF_LEAF_INPLACE_ERROR)


def once_differentiable(backward):
    """Mark a backward as not differentiable again: it runs under ``no_grad``. Under
    ``create_graph``, when a gradient it receives requires grad, its results do too, as
    PyTorch's do: through a DelayedError node that raises if a backward ever reaches it."""
    def wrapper(ctx, *grads):
        with grad_mode.no_grad():
            outputs = backward(ctx, *grads)
        if not grad_mode.is_grad_enabled() or not any(
                isinstance(g, Tensor) and g.requires_grad for g in grads):
            return outputs
        several = isinstance(outputs, tuple)
        return _delayed_error(outputs if several else (outputs,), several)
    wrapper.__name__ = backward.__name__
    return wrapper


class Error(Node):
    """PyTorch's DelayedError node (named ``Error``), made by a once-differentiable backward for
    its results: differentiating them is an error. Its inputs are detached aliases of the results
    (as PyTorch's), so it lies on no path to anything else, and only a backward started from its
    outputs runs it."""

    __slots__ = ()
    qualified_name = "torch::autograd::Error"

    def apply(self, grads):
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")


def _delayed_error(outputs, several):
    leaves = [None if o is None else Tensor._make(o._array).requires_grad_(True)
              for o in outputs]
    node = Error(tuple((None, 0) if leaf is None else (AccumulateGrad.of(leaf), 0)
                              for leaf in leaves))
    results = tuple(None if o is None else Tensor._make(o._array, node, i)
                    for i, o in enumerate(outputs))
    return results if several else results[0]
