"""Tensor functions user programs reach for beyond the core table: more math, repeats and flips,
triangles and diagonals, sorting, cumulative sums, scatters, einsum, ``new_*`` factories.

Each differentiable operation that PyTorch records as one node is a primitive here with PyTorch's
node name (``RepeatBackward0``, ``SortBackward0`` …) and a backward rule written with tapegrad ops;
the rest are compositions of existing operations. Value-selecting operations (sort, topk,
kthvalue, median, cummax) share one primitive shape: the indices are computed on numpy, the values
are taken along a dimension, and the gradient is scatter-added back to those indices.
"""
import builtins
import collections
import math
import string

import numpy as np

from .. import dtypes, random
from ..tensor import _LEGACY_TYPE_NAMES, Size, Tensor
from .activation import _erf
from .broadcast import expand, sum_to
from .creation import eye, tensor, zeros
from .elementwise import _constant_op, _floating, exp, isfinite, sqrt, where
from .inplace import apply_inplace, fill_
from .linalg import matmul
from .operands import broadcast_error, promote
from .reduction import amax, amin, normalize_dims, return_types
from .reduction import sum as _reduce_sum
from .registry import ELEMENTWISE, OTHER, REDUCTION, VIEW, Primitive, primitive
from .shape import _index_backward, cat, gather, getitem, index_select, permute, reshape

__all__ = [
    "log1p", "expm1", "sinh", "cosh", "tan", "atan", "asin", "acos", "erf", "rsqrt", "log2",
    "log10", "exp2", "trunc", "frac", "atan2", "arctan2", "lerp", "logit", "nan_to_num",
    "flip", "roll", "tril", "triu", "repeat", "tile", "repeat_interleave", "hstack", "vstack",
    "broadcast_tensors", "broadcast_shapes", "masked_select", "nonzero",
    "diagonal", "diag", "diag_embed", "trace", "fill_diagonal_", "baddbmm", "einsum",
    "cumsum", "cumprod", "prod", "aminmax", "sort", "argsort", "topk", "kthvalue", "median",
    "cummax", "unique", "bincount", "histc",
    "scatter", "scatter_", "scatter_add", "scatter_add_", "index_add", "index_add_", "index_put",
    "index_put_",
    "new_zeros", "new_ones", "new_full", "new_empty", "new_tensor", "type_as", "multinomial",
    "bernoulli",
]

# ----------------------------------------------------------------------------------------- math


@primitive("log1p", node="Log1PBackward0", group=ELEMENTWISE, saves=("a",))
def _log1p(a):
    return np.log1p(a)


@_log1p.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad / (a + 1)


@primitive("expm1", node="Expm1Backward0", group=ELEMENTWISE, saves=("out",))
def _expm1(a):
    return np.expm1(a)


@_expm1.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * (out + 1)


@primitive("sinh", node="SinhBackward0", group=ELEMENTWISE, saves=("a",))
def _sinh(a):
    return np.sinh(a)


@_sinh.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _cosh(a)


@primitive("cosh", node="CoshBackward0", group=ELEMENTWISE, saves=("a",))
def _cosh(a):
    return np.cosh(a)


@_cosh.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * _sinh(a)


@primitive("tan", node="TanBackward0", group=ELEMENTWISE, saves=("out",))
def _tan(a):
    return np.tan(a)


@_tan.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * (out * out + 1)


@primitive("atan", node="AtanBackward0", group=ELEMENTWISE, saves=("a",))
def _atan(a):
    return np.arctan(a)


@_atan.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad / (a * a + 1)


@primitive("asin", node="AsinBackward0", group=ELEMENTWISE, saves=("a",))
def _asin(a):
    return np.arcsin(a)


@primitive("acos", node="AcosBackward0", group=ELEMENTWISE, saves=("a",))
def _acos(a):
    return np.arccos(a)


@_asin.vjp
@_acos.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    slope = grad / sqrt(1 - a * a)
    return slope if ctx.primitive is _asin else -slope


@primitive("erf", node="ErfBackward0", group=ELEMENTWISE, saves=("a",))
def _erf_forward(a):
    return _erf(a)


@_erf_forward.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad * (2 / math.sqrt(math.pi)) * exp(-(a * a))


@primitive("rsqrt", node="RsqrtBackward0", group=ELEMENTWISE, saves=("out",))
def _rsqrt(a):
    return 1 / np.sqrt(a)


@_rsqrt.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * (out * out * out) * -0.5


@primitive("log2", node="Log2Backward0", group=ELEMENTWISE, saves=("a",))
def _log2(a):
    return np.log2(a)


@primitive("log10", node="Log10Backward0", group=ELEMENTWISE, saves=("a",))
def _log10(a):
    # numpy's float32 log10 misses exact powers of ten (log10(100) = 2.0000002); float64 does not
    return np.log10(a, dtype=np.float64).astype(a.dtype) if a.dtype == np.float32 else np.log10(a)


@_log2.vjp
@_log10.vjp
def _(ctx, grad):
    (a,) = ctx.saved
    return grad / (a * (math.log(2) if ctx.primitive is _log2 else math.log(10)))


@primitive("exp2", node="Exp2Backward0", group=ELEMENTWISE, saves=("out",))
def _exp2(a):
    return np.exp2(a)


@_exp2.vjp
def _(ctx, grad):
    (out,) = ctx.saved
    return grad * out * math.log(2)


@primitive("frac", node="FracBackward0", group=ELEMENTWISE)
def _frac(a):
    return a - np.trunc(a)


@_frac.vjp
def _(ctx, grad):
    return grad


@primitive("atan2", node="Atan2Backward0", group=ELEMENTWISE, saves=("a", "b"),
           error=broadcast_error)
def _atan2(a, b):
    return np.arctan2(a, b)


@_atan2.vjp
def _(ctx, grad):
    a, b = ctx.saved
    scale = grad / (a * a + b * b)
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(scale * b, ctx.input_shapes[0]) if need_a else None,
            sum_to(scale * -a, ctx.input_shapes[1]) if need_b else None)


