"""Loss primitives: negative log-likelihood, binary cross-entropy (on probabilities and on
logits) and mean squared error — the losses PyTorch records as one node of their own.

``nll_loss`` (behind ``cross_entropy``): as a composite (index the log-probabilities, negate,
weight, average) it records four nodes and scatters its gradient with ``np.add.at``; as one
primitive it is a single gather forward and a one-hot backward, named ``NllLossBackward0``.

``binary_cross_entropy``: PyTorch clamps the logs at -100 and bounds the gradient's denominator;
written as a composite, the clamped log's backward would still divide 0 by 0 at a saturated input.

``binary_cross_entropy_with_logits``, ``mse_loss``, ``smooth_l1_loss``, ``huber_loss``,
``soft_margin_loss``, ``multi_margin_loss``: one pass over memory instead of three to six, and
PyTorch's node for each on the tape.
"""
import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .activation import _log_sigmoid, _without_derivative, require_floating
from .broadcast import broadcast_to, sum_to
from .elementwise import _div_scalar, _mul_scalar, check_in_place_broadcast, where
from .layout import broadcast_shapes
from .creation import zeros_like
from .operands import broadcast_error
from . import libm
from .registry import OTHER, primitive
from .shape import movedim

__all__ = ["nll_loss", "nll_loss2d", "binary_cross_entropy", "binary_cross_entropy_with_logits", "mse_loss",
           "smooth_l1_loss", "huber_loss", "soft_margin_loss", "multi_margin_loss",
           "multilabel_margin_loss", "cosine_embedding_loss"]

REDUCTIONS = ("none", "mean", "sum")


@primitive("nll_loss", node="NllLossBackward0", group=OTHER, saves=("log_probs", "target"),
           nondifferentiable=("target",))
def _nll_loss(log_probs, target, *, weight, ignore_index, reduction):
    """``log_probs`` is (N, C) or (C,); ``target`` holds class indices, (N,) or () (or (1,)
    for (C,))."""
    rows = log_probs.reshape(target.size, log_probs.shape[-1])  # (not -1: there may be no class)
    safe, kept, coef = _row_weights(target, weight, ignore_index, log_probs.dtype)
    if rows.size:
        losses = -rows[np.arange(rows.shape[0]), safe]
    else:  # (no class at all: every row is ignored, and there is nothing to gather)
        losses = np.zeros(safe.shape, rows.dtype)
    if kept is not None:
        # an ignored row's loss is written as 0 (not -x * 0, which is -0. for a positive x)
        losses = np.where(kept, losses * coef, 0).astype(log_probs.dtype, copy=False)
    if reduction == "none":
        return losses.reshape(log_probs.shape[:-1])
    if reduction == "sum":
        return losses.sum()
    with np.errstate(invalid="ignore", divide="ignore"):  # everything ignored: nan, as PyTorch
        return np.asarray(losses.sum() / coef.sum(), dtype=log_probs.dtype)


@_nll_loss.vjp
def _(ctx, grad, weight, ignore_index, reduction):
    log_probs, target = ctx.saved
    return _nll_loss_backward(grad, log_probs, target, weight=weight, ignore_index=ignore_index,
                              reduction=reduction), None


@primitive("nll_loss_backward", node="NllLossBackwardBackward0", group=OTHER,
           saves=("target",), nondifferentiable=("target",))
def _nll_loss_backward(grad, log_probs, target, *, weight, ignore_index, reduction):
    """PyTorch's ``nll_loss_backward``: ``-weight * grad`` (over the total weight for "mean") at
    each row's target class, zeros elsewhere and in ignored rows — one scatter into zeros instead
    of building the one-hot mask from five operations. ``log_probs`` gives only the shape, and
    the edge PyTorch's node has to it (so the gradient is part of the graph of ``log_probs``)."""
    safe, kept, coef = _row_weights(target, weight, ignore_index, grad.dtype)
    if reduction == "none":
        values = -coef * grad.reshape(-1)
    else:
        total = coef.sum() if reduction == "mean" else 1
        values = -coef * (grad / total if total else grad)  # all ignored: zeros, as PyTorch
    result = np.zeros((safe.size, log_probs.shape[-1]), grad.dtype)
    rows = np.arange(safe.size)
    if kept is None or kept.all():
        result[rows, safe] = values
    else:
        result[rows[kept], safe[kept]] = values[kept]
    return result.reshape(log_probs.shape)


def _row_weights(target, weight, ignore_index, dtype):
    """Per row of nll_loss: its class (0 where ignored: a safe index), whether it counts (None:
    every row does) and its weight (0 where ignored) — what the forward and the backward both
    start from."""
    labels = target.reshape(-1)
    kept = labels != ignore_index
    if weight is None and kept.all():
        # the common case, every row counted with weight 1: ``kept`` is None, and no masking is
        # needed (the labels are safe as they are, and a loss times 1 is the loss)
        return labels, None, kept.astype(dtype)
    safe = np.where(kept, labels, 0)
    coef = kept.astype(dtype) if weight is None else (weight[safe] * kept).astype(dtype, copy=False)
    return safe, kept, coef


