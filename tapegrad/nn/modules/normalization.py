"""``LayerNorm`` (over each sample's trailing dimensions), ``GroupNorm`` (over groups of each
sample's channels), ``BatchNorm1d``/``BatchNorm2d`` (over the batch, per channel, with running
statistics for eval mode), ``InstanceNorm1d``/``2d``/``3d`` (per sample and channel), each with a
learned scale and shift, and ``RMSNorm`` (a learned scale only)."""
import warnings
from numbers import Integral

import numpy as np

from ... import dtypes, ops
from ...autograd import grad_mode
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["LayerNorm", "GroupNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
           "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "RMSNorm", "LocalResponseNorm",
           "CrossMapLRN2d"]


def _as_shape(normalized_shape):
    """``normalized_shape`` as a tuple; one integer (a numpy one too) is a 1-d shape."""
    return (normalized_shape,) if isinstance(normalized_shape, Integral) \
        else tuple(normalized_shape)


def _register_scale_and_shift(module, shape, affine, bias, device, dtype):
    """``weight`` and ``bias`` of ``shape`` (uninitialized), or None where not ``affine`` or not
    ``bias``."""
    module.register_parameter("weight", Parameter(ops.empty(shape, device=device, dtype=dtype))
                              if affine else None)
    module.register_parameter("bias", Parameter(ops.empty(shape, device=device, dtype=dtype))
                              if affine and bias else None)


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 device=None, dtype=None):
        super().__init__()
        self.normalized_shape = _as_shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _register_scale_and_shift(self, self.normalized_shape, elementwise_affine, bias, device,
                                  dtype)
        self.reset_parameters()

    def reset_parameters(self):
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None,
                 *, bias=True):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _register_scale_and_shift(self, num_channels, affine, bias, device, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class _NormBase(Module):
    """What batch and instance norm share: the affine parameters, the running statistics and
    their (versioned) loading. Freezing code tells them apart by ``isinstance(m, _BatchNorm)``."""

    _expected_dims = ()  # the input ranks the subclass accepts
    _version = 2  # version 2 added num_batches_tracked

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        factory = {"device": device, "dtype": dtype}
        self.register_parameter("weight", Parameter(ops.empty(num_features, **factory))
                                if affine else None)
        self.register_parameter("bias", Parameter(ops.empty(num_features, **factory))
                                if affine and bias else None)
        if track_running_stats:
            self.register_buffer("running_mean", ops.zeros(num_features, **factory))
            self.register_buffer("running_var", ops.ones(num_features, **factory))
            self.register_buffer("num_batches_tracked",
                                 ops.tensor(0, dtype=dtypes.int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        self.reset_parameters()

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        """A checkpoint older than version 2 (or a plain dict, which has no version) lacks
        ``num_batches_tracked``: keep this module's count instead of reporting it missing."""
        version = local_metadata.get("version")
        key = prefix + "num_batches_tracked"
        if (version is None or version < 2) and self.track_running_stats and key not in state_dict:
            state_dict[key] = self.num_batches_tracked
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input):
        """The hook PyTorch's subclasses override to accept other input ranks."""
        if input.dim() not in self._expected_dims:
            raise ValueError(f"expected {' or '.join(f'{d}D' for d in self._expected_dims)} "
                             f"input (got {input.dim()}D input)")

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    """Batch statistics in training (updating the running ones), running statistics in eval."""

    def forward(self, input):
        self._check_input_dim(input)
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            with grad_mode.no_grad():
                self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative average over all batches seen
                momentum = 1.0 / float(self.num_batches_tracked.item())
        use_batch_stats = self.training or self.running_mean is None
        tracked = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if tracked else None,
                            self.running_var if tracked else None, self.weight, self.bias,
                            use_batch_stats, momentum, self.eps)


class BatchNorm1d(_BatchNorm):
    """Over (N, C) or (N, C, L) inputs."""

    _expected_dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Over (N, C, H, W) inputs."""

    _expected_dims = (4,)


class BatchNorm3d(_BatchNorm):
    """Over (N, C, D, H, W) inputs."""

    _expected_dims = (5,)


class _InstanceNorm(_NormBase):
    """Per-sample, per-channel statistics over the spatial dimensions; the running ones (when
    tracked) are used in eval mode. Unlike batch norm, no affine scale or running statistics
    by default."""

    _unbatched_dims = 0  # the rank of an input without a batch dimension

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False,
                 track_running_stats=False, device=None, dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype,
                         bias=bias)

    def forward(self, input):
        if input.dim() not in self._expected_dims:
            raise ValueError(f"expected {' or '.join(f'{d}D' for d in self._expected_dims)} "
                             f"input (got {input.dim()}D input)")
        feature_dim = input.dim() - self._unbatched_dims
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.shape[feature_dim]}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You "
                          "can silence this warning by not passing in num_features, which is "
                          "not used because affine=False", stacklevel=2)
        if input.dim() == self._unbatched_dims:
            return self._normalize(input.unsqueeze(0)).squeeze(0)
        return self._normalize(input)

    def _normalize(self, input):
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight,
                               self.bias, self.training or not self.track_running_stats,
                               0.0 if self.momentum is None else self.momentum, self.eps)


class InstanceNorm1d(_InstanceNorm):
    """Over (N, C, L) or unbatched (C, L) inputs."""

    _expected_dims = (2, 3)
    _unbatched_dims = 2


class InstanceNorm2d(_InstanceNorm):
    """Over (N, C, H, W) or unbatched (C, H, W) inputs."""

    _expected_dims = (3, 4)
    _unbatched_dims = 3


class InstanceNorm3d(_InstanceNorm):
    """Over (N, C, D, H, W) or unbatched (C, D, H, W) inputs."""

    _expected_dims = (4, 5)
    _unbatched_dims = 4


class RMSNorm(Module):
    """Scales each sample by the root mean square over its trailing ``normalized_shape``."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None,
                 dtype=None):
        super().__init__()
        self.normalized_shape = _as_shape(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        weight = ops.empty(self.normalized_shape, device=device, dtype=dtype)
        self.register_parameter("weight", Parameter(weight) if elementwise_affine else None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.weight is not None:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class LocalResponseNorm(Module):
    """Each element over ``(k + alpha * mean of squares over ``size`` neighbouring channels)
    ** beta`` (AlexNet's normalization)."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class CrossMapLRN2d(LocalResponseNorm):
    """Lua Torch's cross-channel normalization of (N, C, H, W) inputs: each element times
    ``(k + alpha / size * sum of squares over its channel window) ** -beta``."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__(size, alpha, beta, k)

    def forward(self, input):
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D "
                             "instead.")
        window = ops.tensor(_cross_map_windows(input.shape[1], self.size), dtype=input.dtype)
        sums = (input * input).movedim(1, -1).matmul(window.t()).movedim(-1, 1)
        return input * sums.mul(self.alpha / self.size).add(self.k).pow(-self.beta)


def _cross_map_windows(channels, size):
    """(C, C): 1 where channel j is in channel i's window, as Lua Torch's running sum builds
    it: ``[i - half, i + half]`` clipped to the channels, and channel 0 for every channel (the
    running sum never subtracts it)."""
    half = int((size - 1) / 2 + 1) - 1
    i, j = np.arange(channels)[:, None], np.arange(channels)[None, :]
    return ((abs(i - j) <= half) | (j == 0)).astype(np.float64)