@primitive("lerp", node="LerpBackward0", group=ELEMENTWISE, error=broadcast_error)
def _lerp(start, end, weight):
    return start + weight * (end - start)


@_lerp.vjp
def _(ctx, grad, weight):
    need_start, need_end = ctx.needs_input_grad
    return (sum_to(grad * (1 - weight), ctx.input_shapes[0]) if need_start else None,
            sum_to(grad * weight, ctx.input_shapes[1]) if need_end else None)


@primitive("lerp_tensor", node="LerpBackward1", group=ELEMENTWISE, saves=("start", "end",
                                                                          "weight"))
def _lerp_tensor(start, end, weight):
    return start + weight * (end - start)


@_lerp_tensor.vjp
def _(ctx, grad):
    start, end, weight = ctx.saved
    need_start, need_end, need_weight = ctx.needs_input_grad
    return (sum_to(grad * (1 - weight), ctx.input_shapes[0]) if need_start else None,
            sum_to(grad * weight, ctx.input_shapes[1]) if need_end else None,
            sum_to(grad * (end - start), ctx.input_shapes[2]) if need_weight else None)


@primitive("logit", node="LogitBackward0", group=ELEMENTWISE, saves=("a",))
def _logit(a, eps):
    if eps is not None:
        a = np.clip(a, eps, 1 - eps)
    return np.log(a / (1 - a))


@_logit.vjp
def _(ctx, grad, eps):
    (a,) = ctx.saved
    slope = grad / (a * (1 - a))
    if eps is None:
        return slope
    return where((a < eps) | (a > 1 - eps), 0.0, slope)  # clamped away: no dependence


@primitive("nan_to_num", node="NanToNumBackward0", group=ELEMENTWISE, saves=("a",))
def _nan_to_num(a, nan, posinf, neginf):
    return np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)


@_nan_to_num.vjp
def _(ctx, grad, nan, posinf, neginf):
    (a,) = ctx.saved
    return where(isfinite(a), grad, 0.0)


def atan2(input, other):
    a, b = promote(input, other)
    return _atan2(_floating(a), _floating(b))


arctan2 = atan2


def lerp(input, end, weight):
    if isinstance(weight, Tensor):
        return _lerp_tensor(input, end, weight)
    return _lerp(input, end, weight=weight)


def logit(input, eps=None):
    return _logit(_floating(input), eps=eps)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    return _nan_to_num(input, nan=nan, posinf=posinf, neginf=neginf)


def log1p(input):
    return _log1p(_floating(input))


def expm1(input):
    return _expm1(_floating(input))


def sinh(input):
    return _sinh(_floating(input))


def cosh(input):
    return _cosh(_floating(input))


def tan(input):
    return _tan(_floating(input))


def atan(input):
    return _atan(_floating(input))


def asin(input):
    return _asin(_floating(input))


def acos(input):
    return _acos(_floating(input))


def erf(input):
    return _erf_forward(_floating(input))


def rsqrt(input):
    return _rsqrt(_floating(input))


def log2(input):
    return _log2(_floating(input))


def log10(input):
    return _log10(_floating(input))


def exp2(input):
    return _exp2(_floating(input))


# Integers are already whole: trunc leaves them as they are (numpy would make them floats).
trunc = _constant_op("trunc", "TruncBackward0",
                     lambda a: np.trunc(a) if a.dtype.kind == "f" else a.copy(), None)


def frac(input):
    return _frac(input)


# ---------------------------------------------------------------------- flips, rolls, triangles


def _dims_of(dims, ndim):
    return normalize_dims((dims,) if isinstance(dims, int) else tuple(dims), ndim) or ()


@primitive("flip", node="FlipBackward0", group=OTHER)
def _flip(a, dims):
    return np.flip(a, axis=dims).copy()  # PyTorch's flip copies: the result is not a view


@_flip.vjp
def _(ctx, grad, dims):
    return _flip(grad, dims=dims)


def flip(input, *dims):
    """``flip(x, (0, 1))``, ``x.flip(0, 1)`` or ``x.flip(0)``: reverse the order along ``dims``."""
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = dims[0]
    return _flip(input, dims=_dims_of(dims, input._array.ndim))


@primitive("roll", node="RollBackward0", group=OTHER)
def _roll(a, shifts, dims):
    return np.roll(a, shifts, axis=dims)


@_roll.vjp
def _(ctx, grad, shifts, dims):
    back = -shifts if isinstance(shifts, int) else tuple(-s for s in shifts)
    return _roll(grad, shifts=back, dims=dims)


def roll(input, shifts, dims=None):
    """Elements shifted along ``dims`` (all of them, flattened, when None), wrapping around."""
    if dims is None:
        return _roll(input, shifts=shifts if isinstance(shifts, int) else tuple(shifts), dims=None)
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:"
                           f"{len(dims)}")
    ndim = input._array.ndim
    return _roll(input, shifts=shifts, dims=tuple(_dims_of(d, ndim)[0] for d in dims))


def _triangle(name, node, keep):
    """``tril``/``triu``: the entries on one side of a diagonal of the last two dimensions."""
    prim = Primitive(name, lambda a, diagonal: keep(a, diagonal), node=node, group=OTHER)
    prim.vjp(lambda ctx, grad, diagonal: prim(grad, diagonal=diagonal))

    def apply(input, diagonal=0):
        if input._array.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        return prim(input, diagonal=diagonal)
    apply.__name__ = name
    return apply


tril = _triangle("tril", "TrilBackward0", lambda a, k: np.tril(a, k))
triu = _triangle("triu", "TriuBackward0", lambda a, k: np.triu(a, k))


# ------------------------------------------------------------------------------------- repeats


@primitive("repeat", node="RepeatBackward0", group=OTHER)
def _repeat(a, repeats):
    return np.tile(a, repeats)


