"""The op table: every operation tapegrad can record, with its forward, backward rule and lowering.

``PRIMITIVES`` maps each primitive's name to its ``Primitive`` entry; the functions exported here
are the user-facing operations built on them (argument handling, type promotion, overloads).
"""
import builtins

from .registry import ELEMENTWISE, OTHER, PRIMITIVES, REDUCTION, VIEW, Primitive, primitive
from .creation import *  # noqa: F401,F403
from .broadcast import broadcast_to, expand, sum_to, sum_to_size
from .elementwise import (
    abs, absolute, add, allclose, ceil, clamp, clamp_max, clamp_min, clip, clone, cos, div, divide,
    eq, equal, exp, floor, floor_divide, ge, greater, greater_equal, gt, isclose, isfinite, isinf,
    isnan, le, less, less_equal, log, logical_and, logical_not, logical_or, logical_xor, lt,
    maximum, minimum, mul, multiply, ne, neg, negative, pow, reciprocal, relu, remainder, round,
    rsub, sigmoid, sign, sin, sqrt, square, sub, subtract, tanh, to_dtype, true_divide, where,
)
from .reduction import (
    all, amax, amin, any, argmax, argmin, count_nonzero, log_softmax, logsumexp, max, mean, min,
    nanmean, nansum, return_types, softmax, std, std_mean, sum, var, var_mean,
)
from .shape import (
    cat, chunk, concat, concatenate, expand_as, flatten, gather, getitem, index_select, moveaxis,
    movedim, narrow, numpy_T, permute, reshape, select, setitem, split, squeeze, stack, swapaxes,
    swapdims, t, tensor_split, transpose, unbind, unflatten, unsqueeze, view,
)
from .strided import as_strided, unfold
from .linalg import (
    addbmm, addmm, addmm_, addmv, addmv_, addr, baddbmm, baddbmm_, bmm, chain_matmul, cross, dot,
    ger, inner, kron, matmul, mm, mv, outer, tensordot, vdot,
)
from .matrix import cholesky, det, inverse, svd
from .matrix_functions import *  # noqa: F401,F403
from .factorizations import *  # noqa: F401,F403
from .factorizations import lu_legacy as lu, lu_solve_legacy as lu_solve, qr_legacy as qr
from .special import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403
from .cumulative import *  # noqa: F401,F403
from .sorting import *  # noqa: F401,F403
from .scatter import *  # noqa: F401,F403
from .segment import segment_reduce
from .einsum import einsum
from .bitwise import *  # noqa: F401,F403
from .norm import cdist, dist, norm, norm_except_dim, pdist
from .sampling import (
    multinomial, bernoulli, bernoulli_, cauchy_, exponential_, geometric_, log_normal_, random_,
)
from .norm import renorm, renorm_
from .embedding import embedding_renorm_
from .combinatorics import *  # noqa: F401,F403
from .assembly import *  # noqa: F401,F403
from .integration import *  # noqa: F401,F403
from .overwrite import *  # noqa: F401,F403
from .windows import *  # noqa: F401,F403
from .counts import *  # noqa: F401,F403
from .statistics import *  # noqa: F401,F403
from .ranges import *  # noqa: F401,F403
from .gamma_functions import *  # noqa: F401,F403
from .incomplete_gamma import *  # noqa: F401,F403
from .bessel import *  # noqa: F401,F403
from .conjugation import *  # noqa: F401,F403
from .short_time import istft, stft
from .copies import *  # noqa: F401,F403  diagonal_copy, …, unsafe_split
from .quantize import *  # noqa: F401,F403  fake_quantize_per_tensor_affine, …
from . import gaussian as _gaussian  # noqa: F401  (torch.special's; registers its primitives)
from .creation import new_empty, new_full, new_ones, new_tensor, new_zeros, type_as
from .inplace import (
    abs_, add_, clamp_, clamp_max_, clamp_min_, copy_, cos_, div_, exp_, fill_, log_,
    mul_, neg_, normal_, pow_, relu_, sigmoid_, sin_, sqrt_, squeeze_, sub_, swapaxes_, swapdims_,
    t_, tanh_, transpose_, uniform_, unsqueeze_, zero_,
    absolute_, ceil_, clip_, divide_, floor_, floor_divide_, logical_and_, logical_not_,
    logical_or_, logical_xor_, multiply_, negative_, reciprocal_, remainder_, round_, sign_,
    square_, subtract_, true_divide_, nan_to_num_, eq_, ne_, lt_, le_, gt_, ge_, less_,
    less_equal_, greater_, greater_equal_,
)

