"""Scalar functions generated kernels call as ``M.exp32(x)``, and the names lowerings may use.

Numba compiles ``np.exp``/``np.tanh`` on float32 to scalar libm calls here (llvmlite ships no
SVML), which keeps a fused loop from vectorizing. For float32 the kernels call a Cephes-style
exponential written out in arithmetic — range reduction by ln 2, a degree-6 polynomial, the power
of two built from exponent bits — which LLVM vectorizes; ``tanh32`` and ``sigmoid32`` are derived
from it. On 1M float32 values a fused chain ran 10x faster than with libm, within a few ulp of
numpy (``tests/test_compile_kernels.py`` checks the bounds). float64 keeps numpy's functions.

These are plain cached ``@njit`` functions (LLVM inlines them into the kernel): Numba's
``overload``/``inline="always"`` machinery made every kernel compile seconds slower.
"""
import ctypes
import functools
import glob
import importlib.util
import os

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["LOWERING_FUNCTIONS", "function_for", "exp32", "tanh32", "sigmoid32", "sigmoid64",
           "wrap_index", "blas_gemm"]

_F32 = np.float32
_JIT = {"cache": True, "error_model": "numpy", "fastmath": {"contract", "nsz", "arcp"}}


@intrinsic
def _int32_bits_as_float32(typingctx, bits):
    """Reinterpret the 32 bits of an int32 as a float32 (a bit cast, no conversion)."""
    signature = types.float32(types.int32)

    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], context.get_value_type(types.float32))
    return signature, codegen


@njit(**_JIT)
def exp32(x):
    # exp(x) = 2**n * exp(r), x = n ln2 + r, |r| <= ln2/2, ln2 split in two for an exact n*ln2
    clamped = min(max(x, _F32(-87.33654)), _F32(88.72283))
    n = np.floor(clamped * _F32(1.44269504) + _F32(0.5))
    r = clamped - n * _F32(0.693359375) + n * _F32(2.12194440e-4)
    p = _F32(1.9875691500e-4)
    p = p * r + _F32(1.3981999507e-3)
    p = p * r + _F32(8.3334519073e-3)
    p = p * r + _F32(4.1665795894e-2)
    p = p * r + _F32(1.6666665459e-1)
    p = p * r + _F32(5.0000001201e-1)
    p = p * r * r + r + _F32(1.0)
    # 2**n for n <= 128: 2**min(n, 127) as exponent bits, times 2 when n is 128
    exponent = min(np.int32(n), np.int32(127))
    p = p * (_F32(1.0) + _F32(np.int32(n) - exponent))
    scaled = p * _int32_bits_as_float32((exponent + np.int32(127)) << np.int32(23))
    if x > _F32(88.72283):
        return _F32(np.inf)
    if x < _F32(-87.33654):
        return _F32(0.0)
    return scaled if x == x else x


@njit(**_JIT)
def tanh32(x):
    # tanh|x| = (1 - e) / (1 + e) with e = exp(-2|x|) <= 1: no overflow; the sign goes back on
    e = exp32(_F32(-2.0) * np.abs(x))
    return np.copysign((_F32(1.0) - e) / (_F32(1.0) + e), x)


@njit(**_JIT)
def sigmoid32(x):
    return _F32(1.0) / (_F32(1.0) + exp32(-x))


@njit(**_JIT)
def sigmoid64(x):
    # the eager forward's formulation: exp of -|x| never overflows
    e = np.exp(-np.abs(x))
    return 1.0 / (1.0 + e) if x >= 0 else e / (1.0 + e)


@njit(**_JIT)
def wrap_index(index, size):
    """A possibly negative index into a dimension of ``size``, counted as Python counts it; out
    of range is eager's IndexError (a compiled kernel must not read outside its arrays)."""
    if index < -size or index >= size:
        raise IndexError("index out of bounds (an index tensor passed to a compiled function "
                         "holds a value outside the indexed dimension)")
    return index + size if index < 0 else index


# Function names a primitive's ``lowering`` may call, and what a kernel calls for them: per
# dtype kind ("f32", "f64", other), the generated code's function.
LOWERING_FUNCTIONS = {
    "exp": {"f32": "M.exp32", None: "np.exp"},
    "tanh": {"f32": "M.tanh32", None: "np.tanh"},
    "sigmoid": {"f32": "M.sigmoid32", None: "M.sigmoid64"},
    "log": {None: "np.log"},
    "sqrt": {None: "np.sqrt"},
    "sin": {None: "np.sin"},
    "cos": {None: "np.cos"},
    "abs": {None: "np.abs"},
    "floor": {None: "np.floor"},
    "ceil": {None: "np.ceil"},
    "round": {None: "np.rint"},  # half to even, as numpy and PyTorch round
    "sign": {None: "np.sign"},
    "isnan": {None: "np.isnan"},
    "isinf": {None: "np.isinf"},
    "isfinite": {None: "np.isfinite"},
    "max": {None: "np.maximum"},  # a NaN wins, as in numpy's maximum
    "min": {None: "np.minimum"},
}


