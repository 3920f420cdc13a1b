"""Triangular solves and the LU factorization: linalg.solve_triangular, lu_factor(_ex), lu,
lu_unpack, lu_solve, and what is built on them (cholesky_solve, cholesky_inverse, the
deprecated triangular_solve / torch.lu / torch.lu_solve); and the LDL^T factorization of
symmetric indefinite matrices (ldl_factor(_ex), ldl_solve), which PyTorch does not
differentiate.

Two primitives carry the gradients: the triangular solve (a solve's gradient is another solve,
projected on the triangle that was read) and the LU factorization (PyTorch's
``linalg_lu_backward``, square case). Everything else composes them with tril/triu and matmul,
so gradients reach ``LU`` and ``B`` through lu_unpack and lu_solve as in PyTorch.
"""
import numpy as np

from . import lapack
from ..return_types import structseq
from ..tensor import _LEGACY_TYPE_NAMES, Tensor, _warn_once
from .creation import eye, zeros_like
from .decompositions import cholesky_solve, qr
from .layout import tril, triu
from .padding import pad
from .shape import cat, narrow
from .broadcast import sum_to
from .linalg import matmul
from .copies import rename_node
from .matrix import (_check_matrices, _mH, _mT, check_floating, check_lapack_dtype,
                     check_same_dtype, check_square_shape)
from .matrix import cholesky as _linalg_cholesky
from .matrix_functions import householder_product
from .registry import OTHER, primitive, without_derivative

# torch.lu, torch.lu_solve and torch.qr are the deprecated forms (``lu_legacy``,
# ``lu_solve_legacy``, ``qr_legacy``); so is torch.cholesky (``cholesky`` here, which replaces
# linalg's ``ops.matrix.cholesky`` as ``torch.cholesky``); torch.linalg takes the others from here.
__all__ = ["lu_unpack", "cholesky_solve", "cholesky_inverse", "triangular_solve", "cholesky",
           "geqrf", "orgqr", "ormqr"]


@primitive("solve_triangular", node="LinalgSolveTriangularBackward0", group=OTHER,
           saves=("a", "out"))
def _solve_triangular(a, b, *, upper, left, unitriangular):
    return lapack.triangular_solve(a, b, upper=upper, left=left,
                                   unitriangular=unitriangular).astype(b.dtype, copy=False)


@_solve_triangular.vjp
def _(ctx, grad, upper, left, unitriangular):
    """X = A^-1 B: gB = A^-T G and gA = -gB X^T (X = B A^-1: gB = G A^-T, gA = -X^T gB),
    both on the triangle of A that was read."""
    a, x = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    grad_b = _solve_triangular(_mT(a), grad, upper=not upper, left=left,
                               unitriangular=unitriangular)
    grad_a = None
    if need_a:
        product = -matmul(grad_b, _mT(x)) if left else -matmul(_mT(x), grad_b)
        offset = 1 if unitriangular else 0
        grad_a = triu(product, offset) if upper else tril(product, -offset)
    return grad_a, grad_b if need_b else None


_MISSING = object()  # an argument PyTorch requires: its parser's message when left out


def solve_triangular(A, B=_MISSING, *, upper=_MISSING, left=True, unitriangular=False):
    """``X`` with ``A X = B`` (``X A = B`` if not ``left``) for triangular ``A``: only its
    ``upper`` or lower triangle is read (and not its diagonal if ``unitriangular``). ``B`` is
    taken in ``A``'s dtype, which must be one LAPACK solves in."""
    _check_required("linalg_solve_triangular", B=B, upper=upper)
    for name, t in (("A", A), ("B", B)):
        _check_matrices("linalg.solve_triangular", t, name)
    check_square_shape("linalg.solve_triangular", A)
    rows, cols = A._array.shape[-2:]
    b_rows, b_cols = B._array.shape[-2:]
    if (b_rows if left else b_cols) != rows:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation {equation} ({rows}x{cols} and {b_rows}x{b_cols})")
    check_lapack_dtype("triangular_solve_cpu", A, complex_ok=True)
    B = B if B.dtype == A.dtype else B.to(A.dtype)
    return _solve_triangular(A, B, upper=bool(upper), left=bool(left),
                             unitriangular=bool(unitriangular))


def _check_required(function, **arguments):
    """PyTorch's argument parser's message for required arguments left out (its grammar)."""
    missing = [name for name, value in arguments.items() if value is _MISSING]
    if missing:
        names = ", ".join(f'"{name}"' for name in missing)
        raise TypeError(f"{function}() missing {len(missing)} required positional argument"
                        f"{'s' if len(missing) == 1 else ''}: {names}")


