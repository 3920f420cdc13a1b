"""``nn.functional``: the layers and losses as functions of tensors.

Most are composites of the op table's primitives and get their gradients from them. The ones
PyTorch records as a node of their own are primitives here too, so ``grad_fn`` names match:
``nll_loss``, ``nll_loss2d``, ``mse_loss``, ``smooth_l1_loss``, ``huber_loss``,
``soft_margin_loss``, ``multi_margin_loss``, ``multilabel_margin_loss``, the two binary
cross-entropies (``tapegrad.ops.loss``), ``layer_norm`` and ``batch_norm``
(``ops.normalization``), ``embedding`` (``ops.embedding``), ``pad`` (``ops.padding``), the
activations (``ops.activation``), the 1-, 2- and 3-d convolutions, plain and transposed
(``ops.conv``), ``unfold``/``fold`` (``ops.fold``), the pixel shuffles (``ops.pixel_shuffle``),
max, average, adaptive and fractional pooling and max unpooling (``ops.pooling``), ``ctc_loss``
(``ops.ctc``).
"""
import functools
import math
import numbers
import operator
import warnings

import numpy as np

from .. import dtypes, ops
from ..autograd import function as _autograd_function
from ..autograd import grad_mode
from ..backends import cuda as _cuda_backend
from ..ops import activation as _activation
from ..ops.activation import gelu, hardsigmoid, hardswish, mish, require_floating, silu
from ..ops.conv import _CPP_TYPE_NAMES, _pair, _single, conv1d, conv2d, conv3d
from ..ops.conv import conv_transpose1d, conv_transpose2d, conv_transpose3d
from ..ops.fold import fold, unfold
from ..ops.channel_shuffle import channel_shuffle
from ..ops.pixel_shuffle import pixel_shuffle, pixel_unshuffle
from ..ops.pooling import (
    adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_max_pool1d, adaptive_max_pool2d,
    max_unpool1d, max_unpool2d,
    adaptive_avg_pool3d, adaptive_max_pool3d, adaptive_max_pool1d_with_indices,
    adaptive_max_pool2d_with_indices, adaptive_max_pool3d_with_indices, avg_pool1d, avg_pool2d,
    avg_pool3d, lp_pool1d, lp_pool2d, lp_pool3d, max_pool1d, max_pool2d, max_pool3d,
    max_pool1d_with_indices, max_pool2d_with_indices, max_pool3d_with_indices, max_unpool3d,
    fractional_max_pool2d, fractional_max_pool2d_with_indices, fractional_max_pool3d,
    fractional_max_pool3d_with_indices,
)
from ..ops.operands import broadcast_error, type_name
from ..ops.signatures import int_list
from ..ops.elementwise import check_in_place_broadcast
from ..ops.registry import OTHER, primitive
from ..ops.broadcast import expand_shape
from ..ops.linalg import _matrix_t
from ..ops import loss as _loss
from ..ops.layout import laid_out_like
from ..ops.norm import pairwise_distance
from ..ops.out import write_out as _write_out
from ..ops.ctc import ctc_loss
from ..ops import embedding as _embedding
from ..ops import normalization as _normalization
from ..ops import padding as _padding
from ..ops import resample as _resample
from .._warnings import warn_at_caller
from .. import random as _random
from ._reduction import legacy_get_string as _legacy_reduction
from ..tensor import _LEGACY_TYPE_NAMES, Tensor, _warn_once

__all__ = ["linear", "linear_cross_entropy", "relu", "relu6", "gelu", "tanh", "sigmoid", "softmax", "log_softmax",
           "leaky_relu", "elu", "selu", "silu", "softplus", "mish", "hardtanh", "logsigmoid",
           "softsign", "hardswish", "hardsigmoid", "dropout", "layer_norm", "group_norm",
           "batch_norm", "dropout1d", "dropout2d", "dropout3d", "instance_norm", "rms_norm",
           "embedding_bag", "interpolate", "upsample", "upsample_nearest", "upsample_bilinear",
           "affine_grid", "grid_sample",
           "embedding", "one_hot", "pad", "normalize", "cosine_similarity",
           "scaled_dot_product_attention", "conv1d", "conv2d", "max_pool1d", "max_pool2d",
           "avg_pool1d", "avg_pool2d", "adaptive_avg_pool2d", "mse_loss", "l1_loss",
           "conv_transpose1d", "conv_transpose2d", "unfold", "fold", "pixel_shuffle",
           "pixel_unshuffle", "channel_shuffle", "gumbel_softmax", "adaptive_avg_pool1d", "adaptive_max_pool1d",
           "adaptive_max_pool2d", "max_unpool1d", "max_unpool2d",
           "conv3d", "conv_transpose3d", "max_pool3d", "avg_pool3d", "adaptive_avg_pool3d",
           "adaptive_max_pool3d", "max_unpool3d", "max_pool1d_with_indices",
           "max_pool2d_with_indices", "max_pool3d_with_indices",
           "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
           "adaptive_max_pool3d_with_indices", "lp_pool1d", "lp_pool2d", "lp_pool3d",
           "alpha_dropout", "feature_alpha_dropout", "local_response_norm",
           "multilabel_margin_loss", "relu_", "elu_", "leaky_relu_", "hardtanh_", "selu_",
           "celu_", "threshold_",
           "fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
           "fractional_max_pool3d_with_indices",
           "smooth_l1_loss", "huber_loss",
           "softmin", "celu", "threshold", "softshrink", "hardshrink", "tanhshrink", "prelu",
           "glu", "rrelu", "rrelu_", "bilinear", "pairwise_distance", "pdist", "margin_ranking_loss",
           "hinge_embedding_loss", "soft_margin_loss", "multilabel_soft_margin_loss",
           "multi_margin_loss", "triplet_margin_loss", "triplet_margin_with_distance_loss",
           "gaussian_nll_loss", "poisson_nll_loss",
           "kl_div", "cosine_embedding_loss", "nll_loss", "cross_entropy", "binary_cross_entropy",
           "ctc_loss",
           "binary_cross_entropy_with_logits", "multi_head_attention_forward"]


# ------------------------------------------------------------------------------------- layers

def _require_tensors(function, optional=(), **arguments):
    """PyTorch's binding refuses an argument that is not a tensor (a list, a numpy array),
    naming it with its position; those named in ``optional`` may be None. (Hot functions test
    their arguments first and call this only to raise.)"""
    for position, (name, value) in enumerate(arguments.items(), 1):
        if not isinstance(value, Tensor) and not (value is None and name in optional):
            raise TypeError(f"{function}(): argument '{name}' (position {position}) must be "
                            f"Tensor, not {type_name(type(value))}")


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``. With a bias, PyTorch folds the leading dimensions of a
    contiguous input into one when the bias is a vector (once its 1s are squeezed out): a view
    to a matrix, one ``addmm``, a view back (``ViewBackward0`` on top) — so does this.
    Otherwise it is ``matmul``, then ``add_(bias)``."""
    if not (isinstance(input, Tensor) and isinstance(weight, Tensor)
            and (bias is None or isinstance(bias, Tensor))):
        _require_tensors("linear", ("bias",), input=input, weight=weight, bias=bias)
    ndim, shape = input._array.ndim, input._array.shape
    if ndim == 0 or weight._array.ndim == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{ndim}D and {weight._array.ndim}D")
    if bias is None:  # mm's dtype check, with its message ("expected m1 and m2 ...")
        two_matrices = ndim == 2 and weight._array.ndim == 2
        return ops.mm(input, _matrix_t(weight)) if two_matrices else ops.matmul(input, weight.t())
    vector_bias = bias._array.ndim == 1 or sum(n != 1 for n in bias._array.shape) == 1
    folds = ndim == 2 or input.is_contiguous() and vector_bias
    if folds and input._array.dtype != weight._array.dtype:  # (else matmul's message)
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got "
                           f"{input.type()[6:-6]} and {weight.type()[6:-6]}")
    if not folds:
        out = ops.matmul(input, weight.t())
        check_in_place_broadcast(out.shape, _broadcast_shape(out, bias))
        return out.add_(bias)  # in place: the product's dtype, whatever the bias's
    rows = input if ndim == 2 else input.reshape(math.prod(shape[:-1]), shape[-1])
    out = _addmm_checked(bias, rows, weight)
    return out if ndim == 2 else out.view(*shape[:-1], out.shape[1])


def _addmm_checked(bias, rows, weight):
    """``addmm(bias, rows, weight.T)``, its bias checked against the product's shape with
    addmm's message (a (out,) bias always fits). A matrix is transposed by ``t()``'s primitive
    directly; any other weight by ``t()``, for its error (or addmm's, for a vector)."""
    matrix = weight._array.ndim == 2
    if matrix and bias._array.shape != (weight._array.shape[0],) \
            and rows._array.shape[1] == weight._array.shape[1]:
        expand_shape(bias, (rows._array.shape[0], weight._array.shape[0]))
    return ops.addmm(bias, rows, _matrix_t(weight) if matrix else weight.t())


def bilinear(input1, input2, weight, bias=None):
    """``x1ᵀ W[o] x2 + b[o]`` for each output feature ``o``, over any leading dimensions:
    one matrix product with ``W`` laid out as (in1, out * in2), then a product with ``x2``."""
    _require_tensors("bilinear", ("bias",), input1=input1, input2=input2, weight=weight,
                     bias=bias)
    out_features, in1, in2 = weight.shape
    if input1.shape[:-1] != input2.shape[:-1]:
        mismatch = next((d for d, (a, b) in enumerate(zip(input1.shape, input2.shape)) if a != b),
                        0)
        raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {mismatch}: "
                           f"got {input1.shape[mismatch]} and {input2.shape[mismatch]}")
    if input1.shape[-1] != in1:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got "
                           f"{input1.shape[-1]} but expected {in1}")
    if input2.shape[-1] != in2:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got "
                           f"{input2.shape[-1]} but expected {in2}")
    if bias is not None and tuple(bias.shape) != (out_features,):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got "
                           f"{bias.shape[-1] if bias.dim() else 0} but expected {out_features}")
    batch = input1.shape[:-1]
    left = ops.mm(input1.reshape(-1, in1), weight.permute(1, 0, 2).reshape(in1, -1))
    out = (left.view(-1, out_features, in2) * input2.reshape(-1, 1, in2)).sum(-1)
    out = out.view(*batch, out_features)
    return out if bias is None else out + bias


