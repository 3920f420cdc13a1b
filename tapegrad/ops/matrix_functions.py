"""Functions of square matrices and their ``_ex`` forms: slogdet / logdet, matrix_power,
matrix_exp, pinv / pinverse, vecdot, linalg.diagonal, solve_ex / inv_ex / cholesky_ex.

slogdet and matrix_exp are primitives (d log|det A| = tr(A^-1 dA); the gradient of exp(A) is
the upper-right block of the exponential of [[A^T, G], [0, A^T]], itself differentiable); the
others compose existing ops.
"""
import numpy as np

from ..return_types import structseq
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from . import lapack
from .conjugation import conj
from .creation import eye, zeros_like
from .decompositions import householder_product as _householder_product
from .decompositions import lstsq_solution, pinv
from .elementwise import where
from .layout import diagonal as _diagonal
from .linalg import _broadcast_batch, matmul, vdot
from .matrix import (_cholesky, _inv, _mH, _mT, check_floating, check_lapack_dtype, check_lapack_types,
                     check_low_precision, check_square_shape, cholesky, inv, linalg_svd, solve)
from .reduction import sum as _sum
from .registry import OTHER, primitive
from .shape import cat, narrow, unsqueeze

__all__ = ["slogdet", "logdet", "matrix_power", "matrix_exp", "pinverse"]

_Slogdet = structseq("slogdet", "sign logabsdet")
_LinalgSlogdet = structseq("linalg_slogdet", "sign logabsdet")


@primitive("slogdet", node="LinalgSlogdetBackward0", group=OTHER, n_outputs=None,
           saves=("a", "out1"))
def _slogdet(a):
    """log|det A| and the sign (det / |det|, complex for a complex A), both outputs of the node;
    a real singular matrix's sign, or one with a nan, is the LU's signed zero, as PyTorch's."""
    with np.errstate(invalid="ignore"):  # a nan entry: nan, silently, as PyTorch
        sign, logabsdet = np.linalg.slogdet(a)
    from_lu = (sign == 0) | np.isnan(logabsdet)
    if from_lu.any() and a.dtype.kind == "f":
        sign = np.where(from_lu, lapack.lu_slogdet(a)[0], sign)
    return logabsdet, sign


@_slogdet.vjp
def _(ctx, grads):
    """d log det A = tr(A^-1 dA) = d log|det A| + i d arg(det A): the gradient is g A^-H, with
    g the logabsdet's gradient (of a singular A: the infinite inverse PyTorch's LU solve
    leaves). A complex sign = e^(i arg) adds i Im(G_sign conj(sign)) to g; a real sign is
    piecewise constant."""
    a, sign = ctx.saved
    grad = _complex_log_det_grad(grads, sign) if a.is_complex() else grads[0]
    if grad is None:
        return zeros_like(a)
    return unsqueeze(unsqueeze(grad, -1), -1) * _mH(_inv_or_lu_inverse(a))


def _complex_log_det_grad(grads, sign):
    grad_logabsdet, grad_sign = (grads[i] if i < len(grads) else None for i in range(2))
    if grad_sign is None:
        return None if grad_logabsdet is None else grad_logabsdet.to(sign.dtype)
    rotation = (grad_sign * conj(sign)).imag * 1j
    return rotation if grad_logabsdet is None else grad_logabsdet + rotation


def _inv_or_lu_inverse(a):
    if _singular_matrices(a).any():
        return Tensor._make(lapack.inverse_with_info(a._array)[0])
    return _inv(a)


def _check_square(name, A):
    check_square_shape(name, A)
    check_floating(name, A, complex_ok=True)


def linalg_slogdet(A):
    """The sign of det(A) and log |det(A)|, which stays finite where det over- or underflows."""
    _check_square("linalg.slogdet", A)
    check_low_precision("linalg.slogdet", A)
    logabsdet, sign = _slogdet(A)
    return _LinalgSlogdet(sign, logabsdet)


def slogdet(input):
    return _Slogdet(*linalg_slogdet(input))


def logdet(input):
    """log det(A): nan for a negative determinant, -inf for zero; of a complex A, the principal
    log(sign) + log|det A| (composed as PyTorch does)."""
    _check_square("logdet", input)
    check_low_precision("logdet", input)
    sign, logabsdet = linalg_slogdet(input)
    if input.is_complex():
        return sign.log() + logabsdet
    return where(sign < 0, float("nan"), logabsdet)


