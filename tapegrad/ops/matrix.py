"""Functions of matrices: determinant, inverse, linear solve, symmetric eigenvalues, the QR,
Cholesky and singular value decompositions (``torch.linalg``'s core). All work on batches
``(..., m, n)``.

Each differentiable one is a primitive with PyTorch's node name and a backward rule written with
tapegrad ops (so ``create_graph`` differentiates it again): d det(A) = det(A) tr(A^-1 dA),
d A^-1 = -A^-1 dA A^-1, a solve's gradient is another solve, and the SVD's is PyTorch's
``svd_backward`` (complex matrices too, refusing a loss that depends on the singular vectors'
phases).
"""
import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ..return_types import structseq
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from . import lapack
from .broadcast import sum_to
from .conjugation import conj
from .creation import zeros, zeros_like
from .elementwise import where
from .layout import diag_embed, tril
from .linalg import matmul
from .registry import OTHER, primitive
from .shape import narrow, transpose, unsqueeze

__all__ = ["det", "inv", "inverse", "solve", "eigvalsh", "eigh", "cholesky", "svd", "linalg_svd",
           "svdvals"]


def _mT(t):
    return transpose(t, -2, -1)


def _check_matrices(name, A, argument="A"):
    if A._array.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor {argument} must have at least 2 dimensions.")


def check_square_shape(name, A, argument="A"):
    _check_matrices(name, A, argument)
    rows, columns = A._array.shape[-2:]
    if rows != columns:
        raise RuntimeError(f"{name}: {argument} must be batches of square matrices, but they are "
                           f"{rows} by {columns} matrices")


def check_floating(name, A, complex_ok=False):
    """PyTorch's dtype check; ``complex_ok`` for the functions tapegrad computes on complex
    matrices too (det, inv, solve, whose rules are holomorphic, and cholesky)."""
    kind = A._array.dtype.kind
    if kind == "c" and not complex_ok:
        raise NotImplementedError(f"{name}: tapegrad computes this function on real matrices "
                                  f"only, not {_LEGACY_TYPE_NAMES[A._array.dtype.name]}")
    if kind not in "fc":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{_LEGACY_TYPE_NAMES[A._array.dtype.name]}")


def check_same_dtype(b, A):
    """LAPACK solvers' refusal of a right-hand side ``b`` whose dtype is not ``A``'s."""
    if b._array.dtype != A._array.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_LEGACY_TYPE_NAMES[b._array.dtype.name]} and A of type "
                           f"{_LEGACY_TYPE_NAMES[A._array.dtype.name]} instead.")


def check_lapack_dtype(kernel, A, complex_ok=False):
    """PyTorch's LAPACK ``kernel`` is compiled for float32 and float64 (and complex, for those
    tapegrad computes on complex): any other dtype, float16 included, gets its dispatch error."""
    allowed = (np.float32, np.float64) + ((np.complex64, np.complex128) if complex_ok else ())
    if A._array.dtype not in allowed:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[A._array.dtype.name]}'")


def check_low_precision(name, A):
    """The functions PyTorch refuses in half precision before dispatching (inverses, log
    determinants)."""
    if A._array.dtype == np.float16:
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got Half")


def _check_square(name, A, argument="A", complex_ok=False):
    check_square_shape(name, A, argument)
    check_floating(name, A, complex_ok)


def _singular(name, what):
    return lambda inputs, params: (f"{name}: The {what} could not be completed because the input "
                                   "matrix is singular.")


@primitive("det", node="LinalgDetBackward0", group=OTHER, saves=("a", "out"))
def _det(a):
    value = np.linalg.det(a)
    zero = value == 0
    return np.where(zero, lapack.lu_det(a), value) if zero.any() else value  # -0. as PyTorch


