"""Forward-mode AD (``torch.autograd.forward_ad``): dual tensors carry a tangent through each
operation, giving a Jacobian-vector product in one forward pass.

Inside ``dual_level()``, every primitive call of the op table passes through ``_Propagator``.
When an input carries a tangent, the output's tangent is the operation's Jacobian applied to the
input tangents. tapegrad writes each operation's derivative once, as a vector-Jacobian product,
so the Jacobian-vector product is found from it: the VJP ``u -> J^T u`` is linear in ``u``, and
differentiating ``<J^T u, t>`` with respect to ``u`` gives ``J t`` (the "double-VJP" trick, done
per operation on the reverse engine). It is exact, and slower than dedicated forward rules.
Views apply themselves to the tangent, so a view's tangent is a view of its base's.

An in-place write changes the tangent as PyTorch's does: a write into a view writes its part of
the tangent of its *forward base* (the dual it was taken of: a ``make_dual`` result owns its
tangent, the tensor it views gets none), a tensor's own tangent is written in place, and a view
made before its base had a tangent reads its part of the one a write gave the base. So that no
write reaches another tensor's tangent, only a view's tangent ever aliases its input's.
"""

import contextlib
import re
import weakref
from collections import namedtuple

import numpy as np

from .._array_memory import same_elements_in
from ..ops import registry
from ..ops.creation import empty_strided
from ..tensor import Tensor
from . import function, grad_mode

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level",
           "make_dual", "unpack_dual"]

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])

_level = None  # the one active level (0), or None


def enter_dual_level():
    """Start a forward-AD level (PyTorch supports one at a time, and so does tapegrad)."""
    global _level
    if _level is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _level = _Propagator()
    _level.start()
    return 0


def exit_dual_level(*, level=None):
    """End the level: every tangent made in it is dropped."""
    global _level
    current = -1 if _level is None else 0  # PyTorch's numbering: -1 when no level is active
    if level is not None and level != current:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                           "was created. This is not supported.")
    if _level is None:
        raise RuntimeError("Dual level must be a positive number.")
    propagator, _level = _level, None
    propagator.stop()


