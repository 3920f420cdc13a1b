"""Discrete Fourier transforms: the three primitives under ``torch.fft`` and ``torch.stft``.

PyTorch computes every transform with three kernels and records their nodes:

* c2c (``FftC2CBackward0``): complex to complex, with the forward (e^{-2 pi i k n / N}) or the
  inverse sign;
* r2c (``FftR2CBackward0``): real to complex, all N outputs or the onesided N // 2 + 1;
* c2r (``FftC2RBackward0``): a onesided Hermitian spectrum to its real signal.

Each takes the transformed dims and a scale (the norm mode's 1, 1/N or 1/sqrt(N)); the signal's
length is set beforehand by slicing and zero-padding (``SliceBackward0``,
``ConstantPadNdBackward0``), as PyTorch does.

Each gradient is another of the three, since the adjoint of a DFT is the DFT of the opposite
sign: c2c's is the inverted c2c; r2c's the real part of an inverse c2c of the zero-padded
gradient; c2r's an r2c of the gradient with the frequencies that stand for two (all but zero and
Nyquist) doubled.
"""
import math

import numpy as np

from .. import dtypes
from ..tensor import Tensor
from .conjugation import real
from .padding import constant_pad_nd
from .registry import OTHER, primitive
from .reduction import normalize_dims
from .shape import narrow

__all__ = ["fft_c2c", "fft_r2c", "fft_c2r", "norm_scale", "resized", "complex_input",
           "real_input"]


# ---------------------------------------------------------------------------- the primitives
@primitive("fft_c2c", node="FftC2CBackward0", group=OTHER, complex_rule=True)
def _fft_c2c(a, *, dims, scale, forward):
    # numpy's "backward" forward transform and "forward" inverse one are both unnormalized
    out = (np.fft.fftn(a, axes=dims) if forward else np.fft.ifftn(a, axes=dims, norm="forward"))
    return _scaled(out, scale)


@_fft_c2c.vjp
def _(ctx, grad, dims, scale, forward):
    return fft_c2c(grad, dims, scale, not forward)


@primitive("fft_r2c", node="FftR2CBackward0", group=OTHER, complex_rule=True)
def _fft_r2c(a, *, dims, scale, onesided):
    half = np.fft.rfftn(a, axes=dims)
    return _scaled(half if onesided else _conjugate_completed(half, dims, a.shape[dims[-1]]),
                   scale)


def _conjugate_completed(half, dims, n):
    """The whole spectrum of a real signal from its onesided half, as PyTorch fills it: each
    missing X[k] is conj(X[-k]) (every transformed index negated), so the symmetry is exact and
    the zero and Nyquist frequencies keep their exactly real values."""
    last = dims[-1]
    mirrored = np.take(half, np.arange(n - half.shape[last], 0, -1), axis=last)
    for d in dims[:-1]:  # index k of another transformed dim holds -k there
        mirrored = np.roll(np.flip(mirrored, d), 1, d)
    return np.concatenate([half, np.conj(mirrored)], axis=last)


@_fft_r2c.vjp
def _(ctx, grad, dims, scale, onesided):
    if onesided:  # the dropped half of the spectrum had no gradient: zeros
        last = dims[-1]
        missing = ctx.input_shapes[0][last] - grad.shape[last]
        grad = constant_pad_nd(grad, [0, 0] * (grad.dim() - 1 - last) + [0, missing])
    return real(fft_c2c(grad, dims, scale, forward=False))


@primitive("fft_c2r", node="FftC2RBackward0", group=OTHER, complex_rule=True)
def _fft_c2r(a, *, dims, last_size, scale):
    sizes = [a.shape[d] for d in dims[:-1]] + [last_size]
    return _scaled(np.fft.irfftn(a, s=sizes, axes=dims, norm="forward"), scale)


@_fft_c2r.vjp
def _(ctx, grad, dims, last_size, scale):
    half = fft_r2c(grad, dims, scale, onesided=True)
    # the onesided input stands for the whole Hermitian spectrum: frequencies 1 .. m - 1 (but
    # Nyquist, for an even length) appear twice in the signal, so they receive twice
    count = half.shape[dims[-1]]
    twice = last_size - count
    weights = np.ones(count, half._array.real.dtype)
    weights[1:1 + twice] = 2
    shape = [count] + [1] * (half.dim() - 1 - dims[-1])
    return half * Tensor._make(weights.reshape(shape))


