"""``Conv1d`` and ``Conv2d``: learned 1-D and 2-D cross-correlations, initialised as PyTorch
initialises them."""
import math

from ... import ops
from ...ops.conv import _pair
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Conv1d", "Conv2d"]


def _single(value, name):
    """A 1-d layer's size argument as the 1-tuple PyTorch keeps (and prints); ``name`` is there
    to take ``_pair``'s arguments."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class _ConvNd(Module):
    """What the 1-d and 2-d layers share; ``_sizes`` turns a size argument into an n-tuple and
    ``_conv`` is the functional form."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode != "zeros":
            raise NotImplementedError(f"{type(self).__name__}: only padding_mode='zeros' is "
                                      "supported")
        stride = self._sizes(stride, "stride")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 "{'valid', 'same'}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = self._sizes(kernel_size, "kernel_size")
        self.stride = stride
        self.padding = padding if isinstance(padding, str) else self._sizes(padding, "padding")
        self.dilation = self._sizes(dilation, "dilation")
        self.groups = groups
        self.padding_mode = padding_mode
        self.weight = Parameter(ops.empty(out_channels, in_channels // groups, *self.kernel_size,
                                          dtype=dtype))
        if bias:
            self.bias = Parameter(ops.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """As Linear: kaiming-uniform with a=sqrt(5), bias U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return self._conv(input, self.weight, self.bias, self.stride, self.padding,
                          self.dilation, self.groups)

    def extra_repr(self):
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if self.padding != (0,) * len(self.kernel_size):
            text += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.kernel_size):
            text += f", dilation={self.dilation}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        return text


class Conv1d(_ConvNd):
    _sizes = staticmethod(_single)
    _conv = staticmethod(F.conv1d)


class Conv2d(_ConvNd):
    _sizes = staticmethod(_pair)
    _conv = staticmethod(F.conv2d)