# Functions whose first argument is the tensor: they double as Tensor methods.
TENSOR_METHODS = (
    "abs", "absolute", "add", "allclose", "ceil", "clamp", "clamp_max", "clamp_min", "clip", "cos",
    "div", "divide", "eq", "equal", "exp", "floor", "ge", "greater", "greater_equal", "gt",
    "isclose", "isfinite", "isinf", "isnan", "le", "less", "less_equal", "log", "logical_and",
    "logical_not", "logical_or", "logical_xor", "lt", "maximum", "minimum", "mul", "multiply", "ne",
    "neg", "negative", "pow", "reciprocal", "relu", "remainder", "round", "sigmoid", "sign", "sin",
    "sqrt", "square", "sub", "subtract", "tanh", "true_divide",
    "all", "amax", "amin", "any", "argmax", "argmin", "count_nonzero", "log_softmax", "logsumexp",
    "max", "mean", "min", "norm", "softmax", "std", "sum", "var", "dist",
    "chunk", "expand", "expand_as", "flatten", "gather", "index_select", "moveaxis", "movedim",
    "narrow", "permute", "select", "split", "squeeze", "swapaxes", "swapdims", "tensor_split",
    "transpose", "unbind", "unflatten", "unsqueeze", "broadcast_to", "masked_fill", "as_strided",
    "unfold",
    "addmm", "baddbmm", "bmm", "dot", "inner", "matmul", "mm", "mv", "outer", "cross", "det",
    "inverse", "cholesky", "svd", "addmv", "addr", "addbmm", "ger", "kron", "vdot", "addmm_",
    "addmv_", "baddbmm_",
    "abs_", "add_", "clamp_", "clamp_max_", "clamp_min_", "cos_", "div_", "exp_", "fill_", "log_",
    "masked_fill_", "mul_", "neg_", "normal_", "pow_", "relu_", "sigmoid_", "sin_", "sqrt_",
    "sub_", "tanh_", "uniform_", "zero_", "t_", "transpose_", "swapdims_", "swapaxes_",
    "unsqueeze_", "squeeze_",
    "absolute_", "ceil_", "clip_", "divide_", "floor_", "floor_divide", "floor_divide_",
    "logical_and_", "logical_not_", "logical_or_", "logical_xor_", "multiply_", "negative_",
    "reciprocal_", "remainder_", "round_", "sign_", "square_", "subtract_", "true_divide_",
    "nan_to_num_",
    # special
    "log1p", "expm1", "sinh", "cosh", "tan", "atan", "asin", "acos", "erf", "rsqrt", "log2",
    "log10", "exp2", "trunc", "frac", "atan2", "arctan2", "hypot", "lerp", "logit", "nan_to_num",
    "erfinv", "erfinv_", "fix", "lerp_", "sgn", "signbit", "isposinf", "isneginf", "isreal", "fmax",
    "fmin", "copysign", "fmod", "addcmul", "addcdiv", "addcmul_", "addcdiv_", "logaddexp",
    "logaddexp2", "xlogy", "float_power", "positive", "deg2rad", "rad2deg", "heaviside", "gcd",
    "lcm", "trunc_", "fix_", "frac_", "sgn_", "fmod_", "copysign_", "xlogy_", "deg2rad_",
    "rad2deg_", "hypot_", "gcd_", "lcm_", "ldexp", "ldexp_", "frexp", "float_power_",
    # layout
    "flip", "fliplr", "flipud", "roll", "tril", "triu", "repeat", "tile", "repeat_interleave",
    "diagonal", "diag", "diag_embed", "trace", "fill_diagonal_",
    # cumulative, sorting
    "cumsum", "cumprod", "diff", "prod", "aminmax", "sort", "argsort", "topk", "kthvalue", "median",
    "cummax", "unique", "bincount", "histc", "cummin", "logcumsumexp", "mode", "quantile",
    "nanquantile", "nanmedian", "nansum", "nanmean", "histogram", "histogramdd",
    # scatter
    "masked_select", "nonzero", "nonzero_static", "argwhere", "index_fill", "index_fill_",
    "masked_scatter",
    "masked_scatter_", "scatter", "scatter_", "scatter_add", "scatter_add_",
    "index_add", "index_add_", "index_put", "index_put_", "scatter_reduce", "scatter_reduce_",
    "index_reduce", "index_reduce_", "index_copy", "index_copy_", "take", "take_along_dim",
    "segment_reduce",
    # H4: more functions
    "msort", "unique_consecutive", "renorm", "rot90", "nextafter", "tril_", "triu_",
    "cov", "corrcoef", "lgamma", "digamma", "mvlgamma",
    # A1: pointwise math
    "asinh", "acosh", "atanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh",
    "erfc", "sinc", "i0", "asinh_", "acosh_", "atanh_", "arcsin_", "arccos_", "arctan_",
    "arcsinh_", "arccosh_", "arctanh_", "acos_", "asin_", "atan_", "cosh_", "sinh_", "tan_",
    "erf_", "erfc_", "exp2_", "expm1_", "log10_", "log1p_", "log2_", "rsqrt_", "logit_", "sinc_",
    "i0_", "atan2_", "arctan2_", "lgamma_", "digamma_", "polygamma_", "mvlgamma_",
    # sampling and factories
    "multinomial", "bernoulli", "bernoulli_", "random_", "exponential_", "geometric_",
    "log_normal_", "cauchy_", "new_zeros", "new_ones", "new_full", "new_empty", "new_tensor",
    "type_as",
    # bitwise
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift",
    "bitwise_right_shift", "bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_not_",
    "bitwise_left_shift_", "bitwise_right_shift_", "hash_tensor",
    "eq_", "ne_", "lt_", "le_", "gt_", "ge_", "less_", "less_equal_", "greater_", "greater_equal_",
    "cumsum_", "cumprod_", "nextafter_", "renorm_", "sum_to_size",
    "igamma", "igammac", "igamma_", "igammac_",
    "conj", "conj_physical", "conj_physical_", "resolve_conj", "resolve_neg", "is_conj",
    "is_neg", "angle", "adjoint", "stft", "istft",
)
from .elementwise import not_equal  # PyTorch's other names (its errors name it so)
not_equal_ = ne_

