"""Activation primitives, each recorded as PyTorch's node for it.

GELU: the exact form needs ``erf``, which numpy lacks, so the forward, its derivative and its
second derivative are written out here. ``gelu`` records ``GeluBackward0``; its rule calls
``gelu_backward`` (``GeluBackwardBackward0``), whose own rule is written with tapegrad ops, so
higher derivatives work as for any primitive.

The pointwise activations below it (``leaky_relu``, ``elu``, ``celu``, ``softplus``,
``hardtanh``, ``log_sigmoid``, ``hardswish``, ``hardsigmoid``, ``threshold``, ``softshrink``,
``hardshrink``) follow the same shape: a numpy forward whose rule calls PyTorch's
``xxx_backward`` as a primitive of its own (``grad * slope(input)``, node
``XxxBackwardBackward0``) that takes the input itself. Under create_graph the gradient thus stays
connected to the input even where the slope is piecewise constant (second derivative zero, not
missing), as gradient penalties and Hessians need. ``silu`` and ``mish``, composite in PyTorch,
have a rule written with tapegrad ops.

``prelu`` (a learned slope, ``PreluKernelBackward0``), ``glu`` (``GluBackward0``) and RReLU's
``rrelu_with_noise`` (``RreluWithNoiseBackward0``) take a second input or split their input, so
they are primitives of their own, with backward primitives for the same reason.
"""
import math

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ..tensor import _LEGACY_TYPE_NAMES
from .broadcast import _sum_to, sum_to
from .creation import ones_like, zeros_like
from .elementwise import (_mul_scalar, _sigmoid_backward, _threshold_backward, where,
                          zero_where)
from .erf import erf as _erf
from .half_precision import in_float32
from .inplace import apply_inplace
from . import libm
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


def require_floating(input, kernel):
    """PyTorch's CPU kernels for most activations and losses exist for floating types only;
    an integer or bool input gets its message, naming the kernel."""
    if input._array.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[input._array.dtype.name]}'")


# SLEEF's float tanh (ATen's vectorized one, which the GELU kernel uses; torch.tanh is not it)
# returns exactly ±1 beyond this.
_SLEEF_TANH_SATURATION = 8.664339742


def _tanh_inner(a):
    """tanh(sqrt(2/pi)·(a + 0.044715·a³)) as ATen's GELU kernel computes it: the cube as
    ``(a·a)·a`` and SLEEF's saturated tanh."""
    inner = _SQRT_2_OVER_PI * (a + _CUBIC * (a * a * a))
    return np.where(np.abs(inner) > _SLEEF_TANH_SATURATION, np.sign(inner), libm.tanh(inner))


@primitive("gelu", node="GeluBackward0", group=OTHER, saves=("a",))
@in_float32
def _gelu(a, approximate):
    if approximate == "tanh":
        return 0.5 * a * (1 + _tanh_inner(a))
    return 0.5 * a * (1 + _erf(a * a.dtype.type(_SQRT_HALF)))


@_gelu.vjp
def _(ctx, grad, approximate):
    (a,) = ctx.saved
    return _gelu_backward(grad, a, approximate=approximate)


@primitive("gelu_backward", node="GeluBackwardBackward0", group=OTHER, saves=("grad", "a"))
@in_float32
def _gelu_backward(grad, a, approximate):
    """``grad * gelu'(a)``."""
    if approximate == "tanh":
        t = _tanh_inner(a)  # the rest in ATen's order, each step rounded to a's dtype
        three_kappa = a.dtype.type(3) * a.dtype.type(_CUBIC)
        slope = _SQRT_2_OVER_PI * (1 + three_kappa * (a * a))
        return grad * (0.5 * (1 + t) + 0.5 * a * (1 - t * t) * slope)
    cdf = 0.5 * (1 + _erf(a * a.dtype.type(_SQRT_HALF)))
    pdf = libm.exp(-0.5 * a * a) * a.dtype.type(_INV_SQRT_2PI)
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

