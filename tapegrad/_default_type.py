"""``torch.set_default_tensor_type``: the deprecated way to change the default dtype, by a legacy
tensor type (``torch.DoubleTensor``) or its name (``"torch.DoubleTensor"``)."""
import functools
import importlib

from . import dtypes
from ._warnings import warn_at_caller

__all__ = ["set_default_tensor_type"]


def set_default_tensor_type(t):
    _warn_deprecated()
    if isinstance(t, str):
        module_name, _, type_name = t.rpartition(".")
        if module_name == "torch.cuda":
            raise TypeError(f"type {t} not available. Torch not compiled with CUDA enabled.")
        t = getattr(importlib.import_module(_library(module_name) or t), type_name)
    if isinstance(t, dtypes.dtype):
        raise TypeError("invalid type object: only floating-point types are supported as the "
                        "default type")
    dtypes.set_default_dtype(t.dtype)


def _library(module_name):
    """``torch`` names this library (programs run it as ``import tapegrad as torch``)."""
    return __package__ if module_name == "torch" else module_name


@functools.cache
def _warn_deprecated():
    warn_at_caller("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                   "torch.set_default_dtype() and torch.set_default_device() as alternatives.")