@_nll_loss_backward.vjp
def _(ctx, grad, weight, ignore_index, reduction):
    (target,) = ctx.saved
    need_grad_output, need_log_probs, _ = ctx.needs_input_grad
    return (_nll_loss(grad, target, weight=weight, ignore_index=ignore_index, reduction=reduction)
            if need_grad_output else None,
            zeros_like(grad) if need_log_probs else None, None)


def nll_loss(log_probs, target, weight=None, ignore_index=-100, reduction="mean"):
    """Negative log-likelihood of class indices: (N, C) with (N,), or (C,) with a 0-d target."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    _check(log_probs, target, weight, ignore_index)
    weight_array = None if weight is None else weight._array
    return _nll_loss(log_probs, target, weight=weight_array, ignore_index=ignore_index,
                     reduction=reduction)


def _check_weight_dtype(log_probs, weight):
    """The class weights must have the input's dtype (PyTorch's kernel reads them as it; a float64
    weight built from numpy or from a Counter is the usual mistake)."""
    if weight is not None and weight._array.dtype != log_probs._array.dtype:
        raise RuntimeError(f"expected scalar type {_LEGACY_TYPE_NAMES[log_probs._array.dtype.name]} "
                           f"but found {_LEGACY_TYPE_NAMES[weight._array.dtype.name]}")


def _check(log_probs, target, weight, ignore_index):
    x, labels = log_probs._array, target._array
    if x.ndim not in (1, 2):
        raise ValueError(f"Expected 1 or 2 dimensions for the nll_loss primitive (got "
                         f"{x.ndim})")
    # PyTorch compares the batch sizes first (nll_loss_nd), then the target's dimensions
    if x.ndim == 2 and batch_size(target) != x.shape[0]:
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match "
                         f"target batch_size ({batch_size(target)}).")
    if labels.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    _check_target_dtype(target)
    if x.ndim == 1 and labels.ndim == 1 and labels.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: "
                         f"{labels.shape[0]}")
    if x.ndim == 2 and labels.ndim == 0:  # (an empty batch, past nll_loss_nd's batch check)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    classes = x.shape[-1]
    if weight is not None:
        if weight._array.shape != (classes,):
            raise RuntimeError(f"weight tensor should be defined either for all {classes} "
                               f"classes or no classes but got weight tensor of shape: "
                               f"{list(weight.shape)}")
    require_floating(log_probs, "nll_loss_out_frame")
    _check_weight_dtype(log_probs, weight)
    _check_target_bounds(target, classes, ignore_index)


def batch_size(target):
    """A target's batch size as ``nll_loss_nd`` reads it: its first size, 0 for a 0-d target."""
    return target.shape[0] if target.dim() else 0


