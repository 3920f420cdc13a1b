"""In-place operations (``add_``, ``x -= y``, ``x[i] = v`` …) on top of the out-of-place table.

An in-place op writes into the tensor's own memory (so its views see the change), bumps the shared
version counter (so a backward step that saved the old value refuses to run), and, when autograd is
involved, re-points the tensor's ``grad_fn`` at the new node, as PyTorch's ``rebase_history`` does.
"""
import contextlib

import numpy as np

from .. import dtypes
from .._array_memory import address, same_elements_in
from ..memory_format import is_non_overlapping_and_dense
from .._warnings import keep_numpy_quiet, warn_at_caller
from ..autograd import grad_mode
from ..autograd.graph import AccumulateGrad, Node
from ..tensor import (_LEGACY_TYPE_NAMES, LEAF_INPLACE_ERROR, META_COPY_ERROR,
                      VIEW_OF_LEAF_INPLACE_ERROR, Tensor)
from . import elementwise as ew
from . import registry
from .operands import (CPP_TYPE_NAMES, as_tensor_operand, broadcast_error, cast_operand,
                       checked_number, half_opmath_scalar, is_operand, not_a_tensor,
                       wrapped_number)
from . import shape as shape_ops

__all__ = ["apply_inplace", "add_", "sub_", "mul_", "div_", "pow_", "clamp_", "clamp_min_",
           "clamp_max_", "neg_", "exp_", "log_", "sqrt_", "abs_", "tanh_", "sigmoid_", "relu_",
           "sin_", "cos_", "zero_", "fill_", "copy_", "uniform_", "normal_", "t_", "transpose_",
           "swapdims_", "swapaxes_", "unsqueeze_", "squeeze_", "floor_divide_", "remainder_",
           "square_", "floor_", "ceil_", "round_", "sign_", "reciprocal_", "logical_and_",
           "logical_or_", "logical_xor_", "logical_not_", "clip_", "absolute_", "negative_",
           "subtract_", "multiply_", "divide_", "true_divide_", "nan_to_num_", "eq_", "ne_", "lt_",
           "le_", "gt_", "ge_", "less_", "less_equal_", "greater_", "greater_equal_"]


def apply_inplace(prim, target, others, params):
    """Apply ``prim(target, *others, **params)`` and store the result in ``target``."""
    keep_numpy_quiet()
    if registry.inplace_observers:  # a profiler, forward-mode AD
        with contextlib.ExitStack() as observed:
            for observer in registry.inplace_observers:
                observed.enter_context(observer(prim, target, others, params))
            return _apply_inplace(prim, target, others, params)
    return _apply_inplace(prim, target, others, params)


def _apply_inplace(prim, target, others, params):
    if target._inference and not grad_mode._state.inference:
        raise RuntimeError(INFERENCE_INPLACE_ERROR)
    grad_enabled = grad_mode._state.grad_enabled
    if grad_enabled and target._view_made_without_grad is not None:
        raise RuntimeError(_no_grad_view_error(target))
    recording = grad_enabled and (target._requires_grad or any(o._requires_grad for o in others))
    if grad_enabled and target._requires_grad:
        _check_inplace_allowed(target)
    if recording and target._base is not None:
        return _apply_on_view(prim, target, others, params)

    source = target
    if recording and 0 in prim.positions_to_save(
            (target._requires_grad, *[o._requires_grad for o in others])):
        # the rule needs the value from before the write
        source = Tensor._make(target._array.copy(), target._grad_fn, target._output_nr)
        source._requires_grad = target._requires_grad
        source._grad_accumulator = target._grad_accumulator
    arrays = [o._array for o in others]
    version = target._version_counter.value
    _write(prim, target, arrays, params)
    target._version_counter.value += 1
    if registry._interceptor is not None:  # a tracing compiler records the write as well
        registry._interceptor.record_inplace(prim, target, others, params)
    if recording:
        old_node, old_output_nr = target._grad_fn, target._output_nr
        prim._record((source, *others), params, target)
        _saved_as_before_write(prim, target, others, version)
        carry_retained_grad(target, old_node, old_output_nr)
    return target


def _saved_as_before_write(prim, target, others, version):
    """An operand that shares the target's memory (``v.mul_(v)``) is saved with the version it
    had before the write: PyTorch saves operands first, so its backward refuses the overwritten
    values ("modified by an inplace operation") instead of differentiating with them."""
    node, counter = target._grad_fn, target._version_counter
    if not any(o._version_counter is counter for o in others) or not node._saved:
        return
    positions = prim.positions_to_save(node.needs_input_grad)
    node._saved = tuple(
        (entry[0], version) if position is not None and position >= 1 and entry is not None
        and entry[1] is not None and others[position - 1]._version_counter is counter else entry
        for position, entry in zip(positions, node._saved))


