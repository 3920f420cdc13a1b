"""``torch.linalg``: norms, determinants, inverses, solves, eigenvalues and factorizations.

The operations live in the op table (``tapegrad.ops.matrix``, ``ops.norm``, ``ops.linalg``); this
module gives them PyTorch's ``torch.linalg`` names and defaults.
"""
from .ops.linalg import cross as _cross
from .ops.linalg import matmul
from .ops.matrix import cholesky, det, eigvalsh, inv, qr, solve
from .ops.norm import matrix_norm, vector_norm

__all__ = ["vector_norm", "matrix_norm", "norm", "det", "inv", "solve", "cross", "eigvalsh", "qr",
           "cholesky", "matmul"]


def cross(input, other, *, dim=-1):
    return _cross(input, other, dim)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A vector norm over one dimension or all of them, a matrix norm over two dimensions (or of a
    matrix when ``ord`` is given without ``dim``), as PyTorch decides."""
    if isinstance(dim, int):
        dim = (dim,)
    ndim = A._array.ndim
    matrix = (dim is not None and len(dim) == 2) or (dim is None and ord is not None and ndim == 2)
    if matrix:
        return matrix_norm(A, "fro" if ord is None else ord, (-2, -1) if dim is None else dim,
                           keepdim, dtype=dtype)
    if isinstance(ord, str):
        raise RuntimeError(f"linalg.vector_norm: ord={ord!r} is a matrix norm; pass a dim of two "
                           "dimensions or a 2-D input")
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)