def _check_target_dtype(target):
    if target._array.dtype not in (np.int64, np.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{target.type()[6:-6]}")


def _check_target_bounds(target, classes, ignore_index):
    labels = target._array
    if labels.size and labels.min() >= 0 and labels.max() < classes:
        return  # every label a class (the common case): two passes, no masks
    labels = labels[labels != ignore_index]
    out_of_range = labels[(labels < 0) | (labels >= classes)]
    if out_of_range.size:
        raise IndexError(f"Target {out_of_range[0]} is out of bounds.")


# ---------------------------------------------------------------------------------- nll_loss2d
# PyTorch records NllLoss2DBackward0, not NllLossBackward0, for inputs with spatial dimensions, so
# this is a primitive of its own: nll_loss with the classes moved last (the same forward kernel and
# backward primitive on an (N, H, W, C) view).

@primitive("nll_loss2d", node="NllLoss2DBackward0", group=OTHER, saves=("log_probs", "target"),
           nondifferentiable=("target",))
def _nll_loss2d(log_probs, target, *, weight, ignore_index, reduction):
    """``log_probs`` is (N, C, H, W), ``target`` (N, H, W) class indices."""
    return _nll_loss.forward(np.moveaxis(log_probs, 1, -1), target, weight=weight,
                                   ignore_index=ignore_index, reduction=reduction)


@_nll_loss2d.vjp
def _(ctx, grad, weight, ignore_index, reduction):
    log_probs, target = ctx.saved
    grad_classes_last = _nll_loss_backward(
        grad, movedim(log_probs, 1, -1), target, weight=weight, ignore_index=ignore_index,
        reduction=reduction)
    return movedim(grad_classes_last, -1, 1), None


def nll_loss2d(log_probs, target, weight=None, ignore_index=-100, reduction="mean"):
    """Checked as PyTorch's ``nll_loss2d`` checks (its messages, in its order), then the primitive.

    Unlike the row kernel, the spatial kernel reads the target only as int64: a uint8 target
    passes the dtype check and is refused when the kernel runs."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if target.dim() != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {target.dim()}")
    if log_probs.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({log_probs.shape[0]}) to match target "
                         f"batch_size ({target.shape[0]}).")
    _check_target_dtype(target)
    classes = log_probs.shape[1]
    if weight is not None and weight.numel() != classes:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if log_probs.shape[2:] != target.shape[1:]:
        raise RuntimeError(f"size mismatch (got input: {list(log_probs.shape)} , target: "
                           f"{list(target.shape)}")
    require_floating(log_probs, "nll_loss2d_forward_out_frame")
    _check_weight_dtype(log_probs, weight)
    if target._array.dtype != np.int64:
        raise RuntimeError(f"expected scalar type Long but found {target.type()[6:-6]}")
    _check_target_bounds(target, classes, ignore_index)
    weight_array = None if weight is None else weight._array
    return _nll_loss2d(log_probs, target, weight=weight_array, ignore_index=ignore_index,
                       reduction=reduction)


# ------------------------------------------------------------------------ binary cross-entropy

_LOG_FLOOR = -100.0  # PyTorch clamps both logs here, so a saturated input gives a finite loss
_EPSILON = 1e-12     # and bounds the gradient's denominator x (1 - x) away from zero


def _clamped_log(a):
    with np.errstate(divide="ignore"):
        return np.maximum(libm.log(a), _LOG_FLOOR)


@primitive("binary_cross_entropy", node="BinaryCrossEntropyBackward0", group=OTHER,
           saves=("x", "target"))
def _binary_cross_entropy(x, target, weight, reduction):
    # PyTorch's kernel: log1p(-x), exact for a tiny x where log(1 - x) rounds to 0
    with np.errstate(divide="ignore"):
        log_complement = np.maximum(libm.log1p(-x), _LOG_FLOOR)
    loss = (target - 1) * log_complement - target * _clamped_log(x)
    if weight is not None:
        loss = loss * weight
    return _apply_reduction(loss, reduction)


def _apply_reduction(loss, reduction):
    if reduction == "mean":
        if not loss.size:  # nan, as PyTorch, without numpy's "Mean of empty slice" warnings
            return np.full((), np.nan, loss.dtype)
        return np.asarray(loss.mean(), dtype=loss.dtype)
    if reduction == "sum":
        return np.asarray(loss.sum(), dtype=loss.dtype)
    return loss


@_binary_cross_entropy.vjp
def _(ctx, grad, weight, reduction):
    """PyTorch's: ``binary_cross_entropy_backward`` for the input (a primitive, whose second
    derivatives are PyTorch's formulas), ``-logit(x) * grad`` for the target."""
    x, target = ctx.saved
    need_x, need_target = ctx.needs_input_grad
    grad_x = grad_target = None
    if need_x:
        grad_x = _binary_cross_entropy_backward(grad, x, target, weight=weight,
                                                reduction=reduction)
    if need_target:  # PyTorch's: log(1 - x) - log(x), not clamped
        grad_target = _weighted_and_reduced(-x.logit() * grad, weight, reduction)
    return grad_x, grad_target


@primitive("binary_cross_entropy_backward", node="BinaryCrossEntropyBackwardBackward0",
           group=OTHER, saves=("grad", "x", "target"))
def _binary_cross_entropy_backward(grad, x, target, weight, reduction):
    """``grad (x - t) / max(x (1 - x), eps)``, times the weight, over the count for a mean: the
    kernel's order of operations."""
    one = x.dtype.type(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        grad_x = grad * (x - target) / np.maximum((one - x) * x, x.dtype.type(_EPSILON))
    if weight is not None:
        grad_x = grad_x * weight
    if reduction == "mean":
        grad_x = grad_x / x.dtype.type(x.size)
    return np.asarray(grad_x, dtype=x.dtype)


@_binary_cross_entropy_backward.vjp
def _(ctx, upstream, weight, reduction):
    """PyTorch's ``binary_cross_entropy_double_backward*``: exact second derivatives with ``eps``
    added to ``x`` and ``1 - x`` (so a saturated input still gets one), and, for the target,
    the first derivative's clamped denominator."""
    grad, x, target = ctx.saved
    need_grad, need_x, need_target = ctx.needs_input_grad
    weight = None if weight is None else Tensor._make(weight)
    count = x.numel()
    grad_grad = grad_x = grad_target = None
    if need_grad:
        grad_grad = (x - target) / ((x + _EPSILON) * (1 - x + _EPSILON)) * upstream
        if weight is not None:
            grad_grad = grad_grad * weight
        if reduction == "mean":
            grad_grad = _div_scalar(grad_grad, divisor=count)
        grad_grad = sum_to(grad_grad, grad.shape)  # (the engine's sum, in PyTorch)
    if need_x:
        grad_x = ((x * x - 2 * x * target + target)
                  / ((x + _EPSILON).pow(2) * (1 - x + _EPSILON).pow(2))) * (upstream * grad)
        grad_x = _weighted_and_reduced(grad_x, weight, reduction)
    if need_target:
        grad_target = -upstream * grad
        if weight is not None:
            grad_target = grad_target * weight
        with grad_mode.no_grad():
            denominator = ((1 - x) * x).clamp_min(_EPSILON)
        grad_target = _weighted_and_reduced(grad_target / denominator, None, reduction)
    return grad_grad, grad_x, grad_target


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    """``-(t log x + (1 - t) log(1 - x))`` with PyTorch's clamps, as one primitive."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if target._array.shape != input._array.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input "
                         f"size ({input.shape}) is deprecated. Please ensure they have the same "
                         "size.")
    if target._array.dtype != input._array.dtype:
        raise RuntimeError(f"Found dtype {_type_name(target)} but expected {_type_name(input)}")
    require_floating(input, "binary_cross_entropy")
    for name, values in (("input", input._array), ("target", target._array)):
        if not ((values >= 0) & (values <= 1)).all():  # (as the kernel's check: nan fails)
            raise RuntimeError(f"all elements of {name} should be between 0 and 1")
    values = input._array
    weight_array = None
    if weight is not None:
        check_weight_expandable(weight, target.shape)
        weight_array = np.broadcast_to(weight._array, values.shape).astype(values.dtype)
    return _binary_cross_entropy(input, target, weight=weight_array, reduction=reduction)


def check_weight_expandable(weight, target_shape):
    """PyTorch's BCE expands ``weight`` to ``broadcast_shapes(target, weight)`` (refused with
    that function's message), then multiplies the loss, of the target's shape, by it in place."""
    check_in_place_broadcast(target_shape, broadcast_shapes(target_shape, weight.shape))


def _broadcast_shape(a, b):
    """The shape of ``a * b``, or ATen's refusal of shapes that do not broadcast."""
    try:
        return np.broadcast_shapes(a._array.shape, b._array.shape)
    except ValueError:
        raise RuntimeError(broadcast_error((a, b), {})) from None


def _type_name(tensor):
    """The scalar type's name in ATen's messages: ``Float``, ``Long``, ..."""
    return _LEGACY_TYPE_NAMES[tensor._array.dtype.name]


def _promoted(input, target):
    """Both operands in their promoted dtype, as ATen's elementwise losses compute them."""
    dtype = dtypes.result_type(input, target)
    return tuple(t if t.dtype is dtype else t.to(dtype) for t in (input, target))


def _cast_target(input, target):
    """``target`` in ``input``'s dtype for a loss whose output is ``input``'s dtype: a target
    of a higher kind of number cannot be written into it, as ATen's ``out=`` refuses."""
    if target.dtype is input.dtype:
        return target
    promoted = dtypes.result_type(input, target)
    if not dtypes.can_cast(promoted, input.dtype):
        raise RuntimeError(f"result type {_LEGACY_TYPE_NAMES[promoted.name]} can't be cast to "
                           f"the desired output type {_type_name(input)}")
    return target.to(input.dtype)


# ------------------------------------------------------------------ BCE on logits, squared error

def _reduce_gradient(grad, reduction, numel):
    """The gradient reaching each element of an elementwise loss before its reduction."""
    return grad / numel if reduction == "mean" else grad


@primitive("binary_cross_entropy_with_logits", node="BinaryCrossEntropyWithLogitsBackward0",
           group=OTHER, saves=("x", "target"))
def _bce_with_logits(x, target, weight, pos_weight, reduction):
    """``(1 - t) x + (1 + (w_pos - 1) t) softplus(-x)``, never exponentiating a large value."""
    softplus_of_negative = np.maximum(-x, 0) + libm.log1p(libm.exp(-np.abs(x)))
    if pos_weight is not None:
        softplus_of_negative = softplus_of_negative * ((pos_weight - 1) * target + 1)
    loss = (1 - target) * x + softplus_of_negative
    return _apply_reduction(loss if weight is None else loss * weight, reduction)


@_bce_with_logits.vjp
def _(ctx, grad, weight, pos_weight, reduction):
    """PyTorch's order: the derivative times the gradient, times the weight, over the count for
    a mean (``DivBackward1`` on top under create_graph)."""
    x, target = ctx.saved
    need_x, need_target = ctx.needs_input_grad
    grad_x = grad_target = None
    if pos_weight is None:
        if need_x:
            grad_x = (x.sigmoid() - target) * grad
        if need_target:
            grad_target = -x * grad
    else:  # PyTorch's formulas, so that their second derivatives record its nodes
        pos_weight = Tensor._make(pos_weight)
        if need_x:
            weighted_target = pos_weight * target
            grad_x = ((weighted_target + 1 - target) * x.sigmoid() - weighted_target) * grad
        if need_target:
            grad_target = (_log_sigmoid(-x) - _log_sigmoid(x) * pos_weight) * grad
    return tuple(None if g is None else _weighted_and_reduced(g, weight, reduction)
                 for g in (grad_x, grad_target))


def _weighted_and_reduced(grad, weight, reduction):
    if weight is not None:
        grad = grad * (weight if isinstance(weight, Tensor) else Tensor._make(weight))
    if reduction == "mean":
        grad = _div_scalar(grad, divisor=_numel(grad.shape))
    return grad


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean",
                                     pos_weight=None):
    """BCE on logits as one primitive; ``weight`` and ``pos_weight`` carry no gradient, as in
    PyTorch."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if target.size() != input.size():  # (PyTorch's AttributeError for a number)
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    for name, extra in (("weight", weight), ("pos_weight", pos_weight)):
        if extra is not None and extra._requires_grad:
            raise RuntimeError("The function 'binary_cross_entropy_with_logits' is not "
                               f"differentiable with respect to argument '{name}'. This input "
                               "cannot have requires_grad True.")
    # ATen's steps, refused in its order: log_sigmoid(input), multiplied in place by
    # ``(pos_weight - 1) * target + 1``; ``(1 - target).mul_(input)``; then ``loss.mul_(weight)``
    require_floating(input, "log_sigmoid_cpu")
    if pos_weight is not None:
        check_in_place_broadcast(input.shape, _broadcast_shape(pos_weight, target))
    if target._array.dtype == np.bool_:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if target._array.dtype.kind != "f":
        raise RuntimeError(f"result type {_type_name(input)} can't be cast to the desired output "
                           f"type {_type_name(target)}")
    if weight is not None:
        check_in_place_broadcast(input.shape, _broadcast_shape(input, weight))
    shape = input._array.shape
    dtype = target._array.dtype  # the output's: that of ``1 - target``, updated in place
    arrays = [None if t is None else np.broadcast_to(t._array, shape).astype(dtype)
              for t in (weight, pos_weight)]
    input = input if input._array.dtype == dtype else input.to(target.dtype)
    return _bce_with_logits(input, target, weight=arrays[0], pos_weight=arrays[1],
                            reduction=reduction)


@primitive("mse_loss", node="MseLossBackward0", group=OTHER, saves=("a", "b"))
def _mse_loss(a, b, reduction):
    difference = a - b
    return _apply_reduction(difference * difference, reduction)


def _pointwise_loss_backward(name, node, slope, double_backward):
    """The gradient of a loss ``sum/mean of f(a - b)`` for ``a``, ``slope(a - b) * grad``
    (divided by the count for a mean), as a primitive of its own: under create_graph it records
    PyTorch's ``XxxLossBackwardBackward0``, whose rule gives the loss's second derivatives as
    PyTorch's ``xxx_loss_double_backward`` does: ``double_backward(upstream * grad, a - b)``
    (f'' times it, written with tapegrad ops), then divided by the count for a mean. ``slope``
    works on numpy arrays."""
    def forward(grad, a, b, *, reduction, **params):
        grad = _reduce_gradient(grad, reduction, a.size)
        return (slope(a - b, **params) * grad).astype(np.result_type(a, b), copy=False)

    prim = primitive(name, node=node, group=OTHER, saves=("grad", "a", "b"))(forward)

    @prim.vjp
    def _(ctx, upstream, reduction, **params):
        grad, a, b = ctx.saved
        need_grad, need_a, need_b = ctx.needs_input_grad
        grad_grad = grad_a = None
        if need_grad:  # linear in the gradient: the rule itself, summed back to its shape
            grad_grad = sum_to(prim(upstream, a, b, reduction=reduction, **params), grad.shape)
        if need_a or need_b:
            grad_a = double_backward(upstream * grad, a - b, **params)
            if reduction == "mean":
                grad_a = _div_scalar(grad_a, divisor=_numel(ctx.input_shapes[1]))
        return grad_grad, grad_a if need_a else None, -grad_a if need_b else None

    return prim


def _loss_rule(backward):
    """The rule of a loss of ``a - b`` whose gradient for ``a`` is ``backward``. ``b``'s is the
    same rule with the operands swapped, as PyTorch writes it (not a negation, which would turn
    the zero gradient of an exact match into ``-0.``)."""
    def rule(ctx, grad, **params):
        a, b = ctx.saved
        need_a, need_b = ctx.needs_input_grad
        grad_a = backward(grad, a, b, **params) if need_a else None
        grad_b = backward(grad, b, a, **params) if need_b else None
        return grad_a, grad_b

    return rule


_mse_loss_backward = _pointwise_loss_backward(
    "mse_loss_backward", "MseLossBackwardBackward0", lambda d: 2 * d,
    lambda scaled, d: _mul_scalar(scaled, factor=2))
_mse_loss.vjp(_loss_rule(_mse_loss_backward))


def mse_loss(input, target, reduction="mean"):
    """Mean squared error of same-shaped tensors as one primitive."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    input, target = _promoted(input, target)
    require_floating(input, "mse_cpu")
    return _mse_loss(input, target, reduction=reduction)


def _numel(shape):
    return int(np.prod(shape, dtype=np.int64))


# ------------------------------------------------------------------ smooth L1 and Huber losses

def _robust_loss(name, node, forward, width):
    """The loss primitive ``forward`` of ``a - b``, quadratic up to a distance, linear beyond,
    and its gradient's (``<name>_backward``). ``width(**params)`` gives that distance and the
    linear part's slope: the gradient is ``clamp(d, -distance, distance) * scale``."""
    def slope(difference, **params):
        distance, scale = width(**params)
        return np.clip(difference, -distance, distance) * scale

    def double_backward(scaled, difference, **params):
        """``scaled`` where the loss is quadratic, over the distance where the slope is scaled
        by its inverse (PyTorch's huber and smooth_l1 double backward)."""
        distance, scale = width(**params)
        scaled = scaled * (difference.abs() < distance).to(scaled.dtype)
        return scaled if scale == 1 else _div_scalar(scaled, divisor=distance)

    prim = primitive(name, node=node, group=OTHER, saves=("a", "b"))(forward)
    prim.vjp(_loss_rule(_pointwise_loss_backward(
        name + "_backward", node[:-1] + "Backward0", slope, double_backward)))
    return prim


def _smooth_l1_forward(a, b, reduction, beta):
    distance = np.abs(a - b)
    loss = np.where(distance < beta, 0.5 * distance * distance / beta, distance - 0.5 * beta)
    return _apply_reduction(loss.astype(a.dtype), reduction)


def _huber_forward(a, b, reduction, delta):
    distance = np.abs(a - b)
    loss = np.where(distance < delta, 0.5 * distance * distance, delta * (distance - 0.5 * delta))
    return _apply_reduction(loss.astype(a.dtype), reduction)


_smooth_l1 = _robust_loss("smooth_l1_loss", "SmoothL1LossBackward0", _smooth_l1_forward,
                          lambda beta: (beta, 1 / beta))
_huber = _robust_loss("huber_loss", "HuberLossBackward0", _huber_forward,
                      lambda delta: (delta, 1))


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):
    """Quadratic below ``beta``, linear above; ``beta=0`` is the L1 loss (left to the caller)."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    input, target = _promoted(input, target)
    require_floating(input, "smooth_l1_cpu")
    return _smooth_l1(input, target, reduction=reduction, beta=beta)


def huber_loss(input, target, reduction="mean", delta=1.0):
    """Quadratic below ``delta``, linear (slope ``delta``) above."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    target = _cast_target(input, target)
    require_floating(input, "huber_cpu")
    return _huber(input, target, reduction=reduction, delta=delta)




