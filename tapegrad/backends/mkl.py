"""``torch.backends.mkl``: tapegrad does not link Intel MKL itself (numpy may, invisibly)."""

__all__ = ["is_available"]


def is_available():
    return False
