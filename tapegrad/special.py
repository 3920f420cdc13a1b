"""``torch.special``: the special functions tapegrad has, under PyTorch's ``torch.special`` names.

The operations live in the op table (``tapegrad.ops.special``, ``ops.reduction``,
``ops.elementwise``, ``ops.bessel``, ``ops.gaussian``, ``ops.gamma_functions``; the Bessel
functions and orthogonal polynomials, which PyTorch does not differentiate, in
``ops.special_functions``); this module gives
them the names and signatures PyTorch uses here (``expit`` is the sigmoid, ``psi`` digamma,
``gammaln`` lgamma; ``softmax`` and ``log_softmax`` take ``dim`` and keyword-only ``dtype``).
"""
from .ops.elementwise import sigmoid as expit
from .ops.reduction import log_softmax as _log_softmax
from .ops.reduction import logsumexp
from .ops.reduction import softmax as _softmax
from .ops.special import erf, erfinv, exp2, expm1, log1p, logit, xlog1py, xlogy
from .ops.special import entr, erfc, sinc
from .ops.bessel import i0, i0e, i1, i1e
from .ops.gaussian import erfcx, log_ndtr, ndtr, ndtri
from .ops.gamma_functions import digamma, polygamma, zeta
from .ops.gamma_functions import digamma as psi
from .ops.gamma_functions import lgamma as gammaln
from .ops.gamma_functions import mvlgamma as multigammaln
from .ops.incomplete_gamma import igamma as gammainc, igammac as gammaincc
from .ops.elementwise import round as _round
from .ops.special_functions import *  # noqa: F401,F403  (Bessel functions and polynomials)
from .ops.special_functions import __all__ as _special_functions

__all__ = ["erf", "erfinv", "expm1", "exp2", "log1p", "logit", "expit", "softmax", "log_softmax",
           "logsumexp", "xlogy", "xlog1py", "entr", "erfc", "erfcx", "sinc", "i0", "i0e", "i1",
           "i1e", "ndtr", "log_ndtr", "ndtri", "digamma", "psi", "polygamma", "gammaln",
           "multigammaln", "zeta", "round", "gammainc", "gammaincc", *_special_functions]


def softmax(input, dim, *, dtype=None):
    return _softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return _log_softmax(input, dim, dtype=dtype)


def round(input, *, decimals=0):
    return _round(input, decimals=decimals)
