"""Activation primitives, each recorded as PyTorch's node for it.

GELU: the exact form needs ``erf``, which numpy lacks, so the forward, its derivative and its
second derivative are written out here. ``gelu`` records ``GeluBackward0``; its rule calls
``gelu_backward`` (``GeluBackwardBackward0``), whose own rule is written with tapegrad ops, so
higher derivatives work as for any primitive.

The pointwise activations below it (``leaky_relu``, ``elu``, ``celu``, ``softplus``, ``silu``,
``mish``, ``hardtanh``, ``log_sigmoid``, ``hardswish``, ``hardsigmoid``, ``threshold``,
``softshrink``, ``hardshrink``) share one shape: a numpy forward and a derivative written with
tapegrad ops, the rule being ``grad * derivative(input)``.

``prelu`` (a learned slope, ``PreluKernelBackward0``), ``glu`` (``GluBackward0``) and RReLU's
``rrelu_with_noise`` (``RreluWithNoiseBackward0``) take a second input or split their input, so
they are primitives of their own.
"""
import functools
import math

import numpy as np

from ..tensor import _LEGACY_TYPE_NAMES
from .broadcast import sum_to
from .elementwise import where
from .inplace import apply_inplace
from .registry import OTHER, primitive
from .shape import cat, narrow

__all__ = ["require_floating", "gelu", "leaky_relu", "elu", "celu", "softplus", "silu", "mish", "hardtanh",
           "log_sigmoid", "hardswish", "hardsigmoid", "threshold", "softshrink", "hardshrink",
           "prelu", "glu", "rrelu_with_noise"]

APPROXIMATIONS = ("none", "tanh")
_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_CUBIC = 0.044715


@functools.cache
def _erf_ufunc():
    """``math.erf`` as a numpy ufunc, compiled by Numba on first use (exact to the last ulp)."""
    import numba

    @numba.vectorize(["float32(float32)", "float64(float64)"], cache=True)
    def erf(x):
        return math.erf(x)

    return erf


def _erf(a):
    return _apply_ufunc(_erf_ufunc(), a)


@functools.cache
def _erfinv_ufunc():
    """The inverse of erf as a numpy ufunc compiled by Numba on first use, to the last ulp or so.

    A rough start (Giles' single-precision approximation, "Approximating the erfinv function",
    2010) and Newton steps on erf — on log(erfc) in the tails, where ``1 - |y|`` is exact and
    erf's own rounding would swamp the step. Computed in float64 for every input type.
    """
    import numba

    @numba.vectorize(["float32(float32)", "float64(float64)"], cache=True)
    def erfinv(y):
        if not -1.0 <= y <= 1.0:
            return math.nan
        a = abs(float(y))
        if a == 1.0:
            return math.copysign(math.inf, y)
        w = -math.log((1.0 - a) * (1.0 + a))
        if w < 5.0:
            w -= 2.5
            p = 2.81022636e-08
            for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                      -0.00125372503, -0.00417768164, 0.246640727, 1.50140941):
                p = c + p * w
        else:
            w = math.sqrt(w) - 3.0
            p = -0.000200214257
            for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                      -0.0076224613, 0.00943887047, 1.00167406, 2.83297682):
                p = c + p * w
        x = p * a
        tail = 1.0 - a
        for _ in range(8):  # each step squares the relative error: 1e-7 -> 1e-14 -> exact
            slope = 1.1283791670955126 * math.exp(-x * x)  # erf'(x) = 2/sqrt(pi) exp(-x^2)
            if a < 0.5:
                step = (math.erf(x) - a) / slope
            else:  # on log(erfc): nearly linear in the far tail, where plain Newton crawls
                complement = math.erfc(x)
                step = (math.log(tail) - math.log(complement)) * complement / slope
            x -= step
            if abs(step) <= 1e-17 * x:
                break
        return math.copysign(x, y)

    return erfinv


def _erfinv(a):
    return _apply_ufunc(_erfinv_ufunc(), a)


def _apply_ufunc(ufunc, a):
    """A float32/float64 ufunc on ``a``; half precision goes through float32 and back."""
    if a.dtype == np.float16:
        return ufunc(a.astype(np.float32)).astype(np.float16)
    return ufunc(a)


def require_floating(input, kernel):
    """PyTorch's CPU kernels for most activations and losses exist for floating types only;
    an integer or bool input gets its message, naming the kernel."""
    if input._array.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[input._array.dtype.name]}'")


def _tanh_inner(a):
    return _SQRT_2_OVER_PI * (a + _CUBIC * a * a * a)


@primitive("gelu", node="GeluBackward0", group=OTHER, saves=("a",))
def _gelu(a, approximate):
    if approximate == "tanh":
        return 0.5 * a * (1 + np.tanh(_tanh_inner(a)))
    return 0.5 * a * (1 + _erf(a * a.dtype.type(_SQRT_HALF)))


