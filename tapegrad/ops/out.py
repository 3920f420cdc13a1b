"""``out=``: the functions to which PyTorch gives an ``out`` argument, as ``torch.<name>``.

``torch.mul(a, b, out=t)`` computes the result, copies it into ``t`` (resizing ``t`` first if its
shape differs, with PyTorch's deprecation warning when ``t`` held elements), bumps ``t``'s version
and returns ``t``. Autograd cannot record such a write: it is an error while an argument requires
grad.

One wrapper gives each listed function the keyword. ``tapegrad`` exports the wrapped functions; the
op table's own (which the Tensor methods and operators call, and which take no ``out``) stay
unwrapped, so they do not pay for it.
"""
import collections
import functools
import numbers

import numpy as np

from .. import dtypes, return_types
from .._warnings import warn_at_caller
from ..autograd import grad_mode
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .. import ops
from .inplace import OVERLAP_ERROR, has_internal_overlap
from .operands import CPP_TYPE_NAMES, check_tensor_elements
from .signatures import invalid_combination

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
    "cholesky", "inverse", "histc", "cholesky_solve", "cholesky_inverse", "ger",
    # running reductions, differences, membership, buckets, products
    "logcumsumexp", "diff", "isin", "bucketize", "searchsorted", "take", "kron", "nansum", "nanmean",
    # bitwise
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift",
    "bitwise_right_shift", "hash_tensor",
)

# The name PyTorch's autograd error gives: that of the op the function runs, where not its own.
_OP_NAMES = {"square": "pow", "outer": "mul", "hstack": "cat", "vstack": "cat",
             "norm": "linalg_vector_norm", "cross": "linalg_cross", "inverse": "linalg_inv_ex",
             "ger": "mul", **{f"bitwise_{op}": f"aten::bitwise_{op}" for op in (
                 "and", "or", "xor", "not", "left_shift", "right_shift")}}

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
        try:
            result = getattr(ops, name)(*args, **kwargs)
        except NotImplementedError:  # a kernel's refusal, which PyTorch's check of out precedes
            if name not in _TRUTH_FUNCTIONS:
                check_operands_castable(args, out)
            raise
        if name in _EXACT_DTYPE_MESSAGES and result._array.dtype != out._array.dtype:
            raise RuntimeError(dtype_message(_EXACT_DTYPE_MESSAGES[name], result, out,
                                              out_int32=kwargs.get("out_int32", False)))
        if name in _CHECKED_CASTS:
            check_castable(name, "result", result, out)
        return write_out(op_name, result, out)
    return call


# Functions whose ``out`` must have the result's dtype exactly (no casting), with PyTorch's
# message; fields as in ``dtype_message``.
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
    "bitwise_not": "Found dtype {found} but expected {expected}",
}


# Functions that check ``out``'s dtype themselves, before writing, with ``check_castable``'s message.
_CHECKED_CASTS = ("cholesky_solve", "cholesky_inverse")


def check_castable(function, name, result, out):
    """PyTorch's check, in ``function``, that its result ``name`` converts to ``out``'s dtype
    (``can_cast``)."""
    source, target = result._array.dtype, out._array.dtype
    if not can_cast(source, target):
        raise RuntimeError(f"{function}: Expected {name} to be safely castable from "
                           f"{_LEGACY_TYPE_NAMES[source.name]} dtype, but got {name} with dtype "
                           f"{_LEGACY_TYPE_NAMES[target.name]}")


def dtype_message(template, result, out, **fields):
    """``template`` filled with the result's and the out tensor's dtypes: {expected}/{found} as
    PyTorch's scalar types (Float), {expected_cpp}/{found_cpp} as C++ spells them (float)."""
    expected, found = result._array.dtype.name, out._array.dtype.name
    if "_cpp}" in template:  # (the C++ spellings are known for fewer dtypes)
        fields.update(expected_cpp=CPP_TYPE_NAMES[expected], found_cpp=CPP_TYPE_NAMES[found])
    return template.format(expected=_LEGACY_TYPE_NAMES[expected], found=_LEGACY_TYPE_NAMES[found],
                           **fields)


# Functions whose result is bool whatever their operands' dtype: ``out`` takes it.
_TRUTH_FUNCTIONS = frozenset(("eq", "ne", "lt", "le", "gt", "ge", "less", "less_equal", "greater",
                              "greater_equal", "logical_and", "logical_or", "logical_xor",
                              "logical_not", "signbit", "isposinf", "isneginf", "isin", "all",
                              "any"))


def check_operands_castable(args, out):
    """PyTorch's check, before an elementwise kernel runs, that the operands' common dtype
    converts to ``out``'s (``atan2`` of complex tensors into an int32 ``out`` is this error, not
    the kernel's)."""
    operands = [a for a in args if isinstance(a, (Tensor, numbers.Number))]
    if [a for a in operands if isinstance(a, Tensor)]:  # (``any`` is torch.any in this module)
        check_castable_into(dtypes.result_type(*operands).numpy, out)