# ----------------------------------------------------------------------------------- LU

def _getrf(a):
    """LAPACK's getrf, vectorized over the batch: the packed factors (unit L below the
    diagonal, U on and above it), the 1-based int32 pivots, and the 1-based index of the first
    zero pivot (0 if none)."""
    *batch, m, n = a.shape
    count = int(np.prod(batch, dtype=np.int64))
    lu = a.reshape(count, m, n).copy()
    k = min(m, n)
    rows = np.arange(count)
    pivots = np.zeros((count, k), np.int32)
    info = np.zeros(count, np.int32)
    for j in range(k):
        p = j + np.argmax(_pivot_magnitude(lu[:, j:, j]), axis=1)
        pivots[:, j] = p + 1
        lu[rows, j], lu[rows, p] = lu[rows, p], lu[rows, j].copy()
        pivot = lu[:, j, j]
        zero = pivot == 0
        info = np.where(zero & (info == 0), j + 1, info)
        factors = lu[:, j + 1:, j] / np.where(zero, 1, pivot)[:, None]
        lu[:, j + 1:, j] = factors
        lu[:, j + 1:, j + 1:] -= factors[:, :, None] * lu[:, j, None, j + 1:]
    return (lu.reshape(a.shape), pivots.reshape(*batch, k), info.reshape(batch))


def _pivot_magnitude(column):
    """The size by which getrf picks a pivot: LAPACK's i?amax measures a complex number by
    |Re| + |Im| (cheaper than its modulus, and another pivot where they disagree)."""
    if column.dtype.kind == "c":
        return np.abs(column.real) + np.abs(column.imag)
    return np.abs(column)


@primitive("lu_factor", node="LinalgLuFactorExBackward0", group=OTHER, n_outputs=3,
           saves=("a", "out"))
def _lu_factor(a):
    return _getrf(a)


@_lu_factor.vjp
def _(ctx, grad):
    """The packed gradient's strictly lower part (first k = min(m, n) columns) is L's, its
    upper part (first k rows) U's."""
    a, packed = ctx.saved
    k = min(packed._array.shape[-2:])
    permutation, lower, upper = lu_unpack(packed, _lu_factor(a.detach())[1])
    return _lu_gradient(permutation, lower, upper, tril(narrow(grad, -1, 0, k), -1),
                        triu(narrow(grad, -2, 0, k)))


def _lu_gradient(permutation, lower, upper, grad_lower, grad_upper):
    """PyTorch's ``linalg_lu_backward`` for A = P L U (m x n, k = min(m, n)), gL strictly lower
    and gU upper. Square: gA = P L^-T (tril(L^T gL, -1) + triu(gU U^T)) U^-T. A wide A
    (U = [U1 U2]) or a tall one (L = [L1; L2]) adds the block only U2 or L2 touches."""
    m, n = lower._array.shape[-2], upper._array.shape[-1]
    k = min(m, n)
    if m == n:
        middle = tril(matmul(_mT(lower), grad_lower), -1) + triu(matmul(grad_upper, _mT(upper)))
        middle = _solve_triangular(_mT(upper), middle, upper=False, left=False,
                                   unitriangular=False)
        return matmul(permutation, _solve_lower_adjoint(lower, middle))
    if m < n:
        return matmul(permutation, _wide_lu_gradient(lower, upper, grad_lower, grad_upper, k))
    return matmul(permutation, _tall_lu_gradient(lower, upper, grad_lower, grad_upper, k))


def _solve_lower_adjoint(lower, b):
    """L^-T b for the unit lower triangular (square) L."""
    return _solve_triangular(_mT(lower), b, upper=True, left=True, unitriangular=True)


def _wide_lu_gradient(lower, upper, grad_lower, grad_upper, k):
    """m < n, U = [U1 U2]: L^-T [tril(L^T gL - gU U^T, -1) U1^-T + triu(gU1), gU2]."""
    upper_square = narrow(upper, -1, 0, k)
    coupled = tril(matmul(_mT(lower), grad_lower) - matmul(grad_upper, _mT(upper)), -1)
    coupled = _solve_triangular(_mT(upper_square), coupled, upper=False, left=False,
                                unitriangular=False)
    columns = upper._array.shape[-1]
    blocks = cat([coupled + narrow(grad_upper, -1, 0, k),
                  narrow(grad_upper, -1, k, columns - k)], -1)
    return _solve_lower_adjoint(lower, blocks)