def relu(input, inplace=False):
    if not isinstance(input, Tensor):
        _require_tensors("relu_" if inplace else "relu", input=input)
    return ops.relu_(input) if inplace else ops.relu(input)


def tanh(input):
    return ops.tanh(input)


def sigmoid(input):
    return ops.sigmoid(input)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _legacy_softmax_dim("softmax", input.dim())
    return ops.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _legacy_softmax_dim("log_softmax", input.dim())
    return ops.log_softmax(input, dim, dtype=dtype)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """A sample of the Gumbel-softmax (concrete) distribution: ``softmax((logits + g) / tau)``
    with Gumbel noise ``g``; ``hard`` gives the one-hot of its argmax, whose gradient is the
    soft sample's (the straight-through estimator)."""
    if eps != 1e-10:
        warn_at_caller("`eps` parameter is deprecated and has no effect.")
    shape, dtype = logits.shape, logits._array.dtype
    gumbels = Tensor._make(_random.drawn(
        lambda: -np.log(_random.source().exponential(shape).astype(dtype))))
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = ops.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


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


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _legacy_softmax_dim("softmin", input.dim())
    return softmax(-input, dim, dtype=dtype)


def _legacy_softmax_dim(name, ndim):
    """PyTorch's legacy choice of dimension when none is given (0 for 0-, 1- and 3-D inputs,
    else 1), with its deprecation warning."""
    warn_at_caller(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                   "to include dim=X as an argument.")
    return 0 if ndim in (0, 1, 3) else 1



def celu(input, alpha=1.0, inplace=False):
    return _activation.celu(input, alpha, inplace)


def threshold(input, threshold, value, inplace=False):
    return _activation.threshold(input, threshold, value, inplace)


def softshrink(input, lambd=0.5):
    return _activation.softshrink(input, lambd)


def hardshrink(input, lambd=0.5):
    return _activation.hardshrink(input, lambd)


def tanhshrink(input):
    return input - input.tanh()


def prelu(input, weight):
    return _activation.prelu(input, weight)


def glu(input, dim=-1):
    return _activation.glu(input, dim)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Leaky ReLU with a random slope in [lower, upper] per negative element in training, and
    the mean slope ``(lower + upper) / 2`` in eval."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if training and _random.draw_observer is None:
        noise = Tensor._make(_rrelu_noise(input._array, lower, upper))
    else:
        if training:  # compiled: a slope for every element, as torch.compile's decomposition
            shape, dtype = input.shape, input._array.dtype
            slopes = Tensor._make(_random.drawn(
                lambda: _random.source().uniform(shape, dtype, lower, upper)))
        else:
            slopes = (lower + upper) / 2
        # tensor operations, not numpy on the arrays: a compiled call recomputes them on its draws
        noise = ops.where(input.detach() > 0, ops.ones_like(input), slopes)
    return _activation.rrelu_with_noise(input, noise, inplace)


def _rrelu_noise(array, lower, upper):
    """PyTorch's eager RReLU noise: a slope for each element that is not positive, drawn in
    order as ``uniform_real_distribution<double>`` between the bounds taken in the tensor's
    type, then rounded to it; 1 elsewhere (NaN included)."""
    work = np.float64 if array.dtype == np.float64 else np.float32
    flat = np.ascontiguousarray(array).reshape(-1)
    slopes = flat <= 0
    noise = np.ones(flat.shape, array.dtype)
    noise[slopes] = _random.source().uniform_float64(
        int(slopes.sum()), work(lower), work(upper)).astype(work)
    return noise.reshape(array.shape)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, inplace=True)


def relu_(input):
    return relu(input, inplace=True)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def selu_(input):
    return selu(input, inplace=True)


def celu_(input, alpha=1.0):
    return celu(input, alpha, inplace=True)


def threshold_(input, threshold, value):
    return _activation.threshold(input, threshold, value, True)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes each element with probability ``p`` and scales the rest by ``1 / (1 - p)``."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not isinstance(input, Tensor):
        _require_tensors("dropout", input=input)
    if not training or p == 0.0 or input.numel() == 0:
        return input
    if p == 1.0:
        return _zeroed(input, inplace)
    _check_noise_dtype(input, input._array.dtype)
    shape, dtype = input.shape, input._array.dtype  # (a recipe must not hold the tensor)
    mask = Tensor._make(_laid_out_as(_random.drawn(lambda: _dropout_mask(shape, p, dtype)),
                                     input._array))
    return ops.mul_(input, mask) if inplace else input * mask


def _laid_out_as(noise, array):
    """Noise drawn in row-major order, laid out as ``array`` (PyTorch draws it into
    ``empty_like(input)``): the result of a channels-last input stays channels-last. (Feature
    dropout's noise, one value per channel, has its own shape and stays as drawn.)"""
    return laid_out_like(noise, array) if noise.shape == array.shape else noise


def _zeroed(input, inplace):
    """``input`` times a zero of its own dtype, as PyTorch drops everything (``p = 1``)."""
    zero = ops.zeros((), dtype=input.dtype)
    return ops.mul_(input, zero) if inplace else input * zero


def _check_noise_dtype(input, noise_dtype):
    """PyTorch draws dropout noise in the input's dtype (Bernoulli samples: none for complex
    numbers) and scales it in place by a float into ``noise_dtype``, which an integer or bool
    dtype refuses."""
    name = _LEGACY_TYPE_NAMES[input._array.dtype.name]
    if input._array.dtype.kind == "c":
        raise NotImplementedError(f'"bernoulli_scalar_cpu_" not implemented for \'{name}\'')
    if noise_dtype.kind != "f":
        raise RuntimeError(f"result type {_LEGACY_TYPE_NAMES[dtypes.get_default_dtype().name]} "
                           "can't be cast to the desired output type "
                           f"{_LEGACY_TYPE_NAMES[noise_dtype.name]}")


def _dropout_mask(shape, p, dtype):
    """0 with probability ``p``, else ``1 / (1 - p)``: PyTorch's noise, ``bernoulli_(1 - p)``
    divided by ``1 - p`` in the input's dtype."""
    return _random.source().bernoulli(shape, 1 - p).astype(dtype) / np.array(1 - p, dtype)


def _feature_dropout(input, p, training, inplace):
    """ATen's ``feature_dropout``: whole channels (dim 1 of a batch) zeroed with probability
    ``p``, the rest scaled by ``1 / (1 - p)``."""
    if not training or p == 0.0 or input.numel() == 0:
        return input
    shape = input.shape[:2] + (1,) * (input.dim() - 2)
    if p < 1.0:
        _check_noise_dtype(input, input._array.dtype)
        dtype = input._array.dtype
        mask = Tensor._make(_random.drawn(lambda: _dropout_mask(shape, p, dtype)))
    else:
        mask = ops.zeros(shape, dtype=input.dtype)
    return ops.mul_(input, mask) if inplace else input * mask


def _check_dropout_probability(p):
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


