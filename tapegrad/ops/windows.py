"""Window functions for spectral analysis: hann, hamming, blackman, bartlett, kaiser.

Each follows PyTorch's recipe step by step in the target dtype (a periodic window is the
symmetric one of length + 1 without its last sample), so float32 results agree with PyTorch's to
the last bit or two.
"""
import operator

import numpy as np

from ..dtypes import SCALAR_TYPE_NAMES
from .creation import _finish, _numpy_dtype
from .operands import CPP_TYPE_NAMES
from .signatures import invalid_combination

__all__ = ["hann_window", "hamming_window", "blackman_window", "bartlett_window",
           "kaiser_window"]


def _length(name, window_length):
    """``window_length`` as an int, the binding's error for anything without ``__index__``."""
    try:
        return operator.index(window_length)
    except TypeError:
        raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                        f"{type(window_length).__name__}") from None


def _window(name, window_length, periodic, dtype, device, requires_grad, shape):
    """Check the arguments, handle lengths 0 and 1, and otherwise call ``shape(n, d)`` with the
    symmetric window's length and the numpy dtype; the periodic form drops the last sample."""
    window_length = _length(name, window_length)
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={window_length}")
    d = _numpy_dtype(dtype)
    if d.kind == "c":  # PyTorch gets as far as its arange, which has no complex kernel
        raise NotImplementedError(f'"arange_cpu" not implemented for '
                                  f"'{SCALAR_TYPE_NAMES[d.name]}'")
    if d.kind != "f":
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype="
                           f"{CPP_TYPE_NAMES[d.name]}, device=cpu, layout=Strided (default), "
                           "requires_grad=false (default), pinned_memory=false, "
                           "memory_format=(nullopt))")
    if window_length <= 1:
        array = np.ones(window_length, d)
    else:
        n = window_length + 1 if periodic else window_length
        array = shape(n, d)[:window_length]
    return _finish(np.ascontiguousarray(array), requires_grad, device)


def _ramp(n, step, d):
    return np.arange(n, dtype=d) * d.type(step)


def _hamming(alpha, beta):
    return lambda n, d: np.cos(_ramp(n, 2 * np.pi / (n - 1), d)) * d.type(-beta) + d.type(alpha)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None,
                   layout=None, device=None, pin_memory=False, requires_grad=False):
    """alpha - beta cos(2 pi k / (N - 1))."""
    return _window("hamming_window", window_length, periodic, dtype, device, requires_grad,
                   _hamming(alpha, beta))


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                pin_memory=False, requires_grad=False):
    """The Hamming window with alpha = beta = 0.5."""
    return _window("hann_window", window_length, periodic, dtype, device, requires_grad,
                   _hamming(0.5, 0.5))


def _blackman(n, d):
    angles = _ramp(n, np.pi / (n - 1), d)
    return (np.cos(angles * d.type(4)) * d.type(0.08) - np.cos(angles * d.type(2)) * d.type(0.5)
            + d.type(0.42))


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    pin_memory=False, requires_grad=False):
    """0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1))."""
    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad,
                   _blackman)


def _bartlett(n, d):
    window = _ramp(n, 2.0 / (n - 1), d)
    first_half_end = ((n - 1) >> 1) + 1
    window[first_half_end:] = d.type(2) - window[first_half_end:]
    return window


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
                    pin_memory=False, requires_grad=False):
    """The triangle rising from 0 to 1 and back."""
    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad,
                   _bartlett)


def _kaiser(beta):
    def shape(n, d):
        alpha = (n - 1) / 2.0
        ratio = (np.arange(n, dtype=np.float64) - alpha) / alpha
        return (np.i0(beta * np.sqrt(np.abs(1 - ratio ** 2))) / np.i0(beta)).astype(d)
    return shape


_OPTIONS = ("torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False")
_KAISER_OVERLOADS = (f"int window_length, *, {_OPTIONS}",
                     f"int window_length, bool periodic, *, {_OPTIONS}",
                     f"int window_length, bool periodic, float beta, *, {_OPTIONS}")


def kaiser_window(window_length, periodic=None, beta=None, *, dtype=None, layout=None,
                  device=None, pin_memory=False, requires_grad=False):
    """I0(beta sqrt(1 - ((k - alpha) / alpha)^2)) / I0(beta), alpha = (N - 1) / 2 (periodic by
    default, beta 12); PyTorch's overloads take ``beta`` only after ``periodic``."""
    if beta is not None and periodic is None:
        raise invalid_combination("kaiser_window", [window_length], {"beta": beta},
                                  _KAISER_OVERLOADS)
    return _window("kaiser_window", window_length, True if periodic is None else periodic,
                   dtype, device, requires_grad, _kaiser(12.0 if beta is None else beta))