def function_for(name, dtype):
    """The kernel function for lowering function ``name`` on values of ``dtype``."""
    choices = LOWERING_FUNCTIONS[name]
    key = "f32" if dtype == np.float32 else "f64" if dtype == np.float64 else None
    return choices.get(key, choices[None])


# -- matrix products --------------------------------------------------------------------------
# Kernels call numpy's own BLAS: its cblas_?gemm, found in the library numpy loaded, is passed to
# the kernel as an argument (a ctypes function: the pointer is read at each call, so the machine
# code stays cacheable). One BLAS for eager and compiled code: one thread pool, where Numba's
# np.dot would bring SciPy's OpenBLAS and a second pool fighting the first for the cores
# (alternating eager and compiled large-MLP steps ran 2.2x slower with both).

CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_TRANS = 101, 111, 112

# (symbol prefix, suffix, integer type): scipy-openblas builds as numpy's wheels bundle them
# (ILP64, 64-bit integers, "64_"), then plain OpenBLAS names
_GEMM_NAMES = (("scipy_", "64_", ctypes.c_int64), ("", "64_", ctypes.c_int64),
               ("scipy_", "", ctypes.c_int), ("", "", ctypes.c_int))


@functools.lru_cache(maxsize=None)
def blas_gemm(dtype):
    """``(cblas_sgemm or cblas_dgemm of numpy's BLAS, its integer type name)`` for ``dtype``, or
    None where it cannot be found (numpy not built with a bundled OpenBLAS); kernels then fall
    back to the functions below (``FALLBACK_PRODUCT``)."""
    letter = {np.dtype(np.float32): "s", np.dtype(np.float64): "d"}.get(np.dtype(dtype))
    if letter is None:
        return None
    for library in _numpy_blas_libraries():
        for prefix, suffix, integer in _GEMM_NAMES:
            function = getattr(library, f"{prefix}cblas_{letter}gemm{suffix}", None)
            if function is None:
                continue
            real = ctypes.c_float if letter == "s" else ctypes.c_double
            function.restype = None
            function.argtypes = [ctypes.c_int] * 3 + [integer] * 3 + [
                real, ctypes.c_void_p, integer, ctypes.c_void_p, integer, real, ctypes.c_void_p,
                integer]
            return function, "np.int64" if integer is ctypes.c_int64 else "np.int32"
    return None


def _numpy_blas_libraries():
    """The BLAS libraries numpy's wheel bundles (numpy.libs on Linux and Windows, .dylibs on
    macOS), opened with ctypes."""
    package = os.path.dirname(np.__file__)
    patterns = [os.path.join(package, os.pardir, "numpy.libs", "*openblas*"),
                os.path.join(package, ".dylibs", "*openblas*")]
    for path in sorted(p for pattern in patterns for p in glob.glob(pattern)):
        try:
            yield ctypes.CDLL(path)
        except OSError:
            continue


# Where numpy's BLAS is not found, kernels call Numba's np.dot, whose BLAS comes from SciPy
# (``mm_*``), or without SciPy, loops (``loop_mm_*``: LLVM vectorizes the inner one; slower for
# large products). Two sets of names, so that the source of a kernel, and so its cache entry,
# says which it calls: a kernel cached with np.dot never runs where SciPy is missing.
FALLBACK_PRODUCT = "mm" if importlib.util.find_spec("scipy") is not None else "loop_mm"

# One cached function per transposition: compiling np.dot costs ~0.7 s per layout; cached, once
# per machine.

@njit(cache=True)
def mm_nn(a, b):
    return np.dot(a, b)


@njit(cache=True)
def mm_nt(a, b):
    return np.dot(a, b.T)


@njit(cache=True)
def mm_tn(a, b):
    return np.dot(a.T, b)


@njit(cache=True)
def mm_tt(a, b):
    return np.dot(a.T, b.T)


@njit(**_JIT)
def _loop_product(a, b):
    m, k = a.shape
    n = b.shape[1]
    out = np.zeros((m, n), a.dtype)
    for i in range(m):
        for p in range(k):
            scale = a[i, p]
            for j in range(n):
                out[i, j] += scale * b[p, j]
    return out


@njit(**_JIT)
def loop_mm_nn(a, b):
    return _loop_product(a, b)


@njit(**_JIT)
def loop_mm_nt(a, b):
    return _loop_product(a, b.T)


@njit(**_JIT)
def loop_mm_tn(a, b):
    return _loop_product(a.T, b)


@njit(**_JIT)
def loop_mm_tt(a, b):
    return _loop_product(a.T, b.T)

