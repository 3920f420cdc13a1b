"""``tapegrad.nn``: modules, layers, losses, ``functional``, ``init`` and ``utils``, as in PyTorch."""
from .parameter import Parameter
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _module_names
from . import functional, init, utils

__all__ = ["Parameter", "functional", "init", "utils", *_module_names]
