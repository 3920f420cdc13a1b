"""Padding layers: ``F.pad`` with a fixed ``padding`` (an int for every side, or one amount per
side, the last dimension first) and mode, one class per mode and padded rank as in PyTorch."""
from collections.abc import Iterable

from .. import functional as F
from .module import Module

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d",
           "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d"]


def _sides(padding, count):
    """``padding`` as a tuple: an iterable as given (PyTorch does not check its length), a
    single amount repeated for all ``count`` sides."""
    if isinstance(padding, Iterable):
        return tuple(padding)
    return (padding,) * count


class _PadNd(Module):
    """Pads the last ``dims`` dimensions with ``F.pad(input, self.padding, mode)``."""

    mode = None
    dims = None

    def __init__(self, padding):
        super().__init__()
        self.padding = _sides(padding, 2 * self.dims)

    def forward(self, input):
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self):
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    mode = "circular"

    def forward(self, input):
        """Unlike F.pad, the module accepts only its own ranks (with or without a batch)."""
        if input.dim() not in (self.dims + 1, self.dims + 2):
            raise ValueError(f"expected {self.dims + 1}D or {self.dims + 2}D input (got "
                             f"{input.dim()}D input)")
        return super().forward(input)


class CircularPad1d(_CircularPadNd):
    dims = 1


class CircularPad2d(_CircularPadNd):
    dims = 2


class CircularPad3d(_CircularPadNd):
    dims = 3


class ReflectionPad1d(_PadNd):
    mode, dims = "reflect", 1


class ReflectionPad2d(_PadNd):
    mode, dims = "reflect", 2


class ReflectionPad3d(_PadNd):
    mode, dims = "reflect", 3


class ReplicationPad1d(_PadNd):
    mode, dims = "replicate", 1


class ReplicationPad2d(_PadNd):
    mode, dims = "replicate", 2


class ReplicationPad3d(_PadNd):
    mode, dims = "replicate", 3


class _ConstantPadNd(_PadNd):
    mode = "constant"

    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    dims = 1


class ConstantPad2d(_ConstantPadNd):
    dims = 2


class ConstantPad3d(_ConstantPadNd):
    dims = 3


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad1d(_ZeroPadNd, ConstantPad1d):
    pass


class ZeroPad2d(_ZeroPadNd, ConstantPad2d):
    pass


class ZeroPad3d(_ZeroPadNd, ConstantPad3d):
    pass