def _backward_primitive(name, node, slope, curvature=None, differentiable=True,
                        double_backward=None):
    """PyTorch's ``xxx_backward``: ``grad * slope(value)``, ``value`` being the saved input (or,
    with ``result=True``, the result of an in-place forward). ``differentiable=False``: PyTorch
    has no derivative for it (see ``_without_derivative``).

    A primitive of its own so that under ``create_graph`` the gradient stays connected to the
    value (``LeakyReluBackwardBackward0`` ...) even where the slope is piecewise constant: its
    own gradient is then zero, not missing. ``slope`` works on numpy arrays and gives the factor,
    or a boolean mask (the gradient passes where it is True), or both as ``(mask, factor)``;
    ``curvature`` (the slope's derivative; None: zero) works on tensors. Where a mask is False the
    gradient is +0, as PyTorch's selects give, not ``grad * 0`` (-0 or nan).
    ``double_backward(upstream * grad, value, result, **params)``, where given, is PyTorch's own
    formula for the value's gradient (so that create_graph records its nodes).
    """
    if double_backward is None and curvature is not None:
        def double_backward(scaled, value, result, **params):
            return scaled * curvature(value, result, **params)
    saves_for = None if double_backward is None else {"grad": ("value",)}

    def forward(grad, value, *, result, **params):
        factor = slope(value, result, **params)
        mask = None
        if isinstance(factor, tuple):
            mask, factor = factor
        elif factor.dtype == np.bool_:
            mask, factor = factor, None
        scaled = grad if factor is None else grad * factor
        out = np.empty(np.broadcast_shapes(grad.shape, value.shape), np.result_type(grad, value))
        if mask is None:
            np.copyto(out, scaled, casting="unsafe")
            return out
        return zero_where(~mask, scaled, out)

    prim = primitive(name, node=node, group=OTHER, saves=("grad", "value"),
                     saves_for=saves_for)(in_float32(forward))
    if not differentiable:
        return _without_derivative(prim)

    @prim.vjp
    def _(ctx, upstream, result, **params):
        grad, value = ctx.saved
        need_grad, need_value = ctx.needs_input_grad
        if not need_value:
            second = None
        elif double_backward is None:
            second = zeros_like(value)
        else:
            second = double_backward(upstream * grad, value, result, **params)
        return (prim(upstream, value, result=result, **params) if need_grad else None), second

    return prim


def _without_derivative(prim):
    """``prim`` as PyTorch records an operation it has no derivative for: a ``NotImplemented``
    node (``prim`` must be made with ``node="NotImplemented"``) that refuses to run, so a second
    derivative through it fails instead of silently giving zero."""
    prim.node_class.qualified_name = "torch::autograd::NotImplemented"

    @prim.vjp
    def _(ctx, *grads, **params):
        raise RuntimeError(f"derivative for aten::{prim.name} is not implemented")

    return prim


def _pointwise(name, node, forward, backward, saves="a"):
    """A primitive ``forward(a, **params)`` whose rule is ``backward(grad, v, **params)``, v being
    the saved input ``a`` or (``saves="out"``, the in-place forms) the saved result."""
    prim = primitive(name, node=node, group=OTHER, saves=(saves,))(in_float32(forward))
    result = saves == "out"

    @prim.vjp
    def _(ctx, grad, **params):
        (value,) = ctx.saved
        return backward(grad, value, result=result, **params)

    return prim


def _composite(name, node, forward, backward):
    """A primitive whose rule ``backward(grad, a)`` is written with tapegrad ops, as PyTorch's
    ``infinitely_differentiable_*_backward`` (``MulBackward0`` under ``create_graph``).

    In float16 without grad mode PyTorch runs its fused kernel instead, in float32 rounded once;
    under ``create_graph`` it runs the ops themselves, each rounding to float16."""
    prim = primitive(name, node=node, group=OTHER, saves=("a",))(in_float32(forward))

    @prim.vjp
    def _(ctx, grad):
        (a,) = ctx.saved
        if a.dtype == dtypes.float16 and not grad_mode.is_grad_enabled():
            return backward(grad.float(), a.float()).to(a.dtype)
        return backward(grad, a)

    return prim


def _mask(condition, like):
    return condition.to(like.dtype)


def _softplus_slope(a, beta, threshold):
    """sigmoid(beta * a) as PyTorch's softplus_backward computes it, ``z / (z + 1)`` with
    ``z = exp(beta * a)``: far below zero it keeps its tiny value (``1 / (1 + exp(-x))``
    would overflow to 0); above the threshold the slope is 1."""
    scaled = a * beta
    z = libm.exp(np.minimum(scaled, threshold))
    return np.where(scaled > threshold, 1, z / (z + 1))


