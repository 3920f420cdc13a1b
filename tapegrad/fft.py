"""``torch.fft``: discrete Fourier transforms, differentiable, on numpy's pocketfft.

Every function is one of three primitives (see ``tapegrad.ops.spectral``), after the signal is
sliced or zero-padded to the requested length ``n`` (per dim: ``s``), so the graph records what
PyTorch's does (``FftR2CBackward0`` over ``ConstantPadNdBackward0`` …). ``norm`` is PyTorch's:
"backward" (the default: the inverse divides by n), "forward", or "ortho".
"""
import numpy as np

from .ops import spectral as _spectral
from .ops.conjugation import conj as _conj, conj_physical as _conj_physical
from .ops.creation import arange as _arange
from .ops.layout import roll as _roll
from . import dtypes as _dtypes

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
           "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]


def _one_dim(n, dim):
    return None if n is None else (n,), dim


# -------------------------------------------------------------------------- complex to complex
def _c2c(input, s, dim, norm, forward, one_dim=False):
    dims, sizes = _spectral.signal_dims(input, s, dim)
    x = _spectral.resized(input, dims, sizes)
    if one_dim and x._array.dtype.kind != "c":  # PyTorch: a full r2c, conjugated if inverse
        x = _spectral.real_input("fft", x)
        out = _spectral.fft_r2c(x, dims, _scale(norm, sizes, forward), onesided=False)
        return out if forward else _conj(out)
    x = _spectral.complex_input(x)
    return _spectral.fft_c2c(x, dims, _scale(norm, sizes, forward), forward)


def _scale(norm, sizes, forward):
    count = 1
    for n in sizes:
        count *= n
    return _spectral.norm_scale(norm, count, forward)


def fft(input, n=None, dim=-1, norm=None):
    """The 1-d discrete Fourier transform along ``dim`` (``n``: the signal's length)."""
    return _c2c(input, *_one_dim(n, dim), norm, forward=True, one_dim=True)


def ifft(input, n=None, dim=-1, norm=None):
    return _c2c(input, *_one_dim(n, dim), norm, forward=False, one_dim=True)


def fft2(input, s=None, dim=(-2, -1), norm=None):
    return _c2c(input, s, dim, norm, forward=True)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    return _c2c(input, s, dim, norm, forward=False)


def fftn(input, s=None, dim=None, norm=None):
    return _c2c(input, s, dim, norm, forward=True)


def ifftn(input, s=None, dim=None, norm=None):
    return _c2c(input, s, dim, norm, forward=False)


# ------------------------------------------------------------------ real to onesided complex
def _r2c(name, input, s, dim, norm, forward):
    """``rfft``/``ihfft`` and their n-d forms. A complex signal is refused where PyTorch refuses
    it: by the 1-d forms and ``rfftn`` before reading the arguments, by ``ihfftn`` after."""
    if name in ("rfft", "ihfft"):
        input = _spectral.real_input(name, input)
    elif name == "rfftn" and input.is_complex():
        raise RuntimeError(f"rfftn expects a real-valued input tensor, but got "
                           f"{_dtype_name(input)}")
    dims, sizes = _spectral.signal_dims(input, s, dim)
    _spectral.require_axes(name, dims)
    if input.is_complex():
        raise RuntimeError(f"Only supports floating-point dtypes, but found: {_dtype_name(input)}")
    x = _spectral.resized(_spectral.real_input(name, input), dims, sizes)
    if forward:
        return _spectral.fft_r2c(x, dims, _scale(norm, sizes, forward), onesided=True)
    # the inverse: the conjugate of a forward r2c over the last dim, then an inverse c2c
    half = _spectral.fft_r2c(x, dims[-1:], _scale(norm, sizes[-1:], False), onesided=True)
    if len(dims) == 1:
        return _conj(half)
    return _spectral.fft_c2c(_conj_physical(half), dims[:-1], _scale(norm, sizes[:-1], False),
                             forward=False)


def _dtype_name(input):
    return _dtypes.SCALAR_TYPE_NAMES[input._array.dtype.name]


def rfft(input, n=None, dim=-1, norm=None):
    """The transform of a real signal: its non-negative frequencies, n // 2 + 1 of them."""
    return _r2c("rfft", input, *_one_dim(n, dim), norm, forward=True)