def matrix_power(A, n):
    """A^n by repeated squaring (n < 0: of A's inverse); A^0 is the identity."""
    check_square_shape("linalg.matrix_power", A)
    if n == 0:  # PyTorch's nodes: the identity copied into a clone
        return A.clone().copy_(eye(A._array.shape[-1], dtype=A.dtype))
    inverted = n < 0
    if inverted:
        A, n = inv(A), -n
    if n == 1:
        return A if inverted else A.clone()
    if n == 3:  # PyTorch's shortcut: (A A) A
        return matmul(matmul(A, A), A)
    result, square = None, A
    while n:
        if n & 1:
            result = square if result is None else matmul(result, square)
        n >>= 1
        if n:
            square = matmul(square, square)
    return result


# e^A as PyTorch computes it (Bader, Blanes & Casas, "Computing the matrix exponential with an
# optimized Taylor polynomial approximation", Mathematics 2019): the Taylor polynomial of degree
# 1, 2, 4, 8, 12 or 18 whose bound theta_m on the 1-norm admits A, each evaluated with the
# paper's few-product schemes; above the last bound, A / 2^s with degree 18 and s squarings.
# The bounds per dtype, the smallest first:
_THETAS = {
    np.dtype(np.float32): (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
                           5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00),
    np.dtype(np.float64): (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
                           4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00),
}
# The paper's coefficients for degree 12 (its eq. for m = 12: B_i = sum_j b_ij A^j, j <= 3,
# A6 = B_3 + B_4^2, T12 = B_1 + (B_2 + A6) A6) and degree 18 (j <= 4, A9 = B_1 B_5 + B_4,
# T18 = B_2 + (B_3 + A9) A9, B_i = sum_j b_ij A^j over A^0..A^3 and A^6).
_T12 = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740),
        (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031,
         0.01108844528519167989),
        (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968,
         0.00610700528898058230),
        (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079,
         -0.00675951846863086359))
_T18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03,
         -8.92138498045729985177e-04, 0.),
        (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
         -6.37898194594723280150e-04),
        (-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
         -6.98210122488052056106e-03, 3.34975017086070470649e-05),
        (-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
         2.95552570429315521194e-02, -1.39180257516060693404e-05),
        (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02,
         -1.40086798182036094347e-05))


def _powers(a, count):
    """I, A, A^2, A^3 = A A^2, A^6 = A^3 A^3: the first ``count``."""
    powers = [np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape), a]
    if count > 2:
        powers.append(a @ a)
    if count > 3:
        powers.append(a @ powers[2])
    if count > 4:
        powers.append(powers[3] @ powers[3])
    return powers[:count]


def _combination(matrices, coefficients):
    """sum_j c_j M_j, added left to right from zero, each c_j in the matrices' dtype."""
    total = np.zeros_like(matrices[0])
    for matrix, c in zip(matrices, coefficients):
        total = total + matrix.dtype.type(c) * matrix
    return total


def _taylor_1(a):
    return _combination(_powers(a, 2), (1.0, 1.0))


def _taylor_2(a):
    return _combination(_powers(a, 3), (1.0, 1.0, 0.5))


def _taylor_4(a):
    """I + A + A^2 (I/2 + A/6 + A^2/24)."""
    powers = _powers(a, 3)
    tail = powers[2] @ _combination(powers, (1 / 2.0, 1 / 6.0, 1 / 24.0))
    return _combination(powers + [tail], (1.0, 1.0, 0.0, 1.0))


def _real_dtype(dtype):
    """float32 for complex64, float64 for complex128: the precision a complex matrix's
    coefficients and norm bounds are taken in, as PyTorch's real value type."""
    return np.finfo(dtype).dtype


def _taylor_8_coefficients(dtype):
    """The paper's closed forms for degree 8 (with sqrt(177)), rounded through ``dtype``'s
    real precision."""
    rounded = _real_dtype(dtype).type
    sqrt_177, x3 = float(rounded(13.30413469565007072504)), float(rounded(2.0 / 3.0))
    return tuple(float(rounded(c)) for c in (
        x3 * ((1 + sqrt_177) / 88), x3 * ((1 + sqrt_177) / 352), x3,
        (-271 + 29 * sqrt_177) / (315 * x3), (-11 + 11 * sqrt_177) / (1260 * x3),
        (-99 + 11 * sqrt_177) / (5040 * x3), (89 - sqrt_177) / (5040 * x3 * x3),
        (857 - 58 * sqrt_177) / 630))


def _taylor_8(a):
    """A4 = A^2 (x1 A + x2 A^2), A8 = (x3 A^2 + A4)(x4 I + x5 A + x6 A^2 + x7 A4),
    T8 = I + A + y2 A^2 + A8."""
    x1, x2, x3, x4, x5, x6, x7, y2 = _taylor_8_coefficients(a.dtype)
    powers = _powers(a, 3)
    a4 = powers[2] @ _combination(powers[1:], (x1, x2))
    a8 = _combination([powers[2], a4], (x3, 1.0)) @ _combination(powers + [a4], (x4, x5, x6, x7))
    return _combination(powers + [a4, a8], (1.0, 1.0, y2, 0.0, 1.0))