# Which history should the write get: the base's (recorded) or none (the view's)? PyTorch
# refuses to guess. Keyed by the mode the view was made in.
NO_GRAD_VIEW_INPLACE_ERRORS = {
    mode: f"A view was created in {made} and is being modified inplace {now}. Given that this "
    "use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving "
    f"both the view and the inplace either both inside the {block} block (if you don't want the "
    "inplace to be tracked) or both outside (if you want the inplace to be tracked)."
    for mode, made, now, block in (
        ("no_grad", "no_grad mode", "with grad mode enabled", "no_grad"),
        ("inference_mode", "inference mode", "in normal mode", "inference_mode"))}


def _no_grad_view_error(view):
    custom_function = view.__dict__.get("_custom_function_view")
    if custom_function is None:
        return NO_GRAD_VIEW_INPLACE_ERRORS[view._view_made_without_grad]
    return ("A view was created in no_grad mode and is being modified inplace with grad mode "
            f"enabled. {MULTIPLE_VIEWS_RULE if custom_function[1] else CUSTOM_FUNCTION_VIEW_RULE}")


def _inplace_view(node_name, view):
    """The in-place form of a view (``t_``, ``unsqueeze_`` …): the tensor takes the view's
    shape and strides; its history becomes the view's node, under PyTorch's name for it (a
    name, or a function of the arguments)."""
    def op(input, *args):
        if grad_mode._state.grad_enabled and input._requires_grad:
            _check_inplace_allowed(input)
        result = view(input, *args)
        input._array = result._array
        if result._fw_grad is not None:  # (forward AD: the tangent takes the new shape too; the
            input._fw_grad = result._fw_grad  # tensor carries one already, so the level clears it)
        node = result._grad_fn
        if node is not None:
            name = node_name if isinstance(node_name, str) else node_name(*args)
            node.__class__ = node.primitive.variant_node_class(name)
            input._grad_fn, input._output_nr, input._requires_grad = node, 0, True
        input._version_counter.value += 1
        if input._view_version is not None and node is not None:
            # a view given its own node keeps it; without one (under no_grad) its history goes
            # stale and is regenerated from its base
            input._view_version = input._version_counter.value
        return input
    op.__name__ = view.__name__ + "_"
    return op


t_ = _inplace_view("TBackward1", shape_ops.t)
transpose_ = _inplace_view("TransposeBackward1", shape_ops.transpose)
swapdims_ = swapaxes_ = transpose_
unsqueeze_ = _inplace_view("UnsqueezeBackward1", shape_ops.unsqueeze)
squeeze_ = _inplace_view(lambda dim=None: "SqueezeBackward3" if dim is None else
                         "SqueezeBackward4", shape_ops.squeeze)


INFERENCE_INPLACE_ERROR = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone "
    "to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 "
    "for more details.")


def _apply_on_view(prim, view, others, params):
    """An in-place op on a view, recorded on its base as PyTorch's CopySlices.

    The op runs out of place on a copy of the viewed region (taken from the base's current
    history), the result is written through the view, and the base's history becomes a
    ``CopySlices`` node wrapping the op's node: gradients reach the old base outside the region,
    and through the op inside it. The view's own ``grad_fn`` is regenerated from the new base
    (AsStridedBackward0).
    """
    base = view._base
    placement = _writable_view_placement(view)
    region = shape_ops._strided_region(_in_memory_order(base, placement[1]),
                                       geometry=placement[0])
    result = prim(region, *others, **params)
    if result._array.shape != view._array.shape:
        raise RuntimeError(f"output with shape {list(view._array.shape)} doesn't match the "
                           f"broadcast shape {list(result._array.shape)}")
    if has_internal_overlap(view._array):
        _write(prim, view, [o._array for o in others], params)  # expanded: only what it writes
    else:
        _write(shape_ops._copy_slices, view, [result._array], {"key": ((), None)})
    view._version_counter.value += 1
    if registry._interceptor is not None:
        registry._interceptor.record_inplace(prim, view, others, params)
    if result._grad_fn is not None and result._grad_fn._saved:
        _saved_outputs_are_the_view(result._grad_fn, view)
    if result._grad_fn is None:  # an integer result: the region's old values get no gradient
        if placement[1] is not None:
            raise RuntimeError(_NON_CONTIGUOUS_BASE_ERROR)
        shape_ops._copy_slices._record((base, result),
                                       {"key": shape_ops.strided_key(placement[0])}, base)
        _record_view_of_base(view, base, placement)
    else:
        rebase_view_history(view, result._grad_fn, placement)
    return view


def _saved_outputs_are_the_view(node, view):
    """The op's saved output (``tanh_``, ``sigmoid_``, ``exp_`` …) is, as in PyTorch, the view
    written to: a later write to the view or its base makes the backward refuse to run."""
    version = view._version_counter.value
    saved = []
    for entry in node._saved:
        if entry is not None and type(entry[0]) is registry._SavedOutput:
            entry[0]._version_counter = view._version_counter
            entry = entry[0], version
        saved.append(entry)
    node._saved = tuple(saved)