# SELU's negative saturation value, -scale * alpha: what alpha dropout sets dropped units to.
_SELU_SATURATION = 1.7580993408473766


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: dropped elements go to SELU's saturation value instead of 0,
    then an affine map restores the input's mean and variance."""
    return _alpha_dropout(input, p, training, inplace, feature=False)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Alpha dropout of whole channels (dim 1 of a batch)."""
    return _alpha_dropout(input, p, training, inplace, feature=True)


def _alpha_dropout(input, p, training, inplace, feature):
    """ATen's ``_dropout_impl`` with ``alpha_dropout``: ``input * a * keep + b`` with
    ``a = 1 / sqrt((alpha^2 p + 1)(1 - p))`` and ``b = a * alpha * (p - 1 + keep)``."""
    _check_dropout_probability(p)
    if p == 0 or not training or input.numel() == 0:
        return input
    if feature and input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 1:
        return _zeroed(input, inplace)
    # it scales ``noise - 1``, which makes a bool input's noise int64 first
    _check_noise_dtype(input, np.dtype(np.int64) if input._array.dtype.kind == "b"
                       else input._array.dtype)
    shape = input.shape[:2] + (1,) * (input.dim() - 2) if feature else input.shape
    dtype = input._array.dtype
    keep = _laid_out_as(_random.drawn(
        lambda: _random.source().bernoulli(shape, 1 - p).astype(dtype)), input._array)
    a = 1.0 / math.sqrt((_SELU_SATURATION ** 2 * p + 1) * (1 - p))
    shift = Tensor._make(((keep - 1 + p) * (_SELU_SATURATION * a)).astype(dtype))
    scale = Tensor._make((keep * a).astype(dtype))
    return (ops.mul_(input, scale) if inplace else input * scale).add_(shift)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Channel-wise dropout of (N, C, L) or unbatched (C, L) inputs."""
    _check_dropout_probability(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, "
            "a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    if input.dim() == 3:
        return _feature_dropout(input, p, training, inplace)
    return _feature_dropout(input.unsqueeze(0), p, training, inplace).squeeze(0)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Channel-wise dropout of (N, C, H, W) inputs (a 3-D input is read as (N, C, L))."""
    _check_dropout_probability(p)
    if input.dim() not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {input.dim()}-D input to dropout2d, which is deprecated and "
            "will result in an error in a future release. To retain the behavior and silence "
            "this warning, please use dropout instead. Note that dropout2d exists to provide "
            "channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 3D or 4D inputs).", stacklevel=2)
    if input.dim() == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Channel-wise dropout of (N, C, D, H, W) or unbatched (C, D, H, W) inputs."""
    _check_dropout_probability(p)
    if input.dim() not in (4, 5):
        warnings.warn(
            f"dropout3d: Received a {input.dim()}-D input to dropout3d, which is deprecated and "
            "will result in an error in a future release. To retain the behavior and silence "
            "this warning, please use dropout instead. Note that dropout3d exists to provide "
            "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 4D or 5D inputs).", stacklevel=2)
    if input.dim() == 5:
        return _feature_dropout(input, p, training, inplace)
    return _feature_dropout(input.unsqueeze(0), p, training, inplace).squeeze(0)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalises over the trailing ``normalized_shape`` dimensions (biased variance), as one
    ``NativeLayerNormBackward0``; a missing weight or bias is a constant one or zero."""
    if not isinstance(input, Tensor):
        _require_tensors("layer_norm", input=input)
    normalized_shape = _checked_normalized_shape("layer_norm", input, normalized_shape, weight,
                                                 bias)
    _normalization.check_dtypes("LayerNormKernelImpl", input, weight, bias)
    mixed = _mixed_parameters(input, weight, bias)
    weight, bias = _affine_parameters(weight, bias, normalized_shape, input.dtype)
    return _normalization.layer_norm(input, weight, bias, len(normalized_shape), eps, mixed)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalises each sample's channels (dim 1, with the dimensions after them) in
    ``num_groups`` groups, then scales and shifts per channel, as one
    ``NativeGroupNormBackward0``; a missing weight or bias is a constant one or zero."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.dim()}")
    batch, channels = input.shape[:2]
    _verify_batch_size([batch * channels // num_groups, num_groups, *input.shape[2:]])
    _check_group_norm_arguments(input, num_groups, weight, bias)
    _normalization.check_dtypes("GroupNormKernelImpl", input, weight, bias)
    mixed = _mixed_parameters(input, weight, bias)
    weight, bias = _affine_parameters(weight, bias, input.shape[1], input.dtype)
    return _normalization.group_norm(input, weight, bias, num_groups, eps, mixed)


def _check_group_norm_arguments(input, num_groups, weight, bias):
    """ATen's checks, in its order. Its bias message prints the weight's shape (``[0]`` for no
    weight): that is what PyTorch prints, so it is reproduced."""
    channels = input.shape[1]
    if num_groups <= 0:
        raise RuntimeError(f"Expected num groups to be greater than 0, got {num_groups}")
    if channels % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, "
                           f"but got input of shape {list(input.shape)} and "
                           f"num_groups={num_groups}")
    for name, value in (("weight", weight), ("bias", bias)):
        if value is not None and (value.dim() != 1 or value.numel() != channels):
            printed = [0] if weight is None else list(weight.shape)
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape {printed} and input "
                               f"of shape {list(input.shape)}")


def _verify_batch_size(size):
    """PyTorch's check before normalising with batch statistics: the dims other than the
    channels' (dim 1) must hold more than one value (none at all is allowed)."""
    values = size[0] * math.prod(size[2:])
    if values == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{size}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Normalises each channel (dim 1) with the batch's statistics in training — updating the
    running ones in place, with the unbiased variance — or with the running ones in eval."""
    if training:
        _verify_batch_size(input.shape)
    if not isinstance(momentum, numbers.Real):  # (the layers turn momentum=None into a number)
        raise TypeError(f"batch_norm(): argument 'momentum' (position 7) must be float, not "
                        f"{type(momentum).__name__}")
    if input.numel() == 0:  # (before ATen checks the statistics or looks at any dtype)
        return _empty_batch_norm(input, weight, bias)
    # ATen reads the channel count past the sizes of an input of fewer than two dims (where it
    # finds 0 here), and fails on dim 1 only after the checks that count
    channels = input.shape[1] if input.dim() > 1 else 0
    for name, value in (("running_mean", running_mean), ("running_var", running_var)):
        if value is None and not training:
            raise RuntimeError(f"{name} must be defined in evaluation mode")
        _check_channel_count(name, value, channels)
    _check_channel_count("weight", weight, channels)
    _check_channel_count("bias", bias, channels)
    if input.dim() < 2:
        input.size(1)  # (the IndexError)
    if training and (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be "
                         "None")
    require_floating(input, "batch_norm")
    _normalization.check_dtypes("batch_norm", input, weight, bias, running_mean, running_var)
    mixed = _mixed_parameters(input, weight, bias)
    weight, bias = _affine_parameters(weight, bias, channels, input.dtype)
    if not training and running_mean is not None:
        return _normalization.batch_norm_eval(input, weight, bias, running_mean, running_var, eps)
    if running_mean is not None:
        if _autograd_function.active_transforms:  # (only vmap checks: no import per call)
            from ..func.batching import check_batch_norm_statistics  # (func imports nn)
            check_batch_norm_statistics(running_mean, running_var)
        _normalization.update_running_stats(input, running_mean, running_var, momentum)
    return _normalization.batch_norm_train(input, weight, bias, eps, mixed)


def _empty_batch_norm(input, weight, bias):
    """ATen's path for an input without elements: the running statistics are left alone, and
    the result is a new empty tensor still connected to the weight and bias for autograd."""
    out = input.clone()
    if weight is not None:
        out = out * weight.select(0, 0).to(input.dtype)
    if bias is not None:
        out = out + bias.select(0, 0).to(input.dtype)
    return out


def _mixed_parameters(input, *parameters):
    """Whether float32 parameters come with a float16 input (ATen's "mixed" kernels)."""
    return any(p is not None and p.dtype != input.dtype for p in parameters)


def _affine_parameters(weight, bias, shape, dtype):
    """A normalisation's scale and shift in the input's dtype: constant ones and zeros for the
    missing ones (float32 parameters of a half-precision input are cast)."""
    weight = ops.ones(shape, dtype=dtype) if weight is None else weight.to(dtype)
    bias = ops.zeros(shape, dtype=dtype) if bias is None else bias.to(dtype)
    return weight, bias


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    """Rows of ``weight`` picked by the integer ``input``; the padding row gets no gradient.
    With ``max_norm``, the picked rows of ``weight`` are first renormalised in place."""
    if padding_idx:  # (0 needs no check, nor the weight's size)
        if not -weight.size(0) <= padding_idx < weight.size(0):
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= weight.size(0)
    if max_norm is not None:
        input = input.contiguous()  # (a list fails here, as in PyTorch)
        _renorm_rows_(weight, input, max_norm, norm_type)
    if not (isinstance(weight, Tensor) and isinstance(input, Tensor)):
        _require_tensors("embedding", weight=weight, indices=input)
    return _embedding.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def _check_channel_count(name, value, channels):
    if value is not None and value.numel() != channels:
        raise RuntimeError(f"{name} should contain {channels} elements not {value.numel()}")


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-5):
    """Normalises each channel of each sample over its spatial dimensions: batch norm of the
    (1, N*C, ...) view, as ATen computes it, the running statistics averaged over the batch."""
    if use_input_stats and math.prod(input.shape[2:]) == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                         f"{input.shape}")
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when "
                           "use_input_stats is false")
    batch, channels = input.size(0), input.size(1)  # (ATen's errors for fewer dims)

    def repeated(value):
        return None if value is None else value.repeat(batch)

    stats = [repeated(running_mean), repeated(running_var)]
    out = batch_norm(input.contiguous().view(1, batch * channels, *input.shape[2:]), *stats,
                     repeated(weight), repeated(bias), use_input_stats, momentum, eps)
    with grad_mode.no_grad():
        for running, updated in zip((running_mean, running_var), stats):
            if running is not None:
                running.copy_(updated.view(batch, channels).mean(0))
    return out.view(input.shape)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Each element over ``(k + alpha * mean of squares over the ``size`` neighbouring
    channels) ** beta``, computed as PyTorch does: an average pool over the channel dimension."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input "
                         f"(got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = pad(div.unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.shape
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1).view(sizes)
    return input / div.mul(alpha).add(k).pow(beta)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """``input / sqrt(mean(input², trailing dims) + eps) * weight``, computed as PyTorch does in
    float32 for a half-precision input (its square would overflow float16) and cast back;
    ``eps`` defaults to the machine epsilon of that computing dtype."""
    normalized_shape = _checked_normalized_shape("rms_norm", input, normalized_shape, weight)
    require_floating(input, "rms_norm")
    upcast = input.float() if input.dtype == dtypes.float16 else input
    if eps is None:
        eps = float(np.finfo(upcast._array.dtype).eps)
    dims = tuple(range(-len(normalized_shape), 0))
    out = upcast * ((upcast * upcast).mean(dims, keepdim=True) + eps).rsqrt()
    if weight is not None:
        if weight.dtype != input.dtype:
            _warn_once(f"Mismatch dtype between input and weight: input dtype = "
                       f"{_CPP_TYPE_NAMES[input.dtype.name]}, weight dtype = "
                       f"{_CPP_TYPE_NAMES[weight.dtype.name]}, Cannot dispatch to fused "
                       f"implementation.", site="rms_norm dtype")
        out = out * weight
    return out.to(input.dtype)  # the input's dtype, as PyTorch's type_as


