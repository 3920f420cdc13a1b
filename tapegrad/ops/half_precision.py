"""float16 as PyTorch's CPU kernels compute it: in float32, rounded to float16 once at the end.

numpy computes a float16 expression step by step, rounding after each one, so a sigmoid or a
normalisation differs from PyTorch's in the last digits (and a square can overflow float16).
"""
import functools

import numpy as np

__all__ = ["in_float32", "scaled_add"]

_HALF = np.dtype(np.float16)


def in_float32(kernel):
    """``kernel`` (on numpy arrays) computed in float32 when any argument is float16, its
    float32 results rounded to float16 once."""
    @functools.wraps(kernel)
    def run(*arrays, **params):
        for a in arrays:
            if type(a) is np.ndarray and a.dtype == _HALF:
                break
        else:  # no float16 argument (the common case): the kernel as it is
            return kernel(*arrays, **params)
        out = kernel(*(a.astype(np.float32) if _is_half(a) else a for a in arrays), **params)
        if isinstance(out, tuple):
            return tuple(_to_half(o) for o in out)
        return _to_half(out)
    return run


def _is_half(array):
    return isinstance(array, np.ndarray) and array.dtype == _HALF


def _to_half(array):
    return array.astype(np.float16) if array.dtype == np.float32 else array


def scaled_add(a, b, alpha):
    """``a + alpha * b`` for float16 arrays as PyTorch computes it: in float32, ``alpha`` first
    rounded to float16 (the kernel's scalar type), the result rounded once."""
    alpha = np.float32(np.float16(alpha))
    return (a.astype(np.float32) + alpha * b.astype(np.float32)).astype(np.float16)
