"""PyTorch's deprecated ``size_average``/``reduce`` loss flags, translated to ``reduction``."""
from .._warnings import warn_at_caller

__all__ = ["legacy_get_string"]


def legacy_get_string(size_average, reduce, emit_warning=True):
    """The ``reduction`` string that ``size_average`` and ``reduce`` (None: default) stand for,
    with PyTorch's deprecation warning naming it."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        reduction = "none"
    else:
        reduction = "mean" if size_average else "sum"
    if emit_warning:
        warn_at_caller(f"size_average and reduce args will be deprecated, please use "
                       f"reduction='{reduction}' instead.")
    return reduction
