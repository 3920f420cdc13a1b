"""LAPACK's factorization kernels as PyTorch's CPU backend runs them, where their exact results
show through: the partial Cholesky factor and ``info`` of a matrix that is not positive-definite,
the non-finite inverse of a singular matrix (an LU solve that divides by a zero pivot), the
determinant as the LU's product (so a singular matrix's may be -0.), triangular solves by
substitution (trsm: exact zeros, infinities for a zero pivot), the Bunch-Kaufman LDL^T
factorization of symmetric indefinite matrices (sytrf / sytrs) and ``torch.linalg``'s
``LinAlgError`` with PyTorch's messages. Vectorized over the batch (sytrf's pivoting decisions
per matrix); loops run over columns.
"""
import contextlib

import numpy as np

__all__ = ["LinAlgError", "cholesky_with_info", "inverse_with_info", "lu_det", "lu_slogdet",
           "raise_if_failed", "renamed", "solve_with_info", "triangular_solve",
           "symmetric_indefinite_factor", "symmetric_indefinite_solve"]


class _LinAlgError(RuntimeError):
    """``torch.linalg.LinAlgError`` (PyTorch's ``torch._C._LinAlgError``): a factorization,
    inverse or solve that failed on the values of its input."""


_LinAlgError.__module__ = "torch._C"
LinAlgError = _LinAlgError


def raise_if_failed(name, info, message):
    """Raise PyTorch's error for the first matrix of the batch whose ``info`` is non-zero;
    ``message(info)`` words it."""
    failed = np.flatnonzero(np.asarray(info).reshape(-1))
    if failed.size == 0:
        return
    first = int(failed[0])
    value = int(np.asarray(info).reshape(-1)[first])
    batch = f"(Batch element {first}): " if np.ndim(info) else ""
    raise _LinAlgError(f"{name}: {batch}{message(value)}")


@contextlib.contextmanager
def renamed(name, new_name):
    """Errors of the function ``name`` raised as ``new_name``'s (an ``_ex`` variant's)."""
    try:
        yield
    except _LinAlgError as exc:
        message = str(exc)
        if not message.startswith(name + ":"):
            raise
        raise _LinAlgError(new_name + message[len(name):]) from None


def cholesky_with_info(a, upper=False):
    """LAPACK potrf: the lower factor and, per matrix, the order of the first leading minor that
    is not positive-definite (0 if none). Where it fails, the factor holds the columns done so
    far, the failed pivot's value ``a_jj - sum L_jk^2`` unrooted on the diagonal and A's own
    entries after it, as LAPACK leaves them."""
    *batch, n, _ = a.shape
    if upper:  # LAPACK then reads the upper triangle, A^T's lower one, whose factor is conj(L)
        a = np.swapaxes(a, -1, -2)
    work = np.tril(a.reshape(-1, n, n)).copy()
    info = np.zeros(work.shape[0], np.int32)
    with np.errstate(invalid="ignore", divide="ignore"):
        for j in range(n):
            active = info == 0
            done = work[:, j, :j]
            pivot = (work[:, j, j] - np.einsum("bk,bk->b", done, done.conj())).real
            failed = active & ~(pivot > 0)
            info[failed] = j + 1
            ok = active & ~failed
            work[:, j, j] = np.where(ok, np.sqrt(np.where(ok, pivot, 1)),
                                     np.where(failed, pivot, work[:, j, j]))
            below = (work[:, j + 1:, j] - np.einsum("bik,bk->bi", work[:, j + 1:, :j],
                                                    done.conj()))
            below = below / np.where(ok, work[:, j, j], 1)[:, None]
            work[:, j + 1:, j] = np.where(ok[:, None], below, work[:, j + 1:, j])
    factor = work.reshape(a.shape)
    return (np.swapaxes(factor, -1, -2) if upper else factor), info.reshape(batch)