def _tall_lu_gradient(lower, upper, grad_lower, grad_upper, k):
    """m > n, L = [L1; L2]: [L1^-T triu(gU U^T - L^T gL) + tril(gL1, -1); gL2] U^-T."""
    lower_square = narrow(lower, -2, 0, k)
    coupled = triu(matmul(grad_upper, _mT(upper)) - matmul(_mT(lower), grad_lower))
    coupled = _solve_lower_adjoint(lower_square, coupled)
    rows = lower._array.shape[-2]
    blocks = cat([coupled + narrow(grad_lower, -2, 0, k),
                  narrow(grad_lower, -2, k, rows - k)], -2)
    return _solve_triangular(_mT(upper), blocks, upper=False, left=False, unitriangular=False)


_LuFactor = structseq("linalg_lu_factor", "LU pivots")
_LuFactorEx = structseq("linalg_lu_factor_ex", "LU pivots info")
_LuWithInfo = structseq("_lu_with_info", "LU pivots info")
_Lu = structseq("linalg_lu", "P L U")
_LuUnpack = structseq("lu_unpack", "P L U")


def _check_lu_input(name, A, pivot):
    """PyTorch's checks; its message for a missing pivot always names linalg.lu_factor."""
    if A._array.ndim < 2:
        raise RuntimeError(f"{name}: Expected tensor with 2 or more dimensions. Got "
                           f"size: {list(A._array.shape)} instead")
    check_lapack_dtype("lu_cpu", A, complex_ok=True)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    """The packed LU factorization with partial pivoting, P A = L U: ``LU`` (unit L below the
    diagonal, U on and above it), 1-based int32 ``pivots`` (row i was swapped with pivots[i]),
    and ``info``, the 1-based position of the first zero on U's diagonal (0 if none)."""
    _check_lu_input("torch.lu_factor", A, pivot)
    packed, pivots, info = _lu_factor(A)
    if check_errors and info._array.any():
        raise RuntimeError(f"linalg.lu_factor_ex: U[{int(info._array.max())}, "
                           f"{int(info._array.max())}] is zero")
    return _LuFactorEx(packed, pivots, info)


def lu_factor(A, *, pivot=True):
    """``lu_factor_ex`` refusing a singular factor, as PyTorch."""
    packed, pivots, info = lu_factor_ex(A, pivot=pivot)
    if info._array.any():
        position = int(info._array.reshape(-1)[np.flatnonzero(info._array)[0]])
        batch = "" if info._array.ndim == 0 else \
            f"(Batch element {int(np.flatnonzero(info._array)[0])}): "
        raise RuntimeError(f"torch.linalg.lu_factor: {batch}U[{position},{position}] is zero and "
                           "using it on lu_solve would result in a division by zero. If you "
                           "still want to perform the factorization, consider calling "
                           "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")
    return _LuFactor(packed, pivots)


@primitive("lu_permutation", node="LuUnpackBackward0", group=OTHER)
def _lu_permutation(pivots, *, m, dtype):
    """P with A = P L U from getrf's 1-based pivots (row j swapped with row pivots[j], in
    order); no gradient, as pivots are integers."""
    *batch, k = pivots.shape
    swaps = pivots.reshape(int(np.prod(batch, dtype=np.int64)), k).astype(np.int64) - 1
    order = np.tile(np.arange(m), (swaps.shape[0], 1))
    rows = np.arange(swaps.shape[0])
    for j in range(k):
        p = swaps[:, j]
        order[rows, j], order[rows, p] = order[rows, p], order[rows, j].copy()
    permutation = np.zeros((swaps.shape[0], m, m), dtype)
    permutation[rows[:, None], order, np.arange(m)] = 1
    return permutation.reshape(*batch, m, m)


@_lu_permutation.vjp
def _(ctx, grad, m, dtype):
    return None


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """P, L, U of a packed factorization (empty tensors for what was not asked for)."""
    m, n = LU_data._array.shape[-2:]
    k = min(m, n)
    empty = Tensor._make(np.empty(0, LU_data._array.dtype))
    permutation = (_lu_permutation(LU_pivots, m=m, dtype=LU_data._array.dtype.name)
                   if unpack_pivots else empty)
    if not unpack_data:
        return _LuUnpack(permutation, empty, empty)
    lower = tril(LU_data[..., :, :k], -1) + eye(m, k, dtype=LU_data.dtype)
    upper = triu(LU_data[..., :k, :])
    for factor in (lower, upper):
        rename_node(factor._grad_fn, "LuUnpackBackward0")
    return _LuUnpack(permutation, lower, upper)


