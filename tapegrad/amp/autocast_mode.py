"""``torch.autocast``: mixed precision regions.

tapegrad computes in the dtypes of its tensors (float32 unless asked otherwise) and has no
per-operation casting, so an autocast region never changes a result: disabled it is the no-op it
is in PyTorch; enabled it warns once per region that it is disabled, as PyTorch warns where it
cannot autocast (CUDA missing, an unsupported dtype), and runs the block in full precision.
"""
import functools

from .. import dtypes
from .._warnings import warn_at_caller

__all__ = ["autocast", "is_autocast_available", "is_autocast_enabled", "get_autocast_dtype",
           "is_autocast_cpu_enabled", "get_autocast_cpu_dtype"]

_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                 "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                 "privateuseone")
_DEFAULT_DTYPES = {"cpu": dtypes.bfloat16, "cuda": dtypes.float16}


class autocast:
    """``with torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None):`` — also
    a decorator."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if device_type.split(":")[0] not in _DEVICE_TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start "
                               f"of device string: {device_type}")
        self.device = device_type
        self.fast_dtype = _DEFAULT_DTYPES.get(device_type, dtypes.float16) if dtype is None \
            else dtype
        self._enabled = enabled
        if not enabled:
            return
        if device_type == "cuda":
            warn_at_caller("CUDA is not available or torch_xla is imported. Disabling autocast.")
        elif device_type == "cpu" and self.fast_dtype not in (dtypes.bfloat16, dtypes.float16):
            warn_at_caller("In CPU autocast, but the target dtype is not supported. Disabling "
                           "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                           "torch.float16 currently.")
        else:
            warn_at_caller(f"tapegrad has no autocast: the region computes in the tensors' own "
                           f"dtypes, not in {self.fast_dtype!r}. Disabling autocast.")
        self._enabled = False

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
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
    return False


def get_autocast_dtype(device_type):
    return _DEFAULT_DTYPES.get(device_type, dtypes.float16)


def is_autocast_cpu_enabled():
    """The deprecated spelling of ``is_autocast_enabled("cpu")``."""
    return is_autocast_enabled("cpu")


def get_autocast_cpu_dtype():
    """The deprecated spelling of ``get_autocast_dtype("cpu")``."""
    return get_autocast_dtype("cpu")
