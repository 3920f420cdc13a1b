"""scipy.signal.windows-style window functions, keyword-only after the length ``M``.

Unlike ``torch.hann_window`` (``periodic=``), these take ``sym=``: ``sym=False`` is the periodic
window, the symmetric one of length M + 1 without its last sample. Each is written, as in
PyTorch, with public tensor operations on a ``linspace`` of sample positions, so that with
``requires_grad=True`` the result carries those operations' graph.
"""
import math
from collections.abc import Iterable

from ... import ops
from ...dtypes import float32, float64, get_default_dtype
from ..._layout import strided

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]


def _checks(name, M, dtype, layout):
    """The checks every window makes first; ``name`` is the function that makes them."""
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (float32, float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")


def _trivial(M, dtype, device, requires_grad):
    """The window of length 0 or 1 (empty, or a single 1), else None."""
    if M > 1:
        return None
    return ops.ones(M, dtype=dtype, device=device, requires_grad=requires_grad)


def _positions(start, step, M, dtype, device, requires_grad):
    """``M`` sample positions ``start, start + step, ...`` as a linspace in ``dtype``."""
    return ops.linspace(start, start + (M - 1) * step, M, dtype=dtype, device=device,
                        requires_grad=requires_grad)


def _period(M, sym):
    """The length a window's formula is written for: M - 1 if symmetric, M if periodic."""
    return M - 1 if sym else M


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=strided, device=None,
                requires_grad=False):
    """exp(-|n - center| / tau) (the Poisson window)."""
    dtype = dtype or get_default_dtype()
    _checks("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    k = _positions(-center / tau, 1 / tau, M, dtype, device, requires_grad)
    return ops.exp(-ops.abs(k))


def cosine(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """sin(pi (n + 0.5) / M) (the sine window; periodic: over M + 1)."""
    dtype = dtype or get_default_dtype()
    _checks("cosine", M, dtype, layout)
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    step = math.pi / (M + 1 if not sym and M > 1 else M)
    return ops.sin(_positions(0.5 * step, step, M, dtype, device, requires_grad))


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=strided, device=None,
             requires_grad=False):
    """exp(-(n - c)^2 / (2 std^2)), centred on the window."""
    dtype = dtype or get_default_dtype()
    _checks("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    if M == 0:
        return _trivial(M, dtype, device, requires_grad)
    scale = 1 / (std * math.sqrt(2))
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    return ops.exp(-_positions(start * scale, scale, M, dtype, device, requires_grad) ** 2)


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=strided, device=None,
           requires_grad=False):
    """I0(beta sqrt(1 - (2n / N - 1)^2)) / I0(beta), N the period."""
    dtype = dtype or get_default_dtype()
    _checks("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    beta = ops.tensor(beta, dtype=dtype, device=device)  # in the window's dtype: no NaNs
    step = 2.0 * beta / _period(M, sym)
    end = ops.minimum(beta, -beta + (M - 1) * step)  # rounding must not pass beta
    k = ops.linspace(-beta, end, M, dtype=dtype, device=device, requires_grad=requires_grad)
    return ops.i0(ops.sqrt(beta * beta - k ** 2)) / ops.i0(beta)


def general_cosine(M, *, a, sym=True, dtype=None, layout=strided, device=None,
                   requires_grad=False):
    """sum_i (-1)^i a_i cos(2 pi i n / N), N the period."""
    dtype = dtype or get_default_dtype()
    _checks("general_cosine", M, dtype, layout)
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    k = _positions(0, 2 * math.pi / _period(M, sym), M, dtype, device, requires_grad)
    coefficients = ops.tensor([(-1) ** i * w for i, w in enumerate(a)], dtype=dtype,
                              device=device, requires_grad=requires_grad)
    orders = ops.arange(coefficients.shape[0], dtype=dtype, device=device,
                        requires_grad=requires_grad)
    return (coefficients.unsqueeze(-1) * ops.cos(orders.unsqueeze(-1) * k)).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=strided, device=None,
                    requires_grad=False):
    """alpha - (1 - alpha) cos(2 pi n / N)."""
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def hamming(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """general_hamming with alpha = 0.54."""
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """general_hamming with alpha = 0.5."""
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)."""
    dtype = dtype or get_default_dtype()
    _checks("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """1 - |2n / N - 1| (the triangle)."""
    dtype = dtype or get_default_dtype()
    _checks("bartlett", M, dtype, layout)
    trivial = _trivial(M, dtype, device, requires_grad)
    if trivial is not None:
        return trivial
    return 1 - ops.abs(_positions(-1, 2 / _period(M, sym), M, dtype, device, requires_grad))


def nuttall(M, *, sym=True, dtype=None, layout=strided, device=None, requires_grad=False):
    """The 4-term Blackman-Harris window of Nuttall's minimum side-lobe choice."""
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym,
                          dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)
