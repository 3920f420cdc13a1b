"""``tapegrad.optim.lr_scheduler``: learning-rate schedules with PyTorch's lr sequences."""
from ._base import LRScheduler
from ._combinators import ChainedScheduler, SequentialLR
from ._cyclic import CosineAnnealingLR, CosineAnnealingWarmRestarts, CyclicLR, OneCycleLR
from ._multiplicative import (ConstantLR, ExponentialLR, LambdaLR, LinearLR, MultiplicativeLR,
                              MultiStepLR, PolynomialLR, StepLR)
from ._plateau import ReduceLROnPlateau

__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "ConstantLR", "LinearLR",
           "PolynomialLR", "LambdaLR", "CosineAnnealingLR", "CosineAnnealingWarmRestarts",
           "OneCycleLR", "ReduceLROnPlateau", "SequentialLR", "ChainedScheduler",
           "MultiplicativeLR", "CyclicLR"]


class _LRScheduler(LRScheduler):
    """The old name of ``LRScheduler``, kept (as PyTorch keeps it) for schedulers that derive
    from it."""


# Pickled as PyTorch's are, by the package they are public in (torch.optim.lr_scheduler.StepLR):
# a checkpoint names them as a PyTorch one does, and loads whichever way this package is split.
for _scheduler in (LRScheduler, _LRScheduler, *(globals()[name] for name in __all__)):
    _scheduler.__module__ = __name__
del _scheduler
