"""``out=``: the functions to which PyTorch gives an ``out`` argument, as ``torch.<name>``.

``torch.mul(a, b, out=t)`` computes the result, copies it into ``t`` (resizing ``t`` first if its
shape differs, with PyTorch's deprecation warning when ``t`` held elements), bumps ``t``'s version
and returns ``t``. Autograd cannot record such a write: it is an error while an argument requires
grad.

One wrapper gives each listed function the keyword. ``tapegrad`` exports the wrapped functions; the
op table's own (which the Tensor methods and operators call, and which take no ``out``) stay
unwrapped, so they do not pay for it.
"""
import functools
import warnings

import numpy as np

from .. import return_types
from ..autograd import grad_mode
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .. import ops
from .operands import CPP_TYPE_NAMES, check_tensor_elements

OUT_FUNCTIONS = (
    # elementwise
    "abs", "absolute", "acos", "add", "arctan2", "asin", "atan", "atan2", "ceil", "clamp",
    "clamp_max", "clamp_min", "clip", "cos", "cosh", "div", "divide", "eq", "erf", "erfinv", "exp",
    "exp2", "expm1", "floor", "floor_divide", "frac", "ge", "greater", "greater_equal", "gt",
    "hypot", "le", "lerp", "less", "less_equal", "log", "log10", "log1p", "log2", "logical_and",
    "logical_not", "logical_or", "logical_xor", "logit", "lt", "maximum", "minimum", "mul",
    "multiply", "nan_to_num", "ne", "neg", "negative", "pow", "reciprocal", "remainder", "round",
    "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt", "square", "sub", "subtract", "tan", "tanh",
    "true_divide", "trunc", "where", "fix", "sgn", "signbit", "isposinf", "isneginf", "fmax",
    "fmin", "copysign", "fmod", "addcmul", "addcdiv", "logaddexp", "logaddexp2", "xlogy",
    "float_power", "deg2rad", "rad2deg", "heaviside", "gcd", "lcm", "ldexp",
    # reductions and scans
    "all", "amax", "amin", "any", "argmax", "argmin", "cumprod", "cumsum", "log_softmax",
    "logsumexp", "mean", "norm", "prod", "softmax", "std", "sum", "var",
    # products
    "addmm", "baddbmm", "bmm", "cross", "dot", "inner", "matmul", "mm", "mv", "outer",
    # joining, indexing, matrices
    "cat", "concat", "concatenate", "hstack", "stack", "vstack", "gather", "index_select",
    "masked_select", "nonzero", "scatter", "scatter_add", "index_add", "diag", "tril", "triu",
    "cholesky", "inverse", "histc",
    # running reductions, differences, membership, buckets, products
    "logcumsumexp", "diff", "isin", "bucketize", "searchsorted", "take", "kron", "nansum", "nanmean",
)

# The name PyTorch's autograd error gives: that of the op the function runs, where not its own.
_OP_NAMES = {"square": "pow", "outer": "mul", "hstack": "cat", "vstack": "cat",
             "norm": "linalg_vector_norm", "cross": "linalg_cross", "inverse": "linalg_inv_ex"}

_RESIZE_WARNING = (
    "An output with one or more elements was resized since it had shape {old}, which does not "
    "match the required output shape {new}. This behavior is deprecated, and in a future PyTorch "
    "release outputs will not be resized unless they have zero elements. You can explicitly reuse "
    "an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).")


def with_out(name):
    """``ops.<name>`` with an ``out=`` keyword. The function is looked up at each call, so that
    the compiler's tracer, which swaps some of the table's functions while it records, sees it."""
    function = getattr(ops, name)
    op_name = _OP_NAMES.get(name, function.__name__)

    @functools.wraps(function)
    def call(*args, out=None, **kwargs):
        if out is None:
            return getattr(ops, name)(*args, **kwargs)
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
        result = getattr(ops, name)(*args, **kwargs)
        if name in _EXACT_DTYPE_MESSAGES and result._array.dtype != out._array.dtype:
            raise RuntimeError(_dtype_message(_EXACT_DTYPE_MESSAGES[name], result, out,
                                              out_int32=kwargs.get("out_int32", False)))
        return write_out(op_name, result, out)
    return call


# Functions whose ``out`` must have the result's dtype exactly (no casting), with PyTorch's
# message; fields as in ``_dtype_message``.
_SEARCHSORTED_OUT_DTYPE = (
    "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) "
    "depending on whether out_int32 flag is True, but we got output tensor's dtype {found} and "
    "out_int32 flag is {out_int32}")
_EXACT_DTYPE_MESSAGES = {
    "logcumsumexp": "expected scalar_type {expected} but found {found}",
    "isin": "Expected out tensor to have dtype {expected_cpp}, but got {found_cpp} instead",
    "bucketize": _SEARCHSORTED_OUT_DTYPE,
    "searchsorted": _SEARCHSORTED_OUT_DTYPE,
    "take": "take(): self and out expected to have the same dtype, but got self.dtype = "
            "{expected} and out.dtype = {found}",
}