def triangular_solve(a, b, *, upper, left=True, unitriangular=False):
    """LAPACK's trsm: X with A X = B (X A = B if not ``left``) by substitution, reading only
    A's ``upper`` or lower triangle (and not its diagonal if ``unitriangular``). What
    substitution leaves zero stays exactly zero (the inverse of a triangular matrix is
    triangular), and a zero on A's diagonal gives infs and nans rather than an error.
    Broadcasts the batch dimensions."""
    if not left:
        return np.swapaxes(triangular_solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2),
                                            upper=not upper, unitriangular=unitriangular),
                           -1, -2)
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    x = np.array(np.broadcast_to(b, batch + b.shape[-2:]))
    n = a.shape[-1]
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for k in (reversed(range(n)) if upper else range(n)):
            row = x[..., k, :]
            if not unitriangular:
                _divide_by_pivot(row, a[..., k, k, None])
            rest = slice(0, k) if upper else slice(k + 1, n)
            x[..., rest, :] -= a[..., rest, k, None] * row[..., None, :]
    return x


def _divide_by_pivot(row, pivot):
    """In place, as MKL's trsm does: a single right-hand side is divided, several are scaled by
    the pivot's reciprocal."""
    if row.shape[-1] == 1:
        row /= pivot
    else:
        row *= 1 / pivot


def _getrf(a):
    # imported here: factorizations builds on matrix, which uses this module
    from .factorizations import _getrf as getrf
    return getrf(a)


def _lu_solve_unchecked(lu, pivots, b):
    """Solve with getrf's packed factors, dividing by zero pivots as LAPACK's getrs does (the
    non-finite solution of a singular system)."""
    n = lu.shape[-1]
    x = b.copy()
    rows = np.arange(x.shape[0])
    for j in range(n):  # the row interchanges, in order
        p = pivots[:, j] - 1
        x[rows, j], x[rows, p] = x[rows, p], x[rows, j].copy()
    with np.errstate(invalid="ignore", divide="ignore"):
        for j in range(n):  # forward substitution with the unit lower factor
            x[:, j + 1:] -= lu[:, j + 1:, j, None] * x[:, j, None]
        for j in reversed(range(n)):  # back substitution with the upper factor
            x[:, j] /= lu[:, j, j, None]
            x[:, :j] -= lu[:, :j, j, None] * x[:, j, None]
    return x


def inverse_with_info(a):
    """The inverse as PyTorch computes it (an LU solve of A X = I) and getrf's ``info``: a
    singular matrix's inverse holds the infs and nans of its zero pivot."""
    *batch, n, _ = a.shape
    lu, pivots, info = _getrf(a.reshape(-1, n, n))
    identity = np.broadcast_to(np.eye(n, dtype=a.dtype), lu.shape).copy()
    return _lu_solve_unchecked(lu, pivots, identity).reshape(a.shape), info.reshape(batch)


def solve_with_info(a, b):
    """X with A X = B (B of shape (..., n, k), broadcast against A's batch) and getrf's info."""
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    n, k = a.shape[-1], b.shape[-1]
    a = np.broadcast_to(a, shape + a.shape[-2:]).reshape(-1, n, n)
    b = np.broadcast_to(b, shape + b.shape[-2:]).reshape(-1, n, k).copy()
    lu, pivots, info = _getrf(a)
    return _lu_solve_unchecked(lu, pivots, b).reshape(shape + (n, k)), info.reshape(shape)


def _lu_diagonal_and_parity(a):
    lu, pivots, _ = _getrf(a)
    diagonal = np.diagonal(lu, axis1=-2, axis2=-1)
    swaps = (pivots != np.arange(1, pivots.shape[-1] + 1)).sum(-1)
    return diagonal, np.where(swaps % 2, -1, 1).astype(a.dtype)


