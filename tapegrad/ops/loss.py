"""Loss primitives: negative log-likelihood and binary cross-entropy.

``nll_loss`` (behind ``cross_entropy``): as a composite (index the log-probabilities, negate,
weight, average) it records four nodes and scatters its gradient with ``np.add.at``; as one
primitive it is a single gather forward and a one-hot backward, named ``NllLossBackward0``.

``binary_cross_entropy``: PyTorch clamps the logs at -100 and bounds the gradient's denominator;
written as a composite, the clamped log's backward would still divide 0 by 0 at a saturated input.
"""
import numpy as np

from ..tensor import Tensor
from .creation import arange
from .registry import OTHER, primitive

__all__ = ["nll_loss", "binary_cross_entropy"]

REDUCTIONS = ("none", "mean", "sum")


@primitive("nll_loss", node="NllLossBackward0", group=OTHER, saves=("target",))
def _nll_loss(log_probs, target, weight, ignore_index, reduction):
    """``log_probs`` is (N, C) or (C,); ``target`` holds class indices, (N,) or ()."""
    rows = log_probs.reshape(-1, log_probs.shape[-1])
    classes = target.reshape(-1)
    kept = classes != ignore_index
    safe = np.where(kept, classes, 0)
    picked = rows[np.arange(rows.shape[0]), safe]
    coef = kept.astype(log_probs.dtype) if weight is None else weight[safe] * kept
    losses = -picked * coef
    if reduction == "none":
        return losses.reshape(target.shape)
    if reduction == "sum":
        return losses.sum()
    with np.errstate(invalid="ignore", divide="ignore"):  # everything ignored: nan, as PyTorch
        return np.asarray(losses.sum() / coef.sum(), dtype=log_probs.dtype)


@_nll_loss.vjp
def _(ctx, grad, weight, ignore_index, reduction):
    (target,) = ctx.saved
    labels = target.unsqueeze(-1)
    hit = (labels == arange(ctx.input_shapes[0][-1])) & (labels != ignore_index)
    coef = hit.to(grad.dtype)
    if weight is not None:
        coef = coef * Tensor._make(weight)
    if reduction == "none":
        return -coef * grad.unsqueeze(-1), None
    if reduction == "mean":
        grad = grad / coef.sum()
    return -coef * grad, None


def nll_loss(log_probs, target, weight=None, ignore_index=-100, reduction="mean"):
    """Negative log-likelihood of class indices: (N, C) with (N,), or (C,) with a 0-d target."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    _check(log_probs, target, weight, ignore_index)
    weight_array = None if weight is None else weight._array.astype(log_probs._array.dtype)
    return _nll_loss(log_probs, target, weight=weight_array, ignore_index=ignore_index,
                     reduction=reduction)


def _check(log_probs, target, weight, ignore_index):
    if log_probs._array.ndim not in (1, 2):
        raise ValueError(f"Expected 1 or 2 dimensions for the nll_loss primitive (got "
                         f"{log_probs._array.ndim})")
    if target._array.dtype.kind not in "iu":
        raise RuntimeError(f"expected scalar type Long but found {target.type()[6:-6]}")
    if log_probs._array.ndim == 2 and target._array.shape != log_probs._array.shape[:1]:
        raise ValueError(f"Expected input batch_size ({log_probs._array.shape[0]}) to match "
                         f"target batch_size ({target._array.shape[0] if target._array.ndim else 0}).")
    if log_probs._array.ndim == 1 and target._array.ndim != 0:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    classes = log_probs._array.shape[-1]
    if weight is not None and weight._array.shape != (classes,):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or "
                           f"no classes but got weight tensor of shape: {list(weight.shape)}")
    labels = target._array[target._array != ignore_index]
    out_of_range = labels[(labels < 0) | (labels >= classes)]
    if out_of_range.size:
        raise IndexError(f"Target {out_of_range[0]} is out of bounds.")


# ------------------------------------------------------------------------ binary cross-entropy

_LOG_FLOOR = -100.0  # PyTorch clamps both logs here, so a saturated input gives a finite loss
_EPSILON = 1e-12     # and bounds the gradient's denominator x (1 - x) away from zero


def _clamped_log(a):
    with np.errstate(divide="ignore"):
        return np.maximum(np.log(a), _LOG_FLOOR)


@primitive("binary_cross_entropy", node="BinaryCrossEntropyBackward0", group=OTHER,
           saves=("x", "target"))
def _binary_cross_entropy(x, target, weight, reduction):
    loss = -(target * _clamped_log(x) + (1 - target) * _clamped_log(1 - x))
    if weight is not None:
        loss = loss * weight
    return _apply_reduction(loss, reduction)


def _apply_reduction(loss, reduction):
    if reduction == "mean":
        return np.asarray(loss.mean(), dtype=loss.dtype)
    if reduction == "sum":
        return np.asarray(loss.sum(), dtype=loss.dtype)
    return loss


@_binary_cross_entropy.vjp
def _(ctx, grad, weight, reduction):
    x, target = ctx.saved
    if reduction == "mean":
        grad = grad / x.numel()
    if weight is not None:
        grad = grad * Tensor._make(weight)
    need_x, need_target = ctx.needs_input_grad
    grad_x = grad_target = None
    if need_x:
        grad_x = grad * (x - target) / (x * (1 - x)).clamp_min(_EPSILON)
    if need_target:
        grad_target = grad * ((1 - x).log().clamp_min(_LOG_FLOOR) - x.log().clamp_min(_LOG_FLOOR))
    return grad_x, grad_target


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    """``-(t log x + (1 - t) log(1 - x))`` with PyTorch's clamps, as one primitive."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if target._array.shape != input._array.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input "
                         f"size ({input.shape}) is deprecated. Please ensure they have the same "
                         "size.")
    values = input._array
    if ((values < 0) | (values > 1)).any():
        raise RuntimeError("all elements of input should be between 0 and 1")
    weight_array = None
    if weight is not None:
        weight_array = np.broadcast_to(weight._array, values.shape).astype(values.dtype)
    return _binary_cross_entropy(input, target, weight=weight_array, reduction=reduction)