def check_castable_into(source, out):
    if not can_cast(source, out._array.dtype):
        raise RuntimeError(f"result type {_LEGACY_TYPE_NAMES[source.name]} can't be cast to the "
                           f"desired output type {_LEGACY_TYPE_NAMES[out._array.dtype.name]}")


def write_out(op_name, result, out):
    """Copy ``result`` into ``out`` as PyTorch's out= variants do; ``out`` is returned."""
    if grad_mode.is_grad_enabled() and (
            result._requires_grad or out._requires_grad and result._array.dtype.kind == "f"):
        raise RuntimeError(f"{op_name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    check_castable_into(result._array.dtype, out)
    resize_out(out, result._array.shape)
    if has_internal_overlap(out._array):  # (an expanded tensor: numpy's would say read-only)
        raise RuntimeError(OVERLAP_ERROR)
    np.copyto(out._array, result._array, casting="unsafe")
    out._version_counter.value += 1
    return out


def can_cast(source, target):
    """PyTorch's ``canCast``: no complex into reals, no floats into integers, nothing but booleans
    into booleans."""
    if source.kind == "c" and target.kind != "c" or source.kind == "f" and target.kind in "iub":
        return False
    return source.kind == "b" or target.kind != "b"


def resize_out(out, shape):
    """Give ``out`` the result's shape if it differs: in its own memory when the sizes agree,
    else new memory."""
    array = out._array
    if array.shape == tuple(shape):
        return
    if array.size:
        warn_at_caller(_RESIZE_WARNING.format(old=list(array.shape), new=list(shape)))
    if array.size == int(np.prod(shape)) and array.flags.c_contiguous:
        out._array = array.reshape(shape)
    else:
        out._array = np.empty(shape, array.dtype)


# Functions whose ``out`` is a tuple (values, indices), answered with the result type's
# ``<name>_out`` twin: the argument position PyTorch's messages give ``out``, and its messages
# for an indices and a values output of the wrong dtype (checked in that order; fields as in
# ``dtype_message``).
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
    "max": (3, _CPP_TYPE_CHECK, _CPP_TYPE_CHECK),
    "min": (3, _CPP_TYPE_CHECK, _CPP_TYPE_CHECK),
}
# Functions with both kinds of ``out`` (see ``with_either_out``).
EITHER_OUT_FUNCTIONS = ("max", "min")


def with_either_out(name):
    """``max``/``min``: ``out=`` one tensor for the elementwise and whole-tensor forms, a
    (values, indices) pair for the form with ``dim``; the other kind matches no overload."""
    one, pair = with_out(name), with_tuple_out(name)

    @functools.wraps(getattr(ops, name))
    def call(*args, out=None, **kwargs):
        if out is None:
            return getattr(ops, name)(*args, **kwargs)
        dim_form = "dim" in kwargs or (len(args) > 1 and not isinstance(args[1], Tensor))
        if dim_form != isinstance(out, (tuple, list)):
            raise invalid_combination(name, args, {**kwargs, "out": out},
                                      ops.reduction._EXTREMUM_OVERLOADS)
        return (pair if dim_form else one)(*args, out=out, **kwargs)
    return call


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
                raise RuntimeError(dtype_message(dtype_messages[1 - index], result[index],
                                                  out[index]))
        written = [write_out(name, value, target) for value, target in zip(result, out)]
        return return_types.out_type(type(result))(*written)
    return call


# ------------------------------------------------------------------ several results, or PyTorch's
# own checks
#
# The linear-algebra functions (``torch.linalg``'s, and their deprecated ``torch.*`` forms) check
# ``out`` each in its own way. ``OutSpec`` gives: the name its argument parser reports, its
# results' names (those the dtype messages use), the op whose autograd refuses an ``out`` that
# requires grad (None: the refusal is ``copy_``'s, of a leaf), how ``out``'s dtype must match
# (``exact_dtype`` or ``castable_dtype``), the position the parser gives a tuple ``out`` in its
# messages (0 for one tensor), whether the function is one PyTorch composes of other ops (then
# results that require grad are not refused but copied into ``out`` as ``copy_`` copies, recorded
# by autograd), and the parser's overloads, for a function with several (its message for an
# ``out`` of the wrong type lists them).
OutSpec = collections.namedtuple("OutSpec",
                                 "parser results grad_op dtype position composite overloads",
                                 defaults=(0, False, None))


def exact_dtype(template="Expected out tensor to have dtype {expected_cpp}, but got {found_cpp} "
                         "instead"):
    """``out`` must have the result's dtype exactly; ``template`` is PyTorch's message, with the
    fields of ``dtype_message``."""
    def check(name, value, target):
        if value._array.dtype != target._array.dtype:
            raise RuntimeError(dtype_message(template, value, target))
    return check


