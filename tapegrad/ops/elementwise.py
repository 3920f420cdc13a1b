"""Elementwise primitives: arithmetic, math functions, activations, comparisons, casts.

Binary ops broadcast like numpy; each backward rule sums its gradient back to the input's shape with
``sum_to``. Lowerings are scalar expressions over the operands ``{0}``, ``{1}`` (and parameters by
name) that the compiler inlines into fused loops.
"""
import numbers

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from .. import memory_format as _memory_format
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .operands import (NUMBER_EITHER, NUMBER_OTHER, TENSORS_ONLY, _number_array, broadcast_error,
                       cast_operand, check_overloads, checked_number, promote,
                       promote_with_scalar_operand, refuse_complex, same_float_tensors,
                       tensor_operands, type_name, with_overloads)
from . import half_precision, libm, single_rounding
from .half_precision import in_float32
from .registry import ELEMENTWISE, Primitive, primitive, without_derivative
from .signatures import invalid_combination
from .._warnings import warn_at_caller
from .broadcast import sum_to




def check_in_place_broadcast(shape, broadcast_shape):
    """ATen's message when an operand combined in place into an output of ``shape`` would need
    the larger ``broadcast_shape``."""
    if tuple(broadcast_shape) != tuple(shape):
        raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape "
                           f"{list(broadcast_shape)}")


# --------------------------------------------------------------------------------------- binary


@primitive("add", node="AddBackward0", group=ELEMENTWISE, complex_rule=True, lowering="{0} + {1}",
           ufunc=np.add, error=broadcast_error)
def _add(a, b):
    return a + b


@_add.vjp
def _(ctx, grad):
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(grad, ctx.input_shapes[0]) if need_a else None,
            sum_to(grad, ctx.input_shapes[1]) if need_b else None)


@primitive("sub", node="SubBackward0", group=ELEMENTWISE, complex_rule=True, lowering="{0} - {1}",
           ufunc=np.subtract, error=broadcast_error)
def _sub(a, b):
    return a - b


@_sub.vjp
def _(ctx, grad):
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(grad, ctx.input_shapes[0]) if need_a else None,
            sum_to(-grad, ctx.input_shapes[1]) if need_b else None)


@primitive("add_alpha", node="AddBackward0", group=ELEMENTWISE, lowering="{0} + {alpha} * {1}",
           error=broadcast_error)
def _add_alpha(a, b, alpha):
    if _fusable(a, b):
        out = np.empty_like(a)
        single_rounding.scaled_add_float32(out, a, b, alpha)
        return out
    if a.dtype == _HALF:
        return half_precision.scaled_add(a, b, alpha)
    return _in_dtype_of(a, a + alpha * b)


@primitive("sub_alpha", node="SubBackward0", group=ELEMENTWISE, lowering="{0} - {alpha} * {1}",
           error=broadcast_error)
def _sub_alpha(a, b, alpha):
    if _fusable(a, b):
        out = np.empty_like(a)
        single_rounding.scaled_add_float32(out, a, b, -alpha)
        return out
    if a.dtype == _HALF:
        return half_precision.scaled_add(a, b, -alpha)
    return _in_dtype_of(a, a - alpha * b)


def _fusable(a, b):
    """Whether ``a ± alpha * b`` is computed rounded once (see ``single_rounding``);
    other dtypes and layouts take numpy's two roundings."""
    return (a.dtype == _FLOAT32 and b.dtype == _FLOAT32 and a.shape == b.shape and a.size > 0
            and a.flags.c_contiguous and b.flags.c_contiguous)


_FLOAT32 = np.dtype(np.float32)
_HALF = np.dtype(np.float16)


def _in_dtype_of(operand, result):
    """``result`` in the operands' dtype: numpy widens bools times an int ``alpha``, float32
    times a numpy float64 one, and float16 times the float32 scalar PyTorch multiplies it by
    (``promote_with_scalar_operand``), where PyTorch's result has the operands' dtype."""
    kind = result.dtype
    return result if kind is operand.dtype or kind == operand.dtype else \
        result.astype(operand.dtype)


_SCALED_ADD_BLOCK = 1 << 15


def _add_scaled_into(out, other, alpha):
    """``out += alpha * other``, the in-place ``add_(other, alpha=...)`` of every optimizer
    step: float32 rounded once (see ``single_rounding``); other dtypes block by block through
    one small buffer that stays in cache, instead of two full-size temporaries and a copy.
    Values are the out-of-place forward's, rounding for rounding."""
    if _fusable(out, other) and not np.may_share_memory(out, other):
        single_rounding.scaled_add_float32(out, out, other, alpha)
        return
    if out.dtype == _HALF:
        out[...] = half_precision.scaled_add(out, other, alpha)
        return
    if (other.shape != out.shape or other.dtype != out.dtype or out.size <= _SCALED_ADD_BLOCK
            or not (out.flags.c_contiguous and other.flags.c_contiguous)
            or np.may_share_memory(out, other)):
        np.add(out, np.multiply(other, alpha), out=out, casting="same_kind")
        return
    flat_out, flat_other = out.reshape(-1), other.reshape(-1)
    buffer = np.empty(_SCALED_ADD_BLOCK, out.dtype)
    for start in range(0, out.size, _SCALED_ADD_BLOCK):
        block = flat_out[start:start + _SCALED_ADD_BLOCK]
        scaled = np.multiply(flat_other[start:start + _SCALED_ADD_BLOCK], alpha,
                             out=buffer[:block.size])
        np.add(block, scaled, out=block)


_add_alpha.inplace = _add_scaled_into
_sub_alpha.inplace = lambda out, other, alpha: _add_scaled_into(out, other, -alpha)


@primitive("rsub_tensor", node="RsubBackward0", group=ELEMENTWISE, lowering="{1} - {alpha} * {0}",
           error=broadcast_error)
def _rsub_tensor(a, b, alpha):
    return b - alpha * a


@_add_alpha.vjp
@_sub_alpha.vjp
@_rsub_tensor.vjp
def _(ctx, grad, alpha):
    """``a ± alpha * b``: the scaled operand's gradient carries the sign and ``alpha``."""
    scale_a, scale_b = {_add_alpha: (1, alpha), _sub_alpha: (1, -alpha),
                        _rsub_tensor: (-alpha, 1)}[ctx.primitive]
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(grad * scale_a, ctx.input_shapes[0]) if need_a else None,
            sum_to(grad * scale_b, ctx.input_shapes[1]) if need_b else None)


@primitive("mul", node="MulBackward0", group=ELEMENTWISE, saves=("a", "b"),
           saves_for={"a": ("b",), "b": ("a",)}, lowering="{0} * {1}", ufunc=np.multiply,
           error=broadcast_error, complex_rule=True)
def _mul(a, b):
    out = a * b  # (float16 times a float32 scalar widens: promote_with_scalar_operand)
    return out if out.dtype is a.dtype else _in_dtype_of(a, out)


@_mul.vjp
def _(ctx, grad):
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    if grad._array.dtype.kind == "c":
        # grad * conj(other), as PyTorch multiplies: conjugating around the real rule (the
        # engine's default) would flip the sign of zeros; a real input takes the real part
        a, b = a if a is None else a.conj(), b if b is None else b.conj()
        dtype_a, dtype_b = ctx.input_dtypes
        return (_real_part_for(sum_to(grad * b, ctx.input_shapes[0]), dtype_a) if need_a
                else None,
                _real_part_for(sum_to(grad * a, ctx.input_shapes[1]), dtype_b) if need_b
                else None)
    return (sum_to(grad * b, ctx.input_shapes[0]) if need_a else None,
            sum_to(grad * a, ctx.input_shapes[1]) if need_b else None)


