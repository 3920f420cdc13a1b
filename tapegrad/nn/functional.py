"""``nn.functional``: the layers and losses as functions of tensors.

Most are composites of the op table's primitives and get their gradients from them; the ones
that are primitives of their own (``nll_loss``, ``binary_cross_entropy``, ``gelu``, ``conv2d``,
``max_pool2d``) say why in ``tapegrad.ops``.
"""
import warnings

from .. import ops
from ..ops.activation import gelu
from ..ops.conv import conv2d, max_pool2d
from ..ops import loss as _loss
from ..random import generator as _numpy_generator
from ..tensor import Tensor

__all__ = ["linear", "relu", "gelu", "tanh", "sigmoid", "softmax", "log_softmax", "dropout",
           "layer_norm", "embedding", "one_hot", "conv2d", "max_pool2d", "mse_loss", "l1_loss",
           "nll_loss", "cross_entropy", "binary_cross_entropy",
           "binary_cross_entropy_with_logits"]


# ------------------------------------------------------------------------------------- layers

def linear(input, weight, bias=None):
    """``input @ weight.T + bias``; a matrix input records one ``AddmmBackward0`` as PyTorch."""
    if input.dim() == 2 and bias is not None:
        return ops.addmm(bias, input, weight.t())
    if input.dim() == 2:
        return ops.mm(input, weight.t())
    output = ops.matmul(input, weight.t())
    return output if bias is None else output + bias


def relu(input, inplace=False):
    return ops.relu_(input) if inplace else ops.relu(input)


def tanh(input):
    return ops.tanh(input)


def sigmoid(input):
    return ops.sigmoid(input)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    return ops.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    return ops.log_softmax(input, dim, dtype=dtype)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes each element with probability ``p`` and scales the rest by ``1 / (1 - p)``."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input * 0.0
    keep = _numpy_generator().random(input.shape) >= p
    mask = Tensor._make((keep / (1.0 - p)).astype(input._array.dtype))
    return ops.mul_(input, mask) if inplace else input * mask


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalises over the trailing ``normalized_shape`` dimensions (biased variance, as PyTorch)."""
    normalized_shape = _as_shape(normalized_shape)
    if tuple(input.shape[input.dim() - len(normalized_shape):]) != normalized_shape:
        raise RuntimeError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(map(str, normalized_shape))}], but got input of size{input.shape}")
    dims = tuple(range(-len(normalized_shape), 0))
    mean = input.mean(dims, keepdim=True)
    centered = input - mean
    variance = (centered * centered).mean(dims, keepdim=True)
    output = centered / (variance + eps).sqrt()
    if weight is not None:
        output = output * weight
    if bias is not None:
        output = output + bias
    return output


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """Rows of ``weight`` picked by the integer ``input``; the padding row gets no gradient."""
    if input._array.dtype.kind not in "iu":
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following "
                           f"scalar types: Long, Int; but got {input.type()} instead (while "
                           "checking arguments for embedding)")
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding: max_norm, scale_grad_by_freq and sparse are not "
                                  "supported")
    if padding_idx is not None and weight._requires_grad:
        is_padding_row = (ops.arange(weight.shape[0]) == padding_idx % weight.shape[0]).unsqueeze(1)
        weight = ops.where(is_padding_row, weight.detach(), weight)
    return weight[input]


def one_hot(tensor, num_classes=-1):
    if tensor._array.dtype.kind not in "iu":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        num_classes = int(tensor._array.max()) + 1 if tensor.numel() else 0
    return (tensor.unsqueeze(-1) == ops.arange(num_classes)).long()


# ------------------------------------------------------------------------------------- losses

def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _warn_if_broadcasting(input, target, stacklevel=3):
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", UserWarning, stacklevel=stacklevel)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_if_broadcasting(input, target)
    difference = input - target
    return _reduce(difference * difference, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _warn_if_broadcasting(input, target)
    return _reduce((input - target).abs(), reduction)


def _classes_last(input, target):
    """(N, C, d1, ...) and (N, d1, ...) as (M, C) and (M,): nll_loss works on rows."""
    moved = ops.movedim(input, 1, -1)
    return moved.reshape(-1, input.shape[1]), target.reshape(-1)


def _nll_nd(log_probs, target, weight, ignore_index, reduction):
    if log_probs.dim() <= 2:
        return _loss.nll_loss(log_probs, target, weight, ignore_index, reduction)
    if target.shape != log_probs.shape[:1] + log_probs.shape[2:]:
        raise RuntimeError(f"Expected target size {list(log_probs.shape[:1] + log_probs.shape[2:])}"
                           f", got {list(target.shape)}")
    rows, labels = _classes_last(log_probs, target)
    loss = _loss.nll_loss(rows, labels, weight, ignore_index, reduction)
    return loss.reshape(target.shape) if reduction == "none" else loss


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """Negative log-likelihood of class indices given log-probabilities (classes in dim 1)."""
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    return _nll_nd(input, target, weight, ignore_index, reduction)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """``nll_loss(log_softmax(input))``: class indices, or class probabilities of input's shape."""
    if reduction not in _loss.REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    log_probs = ops.log_softmax(input, class_dim)
    if target.is_floating_point():
        return _soft_cross_entropy(log_probs, target, weight, class_dim, reduction,
                                   label_smoothing)
    loss = _nll_nd(log_probs, target, weight, ignore_index, reduction)
    if label_smoothing == 0.0:
        return loss
    smooth = _smoothing_term(log_probs, target, weight, ignore_index, reduction, class_dim)
    return loss * (1 - label_smoothing) + smooth * (label_smoothing / input.shape[class_dim])


