"""Matrix products. ``matmul`` decomposes into dot, mv, mm or bmm (with the reshapes and expands
around them) exactly as PyTorch does, so it records PyTorch's graph; ``addmm`` is the fused
``beta * bias + alpha * x @ W.T`` that ``nn.Linear`` records as ``AddmmBackward0``."""
import builtins
import math
import warnings

import numpy as np

from ..autograd.grad_mode import no_grad
from ..tensor import _LEGACY_TYPE_NAMES, Tensor, _warn_once, _wrap_dim
from .broadcast import expand, expand_shape, sum_to
from .operands import CPP_TYPE_NAMES, broadcast_error, not_a_tensor
from .registry import OTHER, VIEW, primitive

__all__ = ["matmul", "mm", "bmm", "mv", "dot", "vdot", "addmm", "addmv", "addr", "baddbmm",
           "addbmm", "outer", "ger", "inner", "kron", "tensordot", "multi_dot", "chain_matmul",
           "cross", "addmm_", "addmv_", "baddbmm_"]


def _product(a, b):
    if a.dtype != b.dtype:  # numpy would promote; PyTorch refuses, in each op's words (``error``)
        raise TypeError("operands of different dtypes")
    return a @ b


def _mm_shapes_error(a, b):
    """PyTorch's message for matrices that cannot be multiplied; None when they can."""
    (n, m), (m2, p) = a._array.shape, b._array.shape
    if m == m2:
        return None
    return f"mat1 and mat2 shapes cannot be multiplied ({n}x{m} and {m2}x{p})"


def _mm_error(inputs, params):
    a, b = inputs
    return _mm_shapes_error(a, b) or (f"expected m1 and m2 to have the same dtype, but got: "
                                      f"{_cpp_name(a)} != {_cpp_name(b)}")


def _addmm_error(inputs, params):
    bias, a, b = inputs
    message = _mm_shapes_error(a, b)
    if message:
        return message
    rows, columns = a._array.shape[0], b._array.shape[1]
    try:  # the product is fine: the bias does not expand to it
        expand_shape(bias, (rows, columns))
    except RuntimeError as exc:
        return str(exc)
    return f"bias of shape {list(bias._array.shape)} does not expand to {[rows, columns]}"


def _dot_error(inputs, params):
    a, b = (t._array.shape for t in inputs)
    return (f"inconsistent tensor size, expected tensor [{a[0]}] and src [{b[0]}] to have the same "
            f"number of elements, but got {a[0]} and {b[0]} elements respectively")


def _mv_error(inputs, params):
    mat, vec = inputs
    (n, m), (m2,) = mat._array.shape, vec._array.shape
    if m != m2:
        return f"size mismatch, got input ({n}), mat ({n}x{m}), vec ({m2})"
    return (f"addmv input tensors must have the same dtype, but got {_kind(vec)}, {_kind(mat)}, "
            f"and {_kind(vec)}")


def _batched_error(inputs, params):
    a, b = inputs
    return _batched_shapes_error(a, b) or _scalar_type_error(a, b)


def _batched_shapes_error(a, b):
    """PyTorch's message for batches of matrices that cannot be multiplied (numpy would
    broadcast a batch of one); None when they can."""
    (batch, _, inner), (batch2, inner2, _) = a._array.shape, b._array.shape
    if (batch, inner) != (batch2, inner2):
        return (f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, "
                f"{inner}] but got: [{batch2}, {inner2}].")
    return None


def _scalar_type_error(a, b):
    return f"expected scalar type {_kind(a)} but found {_kind(b)}"


def _kind(tensor):
    """PyTorch's name of a dtype in most messages: Float, Double, Long …"""
    return _LEGACY_TYPE_NAMES[tensor._array.dtype.name]


def _cpp_name(tensor):
    return CPP_TYPE_NAMES[tensor._array.dtype.name]


def _both_tensors(a, b):
    return isinstance(a, Tensor) and isinstance(b, Tensor)


def _argument_error(function, names, values):
    """PyTorch's TypeError for a product of something that is not a tensor."""
    position, name, value = next((i, n, v) for i, (n, v) in enumerate(zip(names, values), 1)
                                 if not isinstance(v, Tensor))
    return not_a_tensor(function, name, position, value)


_mm = primitive("mm", node="MmBackward0", group=OTHER, saves=("a", "b"),
                saves_for={"a": ("b",), "b": ("a",)}, notes_transposed="b",
                error=_mm_error)(_product)
_bmm = primitive("bmm", node="BmmBackward0", group=OTHER, saves=("a", "b"),
                 saves_for={"a": ("b",), "b": ("a",)}, error=_batched_error)(_product)