_NON_CONTIGUOUS_BASE_ERROR = (
    "tapegrad: an in-place operation on a view of a non-contiguous tensor that requires grad is "
    "not supported; apply it to a contiguous tensor or out of place")


def _writable_view_placement(view):
    placement = _view_placement(view._array, view._base._array)
    if placement is None:
        raise RuntimeError(_NON_CONTIGUOUS_BASE_ERROR)
    return placement


def _in_memory_order(base, order):
    """``base`` with its dims in memory order (as a C-contiguous tensor lays them out)."""
    return base if order is None else base.permute(order)


def rebase_view_history(view, node, placement=None):
    """Record a write through ``view`` by ``node`` (whose first input was the view's old value)
    on the view's base, as PyTorch's rebase_history: the base's history becomes ``CopySlices``
    wrapping ``node``, the view's its region of the new base."""
    base = view._base
    placement = placement or _writable_view_placement(view)
    base_edge = (base._grad_fn, base._output_nr) if base._grad_fn is not None else \
        (AccumulateGrad.of(base), 0) if base._requires_grad else (None, 0)
    base._grad_fn, base._requires_grad = CopySlices(base_edge, node, *placement), True
    if base._output_nr:
        base._output_nr = 0
    carry_retained_grad(base, *base_edge)
    _record_view_of_base(view, base, placement)


def regenerate_view_history(view):
    """Give a view whose base was written to in place since its history was recorded the
    history of its region of the base as it is now (AsStridedBackward0), as PyTorch does when a
    stale view's grad_fn is read: its gradient must reach what the base holds now."""
    if _is_multi_view_output(view):  # PyTorch cannot regenerate these: their use is an error
        raise RuntimeError(_multi_view_error(
            view, "its base or another view of its base has been modified inplace"))
    base = view._base
    placement = _view_placement(view._array, base._array)
    if placement is None:
        view._view_version = view._version_counter.value  # nothing newer to point at
        return
    _record_view_of_base(view, base, placement)
    if not base._requires_grad:  # (detached in place since): the gradient goes nowhere
        view._grad_fn.next_functions = ((None, 0),)


def _record_view_of_base(view, base, placement):
    old_node, old_output_nr = view._grad_fn, view._output_nr
    geometry, order = placement
    shape_ops._strided_region._record((_in_memory_order(base, order),), {"geometry": geometry},
                                      view)
    view._view_version = view._version_counter.value
    carry_retained_grad(view, old_node, old_output_nr)


def carry_retained_grad(tensor, old_node, old_output_nr):
    """Move ``retain_grad``'s hook from the node that made ``tensor`` to the one an in-place op
    just gave it, as PyTorch does: ``.grad`` is then the gradient of the new value."""
    if tensor._retains_grad and old_node is not tensor._grad_fn:
        for hook in old_node._hooks.retain_grad.pop(old_output_nr, ()):
            tensor._grad_fn._add_tensor_pre_hook(tensor._output_nr, hook, retain_grad=True)


class CopySlices(Node):
    """PyTorch's CopySlices: a base's history after an in-place op on one of its views.

    It wraps the op's own node ``fn``, whose first input was the view's region: the base's
    gradient passes to the old base unchanged outside the region; inside it, ``fn`` turns it into
    the gradient of the region's old values (put back in its place) and the gradients of the op's
    other inputs, which are this node's further edges, as PyTorch folds them.
    """

    __slots__ = ("fn", "geometry", "order")
    qualified_name = "torch::autograd::CopySlices"

    def __init__(self, base_edge, fn, geometry, order=None):
        super().__init__((base_edge, *fn.next_functions[1:]))
        self.fn, self.geometry, self.order = fn, geometry, order

    def apply(self, grads):
        grad = _in_memory_order(grads[0], self.order)
        shape, strides, _ = self.geometry
        if _overlapping(shape, strides):
            raise RuntimeError(OVERLAP_ERROR)  # PyTorch copies into the expanded region too
        key = shape_ops.strided_key(self.geometry)
        region_grads = self.fn.apply((shape_ops._strided_region(grad, geometry=self.geometry),))
        inner = region_grads[0]
        if inner is None:
            inner = Tensor._make(np.zeros((), grad._array.dtype))
        grad = shape_ops._copy_slices(grad, inner, key=key)
        if self.order is not None:
            grad = grad.permute(tuple(np.argsort(self.order)))
        return (grad, *region_grads[1:])

    def release(self):
        self.fn.release()

    @property
    def was_freed(self):
        return self.fn.was_freed