def _log_sigmoid_slope(a):
    """sigmoid(-a) as PyTorch's log_sigmoid_backward computes it, from ``z = exp(-|a|)``: for a
    large score the gradient is the tiny ``z / (1 + z)``, not 0."""
    z = libm.exp(-np.abs(a))
    tail = z / (1 + z)
    return np.where(a < 0, 1 - tail, tail)


def _silu_array(a):
    """``a / (1 + exp(-a))``; far below zero exp overflows to inf and the result is -0, as in
    PyTorch, without numpy's overflow warning."""
    with np.errstate(over="ignore"):
        return a / (1 + libm.exp(-a))


def _softplus_array(a, beta, threshold):
    scaled = a * beta
    with np.errstate(over="ignore"):
        smooth = libm.log1p(libm.exp(np.minimum(scaled, threshold))) / beta
    return np.where(scaled > threshold, a, smooth).astype(a.dtype)


def _leaky_relu_forward(a, negative_slope):
    return np.where(a > 0, a, a * a.dtype.type(negative_slope))


_NEGATIVE_SLOPE_IN_PLACE = (
    "In-place {} backward calculation is triggered with a negative slope which is not supported. "
    "This is caused by calling in-place forward function with a negative slope, please call "
    "out-of-place version instead.")


def _leaky_relu_slope(v, result, negative_slope):
    """From the input or the result alike: both are positive exactly where the slope is 1 --
    unless an in-place forward with a negative slope flipped the signs (PyTorch refuses)."""
    if result and negative_slope < 0:
        raise RuntimeError(
            _NEGATIVE_SLOPE_IN_PLACE.format("leakyReLu") + " File an issue at "
            "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
            "backward calculation with negative slope")
    return np.where(v > 0, 1, v.dtype.type(negative_slope))


_leaky_relu_backward = _backward_primitive(
    "leaky_relu_backward", "LeakyReluBackwardBackward0", _leaky_relu_slope)
_leaky_relu = _pointwise("leaky_relu", "LeakyReluBackward0", _leaky_relu_forward,
                         _leaky_relu_backward)
# In place, PyTorch saves the result instead of the overwritten input: another node name.
_leaky_relu_ = _pointwise("leaky_relu_", "LeakyReluBackward1", _leaky_relu_forward,
                          _leaky_relu_backward, saves="out")


def _elu_forward(a, alpha, scale, input_scale):
    negative = alpha * libm.expm1(np.minimum(0, a) * input_scale)  # (-0.0 stays -0.0)
    return (scale * np.where(a > 0, a, negative)).astype(a.dtype)


def _elu_slope(v, result, alpha, scale, input_scale):
    """From the input, or from the result (in place), whose negative part is
    scale·alpha·(exp(x·input_scale) - 1). NaN takes the positive branch, as in PyTorch's
    ``x <= 0 ? negative : scale``."""
    if result:
        if alpha < 0:  # the result's sign no longer tells the branch
            raise RuntimeError(_NEGATIVE_SLOPE_IN_PLACE.format("elu"))
        return np.where(v <= 0, (v + alpha * scale) * input_scale, scale)
    return np.where(v <= 0, scale * alpha * input_scale *
                    libm.exp(np.minimum(v, 0) * input_scale), scale)


def _elu_curvature(v, result, alpha, scale, input_scale):
    """The slope's derivative; zero at 0 itself (PyTorch's elu_double_backward masks ``v < 0``,
    though the slope there takes the negative branch)."""
    if result:
        return _mask(v < 0, v) * input_scale
    curvature = (scale * alpha * input_scale * input_scale) * (v.clamp_max(0) * input_scale).exp()
    return where(v < 0, curvature, zeros_like(curvature))  # a select: 0 at NaN too


# CELU is ELU with input_scale = 1 / alpha, recorded under its own node; its gradient is ELU's.
_elu_backward = _backward_primitive("elu_backward", "EluBackwardBackward0", _elu_slope,
                                    _elu_curvature)