def _real_part_for(grad, input_dtype):
    return grad if input_dtype.kind == "c" else grad.real


@primitive("div", node="DivBackward0", group=ELEMENTWISE, saves=("a", "b"),
           saves_for={"a": ("b",)}, lowering="{0} / {1}", ufunc=np.true_divide,
           error=broadcast_error)
def _div(a, b):
    out = a / b
    return out if out.dtype is a.dtype else _in_dtype_of(a, out)


@_div.vjp
def _(ctx, grad):
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(grad / b, ctx.input_shapes[0]) if need_a else None,
            sum_to(-grad * ((a / b) / b), ctx.input_shapes[1]) if need_b else None)


def _pow_error(inputs, params):
    """numpy refuses negative integer powers of integers (PyTorch's words), or shapes."""
    shapes = [t._array.shape for t in inputs]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        return broadcast_error(inputs, params)
    return "Integers to negative integer powers are not allowed."


@primitive("pow", node="PowBackward1", group=ELEMENTWISE, saves=("a", "b", "out"),
           lowering="{0} ** {1}", error=_pow_error)
def _pow(a, b):
    _refuse_bool("pow", b)
    return _integer_power(a, b) if a.dtype.kind in "biu" else libm.power(a, b)


def _integer_power(base, exponent):
    """Integer powers as PyTorch computes them: where the exponent is negative, 1 for base 1, ±1
    for base -1 and 0 for any other base (numpy refuses negative integer powers)."""
    negative = exponent < 0
    if not negative.any():
        return base ** exponent
    magnitude = base ** np.where(negative, 0, exponent)
    odd = exponent % 2 != 0
    reciprocal = np.where(base == 1, 1, np.where(base == -1, np.where(odd, -1, 1), 0))
    return np.where(negative, reciprocal, magnitude).astype(magnitude.dtype)


@_pow.vjp
def _(ctx, grad):
    a, b, out = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    grad_a = grad_b = None
    if need_a:
        # PyTorch's pow_backward_self: 0 where b == 0 (so its own derivative in b is 0 there)
        grad_a = sum_to(where(b == 0, zeros_like(grad), grad * (b * _pow(a, b - 1))),
                        ctx.input_shapes[0])
    if need_b:
        # PyTorch's pow_backward_exponent: a**b * log(a), taken as 0 where a == 0 and b >= 0
        # (-inf for 0 ** -1; and the masked branch still carries nan into double backward)
        slope = out * log(a)
        non_negative = (b.real >= 0) & (b.imag == 0) if b.is_complex() else b >= 0
        grad_b = sum_to(grad * where(non_negative, where(a == 0, zeros_like(slope), slope), slope),
                        ctx.input_shapes[1])
    return grad_a, grad_b


@primitive("maximum", node="MaximumBackward0", group=ELEMENTWISE, saves=("a", "b"),
           lowering="max({0}, {1})", error=broadcast_error)
def _maximum(a, b):
    return np.maximum(a, b)


@primitive("minimum", node="MinimumBackward0", group=ELEMENTWISE, saves=("a", "b"),
           lowering="min({0}, {1})", error=broadcast_error)
def _minimum(a, b):
    return np.minimum(a, b)


@_maximum.vjp
@_minimum.vjp
def _(ctx, grad):
    # Ties split the gradient evenly between both inputs, and a nan (in the result) sends it to
    # both, as PyTorch's formulas do: each input gets what it is not beaten at.
    a, b = ctx.saved
    shared = _where(a == b, grad / 2, grad)
    a_wins = a > b if ctx.primitive is _maximum else a < b
    b_wins = a < b if ctx.primitive is _maximum else a > b
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(zero_unless(~b_wins, shared), ctx.input_shapes[0]) if need_a else None,
            sum_to(zero_unless(~a_wins, shared), ctx.input_shapes[1]) if need_b else None)


@primitive("where", node="WhereBackward0", group=ELEMENTWISE, complex_rule=True,
           saves=("condition",), nondifferentiable=("condition",),
           lowering="{1} if {0} else {2}", error=broadcast_error)
def _where(condition, a, b):
    return np.where(condition, a, b)


@_where.vjp
def _(ctx, grad):
    (condition,) = ctx.saved
    zero = zeros_like(grad)
    _, need_a, need_b = ctx.needs_input_grad
    return (None,
            sum_to(_where(condition, grad, zero), ctx.input_shapes[1]) if need_a else None,
            sum_to(_where(condition, zero, grad), ctx.input_shapes[2]) if need_b else None)


# ---------------------------------------------------------------------------------------- unary


@primitive("neg", node="NegBackward0", group=ELEMENTWISE, complex_rule=True, lowering="-{0}",
           ufunc=np.negative)
def _neg(a):
    return -a


@_neg.vjp
def _(ctx, grad):
    return -grad


@primitive("rsub", node="RsubBackward1", group=ELEMENTWISE, lowering="{other} - {alpha} * {0}")
def _rsub(a, other, alpha):
    return other - alpha * a if alpha != 1 else other - a


@_rsub.vjp
def _(ctx, grad, other, alpha):
    return -grad if alpha == 1 else grad * -alpha


@primitive("pow_scalar", node="PowBackward0", group=ELEMENTWISE, saves=("a",),
           lowering="{0} ** {exponent}", error=_pow_error)
def _pow_scalar(a, exponent):
    if a.dtype.kind in "biu":
        return _integer_power_scalar(a, exponent)
    special_power = _SPECIAL_POWERS.get(exponent)
    return libm.power(a, exponent) if special_power is None else special_power(a)


def _integer_power_scalar(a, exponent):
    """An integer tensor to a number's power in its own dtype (wrapping, as PyTorch's kernel
    multiplies); a negative integer exponent is refused (through ``_pow_error``), and so is one
    out of the dtype's range, which PyTorch converts to it first."""
    if exponent < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")
    return np.power(a, np.int64(checked_number(exponent, a.dtype))).astype(a.dtype, copy=False)


def _square(a):
    return a * a


# numpy's float power has fast paths for 2, 0.5 and -1 only; other small integer exponents go
# through powf, 10-100x slower than multiplying (PyTorch multiplies for 3 and -2 as well), and
# PyTorch computes ** -0.5 as its rsqrt, 1 / sqrt(a).
_SPECIAL_POWERS = {
    2: _square,
    0.5: np.sqrt,
    -0.5: lambda a: 1 / np.sqrt(a),
    3: lambda a: a * a * a,
    4: lambda a: _square(a * a),
    -1: lambda a: 1 / a,  # for complex numbers too: PyTorch's reciprocal, signed zeros and all
    -2: lambda a: 1 / (a * a),
    -3: lambda a: 1 / (a * a * a),
    -4: lambda a: 1 / _square(a * a),
}


@_pow_scalar.vjp
def _(ctx, grad, exponent):
    (a,) = ctx.saved
    if exponent == 0:
        return zeros_like(grad)
    if exponent == 2 and not grad_mode._state.grad_enabled:  # the common square: one op fewer
        return grad * a * 2
    # PyTorch's pow_backward, so that create_graph records its nodes (MulBackward1, PowBackward0)
    return grad * _mul_scalar(_pow_scalar(a, exponent=exponent - 1), factor=exponent)


@primitive("pow_scalar_base", node="PowBackward2", group=ELEMENTWISE, saves=("exponent", "out"),
           lowering="{base} ** {0}")
def _pow_scalar_base(exponent, base):
    _refuse_bool("pow", exponent)
    base = _number_array(base, exponent.dtype)  # wraps, as a number in arithmetic does
    if base.dtype.kind in "biu":
        return _integer_power(base, exponent)
    return libm.power(np.broadcast_to(base, exponent.shape), exponent)  # as tensor ** tensor


