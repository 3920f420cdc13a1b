"""PyTorch's lower-level public functions that real code calls directly: ``torch.native_layer_norm``
and the other ``native_*`` functions with their tuple results, ``torch.lstm_cell`` and the other
single-step recurrences, ``frobenius_norm``/``nuclear_norm``, ``fill``, ``empty_permuted``,
``as_strided_scatter``, and a few process-wide flags (``has_lapack`` …, the deterministic debug
mode, ``set_anomaly_enabled``).

Each is the composite of tapegrad operations PyTorch's own function amounts to, so gradients and
node names come from those operations; where PyTorch names the node differently the operation's
fresh node is renamed (``ops.copies.rename_node``), its backward rule unchanged.
"""
import builtins
import functools
import warnings

import numpy as np

from . import linalg, ops, random as _random
from ._runtime import _settings as _runtime_settings
from .autograd import anomaly_mode
from .autograd.function import Function
from .backends import mkl as _mkl, openmp as _openmp
from .nn import functional as F
from .nn.modules.rnn import _gru_step, _lstm_step, _rnn_step
from .ops import elementwise as _elementwise, inplace as _inplace, padding as _padding
from .ops import strided as _strided
from .ops.copies import rename_node, tracing
from .ops.operands import checked_number as _checked_number
from .ops.pooling import max_pool1d_with_indices
from .ops.registry import OTHER, primitive
from .tensor import Tensor

__all__ = ["native_layer_norm", "native_batch_norm", "native_group_norm", "native_dropout",
           "frobenius_norm", "nuclear_norm", "lstm_cell", "gru_cell", "rnn_tanh_cell",
           "rnn_relu_cell", "fill", "constant_pad_nd", "max_pool1d_with_indices",
           "empty_permuted", "as_strided_", "as_strided_scatter", "get_device", "has_lapack",
           "has_mkl", "has_openmp", "has_spectral", "set_anomaly_enabled",
           "get_deterministic_debug_mode", "set_deterministic_debug_mode"]


# ------------------------------------------------------------------------------- normalisation

def _statistics(input, dims, eps):
    """Mean and 1/sqrt(biased variance + eps) of ``input`` over ``dims`` (kept as size 1), in
    the input's dtype and without history, as the native kernels return them (computed in
    float64, so that only the final rounding is float32's)."""
    wide = input.detach().double()
    mean = wide.mean(dims, keepdim=True)
    rstd = ((wide - mean).square().mean(dims, keepdim=True) + eps).rsqrt()
    return mean.to(input.dtype), rstd.to(input.dtype)


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """``(output, mean, rstd)``: mean and rstd of shape ``input.shape[:axis] + (1,) * k``."""
    output = F.layer_norm(input, normalized_shape, weight, bias, eps)
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    mean, rstd = _statistics(input, dims, eps)
    return output, mean, rstd


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """``(output, save_mean, save_invstd)``: the batch statistics per channel when training
    (the running ones updated), empty tensors otherwise."""
    output = F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training:
        return output, ops.empty(0, dtype=input.dtype), ops.empty(0, dtype=input.dtype)
    dims = (0,) + tuple(range(2, input.dim()))
    mean, invstd = _statistics(input, dims, eps)
    return output, mean.reshape(-1), invstd.reshape(-1)


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """``(output, mean, rstd)`` with mean and rstd of shape (N, group)."""
    output = F.group_norm(input, group, weight, bias, eps)
    grouped = input.detach().reshape(N, group, -1)
    mean, rstd = _statistics(grouped, (2,), eps)
    statistics = mean.reshape(N, group), rstd.reshape(N, group)
    if output.grad_fn is not None:
        _share_node(output.grad_fn, statistics)
    return (output, *statistics)


def _share_node(node, statistics):
    """Mean and rstd as outputs 1 and 2 of the output's own node, as PyTorch records them: they
    show it (and free it with it), but its rule reads the output's gradient only, so what
    reaches them alone goes no further."""
    node.__class__ = _statistics_node_class(node.primitive.node_class)
    for output_nr, tensor in enumerate(statistics, 1):
        tensor._grad_fn, tensor._output_nr, tensor._requires_grad = node, output_nr, True


