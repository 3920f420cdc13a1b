"""``tapegrad.nn``: modules, layers, losses, ``functional``, ``init`` and ``utils``, as in PyTorch."""
from .parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _module_names
from . import functional, init, utils
from . import attention, parallel
from .parallel import DataParallel

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "functional", "init", "utils", "attention", "parallel", "DataParallel", *_module_names]
