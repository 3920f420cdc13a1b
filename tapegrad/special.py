"""``torch.special``: the special functions tapegrad has, under PyTorch's ``torch.special`` names.

The operations live in the op table (``tapegrad.ops.special``, ``ops.reduction``,
``ops.elementwise``); this module gives them the names and signatures PyTorch uses here (``expit``
is the sigmoid; ``softmax`` and ``log_softmax`` take ``dim`` and keyword-only ``dtype``).
"""
from .ops.elementwise import sigmoid as expit
from .ops.reduction import log_softmax as _log_softmax
from .ops.reduction import logsumexp
from .ops.reduction import softmax as _softmax
from .ops.special import erf, erfinv, exp2, expm1, log1p, logit, xlog1py, xlogy

__all__ = ["erf", "erfinv", "expm1", "exp2", "log1p", "logit", "expit", "softmax", "log_softmax",
           "logsumexp", "xlogy", "xlog1py"]


def softmax(input, dim, *, dtype=None):
    return _softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return _log_softmax(input, dim, dtype=dtype)
