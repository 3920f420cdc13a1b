"""``torch.cpu.amp``: the deprecated CPU spellings of ``torch.amp``'s ``autocast`` and
``GradScaler``, with PyTorch's deprecation warnings."""
from .. import amp as _amp
from .. import dtypes
from .._warnings import warn_at_caller

__all__ = ["GradScaler", "autocast"]


class autocast(_amp.autocast):
    def __init__(self, enabled=True, dtype=dtypes.bfloat16, cache_enabled=True):
        warn_at_caller("`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
                       "`torch.amp.autocast('cpu', args...)` instead.", FutureWarning)
        super().__init__("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class GradScaler(_amp.GradScaler):
    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        warn_at_caller("`torch.cpu.amp.GradScaler(args...)` is deprecated. Please use "
                       "`torch.amp.GradScaler('cpu', args...)` instead.", FutureWarning)
        super().__init__("cpu", init_scale, growth_factor, backoff_factor, growth_interval,
                         enabled)
