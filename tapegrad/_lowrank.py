"""Randomized low-rank factorizations: ``torch.svd_lowrank`` and ``torch.pca_lowrank``.

Halko, Martinsson and Tropp (2009): multiply A by a random Gaussian matrix, orthonormalize (QR),
refine with ``niter`` power iterations, then take the exact SVD of the small projection Q^H A.
Everything is composed of differentiable tapegrad operations, so gradients flow as in PyTorch;
the random projection comes from tapegrad's generator, so the factors match PyTorch's only where
the rank determines them (q at least the rank: exact singular values and subspaces).
"""
from . import dtypes as _dtypes
from . import sparse as _sparse
from .ops.creation import randn as _randn
from .ops.decompositions import qr as _qr
from .ops.matrix import linalg_svd as _svd

__all__ = ["svd_lowrank", "pca_lowrank"]


def get_approximate_basis(A, q, niter=2, M=None):
    """``q`` orthonormal columns Q with Q Q^H (A - M) close to A - M (Halko et al., Algorithm 4.4),
    never forming A - M itself."""
    niter = 2 if niter is None else niter
    R = _randn(A.shape[-1], q, dtype=_floating_dtype(A))
    Q = _orthonormal(_centered_product(A, M, R))
    for _ in range(niter):
        Q = _orthonormal(_centered_product(_adjoint(A), None if M is None else M.mH, Q))
        Q = _orthonormal(_centered_product(A, M, Q))
    return Q


def svd_lowrank(A, q=6, niter=2, M=None):
    """``(U, S, V)`` with A - M close to U diag(S) V^H, from a rank-``q`` basis (Halko et al.,
    Algorithm 5.1); ``M`` (default none) broadcasts to A's size."""
    q = 6 if q is None else q
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.size())
    if m < n:  # factor the tall transpose, then swap U and V back
        A = _adjoint(A)
        M = None if M is None else M.mH
    Q = get_approximate_basis(A, q, niter=niter, M=M)
    B = _centered_product(Q.mH, None, A)
    if M is not None:
        B = B - Q.mH @ M
    U, S, Vh = _svd(B, full_matrices=False)
    U, V = Q @ U, Vh.mH
    return (V, S, U) if m < n else (U, S, V)


def pca_lowrank(A, q=None, center=True, niter=2):
    """Principal components of the rows of A: ``(U, S, V)`` of the column-centered A (``center``),
    V's columns the principal directions; ``q`` defaults to min(6, m, n)."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than "
                         f"min(m, n)={min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return svd_lowrank(A, q, niter=niter)
    if A.is_sparse:
        if A.dim() != 2:
            raise ValueError("pca_lowrank input is expected to be 2-dimensional tensor")
        column_means = _sparse.sum(A, dim=(-2,)).to_dense() / m
        return svd_lowrank(A, q, niter=niter, M=column_means.to(_floating_dtype(A)))
    return svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter=niter)


def _floating_dtype(A):
    """A's dtype if floating or complex, else float32 (PyTorch's choice for the projection)."""
    dtype = A.dtype
    return dtype if dtype.is_floating_point or dtype.is_complex else _dtypes.float32


def _centered_product(A, M, B):
    """(A - M) @ B without forming A - M; A may be sparse."""
    product = _sparse.mm(A, B) if A.is_sparse else A @ B
    return product if M is None else product - M @ B


def _adjoint(A):
    """The conjugate transpose; a sparse (real) matrix by its transpose."""
    return A.transpose(-2, -1) if A.is_sparse else A.mH


def _orthonormal(X):
    return _qr(X).Q
