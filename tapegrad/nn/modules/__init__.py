"""The layer classes of ``tapegrad.nn``."""
from .module import Module
from .container import ModuleDict, ModuleList, Sequential
from .linear import Identity, Linear
from .activation import GELU, LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .dropout import Dropout
from .normalization import LayerNorm
from .sparse import Embedding
from .flatten import Flatten
from .conv import Conv2d
from .pooling import MaxPool2d
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss

__all__ = ["Module", "Sequential", "ModuleList", "ModuleDict", "Identity", "Linear", "ReLU",
           "GELU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Dropout", "LayerNorm",
           "Embedding", "Flatten", "Conv2d", "MaxPool2d", "MSELoss", "L1Loss",
           "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss"]
