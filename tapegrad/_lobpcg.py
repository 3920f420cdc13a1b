"""``torch.lobpcg``: a few extreme eigenpairs of a symmetric (generalized) eigenproblem
A x = lambda B x by the locally optimal block preconditioned conjugate gradient method
(Knyazev 2001).

Each step runs Rayleigh-Ritz on the span of the current block X, the (preconditioned)
residuals W and the previous search directions P, made B-orthonormal first. Iterations stop
when the first k residuals pass PyTorch's backward-stable test
||r_i|| / (||x_i|| (||A|| + |lambda_i| ||B||)) < tol, or after ``niter`` steps. The eigenpairs
agree with PyTorch's to the tolerance; eigenvector signs, the iteration count and, without an
initial ``X``, the random start are tapegrad's own.

Gradients (A only, as PyTorch: B must be the identity) are those of the k eigenpairs of the
symmetrized (A + A^T) / 2: gA = U (diag(gE) + F o (U^T gU)) U^T for the part within the found
eigenspace, plus, for each pair, the complement's (lambda_i I - A)^+ (I - U U^T) gU_i u_i^T.
"""
import numpy as np

from . import dtypes as _dtypes
from ._layout import strided as _strided
from .autograd.function import Function, once_differentiable
from .ops.creation import randn as _randn
from .tensor import Tensor

__all__ = ["lobpcg"]

_EPSILON = {np.dtype(np.float32): 1.2e-07, np.dtype(np.float64): 2.23e-16}


def lobpcg(A, k=None, B=None, X=None, n=None, iK=None, niter=None, tol=None, largest=None,
           method=None, tracker=None, ortho_iparams=None, ortho_fparams=None,
           ortho_bparams=None):
    """The ``k`` largest (``largest=False``: smallest) eigenvalues of A x = lambda B x and their
    B-orthonormal eigenvectors, from a block of ``n`` columns (``X``'s, or random); ``niter=-1``
    iterates until convergence. ``method``, ``tracker`` and the ``ortho_*`` tuning dictionaries
    are accepted for PyTorch's signature: tapegrad has the one method above."""
    _check_shapes(A, B)
    dtype = A.dtype if A.is_floating_point() else _dtypes.get_default_dtype()
    tol = _EPSILON[dtype.numpy] ** 0.5 if tol is None else tol
    m = A.shape[-1]
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(f"LOBPCG algorithm is not applicable when the number of A rows (={m}) "
                         f"is smaller than 3 x the number of requested eigenpairs (={n})")
    options = dict(k=k, n=n, iK=iK, niter=1000 if niter is None else niter, tol=tol,
                   largest=True if largest is None else bool(largest), dtype=dtype)
    if A.requires_grad or (B is not None and B.requires_grad):
        A = (A + A.mT) / 2  # a symmetric gradient, which keeps A - lr * grad symmetric
        B = None if B is None else (B + B.mT) / 2
        return LOBPCGAutogradFunction.apply(A, B, X, options)
    return _solve(A, B, X, options)


def _check_shapes(A, B):
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None and A.shape != B.shape:
        raise AssertionError(f"A and B must have same shape, got {A.shape} vs {B.shape}")


def _solve(A, B, X, options):
    """Eigenvalues (..., k) and eigenvectors (..., m, k), each matrix of the batch in turn."""
    batch, m, n = tuple(A.shape[:-2]), A.shape[-1], options["n"]
    a = _dense_array(A).reshape(-1, m, m)
    b = None if B is None else _dense_array(B).reshape(-1, m, m)
    x = None if X is None else X.detach().numpy().reshape(-1, *X.shape[-2:])
    ik = None if options["iK"] is None else _dense_array(options["iK"])
    values, vectors = [], []
    if X is not None and tuple(X.shape[-2:]) != (m, n):
        raise AssertionError(f"X shape mismatch: got {X.shape}, expected {(m, n)}")
    for i in range(a.shape[0]):
        start = (_randn(m, n, dtype=options["dtype"]).numpy() if x is None
                 else x[i if x.shape[0] > 1 else 0])
        e, u = _lobpcg_one(a[i], None if b is None else b[i], start, ik, options)
        values.append(e)
        vectors.append(u)
    numpy_dtype = options["dtype"].numpy
    k = options["k"]
    return (Tensor._make(np.stack(values).reshape(batch + (k,)).astype(numpy_dtype)),
            Tensor._make(np.stack(vectors).reshape(batch + (m, k)).astype(numpy_dtype)))


def _dense_array(matrix):
    """The values of a dense or sparse (COO, CSR) matrix, as LOBPCG only multiplies by it."""
    dense = matrix if matrix.layout == _strided else matrix.to_dense()
    return dense.detach().numpy()