@primitive("linalg_lu", node="LinalgLuBackward0", group=OTHER, n_outputs=None,
           saves=("a", "out0", "out1"))
def _linalg_lu(a):
    """L (m x k, unit lower) and U (k x n, upper) of A = P L U, k = min(m, n): the two
    differentiable outputs of PyTorch's node (P is not)."""
    packed = _getrf(a)[0]
    m, n = a.shape[-2:]
    k = min(m, n)
    lower = np.tril(packed[..., :, :k], -1) + np.eye(m, k, dtype=a.dtype)
    return lower, np.triu(packed[..., :k, :])


@_linalg_lu.vjp
def _(ctx, grads):
    a, lower, upper = ctx.saved
    grad_lower, grad_upper = (grads[i] if i < len(grads) and grads[i] is not None
                              else zeros_like(factor) for i, factor in enumerate((lower, upper)))
    permutation = _lu_permutation(_lu_factor(a.detach())[1], m=a._array.shape[-2],
                                  dtype=a._array.dtype.name)
    return _lu_gradient(permutation, lower, upper, tril(grad_lower, -1), triu(grad_upper))


def lu(A, *, pivot=True):
    """``torch.linalg.lu``: P, L, U with A = P L U."""
    _check_lu_input("linalg.lu", A, pivot)
    permutation = _lu_permutation(_lu_factor(A.detach())[1], m=A._array.shape[-2],
                                  dtype=A._array.dtype.name)
    return _Lu(permutation, *_linalg_lu(A))


@primitive("lu_solve", node="LinalgLuSolveBackward0", group=OTHER, saves=("lu", "pivots", "out"),
           nondifferentiable=("pivots",), complex_rule=True)
def _lu_solve(lu, pivots, b, *, left, adjoint):
    """A X = B with A = P L U given packed (A^H X = B if ``adjoint``; X A = B if not ``left``,
    which is A^H X^H = B^H; ^H is ^T for real matrices)."""
    if not left:
        return _conj_transpose(_lu_solve.forward(lu, pivots, _conj_transpose(b), left=True,
                                                 adjoint=not adjoint))
    permutation = _lu_permutation.forward(pivots, m=lu.shape[-1], dtype=lu.dtype.name)
    if adjoint:  # U^H L^H P^T X = B
        lu_h = _conj_transpose(lu)
        y = lapack.triangular_solve(lu_h, b, upper=False)
        x = permutation @ lapack.triangular_solve(lu_h, y, upper=True, unitriangular=True)
        return x.astype(b.dtype, copy=False)
    y = lapack.triangular_solve(lu, np.swapaxes(permutation, -1, -2) @ b, upper=False,
                                unitriangular=True)
    return lapack.triangular_solve(lu, y, upper=True).astype(b.dtype, copy=False)


@_lu_solve.vjp
def _(ctx, grad, left, adjoint):
    """With op(A) X = B (op(A) = A^H if ``adjoint``; the right-hand form conjugate-transposed to
    this one): gB = op(A)^-H G, a solve with the same factors, and gA = -gB X^H (-X gB^H for
    A^H), carried to the packed factors through A = P L U: gL = tril(P^T gA U^H, -1),
    gU = triu(L^H P^T gA)."""
    packed, pivots, x = ctx.saved
    if not left:
        grad, x, adjoint = _mH(grad), _mH(x), not adjoint
    grad_b = _lu_solve(packed, pivots, grad, left=True, adjoint=not adjoint)
    grad_packed = None
    if ctx.needs_input_grad[0]:
        grad_a = -matmul(x, _mH(grad_b)) if adjoint else -matmul(grad_b, _mH(x))
        permutation, lower, upper = lu_unpack(packed, pivots)
        rotated = matmul(_mT(permutation), grad_a)
        grad_packed = sum_to(tril(matmul(rotated, _mH(upper)), -1)
                             + triu(matmul(_mH(lower), rotated)), ctx.input_shapes[0])
    if not left:
        grad_b = _mH(grad_b)
    return grad_packed, None, sum_to(grad_b, ctx.input_shapes[2])