def _checked_normalized_shape(name, input, normalized_shape, weight, bias=None):
    """``normalized_shape`` as a tuple, after PyTorch's checks of it against the affine
    parameters and the input's trailing dimensions (``rms_norm`` prints ``[*3]``,
    ``layer_norm`` ``[*, 3]``)."""
    if isinstance(normalized_shape, int):
        raise TypeError(f"{name}(): argument 'normalized_shape' (position 2) must be tuple of "
                        f"ints, not int")
    normalized_shape = tuple(normalized_shape)
    if not normalized_shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    for role, parameter in (("weight", weight), ("bias", bias)):
        if parameter is not None and tuple(parameter.shape) != normalized_shape:
            raise RuntimeError(
                f"Expected {role} to be of same shape as normalized_shape, but got {role} of "
                f"shape {list(parameter.shape)} and normalized_shape = {list(normalized_shape)}")
    if name == "rms_norm" and input.dim() < len(normalized_shape):
        raise ValueError(f"Input tensor must have at least {len(normalized_shape)} dimensions, "
                         f"but got {input.dim()}")
    if tuple(input.shape[input.dim() - len(normalized_shape):]) != normalized_shape:
        star = "*" if name == "rms_norm" else "*, "
        raise RuntimeError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
            f"[{star}{', '.join(map(str, normalized_shape))}], but got input of "
            f"size{list(input.shape)}")
    return normalized_shape


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    """Sums, means or maxima over bags of embeddings: the rows of a 2-D ``input``, or the runs
    of a 1-D ``input`` that start at ``offsets``; empty bags give zeros."""
    if weight.dtype == dtypes.int64 and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.shape != per_sample_weights.shape:
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is "
                         f"not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found offsets "
                             f"of type {_public_type(offsets)}")
        offsets = ops.arange(0, input.numel(), input.shape[1], dtype=input.dtype)
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.dim()}")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        _renorm_rows_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub.")
    return _embedding.embedding_bag(weight, input, offsets, mode, per_sample_weights,
                                    include_last_offset, padding_idx, scale_grad_by_freq, sparse)


def _public_type(value):
    """``str(type(value))`` as PyTorch prints it: a tensor's class is ``torch.Tensor``."""
    return "<class 'torch.Tensor'>" if isinstance(value, Tensor) else str(type(value))


def _renorm_rows_(weight, input, max_norm, norm_type):
    """The picked rows renormalised in place, untracked (one version bump, changed or not)."""
    with grad_mode.no_grad():
        _embedding.embedding_renorm_(weight, input, max_norm, norm_type)


def one_hot(tensor, num_classes=-1):
    if tensor._array.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if tensor.numel() == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    # The checks read the array, recording nothing (a compiled caller keeps its graph); the
    # class count inferred from the data is .item(), a data dependence a compiled caller sees.
    elif tensor._array.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    elif num_classes == -1:
        num_classes = int(tensor.max().item()) + 1
    elif tensor._array.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return (tensor.unsqueeze(-1) == ops.arange(num_classes)).long()


def pad(input, pad, mode="constant", value=None):
    """Pads the last ``len(pad) // 2`` dimensions; ``pad`` runs from the last dimension back.

    ``mode`` is "constant" (with ``value``), "reflect", "replicate" or "circular"; the arguments
    are checked as PyTorch's argument parser does, the rest as ATen does (``ops.padding``).
    """
    if not isinstance(pad, (tuple, list)):
        raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, not "
                        f"{type(pad).__name__}")
    amounts = list(int_list(pad, "pad", "pad", 2))
    if not isinstance(mode, str):
        raise TypeError(f"pad(): argument 'mode' (position 3) must be str, not "
                        f"{type(mode).__name__}")
    return _padding.pad(input, tuple(amounts), mode, value)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """``input`` divided by its ``p``-norm along ``dim`` (at least ``eps``), into ``out`` if given."""
    norm = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / norm if out is None else _write_out("div", input / norm, out)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``<x1, x2> / (|x1| |x2|)`` along ``dim``, each norm at least ``eps``, as ATen computes it."""
    common = dtypes.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{_LEGACY_TYPE_NAMES[common.name]}")
    if eps < 0:
        raise RuntimeError(f"eps must be non-negative, got: {eps:g}")
    shape = _broadcast_shape(x1, x2)
    x1, x2 = ops.broadcast_to(x1.to(common), shape), ops.broadcast_to(x2.to(common), shape)
    x1_norm, x2_norm = _norm_at_least(x1, dim, eps), _norm_at_least(x2, dim, eps)
    return ((x1 / x1_norm) * (x2 / x2_norm)).sum(dim)


def _norm_at_least(x, dim, eps):
    """The 2-norm along ``dim``, raised to ``eps`` where smaller without autograd seeing it (ATen
    clamps under no_grad): a norm below ``eps`` still passes its own gradient."""
    norm = x.norm(2, dim, keepdim=True)
    return norm + (norm.detach().clamp_min(eps) - norm.detach())


pdist = ops.pdist


def _broadcast_shape(a, b):
    try:
        return np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    except ValueError:
        raise RuntimeError(broadcast_error((a, b), {})) from None


# mask types that compute the attention themselves (``torch.nn.attention.bias.CausalBias``), as
# their ``__torch_function__`` does when subclass dispatch is on
ATTN_MASK_HANDLERS = {}


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """``softmax(q kᵀ · scale + mask) v``; a boolean mask marks the positions that take part.
    A query that may attend to nothing gets zeros (PyTorch's "safe softmax"), not nan.

    PyTorch on CPU runs its flash-attention kernel where it can (one
    ``ScaledDotProductFlashAttentionForCpuBackward0`` node) and its "math" composite elsewhere;
    ``_sdpa_backend`` chooses as it does, honouring ``torch.nn.attention.sdpa_kernel``."""
    handler = ATTN_MASK_HANDLERS.get(type(attn_mask))
    if handler is not None:
        return handler(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
    _check_attention_inputs(query, key, value, attn_mask)
    if query.numel() == 0 or key.numel() == 0 or value.numel() == 0:
        return _empty_attention(query, key, value)
    scale = 1 / math.sqrt(query.shape[-1]) if scale is None else scale
    if _sdpa_backend(query, key, value, attn_mask, dropout_p, enable_gqa) == "flash":
        return _flash_attention(query, key, value, _additive_mask(attn_mask, query),
                                is_causal=is_causal, scale=scale)
    return _math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)


def _empty_attention(query, key, value):
    """PyTorch's result when an input is empty: zeros of the output's shape, still connected
    (with zero gradients) to all three inputs."""
    connected = (query.sum() + key.sum() + value.sum()) * 0
    return ops.zeros(*query.shape[:-1], value.shape[-1], dtype=query.dtype) + connected


def _math_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    """PyTorch's "math" kernel: recorded ops, dropout allowed, a mask or the causal hint."""
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    if enable_gqa:
        key, value = _grouped_key_value(query, key, value)
    weights = _attention_weights(query, key, attn_mask, is_causal, scale)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p)
    return ops.matmul(weights, value)


def _attention_weights(query, key, attn_mask, is_causal, scale):
    """``softmax(q kᵀ · scale + mask)``, causal if asked (the mask's top-left triangle)."""
    scores = ops.matmul(query, key.transpose(-2, -1)) * scale
    if attn_mask is not None:
        # PyTorch adds the mask in place: it may not grow the scores (its message then)
        check_in_place_broadcast(scores.shape, _broadcast_shape(scores, attn_mask))
        scores = _masked_scores(scores, attn_mask)
    if is_causal:
        causal = ops.ones(query.shape[-2], key.shape[-2], dtype=dtypes.bool).tril()
        scores = _masked_scores(scores, causal)
    masked = attn_mask is not None or is_causal
    return _safe_softmax(scores) if masked else ops.softmax(scores, -1)


_NO_BACKEND = ("No viable backend for scaled_dot_product_attention was found. This is likely due "
               "to turning off both the math kernel and the fused kernels.")


def _sdpa_backend(query, key, value, attn_mask, dropout_p, enable_gqa):
    """"flash" or "math", as PyTorch picks on CPU: flash when enabled and usable, else math when
    enabled; else PyTorch's error, after its warnings saying why flash could not run."""
    flash_enabled = _cuda_backend.flash_sdp_enabled()
    math_enabled = _cuda_backend.math_sdp_enabled()
    if not flash_enabled and not math_enabled:
        raise RuntimeError(_NO_BACKEND)
    why_not = _why_not_flash(query, key, value, attn_mask, dropout_p, enable_gqa) \
        if flash_enabled else ""
    if why_not is None:
        return "flash"
    if math_enabled:
        return "math"
    warn_at_caller("Flash attention kernel not used because:")
    if why_not:
        warn_at_caller(why_not)
    raise RuntimeError("No available kernel.  Aborting execution.")


