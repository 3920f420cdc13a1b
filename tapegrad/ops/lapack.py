"""LAPACK's factorization kernels as PyTorch's CPU backend runs them, where their exact results
show through: the partial Cholesky factor and ``info`` of a matrix that is not positive-definite,
the non-finite inverse of a singular matrix (an LU solve that divides by a zero pivot), the
determinant as the LU's product (so a singular matrix's may be -0.), and ``torch.linalg``'s
``LinAlgError`` with PyTorch's messages. Vectorized over the batch; loops run over columns.
"""
import contextlib

import numpy as np

__all__ = ["LinAlgError", "cholesky_with_info", "inverse_with_info", "lu_det", "lu_slogdet",
           "raise_if_failed", "renamed", "solve_with_info"]


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
    work = np.tril(a.reshape(-1, n, n)).copy()
    info = np.zeros(work.shape[0], np.int32)
    with np.errstate(invalid="ignore", divide="ignore"):
        for j in range(n):
            active = info == 0
            done = work[:, j, :j]
            pivot = work[:, j, j] - np.einsum("bk,bk->b", done, done)
            failed = active & ~(pivot > 0)
            info[failed] = j + 1
            ok = active & ~failed
            work[:, j, j] = np.where(ok, np.sqrt(np.where(ok, pivot, 1)),
                                     np.where(failed, pivot, work[:, j, j]))
            below = (work[:, j + 1:, j] - np.einsum("bik,bk->bi", work[:, j + 1:, :j], done))
            below = below / np.where(ok, work[:, j, j], 1)[:, None]
            work[:, j + 1:, j] = np.where(ok[:, None], below, work[:, j + 1:, j])
    factor = work.reshape(a.shape)
    return (np.swapaxes(factor, -1, -2) if upper else factor), info.reshape(batch)


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
    """sign(det A) and log|det A| from the LU (the sign of a singular matrix is +-0.)."""
    if a.shape[-1] == 0:
        return np.ones(a.shape[:-2], a.dtype), np.zeros(a.shape[:-2], a.dtype)
    diagonal, parity = _lu_diagonal_and_parity(a)
    with np.errstate(divide="ignore"):
        return parity * np.prod(np.sign(diagonal), axis=-1), np.log(np.abs(diagonal)).sum(-1)