def _view_placement(view, base):
    """Where ``view`` lies in its dense base: ``(shape, strides, offset)`` in elements of the
    base's memory, and the order of the base's dims in memory (None when C's): a base laid out
    otherwise (a transposed result) is described with its dims in that order. None for a base
    with gaps or overlaps, where no such description exists."""
    order = None
    if not base.flags.c_contiguous:
        order = tuple(sorted(range(base.ndim), key=lambda dim: -base.strides[dim]))
        if not base.transpose(order).flags.c_contiguous:
            return None
    itemsize = base.itemsize
    offset = address(view) - address(base)
    geometry = view.shape, tuple(stride // itemsize for stride in view.strides), offset // itemsize
    return geometry, order


OVERLAP_ERROR = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation.")

# Ops PyTorch lets write into an expanded tensor: a scalar fill writes one value wherever it
# writes; these index/mask writes do it with a deprecation warning (named after the op).
_OVERLAP_EXEMPT = frozenset(("fill", "zero"))
_OVERLAP_DEPRECATED = {"masked_fill": "masked_fill_", "masked_fill_tensor": "masked_fill_",
                       "index_fill": "index_fill_", "index_fill_tensor": "index_fill_",
                       "index_put_accumulate": "index_put_"}
_OVERLAP_EXAMPLES = {"index_put_": "tensor[indices] = tensor"}


def has_internal_overlap(array):
    """PyTorch's MemOverlap::Yes: a dimension of more than one element with stride 0."""
    return 0 in array.strides and _overlapping(array.shape, array.strides)


def _overlapping(shape, strides):
    """Never for an empty region, whose strides numpy may leave at 0."""
    return 0 not in shape and any(stride == 0 and size > 1 for stride, size in zip(strides, shape))


def _check_overlap(prim, out, params):
    """PyTorch's rule for writes into tensors whose elements share memory (``expand``): refused,
    except for scalar fills and (deprecated) index and mask writes."""
    name = prim.name
    if name in _OVERLAP_EXEMPT:
        return
    if getattr(prim, "inplace", None) is shape_ops._put_inplace:  # x[key] = v writes a region
        steps, advanced = params["key"]
        out = shape_ops._view_of(out, steps)
        name = None if advanced is None else "index_put_"
    else:
        name = _OVERLAP_DEPRECATED.get(name)
    if not has_internal_overlap(out):
        return
    if name is None:
        raise RuntimeError(OVERLAP_ERROR)
    warn_at_caller(f"Use of {name} on expanded tensors is deprecated. Please clone() the tensor "
                   "before performing this operation. This also applies to advanced indexing "
                   f"e.g. {_OVERLAP_EXAMPLES.get(name, 'tensor[mask] = scalar')}")


PARTIAL_OVERLAP_ERROR = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
    "single memory location. Please clone() the tensor before performing the operation.")


def _check_partial_overlap(out, operands):
    """PyTorch's assert_no_partial_overlap: an operand sharing some but not all of the written
    tensor's memory (``a[1:].copy_(a[:-1])``, ``m.add_(m.t())``), which an elementwise kernel
    would read after writing it, is refused. The same memory in the same layout (``a.add_(a)``)
    is fine, and so are layouts PyTorch cannot judge (not dense, or empty)."""
    owner = out if out.base is None else out.base
    for operand in operands:
        if operand is out or (operand if operand.base is None else operand.base) is not owner:
            continue  # (arrays with different owners share no memory: the common case, cheap)
        if not (out.size and operand.size and is_non_overlapping_and_dense(out)
                and is_non_overlapping_and_dense(operand)):
            continue
        start, operand_start = address(out), address(operand)
        end, operand_end = start + out.nbytes, operand_start + operand.nbytes
        if (start, end) == (operand_start, operand_end):
            if operand.strides != out.strides:
                raise RuntimeError(PARTIAL_OVERLAP_ERROR)
        elif start < operand_end and operand_start < end:
            raise RuntimeError(PARTIAL_OVERLAP_ERROR)


def _writable(out):
    """``out``, or a writable alias of it when it is read-only only because it is expanded
    (numpy's broadcast views); a truly read-only array stays as it is."""
    if out.flags.writeable:
        return out
    alias = out.view()
    try:
        alias.flags.writeable = True
    except ValueError:  # a view of an expanded view (``x.unsqueeze(0).expand(2, ...)[0]``)
        return _on_writable_owner(out)
    return alias


def _on_writable_owner(out):
    """``out`` rebuilt on the memory it views, when only a view between them is read-only
    (numpy refuses to make a view of a read-only view writable); as it is when the memory
    itself is read-only."""
    owner = out
    while owner.base is not None:
        base = owner.base
        if not isinstance(base, np.ndarray):  # numpy's as_strided holds its array in a wrapper
            base = getattr(base, "base", None)
        if not isinstance(base, np.ndarray):
            break
        owner = base
    if not owner.flags.writeable:
        return out
    try:
        return same_elements_in(out, owner, owner)
    except (TypeError, ValueError):  # memory numpy cannot rebuild a view on
        return out


