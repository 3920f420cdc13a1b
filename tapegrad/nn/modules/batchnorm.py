"""``nn.modules.batchnorm``: where PyTorch defines its batch norm layers (tapegrad keeps most in
``normalization``), and ``SyncBatchNorm``."""
from ...autograd import grad_mode
from .lazy import LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d
from .normalization import _BatchNorm as _BatchNorm  # the base classes user code subclasses
from .normalization import _NormBase as _NormBase
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LazyBatchNorm1d", "LazyBatchNorm2d",
           "LazyBatchNorm3d", "SyncBatchNorm"]


class SyncBatchNorm(_BatchNorm):
    """Batch norm whose statistics distributed training reduces over ``process_group``; in a
    single process, as every tapegrad run is, it is batch norm over inputs of any rank >= 2."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, process_group=None, device=None, dtype=None, *,
                 bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype,
                         bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input):
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        """``module`` with every batch norm layer in it (itself included) replaced by a
        SyncBatchNorm sharing its parameters, buffers and training mode."""
        converted = module
        if isinstance(module, _BatchNorm):
            converted = cls(module.num_features, module.eps, module.momentum, module.affine,
                            module.track_running_stats, process_group)
            if module.affine:
                with grad_mode.no_grad():
                    converted.weight = module.weight
                    converted.bias = module.bias
            converted.running_mean = module.running_mean
            converted.running_var = module.running_var
            converted.num_batches_tracked = module.num_batches_tracked
            converted.training = module.training
            if hasattr(module, "qconfig"):
                converted.qconfig = module.qconfig
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted
