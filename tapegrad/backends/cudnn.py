"""``torch.backends.cudnn``: no cuDNN here; ``deterministic``, ``benchmark`` and ``enabled`` are
settable flags with no effect (tapegrad's CPU kernels are deterministic already)."""

__all__ = ["is_available", "is_acceptable", "version", "enabled", "deterministic", "benchmark",
           "allow_tf32"]

enabled = True
deterministic = False
benchmark = False
allow_tf32 = True


def is_available():
    return False


def is_acceptable(tensor):
    """Whether cuDNN could compute on ``tensor``: only CUDA tensors qualify, so never."""
    return False


def version():
    """cuDNN's version number; None without cuDNN, as in a CPU build of PyTorch."""
    return None