@_gelu.vjp
def _(ctx, grad, approximate):
    (a,) = ctx.saved
    return _gelu_backward(grad, a, approximate=approximate)


@primitive("gelu_backward", node="GeluBackwardBackward0", group=OTHER, saves=("grad", "a"))
def _gelu_backward(grad, a, approximate):
    """``grad * gelu'(a)``."""
    if approximate == "tanh":
        t = np.tanh(_tanh_inner(a))
        slope = _SQRT_2_OVER_PI * (1 + 3 * _CUBIC * a * a)
        return grad * (0.5 * (1 + t) + 0.5 * a * (1 - t * t) * slope)
    cdf = 0.5 * (1 + _erf(a * a.dtype.type(_SQRT_HALF)))
    pdf = np.exp(-0.5 * a * a) * a.dtype.type(_INV_SQRT_2PI)
    return grad * (cdf + a * pdf)


@_gelu_backward.vjp
def _(ctx, upstream, approximate):
    grad, a = ctx.saved
    need_grad, need_a = ctx.needs_input_grad
    return (_gelu_backward(upstream, a, approximate=approximate) if need_grad else None,
            upstream * grad * _gelu_second_derivative(a, approximate) if need_a else None)


def _gelu_second_derivative(a, approximate):
    """gelu''(a), written with tapegrad ops."""
    if approximate == "tanh":
        t = (_SQRT_2_OVER_PI * (a + _CUBIC * a * a * a)).tanh()
        slope = _SQRT_2_OVER_PI * (1 + 3 * _CUBIC * a * a)
        return (1 - t * t) * (slope - a * t * slope * slope + 3 * _CUBIC * _SQRT_2_OVER_PI * a * a)
    pdf = (-0.5 * a * a).exp() * _INV_SQRT_2PI
    return pdf * (2 - a * a)


def gelu(input, approximate="none"):
    """Gaussian error linear unit: ``x Φ(x)``, or its tanh approximation."""
    if approximate not in APPROXIMATIONS:
        raise RuntimeError("approximate argument must be either none or tanh.")
    require_floating(input, "GeluKernelImpl")
    return _gelu(input, approximate=approximate)


# ---------------------------------------------------------------------- pointwise activations

def _pointwise(name, node, forward, derivative, saves="a"):
    """A primitive ``forward(a, **params)`` whose rule is ``grad * derivative(v, **params)``, v
    being the saved input ``a`` or (``saves="out"``) the saved result."""
    prim = primitive(name, node=node, group=OTHER, saves=(saves,))(forward)

    @prim.vjp
    def _(ctx, grad, **params):
        (value,) = ctx.saved
        return grad * derivative(value, **params)

    return prim


def _mask(condition, like):
    return condition.to(like.dtype)


def _softplus_array(a, beta, threshold):
    scaled = a * beta
    with np.errstate(over="ignore"):
        smooth = np.log1p(np.exp(np.minimum(scaled, threshold))) / beta
    return np.where(scaled > threshold, a, smooth).astype(a.dtype)


def _softplus_tensor(a):
    """``log(1 + exp(a))`` with tapegrad ops, stable for large ``|a|``."""
    return a.clamp_min(0) + (1 + (-a.abs()).exp()).log()


def _leaky_relu_forward(a, negative_slope):
    return np.where(a > 0, a, a * a.dtype.type(negative_slope))


def _leaky_relu_slope(value, negative_slope):
    """From the input or the result alike: both are positive exactly where the slope is 1."""
    return _mask(value > 0, value) * (1 - negative_slope) + negative_slope


_leaky_relu = _pointwise("leaky_relu", "LeakyReluBackward0", _leaky_relu_forward,
                         _leaky_relu_slope)
# In place, PyTorch saves the result instead of the overwritten input: another node name.
_leaky_relu_ = _pointwise("leaky_relu_", "LeakyReluBackward1", _leaky_relu_forward,
                          _leaky_relu_slope, saves="out")

def _elu_forward(a, alpha, scale, input_scale):
    negative = alpha * np.expm1(np.minimum(a, 0) * input_scale)
    return (scale * np.where(a > 0, a, negative)).astype(a.dtype)


def _elu_slope(a, alpha, scale, input_scale):
    return scale * where(
        a > 0, 1.0, alpha * input_scale * (a.clamp_max(0) * input_scale).exp()).to(a.dtype)


def _elu_slope_from_result(out, alpha, scale, input_scale):
    """In place: from the result, whose negative part is scale·alpha·(exp(x·input_scale) - 1)."""
    return where(out > 0, scale, (out + alpha * scale) * input_scale).to(out.dtype)