@_pow_scalar_base.vjp
def _(ctx, grad, base):
    # d(base**e)/de = base**e * log(base); PyTorch takes it as 0 where base == 0 and e >= 0.
    exponent, out = ctx.saved
    with np.errstate(divide="ignore", invalid="ignore"):
        log_base = float(np.log(np.float64(base)))
    grad_exponent = grad * (out * log_base)
    if base == 0:
        grad_exponent = where(exponent >= 0, zeros_like(grad), grad_exponent)
    return grad_exponent


@primitive("exp", node="ExpBackward0", group=ELEMENTWISE, saves=("out",), lowering="exp({0})")
def _exp(a):
    return libm.exp(a)


@_exp.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * out


@primitive("log", node="LogBackward0", group=ELEMENTWISE, saves=("a",), lowering="log({0})")
def _log(a):
    return libm.log(a)


@_log.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad / a


@primitive("sqrt", node="SqrtBackward0", group=ELEMENTWISE, saves=("out",), lowering="sqrt({0})",
           ufunc=np.sqrt)
def _sqrt(a):
    return np.sqrt(a)


@_sqrt.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad / (2 * out)


@primitive("reciprocal", node="ReciprocalBackward0", group=ELEMENTWISE, saves=("out",),
           lowering="1 / {0}", ufunc=np.reciprocal)
def _reciprocal(a):
    return 1 / a


@_reciprocal.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return -grad * out * out


@primitive("abs", node="AbsBackward0", group=ELEMENTWISE, saves=("a",), lowering="abs({0})")
def _abs(a):
    _refuse_bool("abs_cpu", a)
    return np.abs(a)


@_abs.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    if a._array.dtype.kind == "c":
        from .special import sgn
        return grad * sgn(a)  # z / |z|
    return grad * sign(a)


@primitive("sin", node="SinBackward0", group=ELEMENTWISE, saves=("a",), lowering="sin({0})")
def _sin(a):
    return libm.sin(a)


@_sin.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _cos(a)


@primitive("cos", node="CosBackward0", group=ELEMENTWISE, saves=("a",), lowering="cos({0})")
def _cos(a):
    return libm.cos(a)


@_cos.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return -grad * _sin(a)


@primitive("tanh", node="TanhBackward0", group=ELEMENTWISE, saves=("out",), lowering="tanh({0})")
def _tanh(a):
    return libm.tanh(a)


@_tanh.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return _tanh_backward(grad, out)


def _rounded_once_into(compute):
    """The in-place form of a ``libm`` function (``exp_``), rounded once as the out-of-place
    one is: numpy's float32 ufunc writing into the tensor would differ in the last bit."""
    return lambda out: compute(out, out=out)


for _prim, _compute in ((_exp, libm.exp), (_log, libm.log), (_sin, libm.sin), (_cos, libm.cos),
                        (_tanh, libm.tanh)):
    _prim.inplace = _rounded_once_into(_compute)


@primitive("sigmoid", node="SigmoidBackward0", group=ELEMENTWISE, saves=("out",),
           lowering="sigmoid({0})")
@in_float32
def _sigmoid(a):
    # 1 / (1 + exp(-a)), as PyTorch computes it, in place in one new array: four passes over
    # memory. Each step is one rounding, so both sides of zero keep full relative precision; exp
    # overflows (to inf, giving 0) only where the true value is below the smallest normal float.
    result = np.negative(a, out=_empty_in_layout_of(a))  # (channels_last stays)
    libm.exp(result, out=result)
    result += 1
    return np.reciprocal(result, out=result)


@_sigmoid.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return _sigmoid_backward(grad, out)


@primitive("relu", node="ReluBackward0", group=ELEMENTWISE, saves=("out",),
           lowering="max({0}, 0)")
def _relu(a):
    # numpy's maximum keeps its second operand on ties: relu(-0.0) is -0.0, as in ATen (whose
    # binary maximum, vectorized, keeps its second operand too: maximum and minimum stay as is)
    return np.maximum(0, a)


@_relu.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return _threshold_backward(grad, out, threshold=0)


# ----------------------------------------------------------------- PyTorch's backward functions
# The activations' gradients as single operations, as in PyTorch: one pass over memory into one
# new array instead of three operations and their temporaries, and under ``create_graph`` the
# graph PyTorch records (``TanhBackwardBackward0`` ...).

@primitive("tanh_backward", node="TanhBackwardBackward0", group=ELEMENTWISE,
           saves=("grad", "output"), lowering="{0} * (1 - {1} * {1})")
@in_float32  # (PyTorch computes this one in float32 for float16; sigmoid's not)
def _tanh_backward(grad, output):
    # grad * (1 - out * out), its 1 - out * out a fused multiply-add in PyTorch's compiled
    # kernel: for float32, the square is exact in float64 and the difference rounds once
    result = _result_like(grad, output)
    if output.dtype == np.float32 and libm.rounds_once(output):
        np.subtract(1, np.square(output, dtype=np.float64), out=result, casting="same_kind")
    else:
        np.multiply(output, output, out=result)
        np.subtract(1, result, out=result)
    result *= grad
    return result


@_tanh_backward.vjp
def _(ctx, grad):
    grad_output, output = ctx.saved
    need_grad_output, need_output = ctx.needs_input_grad
    return (_tanh_backward(grad, output) if need_grad_output else None,
            grad * grad_output * output * -2 if need_output else None)


@primitive("sigmoid_backward", node="SigmoidBackwardBackward0", group=ELEMENTWISE,
           saves=("grad", "output"), lowering="{0} * {1} * (1 - {1})")
def _sigmoid_backward(grad, output):
    result = np.subtract(1, output, out=_result_like(grad, output))
    result *= grad  # grad * (1 - out) * out: PyTorch's order, so roundings agree
    result *= output
    return result


@_sigmoid_backward.vjp
def _(ctx, grad):
    grad_output, output = ctx.saved
    need_grad_output, need_output = ctx.needs_input_grad
    return (_sigmoid_backward(grad, output) if need_grad_output else None,
            grad * grad_output * (1 - 2 * output) if need_output else None)


@primitive("threshold_backward", node="ThresholdBackwardBackward0", group=ELEMENTWISE,
           saves=("output",), lowering="(0 if {1} <= {threshold} else {0})")
def _threshold_backward(grad, output, threshold):
    """``grad`` where ``output > threshold``, else +0 (a nan ``output`` lets the gradient through, as
    PyTorch's ``output <= threshold ? 0 : grad`` does)."""
    return zero_where(np.less_equal(output, threshold), grad, _result_like(grad, output))


_UNSIGNED_OF_SIZE = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def zero_where(drop, grad, out):
    """``grad`` with +0 where ``drop``, written into ``out`` (a new array of the broadcast shape and
    result dtype): a select, as PyTorch's backward formulas do — a mask multiply would give -0 for
    a negative gradient and nan for an infinite one. Floats are selected by and-ing their bits
    with an all-ones or all-zeros mask: as cheap as a multiply, where ``np.where`` is several times
    slower on unpredictable masks."""
    unsigned = _UNSIGNED_OF_SIZE.get(out.dtype.itemsize) if out.dtype.kind == "f" else None
    if unsigned is None:
        np.copyto(out, np.where(drop, 0, grad), casting="unsafe")
        return out
    bits = out.view(unsigned)
    np.copyto(bits, drop, casting="unsafe")  # 1 where dropped, 0 where kept
    bits -= 1  # then all zeros where dropped, all ones where kept
    np.bitwise_and(bits, grad.astype(out.dtype, copy=False).view(unsigned), out=bits)
    return out


