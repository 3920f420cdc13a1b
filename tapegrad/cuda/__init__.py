"""tapegrad runs on the CPU only. ``cuda.is_available()`` answers False so that device-agnostic
PyTorch code (``"cuda" if torch.cuda.is_available() else "cpu"``) picks the CPU and runs unchanged.
Queries that need a device fail as in a CPU build of PyTorch ("Torch not compiled with CUDA
enabled"); the memory counters answer 0."""
from . import amp

__all__ = ["is_available", "device_count", "manual_seed", "manual_seed_all", "amp",
           "is_bf16_supported", "is_initialized", "synchronize", "current_device",
           "get_device_name", "get_device_capability", "empty_cache", "memory_allocated",
           "max_memory_allocated", "memory_reserved", "max_memory_reserved"]


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def is_bf16_supported(including_emulation=True):
    return False


def manual_seed(seed):
    """Nothing to seed: there is no CUDA generator."""


manual_seed_all = manual_seed


def _not_compiled(*args, **kwargs):
    raise AssertionError("Torch not compiled with CUDA enabled")


synchronize = current_device = get_device_name = get_device_capability = _not_compiled


def empty_cache():
    """Nothing cached: no CUDA memory."""


def memory_allocated(device=None):
    return 0


memory_reserved = max_memory_allocated = max_memory_reserved = memory_allocated