@functools.lru_cache(maxsize=None)
def _statistics_node_class(node_class):
    def apply(self, grads):
        if grads[0] is None:
            return (None,) * len(self.next_functions)
        return node_class.apply(self, grads[:1])
    return type(node_class.__name__, (node_class,), {"__slots__": (), "apply": apply})


def native_dropout(input, p, train):
    """``(output, mask)``: the kept elements scaled by ``1 / (1 - p)`` and the boolean mask of
    those kept; ``train=False`` keeps everything. Recorded as NativeDropoutBackward0."""
    if train is None or train:
        shape, dtype = input.shape, input._array.dtype  # (a recipe must not hold the tensor)
        scaled_mask = Tensor._make(_random.drawn(lambda: _dropout_scales(shape, p, dtype)))
    else:
        scaled_mask = ops.ones(input.shape, dtype=input.dtype)
    output = input * scaled_mask
    rename_node(output.grad_fn, "NativeDropoutBackward0")
    return output, scaled_mask != 0


def _dropout_scales(shape, p, dtype):
    """``1 / (1 - p)`` where an element is kept (probability ``1 - p``), else 0."""
    kept = _random.source().bernoulli(shape, 1 - p)
    return (kept * (0.0 if p >= 1 else 1.0 / (1.0 - p))).astype(dtype)


# ----------------------------------------------------------------------------------- norms

_warned = set()


def _warn_deprecated(name, replacement):
    """PyTorch's once-per-process warning for its norms kept only for TorchScript."""
    if name not in _warned:
        _warned.add(name)
        warnings.warn(f"at::{name} is deprecated and it is just left for JIT compatibility. It "
                      "will be removed in a future PyTorch release. Please use "
                      f"{replacement} instead", stacklevel=3)


def frobenius_norm(input, dim, keepdim=False):
    """The 2-norm of the entries over ``dim`` (at most two dimensions)."""
    dim = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dim) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dim)} dimensions "
                           "instead.")
    _warn_deprecated("frobenius_norm", "`linalg.vector_norm(A, 2., dim, keepdim)`")
    result = ops.norm(input, 2, dim, keepdim)
    rename_node(result.grad_fn, "NormBackward1")  # PyTorch's node of this overload
    return result


def nuclear_norm(input, dim=(-2, -1), keepdim=False):
    """The sum of the singular values of the matrices over ``dim``; ``nuclear_norm(x, True)``
    is ``keepdim=True`` over the last two dimensions, as PyTorch's overload reads it."""
    _warn_deprecated("nuclear_norm", "`linalg.matrix_norm(A, 'nuc', dim, keepdim)`")
    if isinstance(dim, bool):
        dim, keepdim = (-2, -1), dim
    return linalg.matrix_norm(input, "nuc", dim=tuple(dim), keepdim=keepdim)


# ------------------------------------------------------------------------ recurrent cells

def _check_cell(input, states, w_ih, w_hh, gates):
    """ATen's checks of one cell step, in its order: the weights' gate rows, the input's
    features, then each state's batch and features (the hidden size is ``w_hh``'s width)."""
    hidden_size = w_hh.size(1)
    for name, weight in (("weight_ih", w_ih), ("weight_hh", w_hh)):
        if weight.size(0) != gates * hidden_size:
            raise RuntimeError(f"{name} first dim must be {gates} * hidden_size = "
                               f"{gates * hidden_size}, but got {weight.size(0)}")
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected "
                           f"{w_ih.size(1)}")
    for index, state in enumerate(states):
        if state.size(0) != input.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{index} "
                               f"batch size {state.size(0)}")
        if state.size(1) != hidden_size:
            raise RuntimeError(f"hidden{index} has inconsistent hidden_size: got "
                               f"{state.size(1)}, expected {hidden_size}")


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    """One LSTM step: ``hx`` is ``(h, c)``; returns the new ``(h, c)``."""
    hidden, cell = hx
    _check_cell(input, (hidden, cell), w_ih, w_hh, 4)
    return _lstm_step(F.linear(input, w_ih, b_ih), (hidden, cell), w_hh, b_hh)


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    _check_cell(input, (hx,), w_ih, w_hh, 3)
    return _gru_step(F.linear(input, w_ih, b_ih), hx, w_hh, b_hh)


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    _check_cell(input, (hx,), w_ih, w_hh, 1)
    return _rnn_step(F.linear(input, w_ih, b_ih), hx, w_hh, b_hh, "tanh")


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    _check_cell(input, (hx,), w_ih, w_hh, 1)
    return _rnn_step(F.linear(input, w_ih, b_ih), hx, w_hh, b_hh, "relu")