def ihfft(input, n=None, dim=-1, norm=None):
    """The inverse of ``hfft``: the onesided spectrum whose Hermitian signal is ``input``."""
    return _r2c("ihfft", input, *_one_dim(n, dim), norm, forward=False)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    return _r2c("rfftn", input, s, dim, norm, forward=True)


def ihfft2(input, s=None, dim=(-2, -1), norm=None):
    return _r2c("ihfftn", input, s, dim, norm, forward=False)


def rfftn(input, s=None, dim=None, norm=None):
    return _r2c("rfftn", input, s, dim, norm, forward=True)


def ihfftn(input, s=None, dim=None, norm=None):
    return _r2c("ihfftn", input, s, dim, norm, forward=False)


# --------------------------------------------------------------- onesided complex to real
def _c2r(name, input, s, dim, norm, forward):
    dims, sizes = _spectral.signal_dims(input, s, dim)
    _spectral.require_axes(name, dims)
    if s is None or s[-1] == -1:  # the default signal: 2 (m - 1) for m frequencies
        sizes[-1] = 2 * (input.shape[dims[-1]] - 1)
        if sizes[-1] < 1:
            raise RuntimeError(f"Invalid number of data points ({sizes[-1]}) specified")
    half = sizes[:-1] + [sizes[-1] // 2 + 1]
    x = _spectral.complex_input(_spectral.resized(input, dims, half))
    if not forward:
        return _spectral.fft_c2r(x, dims, sizes[-1], _scale(norm, sizes, forward))
    # hfft: a forward c2c over the other dims, then the last dim's Hermitian signal transformed,
    # which is the inverse c2r of its conjugate
    if len(dims) > 1:
        x = _spectral.fft_c2c(x, dims[:-1], _scale(norm, sizes[:-1], True), forward=True)
    return _spectral.fft_c2r(_conj(x), dims[-1:], sizes[-1], _scale(norm, sizes[-1:], True))


def irfft(input, n=None, dim=-1, norm=None):
    """The real signal whose ``rfft`` is ``input`` (``n``: its length, 2 (m - 1) by default)."""
    return _c2r("irfft", input, *_one_dim(n, dim), norm, forward=False)


def hfft(input, n=None, dim=-1, norm=None):
    """The transform of a Hermitian signal given by its non-negative half: a real spectrum."""
    return _c2r("hfft", input, *_one_dim(n, dim), norm, forward=True)


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    return _c2r("irfftn", input, s, dim, norm, forward=False)


def hfft2(input, s=None, dim=(-2, -1), norm=None):
    return _c2r("hfftn", input, s, dim, norm, forward=True)


def irfftn(input, s=None, dim=None, norm=None):
    return _c2r("irfftn", input, s, dim, norm, forward=False)


def hfftn(input, s=None, dim=None, norm=None):
    return _c2r("hfftn", input, s, dim, norm, forward=True)


# ------------------------------------------------------------------------- frequencies, shifts
def fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    """The frequency of each ``fft`` output, in cycles per unit of the sample spacing ``d``:
    0, 1, ..., -(n // 2), ..., -1, over n d."""
    k = _arange(n, dtype=dtype or _dtypes.get_default_dtype())
    k = _roll(k - n // 2, -(n // 2)) if n > 1 else k
    return _frequencies(k, n, d, requires_grad)


def rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    """The frequencies of ``rfft``'s outputs: 0, 1, ..., n // 2, over n d."""
    k = _arange(n // 2 + 1, dtype=dtype or _dtypes.get_default_dtype())
    return _frequencies(k, n, d, requires_grad)


def _frequencies(k, n, d, requires_grad):
    with np.errstate(divide="ignore", invalid="ignore"):  # no samples or no spacing: PyTorch
        scale = float(np.float64(1.0) / np.float64(n * d))  # scales by infinity, 0 by NaN
        return (k * scale).requires_grad_(requires_grad)


def fftshift(input, dim=None):
    """Zero frequency moved to the centre: each dim rolled by half its length."""
    dims = range(input.dim()) if dim is None else (dim,) if isinstance(dim, int) else dim
    return _roll(input, [input.shape[d] // 2 for d in dims], list(dims))


def ifftshift(input, dim=None):
    """``fftshift`` undone (they differ for odd lengths)."""
    dims = range(input.dim()) if dim is None else (dim,) if isinstance(dim, int) else dim
    return _roll(input, [(input.shape[d] + 1) // 2 for d in dims], list(dims))