def _why_not_flash(query, key, value, attn_mask, dropout_p, enable_gqa):
    """Why PyTorch's CPU flash kernel cannot take these inputs, in its words and in the order of
    its checks; "" for a check it fails silently, None when the kernel can run."""
    if dropout_p > 0.0:
        return "Both fused kernels do not support non-zero dropout."
    if not query.dim() == key.dim() == value.dim() == 4:
        return ("All fused kernels requires query, key and value to be 4 dimensional, but got "
                f"Query dim: {query.dim()}, Key dim: {key.dim()}, Value dim: {value.dim()} "
                "instead.")
    for check in (_why_not_batch_and_heads, _why_not_mask, _why_not_sizes):
        why_not = check(query, key, value, attn_mask, enable_gqa)
        if why_not is not None:
            return why_not
    return None


def _why_not_batch_and_heads(query, key, value, attn_mask, enable_gqa):
    """One batch size for all; one head count, or (grouped-query attention) key and value heads
    that divide the query's."""
    shapes = [list(t.shape) for t in (query, key, value)]
    if not shapes[0][0] == shapes[1][0] == shapes[2][0]:
        return ("For dense inputs, both fused kernels require query, key and value to have the "
                f"same batch_size. Query.sizes(): {shapes[0]}, Key.sizes(): {shapes[1]}, "
                f"Value.sizes(): {shapes[2]} instead. To broadcast dense inputs, try using "
                "unsqueeze and expand_to before passing them into the kernel.")
    heads, key_heads, value_heads = (shape[1] for shape in shapes)
    if enable_gqa:
        if key_heads != value_heads:
            return ("Both fused kernels require key and value to have the same num_heads and "
                    f"batch_size but got: Key sizes: {shapes[1]}, Value sizes: {shapes[2]}, "
                    f"Query sizes: {shapes[0]} instead.")
        if heads % key_heads:
            return ("The number of heads in key/value must divide number of heads in query.Got "
                    f"input Key sizes(): {key_heads}, Value sizes(): {value_heads}, Query "
                    f"sizes(): {heads} instead.")
    elif not heads == key_heads == value_heads:
        return ("For dense input, both fused kernels require query, key and value to have the "
                f"same num_heads. Query.sizes(): {shapes[0]}, Key sizes(): {shapes[1]}, Value "
                f"sizes(): {shapes[2]} instead. To broadcast dense inputs, try using unsqueeze "
                "and expand_to before passing them into the kernel.")
    return None


def _why_not_mask(query, key, value, attn_mask, enable_gqa):
    """A mask that needs no gradient, shaped (L or 1, S or 1) or (N or 1, heads or 1, L or 1,
    S or 1); a 1-d mask fails on PyTorch's reading of its size(-2)."""
    if attn_mask is None:
        return None
    if attn_mask.requires_grad:
        return ""
    length, source_length = attn_mask.size(-2), attn_mask.size(-1)
    if length not in (1, query.shape[2]) or source_length not in (1, key.shape[2]):
        return ""
    if attn_mask.dim() == 2 or attn_mask.dim() == 4 and attn_mask.shape[0] in (
            1, query.shape[0]) and attn_mask.shape[1] in (1, query.shape[1]):
        return None
    return ("Please use the following attn mask shapes: 2d - ({Q_seq_len, 1}  x {KV_seq_len, 1});"
            " 4d - ({Batch, 1} x {Num_heads, 1} x {Q_seq_len, 1}  x {KV_seq_len, 1})")


def _why_not_sizes(query, key, value, attn_mask, enable_gqa):
    """One head size for all, rows of stride 1. (PyTorch's kernel also takes values of
    another length than the keys, reading past them; here they go to the math path, which
    refuses them.)"""
    sizes = [t.shape[-1] for t in (query, key, value)]
    if not sizes[0] == sizes[1] == sizes[2]:
        return ("Flash attention requires q,k,v to have the same last dimension. Got "
                f"Query.size(-1): {sizes[0]}, Key.size(-1): {sizes[1]}, Value.size(-1): "
                f"{sizes[2]} instead.")
    if key.shape[2] != value.shape[2]:
        _flash_mask_4d(attn_mask, query, value)
        return ""
    strides = [t.stride(-1) for t in (query, key, value)]
    if strides != [1, 1, 1]:
        return ("All fused kernels require the last dimension of the input to have stride 1. "
                f"Got Query.stride(-1): {strides[0]}, Key.stride(-1): {strides[1]}, "
                f"Value.stride(-1): {strides[2]}")
    return None


def _flash_mask_4d(attn_mask, query, value):
    """PyTorch's flash kernel expands its mask to (1 or N, 1 or heads, L, the *value's*
    length): a mask fitted to keys of another length fails there, with expand's message."""
    if attn_mask is None:
        return
    sizes = [1, 1]
    if attn_mask.dim() == 4:
        sizes = [n if attn_mask.shape[i] == n else 1 for i, n in enumerate(query.shape[:2])]
    attn_mask.view(*sizes, *attn_mask.shape[-2:]).expand(*sizes, query.shape[2], value.shape[2])


def _additive_mask(attn_mask, query):
    """The mask the flash kernel adds to the scores: -inf where a boolean mask is False, a
    float mask in the query's dtype, a zero without a mask."""
    if attn_mask is None:
        return ops.zeros((), dtype=query.dtype)
    if attn_mask.dtype == dtypes.bool:
        return ops.zeros(attn_mask.shape, dtype=query.dtype).masked_fill(
            attn_mask.logical_not(), float("-inf"))
    return attn_mask.to(query.dtype)


def _flash_operands(query, key, value, mask):
    """The arrays as the flash kernel computes with them: at least float32 (it accumulates so),
    and key and value heads repeated to serve their groups of query heads."""
    compute = np.promote_types(query.dtype, np.float32)
    query, key, value, mask = (a.astype(compute, copy=False) for a in (query, key, value, mask))
    groups = query.shape[1] // key.shape[1]
    return query, np.repeat(key, groups, axis=1), np.repeat(value, groups, axis=1), mask, groups


def _flash_weights(query, key, mask, is_causal, scale):
    """The softmax weights as arrays; a row that may attend to nothing gets zeros."""
    scores = np.matmul(query, np.swapaxes(key, -2, -1)) * scale + mask
    if is_causal:
        scores = np.where(np.tri(*scores.shape[-2:], dtype=bool), scores, -np.inf)
    peak = scores.max(-1, keepdims=True)
    exps = np.exp(scores - np.where(np.isneginf(peak), 0, peak))
    total = exps.sum(-1, keepdims=True)
    return exps / np.where(total == 0, 1, total)


@primitive("scaled_dot_product_flash_attention",
           node="ScaledDotProductFlashAttentionForCpuBackward0", group=OTHER,
           saves=("query", "key", "value", "mask"), nondifferentiable=("mask",))
def _flash_attention(query, key, value, mask, *, is_causal, scale):
    """The math path's result in one node, as PyTorch's CPU flash kernel gives it."""
    dtype = query.dtype
    query, key, value, mask, _ = _flash_operands(query, key, value, mask)
    weights = _flash_weights(query, key, mask, is_causal, scale)
    return np.matmul(weights, value).astype(dtype, copy=False)


@_flash_attention.vjp
def _(ctx, grad, is_causal, scale):
    query, key, value, mask = ctx.saved
    return (*_flash_attention_backward(grad, query, key, value, mask, is_causal=is_causal,
                                       scale=scale), None)


@primitive("scaled_dot_product_flash_attention_backward", node="NotImplemented", group=OTHER,
           n_outputs=None, nondifferentiable=("mask",))
def _flash_attention_backward(grad, query, key, value, mask, *, is_causal, scale):
    """The gradients for query, key and value through the recomputed weights; a key or value
    head that served a group of query heads gets the sum of the group's gradients. Like
    PyTorch's kernel, not differentiable again."""
    dtype, key_shape = query.dtype, key.shape
    query, key, value, mask, groups = _flash_operands(query, key, value, mask)
    grad = grad.astype(query.dtype, copy=False)
    weights = _flash_weights(query, key, mask, is_causal, scale)
    grad_weights = np.matmul(grad, np.swapaxes(value, -2, -1))
    grad_scores = weights * (grad_weights - (grad_weights * weights).sum(-1, keepdims=True)) \
        * scale
    grad_key = np.matmul(np.swapaxes(grad_scores, -2, -1), query)
    grad_value = np.matmul(np.swapaxes(weights, -2, -1), grad)
    summed = (g.reshape(key_shape[:2] + (groups,) + g.shape[2:]).sum(2)
              for g in (grad_key, grad_value))
    return tuple(g.astype(dtype, copy=False) for g in (np.matmul(grad_scores, key), *summed))


@_flash_attention_backward.vjp
def _(ctx, grads, is_causal, scale):
    raise RuntimeError("derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward"
                       " is not implemented")


_flash_attention_backward.node_class.qualified_name = "torch::autograd::NotImplemented"