_mv = primitive("mv", node="MvBackward0", group=OTHER, saves=("a", "b"),
                saves_for={"a": ("b",), "b": ("a",)}, error=_mv_error)(_product)


@_mm.vjp
@_bmm.vjp
def _(ctx, grad, transposed=False):
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(grad @ _matrix_t(b), ctx.input_shapes[0]) if need_a else None,
            sum_to(_second_factor_grad(a, grad, transposed), ctx.input_shapes[1])
            if need_b else None)


def _matrix_t(x):
    """The transpose of each matrix, as PyTorch's backward formulas take it (so that a graph
    built with ``create_graph`` has its nodes): ``t()`` of a matrix (its primitive, called
    directly: ``Tensor.t`` only adds two calls and a check that a matrix passes), ``transpose``
    of a batch."""
    return _t(x, dims=(1, 0)) if x._array.ndim == 2 else x.mT


def _second_factor_grad(a, grad, transposed):
    """``a.mT @ grad``, made in the second factor's memory layout as PyTorch's
    ``mm_mat2_backward`` does: for a transposed matrix (``nn.Linear``'s ``weight.t()``) the
    product is computed transposed, so that the gradient reaching the weight is C-contiguous
    and becomes its ``.grad`` uncopied. (Only a matrix is noted transposed, so that product is
    ``_mm``, what ``matmul`` of two matrices comes to.)"""
    return _matrix_t(_mm(_matrix_t(grad), a)) if transposed else _matrix_t(a) @ grad


@primitive("dot", node="DotBackward0", group=OTHER, saves=("a", "b"),
           saves_for={"a": ("b",), "b": ("a",)}, error=_dot_error)
def _dot(a, b):
    return np.dot(a, b)


@_dot.vjp
def _(ctx, grad):
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    return (grad * b if need_a else None, grad * a if need_b else None)


@primitive("vdot", node="VdotBackward0", group=OTHER, saves=("a", "b"),
           saves_for={"a": ("b",), "b": ("a",)}, error=_dot_error, complex_rule=True)
def _vdot(a, b):
    return np.vdot(a, b)  # conj(a) . b: for real tensors, dot


@_vdot.vjp
def _(ctx, grad):
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    return (grad.conj() * b if need_a else None, grad * a if need_b else None)


@_mv.vjp
def _(ctx, grad):
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    return (reshape(grad, (grad._array.shape[0], 1)) * b if need_a else None,  # PyTorch's ger
            _mv(a.t(), grad) if need_b else None)


@primitive("addmm", node="AddmmBackward0", group=OTHER, saves=("a", "b"),
           saves_for={"a": ("b",), "b": ("a",)}, notes_transposed="b", error=_addmm_error)
def _addmm(bias, a, b, beta, alpha):
    if a.dtype == np.float16:  # as ATen's CPU kernel (no BLAS): in float32, rounded once
        return _scaled_product_sum(*(x.astype(np.float32) for x in (bias, a, b)), beta,
                                   alpha).astype(np.float16)
    if alpha == 0:
        return _without_product(bias, (a.shape[0], b.shape[1]), beta, a.dtype)
    return _scaled_product_sum(bias, a, b, beta, alpha)


def _scaled_product_sum(bias, a, b, beta, alpha):
    if beta == 1 and alpha == 1:  # ``bias + a @ b``, the sum written into the product's fresh
        product = a @ b           # buffer rather than a second one (256x784x1024: -15%); a bias
        return np.add(bias, product, out=product)  # larger than the product is refused
    product = a @ b if alpha == 1 else alpha * (a @ b)
    return product if beta == 0 else beta * bias + product  # beta 0 ignores bias, even nan


def _without_product(bias, shape, beta, dtype):
    """What BLAS's gemm / gemv give for alpha = 0: the product is not computed at all (an inf
    or nan factor leaves no trace), only ``beta * bias`` (zeros for beta = 0)."""
    if beta == 0:
        return np.zeros(shape, dtype)
    return np.broadcast_to(beta * bias, shape).astype(dtype)


@_addmm.vjp
def _(ctx, grad, beta, alpha, transposed=False):
    a, b = ctx.saved
    need_bias, need_a, need_b = ctx.needs_input_grad
    scaled = grad if alpha == 1 else grad * alpha
    return (sum_to(grad if beta == 1 else grad * beta, ctx.input_shapes[0]) if need_bias else None,
            _mm(scaled, _matrix_t(b)) if need_a else None,
            _second_factor_grad(a, scaled, transposed) if need_b else None)


