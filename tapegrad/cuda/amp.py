"""``torch.cuda.amp``: the deprecated CUDA spellings of ``torch.amp``'s ``GradScaler`` and
``autocast``, with PyTorch's deprecation warnings."""
from .. import amp as _amp
from .._warnings import warn_at_caller

__all__ = ["GradScaler", "autocast"]


class GradScaler(_amp.GradScaler):
    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        warn_at_caller("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                       "`torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning)
        super().__init__("cuda", init_scale, growth_factor, backoff_factor, growth_interval,
                         enabled)


class autocast(_amp.autocast):
    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        warn_at_caller("`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
                       "`torch.amp.autocast('cuda', args...)` instead.", FutureWarning)
        from .. import dtypes
        super().__init__("cuda", dtype=dtypes.float16 if dtype is None else dtype,
                         enabled=enabled, cache_enabled=cache_enabled)