@_threshold_backward.vjp
def _(ctx, grad, threshold):
    (output,) = ctx.saved
    need_grad_output, need_output = ctx.needs_input_grad
    return (_threshold_backward(grad, output, threshold=threshold) if need_grad_output else None,
            zeros_like(grad) if need_output else None)


def zero_unless(keep, grad):
    """``grad`` where ``keep``, else +0, as a differentiable select (see ``zero_where``)."""
    return _where(keep, grad, zeros_like(grad))


def _result_like(grad, output):
    """A new array of the two operands' broadcast shape and common dtype (a 0-d operation would
    otherwise return a numpy scalar, which in-place operations cannot write to)."""
    if grad.shape == output.shape and grad.dtype == output.dtype:  # the usual case, kept cheap
        return _empty_in_layout_of(grad)  # (as ATen's iterator lays it out)
    return np.empty(np.broadcast_shapes(grad.shape, output.shape), np.result_type(grad, output))


def _empty_in_layout_of(a):
    """A new array like ``a``, in its memory layout (``np.empty_like``, which costs 0.3 µs
    more than ``np.empty`` for the 0-d arrays of scalar graphs, where layout means nothing)."""
    return np.empty_like(a) if a.ndim > 1 else np.empty(a.shape, a.dtype)


@primitive("clamp", node="ClampBackward1", group=ELEMENTWISE, saves=("a",),
           lowering="clamp({0}, {min}, {max})")
def _clamp(a, min, max):
    if a.dtype.kind == "b":
        _refuse_bool(_scalar_clamp_kernel(min, max), a)
    # a on ties, as ATen keeps it (see _relu): np.clip with two bounds does, with one it keeps
    # the bound (and one ufunc with its operands swapped costs what np.clip does)
    if max is None:
        return np.maximum(min, a)
    return np.minimum(max, a) if min is None else np.clip(a, min, max)


def _scalar_clamp_kernel(min, max):
    """The CPU kernel PyTorch runs for number bounds: one bound alone has its own."""
    if min is None:
        return "clamp_max_scalar_cpu"
    return "clamp_min_scalar_cpu" if max is None else "clamp_scalar_cpu"


@_clamp.vjp
def _(ctx, grad, min, max):
    (a,) = ctx.saved
    inside = ones_like(a, dtype=dtypes.bool)
    if min is not None:
        inside = inside & (a >= min)
    if max is not None:
        inside = inside & (a <= max)
    return zero_unless(inside, grad)


@primitive("clamp_min", node="ClampMinBackward0", group=ELEMENTWISE, saves=("a",),
           lowering="max({0}, {min})")
def _clamp_min(a, min):
    if a.dtype.kind == "b":
        _refuse_bool("clamp_min_scalar_cpu", a)
    return np.maximum(np.asarray(min, dtype=a.dtype), a)  # (a on ties, see _relu)


@_clamp_min.vjp
def _(ctx, grad, min):
    (a,) = ctx.saved
    return zero_unless(a >= min, grad)


@primitive("clamp_max", node="ClampMaxBackward0", group=ELEMENTWISE, saves=("a",),
           lowering="min({0}, {max})")
def _clamp_max(a, max):
    if a.dtype.kind == "b":
        _refuse_bool("clamp_max_scalar_cpu", a)
    return np.minimum(np.asarray(max, dtype=a.dtype), a)


@_clamp_max.vjp
def _(ctx, grad, max):
    (a,) = ctx.saved
    return zero_unless(a <= max, grad)


@primitive("clamp_min_tensor", node="ClampMinBackward1", group=ELEMENTWISE, saves=("a", "bound"),
           lowering="max({0}, {1})", error=broadcast_error)
def _clamp_min_tensor(a, bound):
    return np.maximum(a, bound)


@primitive("clamp_max_tensor", node="ClampMaxBackward1", group=ELEMENTWISE, saves=("a", "bound"),
           lowering="min({0}, {1})", error=broadcast_error)
def _clamp_max_tensor(a, bound):
    return np.minimum(a, bound)


@_clamp_min_tensor.vjp
@_clamp_max_tensor.vjp
def _(ctx, grad):
    # The input's gradient where it is within the bound, the bound's where it is not (a nan
    # input gives neither any), as PyTorch's formulas select them.
    a, bound = ctx.saved
    within = a >= bound if ctx.primitive is _clamp_min_tensor else a <= bound
    beyond = a < bound if ctx.primitive is _clamp_min_tensor else a > bound
    need_a, need_bound = ctx.needs_input_grad
    return (sum_to(zero_unless(within, grad), ctx.input_shapes[0]) if need_a else None,
            sum_to(zero_unless(beyond, grad), ctx.input_shapes[1]) if need_bound else None)


@primitive("clamp_tensor", node="ClampBackward0", group=ELEMENTWISE, saves=("a", "low", "high"),
           lowering="min(max({0}, {1}), {2})", error=broadcast_error)
def _clamp_tensor(a, low, high):
    return np.minimum(np.maximum(a, low), high)


@_clamp_tensor.vjp
def _(ctx, grad, **_):
    # Where low > high the result is high everywhere, as in PyTorch; where low == high, only an
    # input between them (equal to both) takes the gradient, the bounds take none.
    a, low, high = ctx.saved
    need_a, need_low, need_high = ctx.needs_input_grad
    shape_a, shape_low, shape_high = ctx.input_shapes
    grad_a = grad_low = grad_high = None
    if need_a:
        grad_a = sum_to(zero_unless((a >= low) & (a <= high), grad), shape_a)
    if need_low:
        grad_low = sum_to(zero_unless((a < low) & (low < high), grad), shape_low)
    if need_high:
        grad_high = sum_to(zero_unless((a > high) | (low > high), grad), shape_high)
    return grad_a, grad_low, grad_high


@primitive("to_dtype", node="ToCopyBackward0", group=ELEMENTWISE, lowering="{0}",
           complex_rule=True)
def _to_dtype(a, dtype, memory_format=None):
    if memory_format is not None:
        a = _memory_format.copy_in(a, memory_format)
    if a.dtype.kind == "c" and dtype.numpy.kind not in "cb":  # to bool: nonzero, either part
        warn_at_caller("Casting complex values to real discards the imaginary part")
        a = a.real
    return a.astype(dtype.numpy, copy=memory_format is None)


@_to_dtype.vjp
def _(ctx, grad, dtype, memory_format=None):
    source = ctx.input_dtypes[0]
    if grad._array.dtype.kind == "c" and source.kind != "c":
        grad = grad.real  # a real number made complex: the real part of its gradient
    return to_dtype(grad, dtypes.from_numpy_dtype(source))


@primitive("clone", node="CloneBackward0", group=ELEMENTWISE, complex_rule=True, lowering="{0}")
def _clone(a, *, memory_format=None):
    return _memory_format.copy_in(a, memory_format)


@_clone.vjp
def _(ctx, grad, memory_format=None):
    return grad


@primitive("copy", node="CopyBackwards", group=ELEMENTWISE, complex_rule=True, lowering="{1}")
def _copy(a, src):
    return np.broadcast_to(src, a.shape)


def _copy_into(out, src):
    """``copy_``'s write: numpy broadcasts as it copies (``np.broadcast_to`` first costs more
    than copying a small tensor)."""
    np.copyto(out, src, casting="same_kind")


_copy.inplace = _copy_into


@_copy.vjp
def _(ctx, grad):
    need_a, need_src = ctx.needs_input_grad
    return (zeros_like(grad) if need_a else None,
            sum_to(grad, ctx.input_shapes[1]) if need_src else None)


@primitive("fill", node="FillBackward2", group=ELEMENTWISE, lowering="{value}")
def _fill(a, value):
    return np.full_like(a, value)


