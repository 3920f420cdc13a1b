"""Differentiable ``torch.linalg.qr``, ``torch.cholesky_solve`` and ``torch.linalg.pinv``:
primitives with PyTorch's node names (LinalgQrBackward0, CholeskySolveBackward0,
LinalgPinvBackward0) and its backward formulas, written with tapegrad ops.
"""
import numpy as np

from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .broadcast import sum_to
from .creation import zeros_like
from .layout import tril
from .linalg import matmul
from .matrix import _check_matrices, _mT, check_floating
from .reduction import named_result
from .registry import OTHER, primitive
from .shape import cat, narrow

__all__ = ["cholesky_solve", "lstsq_solution", "pinv", "qr"]

_QR = named_result("linalg_qr", "Q R")
_QR_MODES = ("reduced", "complete", "r")


@primitive("qr", node="LinalgQrBackward0", group=OTHER, n_outputs=None, saves=("out0", "out1"))
def _qr(a, mode):
    """LAPACK's geqrf/orgqr through numpy (Q empty for mode 'r', as in PyTorch)."""
    if mode == "r":
        return np.empty(0, a.dtype), np.linalg.qr(a, mode="r")
    return tuple(np.linalg.qr(a, mode=mode))


@_qr.vjp
def _(ctx, grads, mode):
    """Walter and Lehmann's rule (arXiv:2009.10071) for A = Q R. With m >= n:
    gA = (gQ + Q copyltu(M)) R^-T, M = R gR^T - gQ^T Q, copyltu mirroring M's lower triangle.
    With m < n, A = [X | Y] and R = [U | V]: X gets that rule with gQ + Y gV^T and U, Y gets
    Q gV."""
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
    grad_x = _square_qr_grad(q, u, grad_q + matmul(y, _mT(grad_v)), grad_u)
    return cat([grad_x, matmul(q, grad_v)], -1)


def _square_qr_grad(q, r, grad_q, grad_r):
    from .factorizations import solve_triangular
    m = matmul(r, _mT(grad_r)) - matmul(_mT(grad_q), q)
    mirrored = tril(m) + _mT(tril(m, -1))
    return solve_triangular(_mT(r), grad_q + matmul(q, mirrored), upper=False, left=False)


def qr(A, mode="reduced"):
    """A = Q R with orthonormal columns in Q and R upper-triangular; ``mode`` 'reduced'
    (k = min(m, n) columns), 'complete' (Q square) or 'r' (R alone, Q empty)."""
    _check_matrices("linalg.qr", A)
    check_floating("linalg.qr", A)
    if mode not in _QR_MODES:
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    return _QR(*_qr(A, mode=mode))


# ------------------------------------------------------------------ cholesky_solve

def _triangle(factor, upper):
    return np.triu(factor) if upper else np.tril(factor)


@primitive("cholesky_solve", node="CholeskySolveBackward0", group=OTHER,
           saves=("b", "factor", "out"), saves_for={"b": ("factor",)})
def _cholesky_solve(b, factor, upper):
    """X with (L L^T) X = B (U^T U with ``upper``): two triangular solves, one triangle read."""
    lower = _triangle(factor, upper)
    if upper:
        lower = np.swapaxes(lower, -1, -2)
    y = np.linalg.solve(lower, b)
    return np.linalg.solve(np.swapaxes(lower, -1, -2), y).astype(b.dtype, copy=False)


@_cholesky_solve.vjp
def _(ctx, grad, upper):
    """PyTorch's ``cholesky_solve_backward``: gB = cholesky_solve(G, L) and the full (not
    triangular) gL = -(gB X^T + X gB^T) L (-U (gB X^T + X gB^T) with ``upper``)."""
    _, factor, x = ctx.saved
    need_b, need_factor = ctx.needs_input_grad
    grad_b = _cholesky_solve(grad, factor, upper=upper)
    grad_factor = None
    if need_factor:
        common = matmul(grad_b, _mT(x))
        common = common + _mT(common)
        grad_factor = -matmul(factor, common) if upper else -matmul(common, factor)
        grad_factor = sum_to(grad_factor, ctx.input_shapes[1])
    return (sum_to(grad_b, ctx.input_shapes[0]) if need_b else None), grad_factor


