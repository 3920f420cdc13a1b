"""Lazy modules: layers whose input size (``in_features``, ``in_channels``, ``num_features``)
is read off their first input, as PyTorch's ``LazyModuleMixin`` does.

Until then their parameters and buffers are ``Uninitialized...`` placeholders. A forward
pre-hook materializes them in place on the first call (so an optimizer built before still
holds the very tensors it will update), initialises them as the eager layer would, removes
itself and turns the module into that eager layer (``cls_to_become``): a ``LazyLinear``
becomes a ``Linear``.
"""
from itertools import chain

from ... import dtypes, ops
from ..parameter import UninitializedBuffer, UninitializedParameter, is_lazy
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .linear import Linear
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, InstanceNorm1d, InstanceNorm2d,
                            InstanceNorm3d)

__all__ = ["LazyModuleMixin", "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d",
           "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d", "LazyBatchNorm1d",
           "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyInstanceNorm1d", "LazyInstanceNorm2d",
           "LazyInstanceNorm3d"]


class LazyModuleMixin:
    """Mixed in before the eager layer class; a subclass writes ``initialize_parameters``."""

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters,
                                                               with_kwargs=True)

    def has_uninitialized_params(self):
        return any(is_lazy(t) for t in chain(self._parameters.values(), self._buffers.values()))

    def initialize_parameters(self, *args, **kwargs):
        raise NotImplementedError(f"initialize_parameters is not implemented for "
                                  f"{type(self).__name__}")

    def _infer_parameters(self, module, args, kwargs=None):
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        del module._initialize_hook
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        """Loading a checkpoint materializes the placeholders to its shapes first."""
        for name, tensor in chain(self._parameters.items(), self._buffers.items()):
            source = state_dict.get(prefix + name)
            if tensor is not None and is_lazy(tensor) and source is not None and \
                    not is_lazy(source):
                tensor.materialize(source.shape)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)


class LazyLinear(LazyModuleMixin, Linear):
    """``Linear`` with ``in_features`` taken from the last dimension of the first input."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        super().__init__(0, 0, False, device=device)  # refuses a device but the CPU
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            self.in_features = input.shape[-1]
            self.weight.materialize((self.out_features, self.in_features))
            if self.bias is not None:
                self.bias.materialize((self.out_features,))
            self.reset_parameters()


class _LazyConvMixin(LazyModuleMixin):
    """``in_channels`` from dim 1 of a batched input (dim 0 of an unbatched one)."""

    def _lazy_init(self, out_channels, bias, device, dtype):
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if not self.has_uninitialized_params():
            return
        spatial = len(self.kernel_size)
        if input.dim() not in (spatial + 1, spatial + 2):
            raise RuntimeError(f"Expected {spatial + 1}D (unbatched) or {spatial + 2}D (batched) "
                               f"input to {type(self).__name__}, but got input of size: "
                               f"{input.shape}")
        self.in_channels = input.shape[1] if input.dim() == spatial + 2 else input.shape[0]
        if self.in_channels % self.groups:
            raise ValueError("in_channels must be divisible by groups")
        if self.transposed:
            shape = (self.in_channels, self.out_channels // self.groups)
        else:
            shape = (self.out_channels, self.in_channels // self.groups)
        self.weight.materialize(shape + tuple(self.kernel_size))
        if self.bias is not None:
            self.bias.materialize((self.out_channels,))
        self.reset_parameters()


def _lazy_conv(eager):
    """The lazy form of a plain convolution layer class."""

    class LazyConv(_LazyConvMixin, eager):
        cls_to_become = eager

        def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                     groups=1, bias=True, padding_mode="zeros", device=None, dtype=None):
            super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                             padding_mode, device=device, dtype=dtype)
            self._lazy_init(out_channels, bias, device, dtype)

    LazyConv.__name__ = LazyConv.__qualname__ = "Lazy" + eager.__name__
    return LazyConv


def _lazy_conv_transpose(eager):
    """The lazy form of a transposed convolution layer class."""

    class LazyConvTranspose(_LazyConvMixin, eager):
        cls_to_become = eager

        def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0,
                     groups=1, bias=True, dilation=1, padding_mode="zeros", device=None,
                     dtype=None):
            super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False,
                             dilation, padding_mode, device=device, dtype=dtype)
            self._lazy_init(out_channels, bias, device, dtype)

    LazyConvTranspose.__name__ = LazyConvTranspose.__qualname__ = "Lazy" + eager.__name__
    return LazyConvTranspose


LazyConv1d = _lazy_conv(Conv1d)
LazyConv2d = _lazy_conv(Conv2d)
LazyConv3d = _lazy_conv(Conv3d)
LazyConvTranspose1d = _lazy_conv_transpose(ConvTranspose1d)
LazyConvTranspose2d = _lazy_conv_transpose(ConvTranspose2d)
LazyConvTranspose3d = _lazy_conv_transpose(ConvTranspose3d)


class _LazyBatchNormMixin(LazyModuleMixin):
    """``num_features`` from dim 1 of the first input (of an unbatched instance-norm input too,
    as PyTorch reads it)."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        super().__init__(0, eps, momentum, False, False, device=device, dtype=dtype)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = ops.tensor(0, dtype=dtypes.int64, device=device)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]
        for tensor in (self.weight, self.bias, self.running_mean, self.running_var):
            if tensor is not None:
                tensor.materialize((self.num_features,))
        self.reset_parameters()


def _lazy_batch_norm(eager):
    lazy = type("Lazy" + eager.__name__, (_LazyBatchNormMixin, eager), {"cls_to_become": eager})
    lazy.__doc__ = f"``{eager.__name__}`` with ``num_features`` taken from the first input."
    return lazy


LazyBatchNorm1d = _lazy_batch_norm(BatchNorm1d)
LazyBatchNorm2d = _lazy_batch_norm(BatchNorm2d)
LazyBatchNorm3d = _lazy_batch_norm(BatchNorm3d)
# PyTorch's lazy instance norms default to an affine transform and tracked running statistics,
# as the batch norms do (unlike the eager instance norms).
LazyInstanceNorm1d = _lazy_batch_norm(InstanceNorm1d)
LazyInstanceNorm2d = _lazy_batch_norm(InstanceNorm2d)
LazyInstanceNorm3d = _lazy_batch_norm(InstanceNorm3d)