def castable_dtype(function):
    """``out`` may have any dtype the result converts to (``can_cast``); ``function`` names the
    function in PyTorch's message."""
    return functools.partial(check_castable, function)


def with_results_out(function, spec):
    """``function`` taking ``out=`` as ``spec`` (an ``OutSpec``) says: the results are
    computed, checked against ``out`` and copied into it."""
    single = len(spec.results) == 1 and spec.position == 0

    @functools.wraps(function)
    def call(*args, out=None, **kwargs):
        if out is None:
            return function(*args, **kwargs)
        targets = _out_targets(out, spec, single, args, kwargs)
        result = function(*args, **kwargs)
        values = (result,) if single else tuple(result)
        if grad_mode.is_grad_enabled():
            _refuse_grad(spec, values, targets)
        for name, value, target in zip(spec.results, values, targets):
            spec.dtype(name, value, target)
        written = [_write(spec, value, target) for value, target in zip(values, targets)]
        return written[0] if single else return_types.out_type(type(result))(*written)
    return call


def _out_targets(out, spec, single, args, kwargs):
    """``out`` as a tuple of tensors, checked as PyTorch's argument parser checks the call's
    ``args`` and ``kwargs``."""
    if single:
        if not isinstance(out, Tensor) and spec.overloads:
            raise invalid_combination(spec.parser, args, {**kwargs, "out": out}, spec.overloads)
        if not isinstance(out, Tensor):
            raise TypeError(f"{spec.parser}(): argument 'out' must be Tensor, not "
                            f"{type(out).__name__}")
        return (out,)
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"{spec.parser}(): argument 'out' must be tuple of Tensors, not "
                        f"{type(out).__name__}")
    if len(out) != len(spec.results):
        raise TypeError(f"expected tuple of {len(spec.results)} elements but got {len(out)}")
    check_tensor_elements(out, spec.position)
    return tuple(out)


def _refuse_grad(spec, values, targets):
    """Autograd's refusal comes before any other check of the outputs."""
    for value, target in zip(values, targets):
        refused = target._requires_grad and spec.grad_op is not None
        if refused or value._requires_grad and not spec.composite:
            raise RuntimeError(f"{spec.grad_op}(): functions with out=... arguments don't "
                               "support automatic differentiation, but one of the arguments "
                               "requires grad.")


def _write(spec, value, target):
    """``value`` into ``target``: as the out= kernels write, or for a composite function while
    autograd records, by a resize and ``copy_``."""
    recorded = grad_mode.is_grad_enabled() and (value._requires_grad or target._requires_grad)
    if not (spec.composite and recorded):
        return write_out(spec.grad_op, value, target)
    resize_out(target, value._array.shape)
    return target.copy_(value)


MULTI_DOT_DTYPE = exact_dtype(
    "multi_dot(): expected out tensor to have dtype {expected_cpp} but got {found_cpp}")
# The deprecated ``torch.*`` linear algebra taking ``out=``.
RESULTS_OUT_FUNCTIONS = {
    "chain_matmul": OutSpec("chain_matmul", ("result",), "mm", MULTI_DOT_DTYPE),
    "svd": OutSpec("svd", ("U", "S", "V"), "_linalg_svd", exact_dtype(), 3),
    "qr": OutSpec("qr", ("Q", "R"), "linalg_qr", exact_dtype(), 2),
    "slogdet": OutSpec("slogdet", ("sign", "logabsdet"), "_linalg_slogdet", exact_dtype(), 1),
    "triangular_solve": OutSpec("triangular_solve", ("solution", "cloned_coefficient"),
                                "triangular_solve", exact_dtype(), 5),
    "lu_solve": OutSpec("lu_solve", ("result",), "linalg_lu_solve", exact_dtype()),
    "lu_unpack": OutSpec("lu_unpack", ("P", "L", "U"), "lu_unpack", exact_dtype(), 4),
    "geqrf": OutSpec("geqrf", ("a", "tau"), "geqrf", castable_dtype("torch.geqrf"), 1),
    "orgqr": OutSpec("orgqr", ("result",), "linalg_householder_product",
                     castable_dtype("torch.linalg.householder_product")),
    "ormqr": OutSpec("ormqr", ("result",), "ormqr", exact_dtype(
        "torch.ormqr: Expected input and result to have the same dtype, but input has "
        "dtype{expected} and result has dtype {found}")),
}


__all__ = list(OUT_FUNCTIONS) + list(TUPLE_OUT_FUNCTIONS) + list(RESULTS_OUT_FUNCTIONS)
globals().update({name: with_out(name) for name in OUT_FUNCTIONS})
globals().update({name: with_tuple_out(name) for name in TUPLE_OUT_FUNCTIONS})
globals().update({name: with_either_out(name) for name in EITHER_OUT_FUNCTIONS})
globals().update({name: with_results_out(getattr(ops, name), spec)
                  for name, spec in RESULTS_OUT_FUNCTIONS.items()})
