"""Multiply-adds rounded once, as PyTorch's CPU kernels compute them.

PyTorch's ``add``/``sub``/``add_`` with ``alpha`` compute a fused multiply-add: the product is
not rounded before the sum. numpy rounds both, and 2-3 % of float32 results then differ in the
last bit, so an SGD step's parameters, and every loss after it, drift from PyTorch's.
``addcmul`` (``a + value * b * c``) is PyTorch's ``fma(value * b, c, a)`` in float32 and float64
alike; numpy's separate rounding differed in 7-23 % of elements.

The product of two float32 numbers is exact in float64, so numpy can compute float32 results
rounded once without special hardware (``_multiply_add_float32``). Numba loops
(``fused_kernels``, the machine's FMA instruction) are 4-20 times faster, but importing Numba and
loading them costs 0.5 s (1 s on a fresh install) at a script's first optimizer step. So the loops
serve arrays large enough to repay that, any array once numpy has done ~0.1 s of such updates
(a long training run), or once Numba is imported anyway; both paths give the same bits.
float64 has no wider type to compute in: its ``addcmul`` always takes the loop.
"""
import sys

import numpy as np

__all__ = ["scaled_add_float32", "multiply_add"]

# Elements from which a Numba loop is worth importing Numba for (a 256 x 256 weight: numpy's
# float64 path then takes ~70 µs more per update than the loop, which repays the import within
# a training run).
NUMBA_WORTH = 1 << 16
# Elements numpy may update before the loops take over anyway (~0.1 s of numpy's work): a short
# script never imports Numba, a long training run pays the import once its updates show it will
# repay it.
NUMPY_BUDGET = 1 << 24
_BLOCK = 1 << 13
_FLOAT32 = np.dtype(np.float32)
_numpy_work = 0  # elements the numpy path has updated so far


def _kernels(size):
    """The Numba loops when they pay for themselves on ``size`` elements, else None."""
    global _numpy_work
    if size < NUMBA_WORTH and _numpy_work < NUMPY_BUDGET and "numba" not in sys.modules:
        _numpy_work += size
        return None
    return _numba_kernels()


def _numba_kernels():
    from . import fused_kernels  # (imports Numba)
    return fused_kernels


def scaled_add_float32(out, a, b, alpha):
    """``out = a + alpha * b`` for C-contiguous float32 arrays of one shape (``out`` may be
    ``a``), ``alpha`` taken as PyTorch takes it: rounded to float32 first."""
    alpha = np.float32(alpha)
    kernels = _kernels(out.size)
    if kernels is None:
        out[...] = _multiply_add_blocks(a, alpha, b, out.shape)
    elif out is a:
        kernels.scaled_add_into(out.reshape(-1), b.reshape(-1), alpha)
    else:
        kernels.scaled_add(out.reshape(-1), a.reshape(-1), b.reshape(-1), alpha)


def multiply_add(a, b, c):
    """``a + b * c`` with one rounding, for float32 or float64 arrays of one dtype that
    broadcast together."""
    shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
    size = int(np.prod(shape))
    kernels = _kernels(size) if a.dtype == _FLOAT32 else _numba_kernels()
    if kernels is None:
        return _multiply_add_blocks(a, b, c, shape)
    a, b, c = (np.ascontiguousarray(np.broadcast_to(x, shape)).reshape(-1) for x in (a, b, c))
    out = np.empty(shape, a.dtype)
    kernels.multiply_add(out.reshape(-1), a, b, c)
    return out


def _multiply_add_blocks(a, b, c, shape):
    """``_multiply_add_float32`` over ``shape`` block by block: its float64 temporaries stay
    in the cache (whole-array ones above ~256 kB cost page faults: 8 times slower)."""
    size = int(np.prod(shape))
    if size <= _BLOCK:
        return _multiply_add_float32(a, b, c).reshape(shape)
    a, b, c = (x if np.ndim(x) == 0 else np.broadcast_to(x, shape).reshape(-1) for x in (a, b, c))
    out = np.empty(size, np.float32)
    for start in range(0, size, _BLOCK):
        block = slice(start, start + _BLOCK)
        out[block] = _multiply_add_float32(*(x if np.ndim(x) == 0 else x[block] for x in (a, b, c)))
    return out.reshape(shape)


def _multiply_add_float32(a, b, c):
    """float32 ``a + b * c`` rounded once, through float64, where the product is exact.

    The sum rounded to float64 and then to float32 is rounded twice, which differs from once
    only where the float64 sum lies exactly halfway between two float32 numbers (or below
    float32's normal range, where it keeps fewer bits): those few elements are summed again,
    rounded to odd (``_rounded_to_odd``)."""
    product = np.asarray(np.multiply(b, c, dtype=np.float64))  # (arrays, even 0-d ones)
    total = np.asarray(product + a)
    result = total.astype(np.float32)
    below = total.view(np.int64) & _BELOW_FLOAT32
    doubtful = (below == _HALFWAY) | ((np.abs(total) < _TINY) & (total != 0))
    if doubtful.any():
        shape = total.shape
        x = np.broadcast_to(a, shape)[doubtful].astype(np.float64)
        result[doubtful] = _rounded_to_odd(x, np.broadcast_to(product, shape)[doubtful])
    return result


# The float64 bits a float32 drops (29 of the 52 fraction bits), and their value at halfway
_BELOW_FLOAT32 = (1 << 29) - 1
_HALFWAY = 1 << 28
_TINY = np.finfo(np.float32).tiny  # float32's smallest normal number


def _rounded_to_odd(x, y):
    """float64 ``x + y`` rounded to odd (to the neighbour with an odd last bit, unless exact),
    as float32: rounding to odd keeps what a second rounding to float32 needs to round as once
    (53 >= 24 + 2 bits)."""
    total = x + y
    from_y = total - x
    error = (x - (total - from_y)) + (y - from_y)  # Knuth's two-sum: total's exact error
    bits = total.view(np.int64)
    to_odd = (error != 0) & ((bits & 1) == 0) & np.isfinite(total)
    # one step towards the exact sum: away from zero when the error has total's sign
    bits += np.where(to_odd, np.where((error > 0) == (total > 0), 1, -1), 0)
    return total.astype(np.float32)