def _taylor_12(a):
    b = [_combination(_powers(a, 4), row) for row in _T12]
    a6 = b[2] + b[3] @ b[3]
    return b[0] + (b[1] + a6) @ a6


def _taylor_18(a):
    b = [_combination(_powers(a, 5), row) for row in _T18]
    a9 = b[3] + b[0] @ b[4]
    return b[1] + (b[2] + a9) @ a9


def _taylor_18_scaled_and_squared(a, norms, theta):
    squarings = np.maximum(0, np.ceil(np.log2(norms / norms.dtype.type(theta)))).astype(np.int64)
    result = _taylor_18(a / (2.0 ** squarings).astype(a.dtype)[:, None, None])
    for k, s in enumerate(squarings):
        for _ in range(s):
            result[k] = result[k] @ result[k]
    return result


_TAYLOR = (_taylor_1, _taylor_2, _taylor_4, _taylor_8, _taylor_12)


def _expm(a):
    """Each matrix of the batch with the degree its 1-norm asks for (a NaN norm: NaN)."""
    n = a.shape[-1]
    if n == 0:
        return a.copy()
    if n == 1:
        return np.exp(a)
    flat = a.reshape(-1, n, n)
    real = _real_dtype(a.dtype).type
    thetas = _THETAS[np.dtype(real)]
    norms = np.abs(flat).sum(axis=-2).max(axis=-1)
    result = np.full_like(flat, np.nan)
    lower = -1.0
    for taylor, upper in zip(_TAYLOR, thetas):
        chosen = (lower < norms) & (norms <= real(upper))
        if chosen.any():
            result[chosen] = taylor(flat[chosen])
        lower = real(upper)
    large = norms >= real(thetas[-2])
    if large.any():
        result[large] = _taylor_18_scaled_and_squared(flat[large], norms[large], thetas[-1])
    return result.reshape(a.shape)


@primitive("matrix_exp", node="LinalgMatrixExpBackward0", group=OTHER, saves=("a",))
def _matrix_exp(a):
    if a.dtype == np.float16:  # no float16 Taylor thresholds: computed in float32, then rounded
        return _expm(a.astype(np.float32)).astype(np.float16)
    return _expm(a)


@_matrix_exp.vjp
def _(ctx, grad):
    """The Fréchet derivative in direction G at A^T: exp([[A^T, G], [0, A^T]])'s upper-right
    block (conjugated around for a complex A, by the registry, which makes it the derivative at
    A^H, as PyTorch's)."""
    (a,) = ctx.saved
    n = a._array.shape[-1]
    transposed = _mT(a)
    block = cat([cat([transposed, grad], -1), cat([zeros_like(a), transposed], -1)], -2)
    return narrow(narrow(_matrix_exp(block), -2, 0, n), -1, n, n)


def matrix_exp(A):
    """e^A = sum A^k / k!, of real or complex matrices."""
    check_square_shape("linalg.matrix_exp", A)
    check_floating("linalg.matrix_exp", A, complex_ok=True)
    return _matrix_exp(A)


def pinverse(input, rcond=1e-15):
    """``torch.pinverse``: ``linalg.pinv`` with ``rcond`` as its relative tolerance."""
    return pinv(input, rtol=rcond)


def vecdot(x, y, *, dim=-1):
    """The dot products of the vectors along ``dim``, broadcasting the rest; complex ``x`` is
    conjugated (the inner product <x, y>)."""
    check_floating("linalg.vecdot", x, complex_ok=True)
    if x._array.dtype != y._array.dtype:
        raise RuntimeError("linalg.vecdot: Expected x and y to have the same dtype, but found x "
                           f"of type {_LEGACY_TYPE_NAMES[x._array.dtype.name]} and y of type "
                           f"{_LEGACY_TYPE_NAMES[y._array.dtype.name]} instead")
    if x._array.ndim == y._array.ndim == 1 and dim in (0, -1):
        return vdot(x, y)  # PyTorch's own shortcut for two vectors (VdotBackward0)
    return _sum((x.conj() if x.is_complex() else x) * y, dim)


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
    check_floating("linalg.inv", A, complex_ok=True)
    check_low_precision("linalg.inv", A)
    if not _singular_matrices(A).any():
        return _InvEx(inv(A), _info(np.zeros(A._array.shape[:-2])))
    return _InvEx(_singular_inverse(A), _info(lapack.inverse_with_info(A._array)[1]))


@primitive("singular_inverse", node="LinalgInvExBackward0", group=OTHER, saves=("out",))
def _singular_inverse(a):
    """The inverse LAPACK leaves for a batch with singular matrices (their infs and nans), which
    autograd records under inv's rule, as PyTorch records inv_ex's result whatever its info."""
    return lapack.inverse_with_info(a)[0]