# ------------------------------------------------------------------ per-element weights
# mse_loss, l1_loss and huber_loss take a ``weight`` of the input's shape (importance weights of
# prioritized replay, masks): PyTorch then composes ordinary ops instead of the fused loss.

def check_sample_weight(weight, input):
    """PyTorch compares the weight with the input as given, before broadcasting."""
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")


def weighted_reduction(pointwise, weight, reduction, *, mean_over_weights):
    """``pointwise * weight`` reduced. Its 'mean' divides by the weights' sum for mse and l1
    (``mean_over_weights``) but by the element count for Huber, as PyTorch does."""
    weighted = pointwise * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return weighted.sum()
    if reduction == "mean":
        return weighted.sum() / weight.sum() if mean_over_weights else weighted.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. "
                     "Expected one of 'none', 'mean', 'sum'.")


# ------------------------------------------------------------------ soft margin and multi-margin
# Both are one node of their own in PyTorch (SoftMarginLossBackward0, MultiMarginLossBackward0).

@primitive("soft_margin_loss", node="SoftMarginLossBackward0", group=OTHER, saves=("x", "target"))
def _soft_margin_loss(x, target, reduction):
    with np.errstate(over="ignore"):  # as ATen: log1p(exp(-y x)), inf where that overflows
        return _apply_reduction(libm.log1p(libm.exp(-target * x)), reduction)


