"""``Conv1d``/``Conv2d``/``Conv3d`` (learned 1-D, 2-D and 3-D cross-correlations) and
``ConvTranspose1d``/``2d``/``3d`` (their transposes, the usual learned upsampling), initialised as
PyTorch initialises them."""
import math

from ... import ops
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
           "ConvTranspose3d"]

_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


def _ntuple(n):
    """An n-d layer's size argument as the n-tuple PyTorch keeps (and prints): a sequence is
    kept as given, unchecked, as there (a wrong one fails where it is used). ``name`` is there
    to take the arguments of ``ops.conv._pair``, which the pooling layers use."""
    def sizes(value, name):
        return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n
    return sizes


_single, _pair, _triple = _ntuple(1), _ntuple(2), _ntuple(3)


class _ConvNd(Module):
    """What all four layers share (PyTorch's ``_ConvNd``); ``_sizes`` turns a size argument into
    an n-tuple and ``_conv`` is the functional form. A transposed layer's weight is
    (in, out/groups, k...), a plain one's (out, in/groups, k...)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation,
                 transposed, output_padding, groups, bias, padding_mode, device=None, dtype=None):
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups")
        stride = self._sizes(stride, "stride")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 "{'valid', 'same'}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = self._sizes(kernel_size, "kernel_size")
        self.stride = stride
        self.padding = padding if isinstance(padding, str) else self._sizes(padding, "padding")
        self.dilation = self._sizes(dilation, "dilation")
        self.transposed = transposed
        self.output_padding = self._sizes(output_padding, "output_padding")
        self.groups = groups
        self.padding_mode = padding_mode
        self._reversed_padding_repeated_twice = self._pad_amounts()
        factory = {"device": device, "dtype": dtype}
        shape = ((in_channels, out_channels // groups) if transposed else
                 (out_channels, in_channels // groups))
        self.weight = Parameter(ops.empty((*shape, *self.kernel_size), **factory))
        if bias:
            self.bias = Parameter(ops.empty(out_channels, **factory))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _pad_amounts(self):
        """The padding as ``F.pad`` takes it (last dimension first), for the non-zero modes;
        "same" puts the odd one at the end, as the functional form does."""
        if self.padding in ("valid", "same"):
            amounts = [0, 0] * len(self.kernel_size)
            if self.padding == "same":  # (one pair per kernel size, filled as far as both go)
                places = range(len(self.kernel_size) - 1, -1, -1)
                for d, k, i in zip(self.dilation, self.kernel_size, places):
                    total = d * (k - 1)
                    amounts[2 * i:2 * i + 2] = total // 2, total - total // 2
            return amounts
        return tuple(p for p in reversed(self.padding) for _ in range(2))

    def reset_parameters(self):
        """As Linear: kaiming-uniform with a=sqrt(5), bias U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if self.padding != (0,) * len(self.padding):
            text += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


class _PlainConvNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, False,
                         0, groups, bias, padding_mode, device, dtype)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)

    def _conv_forward(self, input, weight, bias):
        """The convolution with a given weight and bias: what subclasses that transform the
        weight first (weight standardization, say) call, as in PyTorch."""
        if self.padding_mode != "zeros":  # padded first, then convolved without padding
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return self._conv(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
        return self._conv(input, weight, bias, self.stride, self.padding, self.dilation,
                          self.groups)


class Conv1d(_PlainConvNd):
    _sizes = staticmethod(_single)
    _conv = staticmethod(F.conv1d)


class Conv2d(_PlainConvNd):
    _sizes = staticmethod(_pair)
    _conv = staticmethod(F.conv2d)


class Conv3d(_PlainConvNd):
    _sizes = staticmethod(_triple)
    _conv = staticmethod(F.conv3d)


class _ConvTransposeNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        if isinstance(padding, str):  # no "same"/"valid" here: PyTorch keeps it as a sequence
            padding = tuple(padding)
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, True,
                         output_padding, groups, bias, padding_mode, device, dtype)

    def forward(self, input, output_size=None):
        """``output_size`` picks one of the sizes the strides make possible (the output padding
        that gives it), as when undoing a strided convolution of a known input size."""
        if self.padding_mode != "zeros":
            raise ValueError(f"Only `zeros` padding mode is supported for {type(self).__name__}")
        output_padding = self._output_padding(input, output_size, self.stride, self.padding,
                                              self.kernel_size, len(self.kernel_size),
                                              self.dilation)
        return self._conv(input, self.weight, self.bias, self.stride, self.padding,
                          output_padding, self.groups, self.dilation)

    def _output_padding(self, input, output_size, stride, padding, kernel_size,
                        num_spatial_dims, dilation=None):
        """PyTorch's signature, which subclasses call with their own geometry."""
        if output_size is None:
            return self.output_padding
        spatial = num_spatial_dims
        dilation = [1] * spatial if dilation is None else dilation
        leading = 2 if input.dim() == spatial + 2 else 1
        if len(output_size) == leading + spatial:
            output_size = output_size[leading:]
        if len(output_size) != spatial:
            raise ValueError(f"ConvTranspose{spatial}D: for {input.dim()}D input, output_size "
                             f"must have {spatial} or {leading + spatial} elements (got "
                             f"{len(output_size)})")
        smallest = [(input.shape[d + leading] - 1) * stride[d] - 2 * padding[d]
                    + dilation[d] * (kernel_size[d] - 1) + 1 for d in range(spatial)]
        largest = [size + step - 1 for size, step in zip(smallest, stride)]
        for size, low, high in zip(output_size, smallest, largest):
            if not low <= size <= high:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes "
                                 f"range from {smallest} to {largest} (for an input of "
                                 f"{input.size()[2:]})")
        return [size - low for size, low in zip(output_size, smallest)]


class ConvTranspose1d(_ConvTransposeNd):
    _sizes = staticmethod(_single)
    _conv = staticmethod(F.conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    _sizes = staticmethod(_pair)
    _conv = staticmethod(F.conv_transpose2d)


class ConvTranspose3d(_ConvTransposeNd):
    _sizes = staticmethod(_triple)
    _conv = staticmethod(F.conv_transpose3d)