@_det.vjp
def _(ctx, grad):
    """d det(A) / dA = det(A) A^-T. For a singular A, PyTorch's first derivative is that
    product's zero (its triangular solves skip zero right-hand sides); under ``create_graph``
    it is the adjugate from the SVD, det(U) det(Vh) U diag(prod_{j != i} s_j) Vh, exact at any
    rank and differentiable again."""
    a, det_value = ctx.saved
    scale = unsqueeze(unsqueeze(grad * det_value, -1), -1)
    singular = det_value._array == 0
    if not singular.any():
        return scale * _mT(_inv(a))
    mask = Tensor._make(singular[..., None, None])
    eye = Tensor._make(np.eye(a._array.shape[-1], dtype=bool))
    nonsingular = scale * _mT(_inv(where(mask, eye.to(a.dtype), a)))
    if not grad_mode.is_grad_enabled():
        return where(mask, zeros_like(a), nonsingular)
    u, s, vh = _svd(a, full_matrices=False)
    others = where(eye, 1.0, unsqueeze(s, -2)).prod(-1)
    alpha = _det(u) * _det(vh) * grad
    adjugate = matmul(u * unsqueeze(others * unsqueeze(alpha, -1), -2), vh)
    return where(mask, adjugate, nonsingular)


@primitive("inv", node="LinalgInvExBackward0", group=OTHER, saves=("out",),
           error=_singular("linalg.inv", "inversion"))
def _inv(a, singular_to_inf=False):
    """``singular_to_inf``: a singular matrix's inverse is all inf instead of an error, which is
    what PyTorch's ``cond`` makes of ``inv_ex``'s result for it."""
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError:
        if not singular_to_inf:
            lapack.raise_if_failed("linalg.inv", lapack.inverse_with_info(a)[1], lambda i: (
                f"The diagonal element {i} is zero, the inversion could not be completed "
                "because the input matrix is singular."))
    matrices = a.reshape((-1,) + a.shape[-2:])
    inverses = np.full_like(matrices, np.inf)
    for i, matrix in enumerate(matrices):
        try:
            inverses[i] = np.linalg.inv(matrix)
        except np.linalg.LinAlgError:
            pass  # stays inf
    return inverses.reshape(a.shape)


@_inv.vjp
def _(ctx, grad, singular_to_inf=False):
    (inverse_value,) = ctx.saved
    inverse_t = _mT(inverse_value)
    return -matmul(matmul(inverse_t, grad), inverse_t)


@primitive("solve", node="LinalgSolveExBackward0", group=OTHER, saves=("a", "out"),
           error=_singular("torch.linalg.solve", "solve"))
def _solve(a, b, vector, left=True):
    """A X = B, or X A = B (``left=False``: the transposed system)."""
    if not left:
        a, b = np.swapaxes(a, -1, -2), (b if vector else np.swapaxes(b, -1, -2))
    try:
        x = np.linalg.solve(a, b[..., None])[..., 0] if vector else np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        info = lapack.inverse_with_info(a)[1]
        lapack.raise_if_failed("torch.linalg.solve", info, lambda i: (
            "The solver failed because the input matrix is singular."))
        raise
    return x if left or vector else np.swapaxes(x, -1, -2)


@_solve.vjp
def _(ctx, grad, vector, left=True):
    """X = A^-1 B: the gradient of B is A^-T G, and of A, minus that times X^T (X = B A^-1:
    G A^-T, and minus X^T times that); both summed back over broadcast batch dimensions."""
    a, x = ctx.saved
    grad_b = _solve(_mT(a), grad, vector=vector, left=left)
    if not ctx.needs_input_grad[0]:
        return None, sum_to(grad_b, ctx.input_shapes[1])
    if vector:
        grad_a = -unsqueeze(grad_b, -1) * unsqueeze(x, -2)
    else:
        grad_a = -matmul(grad_b, _mT(x)) if left else -matmul(_mT(x), grad_b)
    if not left and vector:
        grad_a = _mT(grad_a)
    return sum_to(grad_a, ctx.input_shapes[0]), sum_to(grad_b, ctx.input_shapes[1])


@primitive("eigvalsh", node="LinalgEighBackward0", group=OTHER, saves=("a",),
           complex_rule=True)
def _eigvalsh(a, UPLO):
    return np.linalg.eigvalsh(a, UPLO=UPLO)


@_eigvalsh.vjp
def _(ctx, grad, UPLO):
    """d lambda_i = v_i^H dA v_i, so the gradient is V diag(G) V^H; the eigenvectors come from
    ``eigh``, whose own rule differentiates them again (``hessian`` of an eigenvalue)."""
    (a,) = ctx.saved
    vectors = _eigh(a, UPLO=UPLO)[1]
    return matmul(vectors * unsqueeze(grad.to(vectors.dtype), -2), _mH(vectors))