def _grouped_key_value(query, key, value):
    """Grouped-query attention: each key/value head serves a group of query heads (dim -3), so
    it is repeated to the query's head count, which it must divide."""
    heads, key_heads, value_heads = query.size(-3), key.size(-3), value.size(-3)
    if heads == key_heads == value_heads:
        return key, value
    if heads % key_heads or heads % value_heads:
        # PyTorch's message ends there.
        raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
    return (key.repeat_interleave(heads // key_heads, -3),
            value.repeat_interleave(heads // value_heads, -3))


def _expands_to(tensor, shape):
    try:
        return np.broadcast_shapes(tuple(shape), tuple(tensor.shape)) == tuple(shape)
    except ValueError:
        return False


def _masked_scores(scores, mask):
    """A boolean mask marks the positions that take part; a float mask is added (a float32 mask
    of another query dtype in the query's dtype)."""
    if mask.dtype == dtypes.bool:
        return scores.masked_fill(mask.logical_not(), float("-inf"))
    return scores + mask.to(scores.dtype)


def _check_attention_inputs(query, key, value, attn_mask):
    """PyTorch's checks of the inputs, in its order, before it picks a kernel."""
    if not query.dtype == key.dtype == value.dtype:
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{_CPP_TYPE_NAMES[query.dtype.name]} key.dtype: {_CPP_TYPE_NAMES[key.dtype.name]} "
            f"and value.dtype: {_CPP_TYPE_NAMES[value.dtype.name]} instead.")
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, "
                           f"but got query.dim: {query.dim()} key.dim: {key.dim()} and value.dim: "
                           f"{value.dim()} instead.")
    if attn_mask is not None and attn_mask.dtype not in (dtypes.bool, dtypes.float32, query.dtype):
        raise RuntimeError(
            "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
            f"attn_mask.dtype: {_CPP_TYPE_NAMES[attn_mask.dtype.name]} and  query.dtype: "
            f"{_CPP_TYPE_NAMES[query.dtype.name]} instead.")
    if not query.is_floating_point():
        raise RuntimeError(f"expected scalar type {_LEGACY_TYPE_NAMES[dtypes.get_default_dtype().name]}"
                           f" but found {_LEGACY_TYPE_NAMES[query.dtype.name]}")


def _safe_softmax(scores):
    """Softmax over the last dimension, with zeros (and zero gradients) for rows that are all
    -inf, where the plain softmax gives nan."""
    masked_rows = scores.isneginf().all(-1, keepdim=True)
    return ops.softmax(scores.masked_fill(masked_rows, 0.0), -1).masked_fill(masked_rows, 0.0)


# ---------------------------------------------------------------------------------- resampling

_MODE_RANKS = {"linear": 3, "bilinear": 4, "trilinear": 5}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resizes the spatial dimensions (after N and C) to ``size``, or by ``scale_factor``
    (``floor(n * scale)``, the scale itself setting the source positions unless
    ``recompute_scale_factor``), with PyTorch's checks in PyTorch's order."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    output_size, scales = _output_size_and_scales(input, dim, size, scale_factor)
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if recompute_scale_factor or (mode == "area" and size is None):
        output_size = [int(input.shape[i + 2] * scales[i]) for i in range(dim)]  # sym_int
        scales = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes "
                         "and requires a 4-D tensor as input")
    if mode == "lanczos" and input.dim() == 4:
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    if antialias:
        kind = {"bilinear": "linear_aa", "bicubic": "bicubic_aa", "lanczos": "lanczos_aa"}[mode]
        return _upsample(input, kind, f"_upsample_{mode}2d_aa", output_size, scales,
                         align_corners)
    rank = _MODE_RANKS.get(mode)
    if mode == "area" and input.dim() == 5:
        return adaptive_avg_pool3d(input, output_size)
    if mode == "area" and input.dim() in (3, 4):
        return (adaptive_avg_pool2d(input.unsqueeze(-2), (1, *output_size)).squeeze(-2)
                if dim == 1 else adaptive_avg_pool2d(input, output_size))
    if (mode in ("nearest", "nearest-exact") and input.dim() in (3, 4, 5)) or (
            rank == input.dim()) or (mode == "bicubic" and input.dim() == 4):
        kind = "linear" if rank else mode
        return _upsample(input, kind, _UPSAMPLE_KERNELS[mode].format(dim), output_size, scales,
                         align_corners)
    if rank is not None and input.dim() in (3, 4, 5):
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {rank}D "
                                  "input")
    raise NotImplementedError(
        f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the "
        "modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
        f"nearest-exact (got {mode})")


_UPSAMPLE_KERNELS = {"nearest": "upsample_nearest{}d", "nearest-exact": "_upsample_nearest_exact{}d",
                     "linear": "upsample_linear1d", "bilinear": "upsample_bilinear2d",
                     "trilinear": "upsample_trilinear3d", "bicubic": "upsample_bicubic2d"}
_SCALE_PARAMETERS = {1: ("scales",), 2: ("scales_h", "scales_w"),
                     3: ("scales_d", "scales_h", "scales_w")}


def _upsample(input, kind, kernel, output_size, scales, align_corners):
    """ATen's ``kernel`` (``upsample_bilinear2d`` ...): its arguments parsed, then the output size
    ``floor(n * scale)`` converted to int64 with ATen's check."""
    dim = input.dim() - 2
    _parse_upsample_arguments(kernel, dim, kind not in ("nearest", "nearest-exact"),
                              output_size, scales)
    if output_size is None:
        output_size = []
        for n, scale in zip(input.shape[2:], scales):
            value = float(n) * float(scale)
            if not -2.0 ** 63 <= value < 2.0 ** 63:  # (nan too)
                raise RuntimeError("value cannot be converted to type int64_t without overflow")
            output_size.append(math.floor(value))
        scales = [float(scale) for scale in scales]
    else:
        output_size, scales = [operator.index(n) for n in output_size], [None] * dim
    return _resample.upsample(input, kind, output_size, scales, align_corners)


def _parse_upsample_arguments(kernel, dim, with_align_corners, output_size, scales):
    """The argument parser's checks of ``kernel(input, output_size, [align_corners,]
    scale_factors)``: each list's first element picks the overload (an int, not a bool; a
    number), the rest are checked as the list is read."""
    def is_int(value):
        return not isinstance(value, bool) and hasattr(value, "__index__")

    def is_float(value):
        return isinstance(value, (int, float, np.integer, np.floating))

    if (output_size and not is_int(output_size[0])) or (scales and not is_float(scales[0])):
        def described(value):
            if value is None:
                return "NoneType"
            kinds = ", ".join(type(v).__name__ for v in value)
            return (f"list of [{kinds}]" if isinstance(value, list) else
                    f"{type(value).__name__} of ({kinds})")
        align = "bool align_corners, " if with_align_corners else ""
        given = ["Tensor", type(output_size).__name__, *(["bool"] if with_align_corners else []),
                 type(scales).__name__]
        scale_parameters = ", ".join(f"float {name} = None" for name in _SCALE_PARAMETERS[dim])
        raise TypeError(
            f"{kernel}() received an invalid combination of arguments - got "
            f"({', '.join(given)}), but expected one of:\n"
            f" * (Tensor input, tuple of ints output_size, {align}tuple of floats scale_factors)\n"
            f"      didn't match because some of the arguments have invalid types: (Tensor, "
            f"!{described(output_size)}!, {'bool, ' if with_align_corners else ''}"
            f"!{described(scales)}!)\n"
            f" * (Tensor input, tuple of ints output_size, {align}{scale_parameters}, *, "
            f"Tensor out = None)\n")
    for position, scale in enumerate(scales or (), 1):
        if not is_float(scale):
            raise TypeError(f"{kernel}(): argument 'scale_factors' must be tuple of floats, but "
                            f"found element of type {type(scale).__name__} at pos {position}")


def _output_size_and_scales(input, dim, size, scale_factor):
    """Exactly one of (output sizes, scale factors), each a list of ``dim``."""
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if not isinstance(size, (list, tuple)):
            return [size] * dim, None
        if len(size) != dim:
            raise ValueError(
                "Input and output must have the same number of spatial dimensions, but got "
                f"input with spatial dimensions of {list(input.shape[2:])} and output size of "
                f"{size}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                "output size in (o1, o2, ...,oK) format.")
        if not all(isinstance(n, (int, np.integer)) for n in size):
            raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                            f"Tuple[int, int, int], but got size with types "
                            f"{[type(n) for n in size]}")
        return size, None  # as given: the parser names a tuple or a list
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if not isinstance(scale_factor, (list, tuple)):
        return None, [scale_factor] * dim
    if len(scale_factor) != dim:
        raise ValueError(
            "Input and scale_factor must have the same number of spatial dimensions, but got "
            f"input with spatial dimensions of {list(input.shape[2:])} and scale_factor of "
            f"shape {scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
            "format and scale_factor in (s1, s2, ...,sK) format.")
    return None, scale_factor


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


_ALIGN_CORNERS_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since "
    "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
    "documentation of grid_sample for details.")


def affine_grid(theta, size, align_corners=None):
    """The (N, H, W, 2) sampling grid of the 2-D affine maps ``theta`` (N, 2, 3), in
    ``grid_sample``'s normalised coordinates, for an output of ``size`` (N, C, H, W); or the
    (N, D, H, W, 3) grid of 3-D maps (N, 3, 4) for ``size`` (N, C, D, H, W)."""
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) not in (4, 5):
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    spatial = len(size) - 2
    if theta.dim() != 3 or tuple(theta.shape[-2:]) != (spatial, spatial + 1):
        raise ValueError(f"Expected a batch of {spatial}D affine matrices of shape "
                         f"Nx{spatial}x{spatial + 1} for size {size}. Got {theta.shape}.")
    if align_corners and min(size[2:]) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids "
                      "when align_corners=True. This is not an intended use case of affine_grid. "
                      "See the documentation of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return _resample.affine_grid(theta, size, align_corners)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Samples ``input`` (N, C, H, W) at the normalised (x, y) positions of ``grid``
    (N, Ho, Wo, 2), or (N, C, D, H, W) at (x, y, z) positions (N, Do, Ho, Wo, 3): -1 and 1 are
    the edge pixels' outer edges (centres if ``align_corners``)."""
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, stacklevel=2)
        align_corners = False
    _check_grid_sampler(input, grid, mode)
    if not input.is_floating_point():
        kernel = "grid_sampler_2d_cpu_kernel_impl" if input.dim() == 4 else "grid_sampler3d_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{input.type()[6:-6]}\'')
    if input.dtype != grid.dtype:  # ATen's kernel reads the grid as the input's type
        raise RuntimeError(f"expected scalar type {input.type()[6:-6]} but found "
                           f"{grid.type()[6:-6]}")
    return _resample.grid_sample(input, grid, mode, padding_mode, align_corners)