def _write(prim, target, arrays, params):
    if target._meta:  # no data to write: the write is checked and recorded, as in PyTorch
        return
    out = target._array
    if 0 in out.strides:
        _check_overlap(prim, out, params)
    if arrays:
        if getattr(prim, "inplace", None) is not shape_ops._put_inplace:
            _check_partial_overlap(out, arrays)
        elif params["key"][1] is None:  # x[a:b] = value writes that region only
            _check_partial_overlap(shape_ops._view_of(out, params["key"][0]), arrays)
    if not out.flags.writeable:
        out = _writable(out)
    try:
        if prim.ufunc is not None and not params:
            prim.ufunc(out, *arrays, out=out, casting="same_kind")
        elif getattr(prim, "inplace", None) is not None:
            prim.inplace(out, *arrays, **params)
        else:
            result = prim.forward(out, *arrays, **params)
            if np.shape(result) != out.shape:
                raise ValueError("shape")
            np.copyto(out, result, casting="same_kind")
    except ValueError as exc:
        if "read-only" in str(exc):
            raise RuntimeError(OVERLAP_ERROR) from None
        if not arrays and prim.error is None:
            raise
        raise RuntimeError(_shape_message(prim, target, arrays, params)) from None
    except TypeError:  # numpy's casting refusal
        raise RuntimeError(_cast_message(target, arrays)) from None


def _shape_message(prim, target, arrays, params):
    """Why the operands do not fit into ``target``, in PyTorch's words."""
    inputs = (target, *[Tensor._make(a) for a in arrays])
    if arrays and getattr(prim, "inplace", None) is not shape_ops._put_inplace:  # not indexed
        try:
            shape = np.broadcast_shapes(target._array.shape, *(a.shape for a in arrays))
        except ValueError:
            shape = None
        if shape is not None and shape != target._array.shape:
            return (f"output with shape {list(target._array.shape)} doesn't match the broadcast "
                    f"shape {list(shape)}")
    return (prim.error or broadcast_error)(inputs, params)


def _cast_message(target, arrays):
    got = _LEGACY_TYPE_NAMES[(arrays[0].dtype if arrays else
                              dtypes.get_default_dtype().numpy).name]
    return (f"result type {got} can't be cast to the desired output type "
            f"{_LEGACY_TYPE_NAMES[target._array.dtype.name]}")


def _is_multi_view_output(view):
    """Is ``view`` one of the views a single op returned (split, chunk, unbind), or a view of
    one (PyTorch's views inherit the restriction)? Walks the view ops back to its base."""
    base = view._base
    if base is None:  # (unsafe_split's pieces are no views)
        return False
    node = view._grad_fn
    while node is not None and node is not base._grad_fn:
        primitive = getattr(node, "primitive", None)
        if primitive is None or not primitive.is_view:
            return False
        if primitive.n_outputs is None:
            return True
        node = node.next_functions[0][0]
    return False


MULTIPLE_VIEWS_RULE = (
    "This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation by an "
    "out-of-place one.")


CUSTOM_FUNCTION_VIEW_RULE = (
    "This view was created inside a custom Function (or because an input was returned as-is) and "
    "the autograd logic to handle view+inplace would override the custom backward associated with "
    "the custom Function, leading to incorrect gradients. This behavior is forbidden. You can fix "
    "this by cloning the output of the custom Function.")


def _multi_view_error(view, what):
    return (f"Output {view._output_nr} of {view._grad_fn.name()[:-len('Backward0')]} is a view "
            f"and {what}. {MULTIPLE_VIEWS_RULE}")


def _check_inplace_allowed(target):
    node = target._grad_fn
    if node is None:
        raise RuntimeError(LEAF_INPLACE_ERROR)
    if "_custom_function_view" in target.__dict__:
        function, several_views = target._custom_function_view
        raise RuntimeError(
            f"Output {target._output_nr} of {function} is a view and is being modified inplace. "
            f"{MULTIPLE_VIEWS_RULE if several_views else CUSTOM_FUNCTION_VIEW_RULE}")
    if _is_multi_view_output(target):
        raise RuntimeError(_multi_view_error(target, "is being modified inplace"))
    base = target._base
    if base is not None and base._grad_fn is None and base._requires_grad:
        raise RuntimeError(VIEW_OF_LEAF_INPLACE_ERROR)