class dual_level(contextlib.ContextDecorator):
    """``with dual_level(): ...`` — tangents live until the block ends."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc_info):
        exit_dual_level()


def _current_level():
    """PyTorch's number of the active level: 0, or -1 when none is."""
    return -1 if _level is None else 0


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` whose tangent is ``tangent`` (copied when its strides differ from
    ``tensor``'s, as PyTorch gives a tangent the primal's layout)."""
    level = _current_level() if level is None else level
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    check_differentiable_dtype(tensor, "primal")
    check_differentiable_dtype(tangent, "tangent")
    if level != 0:  # PyTorch supports one level, numbered 0
        raise RuntimeError("Invalid level given to _make_dual")
    if _level is None:
        raise RuntimeError("Trying to access a forward AD level with an invalid index. This "
                           "index was either not created or is already deleted.")
    if _tangent_of(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward "
                           "gradient at the same level 0 is not supported.")
    if tangent.shape != tensor.shape:
        raise RuntimeError("Trying to set a forward gradient that has a different size than "
                           "that of the original Tensor, this is not supported. Tensor is of "
                           f"size {list(tensor.shape)} while the given forward gradient is of "
                           f"size {list(tangent.shape)}.")
    with _level.paused():
        dual = tensor.view_as(tensor)
        tangent = tangent_laid_out_as(tensor, tangent)
    _level.attach(dual, tangent)
    _level.own_tangent(dual)  # not part of one ``tensor`` would have
    return dual


def tangent_laid_out_as(tensor, tangent):
    """``tangent`` with ``tensor``'s strides, copied there when they differ, as PyTorch lays out
    a tangent (so a primal whose elements overlap, an expanded one, refuses any other layout).
    ``torch.func``'s forward transforms call it too, for that refusal."""
    if tangent.stride() == tensor.stride():
        return tangent
    return empty_strided(tensor.shape, tensor.stride(), dtype=tangent.dtype).copy_(tangent)


def check_differentiable_dtype(tensor, role):
    """PyTorch's refusal of an integer or boolean primal or tangent in forward mode (also for
    ``torch.func.jvp``, ``linearize`` and ``jacfwd``)."""
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(f"Expected {role} to be floating point or complex, but got: "
                         f"{tensor.dtype}")


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)``: the primal is a view without the tangent; the tangent is None
    outside a level (or for a negative ``level``) or for a tensor that has none."""
    level = _current_level() if level is None else level
    if level < 0 or _tangent_of(tensor) is None:
        return UnpackedDualTensor(tensor, None)
    if level != 0:
        raise RuntimeError("Invalid level given to _fw_primal")
    with _level.paused():
        primal = tensor.view_as(tensor)
    _level.own_tangent(primal)  # a view without the tangent, not a view of it
    return UnpackedDualTensor(primal, tensor._fw_grad)


def _has_tangent_dtype(t):
    return isinstance(t, Tensor) and t._array.dtype.kind in "fc"


class _Propagator:
    """The op table's interceptor while a level is active: runs each primitive, then gives its
    floating outputs the tangent the inputs' tangents imply."""

    def __init__(self):
        self._outer = None
        self._carriers = []  # weak references to every tensor given a tangent
        self._written = {}  # id -> weak reference: tensors given a tangent by writes into views

    def start(self):
        self._outer = registry.set_interceptor(self)
        registry.inplace_observers.append(self.observe_inplace)
        function.forward_ad_level = self

    def stop(self):
        registry.set_interceptor(self._outer)
        registry.inplace_observers.remove(self.observe_inplace)
        function.forward_ad_level = None
        for ref in self._carriers:
            carrier = ref()
            if carrier is not None:
                carrier._fw_grad = None
                if isinstance(carrier, Tensor):
                    carrier.__dict__.pop("_fw_base", None)

    @contextlib.contextmanager
    def paused(self):
        """Run operations without propagating (the tangent arithmetic itself)."""
        registry.set_interceptor(self._outer)
        try:
            yield
        finally:
            registry.set_interceptor(self)

    def attach(self, tensor, tangent):
        tensor._fw_grad = tangent
        self._carriers.append(weakref.ref(tensor))

    def own_tangent(self, view):
        """Make ``view``'s tangent its own, not its part of its base's."""
        view._fw_base = None
        self._carriers.append(weakref.ref(view))

    def _attach_written(self, tensor, tangent):
        self.attach(tensor, tangent)
        self._written[id(tensor)] = weakref.ref(tensor)

    def given_tangent_by_writes(self, tensor):
        """Whether ``tensor`` got its tangent from a write into one of its views (so views
        made before then have their part of it)."""
        ref = self._written.get(id(tensor))
        return ref is not None and ref() is tensor

    def _run(self, primitive, inputs, params):
        if self._outer is not None:
            return self._outer(primitive, inputs, params)
        return primitive.apply(inputs, params)

    # -- out-of-place operations ---------------------------------------------------------------
    def __call__(self, primitive, inputs, params):
        result = self._run(primitive, inputs, params)
        tangents = [_tangent_of(t) for t in inputs]
        if all(t is None for t in tangents):
            return result
        outputs = result if isinstance(result, tuple) else (result,)
        with self.paused():
            out_tangents = _output_tangents(primitive, inputs, params, tangents)
        for output, tangent in zip(outputs, out_tangents):
            if tangent is not None and _has_tangent_dtype(output):
                self.attach(output, tangent)
                self._attach_to_saved_output(output, tangent)
                if _views_tangent(primitive, inputs):
                    output._fw_base = _forward_root(inputs)
        return result

    def _attach_to_saved_output(self, output, tangent):
        """A backward rule that reads the node's own output (exp, tanh ...) sees its tangent
        too, so that gradients computed inside the level carry tangents (forward over
        reverse)."""
        for entry in getattr(output._grad_fn, "_saved", None) or ():
            saved = entry[0] if entry is not None else None
            if type(saved) is registry._SavedOutput and saved._array is output._array:
                self.attach(saved, tangent)

    def record_inplace(self, primitive, target, others, params):
        if self._outer is not None:
            self._outer.record_inplace(primitive, target, others, params)

    # -- in-place operations ---------------------------------------------------------------------
    @contextlib.contextmanager
    def observe_inplace(self, primitive, target, others, params):
        """The tangent of ``target`` after the write, computed from the values before it."""
        tangents = [_tangent_of(t) for t in (target, *others)]
        if all(t is None for t in tangents) or not _has_tangent_dtype(target):
            yield
            return
        with self.paused():
            (new,) = _output_tangents(primitive, (target, *others), params, tangents)[:1]
            if new is None:
                new = Tensor._make(np.zeros_like(target._array))
        yield
        self._store_inplace_tangent(target, new)

    def _store_inplace_tangent(self, target, new):
        """A write into a view writes the same region of its forward base's tangent; a write
        into a tensor of its own writes its tangent in place when laid out as the tensor is
        (as PyTorch does: views of it, and a ``make_dual`` tangent, see the change)."""
        base = _forward_base(target)
        if base is None or not _has_tangent_dtype(base):
            old = target._fw_grad
            if old is not None and _writable_like(old, target, new):
                old._array[...] = new._array
            else:
                self._attach_written(target, new)
            return
        if base._fw_grad is None or base._fw_grad._array.strides != base._array.strides:
            laid_out = np.zeros_like(base._array)
            if base._fw_grad is not None:
                laid_out[...] = base._fw_grad._array
            self._attach_written(base, Tensor._make(laid_out))
        region = same_elements_in(target._array, base._array, base._fw_grad._array)
        region[...] = new._array
        self.attach(target, Tensor._make(region))


def _views_tangent(primitive, inputs):
    """Whether ``primitive`` makes its output's tangent a view of its one input's tangent."""
    return primitive.is_view and sum(isinstance(t, Tensor) for t in inputs) == 1


def _forward_base(tensor):
    """The tensor whose tangent a view's tangent is part of: the dual a view was taken of
    (not the tensor ``make_dual`` viewed, whose tangent it is not), else the view's base; None
    for a tensor whose tangent is its own."""
    return tensor.__dict__.get("_fw_base", tensor._base)


def _forward_root(inputs):
    """The forward base of a view of the one tensor among ``inputs``: that tensor's own, or
    the tensor itself when its tangent is its own."""
    source = next(t for t in inputs if isinstance(t, Tensor))
    base = _forward_base(source)
    return source if base is None else base


def _tangent_of(tensor):
    """``tensor``'s tangent. A view made before its base had one (``row = buf[0]``, then
    ``buf[1] = dual``) has as tangent its part of the base's, as in PyTorch."""
    if not isinstance(tensor, Tensor):
        return None
    if tensor._fw_grad is not None or _level is None:
        return tensor._fw_grad
    base = _forward_base(tensor)
    if base is None or not _level.given_tangent_by_writes(base) or not _has_tangent_dtype(tensor):
        return None
    memory = base._fw_grad._array
    if memory.strides != base._array.strides or not (memory.flags.c_contiguous
                                                     or memory.flags.f_contiguous):
        return None
    _level.attach(tensor, Tensor._make(same_elements_in(tensor._array, base._array, memory)))
    return tensor._fw_grad


def _writable_like(tangent, tensor, new):
    """Whether ``new`` can be written into ``tangent``'s memory: its own, laid out as
    ``tensor``'s, of ``new``'s dtype, and on no tape (reverse over forward needs the write
    recorded, so it is done out of place)."""
    array = tangent._array
    return (tangent._base is None and array.base is None and array.flags.writeable
            and array.strides == tensor._array.strides and array.dtype == new._array.dtype
            and not (tangent.requires_grad or new.requires_grad))


def _output_tangents(primitive, inputs, params, tangents):
    """Per output of ``primitive(*inputs)``: its tangent (None: none), given the inputs'.

    Where gradients are being recorded and a primal or tangent requires grad, the tangent is
    computed on the tape too (``create_graph``), so that a loss built from tangents can be
    differentiated with respect to parameters (reverse over forward)."""
    if _views_tangent(primitive, inputs):
        return _as_tuple(primitive.apply([tangents[0]], params))  # linear: a view of the tangent
    if primitive.name in _WITHOUT_FORWARD_FORMULA:
        raise _refuse_forward_mode(primitive)
    on_tape = grad_mode.is_grad_enabled() and any(
        isinstance(t, Tensor) and t.requires_grad for t in (*inputs, *tangents))
    with grad_mode.enable_grad():
        wrt, wrt_tangents, copies = [], [], []
        for t, tangent in zip(inputs, tangents):
            if not isinstance(t, Tensor):
                copy = t
            elif tangent is not None and _has_tangent_dtype(t):
                copy = t.view_as(t) if on_tape and t.requires_grad else \
                    t.detach().requires_grad_(True)
                wrt.append(copy)
                wrt_tangents.append(tangent)
            else:
                copy = t if on_tape else t.detach()
            copies.append(copy)
        outputs = _as_tuple(primitive.apply(copies, params))
        differentiable = [o for o in outputs if isinstance(o, Tensor) and o.requires_grad]
        if not differentiable:
            return (None,) * len(outputs)
        from .engine import grad
        from .functional import transpose_point
        cotangents = [transpose_point(o) for o in differentiable]
        with _no_forward_formula(primitive, "vjp"):
            vjps = grad(differentiable, wrt, cotangents, create_graph=True, allow_unused=True)
        pairs = [(v, t) for v, t in zip(vjps, wrt_tangents) if v is not None and v.requires_grad]
        with _no_forward_formula(primitive, "jvp"):
            jvps = grad([v for v, _ in pairs], cotangents, [t for _, t in pairs],
                        create_graph=on_tape, allow_unused=True) if pairs else \
                [None] * len(cotangents)
    by_output = {id(o): _unaliased(j, tangents) if j is not None else
                 Tensor._make(np.zeros_like(o._array)) for o, j in zip(differentiable, jvps)}
    return tuple(by_output.get(id(o)) if isinstance(o, Tensor) else None for o in outputs)


# PyTorch's names for operations whose tapegrad primitive is named otherwise
_ATEN_NAMES = {"cdist": "_cdist_forward", "pdist": "_pdist_forward", "ctc_loss": "_ctc_loss",
               "scaled_dot_product_flash_attention": "_scaled_dot_product_flash_attention_for_cpu",
               "embedding_bag": "_embedding_bag", "embedding_bag_max": "_embedding_bag",
               "multilabel_margin_loss": "multilabel_margin_loss_forward"}
# Differentiable operations PyTorch gives no forward formula
_WITHOUT_FORWARD_FORMULA = {"embedding_bag", "embedding_bag_max", "multi_margin_loss",
                            "multilabel_margin_loss", "segment_reduce", "index_reduce"}
_NO_DERIVATIVE = re.compile(r"derivative for (aten::(\S+)|.*) is not implemented")


def _refuse_forward_mode(primitive):
    """PyTorch's error for an operation it has a derivative for but no forward formula."""
    return NotImplementedError(
        f"Trying to use forward AD with {_ATEN_NAMES.get(primitive.name, primitive.name)} that "
        "does not support it because it has not been implemented yet.\nPlease file an issue to "
        "PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml "
        "so that we can prioritize its implementation or submit a PR adding the implementation "
        "to derivatives.yaml")


@contextlib.contextmanager
def _no_forward_formula(primitive, stage):
    """The jvp is found by differentiating the operation (``stage`` "vjp"), then its backward
    ("jvp"). Where one of them has no derivative, PyTorch has no forward formula for the
    operation either, and says so: briefly for an operation without any derivative."""
    try:
        yield
    except (RuntimeError, NotImplementedError) as error:
        found = _NO_DERIVATIVE.search(str(error))
        if found is None:
            raise
        # an operation without any derivative is refused in PyTorch's words for an aten::
        # operation (its NotImplemented node's message names it so)
        if stage == "vjp" and (getattr(error, "no_derivative", False) or found.group(2)):
            raise NotImplementedError(f"Trying to use forward AD with aten::{found.group(2)} that "
                                      "does not support it.") from None
        raise _refuse_forward_mode(primitive) from None


def lacks_second_derivative(error):
    """Whether ``error`` is the refusal of a derivative, which the double-vjp trick of
    ``torch.func``'s forward transforms meets where PyTorch's forward mode has its own error."""
    return (isinstance(error, (RuntimeError, NotImplementedError))
            and _NO_DERIVATIVE.search(str(error)) is not None)


def may_lack_forward_formula(outputs):
    """Whether the graph of ``outputs`` records an operation PyTorch has no forward formula for,
    or an ``autograd.Function`` without a ``jvp`` rule (whose double vjp works: the forward
    transforms, which use it, look for them so)."""
    refused = tuple({registry.PRIMITIVES[name].node_class for name in _WITHOUT_FORWARD_FORMULA})
    pending = [t.grad_fn for t in outputs if isinstance(t, Tensor) and t.grad_fn is not None]
    seen = set()
    while pending:
        node = pending.pop()
        if node is None or id(node) in seen:
            continue
        custom = getattr(node, "_function", None)
        if isinstance(node, refused) or (custom is not None and custom.jvp is function.Function.jvp):
            return True
        seen.add(id(node))
        pending.extend(child for child, _ in node.next_functions)
    return False


def forward_mode_error(call, primals, tangents):
    """The error PyTorch's forward mode raises for ``call(duals)``, the ``primals`` made dual
    with ``tangents`` (None: zeros); None when it raises none or a level is already active.
    The forward transforms call it again so only when their own derivative failed."""
    if _level is not None:
        return None
    pairs = [(p.detach(), t.detach() if t is not None else p.new_zeros(p.shape))
             for p, t in zip(primals, tangents)]
    with dual_level():
        duals = [make_dual(p, t) for p, t in pairs]
        try:
            call(duals)
        except (RuntimeError, NotImplementedError) as error:
            return error
    return None


def _unaliased(tangent, input_tangents):
    """``tangent``, copied if it shares memory with an input's tangent (the engine passes a
    gradient through unchanged where it can): only a view's tangent may alias its input's, so
    that an in-place write to one tangent never changes another."""
    shares = any(isinstance(t, Tensor) and np.may_share_memory(tangent._array, t._array)
                 for t in input_tangents)
    return tangent.clone() if shares else tangent


def _as_tuple(result):
    return result if isinstance(result, tuple) else (result,)
