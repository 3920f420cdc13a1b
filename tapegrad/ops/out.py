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

from ..autograd import grad_mode
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .. import ops

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
        return write_out(op_name, getattr(ops, name)(*args, **kwargs), out)
    return call


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


__all__ = list(OUT_FUNCTIONS)
globals().update({name: with_out(name) for name in OUT_FUNCTIONS})
