"""``torch.nn.parallel``: ``DataParallel`` (which on a machine without GPUs runs the module as
is, as PyTorch's does) and ``DistributedDataParallel`` (which needs a process group tapegrad
cannot have)."""
from ..modules.module import Module

__all__ = ["DataParallel", "DistributedDataParallel"]


class DataParallel(Module):
    """Wraps ``module`` (its state dict keys gain the ``module.`` prefix); without GPUs there is
    nothing to split the batch over, so ``forward`` calls the module."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


class DistributedDataParallel(Module):
    """Refused: it needs ``torch.distributed``'s default process group."""

    def __init__(self, module, *args, **kwargs):
        super().__init__()
        from ...distributed import _NOT_INITIALIZED
        raise ValueError(_NOT_INITIALIZED)