def _conj_transpose(array):
    return np.swapaxes(array, -1, -2).conj()


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    """``X`` with ``A X = B`` (``A^H X = B`` with ``adjoint``; ``X A = B`` if not ``left``), A
    given by its packed factorization, checked in PyTorch's words."""
    _check_matrices("linalg.lu_solve", LU, "LU")
    check_square_shape("torch.linalg.lu_solve", LU)
    check_floating("torch.linalg.lu_solve", LU, complex_ok=True)
    _check_matrices("linalg.lu_solve", B, "B")
    if B._array.dtype != LU._array.dtype:
        raise RuntimeError("linalg.lu_solve: Expected LU and B to have the same dtype, but found "
                           f"LU of type {_LEGACY_TYPE_NAMES[LU._array.dtype.name]} and B of type "
                           f"{_LEGACY_TYPE_NAMES[B._array.dtype.name]} instead")
    n = LU._array.shape[-1]
    b_rows, b_columns = B._array.shape[-2:]
    if (b_rows if left else b_columns) != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX' if left else 'XA'} = B ({n}x{n} and {b_rows}x{b_columns})")
    if pivots._array.shape[-1:] != (n,):
        raise RuntimeError("linalg.lu_solve: Number of pivots per batch should be same as the "
                           "dimension of the matrix")
    if pivots._array.dtype != np.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    check_lapack_dtype("linalg.lu_solve_cpu", LU, complex_ok=True)
    return _lu_solve(LU, pivots, B, left=bool(left), adjoint=bool(adjoint))


def _upper_triangular_inverse(u):
    """U^-1 column by column, as LAPACK's trtri builds it (so an exact zero above the diagonal
    comes out as -0., as in PyTorch's results)."""
    n = u.shape[-1]
    inverse = np.zeros_like(u)
    for j in range(n):
        inverse[..., j, j] = 1 / u[..., j, j]
        above = np.einsum("...ik,...k->...i", inverse[..., :j, :j], u[..., :j, j])
        inverse[..., :j, j] = above * -inverse[..., j, j][..., None]
    return inverse


def _cholesky_inverse_values(factor, upper):
    """(U^H U)^-1 = U^-1 U^-H as LAPACK's potri computes it: each entry (i <= j) is the sum over
    k >= j of U^-1[i, k] conj(U^-1[j, k]), started from -0. so that an all-zero sum keeps its
    sign; the lower factor's case is the upper one of L^H."""
    u = np.triu(factor if upper else np.swapaxes(factor, -1, -2).conj())
    zero_pivots = (np.diagonal(u, axis1=-2, axis2=-1) == 0)
    if zero_pivots.any():
        position = int(np.argmax(zero_pivots.reshape(-1, u.shape[-1]).any(0))) + 1
        raise lapack.LinAlgError(f"cholesky_inverse: The diagonal element {position} is zero, the "
                                 "inversion could not be completed because the input matrix is "
                                 "singular.")
    inverse = _upper_triangular_inverse(u)
    result = np.full_like(u, -0.0)
    for k in range(u.shape[-1]):
        column = inverse[..., :k + 1, k]
        result[..., :k + 1, :k + 1] += column[..., :, None] * column[..., None, :].conj()
    if result.dtype.kind == "c":  # potri's diagonal: sums of squared moduli, exactly real
        diagonal = np.arange(u.shape[-1])
        result[..., diagonal, diagonal] = result[..., diagonal, diagonal].real
    return result


@primitive("cholesky_inverse", node="CholeskyInverseBackward0", group=OTHER,
           saves=("factor", "out"), complex_rule=True)
def _cholesky_inverse(factor, upper):
    return _cholesky_inverse_values(factor, upper)


@_cholesky_inverse.vjp
def _(ctx, grad, upper):
    """PyTorch's ``cholesky_inverse_backward``: with S = A^-1 (G + G^H) A^-1, the full (not
    triangular) gL = -S L (-U S with ``upper``)."""
    factor, inverse = ctx.saved
    common = matmul(inverse, matmul(grad + _mH(grad), inverse))
    return -matmul(factor, common) if upper else -matmul(common, factor)


def cholesky_inverse(L, upper=False):
    """A^-1 from A's Cholesky factor (L L^H = A; U^H U = A with ``upper``), reading only that
    triangle of ``L``."""
    check_square_shape("cholesky_inverse", L)
    check_lapack_dtype("cholesky_inverse_out_cpu", L, complex_ok=True)
    return _cholesky_inverse(L, upper=bool(upper))


_TriangularSolve = structseq("triangular_solve", "solution cloned_coefficient")


@primitive("triangular_solve", node="TriangularSolveBackward0", group=OTHER, n_outputs=None,
           saves=("a", "out0"))