def _binary_inplace(prim, scaled=None):
    """The in-place form of a binary primitive; ``scaled`` takes ``alpha`` (add_, sub_)."""
    opmath_scalar = half_opmath_scalar if prim in (ew._mul, ew._div) else _no_scalar

    def op(input, other, *, alpha=1):
        if scaled is not None:
            other = _dense_operand(input, other)
        if isinstance(alpha, Tensor) and scaled is not None:
            other, alpha = ew.scaled_by_tensor_alpha(op.__name__, other, alpha), 1
        if not is_operand(other):  # a list, an array: not converted, as in PyTorch
            raise not_a_tensor(op.__name__, "other", 1, other)
        scalar = opmath_scalar(input, other)
        other = _operand_into(input, other) if scalar is None else scalar
        if scaled is not None:
            ew.check_alpha(op.__name__, input._array.dtype, alpha)
        if alpha != 1:
            if scaled is None:
                raise TypeError(f"{op.__name__}() got an unexpected keyword argument 'alpha'")
            return apply_inplace(scaled, input, (other,), {"alpha": alpha})
        return apply_inplace(prim, input, (other,), {})
    op.__name__ = prim.name + "_"
    return op


def _no_scalar(target, other):
    return None


def _operand_into(target, other):
    """``other`` (a tensor or a number) in ``target``'s dtype, for an operation whose result is
    written into ``target``: PyTorch computes in the promoted type of both and refuses to write
    a result of a higher kind (a float into an integer tensor, an integer into a bool one)."""
    array = target._array
    if type(other) in (float, int) and array.dtype.kind == "f":
        return wrapped_number(other, array.dtype)  # the common case, at the tensor's precision
    if isinstance(other, Tensor) and other._array.dtype == array.dtype:
        return other
    other = as_tensor_operand(other)  # anything but a tensor or a number: a TypeError
    check_result_type(target, dtypes.result_type(target, other))
    return cast_operand(other, target.dtype)


def _cast_operand(other, target):
    """A tensor operand of an in-place op on ``target``, in its dtype (see ``_operand_into``)."""
    return _operand_into(target, other)


def check_result_type(target, result, names=_LEGACY_TYPE_NAMES):
    """PyTorch's refusal to write a result of dtype ``result`` into ``target`` (a lower kind of
    number); ``names`` spells the target's dtype (some kernels print its C++ name)."""
    if not dtypes.can_cast(result, target.dtype):
        raise RuntimeError(f"result type {_LEGACY_TYPE_NAMES[result.name]} can't be cast to the "
                           f"desired output type {names[target._array.dtype.name]}")


def _unary_inplace(prim, **fixed):
    def op(input, **params):
        return apply_inplace(prim, input, (), {**fixed, **params})
    op.__name__ = prim.name + "_"
    return op


add_ = _binary_inplace(ew._add, scaled=ew._add_alpha)
_sub_unchecked = _binary_inplace(ew._sub, scaled=ew._sub_alpha)
mul_ = _binary_inplace(ew._mul)
_neg_unchecked = _unary_inplace(ew._neg)
exp_ = _unary_inplace(ew._exp)
log_ = _unary_inplace(ew._log)
sqrt_ = _unary_inplace(ew._sqrt)
_real_abs_ = _unary_inplace(ew._abs)


def abs_(input):
    """|input| in place: a complex tensor cannot hold its real magnitudes (PyTorch refuses)."""
    if input._array.dtype.kind == "c":
        raise RuntimeError("In-place abs is not supported for complex tensors.")
    return _real_abs_(input)


absolute_ = abs_
tanh_ = _unary_inplace(ew._tanh)
sigmoid_ = _unary_inplace(ew._sigmoid)
_relu_unchecked = _unary_inplace(ew._relu)
_reciprocal_unchecked = _unary_inplace(ew._reciprocal)


def reciprocal_(input):
    """1 / input in place: a floating-point result, which PyTorch refuses to write into an
    integer or bool tensor (numpy's integer reciprocal would truncate it instead)."""
    check_result_type(input, dtypes.get_default_dtype())
    return _reciprocal_unchecked(input)


sign_ = _unary_inplace(ew.sign.primitive)
floor_ = _unary_inplace(ew.floor.primitive)
ceil_ = _unary_inplace(ew.ceil.primitive)
logical_not_ = _unary_inplace(ew.logical_not.primitive)
sin_ = _unary_inplace(ew._sin)
cos_ = _unary_inplace(ew._cos)
_div_same_dtype = _binary_inplace(ew._div)


def _dense_operand(input, other):
    """``other``, densified when it is sparse and ``input`` is not: a dense tensor adds (or
    subtracts) a sparse one into itself. (Only a Tensor subclass can be sparse: the common
    operands skip the property.)"""
    if type(other) is not Tensor and getattr(other, "is_sparse", False) and not input.is_sparse:
        return other.to_dense()
    return other


def sub_(input, other, *, alpha=1):
    other = _dense_operand(input, other)
    ew.check_bool_subtraction(input, other)
    return _sub_unchecked(input, other, alpha=alpha)


def neg_(input):
    ew.check_bool_negation(input)
    return _neg_unchecked(input)