@_repeat.vjp
def _(ctx, grad, repeats):
    """Each input element received one gradient per copy: fold the copies out and sum them."""
    shape = ctx.input_shapes[0]
    padded = (1,) * (len(repeats) - len(shape)) + tuple(shape)
    folded = [n for pair in zip(repeats, padded) for n in pair]
    copies = tuple(range(0, 2 * len(repeats), 2))
    return reshape(_reduce_sum(reshape(grad, folded), copies), shape)


def repeat(input, *sizes):
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = sizes[0]
    sizes = tuple(builtins.int(s) for s in sizes)
    if len(sizes) < input._array.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"Trying to create tensor with negative dimension {builtins.min(sizes)}"
                           f": {list(sizes)}")
    return _repeat(input, repeats=sizes)


def tile(input, dims):
    dims = tuple(dims)
    return repeat(input, (1,) * (input._array.ndim - len(dims)) + dims)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element repeated in place: ``[1, 2] -> [1, 1, 2, 2]``. With a tensor alone, the
    indices repeated by its counts (``repeat_interleave(tensor([1, 2])) -> [0, 1, 1]``)."""
    if repeats is None:
        counts = input._array
        return Tensor._make(np.repeat(np.arange(counts.size, dtype=np.int64), counts))
    if dim is None:
        input, dim = reshape(input, -1), 0
    dim = _dims_of(dim, input._array.ndim)[0]
    shape = input._array.shape
    if isinstance(repeats, Tensor) and repeats._array.size != 1:
        counts = repeats._array
        if counts.shape != (shape[dim],):
            raise RuntimeError("repeats must have the same size as input along dim")
        positions = np.repeat(np.arange(shape[dim], dtype=np.int64), counts)
        return index_select(input, dim, Tensor._make(positions))
    times = builtins.int(repeats)
    spread = expand(input.unsqueeze(dim + 1), shape[:dim + 1] + (times,) + shape[dim + 1:])
    return spread.contiguous().view(shape[:dim] + (shape[dim] * times,) + shape[dim + 1:])


def _at_least(tensor, ndim):
    """``atleast_1d``/``atleast_2d``: leading size-1 dimensions up to ``ndim``."""
    shape = tensor._array.shape
    return tensor if len(shape) >= ndim else reshape(tensor, (1,) * (ndim - len(shape)) + shape)


def hstack(tensors):
    tensors = [_at_least(t, 1) for t in tensors]
    return cat(tensors, 0 if tensors[0]._array.ndim == 1 else 1)


def vstack(tensors):
    return cat([_at_least(t, 2) for t in tensors], 0)


def broadcast_shapes(*shapes):
    shapes = [(s,) if isinstance(s, int) else tuple(s) for s in shapes]
    try:
        return Size(np.broadcast_shapes(*shapes))
    except ValueError:
        raise RuntimeError(f"Shape mismatch: objects cannot be broadcast to a single shape. "
                           f"Mismatch is between {list(shapes[0])} and {list(shapes[-1])}") from None


def broadcast_tensors(*tensors):
    shape = broadcast_shapes(*(t._array.shape for t in tensors))
    return tuple(t if t._array.shape == shape else expand(t, shape) for t in tensors)


def masked_select(input, mask):
    input, mask = broadcast_tensors(input, mask)
    return getitem(input, mask)


def nonzero(input, *, as_tuple=False):
    if as_tuple:
        return tuple(Tensor._make(i.astype(np.int64)) for i in np.nonzero(input._array))
    return Tensor._make(np.argwhere(input._array).astype(np.int64))


# ----------------------------------------------------------------------- diagonals, traces


def _diagonal_view(a, offset, dim1, dim2):
    """The (writable) strided view of a diagonal, last dimension the diagonal, as PyTorch's."""
    start = [slice(None)] * a.ndim
    if offset >= 0:
        start[dim2] = slice(offset, None)
    else:
        start[dim1] = slice(-offset, None)
    shifted = a[tuple(start)]
    length = builtins.min(shifted.shape[dim1], shifted.shape[dim2])
    rest = [d for d in range(a.ndim) if d not in (dim1, dim2)]
    shape = tuple(shifted.shape[d] for d in rest) + (length,)
    strides = tuple(shifted.strides[d] for d in rest) + (shifted.strides[dim1] +
                                                         shifted.strides[dim2],)
    return np.lib.stride_tricks.as_strided(shifted, shape, strides)


@primitive("diagonal", node="DiagonalBackward0", group=VIEW, is_view=True)
def _diagonal(a, offset, dim1, dim2):
    return _diagonal_view(a, offset, dim1, dim2)


@primitive("diagonal_copy", node="DiagonalBackward0_copy", group=OTHER)
def _diagonal_copy(a, offset, dim1, dim2):
    return _diagonal_view(a, offset, dim1, dim2).copy()


@_diagonal.vjp
@_diagonal_copy.vjp
def _(ctx, grad, offset, dim1, dim2):
    return _diagonal_backward(grad, shape=ctx.input_shapes[0], offset=offset, dim1=dim1,
                              dim2=dim2)


@primitive("diagonal_backward", node="DiagonalBackwardBackward0", group=OTHER)
def _diagonal_backward(grad, shape, offset, dim1, dim2):
    out = np.zeros(shape, dtype=grad.dtype)
    _diagonal_view(out, offset, dim1, dim2)[...] = grad
    return out


@_diagonal_backward.vjp
def _(ctx, grad, shape, offset, dim1, dim2):
    return _diagonal(grad, offset=offset, dim1=dim1, dim2=dim2)


def diagonal(input, offset=0, dim1=0, dim2=1):
    ndim = input._array.ndim
    first, second = _dims_of(dim1, ndim)[0], _dims_of(dim2, ndim)[0]
    if first == second:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return _diagonal(input, offset=offset, dim1=first, dim2=second)


