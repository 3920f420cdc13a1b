"""``tapegrad.optim``: optimizers and learning-rate schedulers with PyTorch's update rules."""
from .optimizer import Optimizer
from .sgd import SGD
from .adam import Adam, AdamW
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adadelta import Adadelta
from .adamax import Adamax
from .nadam import NAdam
from .radam import RAdam
from .rmsprop import RMSprop
from .lbfgs import LBFGS
from .rprop import Rprop
from .asgd import ASGD
from .muon import Muon
from .sparse_adam import SparseAdam
from . import lr_scheduler, swa_utils

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "Adafactor", "Adagrad", "Adadelta", "Adamax",
           "NAdam", "RAdam", "RMSprop", "LBFGS", "Rprop", "ASGD", "Muon", "SparseAdam",
           "lr_scheduler", "swa_utils"]