@primitive("squeeze_", node="SqueezeBackward4", group=VIEW)
def _squeeze_in_place(a, dim=0):
    """PyTorch's in-place ``squeeze_(dim)`` of a size-1 dimension of an intermediate result
    nobody else sees (SqueezeBackward4): matmul's 1-D @ 2-D, quantile's last step. As that
    tensor is never seen, an out-of-place squeeze records the same graph."""
    return np.squeeze(a, dim)


@_squeeze_in_place.vjp
def _(ctx, grad, dim=0):
    return grad.unsqueeze(dim)


def matmul(input, other):
    """PyTorch's matmul, decomposed as PyTorch decomposes it (so the same nodes are recorded):
    dot, mv or mm by rank; a batch folded into an mm or mv when that needs no copy (or saves a large
    gradient); otherwise both operands expanded to a common batch, reshaped to 3-D and bmm'd."""
    if not _both_tensors(input, other):
        raise _argument_error("matmul", ("input", "other"), (input, other))
    a, b = input, other
    ranks = (a._array.ndim, b._array.ndim)
    if 0 in ranks:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{ranks[0]}D and {ranks[1]}D")
    if ranks == (1, 1):
        return dot(a, b)
    if ranks == (2, 1):
        _refuse_bool("mv", a)
        return _mv(a, b)
    if ranks == (1, 2):
        return _squeeze_in_place(mm(a.unsqueeze(0), b))
    if ranks == (2, 2):
        _refuse_bool("mm", a)
        return _mm(a, b)
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    return _batched_matmul(a, b)


def _should_fold(a, b):
    """PyTorch's test: fold the larger operand's batch into rows of an mm/mv when the smaller one
    requires grad (its gradient then needs no batch-sized buffer) or when folding needs no copy."""
    larger_first = a._array.ndim >= b._array.ndim
    big = a._array if larger_first else b._array.swapaxes(-1, -2)
    small_ndim = b._array.ndim if larger_first else a._array.ndim
    if not (big.ndim >= 3 and small_ndim <= 2):
        return False
    if (b if larger_first else a)._requires_grad:
        return True
    if a._array.ndim == 2:
        return False
    if big.size == 0:
        return True
    strides, shape = big.strides, big.shape
    return builtins.all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(big.ndim - 2))


def _folded_matmul(a, b):
    transpose = b._array.ndim > a._array.ndim
    big = b.mT if transpose else a
    small = (a.t() if a._array.ndim == 2 else a) if transpose else b
    rows = big._array.shape[:-1]
    out_shape = rows + ((small._array.shape[1],) if small._array.ndim == 2 else ())
    folded = reshape(big, (math.prod(rows), big._array.shape[-1]))
    if small._array.ndim == 1:
        return _unsafe_view(mv(folded, small), shape=out_shape)
    out = _unsafe_view(mm(folded, small), shape=out_shape)
    return out.mT.contiguous() if transpose else out


def _batched_matmul(a, b):
    shape_a, shape_b = a._array.shape, b._array.shape
    n = shape_a[-2] if len(shape_a) > 1 else 1
    m2, p = (shape_b[-2], shape_b[-1]) if len(shape_b) > 1 else (shape_b[0], 1)
    batch_a, batch_b = shape_a[:-2], shape_b[:-2]
    if len(shape_a) == 3 and len(shape_b) == 3 and batch_a[0] != batch_b[0]:
        # A size-1 batch that requires grad is dropped, so its gradient needs no batch buffer.
        if batch_a[0] == 1 and a._requires_grad:
            return matmul(a.squeeze(0), b)
        if batch_b[0] == 1 and b._requires_grad:
            return matmul(a, b.squeeze(0))
    batch = _broadcast_batch(batch_a, batch_b)
    count = math.prod(batch)
    a3 = reshape(expand(a, batch + (n, shape_a[-1])), (count, n, shape_a[-1]))
    if len(shape_b) == 1:
        b3 = reshape(expand(b, batch + (m2,)), (count, m2)).unsqueeze(2)
        return _unsafe_view(bmm(a3, b3).squeeze(-1), shape=batch + (n,)[:len(shape_a) - 1])
    b3 = reshape(expand(b, batch + (m2, p)), (count, m2, p))
    return _unsafe_view(bmm(a3, b3), shape=batch + (n,)[:len(shape_a) - 1] + (p,))


def _broadcast_batch(batch_a, batch_b):
    try:
        return tuple(np.broadcast_shapes(batch_a, batch_b))
    except ValueError:
        raise RuntimeError(broadcast_error(
            (Tensor._make(np.empty(batch_a)), Tensor._make(np.empty(batch_b))), None)) from None