_singular_inverse.vjp(_inv.vjp_rule)


def _singular_matrices(A):
    """1 for each matrix of the batch that has no inverse, 0 otherwise (an LU's zero pivot)."""
    from .factorizations import _getrf
    return (_getrf(A._array)[2] != 0).astype(np.int32) if A._array.size else \
        np.zeros(A._array.shape[:-2], np.int32)


def solve_ex(A, B, *, left=True, check_errors=False):
    """``linalg.solve`` and ``info`` (non-zero for a singular A, with a non-finite result)."""
    check_floating("linalg.solve", A, complex_ok=True)
    check_lapack_dtype("lu_cpu", A, complex_ok=True)
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
    factor = _partial_cholesky(A, upper=upper)
    return _CholeskyEx(factor, _info(lapack.cholesky_with_info(A._array, upper=upper)[1]))


@primitive("partial_cholesky", node="LinalgCholeskyExBackward0", group=OTHER, saves=("out",),
           complex_rule=True)
def _partial_cholesky(a, upper):
    """The factor LAPACK leaves where the factorization fails (the columns done so far), which
    autograd records under cholesky's rule, as PyTorch records cholesky_ex's result whatever its
    info."""
    return lapack.cholesky_with_info(a, upper=upper)[0]


_partial_cholesky.vjp(_cholesky.vjp_rule)


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
    """The first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^H, v_i column i of ``A``
    below the diagonal with a 1 on it (how QR factorizations store Q)."""
    m, n = A._array.shape[-2:]
    k = tau._array.shape[-1]
    if m < n:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-2] must be greater "
                           "than or equal to input.shape[-1]")
    if n < k:
        raise RuntimeError("torch.linalg.householder_product: input.shape[-1] must be greater "
                           "than or equal to tau.shape[-1]")
    if tau._array.dtype != A._array.dtype:
        raise RuntimeError(f"torch.linalg.householder_product: tau dtype "
                           f"{_LEGACY_TYPE_NAMES[tau._array.dtype.name]} does not match input "
                           f"dtype {_LEGACY_TYPE_NAMES[A._array.dtype.name]}")
    check_lapack_dtype("orgqr_cpu", A, complex_ok=True)
    return _householder_product(A, tau)


_Lstsq = structseq("linalg_lstsq", "solution residuals rank singular_values")
_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _lstsq_is_vector(A, B):
    """Whether lstsq reads B as (a batch of) vectors: 1-D, or shaped as A without its last
    dimension."""
    return B._array.ndim == 1 or B._array.shape == A._array.shape[:-1]


def _check_lstsq_shapes(A, B):
    """PyTorch's rank and row-count checks, in its order."""
    if not 0 <= A._array.ndim - B._array.ndim <= 1:
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to "
                           "other.dim() and (input.dim() - other.dim()) <= 1")
    vector = _lstsq_is_vector(A, B)
    if B._array.shape[-1 if vector else -2] != A._array.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match "
                           f"other.size({-1 if vector else -2})")


def _lstsq_right_side(A, B):
    """B broadcast against A's batch. A matrix B with one dimension fewer than A is read, as
    PyTorch does, with all its leading dimensions (not its last two) as the batch."""
    if _lstsq_is_vector(A, B):
        return B
    one_fewer = B._array.ndim < A._array.ndim
    batch = _broadcast_batch(A._array.shape[:-2], B._array.shape[:-1 if one_fewer else -2])
    return B.expand(batch + B._array.shape[-2:]) if one_fewer else B


def lstsq(A, B, rcond=None, *, driver=None):
    """The least-squares (minimum-norm when underdetermined) solution of A X = B, from the
    pseudo-inverse, with what each LAPACK ``driver`` also reports: the squared residuals (m > n,
    full rank, not gelsy), the rank (not gels) and the singular values (gelsd, gelss)."""
    if A._array.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if B._array.ndim < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if A._array.dtype != B._array.dtype:
        raise RuntimeError("torch.linalg.lstsq: Expected input and other to have the same dtype, "
                           f"but got input's dtype {_LEGACY_TYPE_NAMES[A._array.dtype.name]} and "
                           f"other's dtype {_LEGACY_TYPE_NAMES[B._array.dtype.name]}")
    _check_lstsq_shapes(A, B)
    driver = "gelsy" if driver is None else driver
    if driver not in _LSTSQ_DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of "
                           "(gels, gelsy, gelsd, gelss)")
    m, n = A._array.shape[-2:]
    check_lapack_types(A)
    B = _lstsq_right_side(A, B)
    rtol = np.finfo(A._array.dtype).eps * max(m, n) if rcond is None or rcond < 0 else rcond
    empty = Tensor._make(np.empty(0, A._array.real.dtype))  # no singular values: real
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