_elu = _pointwise("elu", "EluBackward0", _elu_forward, _elu_backward)
_elu_ = _pointwise("elu_", "EluBackward1", _elu_forward, _elu_backward, saves="out")
_celu = _pointwise("celu", "CeluBackward0", _elu_forward, _elu_backward)
_celu_ = _pointwise("celu_", "CeluBackward1", _elu_forward, _elu_backward, saves="out")


def _softplus_double_backward(scaled, a, result, beta, threshold):
    """PyTorch's softplus_double_backward, ``sigmoid_backward(g, sigmoid(beta·a)) · mask ·
    beta``, the mask strictly below the threshold: at ``beta·a == threshold`` the slope is
    still the smooth one but its derivative is 0."""
    x = a * beta
    return _mul_scalar(_sigmoid_backward(scaled, x.sigmoid()) * _mask(x < threshold, scaled),
                       factor=beta)


_softplus_backward = _backward_primitive(
    "softplus_backward", "SoftplusBackwardBackward0",
    lambda a, result, beta, threshold: _softplus_slope(a, beta, threshold),
    double_backward=_softplus_double_backward)
_softplus = _pointwise("softplus", "SoftplusBackward0", _softplus_array, _softplus_backward)


def _silu_backward(grad, a):
    sigmoid = a.sigmoid()
    return grad * sigmoid * (1 + a * (1 - sigmoid))


def _mish_backward(grad, a):
    """PyTorch's formula, softplus as ``log1p(exp(a))``: its derivative is sigmoid(a) at 0 too,
    and, as in PyTorch, mish's second derivative is NaN where exp(a) overflows."""
    tanh_softplus = a.exp().log1p().tanh()
    return grad * (tanh_softplus + a * a.sigmoid() * (1 - tanh_softplus * tanh_softplus))


_silu = _composite("silu", "SiluBackward0", _silu_array, _silu_backward)
_mish = _composite(
    "mish", "MishBackward0",
    lambda a: a * libm.tanh(_softplus_array(a, 1.0, 20.0)), _mish_backward)

_hardtanh_backward = _backward_primitive(
    "hardtanh_backward", "HardtanhBackwardBackward0",
    lambda a, result, min_val, max_val: ~((a <= min_val) | (a >= max_val)))
_hardtanh = _pointwise(
    "hardtanh", "HardtanhBackward0",
    lambda a, min_val, max_val: np.clip(a, min_val, max_val).astype(a.dtype), _hardtanh_backward)


def _log_sigmoid_curvature(a, result):
    s = (-a).sigmoid()
    return s * (s - 1)


_log_sigmoid_backward = _backward_primitive(
    "log_sigmoid_backward", "LogSigmoidBackwardBackward0",
    lambda a, result: _log_sigmoid_slope(a), _log_sigmoid_curvature)
_log_sigmoid = _pointwise(
    "log_sigmoid", "LogSigmoidBackward0",
    lambda a: np.minimum(a, 0) - libm.log1p(libm.exp(-np.abs(a))), _log_sigmoid_backward)

# 0 up to -3, (2a + 3) / 6 strictly between, 1 from 3 on (NaN too): PyTorch's values at the kinks
_hardswish_backward = _backward_primitive(
    "hardswish_backward", "HardswishBackwardBackward0",
    lambda a, result: (~(a <= -3), np.where(a < 3, a / 3 + 0.5, 1)),
    double_backward=lambda scaled, a, result: where(  # (PyTorch's select: WhereBackward0)
        (a > -3) & (a < 3), scaled / 3.0, zeros_like(scaled)))
_hardswish = _pointwise(
    "hardswish", "HardswishBackward0",
    lambda a: a * np.clip(a + 3, 0, 6) / 6, _hardswish_backward)

# the slope is PyTorch's float constant 1/6, in float64 too
_hardsigmoid_backward = _backward_primitive(
    "hardsigmoid_backward", "NotImplemented",
    lambda a, result: ((a > -3) & (a < 3), a.dtype.type(np.float32(1 / 6))),
    differentiable=False)
_hardsigmoid = _pointwise(
    "hardsigmoid", "HardsigmoidBackward0",
    lambda a: (np.clip(a + 3, 0, 6) / 6).astype(a.dtype), _hardsigmoid_backward)


