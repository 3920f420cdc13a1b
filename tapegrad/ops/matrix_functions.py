"""Functions of square matrices and their ``_ex`` forms: slogdet / logdet, matrix_power,
matrix_exp, pinv / pinverse, vecdot, linalg.diagonal, solve_ex / inv_ex / cholesky_ex.

slogdet and matrix_exp are primitives (d log|det A| = tr(A^-1 dA); the gradient of exp(A) is
the upper-right block of the exponential of [[A^T, G], [0, A^T]], itself differentiable); the
others compose existing ops.
"""
import numpy as np

from ..return_types import structseq
from ..tensor import Tensor
from . import lapack
from .creation import eye, zeros_like
from .decompositions import householder_product as _householder_product
from .decompositions import lstsq_solution, pinv
from .elementwise import where
from .layout import diagonal as _diagonal
from .layout import tril
from .linalg import matmul
from .matrix import (_check_matrices, _inv, _mT, check_floating, check_square_shape,
                     cholesky, inv, linalg_svd, solve)
from .reduction import sum as _sum
from .registry import OTHER, primitive
from .shape import cat, narrow, unsqueeze

__all__ = ["slogdet", "logdet", "matrix_power", "matrix_exp", "pinverse"]

_Slogdet = structseq("slogdet", "sign logabsdet")
_LinalgSlogdet = structseq("linalg_slogdet", "sign logabsdet")


@primitive("slogdet", node="LinalgSlogdetBackward0", group=OTHER, n_outputs=None, saves=("a",))
def _slogdet(a):
    """log|det A| and the sign, both outputs of the node (the sign's gradient is zero); a
    singular matrix's sign is the LU's signed zero, as PyTorch's."""
    sign, logabsdet = np.linalg.slogdet(a)
    if (sign == 0).any():
        sign = np.where(sign == 0, lapack.lu_slogdet(a)[0], sign)
    return logabsdet, sign


@_slogdet.vjp
def _(ctx, grads):
    """d log|det A| = tr(A^-1 dA): the gradient is G A^-T (of a singular A: the infinite
    inverse PyTorch's LU solve leaves)."""
    (a,) = ctx.saved
    grad = grads[0]
    if grad is None:
        return zeros_like(a)
    return unsqueeze(unsqueeze(grad, -1), -1) * _mT(_inv_or_lu_inverse(a))


def _inv_or_lu_inverse(a):
    if _singular_matrices(a).any():
        return Tensor._make(lapack.inverse_with_info(a._array)[0])
    return _inv(a)


def _check_square(name, A):
    check_square_shape(name, A)
    check_floating(name, A)


def linalg_slogdet(A):
    """The sign of det(A) and log |det(A)|, which stays finite where det over- or underflows."""
    _check_square("linalg.slogdet", A)
    logabsdet, sign = _slogdet(A)
    return _LinalgSlogdet(sign, logabsdet)


def slogdet(input):
    return _Slogdet(*linalg_slogdet(input))


def logdet(input):
    """log det(A): nan for a negative determinant, -inf for zero (composed as PyTorch does)."""
    sign, logabsdet = linalg_slogdet(input)
    return where(sign < 0, float("nan"), logabsdet)


def matrix_power(A, n):
    """A^n by repeated squaring (n < 0: of A's inverse); A^0 is the identity."""
    check_square_shape("linalg.matrix_power", A)
    if n < 0:
        A, n = inv(A), -n
    if n == 0:
        return A * 0 + eye(A._array.shape[-1], dtype=A.dtype)
    if n == 1:
        return A.clone()
    result, square = None, A
    while n:
        if n & 1:
            result = square if result is None else matmul(result, square)
        n >>= 1
        if n:
            square = matmul(square, square)
    return result


# Padé approximant of degree 13 with scaling and squaring (Higham, "The scaling and squaring
# method for the matrix exponential revisited", 2005), in float64.
_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
           129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
           40840800., 960960., 16380., 182., 1.)
_THETA13 = 5.371920351148152