@_soft_margin_loss.vjp
def _(ctx, grad, reduction):
    x, target = ctx.saved
    need_x, need_target = ctx.needs_input_grad
    grad_x = grad_target = None
    if need_x:
        grad_x = _soft_margin_loss_backward(grad, x, target, reduction=reduction)
    if need_target:  # (only reached without grad mode: PyTorch has no target gradient)
        grad = _reduce_gradient(grad, reduction, _numel(ctx.input_shapes[0]))
        grad_target = -x * (grad * (-target * x).sigmoid())
    return grad_x, grad_target


@primitive("soft_margin_loss_backward", node="SoftMarginLossBackwardBackward0", group=OTHER,
           saves=("grad", "x", "target"))
def _soft_margin_loss_backward(grad, x, target, reduction):
    """ATen's ``-norm · t · z / (1 + z) · grad``, ``z = exp(-t x)``, in its order."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        norm = np.divide(1.0, np.float64(x.size)) if reduction == "mean" else 1.0
        z = libm.exp(-target * x)
        return np.asarray(target * z * x.dtype.type(-norm) / (z + 1) * grad, dtype=x.dtype)


@_soft_margin_loss_backward.vjp
def _(ctx, upstream, reduction):
    """PyTorch's soft_margin_loss_double_backward, ``g · t² · z / (1 + z)²``, over the count
    for a mean."""
    grad, x, target = ctx.saved
    need_grad, need_x, _ = ctx.needs_input_grad
    grad_grad = grad_x = None
    if need_grad:  # linear in the gradient: the rule itself, summed back to its shape
        grad_grad = sum_to(_soft_margin_loss_backward(upstream, x, target, reduction=reduction),
                           grad.shape)
    if need_x:
        z = (x * -target).exp()
        grad_x = upstream * grad * (target * target) * z / ((z + 1) * (z + 1))
        if reduction == "mean":
            grad_x = _div_scalar(grad_x, divisor=x.numel())
    return grad_grad, grad_x, None


def soft_margin_loss(input, target, reduction="mean"):
    """``log(1 + exp(-y x))`` of same-shaped inputs and ±1 targets, as one primitive."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if target.requires_grad and grad_mode.is_grad_enabled():  # PyTorch has no target gradient
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect "
                           "to argument 'target'. This input cannot have requires_grad True.")
    target = _cast_target(input, _broadcast_into(target, input))
    if not input.is_floating_point():  # ATen computes in floating point, then writes it back
        raise RuntimeError(f"result type {_LEGACY_TYPE_NAMES[dtypes.get_default_dtype().name]} "
                           f"can't be cast to the desired output type {_type_name(input)}")
    return _soft_margin_loss(input, target, reduction=reduction)