def _mH(t):
    """The conjugate transpose (the transpose, for real matrices)."""
    return conj(_mT(t))


@primitive("eigh", node="LinalgEighBackward0", group=OTHER, n_outputs=None,
           saves=("out0", "out1"), complex_rule=True)
def _eigh(a, UPLO):
    return tuple(np.linalg.eigh(a, UPLO=UPLO))


@_eigh.vjp
def _(ctx, grads, UPLO):
    """PyTorch's ``linalg_eig_backward`` (Hermitian case): with V^H gV projected on the
    skew-Hermitian matrices, gA = V (skew(V^H gV) / E + diag(gL)) V^H, E_ij = L_j - L_i. A
    complex eigenvector is defined up to a phase: a loss depending on it is refused."""
    values, vectors = ctx.saved
    grad_values, grad_vectors = (grads[i] if i < len(grads) else None for i in range(2))
    if grad_values is not None:
        grad_values = grad_values.to(vectors.dtype)
    if grad_vectors is None:
        return matmul(vectors * unsqueeze(grad_values, -2), _mH(vectors))
    product = matmul(_mH(vectors), grad_vectors)
    check_phase_free(product, "linalg_eigh_backward")
    skew = (product - _mH(product)) * 0.5
    gaps = unsqueeze(values, -2) - unsqueeze(values, -1)
    n = values._array.shape[-1]
    eye_mask = Tensor._make(np.eye(n, dtype=bool))
    inner = skew / where(eye_mask, 1.0, gaps)
    if grad_values is not None:
        inner = where(eye_mask, diag_embed(grad_values), inner)
    return matmul(vectors, matmul(inner, _mH(vectors)))


def check_phase_free(product, name):
    """PyTorch's refusal of a loss that depends on complex eigenvectors' arbitrary phases:
    the diagonal of V^H gV (``product``) must then be real, to its tolerance."""
    diagonal = product._array.diagonal(0, -2, -1)
    if diagonal.dtype.kind == "c" and not np.allclose(diagonal.imag, 0, rtol=1e-2, atol=1e-2):
        raise RuntimeError(
            f"{name}: The eigenvectors in the complex case are specified up to multiplication "
            "by e^{i phi}. The specified loss function depends on this quantity, so it is "
            "ill-defined.")


_Eigh = structseq("linalg_eigh", "eigenvalues eigenvectors")


def _check_eigh_input(A, UPLO):
    """PyTorch's checks, in its order; ``UPLO`` in either case, returned upper-case."""
    check_square_shape("linalg.eigh", A)
    if not isinstance(UPLO, str) or UPLO.upper() not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    check_lapack_dtype("linalg_eigh_cpu", A, complex_ok=True)
    return UPLO.upper()


def eigh(A, UPLO="L"):
    """Eigenvalues (ascending) and orthonormal eigenvectors of symmetric matrices (only the
    ``UPLO`` triangle is read). A loss must not depend on the eigenvectors' signs."""
    return _Eigh(*_eigh(A, UPLO=_check_eigh_input(A, UPLO)))


def _not_positive_definite(inputs, params):
    return ("linalg.cholesky: The factorization could not be completed because the input is not "
            "positive-definite.")


@primitive("cholesky", node="LinalgCholeskyExBackward0", group=OTHER, saves=("out",),
           error=_not_positive_definite, complex_rule=True)
def _cholesky(a, upper):
    try:
        return np.linalg.cholesky(a, upper=upper)
    except np.linalg.LinAlgError:
        lapack.raise_if_failed("linalg.cholesky", lapack.cholesky_with_info(a)[1], lambda i: (
            "The factorization could not be completed because the input is not "
            f"positive-definite (the leading minor of order {i} is not positive-definite)."))
        raise


@_cholesky.vjp
def _(ctx, grad, upper):
    """PyTorch's rule: gA = L^-H Phi L^-1 with P = tril(L^H gL) and Phi = (P + tril(P, -1)^H)
    / 2 (for ``upper``, L = U^H and gL = gU^H; ^H is the transpose for real matrices, where
    Phi is symmetric; a complex diagonal is kept, as PyTorch keeps it)."""
    (factor,) = ctx.saved
    lower, grad = (_mH(factor), _mH(grad)) if upper else (factor, grad)
    product = tril(matmul(_mH(lower), grad))
    phi = (product + _mH(tril(product, -1))) * 0.5
    lower_inverse = _inv(lower)
    return matmul(matmul(_mH(lower_inverse), phi), lower_inverse)