@primitive("fill_tensor", node="FillBackward3", group=ELEMENTWISE, lowering="{1}")
def _fill_tensor(a, value):
    return np.broadcast_to(value, a.shape)


@primitive("zero", node="ZeroBackward0", group=ELEMENTWISE, lowering="0")
def _zero(a):
    return np.zeros_like(a)


def _write_value(out, value=0):
    out[...] = value


_fill.inplace = _fill_tensor.inplace = _zero.inplace = _write_value


@_fill.vjp
@_zero.vjp
def _(ctx, grad, **_):
    return zeros_like(grad)


@_fill_tensor.vjp
def _(ctx, grad):
    need_a, need_value = ctx.needs_input_grad
    return zeros_like(grad) if need_a else None, grad.sum() if need_value else None


# ------------------------------------------------------------------- public functions


def scaled_by_tensor_alpha(name, other, alpha):
    """``alpha * other`` for a 0-d tensor ``alpha``, which PyTorch reads as a number: multiplying
    instead keeps it a tensor operation, so that a compiled optimizer step with a tensor lr (set
    by a scheduler) reads no value. Other tensors are refused as PyTorch refuses them."""
    if alpha._array.ndim or alpha._requires_grad:
        raise TypeError(f"{name}(): argument 'alpha' must be Number, not Tensor")
    return other * alpha


# The operand types of nearly every call, accepted by one type lookup (the hot path: an ABC
# isinstance test costs more than a 0-d addition).
_PLAIN_OPERANDS = frozenset((Tensor, int, float, bool))


def _is_operand(value):
    return type(value) in _PLAIN_OPERANDS or isinstance(value, (Tensor, numbers.Number,
                                                                np.generic))


def check_operand_types(name, input, other):
    """PyTorch's binding takes a tensor or a number for each operand of a binary function:
    anything else (a list, a numpy array, None) is refused, naming the argument."""
    if type(input) in _PLAIN_OPERANDS and type(other) in _PLAIN_OPERANDS:
        return
    for position, (argument, value) in enumerate((("input", input), ("other", other)), 1):
        if not _is_operand(value):
            raise TypeError(f"{name}(): argument '{argument}' (position {position}) must be "
                            f"Tensor, not {type_name(type(value))}")


def check_alpha(name, result, alpha):
    """ATen's checks of ``alpha`` against the result's numpy dtype ``result``: a bool only for
    a bool result, a floating-point number only for a floating-point one."""
    if type(alpha) is int or type(alpha) is float and result.kind == "f":  # (the hot path)
        return
    if not isinstance(alpha, (numbers.Number, np.generic)):
        raise TypeError(f"{name}(): argument 'alpha' must be Number, not "
                        f"{type_name(type(alpha))}")
    if isinstance(alpha, (bool, np.bool_)):
        if result.kind != "b":
            raise RuntimeError("Boolean alpha only supported for Boolean results.")
    elif not (result.kind in "fc" or isinstance(alpha, (numbers.Integral, np.integer))):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating "
                           "point number.")


def add(input, other, *, alpha=1):
    if alpha.__class__ is int and alpha == 1 and same_float_tensors(input, other):
        return _add(input, other)  # (the hot path)
    check_operand_types("add", input, other)
    if not isinstance(input, Tensor):  # number + tensor: the tensor is PyTorch's ``self``
        input, other = other, input
    return _scaled_sum(_add, _add_alpha, "add", input, other, alpha)


def sub(input, other, *, alpha=1):
    if alpha.__class__ is int and alpha == 1 and same_float_tensors(input, other):
        return _sub(input, other)  # (the hot path)
    check_operand_types("sub", input, other)
    check_bool_subtraction(input, other)
    return _scaled_sum(_sub, _sub_alpha, "sub", input, other, alpha)


def _scaled_sum(plain, scaled, name, input, other, alpha):
    """``input ± alpha * other`` in their common dtype, ``alpha`` checked against it."""
    if type(alpha) is int and alpha == 1:  # the default (the hot path): nothing to check
        return plain(*promote(input, other))
    if isinstance(alpha, Tensor):
        other, alpha = scaled_by_tensor_alpha(name, other, alpha), 1
    a, b = promote(input, other)
    check_alpha(name, a._array.dtype, alpha)
    return scaled(a, b, alpha=alpha) if alpha != 1 else plain(a, b)


subtract = sub


_RSUB_OVERLOADS = ("Tensor input, Tensor other, *, Number alpha = 1",
                   "Tensor input, Number other, Number alpha = 1")