def lu_det(a):
    """det(A) as the product of the LU's pivots, signed by the row interchanges (PyTorch's
    kernel: a singular matrix's determinant can be -0.)."""
    if a.shape[-1] == 0:
        return np.ones(a.shape[:-2], a.dtype)
    diagonal, parity = _lu_diagonal_and_parity(a)
    return parity * np.prod(diagonal, axis=-1)


def lu_slogdet(a):
    """sign(det A) and log|det A| from the LU (the sign of a singular matrix is +-0., and so is
    a nan pivot's: PyTorch's sign of nan is 0)."""
    if a.shape[-1] == 0:
        return np.ones(a.shape[:-2], a.dtype), np.zeros(a.shape[:-2], a.dtype)
    diagonal, parity = _lu_diagonal_and_parity(a)
    signs = (diagonal > 0).astype(a.dtype) - (diagonal < 0).astype(a.dtype)
    with np.errstate(divide="ignore"):
        return parity * np.prod(signs, axis=-1), np.log(np.abs(diagonal)).sum(-1)


# Bunch-Kaufman's bound on element growth: a 1x1 pivot is taken when the diagonal entry is at
# least this fraction of the largest entry below it.
_BUNCH_KAUFMAN_ALPHA = (1 + 17 ** 0.5) / 8


def symmetric_indefinite_factor(a):
    """LAPACK's sytrf (lower, unblocked) on each matrix of the batch: P A P^T = L D L^T with
    Bunch-Kaufman diagonal pivoting, D made of 1x1 and 2x2 blocks. Returns the packed factors
    (D's blocks on and next to the diagonal, L's multipliers below them, the strict upper
    triangle zero), LAPACK's 1-based pivots (a 2x2 block's two entries both ``-p``: row p was
    swapped with the block's second row) and ``info``, the first zero 1x1 pivot (0 if none)."""
    *batch, n, _ = a.shape
    count = int(np.prod(batch, dtype=np.int64))
    work = np.tril(a.reshape(count, n, n)).copy()
    pivots = np.zeros((count, n), np.int32)
    info = np.zeros(count, np.int32)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for m in range(work.shape[0]):
            info[m] = _factor_one(work[m], pivots[m])
    return work.reshape(a.shape), pivots.reshape(*batch, n), info.reshape(batch)


def _factor_one(w, pivots):
    """sytrf's column loop on one lower-stored matrix ``w``, in place; returns info."""
    n, info, k = w.shape[0], 0, 0
    while k < n:
        step, swap = _choose_pivot(w, k)
        if step == 0:  # a zero column: D[k, k] = 0, nothing to eliminate
            info = info or k + 1
            pivots[k] = k + 1
            k += 1
            continue
        last = k + step - 1
        if swap != last:
            _swap_symmetric(w, k, last, swap)
        if step == 1:
            _eliminate_1x1(w, k)
            pivots[k] = swap + 1
        else:
            _eliminate_2x2(w, k)
            pivots[k] = pivots[k + 1] = -(swap + 1)
        k += step
    return info


def _choose_pivot(w, k):
    """(block size, row to bring to the block's last row): 0 for a zero column."""
    below = np.abs(w[k + 1:, k])
    diagonal = abs(w[k, k])
    column_max = below.max() if below.size else 0.0
    if max(diagonal, column_max) == 0 or np.isnan(diagonal):
        return 0, k
    if diagonal >= _BUNCH_KAUFMAN_ALPHA * column_max:
        return 1, k
    r = k + 1 + int(np.argmax(below))
    row_max = np.abs(w[r, k:r]).max()
    if r + 1 < w.shape[0]:
        row_max = max(row_max, np.abs(w[r + 1:, r]).max())
    if diagonal >= _BUNCH_KAUFMAN_ALPHA * column_max * (column_max / row_max):
        return 1, k
    if abs(w[r, r]) >= _BUNCH_KAUFMAN_ALPHA * row_max:
        return 1, r
    return 2, r