def cholesky_solve(B, L, upper=False):
    """``X`` with ``A X = B`` where A = L L^T (A = U^T U with ``upper``)."""
    for name, t in (("b", B), ("u", L)):
        if t._array.ndim < 2:
            raise RuntimeError(f"{name} should have at least 2 dimensions, but has "
                               f"{t._array.ndim} dimensions instead")
    if B._array.dtype != L._array.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{_LEGACY_TYPE_NAMES[B._array.dtype.name]} and A of type "
                           f"{_LEGACY_TYPE_NAMES[L._array.dtype.name]} instead.")
    (n, n2), rows = L._array.shape[-2:], B._array.shape[-2]
    if rows != n:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is {n} "
                           f"by {n2} but each b matrix is {rows} by {B._array.shape[-1]}")
    return _cholesky_solve(B, L, upper=upper)


# ------------------------------------------------------------------ pinv

@primitive("pinv", node="LinalgPinvBackward0", group=OTHER, saves=("a", "out"))
def _pinv(a, atol, rtol, hermitian):
    """From the SVD (the eigendecomposition when ``hermitian``): the values at most
    max(atol, rtol * largest) count as zero. ``atol`` and ``rtol`` broadcast over the batch."""
    if hermitian:
        values, vectors = np.linalg.eigh(a)
        magnitudes = np.abs(values)
        largest = magnitudes.max(-1, keepdims=True, initial=0)
        u, vh = vectors, np.swapaxes(vectors, -1, -2)
    else:
        u, values, vh = np.linalg.svd(a, full_matrices=False)
        magnitudes = values
        largest = values[..., :1] if values.shape[-1] else np.zeros(values.shape[:-1] + (1,))
    cutoff = np.maximum(np.asarray(atol)[..., None], np.asarray(rtol)[..., None] * largest)
    kept = magnitudes > cutoff
    inverted = np.where(kept, 1 / np.where(kept, values, 1), 0).astype(a.dtype)
    return np.swapaxes(vh, -1, -2) * inverted[..., None, :] @ np.swapaxes(u, -1, -2)


@_pinv.vjp
def _(ctx, grad, atol, rtol, hermitian):
    a, p = ctx.saved
    return _pinv_backward(grad, p, a)


def _pinv_backward(grad, p, a):
    """PyTorch's ``pinv_backward`` (P = pinv(A), K built on the smaller dimension)."""
    m, n = a._array.shape[-2:]
    p_t, grad_t = _mT(p), _mT(grad)
    if m <= n:
        k = matmul(grad_t, p)
        k_p_t = matmul(k, p_t)
        return (-_mT(matmul(p, k)) + k_p_t - matmul(matmul(a, p), k_p_t)
                + matmul(matmul(p_t, p), grad_t - matmul(k, a)))
    k = matmul(p, grad_t)
    p_t_k = matmul(p_t, k)
    return (-_mT(matmul(k, p)) + p_t_k - matmul(matmul(p_t_k, p), a)
            + matmul(matmul(grad_t - matmul(a, k), p), p_t))


def _tolerance(value):
    return value._array if isinstance(value, Tensor) else value


def pinv(A, *, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse. Without either tolerance, rtol is eps * max(m, n);
    with only a positive ``atol``, rtol is 0 (PyTorch's defaults)."""
    _check_matrices("linalg.pinv", A)
    check_floating("linalg.pinv", A)
    if rtol is None:
        positive_atol = atol is not None and not (isinstance(atol, (int, float)) and atol <= 0)
        rtol = 0.0 if positive_atol else np.finfo(A._array.dtype).eps * max(A._array.shape[-2:])
    return _pinv(A, atol=_tolerance(0.0 if atol is None else atol), rtol=_tolerance(rtol),
                 hermitian=hermitian)


# ------------------------------------------------------------------ lstsq

@primitive("lstsq", node="LinalgLstsqBackward0", group=OTHER, saves=("a", "b"),
           saves_for={"b": ("a",)})
def _lstsq(a, b, rtol):
    """The minimum-norm least-squares solution pinv(A) B (singular values at most rtol times
    the largest count as zero)."""
    return _pinv.forward(a, 0.0, rtol, False) @ b


@_lstsq.vjp
def _(ctx, grad, rtol):
    """PyTorch's ``linalg_lstsq_backward``: gA through pinv's rule with gP = G B^T, and
    gB = pinv(A)^T G."""
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    p = _pinv(a, atol=0.0, rtol=rtol, hermitian=False)
    grad_a = _pinv_backward(matmul(grad, _mT(b)), p, a) if need_a else None
    return grad_a, (matmul(_mT(p), grad) if need_b else None)


def lstsq_solution(A, B, rtol):
    """``linalg.lstsq``'s solution of A X = B (B a matrix), recorded as LinalgLstsqBackward0."""
    return _lstsq(A, B, rtol=rtol)