def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` (``2 - x`` records PyTorch's RsubBackward1)."""
    check_overloads("rsub", _RSUB_OVERLOADS, input, other, {} if alpha == 1 else {"alpha": alpha})
    check_bool_subtraction(other, input)
    a, b = promote(input, other)
    if isinstance(other, Tensor):
        return _rsub_tensor(a, b, alpha=alpha)
    return _rsub(a, other=b._array.item(), alpha=alpha)  # the number in a's dtype (ints wrap)


def mul(input, other):
    if same_float_tensors(input, other):
        return _mul(input, other)  # (the hot path)
    check_operand_types("mul", input, other)
    if not isinstance(input, Tensor):  # number * tensor: the tensor is PyTorch's ``self``
        input, other = other, input
    return _mul(*promote_with_scalar_operand(input, other))


multiply = mul


def div(input, other, *, rounding_mode=None):
    if rounding_mode is None and same_float_tensors(input, other):
        return _div(input, other)  # (the hot path)
    check_operand_types("div", input, other)
    if rounding_mode not in (None, "trunc", "floor"):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                           f"found '{rounding_mode}'")
    if rounding_mode is not None:
        return (_floor_div if rounding_mode == "floor" else _truncate_div)(input, other)
    a, b = promote_with_scalar_operand(input, other)
    if a._array.dtype.kind not in "fc":  # true division of integers computes in the default float
        result = dtypes.get_default_dtype()
        a, b = cast_operand(input, result), cast_operand(other, result)
    return _div(a, b)


divide = true_divide = div


# ATen's Scalar overloads (``mul.Scalar``, ``div.Scalar``): what PyTorch's C++ code calls with a
# Python number, recorded as MulBackward1/DivBackward1 (a tensor times a wrapped number is
# MulBackward0). Library code that follows such C++ uses them, so its node names match.

@primitive("mul_scalar", node="MulBackward1", group=ELEMENTWISE, lowering="{0} * {factor}",
           complex_rule=True)
def _mul_scalar(a, factor):
    return a * a.dtype.type(factor)


@_mul_scalar.vjp
def _(ctx, grad, factor):
    return _mul_scalar(grad, factor=factor.conjugate())


@primitive("div_scalar", node="DivBackward1", group=ELEMENTWISE, lowering="{0} / {divisor}")
def _div_scalar(a, divisor):
    return a / a.dtype.type(divisor)


@_div_scalar.vjp
def _(ctx, grad, divisor):
    return _div_scalar(grad, divisor=divisor)


def mul_scalar(input, factor):
    """``input * factor`` for a Python number, as ATen's ``mul.Scalar``."""
    return _mul_scalar(input, factor=factor)


def div_scalar(input, divisor):
    """``input / divisor`` for a Python number, as ATen's ``div.Scalar`` (the last step of the
    losses PyTorch averages by a count in C++)."""
    return _div_scalar(input, divisor=divisor)


_POW_OVERLOADS = ("Tensor input, Tensor exponent, *, Tensor out = None",
                  "Number self, Tensor exponent, *, Tensor out = None",
                  "Tensor input, Number exponent, *, Tensor out = None")


def pow(input, exponent):
    if not ((isinstance(input, Tensor) or isinstance(exponent, Tensor))
            and _is_operand(input) and _is_operand(exponent)):
        raise invalid_combination("pow", [input, exponent], {}, _POW_OVERLOADS)
    if not isinstance(exponent, Tensor):
        if input._array.dtype.kind != "f" or type(exponent) not in (float, int):
            input, _ = promote(input, exponent)  # the result's dtype (an int tensor ** 0.5)
        return _pow_scalar(input, exponent=exponent)
    if not isinstance(input, Tensor):  # number ** tensor
        _, exponent = promote(input, exponent)
        return _pow_scalar_base(exponent, base=input)
    return _pow(*promote(input, exponent))


def maximum(input, other):
    a, b = tensor_operands("maximum", input, other)
    refuse_complex(a, "maximum not implemented for complex tensors.")
    return _maximum(a, b)


def minimum(input, other):
    a, b = tensor_operands("minimum", input, other)
    refuse_complex(a, "minimum not implemented for complex tensors.")
    return _minimum(a, b)


_WHERE_OVERLOADS = ("Tensor condition",
                    "Tensor condition, Tensor input, Tensor other, *, Tensor out = None",
                    "Tensor condition, Number self, Tensor other",
                    "Tensor condition, Tensor input, Number other",
                    "Tensor condition, Number self, Number other")


def where(condition, input=None, other=None):
    if input is None and other is None and isinstance(condition, Tensor):
        return tuple(Tensor._make(i.astype(np.int64))  # (numpy's are strided views)
                     for i in np.nonzero(np.atleast_1d(condition._array)))
    if input is None or other is None or not isinstance(condition, Tensor):
        given = [v for v in (condition, input, other) if v is not None]
        raise invalid_combination("where", given, {}, _WHERE_OVERLOADS)
    condition = _boolean_condition(condition)
    a, b = promote(input, other)
    for value in (input, other):  # a number is an argument here: out of range is an error
        if not isinstance(value, Tensor):
            checked_number(value, a._array.dtype)
    return _where(condition, a, b)


def _boolean_condition(condition):
    """The condition of ``where`` as PyTorch takes it: bool, or uint8 with a deprecation
    warning."""
    kind = condition._array.dtype
    if kind == np.uint8:
        warn_at_caller("where received a uint8 condition tensor. This behavior is deprecated and "
                       "will be removed in a future version of PyTorch. Use a boolean condition "
                       "instead.")
        return Tensor._make(condition._array.astype(np.bool_))
    if kind != np.bool_:
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {_LEGACY_TYPE_NAMES[kind.name]}")
    return condition


def neg(input):
    check_bool_negation(input)
    return _neg(input)


def check_bool_negation(input):
    if isinstance(input, Tensor) and input._array.dtype == np.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you "
                           "are trying to invert a mask, use the `~` or `logical_not()` operator "
                           "instead.")


def _is_bool(value):
    return type(value) is bool or (isinstance(value, Tensor) and value._array.dtype == np.bool_)


def check_bool_subtraction(input, other):
    """PyTorch refuses ``-`` on booleans rather than guess between xor and logical_not."""
    input_bool, other_bool = _is_bool(input), _is_bool(other)
    if input_bool and other_bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if input_bool or other_bool:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


negative = neg


def exp(input):
    return _exp(_floating(input))


def log(input):
    return _log(_floating(input))


def sqrt(input):
    return _sqrt(_floating(input))


def reciprocal(input):
    return _reciprocal(_floating(input))


def abs(input):
    return _abs(input)


absolute = abs


def sin(input):
    return _sin(_floating(input))


def cos(input):
    return _cos(_floating(input))


def tanh(input):
    return _tanh(_floating(input))


def sigmoid(input):
    return _sigmoid(_floating(input))


def relu(input):
    check_relu_input(input)
    return _relu(input)


def check_relu_input(input):
    if input._array.dtype == np.bool_:
        raise RuntimeError("Boolean inputs not supported for relu")
    refuse_complex(input, "clamp is not supported for complex types", error=NotImplementedError)


def square(input):
    """``input ** 2``, promoted as such (a bool tensor squares to int64)."""
    return pow(input, 2)


def clamp(input, min=None, max=None):
    return _clamp_between("clamp", input, min, max)


def clip(input, min=None, max=None):
    return _clamp_between("clip", input, min, max)


def _clamp_between(name, input, min, max):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if not isinstance(input, Tensor):  # (max alone is mostly given by name)
        given, named = ([input, min, max], {}) if min is not None else ([input], {"max": max})
        raise invalid_combination(name, [a for a in given if a is not None], named,
                                  [f"Tensor input, {o}, *, Tensor out = None"
                                   for o in _CLAMP_BOUNDS])
    refuse_complex(input, "clamp is not supported for complex types", error=NotImplementedError)
    check_bound_kinds(name, input, min, max)
    min, max = parsed_bounds(min, max)
    input = _promoted_to_bounds(input, min, max)
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        refuse_bool_tensor_clamp(input, min, max)
        return _clamp_tensor(input, _bound(min, input, False), _bound(max, input, True))
    return _clamp(input, min=_checked_bound(min, input), max=_checked_bound(max, input))


def refuse_bool_tensor_clamp(input, min, max):
    """PyTorch clamps a bool tensor between two bounds with no kernel for it: "clamp_cpu" for
    two tensors, "clamp_scalar_cpu" when one is a number (a 0-d tensor beside it is read as one).
    A single tensor bound is a maximum or a minimum, which bool has."""
    if min is not None and max is not None:
        both_tensors = isinstance(min, Tensor) and isinstance(max, Tensor)
        _refuse_bool("clamp_cpu" if both_tensors else "clamp_scalar_cpu", input._array)


_CLAMP_BOUNDS = ("Tensor min = None, Tensor max = None", "Number min = None, Number max = None")


def check_bound_kinds(name, input, min, max, method=False):
    """PyTorch's overloads take two tensor bounds or two numbers (a 0-d tensor passes for a
    number): a tensor with dimensions beside a number matches neither. The bounds are named
    in the message, as they mostly are in such calls."""
    given = [b for b in (min, max) if b is not None]
    if (any(isinstance(b, Tensor) and b._array.ndim for b in given)
            and not all(isinstance(b, Tensor) for b in given)):
        overloads = list(_CLAMP_BOUNDS)
        if not method:
            overloads = [f"Tensor input, {o}, *, Tensor out = None" for o in overloads]
        raise invalid_combination(name, () if method else (input,), {"min": min, "max": max},
                                  overloads)


def parsed_bounds(min, max):
    """The bounds as PyTorch's parser passes them: a 0-d tensor beside a number is a number (the
    Number overload), so it promotes as one (an int64 tensor clamped at ``tensor(2.5,
    dtype=float64)`` and 4 is float32)."""
    tensors = [isinstance(b, Tensor) for b in (min, max) if b is not None]
    if any(tensors) and not all(tensors):
        return tuple(b.item() if isinstance(b, Tensor) else b for b in (min, max))
    return min, max


def _checked_bound(value, input):
    """A number bound in the input's dtype: out of its range is PyTorch's overflow error."""
    return None if value is None else checked_number(value, input._array.dtype)


def _promoted_to_bounds(input, *bounds):
    """The input cast to the common dtype of itself and its bounds: PyTorch clamps an integer
    tensor at 1.5 in the default float dtype rather than truncate the bound."""
    if input._array.dtype.kind == "f":
        for bound in bounds:
            if type(bound) not in _NUMBER_OR_NONE:
                break
        else:
            return input  # a Python number never widens a float tensor: the common case
    given = [bound for bound in bounds if bound is not None]
    return cast_operand(input, dtypes.result_type(input, *given))


_NUMBER_OR_NONE = (float, int, type(None))


def _bound(value, input, upper):
    """A clamp bound as a tensor of the input's dtype; an absent bound is the dtype's extreme."""
    if value is None:
        dtype = input._array.dtype
        return Tensor._make(np.array(_extremes(dtype)[upper], dtype=dtype))
    if not isinstance(value, Tensor):
        return Tensor._make(np.array(checked_number(value, input._array.dtype),
                                     dtype=input._array.dtype))
    return value if value._array.dtype == input._array.dtype else to_dtype(value, input.dtype)


def _extremes(dtype):
    """The lowest and highest values of a numpy dtype (infinities for a float one)."""
    if dtype.kind == "f":
        return -np.inf, np.inf
    if dtype.kind == "b":
        return False, True
    return np.iinfo(dtype).min, np.iinfo(dtype).max


def _bound_overloads(bound):
    """clamp_min's or clamp_max's overloads: a tensor or a number bound, named ``bound``."""
    return tuple(overload.replace(" other", f" {bound}") for overload in NUMBER_OTHER)


_CLAMP_MIN_OVERLOADS, _CLAMP_MAX_OVERLOADS = _bound_overloads("min"), _bound_overloads("max")


def clamp_min(input, min):
    check_overloads("clamp_min", _CLAMP_MIN_OVERLOADS, input, min)
    if isinstance(min, Tensor):
        input = _promoted_to_bounds(input, min)
        return _clamp_min_tensor(input, _bound(min, input, False))
    input = _promoted_to_bounds(input, min)
    return _clamp_min(input, min=_checked_bound(min, input))


def clamp_max(input, max):
    check_overloads("clamp_max", _CLAMP_MAX_OVERLOADS, input, max)
    if isinstance(max, Tensor):
        input = _promoted_to_bounds(input, max)
        return _clamp_max_tensor(input, _bound(max, input, True))
    input = _promoted_to_bounds(input, max)
    return _clamp_max(input, max=_checked_bound(max, input))


def to_dtype(input, dtype, memory_format=None):
    """A differentiable cast (PyTorch records it as ToCopyBackward0), or a change of memory
    format."""
    if memory_format is not None:
        return _to_dtype(input, dtype=dtype, memory_format=memory_format)
    if input._array.dtype == dtype.numpy:
        return input
    return _to_dtype(input, dtype=dtype)


def clone(input, *, memory_format=None):
    """A copy; by default in the layout of ``input`` (``preserve_format``), as PyTorch."""
    return _clone(input) if memory_format is None else _clone(input, memory_format=memory_format)


def _floating(t):
    """Integer inputs of floating functions (exp, log, …) compute in the default float dtype.
    Anything but a tensor goes on to the primitive, which refuses it with PyTorch's TypeError."""
    if isinstance(t, Tensor) and t._array.dtype.kind not in "fc":
        return to_dtype(t, dtypes.get_default_dtype())
    return t


# ----------------------------------------------------------------- non-differentiable


def _constant_op(name, node, compute, lowering, real_only=False):
    """An op whose derivative is zero everywhere it exists (comparisons, sign, rounding).

    Still a primitive, so the compiler sees it when it traces a backward rule that uses one
    (``grad * (out > 0)``); bool results are never recorded, float ones get zero gradients.
    """
    prim = Primitive(name, compute, node=node, group=ELEMENTWISE, lowering=lowering)
    arity = compute.nin if isinstance(compute, np.ufunc) else len(prim.arg_names)
    if arity == 2:
        prim.error = broadcast_error

    @prim.vjp
    def _(ctx, grad, **params):
        return tuple(Tensor._make(np.zeros(shape, dtype)) if needed else None
                     for shape, dtype, needed in zip(ctx.input_shapes, ctx.input_dtypes,
                                                     ctx.needs_input_grad))

    def unary(input):
        return prim(input)

    def binary(input, other):
        return prim(*promote(input, other))

    def real_binary(input, other):  # an ordering: PyTorch's kernel refuses complex numbers
        a, b = promote(input, other)
        refuse_complex(a, kernel=f"{name}_cpu")
        return prim(a, b)

    op = (real_binary if real_only else binary) if arity == 2 else unary
    op.__name__ = name
    op.primitive = prim  # for the in-place forms
    return op


_eq = _constant_op("eq", "EqBackward0", np.equal, "{0} == {1}")
_ne = _constant_op("ne", "NeBackward0", np.not_equal, "{0} != {1}")
_lt = _constant_op("lt", "LtBackward0", np.less, "{0} < {1}", real_only=True)
_le = _constant_op("le", "LeBackward0", np.less_equal, "{0} <= {1}", real_only=True)
_gt = _constant_op("gt", "GtBackward0", np.greater, "{0} > {1}", real_only=True)
_ge = _constant_op("ge", "GeBackward0", np.greater_equal, "{0} >= {1}", real_only=True)
# a number on the right only, under each of PyTorch's names
eq, ne, not_equal = (with_overloads(op, NUMBER_OTHER, name)
                     for op, name in ((_eq, "eq"), (_ne, "ne"), (_ne, "not_equal")))
lt, less, le, less_equal = (with_overloads(op, NUMBER_OTHER, name) for op, name in (
    (_lt, "lt"), (_lt, "less"), (_le, "le"), (_le, "less_equal")))
gt, greater, ge, greater_equal = (with_overloads(op, NUMBER_OTHER, name) for op, name in (
    (_gt, "gt"), (_gt, "greater"), (_ge, "ge"), (_ge, "greater_equal")))
logical_and, logical_or, logical_xor = (with_overloads(op, TENSORS_ONLY) for op in (
    _constant_op("logical_and", "LogicalAndBackward0", np.logical_and, "{0} and {1}"),
    _constant_op("logical_or", "LogicalOrBackward0", np.logical_or, "{0} or {1}"),
    _constant_op("logical_xor", "LogicalXorBackward0", np.logical_xor, "{0} != {1}")))
logical_not = _constant_op("logical_not", "LogicalNotBackward0", np.logical_not, "not {0}")


def _sign_values(a):
    """-1, 0 or 1 in ``a``'s dtype as PyTorch computes them: 0 for NaN and -0.0 (numpy's sign
    gives NaN and -0.0), and booleans unchanged (numpy has no boolean sign)."""
    if a.dtype.kind == "b":
        return a.copy()
    return np.subtract(a > 0, a < 0, dtype=a.dtype)


def _real_sign_values(a):
    if a.dtype.kind == "c":
        raise NotImplementedError("Unlike NumPy, torch.sign is not intended to support complex "
                                  "numbers. Please use torch.sgn instead.")
    return _sign_values(a)


_SIGN_LOWERING = "(1 if {0} > 0 else (-1 if {0} < 0 else 0))"  # NaN: 0, as _sign_values
sign = _constant_op("sign", "SignBackward0", _real_sign_values, _SIGN_LOWERING)


def _refuse_bool(kernel_name, array):
    """PyTorch's refusal of a bool operand by the CPU kernel ``kernel_name``."""
    if array.dtype == np.bool_:
        raise NotImplementedError(f'"{kernel_name}" not implemented for \'Bool\'')


def _refuse_complex(kernel_name, array):
    """PyTorch's refusal of a complex operand by the CPU kernel ``kernel_name``."""
    if array.dtype.kind == "c":
        raise NotImplementedError(f'"{kernel_name}" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[array.dtype.name]}'")


def _rounding(kernel_name, function):
    """A rounding function as PyTorch's kernel ``kernel_name`` applies it: integers are whole
    already (returned in their dtype, where numpy would give floats), booleans are refused."""
    def compute(a):
        _refuse_bool(kernel_name, a)
        if a.dtype.kind == "c":
            if function is np.round:  # PyTorch's round has no such check: its kernel refuses
                raise NotImplementedError(f'"{kernel_name}" not implemented for '
                                          f"'{_LEGACY_TYPE_NAMES[a.dtype.name]}'")
            raise NotImplementedError(f"{function.__name__} is not supported for complex inputs")
        return function(a) if a.dtype.kind == "f" else a.copy()
    return compute


def _round_to_decimals(a, *, decimals):
    if a.dtype.kind != "f":  # PyTorch's kernels take floats only (decimals=0: round's own kernel)
        kernel = "round_vml_cpu" if decimals == 0 else "round_cpu"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[a.dtype.name]}'")
    return np.round(a, decimals)


floor = _constant_op("floor", "FloorBackward0", _rounding("floor_vml_cpu", np.floor),
                     "floor({0})")
ceil = _constant_op("ceil", "CeilBackward0", _rounding("ceil_vml_cpu", np.ceil), "ceil({0})")
_round = _constant_op("round", "RoundBackward0", _rounding("round_vml_cpu", np.round),
                      "round({0})")
_round_decimals = _constant_op("round_decimals", "RoundBackward1", _round_to_decimals,
                               None).primitive


def round(input, *, decimals=None):
    """To the nearest integer, or to ``decimals`` decimal places (negative: tens, hundreds …);
    halves to even, as PyTorch. Passing ``decimals`` at all, even 0, selects PyTorch's
    ``round.decimals`` overload: floats only, recorded as RoundBackward1."""
    return _round(input) if decimals is None else _round_decimals(input, decimals=decimals)


isnan = _constant_op("isnan", "IsnanBackward0", np.isnan, "isnan({0})")
isinf = _constant_op("isinf", "IsinfBackward0", np.isinf, "isinf({0})")
isfinite = _constant_op("isfinite", "IsfiniteBackward0", np.isfinite, "isfinite({0})")


def _refusing_integer_zero(divide, kernel_name=None):
    """``divide`` raising PyTorch's error for an integer division by zero, where numpy would
    quietly give 0 (float division by zero stays inf or nan); with the name of PyTorch's kernel,
    refusing booleans as it does."""
    def compute(a, b):
        if kernel_name is not None:
            _refuse_bool(kernel_name, a)
            _refuse_complex(kernel_name, a)
        out = divide(a, b)
        if b.dtype.kind in "iu" and np.size(out) and not np.all(b):
            raise RuntimeError("ZeroDivisionError")
        return out
    return compute


def _remainder_values(a, b):
    """Python's ``%`` (the result takes the divisor's sign), except that a zero result keeps
    the dividend's sign: PyTorch adjusts ``fmod``, whose zeros do, where numpy's zeros take the
    divisor's (``-4. % -2`` is -0., ``4. % -2`` is 0.)."""
    out = np.remainder(a, b)
    if out.dtype.kind == "f":
        out = np.asarray(out)
        np.copysign(out, a, out=out, where=out == 0)
    return out


def _truncated_quotient(a, b):
    """``a / b`` rounded towards zero; exact for integers (a float quotient loses the low bits
    of a large int64)."""
    if a.dtype.kind == "f":
        return np.trunc(a / b)
    return (a - np.fmod(a, b)) // b


def _without_derivative(name, compute, lowering, aten_name):
    return without_derivative(Primitive(name, compute, node="NotImplemented", group=ELEMENTWISE,
                                        lowering=lowering, error=broadcast_error), aten_name)


_floor_quotient = _refusing_integer_zero(np.floor_divide, "div_floor_cpu")
_floor_divide = _without_derivative("floor_divide", _floor_quotient, "{0} // {1}", "floor_divide")
# div(rounding_mode="floor") is another ATen op, whose derivative is zero (DivBackward2)
_floor_div = _constant_op("floor_div", "DivBackward2", _floor_quotient, "{0} // {1}")


def floor_divide(input, other):
    """``input // other`` (``torch.floor_divide``): no derivative, as in PyTorch."""
    return _floor_divide(*promote(input, other))


floor_divide.primitive = _floor_divide
_remainder = Primitive("remainder", _refusing_integer_zero(_remainder_values, "remainder_cpu"),
                       node="RemainderBackward1", group=ELEMENTWISE, saves=("a", "b"),
                       saves_for={"a": ("b",), "b": ("b",)},
                       lowering="({0} % {1}) if ({0} % {1}) != 0 else {0} * 0",
                       error=broadcast_error)
_remainder_scalar = Primitive("remainder_scalar", lambda a, *, other: _remainder.forward(
    a, np.asarray(other, a.dtype)), node="RemainderBackward0", group=ELEMENTWISE,
    lowering="({0} % {other}) if ({0} % {other}) != 0 else {0} * 0")


@_remainder.vjp
def _(ctx, grad):
    """``a - floor(a / b) * b``: slope 1 in ``a``, ``-floor(a / b)`` in ``b``."""
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(grad, ctx.input_shapes[0]) if need_a else None,
            sum_to(-grad * floor(a / b), ctx.input_shapes[1]) if need_b else None)


@_remainder_scalar.vjp
def _(ctx, grad, other):
    return grad


_remainder_of_number = _without_derivative(
    "remainder_of_number", lambda a, *, number: _remainder.forward(np.asarray(number, a.dtype), a),
    "({number} % {0}) if ({number} % {0}) != 0 else {number} * 0", "remainder")


def remainder(input, other):
    """Python's ``%``: the result takes the divisor's sign (numpy's and PyTorch's remainder)."""
    if isinstance(input, Tensor) and type(other) in (int, float) and \
            input._array.dtype.kind == "f":
        return _remainder_scalar(input, other=other)
    if not isinstance(input, Tensor) and type(input) in (int, float) and \
            isinstance(other, Tensor) and other._array.dtype.kind == "f":
        # (ATen's remainder.Scalar_Tensor, which has no derivative)
        return _remainder_of_number(promote(input, other)[1], number=input)
    return _remainder(*promote(input, other))


remainder = with_overloads(remainder, NUMBER_EITHER)


_truncate_div = _constant_op("trunc_div", "DivBackward2",
                             _refusing_integer_zero(_truncated_quotient, "div_trunc_cpu"), None)


def equal(input, other):
    return input._array.shape == other._array.shape and bool(np.all(input._array == other._array))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    check_overloads("allclose", _CLOSE_OVERLOADS, input, other)
    _check_comparable(input, other, rtol, atol)
    return bool(np.allclose(input._array, other._array, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    check_overloads("isclose", _CLOSE_OVERLOADS, input, other)
    _check_comparable(input, other, rtol, atol)
    return Tensor._make(np.isclose(input._array, other._array, rtol=rtol, atol=atol,
                                   equal_nan=equal_nan))


# two tensors only, unlike numpy's isclose
_CLOSE_OVERLOADS = ("Tensor input, Tensor other, double rtol = 1e-05, double atol = 1e-08, "
                    "bool equal_nan = False",)


def _check_comparable(input, other, rtol, atol):
    """PyTorch compares tensors of one dtype and broadcastable shapes only, with tolerances that
    are not negative, and says so."""
    a, b = input._array, other._array
    if a.dtype != b.dtype:
        raise RuntimeError(f"{_LEGACY_TYPE_NAMES[a.dtype.name]} did not match "
                           f"{_LEGACY_TYPE_NAMES[b.dtype.name]}")
    for name, tolerance in (("rtol", rtol), ("atol", atol)):
        if tolerance < 0:
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got "
                               f"{tolerance:g}")
    if a.shape != b.shape:
        try:
            np.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            raise RuntimeError(broadcast_error((input, other), {})) from None


# Creation helpers the rules above use; defined in creation to keep one home for them.
from .creation import ones_like, zeros_like  # noqa: E402