@primitive("diag_embed", node="DiagEmbedBackward0", group=OTHER)
def _diag_embed(a, offset):
    size = a.shape[-1] + builtins.abs(offset)
    out = np.zeros(a.shape[:-1] + (size, size), dtype=a.dtype)
    _diagonal_view(out, offset, out.ndim - 2, out.ndim - 1)[...] = a
    return out


@_diag_embed.vjp
def _(ctx, grad, offset):
    ndim = grad._array.ndim
    return _diagonal(grad, offset=offset, dim1=ndim - 2, dim2=ndim - 1)


def diag_embed(input, offset=0):
    return _diag_embed(input, offset=offset)


def diag(input, diagonal=0):
    """A vector's square diagonal matrix, or a copy of a matrix's diagonal."""
    ndim = input._array.ndim
    if ndim == 1:
        return _diag_embed(input, offset=diagonal)
    if ndim == 2:
        return _diagonal_copy(input, offset=diagonal, dim1=0, dim2=1)
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " f"{ndim}D")


@primitive("trace", node="TraceBackward0", group=OTHER)
def _trace(a):
    return np.trace(a)


@_trace.vjp
def _(ctx, grad):
    rows, columns = ctx.input_shapes[0]
    return expand(grad, (rows, columns)) * eye(rows, columns, dtype=grad.dtype)


def trace(input):
    if input._array.ndim != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim "
                           f"{input._array.ndim}")
    return _trace(input)


def fill_diagonal_(input, fill_value, wrap=False):
    """Fill the main diagonal in place (``a[i, i, …] = value``); ``wrap`` restarts it below a
    tall matrix's square part, every ``columns + 1`` rows, as in PyTorch."""
    shape = input._array.shape
    if len(shape) < 2 or len(set(shape)) != 1 and len(shape) > 2:
        raise RuntimeError("all dimensions of input must be of equal length"
                           if len(shape) > 2 else "dimensions must larger than 1")
    if wrap and len(shape) == 2 and shape[0] > shape[1] + 1:
        flat = input.view(-1)
        fill_(getitem(flat, slice(0, None, shape[1] + 1)), fill_value)
        return input
    target = input
    while target._array.ndim > 1:
        target = diagonal(target, 0, 0, 1)
    fill_(target, fill_value)
    return input


@primitive("baddbmm", node="BaddbmmBackward0", group=OTHER, saves=("batch1", "batch2"))
def _baddbmm(input, batch1, batch2, beta, alpha):
    product = np.matmul(batch1, batch2)
    return alpha * product if beta == 0 else beta * input + alpha * product


@_baddbmm.vjp
def _(ctx, grad, beta, alpha):
    batch1, batch2 = ctx.saved
    need_input, need_1, need_2 = ctx.needs_input_grad
    return (sum_to(grad * beta, ctx.input_shapes[0]) if need_input else None,
            matmul(grad, batch2.transpose(1, 2)) * alpha if need_1 else None,
            matmul(batch1.transpose(1, 2), grad) * alpha if need_2 else None)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t._array.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    (b, n, m), (b2, m2, p) = batch1._array.shape, batch2._array.shape
    if b2 != b or m2 != m:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{b}, {m}] but got: [{b2}, {m2}].")
    np.broadcast_shapes(input._array.shape, (b, n, p))
    return _baddbmm(input, batch1, batch2, beta=beta, alpha=alpha)


# ------------------------------------------------------------------------------------- einsum


def einsum(equation, *operands):
    """Einstein summation, as a sequence of permutes, reductions and batched matmuls (the way
    PyTorch evaluates it, so gradients come from those ops' rules)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    inputs, output = _parse_equation(equation, operands)
    terms = [_reduce_term(t, labels, output, inputs[:i] + inputs[i + 1:])
             for i, (t, labels) in enumerate(zip(operands, inputs))]
    result, labels = terms[0]
    for position in range(1, len(terms)):
        other, other_labels = terms[position]
        needed_later = set(output).union(*(later for _, later in terms[position + 1:]))
        result, labels = _contract(result, labels, other, other_labels, needed_later)
    result, labels = _reduce_term(result, labels, output, [])
    return permute(result, [labels.index(c) for c in output]) if labels != output else result


def _parse_equation(equation, operands):
    """Input label strings and the output's, with ``...`` spelled out as unused letters."""
    equation = equation.replace(" ", "")
    lhs, arrow, rhs = equation.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation"
                           if len(operands) > len(inputs) else
                           "einsum(): fewer operands were provided than specified in the equation")
    spare = [c for c in string.ascii_letters if c not in equation]
    batch_rank = builtins.max((t._array.ndim - len(s.replace("...", "")) for s, t in
                               zip(inputs, operands) if "..." in s), default=0)
    ellipsis = "".join(spare[:batch_rank])
    expanded = []
    for labels, t in zip(inputs, operands):
        if "..." in labels:
            own = t._array.ndim - len(labels.replace("...", ""))
            labels = labels.replace("...", ellipsis[batch_rank - own:])
        if len(labels) != t._array.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({len(labels)}) does not match the number of dimensions "
                               f"({t._array.ndim}) for operand {len(expanded)}"
                               f"{'' if '...' in lhs else ' and no ellipsis was given'}")
        expanded.append(labels)
    if arrow:
        output = rhs.replace("...", ellipsis)
        for label in output:
            if not any(label in labels for labels in expanded):
                raise RuntimeError(f"einsum(): output subscript {label} does not appear in the "
                                   "equation for any input operand")
    else:  # implicit output: the ellipsis, then the labels used once, in alphabetical order
        counts = collections.Counter("".join(inputs).replace("...", ""))
        output = ellipsis + "".join(sorted(c for c, n in counts.items() if n == 1))
    return expanded, output


def _reduce_term(t, labels, output, others):
    """Take diagonals of repeated labels and sum out labels no other term or the output uses."""
    for label in set(labels):
        while labels.count(label) > 1:
            first = labels.index(label)
            second = labels.index(label, first + 1)
            t = diagonal(t, 0, first, second)
            labels = "".join(c for i, c in enumerate(labels) if i not in (first, second)) + label
    needed = set(output).union(*others)
    lonely = tuple(i for i, c in enumerate(labels) if c not in needed)
    if lonely:
        t = _reduce_sum(t, lonely)
        labels = "".join(c for i, c in enumerate(labels) if i not in lonely)
    return t, labels


