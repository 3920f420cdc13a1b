"""PyTorch's deprecated ``size_average``/``reduce`` loss flags, translated to ``reduction``."""

__all__ = ["legacy_get_string"]


def legacy_get_string(size_average, reduce):
    """The ``reduction`` string that ``size_average`` and ``reduce`` (None: default) stand for."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"
