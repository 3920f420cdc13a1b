"""The layer classes of ``tapegrad.nn``."""
from .module import Module
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .linear import Bilinear, Identity, Linear, NonDynamicallyQuantizableLinear
from .activation import (
    CELU, ELU, GELU, GLU, SELU, Hardshrink, Hardsigmoid, Hardswish, Hardtanh, LeakyReLU,
    LogSigmoid, LogSoftmax, Mish, PReLU, ReLU, ReLU6, RReLU, Sigmoid, SiLU, Softmax, Softmin,
    Softplus, Softshrink, Softsign, Tanh, Tanhshrink, Threshold, Softmax2d,
)
from .distance import CosineSimilarity, PairwiseDistance
from .dropout import (AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d,
                      FeatureAlphaDropout)
from .normalization import (
    BatchNorm1d, BatchNorm2d, GroupNorm, InstanceNorm1d, InstanceNorm2d, InstanceNorm3d, LayerNorm,
    RMSNorm, BatchNorm3d, CrossMapLRN2d, LocalResponseNorm,
)
from .sparse import Embedding, EmbeddingBag
from .flatten import Flatten, Unflatten
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .pooling import (
    AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d,
    AvgPool2d, MaxPool1d, MaxPool2d, MaxUnpool1d, MaxUnpool2d,
    AdaptiveAvgPool3d, AdaptiveMaxPool3d, AvgPool3d, LPPool1d, LPPool2d, LPPool3d, MaxPool3d,
    MaxUnpool3d, FractionalMaxPool2d, FractionalMaxPool3d,
)
from .pixelshuffle import ChannelShuffle, PixelShuffle, PixelUnshuffle
from .fold import Fold, Unfold
from .padding import (
    CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d,
    ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
    ReplicationPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d,
)
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .lazy import (
    LazyBatchNorm1d, LazyBatchNorm2d, LazyConv1d, LazyConv2d, LazyConvTranspose1d,
    LazyConvTranspose2d, LazyLinear, LazyModuleMixin,
    LazyBatchNorm3d, LazyConv3d, LazyConvTranspose3d, LazyInstanceNorm1d, LazyInstanceNorm2d,
    LazyInstanceNorm3d,
)
from .attention import MultiheadAttention
from .transformer import (
    Transformer, TransformerDecoder, TransformerDecoderLayer, TransformerEncoder,
    TransformerEncoderLayer,
)
from .loss import (
    BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, GaussianNLLLoss,
    HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss, MSELoss,
    MultiLabelSoftMarginLoss, MultiMarginLoss, NLLLoss, NLLLoss2d, PoissonNLLLoss, SmoothL1Loss,
    SoftMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss, MultiLabelMarginLoss,
    LinearCrossEntropyLoss, LinearCrossEntropyOptions,
)
from .ctc_loss import CTCLoss
from .adaptive import AdaptiveLogSoftmaxWithLoss
from . import batchnorm, utils  # PyTorch's module paths (nn.modules.batchnorm, .utils)
from .batchnorm import SyncBatchNorm

__all__ = ["Module", "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict",
           "Identity", "Linear", "ReLU", "ReLU6", "GELU", "Tanh", "Sigmoid", "Softmax",
           "LogSoftmax", "LeakyReLU", "ELU", "SELU", "SiLU", "Softplus", "Mish", "Hardtanh",
           "LogSigmoid", "Softsign", "Hardswish", "Hardsigmoid", "Dropout", "LayerNorm",
           "GroupNorm", "BatchNorm1d", "BatchNorm2d", "Embedding", "Flatten", "Unflatten",
           "Conv1d", "Conv2d", "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d",
           "AdaptiveAvgPool2d", "ConvTranspose1d", "ConvTranspose2d", "AdaptiveAvgPool1d",
           "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "MaxUnpool1d", "MaxUnpool2d",
           "PixelShuffle", "PixelUnshuffle", "Fold", "Unfold", "MSELoss", "L1Loss",
           "SmoothL1Loss", "HuberLoss",
           "KLDivLoss", "CosineEmbeddingLoss", "CrossEntropyLoss", "NLLLoss", "BCELoss",
           "LinearCrossEntropyLoss", "LinearCrossEntropyOptions", "NLLLoss2d",
           "BCEWithLogitsLoss", "RNNCell", "LSTMCell", "GRUCell", "RNN", "LSTM", "GRU",
           "MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder",
           "Transformer", "TransformerDecoderLayer", "TransformerDecoder",
           "NonDynamicallyQuantizableLinear", "ReflectionPad1d", "ReflectionPad2d",
           "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
           "CircularPad1d", "CircularPad2d", "CircularPad3d", "ZeroPad1d", "ZeroPad2d",
           "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "Upsample",
           "UpsamplingNearest2d", "UpsamplingBilinear2d", "Dropout1d", "Dropout2d", "Dropout3d",
           "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "RMSNorm", "EmbeddingBag",
           "PReLU", "GLU", "Softmin", "CELU", "Threshold", "Softshrink", "Hardshrink",
           "Tanhshrink", "RReLU", "Bilinear", "CosineSimilarity", "PairwiseDistance",
           "MarginRankingLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
           "HingeEmbeddingLoss", "SoftMarginLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss",
           "GaussianNLLLoss", "PoissonNLLLoss", "LazyModuleMixin", "LazyLinear", "LazyConv1d",
           "LazyConv2d", "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyBatchNorm1d",
           "LazyBatchNorm2d", "ChannelShuffle", "SyncBatchNorm",
           "Conv3d", "ConvTranspose3d", "LazyConv3d", "LazyConvTranspose3d", "MaxPool3d",
           "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "MaxUnpool3d", "LPPool1d",
           "LPPool2d", "LPPool3d", "BatchNorm3d", "LazyBatchNorm3d", "LazyInstanceNorm1d",
           "LazyInstanceNorm2d", "LazyInstanceNorm3d", "AlphaDropout", "FeatureAlphaDropout",
           "LocalResponseNorm", "CrossMapLRN2d", "Softmax2d", "MultiLabelMarginLoss", "RNNBase",
           "RNNCellBase", "FractionalMaxPool2d", "FractionalMaxPool3d", "CTCLoss",
           "AdaptiveLogSoftmaxWithLoss"]