def det(A):
    _check_square("linalg.det", A, complex_ok=True)
    check_lapack_dtype("lu_cpu", A, complex_ok=True)
    return _det(A)


def inv(A):
    _check_square("linalg.inv", A, complex_ok=True)
    check_low_precision("linalg.inv", A)
    return _inv(A)


inverse = inv


def inverse_or_inf(A):
    """Inverses, all inf for a singular matrix: what PyTorch's ``cond`` makes of ``inv_ex``."""
    check_floating("linalg.inv", A, complex_ok=True)
    check_low_precision("linalg.inv", A)
    return _inv(A, singular_to_inf=True)


def solve(A, B, *, left=True):
    """``X`` with ``A X = B`` (``X A = B`` unless ``left``); ``B`` may be a vector (or a batch
    of them) when ``left``. Checked in PyTorch's order, with its messages."""
    _check_matrices("linalg.solve", A)
    check_floating("linalg.solve", A, complex_ok=True)
    if B._array.dtype != A._array.dtype:
        raise RuntimeError("linalg.solve: Expected A and B to have the same dtype, but found A of "
                           f"type {_LEGACY_TYPE_NAMES[A._array.dtype.name]} and B of type "
                           f"{_LEGACY_TYPE_NAMES[B._array.dtype.name]} instead")
    check_square_shape("linalg.solve", A)
    a_shape, b_shape = A._array.shape, B._array.shape
    vector = left and (len(b_shape) == 1 or (len(b_shape) == len(a_shape) - 1
                                             and b_shape == a_shape[:-1]))
    b_matrix = b_shape[-1:] + (1,) if vector or len(b_shape) == 1 else b_shape[-2:]
    if b_matrix[0 if left else 1] != a_shape[-1]:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{'AX' if left else 'XA'} = B ({a_shape[-2]}x{a_shape[-1]} and "
                           f"{b_matrix[0]}x{b_matrix[1]})")
    check_lapack_dtype("lu_cpu", A, complex_ok=True)
    return _solve(A, B, vector=vector, left=left)


def eigvalsh(A, UPLO="L"):
    """The eigenvalues of symmetric matrices, ascending (only the ``UPLO`` triangle is read)."""
    return _eigvalsh(A, UPLO=_check_eigh_input(A, UPLO))


def cholesky(A, *, upper=False):
    _check_square("linalg.cholesky", A, complex_ok=True)
    check_lapack_dtype("cholesky_cpu", A, complex_ok=True)
    return _cholesky(A, upper=upper)


# ------------------------------------------------------------------ singular value decomposition
#
# One primitive with three differentiable outputs, U, S and Vh, as PyTorch's LinalgSvdBackward0:
# the gradients of all three reach its rule. ``svdvals`` (S alone, what norms and ranks need) is a
# primitive of its own, with PyTorch's cheaper rule.

def _svd_not_converged(inputs, params):
    """Raises PyTorch's error, a ``torch.linalg.LinAlgError`` (not the RuntimeError that an
    ``error`` message would become), for an SVD that numpy's LAPACK could not compute."""
    if not np.isfinite(inputs[0]._array).all():
        raise lapack.LinAlgError("linalg.svd: The algorithm failed to converge because the input "
                                 "matrix contained non-finite values.")
    raise lapack.LinAlgError("linalg.svd: The algorithm failed to converge because the input "
                             "matrix is ill-conditioned or has too many repeated singular values.")


@primitive("svd", node="LinalgSvdBackward0", group=OTHER, n_outputs=None,
           saves=("out0", "out1", "out2"), error=_svd_not_converged, complex_rule=True)
def _svd(a, full_matrices):
    return tuple(np.linalg.svd(a, full_matrices=full_matrices))


