"""``torch.signal``: signal-processing helpers; so far the scipy-style window functions."""
from . import windows
from .windows import (bartlett, blackman, cosine, exponential, gaussian, general_cosine,
                      general_hamming, hamming, hann, kaiser, nuttall)

__all__ = ["windows", "bartlett", "blackman", "cosine", "exponential", "gaussian",
           "general_cosine", "general_hamming", "hamming", "hann", "kaiser", "nuttall"]
