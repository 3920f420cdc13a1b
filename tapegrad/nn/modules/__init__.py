"""The layer classes of ``tapegrad.nn``."""
from .module import Module
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .linear import Identity, Linear, NonDynamicallyQuantizableLinear
from .activation import (
    ELU, GELU, SELU, Hardsigmoid, Hardswish, Hardtanh, LeakyReLU, LogSigmoid, LogSoftmax, Mish,
    ReLU, ReLU6, Sigmoid, SiLU, Softmax, Softplus, Softsign, Tanh,
)
from .dropout import Dropout
from .normalization import BatchNorm1d, BatchNorm2d, GroupNorm, LayerNorm
from .sparse import Embedding
from .flatten import Flatten, Unflatten
from .conv import Conv1d, Conv2d
from .pooling import AdaptiveAvgPool2d, AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d
from .padding import (
    CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d,
    ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
    ReplicationPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d,
)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNCell
from .attention import MultiheadAttention
from .transformer import (
    Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
    TransformerEncoderLayer,
)
from .loss import (
    BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, HuberLoss, KLDivLoss,
    L1Loss, MSELoss, NLLLoss, SmoothL1Loss,
)

__all__ = ["Module", "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict",
           "Identity", "Linear", "ReLU", "ReLU6", "GELU", "Tanh", "Sigmoid", "Softmax",
           "LogSoftmax", "LeakyReLU", "ELU", "SELU", "SiLU", "Softplus", "Mish", "Hardtanh",
           "LogSigmoid", "Softsign", "Hardswish", "Hardsigmoid", "Dropout", "LayerNorm",
           "GroupNorm", "BatchNorm1d", "BatchNorm2d", "Embedding", "Flatten", "Unflatten",
           "Conv1d", "Conv2d", "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d",
           "AdaptiveAvgPool2d", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss",
           "KLDivLoss", "CosineEmbeddingLoss", "CrossEntropyLoss", "NLLLoss", "BCELoss",
           "BCEWithLogitsLoss", "RNNCell", "LSTMCell", "GRUCell", "RNN", "LSTM", "GRU",
           "MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "Transformer", "TransformerDecoderLayer", "TransformerDecoder",
           "NonDynamicallyQuantizableLinear", "ReflectionPad1d", "ReflectionPad2d",
           "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
           "CircularPad1d", "CircularPad2d", "CircularPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d"]