def _triangular_solve(b, a, *, upper, transpose, unitriangular):
    """The deprecated op's two results: X with op(A) X = B (op transposing if ``transpose``)
    from ``upper`` or the lower triangle of A, and a copy of A, both over the broadcast batch."""
    batch = np.broadcast_shapes(b.shape[:-2], a.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    matrix = np.swapaxes(a, -1, -2) if transpose else a
    x = lapack.triangular_solve(matrix, np.broadcast_to(b, batch + b.shape[-2:]),
                                upper=upper != transpose, unitriangular=unitriangular)
    return x.astype(b.dtype, copy=False), a.copy()


@_triangular_solve.vjp
def _(ctx, grads, upper, transpose, unitriangular):
    """PyTorch's ``triangular_solve_backward``: gB = op(A)^-T G, gA = -gB X^T (-X gB^T when
    transposed) on the triangle read, plus the copy's gradient whole."""
    a, x = ctx.saved
    grad_x, grad_copy = (grads[i] if i < len(grads) else None for i in range(2))
    need_b, need_a = ctx.needs_input_grad
    grad_b = grad_a = None
    if grad_x is not None:
        grad_b = _triangular_solve(grad_x, a, upper=upper, transpose=not transpose,
                                   unitriangular=unitriangular)[0]
        if need_a:
            product = -matmul(x, _mT(grad_b)) if transpose else -matmul(grad_b, _mT(x))
            offset = 1 if unitriangular else 0
            grad_a = triu(product, offset) if upper else tril(product, -offset)
    if grad_copy is not None and need_a:
        grad_a = grad_copy if grad_a is None else grad_a + grad_copy
    return (sum_to(grad_b, ctx.input_shapes[0]) if need_b and grad_b is not None else None,
            sum_to(grad_a, ctx.input_shapes[1]) if grad_a is not None else None)


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """Deprecated ``torch.triangular_solve``: ``linalg.solve_triangular`` with its arguments
    reversed, and a copy of ``A`` (the node's second output)."""
    _warn_once(
        "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will "
        "be removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its "
        "arguments reversed and does not return a copy of one of the inputs.\nX = "
        "torch.triangular_solve(B, A).solution\nshould be replaced with\nX = "
        "torch.linalg.solve_triangular(A, B).")
    _check_triangular_solve(b, A)
    return _TriangularSolve(*_triangular_solve(b, A, upper=bool(upper), transpose=bool(transpose),
                                               unitriangular=bool(unitriangular)))


def _check_triangular_solve(b, A):
    """PyTorch's checks of ``triangular_solve``'s operands, in its order."""
    for name, t in (("b", b), ("A", A)):
        if t._array.ndim < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected {name} to have at least 2 "
                               f"dimensions, but it has {t._array.ndim} dimensions instead")
    check_same_dtype(b, A)
    n, columns = A._array.shape[-2:]
    if n != columns:
        raise RuntimeError(f"A must be batches of square matrices, but they are {n} by {columns} "
                           "matrices")
    rows = b._array.shape[-2]
    if rows != n:
        raise RuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix is {n} "
                           f"by {n} but each b matrix is {rows} by {b._array.shape[-1]}")
    check_lapack_dtype("triangular_solve_cpu", A, complex_ok=True)


def cholesky(input, upper=False):
    """Deprecated ``torch.cholesky`` (and ``Tensor.cholesky``): ``linalg.cholesky`` with
    ``upper`` also positional, under its own name in messages and in the graph
    (``CholeskyBackward0``)."""
    _warn_once(
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
        "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = "
        "torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced "
        "with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results "
        "for all valid (symmetric positive definite) inputs.")
    check_square_shape("cholesky", input)
    check_lapack_dtype("cholesky_cpu", input, complex_ok=True)
    with lapack.renamed("linalg.cholesky", "cholesky"):
        factor = _linalg_cholesky(input, upper=bool(upper))
    rename_node(factor._grad_fn, "CholeskyBackward0")
    return factor


def lu_legacy(A, pivot=True, get_infos=False):
    """Deprecated ``torch.lu``: ``lu_factor_ex``, refusing a singular factor unless the infos
    are asked for."""
    _warn_once(
        "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex "
        "and will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, "
        "compute_pivots)\nshould be replaced with\nLU, pivots = torch.linalg.lu_factor(A, "
        "compute_pivots)\nand\nLU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)"
        "\nshould be replaced with\nLU, pivots, info = torch.linalg.lu_factor_ex(A, "
        "compute_pivots)")
    if get_infos:
        return _LuWithInfo(*lu_factor_ex(A, pivot=pivot))
    return tuple(lu_factor(A, pivot=pivot))