def _broadcast_into(operand, output):
    """``operand`` expanded to ``output``'s shape, as ATen combines it into ``output`` in place:
    shapes that do not broadcast, and a broadcast larger than ``output``, are refused with
    ATen's messages."""
    if operand._array.shape == output._array.shape:
        return operand
    check_in_place_broadcast(output.shape, _broadcast_shape(output, operand))
    return broadcast_to(operand, output.shape)


@primitive("multi_margin_loss", node="MultiMarginLossBackward0", group=OTHER,
           saves=("x", "target"), nondifferentiable=("target",))
def _multi_margin_loss(x, target, *, p, margin, weight, reduction):
    """``x`` is (N, C) or (C,), ``target`` the N class indices: per row, the mean over the other
    classes of ``max(0, margin - x[target] + x[i]) ** p``, weighted by the target's weight."""
    rows, labels = x.reshape(-1, x.shape[-1]), target.reshape(-1)
    index = np.arange(labels.size)
    z = margin - rows[index, labels][:, None] + rows
    z[index, labels] = 0
    hinge = np.maximum(z, 0) ** p
    if weight is not None:
        hinge = hinge * weight[labels][:, None]
    losses = (np.add.reduce(hinge, axis=1) / rows.shape[1]).astype(x.dtype)
    return _apply_reduction(losses.reshape(target.shape), reduction)  # (N,), (1,) or ()