def _contract(a, a_labels, b, b_labels, keep):
    """Two terms as one batched matmul: shared labels that stay become the batch, shared labels
    that go are contracted, the others are the rows (``a``) and columns (``b``)."""
    shared = [c for c in a_labels if c in b_labels]
    batch = [c for c in shared if c in keep]
    summed = [c for c in shared if c not in keep]
    rows = [c for c in a_labels if c not in b_labels]
    columns = [c for c in b_labels if c not in a_labels]
    sizes = {**dict(zip(b_labels, b._array.shape)), **dict(zip(a_labels, a._array.shape))}
    for c in shared:
        if a._array.shape[a_labels.index(c)] != b._array.shape[b_labels.index(c)]:
            raise RuntimeError(f"einsum(): operands do not broadcast with remapped shapes "
                               f"(original->remapped): {list(a._array.shape)} and "
                               f"{list(b._array.shape)}")

    def size(labels):
        return math.prod(sizes[c] for c in labels)

    a = reshape(permute(a, [a_labels.index(c) for c in batch + rows + summed]),
                (size(batch), size(rows), size(summed)))
    b = reshape(permute(b, [b_labels.index(c) for c in batch + summed + columns]),
                (size(batch), size(summed), size(columns)))
    product = matmul(a, b)
    labels = batch + rows + columns
    return reshape(product, tuple(sizes[c] for c in labels)), "".join(labels)


# ---------------------------------------------------------------------- cumulative, products


@primitive("cumsum", node="CumsumBackward0", group=OTHER)
def _cumsum(a, dim):
    return np.cumsum(a, axis=dim, dtype=np.int64 if a.dtype.kind in "biu" else None)


@_cumsum.vjp
def _(ctx, grad, dim):
    return _reverse_cumsum(grad, dim)  # input i reaches every output from i on