def _expm(a):
    b = _PADE13
    x = a.astype(np.float64)
    norms = np.abs(x).sum(axis=-2).max(axis=-1)
    squarings = np.maximum(0, np.ceil(np.log2(np.maximum(norms, 1e-300) / _THETA13))).astype(int)
    x = x / (2.0 ** squarings)[..., None, None]
    identity = np.eye(x.shape[-1])
    x2 = x @ x
    x4 = x2 @ x2
    x6 = x4 @ x2
    u = x @ (x6 @ (b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4 + b[3] * x2
             + b[1] * identity)
    v = x6 @ (b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 \
        + b[0] * identity
    result = np.linalg.solve(v - u, v + u)
    for step in range(int(squarings.max(initial=0))):
        result = np.where((squarings > step)[..., None, None], result @ result, result)
    return result.astype(a.dtype)


@primitive("matrix_exp", node="LinalgMatrixExpBackward0", group=OTHER, saves=("a",))
def _matrix_exp(a):
    return _expm(a)


@_matrix_exp.vjp
def _(ctx, grad):
    """The Fréchet derivative in direction G at A^T: exp([[A^T, G], [0, A^T]])'s upper-right
    block."""
    (a,) = ctx.saved
    n = a._array.shape[-1]
    transposed = _mT(a)
    block = cat([cat([transposed, grad], -1), cat([zeros_like(a), transposed], -1)], -2)
    return narrow(narrow(_matrix_exp(block), -2, 0, n), -1, n, n)


def matrix_exp(A):
    """e^A = sum A^k / k!."""
    _check_square("linalg.matrix_exp", A)
    return _matrix_exp(A)


def pinverse(input, rcond=1e-15):
    """``torch.pinverse``: ``linalg.pinv`` with ``rcond`` as its relative tolerance."""
    return pinv(input, rtol=rcond)


def vecdot(x, y, *, dim=-1):
    """The dot products of the vectors along ``dim``, broadcasting the rest."""
    return _sum(x * y, dim)


def linalg_diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """``torch.diagonal`` with the last two dimensions as the default plane."""
    return _diagonal(A, offset, dim1, dim2)


def _info(failed):
    return Tensor._make(np.asarray(failed, dtype=np.int32))


_SolveEx = structseq("linalg_solve_ex", "result info")
_InvEx = structseq("linalg_inv_ex", "inverse info")
_CholeskyEx = structseq("linalg_cholesky_ex", "L info")


def inv_ex(A, *, check_errors=False):
    """The inverse and ``info`` (non-zero for a singular matrix, whose inverse is not finite)
    instead of an error, unless ``check_errors``."""
    if check_errors:
        with lapack.renamed("linalg.inv", "linalg.inv_ex"):
            return _InvEx(inv(A), _info(np.zeros(A._array.shape[:-2])))
    check_square_shape("linalg.inv", A)
    if not _singular_matrices(A).any():
        return _InvEx(inv(A), _info(np.zeros(A._array.shape[:-2])))
    check_floating("linalg.inv", A)
    inverse, info = lapack.inverse_with_info(A._array)  # LAPACK's infs and nans, as PyTorch's
    return _InvEx(Tensor._make(inverse), _info(info))


def _singular_matrices(A):
    """1 for each matrix of the batch that has no inverse, 0 otherwise (an LU's zero pivot)."""
    from .factorizations import _getrf
    return (_getrf(A._array)[2] != 0).astype(np.int32) if A._array.size else \
        np.zeros(A._array.shape[:-2], np.int32)


def solve_ex(A, B, *, left=True, check_errors=False):
    """``linalg.solve`` and ``info`` (non-zero for a singular A, with a non-finite result)."""
    if check_errors or not _singular_matrices(A).any():
        with lapack.renamed("torch.linalg.solve", "torch.linalg.solve_ex"):
            return _SolveEx(solve(A, B, left=left), _info(np.zeros(A._array.shape[:-2])))
    check_square_shape("linalg.solve", A)
    vector = B._array.ndim == 1 or B._array.shape == A._array.shape[:-1]
    result, info = lapack.solve_with_info(A._array, B._array[..., None] if vector else B._array)
    return _SolveEx(Tensor._make(result[..., 0] if vector else result), _info(info))


def cholesky_ex(A, *, upper=False, check_errors=False):
    """``linalg.cholesky`` and ``info`` (the order of the first leading minor that is not
    positive-definite, 0 if none) instead of an error, unless ``check_errors``."""
    try:
        with lapack.renamed("linalg.cholesky", "linalg.cholesky_ex"):
            return _CholeskyEx(cholesky(A, upper=upper), _info(np.zeros(A._array.shape[:-2])))
    except lapack.LinAlgError:
        if check_errors:
            raise
    factor, info = lapack.cholesky_with_info(A._array, upper=upper)  # LAPACK's partial factor
    return _CholeskyEx(Tensor._make(factor), _info(info))


def _shape_requirement(left, right, what):
    if left != right:
        raise RuntimeError(f"Expected self to satisfy the requirement {what}, but got {left} != "
                           f"{right}")


def tensorinv(A, ind=2):
    """The inverse of ``A`` read as a matrix of its first ``ind`` dimensions by the others,
    shaped back as (others, first)."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape = A._array.shape
    rows, columns = int(np.prod(shape[:ind])), int(np.prod(shape[ind:]))
    _shape_requirement(columns, rows, "prod(self.shape[ind:]) == prod(self.shape[:ind])")
    return inv(A.reshape(rows, columns)).reshape(shape[ind:] + shape[:ind])


def tensorsolve(A, B, dims=None):
    """``X`` with ``tensordot(A, X, X.ndim) = B``; ``dims`` (of A) are moved last first."""
    if dims is not None:
        dims = [d % A._array.ndim for d in dims]
        A = A.permute([d for d in range(A._array.ndim) if d not in dims] + dims)
    shape, b_ndim = A._array.shape, B._array.ndim
    rows, columns = int(np.prod(shape[:b_ndim])), int(np.prod(shape[b_ndim:]))
    for right in (B._array.size, rows):  # PyTorch names B's size in its message
        _shape_requirement(columns, right,
                           "prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim])")
    return solve(A.reshape(rows, columns), B.reshape(rows)).reshape(shape[b_ndim:])


def householder_product(A, tau):
    """The first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^T, v_i column i of ``A``
    below the diagonal with a 1 on it (how QR factorizations store Q)."""
    m, n = A._array.shape[-2:]
    k = tau._array.shape[-1]
    if m < n:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-2] must be greater "
                           "than or equal to input.shape[-1]")
    if n < k:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-1] must be greater "
                           "than or equal to tau.shape[-1]")
    return _householder_product(A, tau)


_Lstsq = structseq("linalg_lstsq", "solution residuals rank singular_values")
_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def lstsq(A, B, rcond=None, *, driver=None):
    """The least-squares (minimum-norm when underdetermined) solution of A X = B, from the
    pseudo-inverse, with what each LAPACK ``driver`` also reports: the squared residuals (m > n,
    full rank, not gelsy), the rank (not gels) and the singular values (gelsd, gelss)."""
    driver = "gelsy" if driver is None else driver
    if driver not in _LSTSQ_DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of "
                           "(gels, gelsy, gelsd, gelss)")
    _check_matrices("torch.linalg.lstsq", A, "input")
    vector = B._array.ndim == A._array.ndim - 1
    m, n = A._array.shape[-2:]
    if B._array.shape[-1 if vector else -2] != m:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    rtol = np.finfo(A._array.dtype).eps * max(m, n) if rcond is None or rcond < 0 else rcond
    empty = Tensor._make(np.empty(0, A._array.dtype))
    rank = Tensor._make(np.empty(0, np.int64))
    if driver != "gels":
        from .matrix import matrix_rank
        rank = matrix_rank(A.detach(), rtol=rtol)
    residuals = m > n and driver != "gelsy" and (driver == "gels" or
                                                  bool((rank._array == n).all()))
    solution, residuals = lstsq_solution(A, B, rtol, residuals)  # a vector's: one residual
    singular_values = (linalg_svd(A.detach(), full_matrices=False)[1] if driver in
                       ("gelsd", "gelss") else empty)
    return _Lstsq(solution, residuals, rank, singular_values)