def _class_weight_view(weight, log_probs, class_dim):
    """``weight`` shaped to broadcast along the class dimension of ``log_probs``."""
    shape = [1] * log_probs.dim()
    shape[class_dim] = -1
    return weight.reshape(shape)


def _smoothing_term(log_probs, target, weight, ignore_index, reduction, class_dim):
    """The uniform-target part of label smoothing, normalised as PyTorch normalises it."""
    if weight is not None:
        log_probs = log_probs * _class_weight_view(weight, log_probs, class_dim)
    kept = target != ignore_index
    per_sample = -log_probs.sum(class_dim) * kept.to(log_probs.dtype)
    if reduction == "none":
        return per_sample
    if reduction == "sum":
        return per_sample.sum()
    if weight is None:
        return per_sample.sum() / kept.sum()
    safe_labels = ops.where(kept, target, 0)
    return per_sample.sum() / (weight[safe_labels] * kept.to(weight.dtype)).sum()


def _soft_cross_entropy(log_probs, target, weight, class_dim, reduction, label_smoothing):
    if target.shape != log_probs.shape:
        raise RuntimeError(f"Expected floating point type target to have the same shape as input "
                           f"{list(log_probs.shape)}, got {list(target.shape)}")
    classes = log_probs.shape[class_dim]
    if label_smoothing > 0.0:
        target = target * (1 - label_smoothing) + label_smoothing / classes
    products = log_probs * target
    if weight is not None:
        products = products * _class_weight_view(weight, log_probs, class_dim)
    per_sample = -products.sum(class_dim)
    if reduction == "mean":
        return per_sample.sum() / (log_probs.numel() // classes if log_probs.dim() else 1)
    return _reduce(per_sample, reduction)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """Mean of ``-(t log x + (1 - t) log(1 - x))``, logs clamped at -100 as PyTorch does."""
    return _loss.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """BCE on logits: ``(1 - t) x + w_pos · softplus(-x)``, never exponentiating a large value."""
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({input.shape})")
    softplus_of_negative = (-input).clamp_min(0) + (1 + (-input.abs()).exp()).log()
    if pos_weight is not None:
        softplus_of_negative = softplus_of_negative * ((pos_weight - 1) * target + 1)
    loss = (1 - target) * input + softplus_of_negative
    return _reduce(loss if weight is None else loss * weight, reduction)


def _as_shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)