def _swap_symmetric(w, k, j, p):
    """Swap rows and columns j and p (j < p) of the trailing lower triangle from column k."""
    w[p + 1:, [j, p]] = w[p + 1:, [p, j]]
    between = slice(j + 1, p)
    w[between, j], w[p, between] = w[p, between].copy(), w[between, j].copy()
    w[j, j], w[p, p] = w[p, p], w[j, j]
    if j > k:  # the 2x2 block's off-diagonal entry
        w[j, k], w[p, k] = w[p, k], w[j, k]


def _eliminate_1x1(w, k):
    reciprocal = 1 / w[k, k]
    column = w[k + 1:, k]
    w[k + 1:, k + 1:] -= np.tril(reciprocal * np.outer(column, column))
    w[k + 1:, k] = column * reciprocal


def _eliminate_2x2(w, k):
    """With D's block [[d_kk, d_k1], [d_k1, d_11]], the multipliers W = A[:, k:k+2] D^-1, and
    the trailing update A -= W D W^T = W A[:, k:k+2]^T (lower triangle)."""
    if k + 2 >= w.shape[0]:
        return
    off = w[k + 1, k]
    scaled_11, scaled_kk = w[k + 1, k + 1] / off, w[k, k] / off
    t = 1 / (scaled_11 * scaled_kk - 1)
    off = t / off
    first, second = w[k + 2:, k].copy(), w[k + 2:, k + 1].copy()
    multiplier_k = off * (scaled_11 * first - second)
    multiplier_1 = off * (scaled_kk * second - first)
    w[k + 2:, k + 2:] -= np.tril(np.outer(first, multiplier_k) + np.outer(second, multiplier_1))
    w[k + 2:, k], w[k + 2:, k + 1] = multiplier_k, multiplier_1


def symmetric_indefinite_solve(ld, pivots, b):
    """LAPACK's sytrs (lower): X with A X = B from sytrf's factors, B (..., n, k) broadcast
    against the factors' batch."""
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2], pivots.shape[:-1])
    n, columns = ld.shape[-1], b.shape[-1]
    count = int(np.prod(batch, dtype=np.int64))
    ld = np.broadcast_to(ld, batch + (n, n)).reshape(count, n, n)
    pivots = np.broadcast_to(pivots, batch + (n,)).reshape(count, n)
    x = np.array(np.broadcast_to(b, batch + (n, columns))).reshape(count, n, columns)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for m in range(x.shape[0]):
            _solve_one(ld[m], pivots[m], x[m])
    return x.reshape(batch + (n, columns))


def _blocks(pivots):
    """(first row, size, row swapped with the block's last row) of each block of D, in order."""
    k, n = 0, len(pivots)
    while k < n:
        step = 1 if pivots[k] > 0 else 2
        yield k, step, abs(int(pivots[k])) - 1
        k += step


def _solve_one(ld, pivots, x):
    """L D L^T X = P B, in place: L^-1 and P forward, D^-1 block by block, L^-T and P back."""
    blocks = list(_blocks(pivots))
    for k, step, p in blocks:
        last = k + step - 1
        x[[last, p]] = x[[p, last]]
        x[last + 1:] -= ld[last + 1:, k:last + 1] @ x[k:last + 1]
    for k, step, _ in blocks:
        if step == 1:
            x[k] /= ld[k, k]
        else:
            off = ld[k + 1, k]
            scaled_kk, scaled_11 = ld[k, k] / off, ld[k + 1, k + 1] / off
            denominator = scaled_kk * scaled_11 - 1
            first, second = x[k] / off, x[k + 1] / off
            x[k] = (scaled_11 * first - second) / denominator
            x[k + 1] = (scaled_kk * second - first) / denominator
    for k, step, p in reversed(blocks):
        last = k + step - 1
        x[k:last + 1] -= ld[last + 1:, k:last + 1].T @ x[last + 1:]
        x[[last, p]] = x[[p, last]]
