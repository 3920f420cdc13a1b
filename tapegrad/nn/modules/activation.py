"""Activation modules: thin wrappers that hold the options of their ``functional`` twin."""
from ... import ops
from ..._warnings import warn_at_caller
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["ReLU", "GELU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "LeakyReLU", "ELU", "SELU",
           "SiLU", "Softplus", "Mish", "Hardtanh", "ReLU6", "LogSigmoid", "Softsign", "Hardswish",
           "Hardsigmoid", "PReLU", "GLU", "Softmin", "CELU", "Threshold", "Softshrink",
           "Hardshrink", "Tanhshrink", "RReLU", "Softmax2d"]


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Tanh(Module):
    def forward(self, input):
        return F.tanh(input)


class Sigmoid(Module):
    def forward(self, input):
        return F.sigmoid(input)


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax2d(Module):
    """Softmax over the channels of each spatial position: dim -3 of a (N, C, H, W) or
    (C, H, W) input."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D "
                             "instead")
        return F.softmax(input, -3)


class LogSoftmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


def _inplace_note(inplace):
    return ", inplace=True" if inplace else ""


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + _inplace_note(self.inplace)


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + _inplace_note(self.inplace)


class _InplaceOnly(Module):
    """An activation whose only option is ``inplace``; ``_function`` names its F twin."""

    _function = None

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return getattr(F, self._function)(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class SELU(_InplaceOnly):
    _function = "selu"


class SiLU(_InplaceOnly):
    _function = "silu"


class Mish(_InplaceOnly):
    _function = "mish"


class _SilentInplace(_InplaceOnly):
    """PyTorch's Hardswish and Hardsigmoid keep ``inplace`` but do not show it in their repr."""

    def extra_repr(self):
        return ""


class Hardswish(_SilentInplace):
    _function = "hardswish"


class Hardsigmoid(_SilentInplace):
    _function = "hardsigmoid"


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):
        super().__init__()
        min_val = _renamed_argument(min_value, "min_value", "min_val", min_val)
        max_val = _renamed_argument(max_value, "max_value", "max_val", max_val)
        if min_val >= max_val:
            raise AssertionError(f"max_val ({max_val}) must be greater than min_val ({min_val})")
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + _inplace_note(self.inplace)


def _renamed_argument(value, old_name, new_name, default):
    """``value`` of a keyword argument PyTorch renamed, with its deprecation warning, if given."""
    if value is None:
        return default
    warn_at_caller(f"keyword argument `{old_name}` is deprecated and renamed to `{new_name}`",
                   FutureWarning)
    return value


class ReLU6(Hardtanh):
    """Hardtanh clamped to [0, 6], as in PyTorch (an instance of Hardtanh, with its attributes)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class LogSigmoid(Module):
    def forward(self, input):
        return F.logsigmoid(input)


class Softsign(Module):
    def forward(self, input):
        return F.softsign(input)


class Softmin(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class CELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + _inplace_note(self.inplace)


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + _inplace_note(self.inplace)


class _Shrink(Module):
    """Softshrink and Hardshrink: ``lambd`` is their one option; ``_function`` names the F twin."""

    _function = None

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return getattr(F, self._function)(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Softshrink(_Shrink):
    _function = "softshrink"


class Hardshrink(_Shrink):
    _function = "hardshrink"


class Tanhshrink(Module):
    def forward(self, input):
        return F.tanhshrink(input)


class RReLU(Module):
    """Leaky ReLU with random negative slopes in training and their mean in eval."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}" + _inplace_note(self.inplace)


class PReLU(Module):
    """Leaky ReLU with a learned negative slope: one, or one per channel (dim 1)."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(ops.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"