def _threshold_forward(a, threshold, value):
    """``value`` where ``a <= threshold``; NaN is kept, as PyTorch's select keeps it."""
    return np.where(a <= threshold, a.dtype.type(value), a)


def _threshold_backward_of(grad, v, result, threshold, value):
    """ReLU's ``threshold_backward``. In place, the input is gone; the result tells where it was
    above ``threshold``, except where an input exactly equal to a ``value`` above ``threshold``
    was kept (PyTorch: passes gradient)."""
    kept = _threshold_backward(grad, v, threshold=threshold)
    if result and value > threshold:
        kept = where(v != value, kept, zeros_like(kept))
    return kept


_threshold = _pointwise("threshold", "ThresholdBackward0", _threshold_forward,
                        _threshold_backward_of)
_threshold_ = _pointwise("threshold_", "ThresholdBackward1", _threshold_forward,
                         _threshold_backward_of, saves="out")

def _outside_shrink_band(a, result, lambd):
    """Where the shrink functions pass the gradient: outside ``[-lambd, lambd]``, NaN included."""
    return ~(np.abs(a) <= lambd)


def _in_scalar_tail(a):
    """True on the elements ATen's CPU loop leaves to its scalar code: the last
    ``count % (2 * lanes)`` of the (contiguous) tensor, ``lanes`` filling a 32-byte vector."""
    chunk = 2 * (32 // a.dtype.itemsize)
    flat = np.arange(a.size).reshape(a.shape)
    return flat >= a.size - a.size % chunk


def _softshrink_forward(a, lambd):
    """``a ∓ lambd`` outside the band; inside, NaN is kept and zero is +0 in ATen's vectorized
    body but ``a * 0`` (-0 for negatives) in its scalar tail."""
    lambd = a.dtype.type(lambd)
    inside = np.where(_in_scalar_tail(a) | np.isnan(a), a * 0, 0)
    return np.where(a > lambd, a - lambd, np.where(a < -lambd, a + lambd, inside)).astype(a.dtype)


_softshrink_backward = _backward_primitive(
    "softshrink_backward", "SoftshrinkBackwardBackward0", _outside_shrink_band)
_softshrink = _pointwise("softshrink", "SoftshrinkBackward0", _softshrink_forward,
                         _softshrink_backward)

_hardshrink_backward = _backward_primitive(
    "hardshrink_backward", "HardshrinkBackwardBackward0", _outside_shrink_band)
_hardshrink = _pointwise(
    "hardshrink", "HardshrinkBackward0",
    lambda a, lambd: np.where(np.abs(a) <= lambd, 0, a).astype(a.dtype),
    _hardshrink_backward)


@primitive("prelu", node="PreluKernelBackward0", group=OTHER, saves=("a", "weight"))
@in_float32
def _prelu(a, weight):
    return np.where(a > 0, a, weight * a)


@_prelu.vjp
def _(ctx, grad):
    a, weight = ctx.saved
    return _prelu_backward(grad, a, weight)


@primitive("prelu_backward", node="PreluKernelBackwardBackward0", group=OTHER, n_outputs=None,
           saves=("grad", "a", "weight"))
@in_float32
def _prelu_backward(grad, a, weight):
    """PReLU's gradients for the input and the slopes, as one node (PyTorch's
    ``_prelu_kernel_backward``): both stay connected to all three inputs under create_graph."""
    positive = a > 0
    return (np.where(positive, grad, weight * grad),
            _sum_to.forward(np.where(positive, 0, a * grad), shape=weight.shape))


@_prelu_backward.vjp
def _(ctx, grads):
    """The input gradient ``where(a > 0, g, w g)`` is linear in ``g`` and ``w``, the slopes'
    ``sum_to(where(a > 0, 0, a g))`` in ``g`` and ``a``."""
    grad, a, weight = ctx.saved
    positive = a > 0
    up_a, up_weight = (grads[i] if i < len(grads) else None for i in range(2))
    grad_grad = grad_a = grad_weight = None
    if up_a is not None:
        grad_grad = where(positive, up_a, weight * up_a)
        grad_weight = sum_to(where(positive, 0.0, grad * up_a), weight.shape)
    if up_weight is not None:
        up_weight = up_weight.expand(a.shape)
        masked = where(positive, 0.0, up_weight)
        grad_grad = masked * a if grad_grad is None else grad_grad + masked * a
        grad_a = masked * grad
    need_grad, need_a, need_weight = ctx.needs_input_grad
    return (_zero_if_none(grad_grad, grad) if need_grad else None,
            _zero_if_none(grad_a, a) if need_a else None,
            _zero_if_none(grad_weight, weight) if need_weight else None)


def _zero_if_none(gradient, like):
    return zeros_like(like) if gradient is None else gradient


@primitive("glu", node="GluBackward0", group=OTHER, saves=("a",))
@in_float32
def _glu(a, dim):
    first, second = np.split(a, 2, axis=dim)
    with np.errstate(over="ignore"):  # a very negative gate: exp overflows, the product is 0
        return first / (1 + libm.exp(-second))


@_glu.vjp
def _(ctx, grad, dim):
    (a,) = ctx.saved
    return _glu_backward(grad, a, dim=dim)


@primitive("glu_backward", node="GluBackwardBackward0", group=OTHER, saves=("grad", "a"))
def _glu_backward(grad, a, dim):
    """``[grad · s, grad · s (1 - s) · first]``, s the sigmoid of the gate; float16 in float32,
    as PyTorch's kernel, which rounds the gate's sigmoid to float16 first."""
    dtype = a.dtype
    if dtype.itemsize < 4:
        grad, a = grad.astype(np.float32), a.astype(np.float32)
    first, second = np.split(a, 2, axis=dim)
    with np.errstate(over="ignore"):
        gate = (1 / (1 + libm.exp(-second))).astype(dtype).astype(a.dtype)
    return np.concatenate([grad * gate, grad * first * gate * (1 - gate)], axis=dim).astype(dtype)


@_glu_backward.vjp
def _(ctx, upstream, dim):
    """PyTorch's glu_double_backward and glu_double_backward_grad_output."""
    grad, a = ctx.saved
    need_grad, need_a = ctx.needs_input_grad
    half = a.shape[dim] // 2
    grad_grad = grad_a = None
    if need_grad:
        scaled = upstream * _glu_backward(ones_like(grad), a, dim=dim)
        grad_grad = narrow(scaled, dim, 0, half) + narrow(scaled, dim, half, half)
    if need_a:
        first, gate = narrow(a, dim, 0, half), narrow(a, dim, half, half).sigmoid()
        one_sub_gate = 1 - gate
        gate_slope = gate * one_sub_gate
        upstream_first, upstream_second = (narrow(upstream, dim, 0, half),
                                           narrow(upstream, dim, half, half))
        second_order = gate_slope * one_sub_gate - gate.pow(2) * one_sub_gate
        grad_a = cat([upstream_second * grad * gate_slope,
                      upstream_first * grad * gate_slope
                      + upstream_second * first * grad * second_order], dim)
    return grad_grad, grad_a


def _times_noise(a, noise):
    """RReLU: each input times its ``noise``, 1 where positive, else a slope (drawn per element
    in training, the mean slope in eval); the noise is not differentiable."""
    return a * noise


_rrelu = primitive("rrelu_with_noise", node="RreluWithNoiseBackward0", group=OTHER,
                   saves=("a", "noise"), nondifferentiable=("noise",))(_times_noise)
_rrelu_ = primitive("rrelu_with_noise_", node="RreluWithNoiseBackward1", group=OTHER,
                    saves=("out", "noise"), nondifferentiable=("noise",))(_times_noise)


@primitive("rrelu_with_noise_backward", node="RreluWithNoiseBackwardBackward0", group=OTHER,
           saves=("value", "noise"), nondifferentiable=("noise",))
def _rrelu_backward(grad, value, noise):
    """``grad * noise``; ``value`` (the input, or the result in place) only connects the gradient
    to it under ``create_graph``, with a zero second derivative, as in PyTorch."""
    return grad * noise


@_rrelu_backward.vjp
def _(ctx, upstream):
    value, noise = ctx.saved
    need_grad, need_value, _ = ctx.needs_input_grad
    return (_rrelu_backward(upstream, value, noise) if need_grad else None,
            zeros_like(value) if need_value else None, None)


@_rrelu.vjp
@_rrelu_.vjp
def _(ctx, grad):
    value, noise = ctx.saved
    return _rrelu_backward(grad, value, noise), None


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