def _check_grid_sampler(input, grid, mode):
    """ATen's ``check_grid_sampler_common`` then ``check_grid_sampler_2d`` (3d), in their order:
    the batch sizes, the grid's last size, non-empty spatial dims, the ranks, bicubic's rank."""
    if input.size(0) != grid.size(0):
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but "
                           f"got input with sizes {list(input.shape)} and grid with sizes "
                           f"{list(grid.shape)}")
    spatial = input.dim() - 2
    if grid.size(-1) != spatial:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {spatial} in last "
                           f"dimension, but got grid with sizes {list(grid.shape)}")
    for dim in range(2, input.dim()):
        if input.shape[dim] == 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {dim} being empty")
    if grid.dim() != input.dim() or input.dim() not in (4, 5):
        raise RuntimeError(f"grid_sampler(): expected {4 if input.dim() == 4 else 5}D input and "
                           "grid with same number of dimensions, but got input with sizes "
                           f"{list(input.shape)} and grid with sizes {list(grid.shape)}")
    if mode == "bicubic" and spatial != 2:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")


# ------------------------------------------------------------------------------------- losses

def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _checked_reduction(reduction):
    """``reduction``, once known valid: the Python losses read it before anything else."""
    if reduction not in _loss.REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _check_loss_arguments(function, reduction, **tensors):
    """What PyTorch's loss bindings check first: the reduction's name, then that each tensor
    argument is a tensor (named with its position, as the binding's parser does)."""
    _checked_reduction(reduction)
    _require_tensors(function, **tensors)


