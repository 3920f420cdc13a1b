"""``nn.modules.batchnorm``: where PyTorch defines its batch norm layers (tapegrad keeps them in
``normalization``)."""
from .lazy import LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d
from .normalization import _BatchNorm as _BatchNorm  # the base class user code subclasses
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
           "LazyBatchNorm3d"]
