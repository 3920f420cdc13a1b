"""``torch.autocast``: mixed precision regions.

tapegrad computes in the dtypes of its tensors (float32 unless asked otherwise) and has no
per-operation casting, so an autocast region never changes a result: disabled it is the no-op it
is in PyTorch; enabled it warns once per region that it is disabled, as PyTorch warns where it
cannot autocast (CUDA missing, an unsupported dtype), and runs the block in full precision.

What a region does keep is PyTorch's per-thread autocast *settings*: entering sets the device's
autocast dtype and the cache flag (even for a disabled region, as PyTorch does) and leaving
restores them, so ``get_autocast_dtype`` and ``is_autocast_cache_enabled`` answer as they would.
"""
import functools
import threading

from .. import dtypes
from .._warnings import warn_at_caller

__all__ = ["autocast", "is_autocast_available", "is_autocast_enabled", "get_autocast_dtype",
           "set_autocast_dtype", "is_autocast_cache_enabled", "set_autocast_cache_enabled",
           "is_autocast_cpu_enabled", "get_autocast_cpu_dtype"]

_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                 "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                 "privateuseone")
_DEFAULT_DTYPES = {"cpu": dtypes.bfloat16, "cuda": dtypes.float16, "xla": dtypes.bfloat16,
                   "hpu": dtypes.bfloat16}


class _AutocastSettings(threading.local):
    """Autocast settings are per thread in PyTorch: each thread starts from the defaults."""

    def __init__(self):
        self.dtypes = {}
        self.cache_enabled = True


_settings = _AutocastSettings()


def _device_type(device_type, function):
    """The device type of a device string (``"cuda:0"`` -> ``"cuda"``), checked as PyTorch
    checks it."""
    if not isinstance(device_type, str):
        raise TypeError(f"{function}(): argument 'device_type' (position 1) must be str, not "
                        f"{type(device_type).__name__}")
    kind = device_type.split(":")[0]
    if kind not in _DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start "
                           f"of device string: {device_type}")
    return kind


class autocast:
    """``with torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None):`` — also
    a decorator."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        kind = _device_type(device_type, "autocast")
        self.device = device_type
        self.fast_dtype = get_autocast_dtype(kind) if dtype is None else dtype
        self._enabled = enabled
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None \
            else cache_enabled
        self._saved = []
        if not enabled:
            return
        if kind == "cuda":
            warn_at_caller("CUDA is not available or torch_xla is imported. Disabling autocast.")
        elif kind == "cpu" and self.fast_dtype not in (dtypes.bfloat16, dtypes.float16):
            warn_at_caller("In CPU autocast, but the target dtype is not supported. Disabling "
                           "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                           "torch.float16 currently.")
        else:
            warn_at_caller(f"tapegrad has no autocast: the region computes in the tensors' own "
                           f"dtypes, not in {self.fast_dtype!r}. Disabling autocast.")
        self._enabled = False

    def __enter__(self):
        self._saved.append((get_autocast_dtype(self.device), is_autocast_cache_enabled()))
        set_autocast_dtype(self.device, self.fast_dtype)
        set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        dtype, cache_enabled = self._saved.pop()
        set_autocast_dtype(self.device, dtype)
        set_autocast_cache_enabled(cache_enabled)
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorated(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorated


def is_autocast_available(device_type):
    return device_type in ("cpu", "cuda")


def is_autocast_enabled(device_type=None):
    """Never: no region autocasts in tapegrad."""
    if device_type is not None:
        _device_type(device_type, "is_autocast_enabled")
    return False


def get_autocast_dtype(device_type):
    """The dtype an autocast region on ``device_type`` names: the innermost region's, else the
    device's default."""
    kind = _device_type(device_type, "get_autocast_dtype")
    return _settings.dtypes.get(kind, _DEFAULT_DTYPES.get(kind, dtypes.float16))


def set_autocast_dtype(device_type, dtype):
    kind = _device_type(device_type, "set_autocast_dtype")
    if not isinstance(dtype, dtypes.dtype):
        raise TypeError(f"set_autocast_dtype(): argument 'dtype' (position 2) must be "
                        f"torch.dtype, not {type(dtype).__name__}")
    _settings.dtypes[kind] = dtype


def is_autocast_cache_enabled():
    return _settings.cache_enabled


def set_autocast_cache_enabled(enabled):
    _settings.cache_enabled = bool(enabled)


def is_autocast_cpu_enabled():
    """The deprecated spelling of ``is_autocast_enabled("cpu")``."""
    return is_autocast_enabled("cpu")


def get_autocast_cpu_dtype():
    """The deprecated spelling of ``get_autocast_dtype("cpu")``."""
    return get_autocast_dtype("cpu")
