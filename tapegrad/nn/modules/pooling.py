"""Pooling: ``MaxPool1d``/``MaxPool2d`` (the maximum of each window), ``AvgPool1d``/``AvgPool2d``
(the mean), the adaptive poolings (means or maxima over bins that give a fixed output size) and
``MaxUnpool1d``/``MaxUnpool2d`` (each maximum put back where max pooling found it)."""
from ...ops.conv import _pair
from .. import functional as F
from .conv import _single
from .module import Module

__all__ = ["MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d",
           "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "MaxUnpool1d",
           "MaxUnpool2d"]


class _MaxPoolNd(Module):
    """The options both max poolings share; ``_pool`` is the functional form that applies them."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return self._pool(input, self.kernel_size, self.stride, self.padding, self.dilation,
                          ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    _pool = staticmethod(F.max_pool1d)


class MaxPool2d(_MaxPoolNd):
    _pool = staticmethod(F.max_pool2d)


class AvgPool1d(Module):
    """Sizes kept as 1-tuples, as PyTorch keeps (and prints) them."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__()
        self.kernel_size = _single(kernel_size, "kernel_size")
        self.stride = _single(stride if stride is not None else kernel_size, "stride")
        self.padding = _single(padding, "padding")
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AdaptiveAvgPoolNd(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return self._pool(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    _pool = staticmethod(F.adaptive_avg_pool1d)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    _pool = staticmethod(F.adaptive_avg_pool2d)


class _AdaptiveMaxPoolNd(Module):
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input):
        return self._pool(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    _pool = staticmethod(F.adaptive_max_pool1d)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    _pool = staticmethod(F.adaptive_max_pool2d)


class _MaxUnpoolNd(Module):
    """Sizes kept as tuples, as PyTorch keeps (and prints) them; ``output_size`` in ``forward``
    picks among the sizes the pooling could have come from."""

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = self._sizes(kernel_size, "kernel_size")
        self.stride = self._sizes(stride if stride is not None else kernel_size, "stride")
        self.padding = self._sizes(padding, "padding")

    def forward(self, input, indices, output_size=None):
        return self._unpool(input, indices, self.kernel_size, self.stride, self.padding,
                            output_size)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    _sizes = staticmethod(_single)
    _unpool = staticmethod(F.max_unpool1d)


class MaxUnpool2d(_MaxUnpoolNd):
    _sizes = staticmethod(_pair)
    _unpool = staticmethod(F.max_unpool2d)