@_svd.vjp
def _(ctx, grads, full_matrices):
    """PyTorch's rule; with ``full_matrices`` only the first min(m, n) singular vectors (and
    their gradients) enter it, as in PyTorch: the others are not determined by A. A factor no
    gradient reached contributes zeros."""
    u, s, vh = ctx.saved
    grad_u, grad_s, grad_vh = (grads[i] if i < len(grads) and grads[i] is not None
                               else zeros_like(factor) for i, factor in enumerate((u, s, vh)))
    if full_matrices:
        k = s._array.shape[-1]
        u, grad_u = narrow(u, -1, 0, k), narrow(grad_u, -1, 0, k)
        vh, grad_vh = narrow(vh, -2, 0, k), narrow(grad_vh, -2, 0, k)
    return _svd_backward(u, s, vh, grad_u, grad_s, grad_vh)


def _skew(x):
    """x - x^H (the transpose, for real matrices)."""
    return x - _mH(x)


def _divide_nonzero(numerator, denominator):
    """numerator / denominator, exactly 0 where the numerator is 0 (even over a zero)."""
    return numerator / where(numerator == 0, 1.0, denominator)


def _check_svd_phase_free(u_rotation, v_rotation):
    """PyTorch's refusal of a loss that depends on the arbitrary phases of complex singular
    vectors: skew(U^H gU) and skew(V^H gV) must then have opposite imaginary diagonals."""
    u_phases = u_rotation._array.diagonal(0, -2, -1).imag
    v_phases = v_rotation._array.diagonal(0, -2, -1).imag
    if not np.allclose(u_phases, -v_phases, rtol=1e-2, atol=1e-2):
        raise RuntimeError(
            "svd_backward: The singular vectors in the complex case are specified up to "
            "multiplication by e^{i phi}. The specified loss function depends on this phase "
            "term, making it ill-defined.")


def _svd_backward(u, s, vh, grad_u, grad_s, grad_vh):
    """PyTorch's ``svd_backward`` for A = U diag(S) Vh with U (m, k), Vh (k, n) (^H is the
    transpose for real matrices):

        gA = U [(skew(U^H gU) S + S skew(Vh gVh^H)) / E + diag(gS)
                + i Im(diag(skew(U^H gU))) / 2S] Vh           (the last term: complex only)
             + (I - U U^H) gU S^-1 Vh            (m > n)
             + U S^-1 gVh (I - Vh^H Vh)          (m < n)

    with E_ij = s_j^2 - s_i^2 (1 on the diagonal). PyTorch leaves out the terms of an output
    that received no gradient; here such a gradient arrives as zeros, and ``_divide_nonzero``
    makes its terms exactly zero, so a loss of S alone stays finite for repeated or zero
    singular values, as in PyTorch.
    """
    m, n = u._array.shape[-2], vh._array.shape[-1]
    s_row, s_column = unsqueeze(s, -2), unsqueeze(s, -1)
    squares = s * s
    eye = Tensor._make(np.eye(s._array.shape[-1], dtype=bool))
    gaps = where(eye, 1.0, unsqueeze(squares, -2) - unsqueeze(squares, -1))
    u_rotation, v_rotation = _skew(matmul(_mH(u), grad_u)), _skew(matmul(vh, _mH(grad_vh)))
    rotations = u_rotation * s_row + s_column * v_rotation
    inner = _divide_nonzero(rotations, gaps) + diag_embed(grad_s)
    if u._array.dtype.kind == "c":
        _check_svd_phase_free(u_rotation, v_rotation)
        phases = u_rotation.diagonal(0, -2, -1).imag * 0.5
        inner = inner + diag_embed(_divide_nonzero(phases, s)) * 1j
    if m > n:
        grad_u_scaled = _divide_nonzero(grad_u, s_row)
        outer = (matmul(u, inner) + grad_u_scaled
                 - matmul(u, matmul(_mH(u), grad_u_scaled)))
        return matmul(outer, vh)
    if m < n:
        grad_vh_scaled = _divide_nonzero(grad_vh, s_column)
        outer = (matmul(inner, vh) + grad_vh_scaled
                 - matmul(matmul(grad_vh_scaled, _mH(vh)), vh))
        return matmul(u, outer)
    return matmul(u, matmul(inner, vh))


@primitive("svdvals", node="LinalgSvdBackward0", group=OTHER, saves=("a",),
           error=_svd_not_converged, complex_rule=True)
def _svdvals(a):
    return np.linalg.svd(a, compute_uv=False)