def mm(input, mat2):
    if not _both_tensors(input, mat2):
        raise _argument_error("mm", ("input", "mat2"), (input, mat2))
    if input._array.ndim != 2 or mat2._array.ndim != 2:
        raise RuntimeError("self must be a matrix" if input._array.ndim != 2 else
                           "mat2 must be a matrix")
    _refuse_bool("mm", input)
    return _mm(input, mat2)


def bmm(input, mat2):
    if not _both_tensors(input, mat2):
        raise _argument_error("bmm", ("input", "mat2"), (input, mat2))
    if input._array.ndim != 3 or mat2._array.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if input._array.ndim != 3 else
                           "batch2 must be a 3D tensor")
    _refuse_bool("bmm", input)
    shapes_error = _batched_shapes_error(input, mat2)
    if shapes_error:
        raise RuntimeError(shapes_error)
    return _bmm(input, mat2)


def mv(input, vec):
    if not _both_tensors(input, vec):
        raise _argument_error("mv", ("input", "vec"), (input, vec))
    if input._array.ndim != 2 or vec._array.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input._array.ndim}, "
                           f"{vec._array.ndim}")
    _refuse_bool("mv", input)
    return _mv(input, vec)


def dot(input, tensor):
    _check_vectors("dot", ("input", "tensor"), input, tensor)
    _refuse_bool("dot", input)
    return _dot(input, tensor)


# PyTorch's CPU kernels of the products take no bools (outer products and einsum do)
_BOOL_REFUSING_KERNELS = {"dot": "dot", "mm": "addmm_impl_cpu_", "mv": "addmv_impl_cpu",
                          "bmm": "bmm", "baddbmm": "baddbmm"}


def _refuse_bool(product, a):
    if a._array.dtype == np.bool_:
        raise NotImplementedError(
            f"\"{_BOOL_REFUSING_KERNELS[product]}\" not implemented for 'Bool'")


def vdot(input, other):
    """``conj(input) . other``: for real tensors, dot recorded as VdotBackward0."""
    _check_vectors("vdot", ("input", "other"), input, other)
    return _vdot(input, other)


def _check_vectors(function, names, a, b):
    """PyTorch's checks of dot and vdot, in its order: tensors, 1-d, one dtype."""
    if not _both_tensors(a, b):
        raise _argument_error(function, names, (a, b))
    if a._array.ndim != 1 or b._array.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a._array.ndim}D and "
                           f"{b._array.ndim}D tensors")
    if a._array.dtype != b._array.dtype:  # before the sizes
        raise RuntimeError(f"{function} : expected both vectors to have same dtype, but found "
                           f"{_kind(a)} and {_kind(b)}")


def inner(input, other):
    """Sums of products over the last dimension of both: a product with a scalar, otherwise a
    tensordot over the last dimensions (as PyTorch decomposes it, vectors too)."""
    if input._array.dtype != other._array.dtype:
        raise RuntimeError("both inputs should have same dtype")
    if input._array.ndim == 0 or other._array.ndim == 0:
        return input * other
    if input._array.shape[-1] != other._array.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got "
                           f"shapes {list(input._array.shape)} and {list(other._array.shape)}")
    return tensordot(input, other, ([-1], [-1]))