_elu = _pointwise("elu", "EluBackward0", _elu_forward, _elu_slope)
_elu_ = _pointwise("elu_", "EluBackward1", _elu_forward, _elu_slope_from_result, saves="out")
# CELU is ELU with input_scale = 1 / alpha, recorded under its own node.
_celu = _pointwise("celu", "CeluBackward0", _elu_forward, _elu_slope)
_celu_ = _pointwise("celu_", "CeluBackward1", _elu_forward, _elu_slope_from_result, saves="out")

_softplus = _pointwise(
    "softplus", "SoftplusBackward0", _softplus_array,
    lambda a, beta, threshold: where(a * beta > threshold, 1.0, (a * beta).sigmoid()).to(a.dtype))

_silu = _pointwise(
    "silu", "SiluBackward0",
    lambda a: a / (1 + np.exp(-a)),
    lambda a: a.sigmoid() * (1 + a * (1 - a.sigmoid())))

_mish = _pointwise(
    "mish", "MishBackward0",
    lambda a: a * np.tanh(_softplus_array(a, 1.0, 20.0)),
    lambda a: _softplus_tensor(a).tanh() + a * a.sigmoid() * (1 - _softplus_tensor(a).tanh() ** 2))

_hardtanh = _pointwise(
    "hardtanh", "HardtanhBackward0",
    lambda a, min_val, max_val: np.clip(a, min_val, max_val).astype(a.dtype),
    lambda a, min_val, max_val: _mask((a > min_val) & (a < max_val), a))

_log_sigmoid = _pointwise(
    "log_sigmoid", "LogSigmoidBackward0",
    lambda a: np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a))),
    lambda a: (-a).sigmoid())

_hardswish = _pointwise(
    "hardswish", "HardswishBackward0",
    lambda a: a * np.clip(a + 3, 0, 6) / 6,
    # 0 up to -3, (2a + 3) / 6 strictly between, 1 from 3 on: PyTorch's values at the kinks
    lambda a: where(a > -3, where(a < 3, a / 3 + 0.5, _mask(a > 0, a)), _mask(a > 0, a)))

_hardsigmoid = _pointwise(
    "hardsigmoid", "HardsigmoidBackward0",
    lambda a: (np.clip(a + 3, 0, 6) / 6).astype(a.dtype),
    lambda a: _mask((a > -3) & (a < 3), a) / 6)


def _threshold_forward(a, threshold, value):
    return np.where(a > threshold, a, a.dtype.type(value))


_threshold = _pointwise("threshold", "ThresholdBackward0", _threshold_forward,
                        lambda a, threshold, value: _mask(a > threshold, a))
# In place, the input is gone; the result tells where it was above ``threshold``, except where an
# input exactly equal to a ``value`` above ``threshold`` was kept (PyTorch: passes gradient).
_threshold_ = _pointwise(
    "threshold_", "ThresholdBackward1", _threshold_forward,
    lambda out, threshold, value: _mask((out > threshold) & ((out != value) | (value <= threshold)),
                                        out), saves="out")

_softshrink = _pointwise(
    "softshrink", "SoftshrinkBackward0",
    lambda a, lambd: np.where(a > lambd, a - a.dtype.type(lambd),
                              np.where(a < -lambd, a + a.dtype.type(lambd), 0)).astype(a.dtype),
    lambda a, lambd: _mask(a.abs() > lambd, a))

_hardshrink = _pointwise(
    "hardshrink", "HardshrinkBackward0",
    lambda a, lambd: np.where((a > lambd) | (a < -lambd), a, 0).astype(a.dtype),
    lambda a, lambd: _mask(a.abs() > lambd, a))


@primitive("prelu", node="PreluKernelBackward0", group=OTHER, saves=("a", "weight"))
def _prelu(a, weight):
    return np.where(a > 0, a, weight * a)


@_prelu.vjp
def _(ctx, grad):
    a, weight = ctx.saved
    positive = a > 0
    need_a, need_weight = ctx.needs_input_grad
    return (where(positive, grad, weight * grad) if need_a else None,
            sum_to(where(positive, 0.0, a * grad), weight.shape) if need_weight else None)


@primitive("glu", node="GluBackward0", group=OTHER, saves=("a",))
def _glu(a, dim):
    first, second = np.split(a, 2, axis=dim)
    with np.errstate(over="ignore"):  # a very negative gate: exp overflows, the product is 0
        return first / (1 + np.exp(-second))


@_glu.vjp
def _(ctx, grad, dim):
    (a,) = ctx.saved
    half = a.shape[dim] // 2
    first, gate = narrow(a, dim, 0, half), narrow(a, dim, half, half).sigmoid()
    return cat([grad * gate, grad * first * gate * (1 - gate)], dim)


def _times_noise(a, noise):
    """RReLU: each input times its ``noise``, 1 where positive, else a slope (drawn per element
    in training, the mean slope in eval); the noise is not differentiable."""
    return a * noise


