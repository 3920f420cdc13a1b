"""In-place operations (``add_``, ``x -= y``, ``x[i] = v`` …) on top of the out-of-place table.

An in-place op writes into the tensor's own memory (so its views see the change), bumps the shared
version counter (so a backward step that saved the old value refuses to run), and, when autograd is
involved, re-points the tensor's ``grad_fn`` at the new node, as PyTorch's ``rebase_history`` does.
"""
import numpy as np

from ..autograd import grad_mode
from ..tensor import _LEGACY_TYPE_NAMES, LEAF_INPLACE_ERROR, VIEW_OF_LEAF_INPLACE_ERROR, Tensor
from . import elementwise as ew
from .operands import as_tensor_operand, broadcast_error
from .shape import setitem

__all__ = ["apply_inplace", "add_", "sub_", "mul_", "div_", "pow_", "clamp_", "clamp_min_",
           "clamp_max_", "neg_", "exp_", "log_", "sqrt_", "abs_", "tanh_", "sigmoid_", "relu_",
           "sin_", "cos_", "zero_", "fill_", "copy_", "masked_fill_", "uniform_", "normal_"]


def apply_inplace(prim, target, others, params):
    """Apply ``prim(target, *others, **params)`` and store the result in ``target``."""
    grad_enabled = grad_mode._state.grad_enabled
    recording = grad_enabled and (target._requires_grad or any(o._requires_grad for o in others))
    if grad_enabled and target._requires_grad:
        _check_inplace_allowed(target)
    if recording and target._base is not None and target._base._requires_grad:
        raise RuntimeError(
            "tapegrad: an in-place operation on a view of a tensor that requires grad is not "
            "supported; apply it to the base tensor or use the out-of-place operation")

    source = target
    if recording and 0 in prim.save_positions:  # the rule needs the value from before the write
        source = Tensor._make(target._array.copy(), target._grad_fn, target._output_nr)
        source._requires_grad = target._requires_grad
        source._grad_accumulator = target._grad_accumulator
    arrays = [o._array for o in others]
    _write(prim, target, arrays, params)
    target._version_counter.value += 1
    if recording:
        prim._record((source, *others), params, target)
    return target


def _write(prim, target, arrays, params):
    out = target._array
    try:
        if prim.ufunc is not None and not params:
            prim.ufunc(out, *arrays, out=out, casting="same_kind")
        elif getattr(prim, "inplace", None) is not None:
            prim.inplace(out, *arrays, **params)
        else:
            result = prim.forward(out, *arrays, **params)
            if np.shape(result) != out.shape:
                raise ValueError("shape")
            np.copyto(out, result, casting="same_kind")
    except ValueError as exc:
        if "read-only" in str(exc):
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers to "
                "a single memory location. Please clone() the tensor before performing the "
                "operation.") from None
        shapes = (target, *[Tensor._make(a) for a in arrays])
        if len(shapes) > 1:
            raise RuntimeError(broadcast_error(shapes, params)) from None
        raise
    except TypeError:  # numpy's casting refusal
        raise RuntimeError(_cast_message(target, arrays)) from None


def _cast_message(target, arrays):
    got = _LEGACY_TYPE_NAMES[arrays[0].dtype.name] if arrays else "Float"
    return (f"result type {got} can't be cast to the desired output type "
            f"{_LEGACY_TYPE_NAMES[target._array.dtype.name]}")


def _check_inplace_allowed(target):
    if target._grad_fn is None:
        raise RuntimeError(LEAF_INPLACE_ERROR)
    base = target._base
    if base is not None and base._grad_fn is None and base._requires_grad:
        raise RuntimeError(VIEW_OF_LEAF_INPLACE_ERROR)


def _binary_inplace(prim):
    def op(input, other, **kwargs):
        alpha = kwargs.pop("alpha", 1)
        other = as_tensor_operand(other if alpha == 1 else ew.mul(other, alpha))
        if other._array.dtype != input._array.dtype:
            other = _cast_operand(other, input)
        return apply_inplace(prim, input, (other,), {})
    op.__name__ = prim.name + "_"
    return op


def _cast_operand(other, target):
    if other._array.dtype.kind == "f" and target._array.dtype.kind in "biu":
        raise RuntimeError(_cast_message(target, [other._array]))
    return ew.to_dtype(other, target.dtype)


def _unary_inplace(prim, **fixed):
    def op(input, **params):
        return apply_inplace(prim, input, (), {**fixed, **params})
    op.__name__ = prim.name + "_"
    return op


add_ = _binary_inplace(ew._add)
sub_ = _binary_inplace(ew._sub)
mul_ = _binary_inplace(ew._mul)
neg_ = _unary_inplace(ew._neg)
exp_ = _unary_inplace(ew._exp)
log_ = _unary_inplace(ew._log)
sqrt_ = _unary_inplace(ew._sqrt)
abs_ = _unary_inplace(ew._abs)
tanh_ = _unary_inplace(ew._tanh)
sigmoid_ = _unary_inplace(ew._sigmoid)
relu_ = _unary_inplace(ew._relu)
sin_ = _unary_inplace(ew._sin)
cos_ = _unary_inplace(ew._cos)
_div_same_dtype = _binary_inplace(ew._div)


def div_(input, other):
    if input._array.dtype.kind != "f":  # true division gives floats
        raise RuntimeError(_cast_message(input, [np.zeros(0, np.float32)]))
    return _div_same_dtype(input, other)


def pow_(input, exponent):
    if isinstance(exponent, Tensor):
        return _binary_inplace(ew._pow)(input, exponent)
    return apply_inplace(ew._pow_scalar, input, (), {"exponent": exponent})


def clamp_(input, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return apply_inplace(ew._clamp, input, (), {"min": min, "max": max})


def clamp_min_(input, min):
    return clamp_(input, min=min)


def clamp_max_(input, max):
    return clamp_(input, max=max)


def fill_(input, value):
    value = as_tensor_operand(value)
    if value._array.ndim:
        raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                           f"{value._array.ndim} dimensions.")
    return copy_(input, value)


def zero_(input):
    return fill_(input, 0)


def copy_(input, src, non_blocking=False):
    """Copy ``src`` (broadcast, cast) into ``input``; gradients flow to ``src``."""
    src = as_tensor_operand(src)
    if src._array.dtype != input._array.dtype:
        src = ew.to_dtype(src, input.dtype)
    return apply_inplace(ew._copy, input, (src,), {})


def masked_fill_(input, mask, value):
    setitem(input, mask, value)
    return input


def uniform_(input, a=0.0, b=1.0, *, generator=None):
    from .. import random
    with grad_mode.no_grad():
        return copy_(input, Tensor._make(random.generator(generator).uniform(
            a, b, input._array.shape).astype(input._array.dtype)))


def normal_(input, mean=0.0, std=1.0, *, generator=None):
    from .. import random
    with grad_mode.no_grad():
        return copy_(input, Tensor._make(random.generator(generator).normal(
            mean, std, input._array.shape).astype(input._array.dtype)))


