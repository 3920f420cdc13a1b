"""``torch.accelerator``: the device-generic accelerator API. tapegrad has no accelerator, so it
answers as a CPU-only PyTorch does: none available, and calls that need one fail with its
message. Device-selection code (``torch.accelerator.current_accelerator() or "cpu"``) runs
unchanged."""

__all__ = ["is_available", "device_count", "current_accelerator", "current_device_index",
           "current_device_idx", "set_device_index", "set_device_idx", "synchronize",
           "current_stream"]


def is_available():
    return False


def device_count():
    return 0


def current_accelerator(check_available=False):
    """The accelerator's device type: None, there is none."""
    return None


def _no_accelerator(*args, **kwargs):
    raise RuntimeError("Cannot access accelerator device when none is available.")


current_device_index = current_device_idx = _no_accelerator
set_device_index = set_device_idx = synchronize = current_stream = _no_accelerator