_rrelu = primitive("rrelu_with_noise", node="RreluWithNoiseBackward0", group=OTHER,
                   saves=("noise",), nondifferentiable=("noise",))(_times_noise)
_rrelu_ = primitive("rrelu_with_noise_", node="RreluWithNoiseBackward1", group=OTHER,
                    saves=("noise",), nondifferentiable=("noise",))(_times_noise)


@_rrelu.vjp
@_rrelu_.vjp
def _(ctx, grad):
    (noise,) = ctx.saved
    return grad * noise, None


def _apply(prim, input, inplace, inplace_prim=None, **params):
    """``prim`` on ``input``, or written into it (recorded as an in-place op, as
    ``inplace_prim`` if given) when ``inplace``."""
    if inplace:
        return apply_inplace(inplace_prim or prim, input, (), params)
    return prim(input, **params)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    require_floating(input, "leaky_relu_cpu")
    return _apply(_leaky_relu, input, inplace, _leaky_relu_, negative_slope=negative_slope)


def elu(input, alpha=1.0, scale=1.0, input_scale=1.0, inplace=False):
    """ELU; with ``scale`` and ``input_scale`` it is also SELU and CELU, as in ATen."""
    require_floating(input, "elu_cpu")
    return _apply(_elu, input, inplace, _elu_, alpha=alpha, scale=scale,
                  input_scale=input_scale)


def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    require_floating(input, "elu_cpu")
    return _apply(_celu, input, inplace, _celu_, alpha=alpha, scale=1.0, input_scale=1.0 / alpha)


def threshold(input, threshold, value, inplace=False):
    """``input`` where it is above ``threshold``, else ``value`` (integers too, not bools)."""
    if input._array.dtype == np.bool_:
        require_floating(input, "threshold_cpu")
    return _apply(_threshold, input, inplace, _threshold_, threshold=threshold, value=value)


def softshrink(input, lambd=0.5):
    require_floating(input, "softshrink_check")
    if lambd < 0:
        largest = np.finfo(input._array.dtype).max if input.is_floating_point() else 0
        raise RuntimeError(f"lambda must be in range [0, {largest:g}] for input dtype "
                           f"{input.type()[6:-6]}, but found {lambd:g}")
    return _softshrink(input, lambd=lambd)


def hardshrink(input, lambd=0.5):
    require_floating(input, "hardshrink_cpu")
    return _hardshrink(input, lambd=lambd)


def prelu(input, weight):
    """``max(0, x) + weight * min(0, x)``; ``weight`` is one slope or one per channel (dim 1)."""
    if input._array.dtype != weight._array.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{_LEGACY_TYPE_NAMES[input._array.dtype.name]} and "
                           f"{_LEGACY_TYPE_NAMES[weight._array.dtype.name]}")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.dim()}")
    count = weight.numel()
    if count != 1:
        if input.dim() == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.dim() > 1 else 1
        if channels != count:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {count} and channel size = {channels}.")
    if input.dim() > 1:
        weight = weight.reshape([count if d == 1 else 1 for d in range(input.dim())])
    elif input.dim() == 0:  # the result keeps the input's shape
        weight = weight.reshape(())
    return _prelu(input, weight)


def glu(input, dim=-1):
    """``a * sigmoid(b)``, ``a`` and ``b`` the two halves of ``input`` along ``dim``."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    require_floating(input, "glu_cpu")
    dim = dim % input.dim()
    if input.shape[dim] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size "
                           f"{input.shape[dim]}")
    return _glu(input, dim=dim)


def rrelu_with_noise(input, noise, inplace=False):
    """``input * noise`` recorded as PyTorch's RReLU node (``noise``: see ``_rrelu``)."""
    require_floating(input, "leaky_relu_cpu")
    if inplace:
        return apply_inplace(_rrelu_, input, (noise,), {})
    return _rrelu(input, noise)


def softplus(input, beta=1.0, threshold=20.0):
    require_floating(input, "softplus_cpu")
    return _softplus(input, beta=beta, threshold=threshold)


def silu(input, inplace=False):
    require_floating(input, "silu_cpu")
    return _apply(_silu, input, inplace)


def mish(input, inplace=False):
    require_floating(input, "mish_cpu")
    return _apply(_mish, input, inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if input._array.dtype == np.bool_:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    return _apply(_hardtanh, input, inplace, min_val=min_val, max_val=max_val)


def log_sigmoid(input):
    require_floating(input, "log_sigmoid_cpu")
    return _log_sigmoid(input)


def hardswish(input, inplace=False):
    require_floating(input, "hardswish_cpu")
    return _apply(_hardswish, input, inplace)


def hardsigmoid(input, inplace=False):
    require_floating(input, "hardsigmoid_cpu")
    return _apply(_hardsigmoid, input, inplace)