@_svdvals.vjp
def _(ctx, grad):
    """gA = U diag(gS) Vh (PyTorch's shortcut when only S has a gradient). The singular vectors
    come from the full primitive, so that a second derivative goes through its rule."""
    (a,) = ctx.saved
    u, _, vh = _svd(a, full_matrices=False)
    return matmul(u * unsqueeze(grad.to(u.dtype), -2), vh)


def _check_svd_input(A, driver=None):
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA "
                           "inputs with cuSOLVER backend.")
    _check_matrices("linalg.svd", A)
    check_floating("linalg.svd", A, complex_ok=True)
    if A._array.dtype == np.float16:
        raise NotImplementedError('"linalg_svd_cpu" not implemented for \'Half\'')


_LinalgSVD = structseq("linalg_svd", "U S Vh")
_SVD = structseq("svd", "U S V")


def linalg_svd(A, full_matrices=True, *, driver=None):
    """``torch.linalg.svd``: A = U diag(S) Vh, S descending (numpy's LAPACK gesdd, as PyTorch's
    CPU default)."""
    _check_svd_input(A, driver)
    return _LinalgSVD(*_svd(A, full_matrices=full_matrices))


def svdvals(A, *, driver=None):
    """``torch.linalg.svdvals``: the singular values alone, descending."""
    _check_svd_input(A, driver)
    return _svdvals(A)


def svd(input, some=True, compute_uv=True):
    """``torch.svd``: U, S and V = Vh^H (not Vh); without ``compute_uv``, U and V are zeros of
    the full shapes, as in PyTorch (V conjugated too: -0 imaginary parts)."""
    if input._array.ndim < 2:
        raise RuntimeError("linalg.svd: input should have at least 2 dimensions, but has "
                           f"{input._array.ndim} dimensions instead")
    if not compute_uv:
        values = svdvals(input)
        *batch, m, n = input._array.shape
        return _SVD(zeros(*batch, m, m, dtype=input.dtype), values,
                    _mH(zeros(*batch, n, n, dtype=input.dtype)))
    u, s, vh = linalg_svd(input, full_matrices=not some)
    return _SVD(u, s, _mH(vh))


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None):
    """``torch.linalg.matrix_rank``: how many singular values (absolute eigenvalues when
    ``hermitian``) exceed max(atol, rtol * largest). Without either tolerance, rtol is
    eps * max(m, n); with only a positive atol, rtol is 0. ``tol`` (PyTorch's older spelling)
    is an atol with rtol 0. Tolerances may be tensors, broadcast over the batch."""
    if tol is not None:
        if atol is not None or rtol is not None:
            raise TypeError("linalg.matrix_rank: pass either tol or atol/rtol, not both")
        atol, rtol = tol, 0.0
    _check_matrices("torch.linalg.matrix_rank", A, argument="input")
    check_lapack_types(A)
    atol, rtol = _rank_tolerances(A, atol, rtol)
    if A._array.size == 0:
        batch = A._array.shape[:-2]
        return zeros(batch, dtype=dtypes.int64)
    A = A.detach()
    if hermitian:
        values = eigvalsh(A).abs()
        largest = values.amax(-1, keepdim=True)
    else:
        values = svdvals(A)
        largest = narrow(values, -1, 0, 1)
    threshold = unsqueeze(atol, -1).maximum(unsqueeze(rtol, -1) * largest)
    return (values > threshold).sum(-1)


def check_lapack_types(A):
    """The dtype check of PyTorch's rank-revealing functions (matrix_rank, lstsq): float and
    double, real or complex."""
    if A._array.dtype not in (np.float32, np.float64, np.complex64, np.complex128):
        raise RuntimeError("This function doesn't handle types other than float and double")


def _rank_tolerances(A, atol, rtol):
    """atol and rtol as float64 tensors, with PyTorch's defaults."""
    atol_given = atol is not None
    atol = _float64(atol if atol_given else 0.0)
    if rtol is None:
        default = _float64(np.finfo(A._array.dtype).eps * max(A._array.shape[-2:]))
        return atol, where(atol > 0, _float64(0.0), default) if atol_given else default
    return atol, _float64(rtol)


def _float64(value):
    if isinstance(value, Tensor):
        return value.to(dtypes.float64)
    return Tensor._make(np.asarray(value, dtype=np.float64))