def tensordot(a, b, dims=2, out=None):
    """Contract ``dims`` (a count of a's last and b's first dimensions, or two lists) as one mm
    of the permuted, flattened operands, reshaped to a's free then b's free dimensions."""
    dims_a, dims_b = _contracted_dims(a, b, dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a._array.dtype != b._array.dtype:
        raise RuntimeError("both inputs should have same dtype")
    dims_a, dims_b = _checked_pairs(a, b, dims_a, dims_b)
    free_a = [d for d in range(a._array.ndim) if d not in dims_a]
    free_b = [d for d in range(b._array.ndim) if d not in dims_b]
    shape_a = [a._array.shape[d] for d in free_a]
    shape_b = [b._array.shape[d] for d in free_b]
    contracted = math.prod(a._array.shape[d] for d in dims_a)
    left = reshape(permute(a, free_a + dims_a), (math.prod(shape_a), contracted))
    right = reshape(permute(b, dims_b + free_b), (contracted, math.prod(shape_b)))
    return reshape(mm(left, right), tuple(shape_a + shape_b))


def _contracted_dims(a, b, dims):
    """``tensordot``'s ``dims`` as two lists: a count means a's last and b's first dimensions."""
    if isinstance(dims, Tensor):
        dims = dims.tolist() if dims._array.ndim else int(dims._array)
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > builtins.min(a._array.ndim, b._array.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        return list(range(-dims, 0)), list(range(dims))
    if not isinstance(dims, (list, tuple)) or len(dims) != 2:
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or "
                           f"list[list[int]] containing two lists, but got dims={dims}")
    return ([d] if isinstance(d, int) else list(d) for d in dims)


def _checked_pairs(a, b, dims_a, dims_b):
    """The contracted dimensions made non-negative, checked pair by pair as PyTorch does: in
    range, of equal sizes, each used once."""
    seen_a, seen_b = [], []
    for given_a, given_b in zip(dims_a, dims_b):
        da, db = _wrap_dim(given_a, a._array.ndim), _wrap_dim(given_b, b._array.ndim)
        size_a, size_b = a._array.shape[da], b._array.shape[db]
        if size_a != size_b:  # the dimensions named as given (a count's: a's negative)
            raise RuntimeError(f"contracted dimensions need to match, but first has size {size_a} "
                               f"in dim {given_a} and second has size {size_b} in dim {given_b}")
        for d, seen in ((da, seen_a), (db, seen_b)):
            if d in seen:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
            seen.append(d)
    return seen_a, seen_b


def kron(input, other):
    """The Kronecker product: every entry of ``input`` times all of ``other``, as one broadcast
    product of the operands with their dimensions interleaved."""
    ndim = builtins.max(input._array.ndim, other._array.ndim)
    shape_a = (1,) * (ndim - input._array.ndim) + input._array.shape
    shape_b = (1,) * (ndim - other._array.ndim) + other._array.shape
    spread_a = reshape(input, tuple(x for size in shape_a for x in (size, 1)))
    spread_b = reshape(other, tuple(x for size in shape_b for x in (1, size)))
    return _unsafe_view(spread_a * spread_b, shape=tuple(x * y for x, y in zip(shape_a, shape_b)))


def multi_dot(tensors):
    """``torch.linalg.multi_dot``: the chained product of matrices; the first and the last may
    be vectors (taken as a row and a column, and their dimension dropped from the result)."""
    tensors = list(tensors)
    _check_chain(tensors)
    first_vector, last_vector = tensors[0]._array.ndim == 1, tensors[-1]._array.ndim == 1
    if first_vector:
        tensors[0] = tensors[0].unsqueeze(0)
    if last_vector:
        tensors[-1] = tensors[-1].unsqueeze(1)
    result = _chain_product(tensors)
    rows, columns = result._array.shape  # always a view (ViewBackward0), as PyTorch
    return reshape(result, (() if first_vector else (rows,)) + (() if last_vector else (columns,)))


def _chain_product(matrices):
    """The product in PyTorch's order: the parenthesization with the fewest multiplications
    (for three matrices, left to right on a tie)."""
    if len(matrices) == 2:
        return mm(*matrices)
    if len(matrices) == 3:
        (a, b), (_, c), (_, d) = (m._array.shape for m in matrices)
        first, second, third = matrices
        if a * c * (b + d) > b * d * (a + c):
            return mm(first, mm(second, third))
        return mm(mm(first, second), third)
    sizes = [m._array.shape[0] for m in matrices] + [matrices[-1]._array.shape[1]]
    return _split_product(matrices, _cheapest_splits(sizes), 0, len(matrices) - 1)


def _cheapest_splits(sizes):
    """The classic matrix-chain dynamic programme: ``split[i][j]`` is where the product of
    matrices i..j is best cut (the first such place on a tie)."""
    n = len(sizes) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for span in range(1, n):
        for i in range(n - span):
            j = i + span
            cost[i][j], split[i][j] = builtins.min(
                (cost[i][k] + cost[k + 1][j] + sizes[i] * sizes[k + 1] * sizes[j + 1], k)
                for k in range(i, j))
    return split


def _split_product(matrices, split, i, j):
    if i == j:
        return matrices[i]
    k = split[i][j]
    return mm(_split_product(matrices, split, i, k), _split_product(matrices, split, k + 1, j))


def _check_chain(tensors):
    """PyTorch's checks of a ``multi_dot`` chain, in its order: the ends' dimensions, then each
    further tensor's dimensions and dtype, then that neighbours can be multiplied."""
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    for where, t in (("first", tensors[0]), ("last", tensors[-1])):
        if t._array.ndim not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {where} tensor must be 1D or 2D but got "
                               f"{t._array.ndim}D")
    for i, t in enumerate(tensors[1:], 1):
        if i < len(tensors) - 1 and t._array.ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t._array.ndim}D")
        if t._array.dtype != tensors[0]._array.dtype:
            raise RuntimeError("multi_dot(): all tensors must have be the same dtype but tensor 0 "
                               f"is {_cpp_name(tensors[0])} and tensor {i} {_cpp_name(t)}")
    for i, (a, b) in enumerate(zip(tensors, tensors[1:])):
        if a._array.shape[-1] != b._array.shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes "
                               f"{list(a._array.shape)} and {list(b._array.shape)} cannot be "
                               "multiplied")


