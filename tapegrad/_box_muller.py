"""The Box-Muller step of PyTorch's CPU ``normal_`` on 16 or more contiguous values: each block
of 16 uniforms becomes 16 normals (``u[:8]`` give the radii, ``u[8:]`` the angles; cosines go to
the first 8, sines to the last 8).

PyTorch's x86 build computes float32 blocks with the AVX2 polynomials of ``avx_mathfun`` (Cephes'
``logf`` and ``sincosf``, float32 arithmetic, multiply-adds fused), not with the C library:
written out here step by step in numpy float32, so tapegrad's normals equal PyTorch's (all but
about one value in a thousand bit for bit, the rest within one unit in the last place). float64
blocks use the C library's functions, which numpy's float64 functions match.
"""
import numpy as np

__all__ = ["box_muller_float32", "box_muller_float64", "fma32"]

_F = np.float32
_MIN_NORMAL = np.array(0x00800000, np.int32).view(_F)
_LOG_POLY = [_F(c) for c in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1,
                             -1.2420140846e-1, 1.4249322787e-1, -1.6668057665e-1,
                             2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)]
_SIN_POLY = [_F(c) for c in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)]
_COS_POLY = [_F(c) for c in (2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)]
_PI_PARTS = [_F(c) for c in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8)]


def fma32(a, b, c):
    """``a * b + c`` rounded once to float32 (a fused multiply-add): the product of two float32
    values is exact in float64."""
    wide = np.multiply(a, np.float64(b) if np.isscalar(b) else b, dtype=np.float64)
    wide += c
    return wide.astype(_F)


def _log(x):
    """Cephes' logf as avx_mathfun evaluates it (x in (0, 1])."""
    x = np.maximum(x, _MIN_NORMAL)
    bits = x.view(np.int32)
    exponent = ((bits >> 23) - 0x7F).astype(_F) + _F(1)
    x = ((bits & ~0x7F800000) | _F(0.5).view(np.int32)).view(_F)  # the mantissa, in [0.5, 1)
    small = x < _F(0.707106781186547524)
    exponent = exponent - small.astype(_F)
    x = (x - _F(1)) + np.where(small, x, _F(0))
    z = x * x
    y = np.full_like(x, _LOG_POLY[0])
    for coefficient in _LOG_POLY[1:]:
        y = fma32(y, x, coefficient)
    y = (y * x) * z
    y = fma32(exponent, _F(-2.12194440e-4), y)
    y = y - z * _F(0.5)
    return fma32(exponent, _F(0.693359375), x + y)


def _sincos(x):
    """Cephes' sinf and cosf together, as avx_mathfun evaluates them (x >= 0)."""
    octant = (x * _F(1.27323954473516)).astype(np.int32)  # x / (pi/4), truncated
    octant = (octant + 1) & ~1
    y = octant.astype(_F)
    for part in _PI_PARTS:  # x - octant * pi/4, in three steps to keep the bits
        x = fma32(y, part, x)
    z = x * x
    cosine = np.full_like(x, _COS_POLY[0])
    for coefficient in _COS_POLY[1:]:
        cosine = fma32(cosine, z, coefficient)
    cosine = fma32(z, _F(-0.5), (cosine * z) * z) + _F(1)
    sine = np.full_like(x, _SIN_POLY[0])
    for coefficient in _SIN_POLY[1:]:
        sine = fma32(sine, z, coefficient)
    sine = fma32(sine * z, x, x)
    swapped = (octant & 2) != 0
    sin, cos = np.where(swapped, cosine, sine), np.where(swapped, sine, cosine)
    return np.where((octant & 4) != 0, -sin, sin), np.where(((octant - 2) & 4) == 0, -cos, cos)


def box_muller_float32(uniforms):
    """Normals from float32 uniforms in [0, 1), shaped (blocks, 16)."""
    radius = np.sqrt(_F(-2) * _log(_F(1) - uniforms[:, :8]))
    sin, cos = _sincos(_F(2.0 * np.pi) * uniforms[:, 8:])
    return np.concatenate([radius * cos, radius * sin], axis=1)


def box_muller_float64(uniforms):
    """Normals from float64 uniforms in [0, 1), shaped (blocks, 16)."""
    radius = np.sqrt(-2 * np.log(1 - uniforms[:, :8]))
    theta = 2.0 * np.pi * uniforms[:, 8:]
    return np.concatenate([radius * np.cos(theta), radius * np.sin(theta)], axis=1)
