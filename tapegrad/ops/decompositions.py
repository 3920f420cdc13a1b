"""Differentiable ``torch.linalg.qr``, ``torch.cholesky_solve`` and ``torch.linalg.pinv``:
primitives with PyTorch's node names (LinalgQrBackward0, CholeskySolveBackward0,
LinalgPinvBackward0) and its backward formulas, written with tapegrad ops.
"""
import numpy as np

from ..return_types import structseq
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .broadcast import sum_to
from .creation import eye, zeros, zeros_like
from .conjugation import conj, real
from .layout import diag_embed, tril
from .linalg import matmul
from .matrix import (_check_matrices, _mH, check_floating, check_lapack_dtype,
                     check_same_dtype)
from .registry import OTHER, primitive
from .shape import cat, narrow, stack

__all__ = ["cholesky_solve", "lstsq_solution", "pinv", "qr"]

_QR = structseq("linalg_qr", "Q R")
_QR_MODES = ("reduced", "complete", "r")


@primitive("qr", node="LinalgQrBackward0", group=OTHER, n_outputs=None, saves=("out0", "out1"),
           complex_rule=True)
def _qr(a, mode):
    """LAPACK's geqrf/orgqr through numpy (Q empty for mode 'r', as in PyTorch)."""
    if mode == "r":
        return np.empty(0, a.dtype), np.linalg.qr(a, mode="r")
    return tuple(np.linalg.qr(a, mode=mode))


@_qr.vjp
def _(ctx, grads, mode):
    """Walter and Lehmann's rule (arXiv:2009.10071) for A = Q R. With m >= n:
    gA = (gQ + Q copyltu(M)) R^-H, M = R gR^H - gQ^H Q, copyltu mirroring M's lower triangle
    onto the upper one, conjugated (^H is ^T for real matrices). With m < n, A = [X | Y] and
    R = [U | V]: X gets that rule with gQ + Y gV^H and U, Y gets Q gV."""
    q, r = ctx.saved
    m, n = ctx.input_shapes[0][-2:]
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when "
                           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to "
                           "differentiate through linalg.qr.")
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and "
                           "nrows > ncols.")
    grad_q, grad_r = (grads[i] if i < len(grads) and grads[i] is not None
                      else zeros_like(factor) for i, factor in enumerate((q, r)))
    if m >= n:
        return _square_qr_grad(q, r, grad_q, grad_r)
    a = matmul(q, r)
    y, u = narrow(a, -1, m, n - m), narrow(r, -1, 0, m)
    grad_u, grad_v = narrow(grad_r, -1, 0, m), narrow(grad_r, -1, m, n - m)
    grad_x = _square_qr_grad(q, u, grad_q + matmul(y, _mH(grad_v)), grad_u)
    return cat([grad_x, matmul(q, grad_v)], -1)


def _square_qr_grad(q, r, grad_q, grad_r):
    from .factorizations import solve_triangular
    m = matmul(r, _mH(grad_r)) - matmul(_mH(grad_q), q)
    lower = tril(m, -1)
    mirrored = lower + _mH(lower) + diag_embed(real(m.diagonal(0, -2, -1)))
    return solve_triangular(_mH(r), grad_q + matmul(q, mirrored), upper=False, left=False)


def qr(A, mode="reduced"):
    """A = Q R with orthonormal columns in Q and R upper-triangular; ``mode`` 'reduced'
    (k = min(m, n) columns), 'complete' (Q square) or 'r' (R alone, Q empty)."""
    _check_matrices("linalg.qr", A)
    check_floating("linalg.qr", A, complex_ok=True)
    check_lapack_dtype("geqrf_cpu", A, complex_ok=True)
    if mode not in _QR_MODES:
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    return _QR(*_qr(A, mode=mode))


# ------------------------------------------------------------------ cholesky_solve

def _triangle(factor, upper):
    return np.triu(factor) if upper else np.tril(factor)


@primitive("cholesky_solve", node="CholeskySolveBackward0", group=OTHER,
           saves=("b", "factor", "out"), saves_for={"b": ("factor",)}, complex_rule=True)
def _cholesky_solve(b, factor, upper):
    """X with (L L^H) X = B (U^H U with ``upper``; ^H is ^T for real matrices): two triangular
    solves, one triangle read."""
    lower = _triangle(factor, upper)
    if upper:
        lower = np.swapaxes(lower, -1, -2).conj()
    y = np.linalg.solve(lower, b)
    return np.linalg.solve(np.swapaxes(lower, -1, -2).conj(), y).astype(b.dtype, copy=False)


@_cholesky_solve.vjp
def _(ctx, grad, upper):
    """PyTorch's ``cholesky_solve_backward``: gB = cholesky_solve(G, L) (A is Hermitian) and the
    full (not triangular) gL = -(gB X^H + X gB^H) L (-U (gB X^H + X gB^H) with ``upper``)."""
    _, factor, x = ctx.saved
    need_b, need_factor = ctx.needs_input_grad
    grad_b = _cholesky_solve(grad, factor, upper=upper)
    grad_factor = None
    if need_factor:
        common = matmul(grad_b, _mH(x))
        common = common + _mH(common)
        grad_factor = -matmul(factor, common) if upper else -matmul(common, factor)
        grad_factor = sum_to(grad_factor, ctx.input_shapes[1])
    return (sum_to(grad_b, ctx.input_shapes[0]) if need_b else None), grad_factor


