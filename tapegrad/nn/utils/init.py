"""``nn.utils.skip_init``: a module whose parameters and buffers are left uninitialized, for
code that overwrites them anyway (a checkpoint load, a custom initialization)."""
import inspect

from ... import random
from ..modules.module import Module

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    """``module_cls(*args, **kwargs)`` with uninitialized parameters and buffers, and the random
    number generator left as it was.

    PyTorch builds the module on the meta device, so that its initialization touches no memory,
    then gives it empty memory with ``to_empty``. tapegrad has no meta device: the module is
    built on the CPU inside ``fork_rng`` (its initial draws leave the generator's state
    unchanged) and ``to_empty`` then replaces what the initialization wrote. What the caller
    sees is PyTorch's; only the time of that initialization is not saved.
    """
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    with random.fork_rng():
        module = module_cls(*args, **kwargs)
    return module.to_empty(device=final_device)