def _dtype_message(template, result, out, **fields):
    """``template`` filled with the result's and the out tensor's dtypes: {expected}/{found} as
    PyTorch's scalar types (Float), {expected_cpp}/{found_cpp} as C++ spells them (float)."""
    expected, found = result._array.dtype.name, out._array.dtype.name
    return template.format(expected=_LEGACY_TYPE_NAMES[expected], found=_LEGACY_TYPE_NAMES[found],
                           expected_cpp=CPP_TYPE_NAMES[expected], found_cpp=CPP_TYPE_NAMES[found],
                           **fields)


def write_out(op_name, result, out):
    """Copy ``result`` into ``out`` as PyTorch's out= variants do; ``out`` is returned."""
    if grad_mode.is_grad_enabled() and (
            result._requires_grad or out._requires_grad and result._array.dtype.kind == "f"):
        raise RuntimeError(f"{op_name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    if not _can_cast(result._array.dtype, out._array.dtype):
        raise RuntimeError(f"result type {_LEGACY_TYPE_NAMES[result._array.dtype.name]} can't be "
                           f"cast to the desired output type "
                           f"{_LEGACY_TYPE_NAMES[out._array.dtype.name]}")
    if out._array.shape != result._array.shape:
        _resize(out, result._array.shape)
    np.copyto(out._array, result._array, casting="unsafe")
    out._version_counter.value += 1
    return out


def _can_cast(source, target):
    """PyTorch's rule: no floats into integers, nothing but booleans into booleans."""
    if source.kind == "f" and target.kind in "iub":
        return False
    return source.kind == "b" or target.kind != "b"


def _resize(out, shape):
    """Give ``out`` the result's shape: in its own memory when the sizes agree, else new memory."""
    array = out._array
    if array.size:
        warnings.warn(_RESIZE_WARNING.format(old=list(array.shape), new=list(shape)), UserWarning,
                      stacklevel=4)
    if array.size == int(np.prod(shape)) and array.flags.c_contiguous:
        out._array = array.reshape(shape)
    else:
        out._array = np.empty(shape, array.dtype)


# Functions whose ``out`` is a tuple (values, indices), answered with the result type's
# ``<name>_out`` twin: the argument position PyTorch's messages give ``out``, and its messages
# for an indices and a values output of the wrong dtype (checked in that order; fields as in
# ``_dtype_message``).
_SCALAR_TYPE_CHECK = "expected scalar_type {expected} but found {found}"
_CPP_TYPE_CHECK = "Expected out tensor to have dtype {expected_cpp}, but got {found_cpp} instead"
TUPLE_OUT_FUNCTIONS = {
    "cummax": (2, _SCALAR_TYPE_CHECK, _SCALAR_TYPE_CHECK),
    "cummin": (2, _SCALAR_TYPE_CHECK, _SCALAR_TYPE_CHECK),
    "sort": (3, _CPP_TYPE_CHECK, _CPP_TYPE_CHECK),
    "topk": (5, _CPP_TYPE_CHECK, _CPP_TYPE_CHECK),
    "kthvalue": (4, "output indices must be of scalar type Long",
                 "output values must be of same type as input"),
    "mode": (3, "expected scalar type '{expected}' but got '{found}' for indices output",
             "expected scalar type '{expected}' but got '{found}' for values output"),
}


def with_tuple_out(name):
    """``ops.<name>`` with an ``out=(values, indices)`` keyword, each written as ``out=`` writes
    one tensor, but of exactly the result's dtype."""
    function = getattr(ops, name)
    position, *dtype_messages = TUPLE_OUT_FUNCTIONS[name]

    @functools.wraps(function)
    def call(*args, out=None, **kwargs):
        if out is None:
            return function(*args, **kwargs)
        if not isinstance(out, (tuple, list)):
            raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not "
                            f"{type(out).__name__}")
        if len(out) != 2:
            raise TypeError(f"expected tuple of 2 elements but got {len(out)}")
        check_tensor_elements(out, position)
        result = function(*args, **kwargs)
        for index in (1, 0):
            if result[index]._array.dtype != out[index]._array.dtype:
                raise RuntimeError(_dtype_message(dtype_messages[1 - index], result[index],
                                                  out[index]))
        written = [write_out(name, value, target) for value, target in zip(result, out)]
        return return_types.out_type(type(result))(*written)
    return call


__all__ = list(OUT_FUNCTIONS) + list(TUPLE_OUT_FUNCTIONS)
globals().update({name: with_out(name) for name in OUT_FUNCTIONS})
globals().update({name: with_tuple_out(name) for name in TUPLE_OUT_FUNCTIONS})
