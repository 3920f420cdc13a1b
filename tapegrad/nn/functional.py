"""``nn.functional``: the layers and losses as functions of tensors.

Most are composites of the op table's primitives and get their gradients from them. The ones
PyTorch records as a node of their own are primitives here too, so ``grad_fn`` names match:
``nll_loss``, ``nll_loss2d``, ``mse_loss``, ``smooth_l1_loss``, ``huber_loss``, the two binary
cross-entropies (``tapegrad.ops.loss``), ``layer_norm`` and ``batch_norm``
(``ops.normalization``), ``embedding`` (``ops.embedding``), ``pad`` (``ops.padding``), the
activations (``ops.activation``), ``conv1d``, ``conv2d`` and ``max_pool2d`` (``ops.conv``).
"""
import math
import warnings

import numpy as np

from .. import dtypes, ops
from ..autograd import grad_mode
from ..ops import activation as _activation
from ..ops.activation import gelu, hardsigmoid, hardswish, mish, silu
from ..ops.conv import _pair, _pool_output_size, _single, conv1d, conv2d, max_pool2d
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
           "softsign", "hardswish", "hardsigmoid", "dropout", "layer_norm", "group_norm",
           "batch_norm",
           "embedding", "one_hot", "pad", "normalize", "cosine_similarity",
           "scaled_dot_product_attention", "conv1d", "conv2d", "max_pool1d", "max_pool2d",
           "avg_pool1d", "avg_pool2d", "adaptive_avg_pool2d", "mse_loss", "l1_loss",
           "smooth_l1_loss", "huber_loss",
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
            f"[*, {', '.join(map(str, normalized_shape))}], but got input of "
            f"size{list(input.shape)}")
    if weight is None:
        weight = ops.ones(normalized_shape, dtype=input.dtype)
    if bias is None:
        bias = ops.zeros(normalized_shape, dtype=input.dtype)
    return _normalization.layer_norm(input, weight, bias, len(normalized_shape), eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalises each sample's channels (dim 1, with the dimensions after them) in
    ``num_groups`` groups, then scales and shifts per channel, as one
    ``NativeGroupNormBackward0``; a missing weight or bias is a constant one or zero."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.dim()}")
    if input.shape[1] % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, "
                           f"but got input of shape {list(input.shape)} and "
                           f"num_groups={num_groups}")
    channels = input.shape[1]
    if weight is None:
        weight = ops.ones(channels, dtype=input.dtype)
    if bias is None:
        bias = ops.zeros(channels, dtype=input.dtype)
    return _normalization.group_norm(input, weight, bias, num_groups, eps)


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
    """Rows of ``weight`` picked by the integer ``input``; the padding row gets no gradient.
    With ``max_norm``, the picked rows of ``weight`` are first renormalised in place."""
    if sparse:
        raise NotImplementedError("embedding: sparse gradients are not supported")
    if padding_idx is not None:
        if not -weight.shape[0] <= padding_idx < weight.shape[0]:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= weight.shape[0]
    if max_norm is not None:
        _renorm_rows_(weight, input, max_norm, norm_type)
    return _embedding.embedding(weight, input, padding_idx, scale_grad_by_freq)


def _renorm_rows_(weight, input, max_norm, norm_type):
    """PyTorch's ``embedding_renorm_``: each row ``input`` picks whose ``norm_type``-norm exceeds
    ``max_norm`` is scaled by ``max_norm / (norm + 1e-7)``, in place and untracked (one version
    bump, changed rows or not)."""
    rows = np.unique(_renorm_indices(input))
    if rows.size and rows[-1] >= weight.shape[0]:
        raise IndexError(f"select(): index {rows[-1]} out of range for tensor of size "
                         f"{list(weight.shape)} at dimension 0")
    picked = weight._array[rows]
    norms = np.linalg.norm(picked, ord=norm_type, axis=1).astype(np.float64)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0).astype(picked.dtype)
    with grad_mode.no_grad():
        weight[Tensor._make(rows)] = Tensor._make(picked * scale[:, None])


