"""``torch.multiprocessing``: Python's ``multiprocessing``, with tensors that cross process
boundaries through shared memory instead of being copied.

Importing it registers how multiprocessing pickles tensors (``reductions``): a tensor put on a
``Queue`` or passed to a spawned ``Process`` moves its storage into shared memory
(``Tensor.share_memory_``) and the receiver maps the same memory, so writes on either side are
seen by both. ``spawn`` starts worker processes as PyTorch's does and forwards a worker's
traceback to the parent.
"""

import multiprocessing
import sys
from multiprocessing import *  # noqa: F401,F403  the whole API of the original module

from .reductions import init_reductions
from .spawn import (ProcessContext, ProcessException, ProcessExitedException,
                    ProcessRaisedException, spawn, start_processes)

__all__ = ["set_sharing_strategy", "get_sharing_strategy", "get_all_sharing_strategies",
           "spawn", "start_processes", "ProcessContext", "ProcessException",
           "ProcessExitedException", "ProcessRaisedException", *multiprocessing.__all__]

# Which handle a receiver is given. Both name the same memory: tapegrad always passes a file
# descriptor; the setting is kept so that code choosing "file_system" runs unchanged.
_all_sharing_strategies = ({"file_system"} if sys.platform in ("darwin", "win32")
                           else {"file_descriptor", "file_system"})
_sharing_strategy = "file_system" if sys.platform in ("darwin", "win32") else "file_descriptor"


def set_sharing_strategy(new_strategy):
    """Choose how CPU tensors are shared (one of ``get_all_sharing_strategies()``)."""
    global _sharing_strategy
    if new_strategy not in _all_sharing_strategies:
        raise AssertionError(f"invalid sharing strategy {new_strategy!r}, expected one of "
                             f"{_all_sharing_strategies}")
    _sharing_strategy = new_strategy


def get_sharing_strategy():
    return _sharing_strategy


def get_all_sharing_strategies():
    return _all_sharing_strategies


init_reductions()
