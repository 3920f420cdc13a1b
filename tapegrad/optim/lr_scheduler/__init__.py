"""``tapegrad.optim.lr_scheduler``: learning-rate schedules with PyTorch's lr sequences."""
from ._base import LRScheduler
from ._combinators import ChainedScheduler, SequentialLR
from ._cyclic import CosineAnnealingLR, CosineAnnealingWarmRestarts, OneCycleLR
from ._multiplicative import (ConstantLR, ExponentialLR, LambdaLR, LinearLR, MultiStepLR,
                              PolynomialLR, StepLR)
from ._plateau import ReduceLROnPlateau

__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "ConstantLR", "LinearLR",
           "PolynomialLR", "LambdaLR", "CosineAnnealingLR", "CosineAnnealingWarmRestarts",
           "OneCycleLR", "ReduceLROnPlateau", "SequentialLR", "ChainedScheduler"]