def _renorm_indices(input):
    if input._array.dtype not in (np.int64, np.int32):
        raise RuntimeError("Expected tensor for argument #2 'indices' to have one of the following "
                           f"scalar types: Long, Int; but got {input.type()} instead (while "
                           "checking arguments for embedding_renorm_)")
    return input._array


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
    """The mean of each window: its sum (a depthwise convolution with ones, over the input padded
    with zeros, and further at the bottom and right for ceil mode's last windows) divided by the
    count PyTorch divides each window by."""
    if input.dim() == 3:
        return avg_pool2d(input.unsqueeze(0), kernel_size, stride, padding, ceil_mode,
                          count_include_pad, divisor_override).squeeze(0)
    kernel = _pair(kernel_size, "kernel_size")
    stride = kernel if stride is None or stride == [] else _pair(stride, "stride")
    pad_hw = _pair(padding, "padding")
    if divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    if any(p > k // 2 for p, k in zip(pad_hw, kernel)):
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                           f"pad={pad_hw[0]}, kernel_size={kernel[0]} and dilation=1")
    sizes = tuple(input.shape[2:])
    out = _pooled_size(input, kernel, stride, pad_hw, ceil_mode)
    (top, bottom), (left, right) = [
        (p, max(p, (o - 1) * s + k - n - p)) for n, k, s, p, o in zip(sizes, kernel, stride,
                                                                        pad_hw, out)]
    padded = pad(input, (left, right, top, bottom)) if top or bottom or left or right else input
    channels = input.shape[1]
    ones = ops.ones((channels, 1, *kernel), dtype=input.dtype)
    sums = conv2d(padded, ones, None, stride, 0, 1, channels)
    if divisor_override:
        return sums / divisor_override
    rows, cols = [_avg_pool_counts(*geometry, count_include_pad)
                  for geometry in zip(sizes, kernel, stride, pad_hw, out)]
    return sums / Tensor._make(np.outer(rows, cols).astype(input._array.dtype))


def _pooled_size(input, kernel, stride, padding, ceil_mode):
    """The (height, width) of a pooling's output, refusing an empty one as PyTorch does."""
    out = [_pool_output_size(n, k, s, p, 1, ceil_mode)
           for n, k, s, p in zip(input.shape[2:], kernel, stride, padding)]
    if min(out) < 1:
        raise RuntimeError(f"Given input size: ({input.shape[1]}x{input.shape[2]}x"
                           f"{input.shape[3]}). Calculated output size: ({input.shape[1]}x"
                           f"{out[0]}x{out[1]}). Output size is too small")
    return out


def _avg_pool_counts(size, kernel, stride, pad, out, count_include_pad):
    """Along one dimension, what each window's sum is divided by: its extent clipped to the
    padded input, or to the input itself when padding does not count."""
    start = np.arange(out) * stride - pad
    end = np.minimum(start + kernel, size + pad)
    if count_include_pad:
        return end - start
    return np.minimum(end, size) - np.maximum(start, 0)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """``max_pool2d`` over a unit height, as PyTorch computes it (``SqueezeBackward1`` on top)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(input.shape)}")
    kernel = _single(kernel_size, "kernel_size")
    stride = kernel if stride is None or stride == [] else _single(stride, "stride")
    result = max_pool2d(input.unsqueeze(-2), (1, kernel), (1, stride),
                        (0, _single(padding, "padding")), (1, _single(dilation, "dilation")),
                        ceil_mode, return_indices)
    if return_indices:
        return result[0].squeeze(-2), result[1].squeeze(-2)
    return result.squeeze(-2)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """``avg_pool2d`` over a unit height, as PyTorch computes it."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor "
                           "for argument #1 'self' (while checking arguments for avg_pool1d)")
    kernel = _single(kernel_size, "kernel_size")
    stride = kernel if stride is None or stride == [] else _single(stride, "stride")
    return avg_pool2d(input.unsqueeze(-2), (1, kernel), (1, stride),
                      (0, _single(padding, "padding")), ceil_mode, count_include_pad).squeeze(-2)


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


def _nll_nd(log_probs, target, weight, ignore_index, reduction):
    """PyTorch's ``nll_loss_nd``: rows go to nll_loss, (N, C, H, W) to nll_loss2d, and any other
    spatial shape to nll_loss2d as an (N, C, 1, -1) view (viewed back for "none")."""
    if log_probs.dim() <= 2:
        return _loss.nll_loss(log_probs, target, weight, ignore_index, reduction)
    if log_probs.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({log_probs.shape[0]}) to match target "
                         f"batch_size ({target.shape[0]}).")
    if log_probs.dim() == 4:
        return _loss.nll_loss2d(log_probs, target, weight, ignore_index, reduction)
    batch, classes = log_probs.shape[:2]
    if target.shape[1:] != log_probs.shape[2:]:
        raise RuntimeError(f"Expected target size {[batch, *log_probs.shape[2:]]}, got "
                           f"{list(target.shape)}")
    loss = _loss.nll_loss2d(log_probs.contiguous().view(batch, classes, 1, -1),
                                  target.contiguous().view(batch, 1, -1), weight, ignore_index,
                                  reduction)
    return loss.view(target.shape) if reduction == "none" else loss


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