@_multi_margin_loss.vjp
def _(ctx, grad, p, margin, weight, reduction):
    x, target = ctx.saved
    return _multi_margin_loss_backward(grad, x, target=target._array, p=p, margin=margin,
                                       weight=weight, reduction=reduction), None


def _multi_margin_loss_backward_forward(grad, x, *, target, p, margin, weight, reduction):
    """Each active hinge's slope (1, or ``2 z`` for p=2) for its class, their sum taken from
    the target's, times the gradient over the class count."""
    rows, labels = x.reshape(-1, x.shape[-1]), target.reshape(-1)
    batch, classes = rows.shape
    index = np.arange(labels.size)
    z = margin - rows[index, labels][:, None] + rows
    is_target = np.zeros(rows.shape, dtype=bool)
    is_target[index, labels] = True
    active = (z > 0) & ~is_target
    slope = active.astype(x.dtype) if p == 1 else 2 * z * active
    if weight is not None:
        slope = slope * weight[labels][:, None]
    if reduction == "none":
        grad = grad.reshape(-1, 1)
    slope = (slope * (_reduce_gradient(grad, reduction, batch) / classes)).astype(x.dtype)
    return (slope - is_target * slope.sum(1, keepdims=True)).astype(x.dtype).reshape(x.shape)


# PyTorch has no derivative for the margin losses' backward kernels: under create_graph their
# gradient is recorded as a NotImplemented node, which refuses a second derivative.
_multi_margin_loss_backward = _without_derivative(primitive(
    "multi_margin_loss_backward", node="NotImplemented", group=OTHER)(
        _multi_margin_loss_backward_forward))


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, reduction="mean"):
    """The multi-class hinge loss of scores (N, C) or (C,) and class indices, as one primitive."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if input.dim() > 2 or input.dim() and input.shape[-1] == 0:  # (an empty batch is fine)
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, "
                           f"but got: {list(input.shape)}")
    batch, classes = (1, input.numel()) if input.dim() < 2 else input.shape
    if target.dim() > 1 or target.numel() != batch:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{batch}], but got "
            f"{list(target.shape)}. Input has shape {list(input.shape)}.")
    if weight is not None and weight.numel() != classes:
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got "
                           f"{list(weight.shape)}")
    _require_float_or_double(input, "multi_margin_loss_cpu_kernel")
    _require_long_target(target)
    _check_weight_dtype(input, weight)
    labels = target._array
    if ((labels < 0) | (labels >= classes)).any():
        raise RuntimeError("target out of range")
    weight_array = None if weight is None else weight._array
    rows = input.reshape(batch, classes) if input.dim() == 0 else input
    return _multi_margin_loss(rows, target, p=p, margin=margin, weight=weight_array,
                              reduction=reduction)


def _require_float_or_double(input, kernel):
    """The margin losses' kernels exist for float32 and float64 only (not float16)."""
    if input._array.dtype not in (np.float32, np.float64):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(input)}\'')


def _require_long_target(target):
    """The margin losses' kernels read class indices as int64 only."""
    if target.dtype != dtypes.int64:
        raise RuntimeError(f"expected scalar type Long but found {_type_name(target)}")


def _multilabel_slopes(rows, labels):
    """(B, C) rows and (B, C) label lists (each ended by its first -1): the hinges
    ``1 - x[label] + x[i]`` for every label and every class i that is no label, and where each
    is active (B, labels, C)."""
    listed = np.cumprod(labels >= 0, axis=1).astype(bool)
    batch, classes = rows.shape
    is_label = np.zeros((batch, classes), dtype=bool)
    is_label[np.nonzero(listed)[0], labels[listed]] = True
    picked = np.take_along_axis(rows, np.where(listed, labels, 0), axis=1)
    hinge = 1 - picked[:, :, None] + rows[:, None, :]
    counted = listed[:, :, None] & ~is_label[:, None, :]
    return hinge, counted & (hinge > 0), listed


