"""``torch.backends.openmp``: tapegrad's own kernels are not built with OpenMP."""

__all__ = ["is_available"]


def is_available():
    return False