def lu_solve_legacy(b, LU_data, LU_pivots):
    """Deprecated ``torch.lu_solve``: ``linalg.lu_solve`` with its arguments reversed."""
    _warn_once(
        "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
        "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
        "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = "
        "torch.linalg.lu_solve(LU, pivots, B)")
    return lu_solve(LU_data, LU_pivots, b)


_QrLegacy = structseq("qr", "Q R")


def qr_legacy(input, some=True):
    """Deprecated ``torch.qr``: ``linalg.qr`` with the boolean ``some`` for its mode."""
    _warn_once(
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future "
        "PyTorch release.\nThe boolean parameter 'some' has been replaced with a string parameter "
        "'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, "
        "'reduced' if some else 'complete')")
    return _QrLegacy(*qr(input, "reduced" if some else "complete"))


# ---------------------------------------------------------------------------------- LDL^T

@primitive("ldl_factor", node="NotImplemented", group=OTHER, n_outputs=3)
def _ldl_factor(a):
    return lapack.symmetric_indefinite_factor(a)


without_derivative(_ldl_factor, "linalg_ldl_factor_ex")


@primitive("ldl_solve", node="NotImplemented", group=OTHER)
def _ldl_solve(ld, pivots, b):
    return lapack.symmetric_indefinite_solve(ld, pivots, b).astype(b.dtype, copy=False)


without_derivative(_ldl_solve, "linalg_ldl_solve")

_LdlFactor = structseq("linalg_ldl_factor", "LD pivots")
_LdlFactorEx = structseq("linalg_ldl_factor_ex", "LD pivots info")


def ldl_factor_ex(A, *, hermitian=False, check_errors=False):
    """P A P^T = L D L^T by Bunch-Kaufman pivoting (LAPACK's sytrf on A's lower triangle; for
    real A ``hermitian`` changes nothing): packed ``LD``, LAPACK's ``pivots`` and ``info``, the
    first zero 1x1 block of D (the factorization still completes)."""
    _check_bool("linalg_ldl_factor_ex", hermitian=hermitian, check_errors=check_errors)
    name = "torch.linalg.ldl_factor_ex"
    check_square_shape(name, A)
    check_floating(name, A)
    check_lapack_dtype("ldl_factor_kernel_cpu", A)
    packed, pivots, info = _ldl_factor(A)
    if check_errors:
        _refuse_unknown_info(name, info)
    return _LdlFactorEx(packed, pivots, info)


def ldl_factor(A, *, hermitian=False):
    """``ldl_factor_ex`` with its errors checked."""
    _check_bool("linalg_ldl_factor", hermitian=hermitian)
    packed, pivots, info = ldl_factor_ex(A, hermitian=hermitian)
    _refuse_unknown_info("torch.linalg.ldl_factor", info)
    return _LdlFactor(packed, pivots)


def _check_bool(function, **arguments):
    """PyTorch's argument parser's message for a flag given something else than a bool."""
    for argument, value in arguments.items():
        if not isinstance(value, bool):
            raise TypeError(f"{function}(): argument '{argument}' must be bool, not "
                            f"{type(value).__name__}")


def _refuse_unknown_info(name, info):
    """PyTorch 2.13 has no message for sytrf's positive info (a singular D): it fails an
    internal assertion."""
    if info._array.any():
        code = int(info._array.reshape(-1)[np.flatnonzero(info._array)[0]])
        raise RuntimeError('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/'
                           'native/BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. '
                           f"{name}: Unknown error code: {code}.")


def ldl_solve(LD, pivots, B, *, hermitian=False):
    """X with A X = B from ``ldl_factor``'s ``LD`` and ``pivots`` (LAPACK's sytrs); batches
    broadcast."""
    _check_ldl_solve_inputs(LD, pivots, B)
    return _ldl_solve(LD, pivots, B)


def _check_ldl_solve_inputs(LD, pivots, B):
    """PyTorch's checks, in its order."""
    name = "torch.linalg.ldl_solve"
    check_square_shape(name, LD)
    check_floating(name, LD)
    if tuple(pivots._array.shape) != tuple(LD._array.shape[:-1]):
        raise RuntimeError(f"{name}: Expected LD.shape[:-1] and pivots.shape to be the same, but "
                           f"got pivots with shape {list(pivots._array.shape)} instead")
    if B._array.ndim < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-max(B._array.ndim, 1)}, {max(B._array.ndim, 1) - 1}], but got -2)")
    check_same_dtype(B, LD)
    n, (rows, columns) = LD._array.shape[-1], B._array.shape[-2:]
    if rows != n:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is {n} by {n} "
                           f"but each b matrix is {rows} by {columns}")
    if pivots._array.dtype.kind not in "iu":
        raise RuntimeError(f"{name}: Expected pivots to be integers. Got "
                           f"{_LEGACY_TYPE_NAMES[pivots._array.dtype.name]}")
    check_lapack_dtype("ldl_solve_kernel_cpu", LD)


