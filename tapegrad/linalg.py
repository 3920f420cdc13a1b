"""``torch.linalg``: norms, determinants, inverses, solves, eigenvalues and factorizations.

The operations live in the op table (``tapegrad.ops.matrix``, ``ops.norm``, ``ops.linalg``); this
module gives them PyTorch's ``torch.linalg`` names and defaults.
"""
from .ops.linalg import cross as _cross
from .ops.linalg import matmul, multi_dot, vdot
from .ops.matrix import cholesky, det, eigvalsh, inv, matrix_rank, qr, solve, svdvals
from .ops.matrix import linalg_svd as svd
from .ops.norm import cond, matrix_norm, vector_norm

__all__ = ["vector_norm", "matrix_norm", "norm", "cond", "det", "inv", "solve", "cross",
           "eigvalsh", "qr", "cholesky", "svd", "svdvals", "matrix_rank", "matmul", "multi_dot", "vdot"]


def cross(input, other, *, dim=-1):
    return _cross(input, other, dim)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A matrix norm when ``ord`` is given with two dimensions (``dim`` of length 2, or a 2-D
    input without ``dim``) or is a string; otherwise a vector norm, as PyTorch decides."""
    if isinstance(dim, int):
        dim = (dim,)
    ndim = A._array.ndim
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is specified, it must be of length 1 or 2. "
                               f"Got {list(dim)}")
    elif ord is not None and ndim not in (1, 2):
        raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be 1D "
                           f"or 2D. Got {ndim}D.")
    two_dims = len(dim) == 2 if dim is not None else ndim == 2
    if isinstance(ord, str) or (ord is not None and two_dims):
        return matrix_norm(A, ord, (0, 1) if dim is None else dim, keepdim, dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)
