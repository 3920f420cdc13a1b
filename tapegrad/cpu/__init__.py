"""``torch.cpu``: the CPU as a device module, mirroring ``torch.cuda``'s queries. There is one CPU
device, always available; synchronizing is a no-op (tapegrad's kernels finish before they
return)."""
from . import amp

__all__ = ["amp", "is_available", "is_initialized", "device_count", "current_device",
           "synchronize", "set_device"]


def is_available():
    return True


def is_initialized():
    return True


def device_count():
    return 1


def current_device():
    return "cpu"


def synchronize(device=None):
    """Nothing to wait for: every CPU kernel has finished when it returns."""


def set_device(device):
    """Only the CPU can be selected, and it always is."""