TENSOR_METHODS += (  # arrays and matrices (tapegrad.ops.assembly, overwrite, matrix)
    "not_equal", "not_equal_",
    "diagflat", "hsplit", "vsplit", "dsplit", "ravel", "is_nonzero", "is_same_size", "is_signed",
    "select_scatter", "slice_scatter", "diagonal_scatter", "put", "put_",
    "slogdet", "logdet", "matrix_power", "matrix_exp", "pinverse", "cholesky_solve",
    "cholesky_inverse", "triangular_solve", "lu", "lu_solve", "qr", "geqrf", "orgqr", "ormqr",
)

# PyTorch has these only as Tensor methods (there is no ``torch.repeat``).
METHOD_ONLY = (
    "t_", "transpose_", "swapdims_", "swapaxes_", "unsqueeze_", "squeeze_", "repeat", "fill_diagonal_", "scatter_", "scatter_add_", "index_add_", "new_zeros", "new_ones",
    "new_full", "erfinv_", "new_empty", "new_tensor", "type_as", "unfold", "index_fill_",
    "masked_scatter_", "bitwise_and_",
    "bitwise_or_", "bitwise_xor_", "bitwise_not_", "bitwise_left_shift_", "bitwise_right_shift_",
    "lerp_", "addcmul_", "addcdiv_", "sgn_", "fmod_", "copysign_", "hypot_", "float_power_",
    "scatter_reduce_", "index_reduce_", "index_copy_", "bernoulli_", "random_", "exponential_",
    "geometric_", "log_normal_", "cauchy_", "tril_", "triu_",
    "eq_", "ne_", "lt_", "le_", "gt_", "ge_", "less_", "less_equal_", "greater_", "greater_equal_",
    "cumsum_", "cumprod_", "nextafter_", "renorm_", "sum_to_size",
    "atan2_", "arctan2_", "lgamma_", "digamma_", "polygamma_", "mvlgamma_",
    "absolute_", "divide_", "floor_divide_", "logical_and_", "logical_not_", "logical_or_",
    "logical_xor_", "multiply_", "remainder_", "sign_", "subtract_", "true_divide_",
)

# ``axis=`` and ``keepdims=`` wherever there is a ``dim``, as in PyTorch (functions and methods).
import sys as _sys  # noqa: E402
from .reduction import accept_numpy_names_everywhere as _accept_numpy_names_everywhere  # noqa: E402
_accept_numpy_names_everywhere(globals(), [_module for _name, _module in list(_sys.modules.items())
                                           if _name.startswith(__name__ + ".")])

METHOD_ONLY += ("put_", "not_equal_", "igamma_", "igammac_")
TENSOR_METHODS += ("unsafe_chunk", "unsafe_split", "unsafe_split_with_sizes")  # (ops.copies)
# ``torch.real``/``torch.imag`` are functions; on a tensor they are properties (tensor.py)

# What ``import tapegrad`` takes from here: the operations, not this package's modules.
__all__ = [name for name, value in globals().items()
           if not name.startswith("_") and name not in METHOD_ONLY
           and not isinstance(value, type(builtins))]
