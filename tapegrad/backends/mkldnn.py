"""``torch.backends.mkldnn``: oneDNN, which tapegrad (numpy kernels) does not use; its flags are
settable attributes with no effect, so CPU-tuning boilerplate runs unchanged."""

__all__ = ["is_available", "enabled", "deterministic"]

enabled = True
deterministic = False


def is_available():
    return False