# ------------------------------------------------------------------------------- filling

def constant_pad_nd(input, pad, value=0):
    """Pad (negative amounts: crop) the last ``len(pad) // 2`` dimensions with ``value``."""
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) > 2 * input.dim():
        raise RuntimeError(
            "Length of pad should be no more than twice the number of dimensions of the input. "
            f"Pad length is {len(pad)}while the input has {input.dim()}dimensions.")
    return _padding.constant_pad_nd(input, tuple(pad), value)


def fill(input, value):
    """A tensor of ``input``'s shape full of ``value`` (a number: FillBackward0, the input gets
    zeros; a 0-d tensor: FillBackward1, which also sums the gradient into ``value``)."""
    if not isinstance(value, Tensor):
        number = _checked_number(value, input._array.dtype)
        result = _elementwise._fill(input, value=number)
        rename_node(result.grad_fn, "FillBackward0")
        return result
    if value._array.ndim:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value._array.ndim} dimensions.")
    if value._array.dtype != input._array.dtype:
        value = _elementwise.to_dtype(value, input.dtype)
    result = _elementwise._fill_tensor(input, value)  # (a broadcast: read-only memory)
    if tracing():
        return result.clone()
    result._array = np.array(result._array)  # memory of its own, for in-place writes after
    rename_node(result.grad_fn, "FillBackward1")
    return result


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None,
                   requires_grad=False, pin_memory=False):
    """An uninitialized tensor of ``size`` whose dimensions lie in memory in the order
    ``physical_layout`` (outermost first)."""
    size, physical_layout = tuple(size), tuple(physical_layout)
    if len(size) != len(physical_layout):
        raise RuntimeError(
            "Number of dimensions in size does not match the length of the physical_layout; "
            f"i.e. len(size) = {len(size)} is not equal to len(physical_layout) = "
            f"{len(physical_layout)}")
    if sorted(physical_layout) != list(range(len(size))):
        raise RuntimeError("Duplicate dim not allowed")
    physical = ops.empty([size[d] for d in physical_layout], dtype=dtype, device=device)
    result = Tensor._make(physical._array.transpose(np.argsort(physical_layout)))
    return result.requires_grad_(requires_grad)


# ----------------------------------------------------------------------- as_strided_scatter

@primitive("as_strided_scatter", node="AsStridedScatterBackward0", group=OTHER)
def _as_strided_scatter(a, src, size, stride, offset):
    """A copy of ``a`` (read as contiguous memory) with ``src`` written at the positions the
    strided layout ``(size, stride, offset)`` gives."""
    out = np.array(a, order="C")
    out.reshape(-1)[_strided._positions(size, stride, offset)] = src
    return out


@_as_strided_scatter.vjp
def _(ctx, grad, size, stride, offset):
    positions = Tensor._make(_strided._positions(size, stride, offset))
    kept = np.ones(ctx.input_shapes[0], ctx.input_dtypes[0])
    kept.reshape(-1)[positions._array] = 0
    return grad * Tensor._make(kept), ops.take(grad, positions)


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """``input`` with ``src`` embedded where ``input.as_strided(size, stride, storage_offset)``
    would view it, in a new tensor."""
    size, stride = tuple(size), tuple(stride)
    offset = 0 if storage_offset is None else storage_offset
    if tuple(src.shape) != size:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{list(src.shape)}, slice size = {list(size)}")
    itemsize = input._array.itemsize
    needed = 0 if 0 in size else offset + sum((n - 1) * s for n, s in zip(size, stride)) + 1
    if needed > input.numel():
        raise RuntimeError(
            f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, "
            f"and itemsize {itemsize} requiring a storage size of {needed * itemsize} are out of "
            f"bounds for storage of size {input.numel() * itemsize}")
    if src.dtype != input.dtype:
        src = src.to(input.dtype)
    return _as_strided_scatter(input, src, size=size, stride=stride, offset=offset)