def cholesky_solve(B, L, upper=False):
    """``X`` with ``A X = B`` where A = L L^H (A = U^H U with ``upper``)."""
    for name, t in (("b", B), ("u", L)):
        if t._array.ndim < 2:
            raise RuntimeError(f"{name} should have at least 2 dimensions, but has "
                               f"{t._array.ndim} dimensions instead")
    check_same_dtype(B, L)
    (n, n2), rows = L._array.shape[-2:], B._array.shape[-2]
    if rows != n:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is {n} "
                           f"by {n2} but each b matrix is {rows} by {B._array.shape[-1]}")
    check_lapack_dtype("cholesky_solve_cpu", B, complex_ok=True)
    return _cholesky_solve(B, L, upper=upper)


# ------------------------------------------------------------------ pinv

@primitive("pinv", node="LinalgPinvBackward0", group=OTHER, saves=("a", "out"),
           complex_rule=True)
def _pinv(a, atol, rtol, hermitian):
    """V diag(1 / s) U^H from the SVD (the eigendecomposition when ``hermitian``): the values
    at most max(atol, rtol * largest) count as zero. ``atol`` and ``rtol`` broadcast over the
    batch."""
    if hermitian:
        values, vectors = np.linalg.eigh(a)
        magnitudes = np.abs(values)
        largest = magnitudes.max(-1, keepdims=True, initial=0)
        u, vh = vectors, np.swapaxes(vectors, -1, -2).conj()
    else:
        u, values, vh = np.linalg.svd(a, full_matrices=False)
        magnitudes = values
        largest = values[..., :1] if values.shape[-1] else np.zeros(values.shape[:-1] + (1,))
    cutoff = np.maximum(np.asarray(atol)[..., None], np.asarray(rtol)[..., None] * largest)
    kept = magnitudes > cutoff
    inverted = np.where(kept, 1 / np.where(kept, values, 1), 0).astype(a.dtype)
    return np.swapaxes(vh, -1, -2).conj() * inverted[..., None, :] @ np.swapaxes(u, -1, -2).conj()


@_pinv.vjp
def _(ctx, grad, atol, rtol, hermitian):
    a, p = ctx.saved
    return _pinv_backward(grad, p, a)


def _pinv_backward(grad, p, a):
    """PyTorch's ``pinv_backward`` (P = pinv(A), K built on the smaller dimension; ^H is ^T for
    real matrices)."""
    m, n = a._array.shape[-2:]
    p_h, grad_h = _mH(p), _mH(grad)
    if m <= n:
        k = matmul(grad_h, p)
        k_p_h = matmul(k, p_h)
        return (-_mH(matmul(p, k)) + k_p_h - matmul(matmul(a, p), k_p_h)
                + matmul(matmul(p_h, p), grad_h - matmul(k, a)))
    k = matmul(p, grad_h)
    p_h_k = matmul(p_h, k)
    return (-_mH(matmul(k, p)) + p_h_k - matmul(matmul(p_h_k, p), a)
            + matmul(matmul(grad_h - matmul(a, k), p), p_h))


def _tolerance(value):
    return value._array if isinstance(value, Tensor) else value


