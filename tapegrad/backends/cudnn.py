"""``torch.backends.cudnn``: no cuDNN here; ``deterministic``, ``benchmark`` and ``enabled`` are
settable flags with no effect (tapegrad's CPU kernels are deterministic already)."""

import sys

from ._flags import flags_of

__all__ = ["is_available", "is_acceptable", "version", "flags", "enabled", "deterministic",
           "benchmark", "benchmark_limit", "allow_tf32", "fp32_precision"]

enabled = True
deterministic = False
benchmark = False
benchmark_limit = None  # (a cuDNN setting: None without cuDNN, whatever is set)
allow_tf32 = True
fp32_precision = "none"

flags = flags_of(sys.modules[__name__], {
    "enabled": False, "benchmark": False, "deterministic": False, "allow_tf32": True,
    "fp32_precision": "none"}, ignored=("benchmark_limit", "depthwise_kernel"))


def is_available():
    return False


def is_acceptable(tensor):
    """Whether cuDNN could compute on ``tensor``: only CUDA tensors qualify, so never."""
    return False


def version():
    """cuDNN's version number; None without cuDNN, as in a CPU build of PyTorch."""
    return None