# ----------------------------------------------------------- Householder QR: geqrf, orgqr, ormqr

_Geqrf = structseq("geqrf", "a tau")


@primitive("geqrf", node="GeqrfBackward0", group=OTHER, n_outputs=None)
def _geqrf(a):
    """LAPACK's geqrf (numpy's raw QR, stored transposed): R on and above the diagonal, the
    Householder vectors below it, and their scales ``tau``."""
    h, tau = np.linalg.qr(a, mode="raw")
    return np.ascontiguousarray(np.swapaxes(h, -1, -2)), tau


@_geqrf.vjp
def _(ctx, grads):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


def geqrf(input):
    """The QR factorization in LAPACK's compact form, for ``orgqr`` / ``ormqr``; not
    differentiable (PyTorch records a node whose backward raises)."""
    if input._array.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    check_lapack_dtype("geqrf_cpu", input, complex_ok=True)
    return _Geqrf(*_geqrf(input))


def orgqr(input, tau):
    """``torch.linalg.householder_product`` under its LAPACK name."""
    return householder_product(input, tau)


def ormqr(input, tau, other, left=True, transpose=False):
    """``Q other`` (``other Q`` if not ``left``; ``Q^T`` if ``transpose``) with Q the full
    square product of ``geqrf``'s reflectors, differentiable through householder_product."""
    _check_ormqr(input, tau, other, left)
    rows, reflectors = input._array.shape[-2], tau._array.shape[-1]
    square = pad(narrow(input, -1, 0, reflectors), (0, rows - reflectors))
    q = householder_product(square, tau)
    if transpose:
        q = _mT(q)
    result = matmul(q, other) if left else matmul(other, q)
    rename_node(result._grad_fn, "OrmqrBackward0")
    return result


def _check_ormqr(input, tau, other, left):
    """PyTorch's checks, in its order."""
    name = "torch.ormqr"
    for tensor, argument in ((input, "input"), (other, "other")):
        if tensor._array.ndim < 2:
            raise RuntimeError(f"{name}: {argument} must have at least 2 dimensions.")
    side = -2 if left else -1
    if other._array.shape[side] != input._array.shape[-2]:
        raise RuntimeError(f"{name}: other.shape[{side}] must be equal to input.shape[-2]")
    if tau._array.ndim == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if tau._array.shape[-1] != min(other._array.shape[side], input._array.shape[-1]):
        raise RuntimeError(f"{name}: tau.shape[-1] must be equal to min(other.shape[{side}], "
                           "input.shape[-1])")
    if tau._array.ndim != input._array.ndim - 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {tau._array.ndim} and input.ndim is equal to "
                           f"{input._array.ndim}")
    if other._array.ndim != input._array.ndim:
        raise RuntimeError(f"{name}: Expected other to have the same number of dimensions as "
                           f"input, but got other.ndim equal to {other._array.ndim} and "
                           f"input.ndim is equal to {input._array.ndim}")
    batch = input._array.shape[:-2]
    for tensor, argument, tensor_batch in ((tau, "tau", tau._array.shape[:-1]),
                                           (other, "other", other._array.shape[:-2])):
        if tensor_batch != batch:
            raise RuntimeError(f"{name}: Expected batch dimensions of {argument} to be equal to "
                               f"input.shape[:-2], but got {list(tensor_batch)}")
    for tensor, argument in ((tau, "tau"), (other, "other")):
        if tensor._array.dtype != input._array.dtype:
            raise RuntimeError(f"{name}: Expected input and {argument} to have the same dtype, "
                               f"but input has dtype{_LEGACY_TYPE_NAMES[input._array.dtype.name]}"
                               f" and {argument} has dtype "
                               f"{_LEGACY_TYPE_NAMES[tensor._array.dtype.name]}")
    if input.is_complex():  # refused until a renamed node (OrmqrBackward0 is the product's,
        check_floating(name, input)  # renamed) keeps the conjugation of complex rules
    check_lapack_dtype("ormqr_cpu", input)