negative_ = neg_


def relu_(input):
    ew.check_relu_input(input)
    return _relu_unchecked(input)


def round_(input, *, decimals=None):
    if decimals is None:  # (``decimals=0`` given is round.decimals, as in round)
        return apply_inplace(ew._round.primitive, input, (), {})
    return apply_inplace(ew._round_decimals, input, (), {"decimals": decimals})


def _logical_inplace(op):
    """``logical_and_`` and its siblings: the bool result written into the input's dtype (1 and
    0 in a float tensor); the operand keeps its own dtype."""
    def logical_(input, other):
        return apply_inplace(op.primitive, input, (as_tensor_operand(other),), {})
    logical_.__name__ = op.__name__ + "_"
    return logical_


logical_and_ = _logical_inplace(ew.logical_and)
logical_or_ = _logical_inplace(ew.logical_or)
logical_xor_ = _logical_inplace(ew.logical_xor)


subtract_ = sub_
multiply_ = mul_


def _comparison_inplace(op):
    """``ge_`` and its siblings: the comparison's truth written into ``input`` as 1 and 0 of its
    dtype (recorded with the comparison's node, whose gradient is zero)."""
    def compare_(input, other):
        return apply_inplace(op.primitive, input, (as_tensor_operand(other),), {})
    compare_.__name__ = op.__name__ + "_"
    return compare_


eq_ = _comparison_inplace(ew.eq)
ne_ = _comparison_inplace(ew.ne)
lt_ = less_ = _comparison_inplace(ew.lt)
le_ = less_equal_ = _comparison_inplace(ew.le)
gt_ = greater_ = _comparison_inplace(ew.gt)
ge_ = greater_equal_ = _comparison_inplace(ew.ge)


def written_back(function):
    """The in-place form of ``function``: computed out of place (with its checks), then written
    into ``input``; for the functions PyTorch gives no derivative of their own in place."""
    def op_(input, *args, **kwargs):
        result = function(input, *args, **kwargs)
        check_result_type(input, result.dtype)
        return copy_(input, result)
    op_.__name__ = function.__name__ + "_"
    return op_


def div_(input, other, *, rounding_mode=None):
    if rounding_mode is not None:
        if rounding_mode not in ("trunc", "floor"):
            ew.div(input, other, rounding_mode=rounding_mode)  # (PyTorch's error)
        return (_floor_div_ if rounding_mode == "floor" else _truncate_div_)(input, other)
    if input._array.dtype.kind != "f":  # true division gives floats (integers: the default)
        result = dtypes.result_type(input, other)
        check_result_type(input, result if result.is_floating_point else
                          dtypes.get_default_dtype())
    return _div_same_dtype(input, other)


divide_ = true_divide_ = div_
_pow_tensor_ = _binary_inplace(ew._pow)


def pow_(input, exponent):
    if isinstance(exponent, Tensor):
        return _pow_tensor_(input, exponent)
    if input._array.dtype.kind != "f":  # a float tensor takes any number
        check_result_type(input, dtypes.result_type(input, exponent))
    return apply_inplace(ew._pow_scalar, input, (), {"exponent": exponent})


def square_(input):
    return pow_(input, 2)


floor_divide_ = _binary_inplace(ew.floor_divide.primitive)
_floor_div_ = _binary_inplace(ew._floor_div.primitive)  # div_(rounding_mode=...): DivBackward2
_truncate_div_ = _binary_inplace(ew._truncate_div.primitive)
_remainder_tensor_ = _binary_inplace(ew._remainder)


def remainder_(input, other):
    if type(other) in (int, float) and input._array.dtype.kind == "f":
        return apply_inplace(ew._remainder_scalar, input, (), {"other": other})
    return _remainder_tensor_(input, other)


def clamp_(input, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    ew.check_bound_kinds("clamp_", input, min, max, method=True)
    min, max = ew.parsed_bounds(min, max)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        check_result_type(input, dtypes.result_type(
            input, *[bound for bound in (min, max) if bound is not None]))
        ew.refuse_bool_tensor_clamp(input, min, max)
        bounds = (ew._bound(min, input, False), ew._bound(max, input, True))
        return apply_inplace(ew._clamp_tensor, input, bounds, {})
    return apply_inplace(ew._clamp, input, (), _scalar_bounds(input, min=min, max=max))


def _scalar_bounds(input, **bounds):
    """Number bounds of an in-place clamp, in the input's dtype (PyTorch spells the dtype
    refusing a float bound by its C++ name here)."""
    if input._array.dtype.kind != "f":  # a float tensor takes any number
        given = [bound for bound in bounds.values() if bound is not None]
        check_result_type(input, dtypes.result_type(input, *given), CPP_TYPE_NAMES)
    return {name: None if bound is None else checked_number(bound, input._array.dtype)
            for name, bound in bounds.items()}


def clamp_min_(input, min):
    if isinstance(min, Tensor):
        return clamp_(input, min=min)
    return apply_inplace(ew._clamp_min, input, (), _scalar_bounds(input, min=min))


def clamp_max_(input, max):
    if isinstance(max, Tensor):
        return clamp_(input, max=max)
    return apply_inplace(ew._clamp_max, input, (), _scalar_bounds(input, max=max))


clip_ = clamp_


def fill_(input, value):
    if not isinstance(value, Tensor):
        return apply_inplace(ew._fill, input, (), {"value": checked_number(value,
                                                                           input._array.dtype)})
    if value._array.ndim:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value._array.ndim} dimensions.")
    if value._array.dtype != input._array.dtype:
        value = ew.to_dtype(value, input.dtype)
    return apply_inplace(ew._fill_tensor, input, (value,), {})