def pinv(A, *, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse. Without either tolerance, rtol is eps * max(m, n);
    with only a positive ``atol``, rtol is 0 (PyTorch's defaults)."""
    if A._array.ndim < 2 or A._array.dtype not in (np.float32, np.float64, np.complex64,
                                                    np.complex128):
        raise RuntimeError(f"linalg.pinv({_LEGACY_TYPE_NAMES[A._array.dtype.name]}"
                           f"{{{list(A._array.shape)}}}): expected a tensor with 2 or more "
                           "dimensions of float, double, cfloat or cdouble types")
    if rtol is None:
        positive_atol = atol is not None and not (isinstance(atol, (int, float)) and atol <= 0)
        rtol = 0.0 if positive_atol else np.finfo(A._array.dtype).eps * max(A._array.shape[-2:])
    return _pinv(A, atol=_tolerance(0.0 if atol is None else atol), rtol=_tolerance(rtol),
                 hermitian=hermitian)


# ------------------------------------------------------------------ lstsq

@primitive("lstsq", node="LinalgLstsqBackward0", group=OTHER, n_outputs=None,
           saves=("a", "b", "out0"), complex_rule=True)
def _lstsq(a, b, rtol, vector, residuals):
    """The minimum-norm least-squares solution pinv(A) B (singular values at most rtol times
    the largest count as zero) and, if ``residuals``, the squared residuals ||A x - b||^2 of
    each column (else an empty tensor, still an output of the node as in PyTorch); residuals
    are real for complex matrices too."""
    columns = b[..., None] if vector else b
    solution = _pinv.forward(a, 0.0, rtol, False) @ columns
    squared = ((np.abs(a @ solution - columns) ** 2).sum(-2) if residuals
               else np.empty(0, a.real.dtype))
    return solution[..., 0] if vector else solution, squared


@_lstsq.vjp
def _(ctx, grads, rtol, vector, residuals):
    """PyTorch's ``linalg_lstsq_backward``: gA through pinv's rule with gP = G B^H, and
    gB = pinv(A)^H G; a residual r = ||A x - b||^2 adds 2 (A x - b) g_r x^H to gA and
    -2 (A x - b) g_r to gB (x's own change does not move r at the optimum; ^H is the
    transpose for real matrices)."""
    a, b, x = ctx.saved
    grad, grad_residuals = (grads[i] if i < len(grads) else None for i in range(2))
    if vector:
        b, x = b.unsqueeze(-1), x.unsqueeze(-1)
        grad = None if grad is None else grad.unsqueeze(-1)
    need_a, need_b = ctx.needs_input_grad
    grad_a = grad_b = None
    if grad is not None:
        p = _pinv(a, atol=0.0, rtol=rtol, hermitian=False)
        grad_a = _pinv_backward(matmul(grad, _mH(b)), p, a) if need_a else None
        grad_b = matmul(_mH(p), grad) if need_b else None
    if grad_residuals is not None and residuals:
        weighted = (matmul(a, x) - b) * (grad_residuals.unsqueeze(-2) * 2)
        if need_a:
            grad_a = _plus(grad_a, matmul(weighted, _mH(x)))
        if need_b:
            grad_b = _plus(grad_b, -weighted)
    if vector and grad_b is not None:
        grad_b = grad_b.squeeze(-1)
    return (None if grad_a is None else sum_to(grad_a, ctx.input_shapes[0]),
            None if grad_b is None else sum_to(grad_b, ctx.input_shapes[1]))


def _plus(total, term):
    return term if total is None else total + term


def lstsq_solution(A, B, rtol, residuals):
    """``linalg.lstsq``'s solution of A X = B (B a matrix or, one dimension fewer than A, a
    vector) and the squared residuals if asked for: two outputs of one LinalgLstsqBackward0."""
    vector = B._array.ndim == A._array.ndim - 1
    return _lstsq(A, B, rtol=rtol, vector=vector, residuals=residuals)


# ------------------------------------------------------------------ householder_product

def _reflected(q, v, tau):
    """H q with H = I - tau v v^H (tau shaped to broadcast over q's matrices)."""
    return q - tau * (v @ (np.swapaxes(v, -1, -2).conj() @ q))


@primitive("householder_product", node="LinalgHouseholderProductBackward0", group=OTHER,
           saves=("a", "tau"), complex_rule=True)
def _householder_product(a, tau):
    """The first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^H, v_i column i of ``a``
    below the diagonal with a 1 on it (how QR factorizations store Q; ^H is ^T for real
    matrices)."""
    m, n = a.shape[-2:]
    reflectors = np.tril(a, -1) + np.eye(m, n, dtype=a.dtype)
    q = np.broadcast_to(np.eye(m, n, dtype=a.dtype), a.shape).copy()
    for i in reversed(range(tau.shape[-1])):  # Q = H_1 (H_2 (... (H_k I)))
        q = _reflected(q, reflectors[..., i:i + 1], tau[..., i, None, None])
    return q


@_householder_product.vjp
def _(ctx, grad):
    """Back through the product one reflector at a time: with q' = H_i q, w = v_i^H q and
    u = v_i^H G, g tau_i = -sum(u conj(w)), g v_i = -conj(tau_i) G w^H - tau_i q u^H, and G
    becomes H_i^H G; only the reflectors' entries below the diagonal are A's."""
    a, tau = ctx.saved
    m, n = a._array.shape[-2:]
    k = tau._array.shape[-1]
    reflectors = tril(a, -1) + eye(m, n, dtype=a.dtype)
    columns = [reflectors[..., i:i + 1] for i in range(k)]
    scales = [tau[..., i:i + 1].unsqueeze(-1) for i in range(k)]
    partial = [eye(m, n, dtype=a.dtype).expand(a._array.shape)]  # H_{i+1} ... H_k I, i = k..1
    for v, t in zip(reversed(columns), reversed(scales)):
        partial.append(partial[-1] - t * matmul(v, matmul(_mH(v), partial[-1])))
    grad_taus, grad_columns = [], []
    for i, (v, t) in enumerate(zip(columns, scales)):
        q = partial[k - 1 - i]
        w = matmul(_mH(v), q)
        v_grad = matmul(_mH(v), grad)
        grad_taus.append(-(v_grad * conj(w)).sum((-2, -1)))
        grad_columns.append(-conj(t) * matmul(grad, _mH(w)) - t * matmul(q, _mH(v_grad)))
        grad = grad - conj(t) * matmul(v, v_grad)
    grad_a = cat(grad_columns + [zeros(a._array.shape[:-1] + (n - k,), dtype=a.dtype)], -1)
    return tril(grad_a, -1), stack(grad_taus, -1) if k else zeros_like(tau)


def householder_product(A, tau):
    return _householder_product(A, tau)
