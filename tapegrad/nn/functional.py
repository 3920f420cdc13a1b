"""``nn.functional``: the layers and losses as functions of tensors.

Most are composites of the op table's primitives and get their gradients from them. The ones
PyTorch records as a node of their own are primitives here too, so ``grad_fn`` names match:
``nll_loss``, ``mse_loss``, ``smooth_l1_loss``, ``huber_loss``, the two binary cross-entropies
(``tapegrad.ops.loss``), ``layer_norm`` and ``batch_norm`` (``ops.normalization``), ``embedding``
(``ops.embedding``), ``pad`` (``ops.padding``), the activations (``ops.activation``), ``conv2d``
and ``max_pool2d`` (``ops.conv``).
"""
import math
import warnings

import numpy as np

from .. import dtypes, ops
from ..ops import activation as _activation
from ..ops.activation import gelu, hardsigmoid, hardswish, mish, silu
from ..ops.conv import _pair, conv2d, max_pool2d
from ..ops.operands import broadcast_error
from ..ops import loss as _loss
from ..ops import embedding as _embedding
from ..ops import normalization as _normalization
from ..ops import padding as _padding
from ..random import generator as _numpy_generator
from ._reduction import legacy_get_string as _legacy_reduction
from ..tensor import Tensor

__all__ = ["linear", "relu", "relu6", "gelu", "tanh", "sigmoid", "softmax", "log_softmax",
           "leaky_relu", "elu", "selu", "silu", "softplus", "mish", "hardtanh", "logsigmoid",
           "softsign", "hardswish", "hardsigmoid", "dropout", "layer_norm", "batch_norm",
           "embedding", "one_hot", "pad", "normalize", "cosine_similarity",
           "scaled_dot_product_attention", "conv2d", "max_pool2d", "avg_pool2d",
           "adaptive_avg_pool2d", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
           "kl_div", "cosine_embedding_loss", "nll_loss", "cross_entropy", "binary_cross_entropy",
           "binary_cross_entropy_with_logits"]


# ------------------------------------------------------------------------------------- layers

def linear(input, weight, bias=None):
    """``input @ weight.T + bias``. With a bias, PyTorch folds the leading dimensions into one:
    a view to a matrix, one ``addmm``, a view back (``ViewBackward0`` on top) — so does this."""
    if input._array.dtype != weight._array.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{input.type()[6:-6]} and {weight.type()[6:-6]}")
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.dim()}D and {weight.dim()}D")
    if bias is None:
        return ops.mm(input, weight.t()) if input.dim() == 2 else ops.matmul(input, weight.t())
    if input.dim() == 2:
        return ops.addmm(bias, input, weight.t())
    rows = input.reshape(-1, input.shape[-1])
    return ops.addmm(bias, rows, weight.t()).view(*input.shape[:-1], weight.shape[0])


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


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _activation.leaky_relu(input, negative_slope, inplace)


def elu(input, alpha=1.0, inplace=False):
    return _activation.elu(input, alpha, inplace=inplace)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    return _activation.elu(input, _SELU_ALPHA, _SELU_SCALE, inplace=inplace)


def softplus(input, beta=1.0, threshold=20.0):
    return _activation.softplus(input, beta, threshold)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _activation.hardtanh(input, min_val, max_val, inplace)


def logsigmoid(input):
    return _activation.log_sigmoid(input)