def _warn_if_broadcasting(input, target, stacklevel=3):
    if target.size() != input.size():  # (PyTorch's order, and its AttributeError on a number)
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", UserWarning, stacklevel=stacklevel)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """One ``MseLossBackward0`` (ordinary ops under a ``weight``); a target of another shape is
    broadcast first (with a warning)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if weight is not None:
        expanded_input, expanded_target = _broadcast_pair(input, target)
        _loss.check_sample_weight(weight, input)
        return _loss.weighted_reduction((expanded_input - expanded_target).pow(2), weight,
                                        reduction, mean_over_weights=True)
    return _loss.mse_loss(*_broadcast_pair(input, target), reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    # broadcast first, as PyTorch: a 0-d target expanded takes part in the type promotion
    expanded_input, expanded_target = _broadcast_pair(input, target)
    errors = (expanded_input - expanded_target).abs()
    if weight is not None:
        _loss.check_sample_weight(weight, input)
        return _loss.weighted_reduction(errors, weight, reduction, mean_over_weights=True)
    return _reduce(errors, reduction)


def _broadcast_pair(input, target):
    """Both tensors expanded to their common shape (PyTorch's losses broadcast, warning first)."""
    _warn_if_broadcasting(input, target, stacklevel=4)
    if target.size() == input.size():
        return input, target
    shape = _broadcast_shape(input, target)
    return ops.broadcast_to(input, shape), ops.broadcast_to(target, shape)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if beta == 0.0:  # PyTorch broadcasts (warning once, at the caller) before taking l1_loss
        return l1_loss(*_broadcast_pair(input, target), reduction=reduction)
    return _loss.smooth_l1_loss(*_broadcast_pair(input, target), reduction, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    if weight is not None:
        expanded_input, expanded_target = _broadcast_pair(input, target)
        _loss.check_sample_weight(weight, input)
        pointwise = _loss.huber_loss(expanded_input, expanded_target, "none", delta)
        return _loss.weighted_reduction(pointwise, weight, reduction, mean_over_weights=False)
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
    _check_loss_arguments("kl_div", "sum" if reduction == "batchmean" else reduction,
                          input=input, target=target)
    if not (input.is_floating_point() and target.is_floating_point()):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        pointwise = target.exp() * (target - input)
    else:
        pointwise = ops.xlogy(target, target) - target * input
    if reduction == "batchmean":
        return pointwise.sum() / input.shape[0] if input.dim() else pointwise.sum()
    return _reduce(pointwise, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                          reduction="mean"):
    """``1 - cos`` for pairs labelled 1, ``max(0, cos - margin)`` for pairs labelled -1."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_loss_arguments("cosine_embedding_loss", reduction, input1=input1, input2=input2,
                          target=target)
    return _loss.cosine_embedding_loss(input1, input2, target, margin, reduction)


def _reduction_of(size_average, reduce, reduction):
    """``reduction``, or the one the deprecated ``size_average`` / ``reduce`` flags name."""
    if size_average is not None or reduce is not None:
        return _legacy_reduction(size_average, reduce)
    return reduction


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None,
                        reduction="mean"):
    """``max(0, -y (x1 - x2) + margin)``: ``y = 1`` asks for ``x1`` ranked above ``x2``."""
    reduction = _checked_reduction(_reduction_of(size_average, reduce, reduction))
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    return _reduce((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    """``x`` where ``y = 1``, ``max(0, margin - x)`` where ``y = -1`` (x: a distance)."""
    reduction = _reduction_of(size_average, reduce, reduction)
    _check_loss_arguments("hinge_embedding_loss", reduction, input=input, target=target)
    zeros = ops.zeros_like(input)
    # ATen's ``margin - input`` fills a tensor like the input with the margin: an integer
    # input keeps its dtype (the margin truncated)
    margin_clamp = (ops.full_like(input, margin) - input).clamp_min(0)
    output_margin = ops.where(target != 1, margin_clamp, zeros)
    return _reduce(output_margin + ops.where(target != -1, input, zeros), reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """``log(1 + exp(-y x))`` for ±1 targets, one ``SoftMarginLossBackward0``."""
    reduction = _reduction_of(size_average, reduce, reduction)
    _check_loss_arguments("soft_margin_loss", reduction, input=input, target=target)
    return _loss.soft_margin_loss(input, target, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    """Binary cross-entropy on logits per class, averaged over the classes (the last dim)."""
    reduction = _reduction_of(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    classes = input.size(class_dim)  # (ATen's IndexError for a 0-d input)
    if reduction not in _loss.REDUCTIONS:  # (PyTorch's wording here, after the computation)
        raise ValueError(reduction + " is not valid")
    return _reduce(loss.sum(class_dim) / classes, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The multi-label hinge loss, one ``MultilabelMarginLossBackward0``: each row's labels are
    ``target``'s entries up to its first -1."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _loss.multilabel_margin_loss(input, target, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    """The multi-class hinge loss, one ``MultiMarginLossBackward0``."""
    reduction = _checked_reduction(_reduction_of(size_average, reduce, reduction))
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    _refuse_grad("multi_margin_loss", weight=weight)
    return _loss.multi_margin_loss(input, target, p, margin, weight, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    """``max(0, d(a, p) - d(a, n) + margin)`` with the ``p``-norm pairwise distance; ``swap``
    uses ``d(p, n)`` for the negative distance when it is the smaller."""
    reduction = _checked_reduction(_reduction_of(size_average, reduce, reduction))
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _triplet_loss(anchor, positive, negative,
                         lambda x1, x2: pairwise_distance(x1, x2, p, eps), margin, swap,
                         reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    """The triplet loss with any ``distance_function`` (default: ``pairwise_distance``)."""
    if reduction not in _loss.REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _triplet_loss(anchor, positive, negative, distance_function or pairwise_distance,
                         margin, swap, reduction)


def _triplet_loss(anchor, positive, negative, distance, margin, swap, reduction):
    if not anchor.dim() == positive.dim() == negative.dim():
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {anchor.dim()}D, positive {positive.dim()}D, and "
            f"negative {negative.dim()}D inputs")
    positive_distance = distance(anchor, positive)
    negative_distance = distance(anchor, negative)
    if swap:
        negative_distance = ops.minimum(negative_distance, distance(positive, negative))
    return _reduce((margin + positive_distance - negative_distance).clamp_min(0), reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """``(log var + (x - t)² / var) / 2`` (plus ``log(2π) / 2`` if ``full``), ``var`` clamped
    to ``eps`` without gradient; a ``var`` one dimension short, or off in one, broadcasts."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * ops.ones_like(input)
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)
        elif not (input.dim() == var.dim() and
                  sum(v for i, v in zip(input.shape, var.shape) if i != v) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in _loss.REDUCTIONS:
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with grad_mode.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    """``exp(x) - t x`` for a log-rate ``x`` (else ``x - t log(x + eps)``); ``full`` adds
    Stirling's approximation of ``log(t!)`` where ``t > 1``."""
    reduction = _reduction_of(size_average, reduce, reduction)
    _check_loss_arguments("poisson_nll_loss", reduction, input=input, target=target)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss += stirling.masked_fill(target <= 1, 0)  # (in place, as ATen: loss keeps its dtype)
    return _reduce(loss, reduction)


def _nll_nd(log_probs, target, weight, ignore_index, reduction):
    """PyTorch's ``nll_loss_nd``: rows go to nll_loss, (N, C, H, W) to nll_loss2d, and any other
    spatial shape to nll_loss2d as an (N, C, 1, -1) view (viewed back for "none")."""
    if log_probs.dim() <= 2:
        if weight is not None:  # (the call's dict and loop cost more than the test)
            _refuse_grad("nll_loss_forward", weight=weight)
        return _loss.nll_loss(log_probs, target, weight, ignore_index, reduction)
    if log_probs.shape[0] != _loss.batch_size(target):
        raise ValueError(f"Expected input batch_size ({log_probs.shape[0]}) to match target "
                         f"batch_size ({_loss.batch_size(target)}).")
    _refuse_grad("nll_loss2d_forward", weight=weight)
    if log_probs.dim() == 4:
        return _loss.nll_loss2d(log_probs, target, weight, ignore_index, reduction)
    batch, classes = log_probs.shape[:2]
    if target.shape[1:] != log_probs.shape[2:]:
        raise RuntimeError(f"Expected target size {[batch, *log_probs.shape[2:]]}, got "
                           f"{list(target.shape)}")
    # ATen views an empty tensor as (N, C, 0, 0) or (N, 0, 0), whatever its other sizes
    loss = _loss.nll_loss2d(
        log_probs.contiguous().view(batch, classes, *((1, -1) if log_probs.numel() else (0, 0))),
        target.contiguous().view(batch, *((1, -1) if target.numel() else (0, 0))), weight,
        ignore_index, reduction)
    return loss.view(target.shape) if reduction == "none" else loss


def _refuse_grad(function, **arguments):
    """PyTorch's autograd refuses, while grad mode is on, an argument requiring grad that
    ``function`` has no derivative for (class weights, for one)."""
    if not grad_mode.is_grad_enabled():
        return
    for name, value in arguments.items():
        if value is not None and value.requires_grad:
            raise RuntimeError(f"The function '{function}' is not differentiable with respect to "
                               f"argument '{name}'. This input cannot have requires_grad True.")


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    """Negative log-likelihood of class indices given log-probabilities (classes in dim 1)."""
    reduction = _reduction_of(size_average, reduce, reduction)
    _check_loss_arguments("nll_loss_nd", reduction, input=input, target=target)
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    return _nll_nd(input, target, weight, ignore_index, reduction)


def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None,
                         reduction="mean", ignore_index=None, label_smoothing=0.0,
                         options=None):
    """``cross_entropy(linear(input, linear_weight, linear_bias), target, ...)``, PyTorch's
    reference: a ``linear_weight`` of shape (C, *out_features, in_features) gives a
    K-dimensional loss. ``options`` choose PyTorch's chunked, memory-saving algorithm for the
    same loss; tapegrad computes the reference."""
    if not 1 <= input.dim() <= 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError("expected linear_weight with dimensionality at least 2, got "
                           f"{linear_weight.dim()}")
    batches, in_features = tuple(input.shape[:-1]), input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions "
                           f"(in_features), got {in_features} and {linear_weight.shape[-1]}, "
                           "respectively")
    classes, out_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(classes, *out_features)}, got "
                           f"{tuple(linear_bias.shape)}")
    if out_features and not batches:
        raise RuntimeError(
            f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} "
            f"requires batched input, (N, {in_features}), got unbatched input with shape "
            f"{tuple(input.shape)}")
    logits_shape = (*batches, classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    outputs = math.prod(out_features, start=classes)
    logits = linear(input, linear_weight.reshape(outputs, in_features),
                    None if linear_bias is None else linear_bias.reshape(outputs))
    return cross_entropy(logits.reshape(logits_shape), target, weight=weight,
                         reduction=reduction,
                         ignore_index=-100 if ignore_index is None else ignore_index,
                         label_smoothing=label_smoothing)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """``nll_loss(log_softmax(input))`` for class indices; for class probabilities (a target of
    input's shape), ``-(log_softmax(input) * target).sum()`` reduced as PyTorch composes it."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_loss_arguments("cross_entropy_loss", reduction, input=input, target=target)
    class_dim = 0 if input.dim() == 1 else 1
    if target.shape == input.shape:
        return _soft_cross_entropy(input, target, weight, class_dim, reduction,
                                   label_smoothing, ignore_index)
    _check_label_smoothing(label_smoothing)
    log_probs = ops.log_softmax(input, class_dim)
    loss = _nll_nd(log_probs, target, weight, ignore_index, reduction)
    if not label_smoothing > 0.0:
        return loss
    smooth = _smoothing_term(log_probs, target, weight, ignore_index, reduction, class_dim)
    return (ops.elementwise.mul_scalar(loss, 1 - label_smoothing)
            + ops.elementwise.mul_scalar(smooth, _smoothing_share(label_smoothing,
                                                                  input.shape[class_dim])))


def _check_label_smoothing(label_smoothing):
    """PyTorch refuses only a value above 1 (printed as C++ prints a double); zero, a negative
    value or nan means no smoothing."""
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing:g}")


def _smoothing_share(label_smoothing, classes):
    """``label_smoothing / classes`` as ATen divides its doubles: inf when there is no class."""
    return label_smoothing / classes if classes else math.inf


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
    per_sample = (-log_probs.sum(class_dim)).masked_fill(~kept, 0.0)  # nan-free, as ATen's
    if reduction == "none":
        return per_sample
    if reduction == "sum":
        return per_sample.sum()
    if weight is None:
        return per_sample.sum() / kept.sum()
    safe_labels = ops.where(kept, target, 0)
    return per_sample.sum() / (weight[safe_labels] * kept.to(weight.dtype)).sum()


def _soft_cross_entropy(input, target, weight, class_dim, reduction, label_smoothing,
                        ignore_index):
    if not target.is_floating_point():
        raise RuntimeError(f"Expected floating point type for target with class probabilities, "
                           f"got {target.type()[6:-6]}")
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    classes = input.size(class_dim)  # (ATen's IndexError for a 0-d input)
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all "
                           f"{classes} classes or no classes but got weight tensor of shape: "
                           f"{list(weight.shape)}")
    _check_label_smoothing(label_smoothing)
    log_probs = ops.log_softmax(input, class_dim)
    if label_smoothing > 0.0:
        target = target * (1 - label_smoothing) + _smoothing_share(label_smoothing, classes)
    products = log_probs * target
    if weight is not None:
        products = products * _class_weight_view(weight, log_probs, class_dim)
    if reduction == "none":
        return -products.sum(class_dim)
    if reduction == "mean" and not log_probs.numel():  # ATen fills the empty sum with nan
        return -products.sum().fill_(math.nan)
    total = -products.sum()
    if reduction == "sum":
        return total
    return ops.elementwise.div_scalar(total, log_probs.numel() / classes)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    """Mean of ``-(t log x + (1 - t) log(1 - x))``, logs clamped at -100 as PyTorch does."""
    reduction = _checked_reduction(_reduction_of(size_average, reduce, reduction))
    if target.size() == input.size():  # else the size message comes first
        if weight is not None:  # (PyTorch's ``_infer_size``; the kernel checks the rest)
            ops.layout.broadcast_shapes(target.shape, weight.shape)
        _refuse_grad("binary_cross_entropy", weight=weight)
    return _loss.binary_cross_entropy(input, target, weight, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """BCE on logits, one ``BinaryCrossEntropyWithLogitsBackward0``."""
    reduction = _reduction_of(size_average, reduce, reduction)
    return _loss.binary_cross_entropy_with_logits(input, target, weight, reduction, pos_weight)


# ------------------------------------------------------------------------ PyTorch's C++ functions

class _BuiltinFunction:
    """A function PyTorch implements in C++ (``torch._C._nn.gelu``): called as the function it
    wraps, printed as PyTorch prints it (``<built-in function gelu>``, under the C++ name),
    copied and pickled as itself (by its name here), and not bound as a method when kept on a
    class."""

    def __init__(self, attribute, cpp_name):
        functools.update_wrapper(self, globals()[attribute])
        self.__module__ = __name__  # where pickle finds it again
        self.__name__ = self.__qualname__ = cpp_name
        self._attribute = attribute

    def __call__(self, *args, **kwargs):
        return self.__wrapped__(*args, **kwargs)

    def __repr__(self):
        return f"<built-in function {self.__name__}>"

    def __reduce__(self):
        return self._attribute


# (PyTorch's other C++ functions here are torch's own, ``torch.conv2d``, printed as methods.)
for _attribute, _cpp_name in (("avg_pool2d", "avg_pool2d"), ("avg_pool3d", "avg_pool3d"),
                              ("elu_", "elu_"), ("gelu", "gelu"), ("hardtanh_", "hardtanh_"),
                              ("leaky_relu_", "leaky_relu_"), ("linear", "linear"),
                              ("logsigmoid", "log_sigmoid"), ("one_hot", "one_hot"),
                              ("scaled_dot_product_attention", "scaled_dot_product_attention"),
                              ("softplus", "softplus"), ("softshrink", "softshrink")):
    globals()[_attribute] = _BuiltinFunction(_attribute, _cpp_name)
del _attribute, _cpp_name


_FROM_ATTENTION = {"multi_head_attention_forward": "multi_head_attention_forward",
                   "_canonical_mask": "canonical_mask", "_none_or_dtype": "none_or_dtype"}


def __getattr__(name):
    """``multi_head_attention_forward`` and its mask helpers are defined beside
    ``MultiheadAttention``, which builds on this module; fetched from there when asked for."""
    if name in _FROM_ATTENTION:
        from .modules import attention
        return getattr(attention, _FROM_ATTENTION[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