def chain_matmul(*matrices):
    warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch "
                  "release. Use torch.linalg.multi_dot instead, which accepts a list of two or "
                  "more tensors rather than multiple parameters.", UserWarning, stacklevel=2)
    if len(matrices) == 1:
        return matrices[0].clone()
    return multi_dot(matrices)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    # (each check's loop, which names the culprit, runs only when it fails)
    if input._array.dtype != mat2._array.dtype or mat1._array.dtype != mat2._array.dtype:
        for name, operand in (("self", input), ("mat1", mat1)):  # before the shapes, as PyTorch
            if operand._array.dtype != mat2._array.dtype:
                raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                                   f"{_kind(operand)} and {_kind(mat2)}")
    if mat1._array.ndim != 2 or mat2._array.ndim != 2:
        for name, operand in (("mat1", mat1), ("mat2", mat2)):
            if operand._array.ndim != 2:
                raise RuntimeError(f"{name} must be a matrix, got {operand._array.ndim}-D tensor")
    _refuse_bool("mm", mat1)
    beta, alpha = _kernel_scalars(mat2, beta, alpha)
    return _addmm(input, mat1, mat2, beta=beta, alpha=alpha)


# The C++ type a kernel of the addmm family converts beta and alpha to (float16's compute in
# float), as its overflow message names it.
_KERNEL_SCALAR_TYPES = {"float16": "float", "float32": "float", "float64": "double",
                        "int64": "int64_t", "int32": "int", "int16": "int16_t", "int8": "int8_t",
                        "uint8": "uint8_t"}


def _kernel_scalars(operand, *scalars):
    """``beta`` and ``alpha`` as the addmm family's kernels read them: converted to the
    operands' type (a float truncated for integers), PyTorch's error when they do not fit. The
    defaults, two int 1s, fit every type unchanged: they return at once."""
    if scalars == (1, 1) and type(scalars[0]) is type(scalars[1]) is int:
        return scalars
    dtype = operand._array.dtype
    if dtype.kind in "cb":
        return scalars
    return tuple(_kernel_scalar(value, dtype) for value in scalars)


def _kernel_scalar(value, dtype):
    if isinstance(value, complex):
        if value.imag != 0:
            raise _overflow(dtype)
        value = value.real
    if dtype.kind == "f":  # (a float16 kernel computes in float32)
        if math.isfinite(value) and builtins.abs(value) > _LARGEST_FLOAT[dtype.itemsize]:
            raise _overflow(dtype)
        return value
    limits = np.iinfo(dtype)
    if not limits.min <= value <= limits.max:  # nan and inf too
        raise _overflow(dtype)
    return int(value)


_LARGEST_FLOAT = {2: float(np.finfo(np.float32).max), 4: float(np.finfo(np.float32).max),
                  8: float(np.finfo(np.float64).max)}  # by itemsize


def _overflow(dtype):
    return RuntimeError(f"value cannot be converted to type {_KERNEL_SCALAR_TYPES[dtype.name]} "
                        "without overflow")


def outer(input, vec2):
    for name, t in (("self", input), ("vec2", vec2)):
        if t._array.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t._array.ndim}-D")
    return input.unsqueeze(1) * vec2.unsqueeze(0)


ger = outer  # PyTorch's older name


@primitive("addmv", node="AddmvBackward0", group=OTHER, saves=("mat", "vec"),
           saves_for={"mat": ("vec",), "vec": ("mat",)})
def _addmv(input, mat, vec, beta, alpha):
    if alpha == 0:
        return _without_product(input, mat.shape[:1], beta, mat.dtype)
    product = alpha * (mat @ vec) if alpha != 1 else mat @ vec
    return product if beta == 0 else beta * input + product  # beta 0 ignores input, even nan