def _lobpcg_one(a, b, x, ik, options):
    """One matrix, in float64: the iteration on -A for the largest eigenvalues, so that the
    wanted ones are always the smallest Ritz values."""
    sign = -1.0 if options["largest"] else 1.0
    a = sign * a.astype(np.float64)
    b = np.eye(a.shape[-1]) if b is None else b.astype(np.float64)
    k, n, tol = options["k"], x.shape[-1], options["tol"]
    x = x.astype(np.float64)
    scale = 1 / np.linalg.norm(x)
    a_norm, b_norm = np.linalg.norm(a @ x) * scale, np.linalg.norm(b @ x) * scale
    basis = _b_orthonormal(x, b)
    values, x = _rayleigh_ritz(a, basis, n)
    directions = None
    iterations = options["niter"]
    while iterations != 0:
        residual = a @ x - (b @ x) * values
        error = np.linalg.norm(residual, axis=0) / (
            np.linalg.norm(x, axis=0) * (a_norm + np.abs(values) * b_norm))
        if (error[:k] < tol).all():
            break
        search = residual if ik is None else ik @ residual
        blocks = [x, search] + ([] if directions is None else [directions])
        basis = _b_orthonormal(np.concatenate(blocks, axis=1), b)
        values, ritz = _rayleigh_ritz(a, basis, n, coefficients=True)
        x = basis @ ritz
        directions = basis[:, n:] @ ritz[n:]  # the new x's part outside the old block
        iterations -= 1
    return sign * values[:k], x[:, :k]


def _b_orthonormal(s, b):
    """Columns spanning ``s``'s range with S^T B S = I: by the eigen-decomposition of the Gram
    matrix, dropping directions too small to trust (a converged residual, a stalled P)."""
    gram = s.T @ b @ s
    gram = (gram + gram.T) / 2
    weights, vectors = np.linalg.eigh(gram)
    keep = weights > weights.max() * 1e-14
    return s @ (vectors[:, keep] / np.sqrt(weights[keep]))


def _rayleigh_ritz(a, basis, n, coefficients=False):
    """The ``n`` smallest Ritz values of A on a B-orthonormal basis, with the Ritz vectors (or
    their coefficients in the basis)."""
    projected = basis.T @ a @ basis
    values, vectors = np.linalg.eigh((projected + projected.T) / 2)
    vectors = vectors[:, :n]
    return values[:n], (vectors if coefficients else basis @ vectors)


class LOBPCGAutogradFunction(Function):
    """A differentiable ``lobpcg``: PyTorch's node, LOBPCGAutogradFunctionBackward."""

    @staticmethod
    def forward(ctx, A, B, X, options):
        values, vectors = _solve(A, B, X, options)
        ctx.has_b = B is not None
        ctx.save_for_backward(A, values, vectors)
        return values, vectors

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_values, grad_vectors):
        if ctx.has_b:
            raise ValueError("lobpcg.backward does not support backward with B != I yet.")
        a, values, vectors = (t.numpy().astype(np.float64) for t in ctx.saved_tensors)
        grad = _eigenpairs_grad(a, values, vectors,
                                None if grad_values is None else grad_values.numpy(),
                                None if grad_vectors is None else grad_vectors.numpy())
        return Tensor._make(grad.astype(ctx.saved_tensors[0].numpy().dtype)), None, None, None


def _eigenpairs_grad(a, values, vectors, grad_values, grad_vectors):
    """The gradient of k eigenpairs (U, E) of symmetric matrices A (batched)."""
    grad = np.zeros_like(a)
    if grad_values is not None:
        grad = grad + (vectors * grad_values[..., None, :]) @ np.swapaxes(vectors, -1, -2)
    if grad_vectors is None:
        return grad
    gaps = values[..., None, :] - values[..., :, None]
    k = values.shape[-1]
    inverse_gaps = np.where(np.eye(k, dtype=bool), 0.0, 1 / np.where(gaps == 0, np.inf, gaps))
    inner = inverse_gaps * (np.swapaxes(vectors, -1, -2) @ grad_vectors)
    grad = grad + vectors @ inner @ np.swapaxes(vectors, -1, -2)
    return grad + _complement_grad(a, values, vectors, grad_vectors)


def _complement_grad(a, values, vectors, grad_vectors):
    """sum_i (lambda_i I - A)^+ (I - U U^T) gU_i u_i^T: each solve with U's eigenvalues shifted
    out of the way (by more than any gap), which leaves the complement's solution."""
    m = a.shape[-1]
    projector = vectors @ np.swapaxes(vectors, -1, -2)
    outside = grad_vectors - projector @ grad_vectors
    shift = 2 * np.abs(a).sum(axis=(-2, -1))[..., None, None] + 1
    solutions = []
    for i in range(values.shape[-1]):
        operator = values[..., i, None, None] * np.eye(m) - a + shift * projector
        solutions.append(np.linalg.solve(operator, outside[..., i:i + 1]))
    return np.concatenate(solutions, axis=-1) @ np.swapaxes(vectors, -1, -2)
