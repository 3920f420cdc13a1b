"""Multiply-adds rounded once, as PyTorch's CPU kernels compute them.

PyTorch's ``add``/``sub``/``add_`` with ``alpha`` compute a fused multiply-add: the product is
not rounded before the sum. numpy rounds both, and 2-3 % of float32 results then differ in the
last bit, so an SGD step's parameters, and every loss after it, drift from PyTorch's. The
product of two float32 numbers is exact in float64, so adding in float64 and rounding once to
float32 gives the fused result; a Numba loop does it in one pass, faster than numpy's two.

``addcmul`` (``a + value * b * c``) is PyTorch's ``fma(value * b, c, a)`` in float32 and
float64 alike; numpy's separate rounding differed in 7-23 % of elements. No numpy dtype is wide
enough to emulate a float64 fused multiply-add, so a Numba loop allowed to contract
(``fastmath={"contract"}``) lets LLVM emit the machine's FMA instruction.

Imported on first use (importing Numba is slow); the kernels are cached on disk.
"""
import numba
import numpy as np

__all__ = ["scaled_add_float32", "multiply_add"]


# Two loops, not one with an aliased argument: LLVM vectorizes a loop only when it can tell
# its arrays apart, and an in-place update through three arguments ran at half the speed.
@numba.njit(cache=True, error_model="numpy")
def _scaled_add_into(out, b, alpha):
    for i in range(out.size):
        out[i] = np.float32(np.float64(out[i]) + alpha * np.float64(b[i]))


@numba.njit(cache=True, error_model="numpy")
def _scaled_add(out, a, b, alpha):
    for i in range(out.size):
        out[i] = np.float32(np.float64(a[i]) + alpha * np.float64(b[i]))


def scaled_add_float32(out, a, b, alpha):
    """``out = a + alpha * b`` for C-contiguous float32 arrays of one shape (``out`` may be
    ``a``), ``alpha`` taken as PyTorch takes it: rounded to float32 first (the kernels widen
    it again, exactly)."""
    alpha = np.float32(alpha)
    if out is a:
        _scaled_add_into(out.reshape(-1), b.reshape(-1), alpha)
    else:
        _scaled_add(out.reshape(-1), a.reshape(-1), b.reshape(-1), alpha)


@numba.njit(cache=True, error_model="numpy", fastmath={"contract"})
def _multiply_add(out, a, b, c):
    for i in range(out.size):
        out[i] = a[i] + b[i] * c[i]


def multiply_add(a, b, c):
    """``a + b * c`` with one rounding, for float32 or float64 arrays of one dtype that
    broadcast together."""
    shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
    a, b, c = (np.ascontiguousarray(np.broadcast_to(x, shape)).reshape(-1) for x in (a, b, c))
    out = np.empty(shape, a.dtype)
    _multiply_add(out.reshape(-1), a, b, c)
    return out