# -------------------------------------------------------------------------- Tensor methods

def get_device(input):
    """-1: every tapegrad tensor is on the CPU."""
    return input.get_device()


class _Resize(Function):
    """PyTorch's legacy autograd Function behind the out-of-place ``Tensor.resize``: the same
    elements in a new shape, the gradient reshaped back."""

    @staticmethod
    def forward(ctx, input, sizes):
        ctx.input_sizes = input.shape
        count = int(np.prod(sizes))
        if count != input.numel():
            raise RuntimeError(
                f"requested resize to {'x'.join(map(str, sizes))} ({count} elements in total), "
                f"but the given tensor has a size of {'x'.join(map(str, input.shape))} "
                f"({input.numel()} elements). autograd's resize can only change the shape of a "
                "given tensor, while preserving the number of elements. ")
        return input.contiguous().view(sizes)

    @staticmethod
    def backward(ctx, grad):
        return grad.contiguous().view(ctx.input_sizes), None


_Resize.__name__ = _Resize.__qualname__ = "Resize"


def _resize(self, *sizes):
    """Deprecated ``Tensor.resize``: a new tensor of the given shape over this one's data."""
    warnings.warn("non-inplace resize is deprecated", stacklevel=2)
    sizes = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes
    if self.requires_grad:  # (under no_grad too, as PyTorch)
        return _Resize.apply(self, sizes)
    return _resized_alias(self, sizes)


def _resize_as(self, tensor):
    warnings.warn("non-inplace resize_as is deprecated", stacklevel=2)
    if self.requires_grad:  # (under no_grad too, as PyTorch)
        return _Resize.apply(self, tuple(tensor.shape))
    return _resized_alias(self, tuple(tensor.shape))


def _resized_alias(tensor, sizes):
    """A new tensor of ``sizes`` on ``tensor``'s memory when the element count allows (a
    contiguous tensor), else ``resize_``'s fresh memory."""
    alias = tensor.detach()
    if tensor.is_contiguous() and int(np.prod(sizes)) == tensor.numel():
        return alias.view(sizes)
    return alias.resize_(*sizes)


as_strided_ = _strided.as_strided_


def _new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None,
                       requires_grad=False, pin_memory=False):
    """``empty_strided`` in this tensor's dtype unless another is given."""
    return ops.empty_strided(size, stride, dtype=self.dtype if dtype is None else dtype,
                             requires_grad=requires_grad)


# --------------------------------------------------------------------------- process flags

has_lapack = True  # numpy's LAPACK: torch.linalg works
has_spectral = True  # torch.fft works
has_mkl = _mkl.is_available()
has_openmp = _openmp.is_available()


def set_anomaly_enabled(enabled, check_nan=True):
    """The switch ``torch.autograd.set_detect_anomaly`` turns, as a plain function."""
    anomaly_mode._set(enabled, check_nan)


_DEBUG_MODES = ("default", "warn", "error")


def get_deterministic_debug_mode():
    """0 (default), 1 (warn) or 2 (error): ``use_deterministic_algorithms`` as a number."""
    if not _runtime_settings["deterministic"]:
        return 0
    return 1 if _runtime_settings["deterministic_warn_only"] else 2


def set_deterministic_debug_mode(debug_mode):
    """``use_deterministic_algorithms`` by level: "default"/0 off, "warn"/1 on with warnings
    only, "error"/2 on."""
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, "
                               f"`error`, but got {debug_mode}")
        debug_mode = _DEBUG_MODES.index(debug_mode)
    elif not isinstance(debug_mode, builtins.int):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got "
                           f"{debug_mode}")
    _runtime_settings["deterministic"] = debug_mode != 0
    _runtime_settings["deterministic_warn_only"] = debug_mode == 1


# Methods PyTorch's Tensor has for these (tapegrad's Tensor takes methods from the modules that
# define them, as tensor.py does from the op table).
Tensor.prelu = F.prelu
Tensor.hardshrink = F.hardshrink
Tensor.resize = _resize
Tensor.resize_as = _resize_as
Tensor.as_strided_scatter = as_strided_scatter
Tensor.as_strided_ = as_strided_
Tensor.is_set_to = _strided.is_set_to
Tensor.new_empty_strided = _new_empty_strided