def _scaled(out, scale):
    if scale != 1:
        out *= out.real.dtype.type(scale)
    return out


def fft_c2c(input, dims, scale, forward):
    return _fft_c2c(input, dims=tuple(dims), scale=scale, forward=forward)


def fft_r2c(input, dims, scale, onesided):
    return _fft_r2c(input, dims=tuple(dims), scale=scale, onesided=onesided)


def fft_c2r(input, dims, last_size, scale):
    return _fft_c2r(input, dims=tuple(dims), last_size=last_size, scale=scale)


# ------------------------------------------------------------------ arguments, as PyTorch reads
_NORMS = (None, "backward", "forward", "ortho")


def norm_scale(norm, size, forward):
    """The factor a transform of ``size`` points applies: with the default norm ("backward") the
    forward transform is unscaled and the inverse divides by ``size``; "forward" the other way
    round; "ortho" divides both by sqrt(size)."""
    if norm not in _NORMS:
        raise RuntimeError(f'Invalid normalization mode: "{norm}"')
    if norm == "ortho":
        return 1 / math.sqrt(size)
    return 1 / size if (norm == "forward") == forward else 1.0


def signal_dims(input, s, dim):
    """PyTorch's ``canonicalize_fft_shape_and_dim_args``: the dims transformed and the signal
    size in each (``s``; -1 keeps the input's), checked in PyTorch's order."""
    ndim = input.dim()
    dims = None
    if dim is not None:  # in the order given: a real transform halves the last
        dims = tuple(_wrapped(d, ndim) for d in ((dim,) if isinstance(dim, int) else dim))
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        if dims is not None and len(s) != len(dims):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {ndim} "
                               "dimensions.")
        if dims is None:
            dims = tuple(range(ndim - len(s), ndim))
        sizes = [input.shape[d] if n == -1 else n for d, n in zip(dims, s)]
    else:
        dims = tuple(range(ndim)) if dims is None else dims
        sizes = [input.shape[d] for d in dims]
    for n in sizes:
        if n < 1:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return dims, sizes


def _wrapped(d, ndim):
    if not ndim:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    return normalize_dims(d, ndim)[0]


def require_axes(name, dims):
    """The real transforms' refusal of an empty set of dims."""
    if not dims:
        raise RuntimeError(f"{name} must transform at least one axis")


def resized(input, dims, sizes):
    """``input`` sliced or zero-padded to ``sizes`` along ``dims``, PyTorch's way: slices first,
    then one constant pad."""
    pad = [0, 0] * input.dim()
    for d, n in zip(dims, sizes):
        if n < input.shape[d]:
            input = narrow(input, d, 0, n)
        elif n > input.shape[d]:
            pad[2 * (input.dim() - 1 - d) + 1] = n - input.shape[d]
    if any(pad):
        while pad[-2:] == [0, 0]:
            pad = pad[:-2]
        input = constant_pad_nd(input, pad)
    return input


def complex_input(input):
    """An input of a complex transform: a complex tensor, or a real one made complex (integers
    computing in the default float's complex type)."""
    kind = input._array.dtype.kind
    if kind == "c":
        return input
    _refuse_half(input)
    real_dtype = dtypes.get_default_dtype() if kind in "biu" else input.dtype
    return input.to(dtypes.complex_of(real_dtype))


def real_input(name, input):
    """An input of a real-to-complex transform: floating point (integers in the default float)."""
    kind = input._array.dtype.kind
    if kind == "c":
        raise RuntimeError(f"{name} expects a real input tensor, but got "
                           f"{dtypes.SCALAR_TYPE_NAMES[input._array.dtype.name]}")
    _refuse_half(input)
    return input if kind == "f" else input.to(dtypes.get_default_dtype())


def _refuse_half(input):
    if input._array.dtype == np.float16:
        raise RuntimeError("Unsupported dtype Half")