def cumsum(input, dim, *, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    if input._array.ndim == 0:
        _dims_of(dim, 0)  # still refuses a dimension out of range
        return reshape(_cumsum(reshape(input, (1,)), dim=0), ())
    return _cumsum(input, dim=_dims_of(dim, input._array.ndim)[0])


@primitive("cumprod", node="CumprodBackward0", group=OTHER, saves=("a", "out"))
def _cumprod(a, dim):
    return np.cumprod(a, axis=dim, dtype=np.int64 if a.dtype.kind in "biu" else None)


@_cumprod.vjp
def _(ctx, grad, dim):
    """Input i reaches output k >= i as the product of the others up to k. Before the first zero
    of a slice that is ``out_k / a_i``; at the first zero, the running product with that zero
    taken as one; after it, nothing reaches (every path multiplies by that zero)."""
    a, out = ctx.saved
    is_zero = a == 0
    zeros_so_far = _cumsum(is_zero, dim=dim)
    first_zero = is_zero & (zeros_so_far == 1)
    before_zeros = _reverse_cumsum(grad * out, dim) / where(is_zero, 1.0, a)
    zero_as_one = _cumprod(where(first_zero, 1.0, a), dim=dim)
    at_first_zero = _reduce_sum(where(zeros_so_far >= 1, grad * zero_as_one, 0.0), (dim,),
                                keepdim=True)
    return where(zeros_so_far == 0, before_zeros, where(first_zero, at_first_zero, 0.0))


def _reverse_cumsum(t, dim):
    return _flip(_cumsum(_flip(t, dims=(dim,)), dim=dim), dims=(dim,))


def cumprod(input, dim, *, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    if input._array.ndim == 0:
        _dims_of(dim, 0)
        return reshape(_cumprod(reshape(input, (1,)), dim=0), ())
    return _cumprod(input, dim=_dims_of(dim, input._array.ndim)[0])


def _prod_forward(a, dims, keepdim):
    return np.prod(a, axis=dims, keepdims=keepdim,
                   dtype=np.int64 if a.dtype.kind in "biu" else None)


_prod_all = Primitive("prod_all", _prod_forward, node="ProdBackward0", group=REDUCTION,
                      saves=("a",))
_prod = Primitive("prod", _prod_forward, node="ProdBackward1", group=REDUCTION, saves=("a",))


@_prod_all.vjp
@_prod.vjp
def _(ctx, grad, dims, keepdim):
    """d prod / d a_i is the product of the others; computed without dividing by a zero: one
    zero leaves a gradient at that position only, two leave none. (Second derivatives at inputs
    holding a zero are not exact: the rule treats the other positions' zero gradient as constant.)
    """
    (a,) = ctx.saved
    shape = ctx.input_shapes[0]
    reduced = tuple(range(len(shape))) if dims is None else dims
    is_zero = a == 0
    safe = where(is_zero, 1.0, a)
    product_of_nonzeros = _prod(safe, dims=reduced, keepdim=True)
    zero_count = _reduce_sum(is_zero, reduced, keepdim=True)
    local = where(zero_count == 0, product_of_nonzeros / safe,
                  where(is_zero & (zero_count == 1), product_of_nonzeros, 0.0))
    if not keepdim:
        grad = reshape(grad, tuple(1 if d in reduced else s for d, s in enumerate(shape)))
    return grad * local


def prod(input, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:
        return _prod_all(input, dims=None, keepdim=False)
    if not isinstance(dim, int):
        raise TypeError("prod(): argument 'dim' must be int")
    return _prod(input, dims=_dims_of(dim, input._array.ndim) or None, keepdim=keepdim)


# ----------------------------------------------------------------------------------- sorting


class _NamedValuesIndices(return_types._ValuesIndices):
    """``torch.return_types.<name>(values=..., indices=...)``."""


def _named(name):
    return type(name, (_NamedValuesIndices,), {"_name": name})


SORT_RESULT = _named("sort")
TOPK_RESULT = _named("topk")
KTHVALUE_RESULT = _named("kthvalue")
MEDIAN_RESULT = _named("median")
CUMMAX_RESULT = _named("cummax")


def _take_along_forward(a, indices, *, dim, keepdim):
    if dim is None:
        return a.reshape(-1)[indices].reshape(())
    values = np.take_along_axis(a, indices, axis=dim)
    return values if keepdim else values.squeeze(dim)


def _take_along(name, node):
    """A value-selecting primitive: ``values = input`` at ``indices`` along ``dim``."""
    prim = Primitive(name, _take_along_forward, node=node, group=OTHER, saves=("indices",))

    @prim.vjp
    def _(ctx, grad, dim, keepdim):
        (indices,) = ctx.saved
        shape = ctx.input_shapes[0]
        if dim is None:
            flat = _scatter_add(zeros(math.prod(shape), dtype=grad.dtype), indices,
                                reshape(grad, (1,)), dim=0)
            return reshape(flat, shape), None
        if not keepdim:
            grad = grad.unsqueeze(dim)
        return _scatter_add(zeros(shape, dtype=grad.dtype), indices, grad, dim=dim), None
    return prim


_sort_values = _take_along("sort", "SortBackward0")
_topk_values = _take_along("topk", "TopkBackward0")
_kthvalue_values = _take_along("kthvalue", "KthvalueBackward0")
_median_all_values = _take_along("median_all", "MedianBackward0")
_median_values = _take_along("median", "MedianBackward1")
_cummax_values = _take_along("cummax", "CummaxBackward0")


def _sort_order(a, dim, descending):
    """Stable ordering indices along ``dim``; NaN counts as the largest value, as in PyTorch."""
    if not descending:
        return np.argsort(a, axis=dim, kind="stable")
    reversed_order = np.argsort(np.flip(a, axis=dim), axis=dim, kind="stable")
    return a.shape[dim] - 1 - np.flip(reversed_order, axis=dim)


def _sort_dim(input, dim):
    if input._array.ndim == 0:
        return None
    return _dims_of(dim, input._array.ndim)[0]


def _with_values(prim, input, order, dim, keepdim=True):
    """Values at ``order`` (numpy indices along ``dim``) recorded by ``prim``, and the indices."""
    order = np.ascontiguousarray(order, dtype=np.int64)
    values = prim(input, Tensor._make(order), dim=dim, keepdim=keepdim)
    return values, Tensor._make(order if keepdim else order.squeeze(dim))


def sort(input, dim=-1, descending=False, stable=False):
    dim = _sort_dim(input, dim)
    if dim is None:
        return SORT_RESULT(input.clone(), zeros((), dtype=dtypes.int64))
    order = _sort_order(input._array, dim, descending)
    return SORT_RESULT(*_with_values(_sort_values, input, order, dim))


def argsort(input, dim=-1, descending=False, stable=False):
    dim = _sort_dim(input, dim)
    if dim is None:
        return zeros((), dtype=dtypes.int64)
    return Tensor._make(_sort_order(input._array, dim, descending).astype(np.int64))


def topk(input, k, dim=-1, largest=True, sorted=True):
    dim = _sort_dim(input, dim)
    size = 1 if dim is None else input._array.shape[dim]
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if dim is None:
        return TOPK_RESULT(input.clone(), zeros((), dtype=dtypes.int64))
    order = _sort_order(input._array, dim, largest)
    first_k = np.take(order, np.arange(k), axis=dim)
    return TOPK_RESULT(*_with_values(_topk_values, input, first_k, dim))


def kthvalue(input, k, dim=-1, keepdim=False):
    dim = _sort_dim(input, dim)
    size = 1 if dim is None else input._array.shape[dim]
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    order = _sort_order(input._array, dim, False)
    kth = np.take(order, [k - 1], axis=dim)
    return KTHVALUE_RESULT(*_with_values(_kthvalue_values, input, kth, dim, keepdim))


def median(input, dim=None, keepdim=False):
    """The lower median (no averaging of the two middle values), as PyTorch computes it."""
    if dim is None:
        flat = input._array.reshape(-1)
        if flat.size == 0:
            return Tensor._make(np.array(np.nan, dtype=flat.dtype))
        position = np.argsort(flat, kind="stable")[(flat.size - 1) // 2: (flat.size + 1) // 2]
        return _median_all_values(input, Tensor._make(position.astype(np.int64)), dim=None,
                                  keepdim=False)
    dim = _sort_dim(input, dim)
    order = _sort_order(input._array, dim, False)
    middle = np.take(order, [(input._array.shape[dim] - 1) // 2], axis=dim)
    return MEDIAN_RESULT(*_with_values(_median_values, input, middle, dim, keepdim))


def cummax(input, dim):
    """Running maxima along ``dim`` and where each was found (the latest position on ties)."""
    dim = _dims_of(dim, input._array.ndim)[0]
    a = np.moveaxis(input._array, dim, -1)
    best = np.zeros(a.shape, dtype=np.int64)
    for i in range(1, a.shape[-1]):
        previous = np.take_along_axis(a, best[..., i - 1:i], axis=-1)[..., 0]
        best[..., i] = np.where((a[..., i] >= previous) | np.isnan(a[..., i]), i, best[..., i - 1])
    return CUMMAX_RESULT(*_with_values(_cummax_values, input, np.moveaxis(best, -1, dim), dim))


class AMINMAX_RESULT(tuple):
    """``torch.return_types.aminmax(min=..., max=...)``."""

    def __new__(cls, min, max):
        return tuple.__new__(cls, (min, max))

    min = property(lambda self: self[0])
    max = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.aminmax(\nmin={self.min!r},\nmax={self.max!r})"


def aminmax(input, *, dim=None, keepdim=False):
    dims = () if dim is None else dim
    return AMINMAX_RESULT(amin(input, dims, keepdim), amax(input, dims, keepdim))


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    values, inverse, counts = np.unique(input._array, return_inverse=True, return_counts=True,
                                        axis=dim)
    result = [Tensor._make(values)]
    if return_inverse:
        result.append(Tensor._make(inverse.reshape(input._array.shape if dim is None else -1)
                                   .astype(np.int64)))
    if return_counts:
        result.append(Tensor._make(counts.astype(np.int64)))
    return result[0] if len(result) == 1 else tuple(result)


def bincount(input, weights=None, minlength=0):
    values = input._array
    if values.ndim != 1 or values.dtype.kind not in "iu" or (values.size and values.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return Tensor._make(np.bincount(values, minlength=minlength).astype(np.int64))
    counts = np.bincount(values, weights=weights._array, minlength=minlength)
    return Tensor._make(counts.astype(weights._array.dtype if weights._array.dtype.kind == "f"
                                      else np.float64))


def histc(input, bins=100, min=0, max=0):
    """Counts in ``bins`` equal bins over [min, max] (the data's range when both are 0); values
    outside are ignored; the counts have the input's dtype."""
    values = input._array
    if values.dtype.kind != "f":
        raise RuntimeError(f'"histogram_cpu" not implemented for '
                           f"'{_LEGACY_TYPE_NAMES[values.dtype.name]}'")
    low, high = builtins.float(min), builtins.float(max)
    if low == high and values.size:
        low, high = builtins.float(values.min()), builtins.float(values.max())
    if low == high:
        low, high = low - 1, high + 1
    if low > high:
        raise RuntimeError("torch.histc: max must be larger than min")
    counts, _ = np.histogram(values, bins=bins, range=(low, high))
    return Tensor._make(counts.astype(values.dtype))


# ------------------------------------------------------------------------- scatter, index_add


def _scatter_key(index, dim):
    """The numpy key that addresses ``out[..., index[i][j], ...]`` along ``dim`` (gather's key)."""
    grids = np.indices(index.shape, sparse=True)
    return tuple(index if d == dim else grids[d] for d in range(index.ndim))


def _leading(src, shape):
    """The leading block of ``src`` that the index covers (src may be larger than the index)."""
    return src[tuple(slice(0, n) for n in shape)]


@primitive("scatter", node="ScatterBackward0", group=OTHER, saves=("index",))
def _scatter(a, index, src, *, dim):
    out = a.copy()
    out[_scatter_key(index, dim)] = _leading(src, index.shape)
    return out


@primitive("scatter_value", node="ScatterBackward1", group=OTHER, saves=("index",))
def _scatter_value(a, index, *, dim, value):
    out = a.copy()
    out[_scatter_key(index, dim)] = value
    return out


@primitive("scatter_add", node="ScatterAddBackward0", group=OTHER, saves=("index",))
def _scatter_add(a, index, src, *, dim):
    out = a.copy()
    np.add.at(out, _scatter_key(index, dim), _leading(src, index.shape))
    return out


def _src_grad(grad, index, dim, src_shape):
    """The gradient of a scatter's ``src``: ``grad`` gathered at the index, zero elsewhere."""
    picked = gather(grad, dim, index)
    if picked._array.shape == tuple(src_shape):
        return picked
    key = tuple(slice(0, n) for n in index._array.shape)
    return _index_backward(picked, shape=tuple(src_shape), key=key)


@_scatter.vjp
def _(ctx, grad, dim):
    (index,) = ctx.saved
    need_a, _, need_src = ctx.needs_input_grad
    return (_scatter_value(grad, index, dim=dim, value=0) if need_a else None, None,
            _src_grad(grad, index, dim, ctx.input_shapes[2]) if need_src else None)


@_scatter_value.vjp
def _(ctx, grad, dim, value):
    (index,) = ctx.saved
    return _scatter_value(grad, index, dim=dim, value=0), None


@_scatter_add.vjp
def _(ctx, grad, dim):
    (index,) = ctx.saved
    need_a, _, need_src = ctx.needs_input_grad
    return (grad if need_a else None, None,
            _src_grad(grad, index, dim, ctx.input_shapes[2]) if need_src else None)


def _check_scatter(name, input, dim, index, src):
    """PyTorch's checks: an int64 index of the input's rank, no larger than the input (and the
    source) outside ``dim``, its values inside ``dim``; a source of the input's dtype."""
    positions, shape = index._array, input._array.shape
    if positions.dtype != np.int64:
        raise RuntimeError(f"{name}(): Expected dtype int64 for index")
    if isinstance(src, Tensor) and src._array.dtype != input._array.dtype:
        raise RuntimeError(f"{name}(): Expected self.dtype to be equal to src.dtype")
    if positions.ndim != len(shape):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    dim = _dims_of(dim, len(shape))[0]
    for d, size in enumerate(positions.shape):
        if d != dim and size > shape[d] or isinstance(src, Tensor) and size > src._array.shape[d]:
            raise RuntimeError(f"Expected index {list(positions.shape)} to be no larger than self "
                               f"{list(shape)} apart from dimension {dim}"
                               + (f" and to be no larger size than src "
                                  f"{list(src._array.shape)}" if isinstance(src, Tensor) else ""))
    outside = (positions < 0) | (positions >= shape[dim])
    if outside.any():
        raise RuntimeError(f"index {positions[outside].flat[0]} is out of bounds for dimension "
                           f"{dim} with size {shape[dim]}")
    return dim


def _scatter_call(input, dim, index, src, value, apply):
    """``scatter`` with a source tensor (ScatterBackward0) or a number (ScatterBackward1)."""
    if value is None and not isinstance(src, Tensor):
        src, value = None, src
    dim = _check_scatter("scatter", input, dim, index, src)
    if src is not None:
        return apply(_scatter, (index, src), {"dim": dim})
    value = np.array(value, dtype=input._array.dtype).item()
    return apply(_scatter_value, (index,), {"dim": dim, "value": value})


def scatter(input, dim, index, src=None, *, value=None):
    return _scatter_call(input, dim, index, src, value,
                         lambda prim, others, params: prim(input, *others, **params))


def scatter_(input, dim, index, src=None, *, value=None):
    return _scatter_call(input, dim, index, src, value,
                         lambda prim, others, params: apply_inplace(prim, input, others, params))


def scatter_add(input, dim, index, src):
    dim = _check_scatter("scatter_add", input, dim, index, src)
    return _scatter_add(input, index, src, dim=dim)


def scatter_add_(input, dim, index, src):
    dim = _check_scatter("scatter_add", input, dim, index, src)
    return apply_inplace(_scatter_add, input, (index, src), {"dim": dim})


@primitive("index_add", node="IndexAddBackward0", group=OTHER, saves=("index",))
def _index_add(a, index, source, *, dim, alpha):
    out = a.copy()
    np.add.at(out, (slice(None),) * dim + (index,), source * alpha if alpha != 1 else source)
    return out


@_index_add.vjp
def _(ctx, grad, dim, alpha):
    (index,) = ctx.saved
    need_a, _, need_source = ctx.needs_input_grad
    picked = index_select(grad, dim, index) if need_source else None
    return (grad if need_a else None, None,
            (picked * alpha if alpha != 1 else picked) if need_source else None)


def _check_index_add(input, dim, index, source):
    dim = _dims_of(dim, input._array.ndim)[0]
    positions = index._array
    if positions.ndim > 1 or positions.dtype.kind not in "iu":
        raise RuntimeError("index_add_(): Index is supposed to be a vector of integers")
    expected = input._array.shape[:dim] + (positions.size,) + input._array.shape[dim + 1:]
    if source._array.shape != expected:
        raise RuntimeError(f"index_add_(): Source/destination tensor must have same slice "
                           f"shapes. Destination slice shape: {list(input._array.shape)} at "
                           f"dimension {dim} and source slice shape: "
                           f"{list(source._array.shape)} at dimension {dim}.")
    if positions.size and (positions.min() < -input._array.shape[dim] or
                           positions.max() >= input._array.shape[dim]):
        raise IndexError("index out of range in self")
    return dim


def index_add(input, dim, index, source, *, alpha=1):
    dim = _check_index_add(input, dim, index, source)
    return _index_add(input, index, source, dim=dim, alpha=alpha)


def index_add_(input, dim, index, source, *, alpha=1):
    dim = _check_index_add(input, dim, index, source)
    return apply_inplace(_index_add, input, (index, source), {"dim": dim, "alpha": alpha})


@primitive("index_put_accumulate", node="IndexPutBackward0", group=OTHER)
def _index_put_accumulate(a, values, *, key):
    out = a.copy()
    np.add.at(out, key, values)
    return out


@_index_put_accumulate.vjp
def _(ctx, grad, key):
    need_a, need_values = ctx.needs_input_grad
    return (grad if need_a else None,
            sum_to(getitem(grad, key), ctx.input_shapes[1]) if need_values else None)


def _index_key(indices):
    if not isinstance(indices, (tuple, list)):
        raise TypeError("index_put(): argument 'indices' must be tuple of Tensors")
    return tuple(i._array if isinstance(i, Tensor) else np.asarray(i) for i in indices)


def index_put(input, indices, values, accumulate=False):
    return index_put_(input.clone(), indices, values, accumulate)


def index_put_(input, indices, values, accumulate=False):
    """``input[indices] = values``, or ``+=`` with repeated indices adding up (``accumulate``)."""
    if not accumulate:
        input[tuple(indices)] = values
        return input
    if values._array.dtype != input._array.dtype:
        raise RuntimeError("Index put requires the source and destination dtypes match, got "
                           f"{input.dtype.name.capitalize()} for the destination and "
                           f"{values.dtype.name.capitalize()} for the source.")
    return apply_inplace(_index_put_accumulate, input, (values,), {"key": _index_key(indices)})


# --------------------------------------------------------------------------------- factories


def _factory_dtype(self, dtype):
    return self.dtype if dtype is None else dtype


def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
    return zeros(*size, dtype=_factory_dtype(self, dtype), requires_grad=requires_grad)


def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
    from .creation import ones
    return ones(*size, dtype=_factory_dtype(self, dtype), requires_grad=requires_grad)


def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
    from .creation import empty
    return empty(*size, dtype=_factory_dtype(self, dtype), requires_grad=requires_grad)


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
    from .creation import full
    return full(size, fill_value, dtype=_factory_dtype(self, dtype), requires_grad=requires_grad)


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    return tensor(data, dtype=_factory_dtype(self, dtype), requires_grad=requires_grad)


def type_as(self, other):
    return self.to(other.dtype)


# ------------------------------------------------------------------------------------ random


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Draw category indices with probabilities proportional to each row of ``input``."""
    weights = input._array.astype(np.float64)
    rows = weights.reshape(-1, weights.shape[-1])
    if (rows < 0).any() or not np.isfinite(rows).all():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (rows.sum(axis=1) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if not replacement and num_samples > rows.shape[1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if not replacement and (np.count_nonzero(rows, axis=1) < num_samples).any():
        raise RuntimeError("invalid multinomial distribution (with replacement=False, not enough "
                           "non-negative category to sample)")
    rng = random.generator(generator)
    draws = [rng.choice(row.size, num_samples, replace=replacement, p=row / row.sum())
             for row in rows]
    return Tensor._make(np.array(draws, dtype=np.int64).reshape(weights.shape[:-1] +
                                                                (num_samples,)))


def bernoulli(input, p=None, *, generator=None):
    """Ones with probability ``input`` (or ``p``), zeros otherwise, in ``input``'s dtype."""
    probability = input._array if p is None else np.full(input._array.shape, p)
    draws = random.generator(generator).random(input._array.shape) < probability
    return Tensor._make(draws.astype(input._array.dtype if input._array.dtype.kind == "f"
                                     else dtypes.get_default_dtype().numpy))