@primitive("multilabel_margin_loss", node="MultilabelMarginLossBackward0", group=OTHER,
           saves=("x", "target"), nondifferentiable=("target",))
def _multilabel_margin_loss(x, target, *, reduction):
    """``x`` is (N, C) or (C,), ``target`` as large, each row's labels up to its first -1: per
    row, the sum over labels j and non-label classes i of ``max(0, 1 - x[j] + x[i])``, over C."""
    rows, labels = x.reshape(-1, x.shape[-1]), target.reshape(-1, x.shape[-1])
    hinge, active, _ = _multilabel_slopes(rows, labels)
    losses = ((hinge * active).sum((1, 2)) / rows.shape[1]).astype(x.dtype)
    return _apply_reduction(losses.reshape(x.shape[:-1]), reduction)


@_multilabel_margin_loss.vjp
def _(ctx, grad, reduction):
    x, target = ctx.saved
    return _multilabel_margin_loss_backward(grad, x, target=target._array,
                                            reduction=reduction), None


def _multilabel_margin_loss_backward_forward(grad, x, *, target, reduction):
    """Each active hinge adds 1/C to its class i and takes 1/C from its label j (a piecewise
    linear loss: the slopes are constants, read off the saved values)."""
    rows = x.reshape(-1, x.shape[-1])
    labels = target.reshape(-1, x.shape[-1])
    _, active, listed = _multilabel_slopes(rows, labels)
    slopes = active.sum(1).astype(rows.dtype)
    np.add.at(slopes, (np.nonzero(listed)[0], labels[listed]), -active.sum(2)[listed])
    batch, classes = rows.shape
    if reduction == "none":
        grad = grad.reshape(-1, 1)
    slopes = (slopes / classes).astype(rows.dtype)
    return np.asarray(slopes * _reduce_gradient(grad, reduction, batch),
                      dtype=rows.dtype).reshape(x.shape)


_multilabel_margin_loss_backward = _without_derivative(primitive(
    "multilabel_margin_loss_backward", node="NotImplemented", group=OTHER)(
        _multilabel_margin_loss_backward_forward))


def multilabel_margin_loss(input, target, reduction):
    """ATen's checks, in its order, then the primitive. A 0-d input is one row of one class (its
    target 0-d or of one element); the labels' range is checked on their values as int64,
    before their dtype."""
    if input.dim() > 2 or input.dim() and input.shape[-1] == 0:  # (an empty batch is fine)
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, "
                           f"but got: {list(input.shape)}")
    classes = input.shape[-1] if input.dim() else 1
    if (target.shape != input.shape if input.dim() == 2 else
            target.dim() > 1 or target.numel() != classes):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                           f"{list(input.shape)}")
    labels = target._array
    if labels.size and (int(labels.min()) < -1 or int(labels.max()) >= classes):
        raise RuntimeError("argument #2 'target' is out of range")
    _require_float_or_double(input, "multilabel_margin_loss_forward_out_frame")
    _require_long_target(target)
    if input.dim() == 0:
        input, target = input.reshape(1), target.reshape(1)
    return _multilabel_margin_loss(input, target, reduction=reduction)


# ------------------------------------------------------------------------ cosine embedding loss

_COSINE_EMBEDDING_EPSILON = 1e-12


def cosine_embedding_loss(input1, input2, target, margin, reduction):
    """``1 - cos`` for pairs labelled 1, ``max(0, cos - margin)`` for pairs labelled -1 (other
    labels add 0): rows of 2-d inputs with a 1-d target, or one pair with a 0-d target."""
    _check_cosine_embedding_dims(input1, input2, target)
    cos = _embedding_cosine(input1, input2, target.dim())
    zeros = zeros_like(cos)
    positive = where(target == 1, 1 - cos, zeros)
    negative = where(target == -1, (cos - margin).clamp_min(0), zeros)
    loss = positive + negative
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def _check_cosine_embedding_dims(input1, input2, target):
    sizes = f"{list(input1.shape)} and {list(input2.shape)}."
    if target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target.dim() == 1 and (input1.dim() != 2 or input2.dim() != 2):
        raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with "
                           f"sizes {sizes}")
    if target.dim() == 0 and (input1.dim() != 1 or input2.dim() != 1):
        raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with "
                           f"sizes {sizes}")


def _embedding_cosine(input1, input2, dim):
    """``<x1, x2> / sqrt((|x1|² + ε)(|x2|² + ε))``, ε = 1e-12 added to each squared norm as ATen
    does (not ``cosine_similarity``'s clamp of the norms): a zero vector has cosine 0 and the
    gradient ``x2 / sqrt(ε (|x2|² + ε))``, large but finite."""
    products = (input1 * input2).sum(dim)
    squared1 = (input1 * input1).sum(dim) + _COSINE_EMBEDDING_EPSILON
    squared2 = (input2 * input2).sum(dim) + _COSINE_EMBEDDING_EPSILON
    return products / (squared1 * squared2).sqrt()
