"""Process-wide settings that PyTorch programs set in their boilerplate: thread counts,
deterministic algorithms, float32 matmul precision, the default device, warn-always.

tapegrad records each value so that the getters give back what was set, as PyTorch's do; they
change nothing else (numpy's BLAS keeps its own thread pool, every tapegrad kernel is already
deterministic, and matmuls always run in full float32 precision).
"""
import builtins
import os
import warnings

from ._storage import TypedStorage
from .tensor import _DEFAULT_DEVICE, _DEVICE_CONTEXTS, Tensor, UntypedStorage, _check_device
from .tensor import device as _device

__all__ = ["set_num_threads", "get_num_threads", "set_num_interop_threads",
           "get_num_interop_threads", "use_deterministic_algorithms",
           "are_deterministic_algorithms_enabled", "is_deterministic_algorithms_warn_only_enabled",
           "set_float32_matmul_precision", "get_float32_matmul_precision", "set_default_device",
           "get_default_device", "set_warn_always", "is_warn_always_enabled", "typename",
           "is_inference", "set_flush_denormal", "is_storage"]

def _threads_from_environment():
    """PyTorch's intra-op thread count at start: OMP_NUM_THREADS (then MKL_NUM_THREADS) when
    set to a positive integer, else the cores this process may use."""
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        value = os.environ.get(name, "")
        if value.isdigit() and int(value) > 0:
            return int(value)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


_settings = {
    "num_threads": _threads_from_environment(),
    "num_interop_threads": os.cpu_count() or 1,
    "interop_threads_set": False,
    "deterministic": False,
    "deterministic_warn_only": False,
    "matmul_precision": "highest",
    "warn_always": False,
}


def _check_int(name, value):
    if not isinstance(value, builtins.int) or isinstance(value, builtins.bool):
        raise RuntimeError(f"{name} expects an int, but got {type(value).__name__}")
    if value <= 0:
        raise RuntimeError(f"{name} expects a positive integer")


def set_num_threads(int):  # noqa: A002  (PyTorch's parameter name)
    """Record the intra-op thread count (numpy's BLAS threads are not changed)."""
    _check_int("set_num_threads", int)
    _settings["num_threads"] = int


def get_num_threads():
    return _settings["num_threads"]


def set_num_interop_threads(int):  # noqa: A002
    """Record the inter-op thread count; as in PyTorch, only once per process."""
    _check_int("set_num_interop_threads", int)
    if _settings["interop_threads_set"]:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work has "
                           "started or set_num_interop_threads called")
    _settings["num_interop_threads"], _settings["interop_threads_set"] = int, True


def get_num_interop_threads():
    return _settings["num_interop_threads"]


def _check_bool(name, where, value):
    if not isinstance(value, builtins.bool):
        raise TypeError(f"_set_deterministic_algorithms(): argument '{name}' {where}must be bool, "
                        f"not {type(value).__name__}")


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Record the setting; tapegrad's kernels are deterministic either way."""
    _check_bool("mode", "(position 1) ", mode)
    _check_bool("warn_only", "", warn_only)
    _settings["deterministic"], _settings["deterministic_warn_only"] = mode, warn_only


def are_deterministic_algorithms_enabled():
    return _settings["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _settings["deterministic_warn_only"]


_MATMUL_PRECISIONS = ("highest", "high", "medium")


def set_float32_matmul_precision(precision):
    """Record the precision name; an unknown one is ignored with PyTorch's warning."""
    if precision not in _MATMUL_PRECISIONS:
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    _settings["matmul_precision"] = precision


def get_float32_matmul_precision():
    return _settings["matmul_precision"]


def set_default_device(device):
    """The device factories put tensors on when given none: the CPU or the meta device;
    another is refused as factories refuse it."""
    if device is None:
        device = "cpu"
    _check_device(device)
    _DEFAULT_DEVICE[0] = _device(device)


def get_default_device():
    """The device of the innermost ``with torch.device(...)`` block, else the one set."""
    return _DEVICE_CONTEXTS[-1] if _DEVICE_CONTEXTS else _DEFAULT_DEVICE[0]


def set_warn_always(b):
    _settings["warn_always"] = builtins.bool(b)


def is_warn_always_enabled():
    return _settings["warn_always"]


def typename(obj, /):
    """``torch.FloatTensor`` for a float32 tensor; a class's or object's qualified name else."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualified = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualified = obj.__name__
    else:
        module, qualified = type(obj).__module__ or "", type(obj).__qualname__
    if module in ("", "builtins"):
        return qualified
    return f"{_as_torch_module(module)}.{qualified}"


def _as_torch_module(module):
    """tapegrad's modules named as the PyTorch ones they stand for (``tapegrad.nn.modules.linear``
    is ``torch.nn.modules.linear``)."""
    head, dot, rest = module.partition(".")
    return f"torch{dot}{rest}" if head == "tapegrad" else module


def is_inference(input):
    if not isinstance(input, Tensor):
        raise TypeError("is_inference(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return input.is_inference()


def set_flush_denormal(mode):
    """Accepted and reported as supported, as PyTorch does on x86 (numpy keeps denormals)."""
    return True


def is_storage(obj):
    """Whether ``obj`` is a storage (``t.untyped_storage()``, ``t.storage()``), not a tensor."""
    return isinstance(obj, (UntypedStorage, TypedStorage))
