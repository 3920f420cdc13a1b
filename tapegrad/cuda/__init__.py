"""tapegrad runs on the CPU only. ``cuda.is_available()`` answers False so that device-agnostic
PyTorch code (``"cuda" if torch.cuda.is_available() else "cpu"``) picks the CPU and runs unchanged.
Queries that need a device fail as in a CPU build of PyTorch ("Torch not compiled with CUDA
enabled"); the memory counters answer 0."""
import collections
import contextlib

from . import amp

__all__ = ["is_available", "device_count", "manual_seed", "manual_seed_all", "amp",
           "is_bf16_supported", "is_initialized", "synchronize", "current_device",
           "get_device_name", "get_device_capability", "empty_cache", "memory_allocated",
           "max_memory_allocated", "memory_reserved", "max_memory_reserved", "memory_stats",
           "get_device_properties", "mem_get_info", "current_stream", "default_stream",
           "initial_seed", "get_rng_state", "get_rng_state_all", "seed", "seed_all",
           "get_arch_list", "Stream", "Event", "stream"]


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
get_device_properties = mem_get_info = current_stream = default_stream = _not_compiled
initial_seed = get_rng_state = _not_compiled


def seed():
    """Nothing to seed: there is no CUDA generator (PyTorch seeds lazily, on first use)."""


seed_all = seed


def get_rng_state_all():
    """One state per CUDA device: none here."""
    return []


def get_arch_list():
    """The GPU architectures compiled for: none in a CPU build."""
    return []


class Stream:
    """Exists for ``isinstance`` checks and annotations; making one needs CUDA."""

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("torch.cuda.Stream requires CUDA support")


class Event:
    """Exists for ``isinstance`` checks and annotations; making one needs CUDA."""

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("Tried to instantiate dummy base class Event")


@contextlib.contextmanager
def stream(stream):
    """``with torch.cuda.stream(s):`` — with ``None`` (the only stream a CPU build can name) a
    no-op."""
    yield


def empty_cache():
    """Nothing cached: no CUDA memory."""


def memory_allocated(device=None):
    return 0


memory_reserved = max_memory_allocated = max_memory_reserved = memory_allocated


def memory_stats(device=None):
    """The CUDA caching allocator's counters: none without CUDA."""
    return collections.OrderedDict()