@_addmv.vjp
def _(ctx, grad, beta, alpha):
    mat, vec = ctx.saved
    need_input, need_mat, need_vec = ctx.needs_input_grad
    scaled = grad if alpha == 1 else grad * alpha
    return (sum_to(grad * beta, ctx.input_shapes[0]) if need_input else None,
            scaled.unsqueeze(1) * vec if need_mat else None,
            _mv(mat.t(), scaled) if need_vec else None)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)`` as one node."""
    if mat._array.ndim != 2 or vec._array.ndim != 1 or input._array.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input._array.ndim}, "
                           f"{mat._array.ndim}, {vec._array.ndim}")
    (n, m), (m2,) = mat._array.shape, vec._array.shape
    if m != m2:
        rows = input._array.shape[0] if input._array.ndim else 1
        raise RuntimeError(f"size mismatch, got input ({rows}), mat ({n}x{m}), vec ({m2})")
    expand_shape(input, (n,))
    _refuse_bool("mv", mat)
    beta, alpha = _kernel_scalars(mat, beta, alpha)
    return _addmv(input, mat, vec, beta=beta, alpha=alpha)


@primitive("addr", node="AddrBackward0", group=OTHER, saves=("vec1", "vec2"),
           saves_for={"vec1": ("vec2",), "vec2": ("vec1",)})
def _addr(input, vec1, vec2, beta, alpha):
    product = np.multiply.outer(vec1, vec2)
    if product.dtype == np.bool_:  # beta and alpha as "and", the sum as "or"
        return np.logical_and(alpha, product) | np.logical_and(beta, input)
    if alpha != 1:
        product = alpha * product
    return product if beta == 0 else beta * input + product


@_addr.vjp
def _(ctx, grad, beta, alpha):
    vec1, vec2 = ctx.saved
    need_input, need_1, need_2 = ctx.needs_input_grad
    scaled = grad if alpha == 1 else grad * alpha
    return (sum_to(grad * beta, ctx.input_shapes[0]) if need_input else None,
            _mv(scaled, vec2) if need_1 else None,
            _mv(scaled.t(), vec1) if need_2 else None)


def addr(input, vec1, vec2, *, beta=1, alpha=1):
    """``beta * input + alpha * outer(vec1, vec2)`` as one node."""
    if vec1._array.ndim != 1 or vec2._array.ndim != 1:
        raise RuntimeError(f"addr: Expected 1-D argument vec1, but got {vec1._array.ndim}-D"
                           if vec1._array.ndim != 1 else
                           f"addr: Expected 1-D argument vec2, but got {vec2._array.ndim}-D")
    expand_shape(input, (vec1._array.shape[0], vec2._array.shape[0]))
    _check_addr_scalars(vec1._array.dtype, beta=beta, alpha=alpha)
    beta, alpha = _kernel_scalars(vec1, beta, alpha)
    return _addr(input, vec1, vec2, beta=beta, alpha=alpha)


def _check_addr_scalars(dtype, **scalars):
    """addr's own refusals: a float scalar for integer (or bool) vectors, a bool one for
    others."""
    for name, value in scalars.items():
        if dtype.kind in "biu" and isinstance(value, float):
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a "
                               "floating point number.")
        if dtype.kind != "b" and isinstance(value, bool):
            raise RuntimeError(f"Boolean {name} only supported for Boolean results.")


from .shape import _t, _unsafe_view, permute, reshape  # noqa: E402


@primitive("baddbmm", node="BaddbmmBackward0", group=OTHER, saves=("batch1", "batch2"),
           saves_for={"batch1": ("batch2",), "batch2": ("batch1",)})
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


@primitive("addbmm", node="AddbmmBackward0", group=OTHER, saves=("batch1", "batch2"),
           saves_for={"batch1": ("batch2",), "batch2": ("batch1",)})
def _addbmm(input, batch1, batch2, beta, alpha):
    if alpha == 0:
        return _without_product(input, (batch1.shape[1], batch2.shape[2]), beta, batch1.dtype)
    product = np.matmul(batch1, batch2).sum(axis=0)
    return alpha * product if beta == 0 else beta * input + alpha * product


@_addbmm.vjp
def _(ctx, grad, beta, alpha):
    """Every batch's product received the whole (alpha-scaled) gradient."""
    batch1, batch2 = ctx.saved
    need_input, need_1, need_2 = ctx.needs_input_grad
    scaled = (grad * alpha).unsqueeze(0)
    return (sum_to(grad * beta, ctx.input_shapes[0]) if need_input else None,
            matmul(scaled, batch2.transpose(1, 2)) if need_1 else None,
            matmul(batch1.transpose(1, 2), scaled) if need_2 else None)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_i(batch1[i] @ batch2[i])`` as one node."""
    n, p = _check_batches(batch1, batch2)
    expand_shape(input, (n, p))
    _refuse_bool("mm", batch1)
    beta, alpha = _kernel_scalars(batch1, beta, alpha)
    return _addbmm(input, batch1, batch2, beta=beta, alpha=alpha)


def _check_batches(batch1, batch2):
    """PyTorch's checks of two batches of matrices; the product's matrix shape."""
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t._array.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    (b, n, m), (b2, m2, p) = batch1._array.shape, batch2._array.shape
    if b2 != b or m2 != m:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{b}, {m}] but got: [{b2}, {m2}].")
    return n, p


def addmm_(input, mat1, mat2, *, beta=1, alpha=1):
    return _in_place(input, addmm, (mat1, mat2), beta, alpha)


def addmv_(input, mat, vec, *, beta=1, alpha=1):
    return _in_place(input, addmv, (mat, vec), beta, alpha)


def baddbmm_(input, batch1, batch2, *, beta=1, alpha=1):
    return _in_place(input, baddbmm, (batch1, batch2), beta, alpha)


def _in_place(input, function, operands, beta, alpha):
    """``function`` written into ``input``, recorded as its node (AddmmBackward0 …). The
    out-of-place call runs the checks (without recording), then its primitive is applied."""
    from .inplace import apply_inplace
    with no_grad():
        result = function(input, *operands, beta=beta, alpha=alpha)
    if result._array.shape != input._array.shape:
        raise RuntimeError(f"output with shape {list(input._array.shape)} doesn't match the "
                           f"broadcast shape {list(result._array.shape)}")
    prim = _IN_PLACE_PRIMITIVES[function]
    beta, alpha = _kernel_scalars(operands[0], beta, alpha)
    return apply_inplace(prim, input, operands, {"beta": beta, "alpha": alpha})


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    n, p = _check_batches(batch1, batch2)
    expand_shape(input, (batch1._array.shape[0], n, p))  # refuses an input that does not broadcast, as PyTorch
    if input._array.dtype != batch1._array.dtype:
        raise RuntimeError(f"Input dtypes must be the same, got: input {_cpp_name(input)}, batch1: "
                           f"{_cpp_name(batch1)}, batch2: {_cpp_name(batch2)}")
    if batch1._array.dtype != batch2._array.dtype:
        raise RuntimeError(_scalar_type_error(batch1, batch2))
    _refuse_bool("baddbmm", batch1)
    beta, alpha = _kernel_scalars(batch1, beta, alpha)
    return _baddbmm(input, batch1, batch2, beta=beta, alpha=alpha)


_IN_PLACE_PRIMITIVES = {addmm: _addmm, addmv: _addmv, baddbmm: _baddbmm}


@primitive("cross", node="LinalgCrossBackward0", group=OTHER, saves=("a", "b"))
def _cross(a, b, dim):
    with np.errstate(invalid="ignore"):  # inf - inf in numpy's Python layer: nan, silently
        return np.cross(*np.broadcast_arrays(a, b), axis=dim)


@_cross.vjp
def _(ctx, grad, dim):
    """d(a x b) = da x b + a x db; the adjoint of ``v -> v x b`` is ``g -> b x g``."""
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(_cross(b, grad, dim=dim), ctx.input_shapes[0]) if need_a else None,
            sum_to(_cross(grad, a, dim=dim), ctx.input_shapes[1]) if need_b else None)


def _broadcast_shape(input, other):
    """The shape two operands broadcast to, or PyTorch's size-mismatch error."""
    try:
        return np.broadcast_shapes(input._array.shape, other._array.shape)
    except ValueError:
        raise RuntimeError(broadcast_error((input, other), {})) from None


def cross(input, other, dim=None):
    """The cross product of 3-vectors along ``dim``. Without ``dim``: the first dimension of size 3
    of ``input`` (PyTorch's deprecated default; ``torch.linalg.cross`` uses the last), found
    before any check of ``other``."""
    if dim is None:
        _warn_once("Using torch.cross without specifying the dim arg is deprecated.\nPlease either "
                   "pass the dim explicitly or simply use torch.linalg.cross.\nThe default value "
                   "of dim will change to agree with that of linalg.cross in a future release.")
        dim = next((d for d, size in enumerate(input._array.shape) if size == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    if input._array.ndim != other._array.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    ndim = input._array.ndim
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                         f"{ndim - 1}], but got {dim})")
    sizes = (input._array.shape[dim], other._array.shape[dim])
    if sizes != (3, 3):
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{sizes[0]} and {sizes[1]}")
    _broadcast_shape(input, other)
    if input._array.dtype == np.bool_:
        raise NotImplementedError('"cross" not implemented for \'Bool\'')
    if input._array.dtype != other._array.dtype:
        raise RuntimeError(_scalar_type_error(input, other))
    return _cross(input, other, dim=dim % ndim)