def softsign(input):
    return input / (input.abs() + 1)


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
    """Normalises over the trailing ``normalized_shape`` dimensions (biased variance), as one
    ``NativeLayerNormBackward0``; a missing weight or bias is a constant one or zero."""
    normalized_shape = _as_shape(normalized_shape)
    if tuple(input.shape[input.dim() - len(normalized_shape):]) != normalized_shape:
        raise RuntimeError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(map(str, normalized_shape))}], but got input of size{input.shape}")
    if weight is None:
        weight = ops.ones(normalized_shape, dtype=input.dtype)
    if bias is None:
        bias = ops.zeros(normalized_shape, dtype=input.dtype)
    return _normalization.layer_norm(input, weight, bias, len(normalized_shape), eps)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Normalises each channel (dim 1) with the batch's statistics in training — updating the
    running ones in place, with the unbiased variance — or with the running ones in eval."""
    if input.dim() < 2:
        raise ValueError(f"expected 2D or more input (got {input.dim()}D input)")
    channels = input.shape[1]
    if training and input.numel() // channels <= 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{input.shape}")
    if weight is None:
        weight = ops.ones(channels, dtype=input.dtype)
    if bias is None:
        bias = ops.zeros(channels, dtype=input.dtype)
    if not training and running_mean is not None:
        return _normalization.batch_norm_eval(input, weight, bias, running_mean, running_var, eps)
    if running_mean is not None:
        _normalization.update_running_stats(input, running_mean, running_var, momentum)
    return _normalization.batch_norm_train(input, weight, bias, eps)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """Rows of ``weight`` picked by the integer ``input``; the padding row gets no gradient."""
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding: max_norm, scale_grad_by_freq and sparse are not "
                                  "supported")
    if padding_idx is not None:
        if not -weight.shape[0] <= padding_idx < weight.shape[0]:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= weight.shape[0]
    return _embedding.embedding(weight, input, padding_idx)


def one_hot(tensor, num_classes=-1):
    if tensor._array.dtype.kind not in "iu":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        # .item() (not the raw array) so that a compiled caller sees the data dependence.
        num_classes = int(tensor.max().item()) + 1 if tensor.numel() else 0
    return (tensor.unsqueeze(-1) == ops.arange(num_classes)).long()


def pad(input, pad, mode="constant", value=None):
    """Pads the last ``len(pad) // 2`` dimensions; ``pad`` runs from the last dimension back.

    ``mode`` is "constant" (with ``value``), "reflect", "replicate" or "circular"; the arguments
    are checked as PyTorch's argument parser does, the rest as ATen does (``ops.padding``).
    """
    if not isinstance(pad, (tuple, list)):
        raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, not "
                        f"{type(pad).__name__}")
    amounts = []
    for position, amount in enumerate(pad):  # the parser looks closer at the first one
        try:
            if position == 0 and isinstance(amount, bool):
                raise TypeError
            amounts.append(amount.__index__())
        except (TypeError, AttributeError):
            kind = type(amount).__name__
            if position == 0:
                raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, but "
                                f"found element of type {kind} at pos 0") from None
            raise TypeError(f"pad(): argument 'pad' failed to unpack the object at pos "
                            f"{position + 1} with error \"type must be tuple of ints,but got "
                            f"{kind}\"") from None
    if not isinstance(mode, str):
        raise TypeError(f"pad(): argument 'mode' (position 3) must be str, not "
                        f"{type(mode).__name__}")
    return _padding.pad(input, tuple(amounts), mode, value)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``)."""
    norm = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / norm


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``<x1, x2> / (|x1| |x2|)`` along ``dim``, each norm at least ``eps``, as ATen computes it."""
    x1, x2 = ops.broadcast_to(x1, _broadcast_shape(x1, x2)), ops.broadcast_to(
        x2, _broadcast_shape(x1, x2))
    x1_norm = x1.norm(2, dim, keepdim=True).clamp_min(eps)
    x2_norm = x2.norm(2, dim, keepdim=True).clamp_min(eps)
    return ((x1 / x1_norm) * (x2 / x2_norm)).sum(dim)


def _broadcast_shape(a, b):
    try:
        return np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    except ValueError:
        raise RuntimeError(broadcast_error((a, b), {})) from None


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """``softmax(q kᵀ · scale + mask) v``; a boolean mask marks the positions that take part."""
    length, source_length = query.shape[-2], key.shape[-2]
    scale = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = ops.matmul(query, key.transpose(-2, -1)) * scale
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be "
                               "set when is_causal=True")
        attn_mask = ops.ones(length, source_length, dtype=dtypes.bool).tril()
    if attn_mask is not None:
        if attn_mask.dtype == dtypes.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    weights = ops.softmax(scores, -1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p)
    return ops.matmul(weights, value)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """The mean of each window: a depthwise convolution with a constant kernel."""
    if ceil_mode or not count_include_pad:
        raise NotImplementedError("avg_pool2d: ceil_mode=True and count_include_pad=False are "
                                  "not supported")
    kernel = _pair(kernel_size, "kernel_size")
    stride = kernel if stride is None or stride == [] else _pair(stride, "stride")
    batched = input if input.dim() == 4 else input.unsqueeze(0)
    channels = batched.shape[1]
    divisor = divisor_override or kernel[0] * kernel[1]
    weight = ops.full((channels, 1, *kernel), 1.0 / divisor, dtype=input.dtype)
    output = conv2d(batched, weight, None, stride, padding, 1, channels)
    return output if input.dim() == 4 else output.squeeze(0)


def adaptive_avg_pool2d(input, output_size):
    """Means over the bins PyTorch uses: bin i spans [floor(i·n/m), ceil((i+1)·n/m))."""
    height, width = input.shape[-2:]
    out_h, out_w = ((output_size, output_size) if isinstance(output_size, int) else
                    tuple(h if o is None else o for o, h in zip(output_size, (height, width))))
    if (out_h, out_w) == (1, 1):
        return input.mean((-2, -1), keepdim=True)
    rows = [_bin(i, height, out_h) for i in range(out_h)]
    cols = [_bin(j, width, out_w) for j in range(out_w)]
    return ops.stack([ops.stack([input[..., r0:r1, c0:c1].mean((-2, -1)) for c0, c1 in cols], -1)
                      for r0, r1 in rows], -2)


def _bin(index, size, bins):
    return (index * size) // bins, -((-(index + 1) * size) // bins)


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
    """One ``MseLossBackward0``; a target of another shape is broadcast first (with a warning)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return _loss.mse_loss(*_broadcast_pair(input, target), reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _warn_if_broadcasting(input, target)
    return _reduce((input - target).abs(), reduction)


def _broadcast_pair(input, target):
    """Both tensors expanded to their common shape (PyTorch's losses broadcast, warning first)."""
    _warn_if_broadcasting(input, target, stacklevel=4)
    if target.shape == input.shape:
        return input, target
    shape = _broadcast_shape(input, target)
    return ops.broadcast_to(input, shape), ops.broadcast_to(target, shape)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    return _loss.smooth_l1_loss(*_broadcast_pair(input, target), reduction, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return _loss.huber_loss(*_broadcast_pair(input, target), reduction, delta)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """KL divergence of ``input`` (log-probabilities) from ``target``, pointwise as ATen:
    ``xlogy(t, t) - t * input``, or ``exp(t) * (t - input)`` for a log target."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with "
                      "the KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.", UserWarning, stacklevel=2)
    if log_target:
        pointwise = target.exp() * (target - input)
    else:
        target_log_target = ops.where(target == 0, 0.0, target * target.clamp_min(
            np.finfo(target._array.dtype).tiny).log())
        pointwise = target_log_target - target * input
    if reduction == "batchmean":
        return pointwise.sum() / input.shape[0] if input.dim() else pointwise.sum()
    return _reduce(pointwise, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                          reduction="mean"):
    """``1 - cos`` for pairs labelled 1, ``max(0, cos - margin)`` for pairs labelled -1."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    cos = cosine_similarity(input1, input2, dim=-1, eps=1e-12)
    zeros = ops.zeros_like(cos)
    positive = ops.where(target == 1, 1 - cos, zeros)
    negative = ops.where(target == -1, (cos - margin).clamp_min(0), zeros)
    return _reduce(positive + negative, reduction)


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
    """``nll_loss(log_softmax(input))`` for class indices; for class probabilities (a target of
    input's shape), ``-(log_softmax(input) * target).sum()`` reduced as PyTorch composes it."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction not in _loss.REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    log_probs = ops.log_softmax(input, class_dim)
    if target.shape == input.shape:
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
    if not target.is_floating_point():
        raise RuntimeError(f"Expected floating point type for target with class probabilities, "
                           f"got {target.type()[6:-6]}")
    classes = log_probs.shape[class_dim]
    if label_smoothing > 0.0:
        target = target * (1 - label_smoothing) + label_smoothing / classes
    products = log_probs * target
    if weight is not None:
        products = products * _class_weight_view(weight, log_probs, class_dim)
    if reduction == "none":
        return -products.sum(class_dim)
    total = -products.sum()
    if reduction == "sum":
        return total
    return _loss.div_scalar(total, log_probs.numel() / classes if log_probs.numel() else
                            float("nan"))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """Mean of ``-(t log x + (1 - t) log(1 - x))``, logs clamped at -100 as PyTorch does."""
    return _loss.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """BCE on logits, one ``BinaryCrossEntropyWithLogitsBackward0``."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return _loss.binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight)


def _as_shape(shape):
    return (shape,) if isinstance(shape, int) else tuple(shape)
