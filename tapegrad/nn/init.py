"""``nn.init``: in-place initialisers with PyTorch's formulas (fan computation, gains, bounds).

Each writes into the tensor without recording on the tape and returns it. Each draws what
PyTorch's draws, in the same order, from tapegrad's generator (PyTorch's own): after the same
``manual_seed`` the weights are PyTorch's.
"""
import math

import numpy as np

from .. import linalg, ops
from .._warnings import warn_at_caller
from ..autograd import grad_mode
from ..tensor import Tensor

__all__ = ["calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_",
           "zeros_", "eye_", "dirac_", "orthogonal_", "sparse_", "xavier_uniform_",
           "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "uniform", "normal",
           "constant", "eye", "dirac", "xavier_uniform", "xavier_normal", "kaiming_uniform",
           "kaiming_normal", "orthogonal", "sparse"]


def calculate_gain(nonlinearity, param=None):
    """The recommended scale of weights feeding into ``nonlinearity``."""
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                        "conv_transpose2d", "conv_transpose3d", "sigmoid"):
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif isinstance(param, (int, float)) and not isinstance(param, bool):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive_field = 1
    for size in tensor.shape[2:]:
        receptive_field *= size
    return tensor.shape[1] * receptive_field, tensor.shape[0] * receptive_field


_FAN_MODES = ("fan_in", "fan_out")


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in _FAN_MODES:
        raise ValueError(f"Mode {mode} not supported, please use one of {list(_FAN_MODES)}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    with grad_mode.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    with grad_mode.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """The normal distribution truncated to [a, b], sampled by rejection as PyTorch samples it:
    when [a, b] holds much of the mass, normals redrawn wherever they fall outside; otherwise
    uniform proposals on [a, b], each kept with the normal's density relative to its highest
    value there (so a far-off interval is still sampled, and quickly). The kernel each way
    refuses what PyTorch's ``normal_`` / ``uniform_`` refuse."""
    if mean < a - 2 * std or mean > b + 2 * std:
        warn_at_caller("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                       "distribution of values may be incorrect.")
    mass = _normal_cdf((b - mean) / std) - _normal_cdf((a - mean) / std)
    with grad_mode.no_grad():
        if mass > 0.3:
            return _normals_redrawn_outside(tensor, mean, std, a, b, generator)
        return _uniform_proposals_accepted(tensor, mean, std, a, b, generator)


def _normals_redrawn_outside(tensor, mean, std, a, b, generator):
    """Normal draws, redrawn (a whole tensor of fresh ones each time, as PyTorch draws them)
    where they fall outside [a, b] (bounds rounded to the tensor's dtype) until none does."""
    low, high = (tensor.new_tensor(bound).item() for bound in (a, b))
    result = tensor.normal_(mean, std, generator=generator)
    while True:
        outside = (result < low) | (result > high)
        if not outside.any():
            return tensor.copy_(result)
        result = ops.where(outside, ops.empty_like(result).normal_(mean, std,
                                                                   generator=generator), result)


def _uniform_proposals_accepted(tensor, mean, std, a, b, generator):
    """Uniform proposals on [a, b], each redrawn until a uniform's log falls under the normal's
    log-density relative to its peak on [a, b] (whole tensors of draws, as PyTorch's)."""
    log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2

    def rejected(proposals):
        log_density = ((proposals - mean) / std).pow(2) * -0.5 - log_peak
        return ops.empty_like(tensor).uniform_(generator=generator).log().gt(log_density)

    result = tensor.uniform_(a, b, generator=generator)
    pending = rejected(result)
    while pending.any():
        proposals = ops.empty_like(tensor).uniform_(a, b, generator=generator)
        result = ops.where(pending, proposals, result)
        pending = ops.where(pending, rejected(proposals), pending)
    return tensor.copy_(result)


def _normal_cdf(x):
    return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0


def _write(tensor, values):
    with grad_mode.no_grad():
        return tensor.copy_(Tensor._make(values.astype(tensor._array.dtype)))


def eye_(tensor):
    """The identity matrix (ones on the main diagonal of a 2-D tensor)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _write(tensor, np.eye(*tensor.shape))


def dirac_(tensor, groups=1):
    """The identity convolution: in each of ``groups`` groups of output channels, output
    channel ``d`` copies input channel ``d`` through the centre tap of a 3-, 4- or 5-D kernel."""
    if tensor.dim() not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    out_channels, in_channels = tensor.shape[:2]
    if out_channels % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = out_channels // groups
    channels = np.arange(min(per_group, in_channels))
    rows = (np.arange(groups)[:, None] * per_group + channels).ravel()
    centre = tuple(size // 2 for size in tensor.shape[2:])
    values = np.zeros(tensor.shape)
    values[(rows, np.tile(channels, groups)) + centre] = 1
    return _write(tensor, values)


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Normal values (std ``std``) with ``ceil(sparsity * rows)`` random entries of each column
    set to zero (chosen, as PyTorch chooses them, by the default generator's ``randperm``)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, columns = tensor.shape
    with grad_mode.no_grad():
        tensor.normal_(0, std, generator=generator)
        for column in range(columns):
            tensor[ops.randperm(rows)[:math.ceil(sparsity * rows)], column] = 0
    return tensor


def orthogonal_(tensor, gain=1, generator=None):
    """A (semi-)orthogonal matrix from the QR decomposition of a normal one, as PyTorch:
    the signs of R's diagonal fixed so that the result is uniformly distributed."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    columns = tensor.numel() // rows
    flattened = ops.empty((rows, columns), dtype=tensor.dtype).normal_(0, 1, generator=generator)
    if rows < columns:
        flattened = flattened.t()
    q, r = linalg.qr(flattened)
    q = q * ops.diag(r, 0).sign()
    if rows < columns:
        q = q.t()
    with grad_mode.no_grad():
        tensor.view_as(q).copy_(q)
        return tensor.mul_(gain)


def constant_(tensor, val):
    with grad_mode.no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    return constant_(tensor, 0.0)


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def _kaiming_std(tensor, a, mode, nonlinearity):
    return calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        warn_at_caller("Initializing zero-element tensors is a no-op")
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        warn_at_caller("Initializing zero-element tensors is a no-op")
        return tensor
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def _deprecated(initializer):
    """The old name (without the trailing underscore) of an initialiser, warning as PyTorch."""
    new_name = initializer.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warn_at_caller(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
                       FutureWarning)
        return initializer(*args, **kwargs)

    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    deprecated_init.__doc__ = f"Deprecated: use ``{new_name}``."
    return deprecated_init


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