def nan_to_num_(input, nan=0.0, posinf=None, neginf=None):
    """In place ``nan_to_num`` (its primitive lives with the special functions)."""
    return apply_inplace(registry.PRIMITIVES["nan_to_num"], input, (),
                         {"nan": nan, "posinf": posinf, "neginf": neginf})


def zero_(input):
    return apply_inplace(ew._zero, input, (), {})


def copy_(input, src, non_blocking=False):
    """Copy ``src`` (broadcast, cast) into ``input``; gradients flow to ``src``."""
    src = as_tensor_operand(src)
    if src._meta and not input._meta:
        raise NotImplementedError(META_COPY_ERROR)
    if src._array.dtype != input._array.dtype:
        src = ew.to_dtype(src, input.dtype)
    return apply_inplace(ew._copy, input, (src,), {})


def uniform_(input, a=0.0, b=1.0, *, generator=None):
    """Values uniform in [a, b)."""
    from .. import random
    _check_uniform_bounds(input._array.dtype, float(a), float(b))
    with grad_mode.no_grad():
        layout = _Layout(input._array)
        return copy_(input, Tensor._make(random.drawn(lambda: layout.fill(
            lambda shape, real: random.source(generator).uniform(shape, real, a, b)))))


class _Layout:
    """How PyTorch's random fills visit a tensor: its elements in memory order (the axis with
    the largest stride outermost), a complex element as its two parts."""

    def __init__(self, array):
        self.axes = sorted(range(array.ndim), key=lambda axis: -abs(array.strides[axis]))
        self.shape = tuple(array.shape[axis] for axis in self.axes)
        self.dtype = array.dtype
        self.contiguous = array.flags.c_contiguous

    def fill(self, draw):
        """``draw(shape, real dtype)``'s values, laid out as the tensor's elements."""
        if self.dtype.kind == "c":
            parts = draw(self.shape + (2,), np.empty(0, self.dtype).real.dtype)
            values = parts.view(self.dtype)[..., 0]
        else:
            values = draw(self.shape, self.dtype)
        return values.transpose(np.argsort(self.axes))


def _refuse_exact_dtype(dtype, kernel):
    """PyTorch's refusal to draw continuous values into an integer or boolean tensor, named
    after its kernel."""
    if dtype.kind in "biu":
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[dtype.name]}'")


def _check_uniform_bounds(dtype, low, high):
    """PyTorch's checks of uniform_'s bounds: both finite numbers of the tensor's (real) dtype,
    in order, and no wider apart than its largest number."""
    _refuse_exact_dtype(dtype, "check_uniform_bounds")
    if dtype.kind != "f":
        return  # complex: each part is drawn in [low, high)
    largest = float(np.finfo(dtype).max)
    for name, bound in (("from", low), ("to", high)):
        if not -largest <= bound <= largest:
            raise RuntimeError(f"{name} is out of bounds for "
                               f"{CPP_TYPE_NAMES.get(dtype.name, dtype.name)}")
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={low:g} > to={high:g}")
    if high - low > largest:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<"
                           f"{_LEGACY_TYPE_NAMES[dtype.name]}>::max(), but found to={high:g} and "
                           f"from={low:g} which result in to-from to exceed the limit")


def normal_(input, mean=0.0, std=1.0, *, generator=None):
    """Values from the normal distribution N(mean, std²)."""
    from .. import random
    if not std >= 0.0:  # a NaN std too
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    _refuse_exact_dtype(input._array.dtype, "normal_kernel_cpu")
    # a complex tensor's parts each get half the variance; 16 or more values in contiguous
    # memory are drawn by blocks, as PyTorch draws them
    scale = std / np.sqrt(2) if input._array.dtype.kind == "c" else std
    with grad_mode.no_grad():
        layout = _Layout(input._array)
        return copy_(input, Tensor._make(random.drawn(lambda: layout.fill(
            lambda shape, real: random.source(generator).normal(shape, real, mean, scale,
                                                                layout.contiguous)))))


