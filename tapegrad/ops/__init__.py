"""The op table: every operation tapegrad can record, with its forward, backward rule and lowering.

``PRIMITIVES`` maps each primitive's name to its ``Primitive`` entry; the functions exported here
are the user-facing operations built on them (argument handling, type promotion, overloads).
"""
from .registry import ELEMENTWISE, OTHER, PRIMITIVES, REDUCTION, VIEW, Primitive, primitive
from .creation import *  # noqa: F401,F403
from .broadcast import broadcast_to, expand, sum_to
from .elementwise import (
    abs, absolute, add, allclose, ceil, clamp, clamp_max, clamp_min, clip, clone, cos, div, divide,
    eq, equal, exp, floor, floor_divide, ge, greater, greater_equal, gt, isclose, isfinite, isinf,
    isnan, le, less, less_equal, log, logical_and, logical_not, logical_or, logical_xor, lt,
    maximum, minimum, mul, multiply, ne, neg, negative, pow, reciprocal, relu, remainder, round,
    rsub, sigmoid, sign, sin, sqrt, square, sub, subtract, tanh, to_dtype, true_divide, where,
)
from .reduction import (
    all, amax, amin, any, argmax, argmin, count_nonzero, log_softmax, logsumexp, max, mean, min,
    norm, return_types, softmax, std, std_mean, sum, var, var_mean,
)
from .shape import (
    cat, chunk, concat, concatenate, expand_as, flatten, gather, getitem, index_select, movedim,
    narrow, numpy_T, permute, reshape, setitem, split, squeeze, stack, swapaxes, swapdims, t,
    transpose, unbind, unflatten, unsqueeze, view,
)
from .linalg import addmm, bmm, dot, inner, matmul, mm, mv, outer
from .inplace import (
    abs_, add_, clamp_, clamp_max_, clamp_min_, copy_, cos_, div_, exp_, fill_, log_, masked_fill_,
    mul_, neg_, normal_, pow_, relu_, sigmoid_, sin_, sqrt_, sub_, tanh_, uniform_, zero_,
)


def masked_fill(input, mask, value):
    return where(mask, value, input) if not isinstance(value, (int, float)) else where(
        mask, full_like(input, value), input)


# Functions whose first argument is the tensor: they double as Tensor methods.
TENSOR_METHODS = (
    "abs", "absolute", "add", "allclose", "ceil", "clamp", "clamp_max", "clamp_min", "clip", "cos",
    "div", "divide", "eq", "equal", "exp", "floor", "ge", "greater", "greater_equal", "gt",
    "isclose", "isfinite", "isinf", "isnan", "le", "less", "less_equal", "log", "logical_and",
    "logical_not", "logical_or", "logical_xor", "lt", "maximum", "minimum", "mul", "multiply", "ne",
    "neg", "negative", "pow", "reciprocal", "relu", "remainder", "round", "sigmoid", "sign", "sin",
    "sqrt", "square", "sub", "subtract", "tanh", "true_divide", "where",
    "all", "amax", "amin", "any", "argmax", "argmin", "count_nonzero", "log_softmax", "logsumexp",
    "max", "mean", "min", "norm", "softmax", "std", "sum", "var",
    "chunk", "expand", "expand_as", "flatten", "gather", "index_select", "movedim", "narrow",
    "permute", "split", "squeeze", "swapaxes", "swapdims", "transpose", "unbind", "unflatten",
    "unsqueeze", "broadcast_to", "masked_fill",
    "addmm", "bmm", "dot", "inner", "matmul", "mm", "mv", "outer",
    "abs_", "add_", "clamp_", "clamp_max_", "clamp_min_", "cos_", "div_", "exp_", "fill_", "log_",
    "masked_fill_", "mul_", "neg_", "normal_", "pow_", "relu_", "sigmoid_", "sin_", "sqrt_",
    "sub_", "tanh_", "uniform_", "zero_",
)
