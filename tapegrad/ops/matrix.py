"""Functions of square matrices: determinant, inverse, linear solve, symmetric eigenvalues, QR and
Cholesky factorizations (``torch.linalg``'s core). All work on batches ``(..., n, n)``.

Each differentiable one is a primitive with PyTorch's node name and a backward rule written with
tapegrad ops (so ``create_graph`` differentiates it again): d det(A) = det(A) tr(A^-1 dA),
d A^-1 = -A^-1 dA A^-1, and a solve's gradient is another solve.
"""
import numpy as np

from ..autograd import grad_mode
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .layout import diag_embed, tril
from .linalg import matmul
from .registry import OTHER, primitive
from .shape import transpose, unsqueeze

__all__ = ["det", "inv", "inverse", "solve", "eigvalsh", "qr", "cholesky"]


def _mT(t):
    return transpose(t, -2, -1)


def _check_square(name, A, argument="A"):
    shape = A._array.shape
    if len(shape) < 2:
        raise RuntimeError(f"{name}: The input tensor {argument} must have at least 2 dimensions.")
    if shape[-1] != shape[-2]:
        raise RuntimeError(f"{name}: {argument} must be batches of square matrices, but they are "
                           f"{shape[-2]} by {shape[-1]} matrices")
    if A._array.dtype.kind != "f":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got "
                           f"{_LEGACY_TYPE_NAMES[A._array.dtype.name]}")


def _singular(name, what):
    return lambda inputs, params: (f"{name}: The {what} could not be completed because the input "
                                   "matrix is singular.")


@primitive("det", node="LinalgDetBackward0", group=OTHER, saves=("a", "out"))
def _det(a):
    return np.linalg.det(a)


@_det.vjp
def _(ctx, grad):
    """d det(A) / dA = det(A) A^-T (A must be invertible where the gradient is taken)."""
    a, det_value = ctx.saved
    scale = unsqueeze(unsqueeze(grad * det_value, -1), -1)
    return scale * _mT(_inv(a))


@primitive("inv", node="LinalgInvExBackward0", group=OTHER, saves=("out",),
           error=_singular("linalg.inv", "inversion"))
def _inv(a):
    return np.linalg.inv(a)


@_inv.vjp
def _(ctx, grad):
    (inverse_value,) = ctx.saved
    inverse_t = _mT(inverse_value)
    return -matmul(matmul(inverse_t, grad), inverse_t)


@primitive("solve", node="LinalgSolveExBackward0", group=OTHER, saves=("a", "out"),
           error=_singular("torch.linalg.solve", "solve"))
def _solve(a, b, vector):
    return np.linalg.solve(a, b[..., None])[..., 0] if vector else np.linalg.solve(a, b)


@_solve.vjp
def _(ctx, grad, vector):
    """X = A^-1 B: the gradient of B is A^-T G, and of A, minus that times X^T."""
    a, x = ctx.saved
    grad_b = _solve(_mT(a), grad, vector=vector)
    if not ctx.needs_input_grad[0]:
        return None, grad_b
    grad_a = (-unsqueeze(grad_b, -1) * unsqueeze(x, -2) if vector
              else -matmul(grad_b, _mT(x)))
    return grad_a, grad_b


@primitive("eigvalsh", node="LinalgEighBackward0", group=OTHER, saves=("a",))
def _eigvalsh(a, UPLO):
    return np.linalg.eigvalsh(a, UPLO=UPLO)


@primitive("eigh_vectors", node="LinalgEighBackward0", group=OTHER)
def _eigh_vectors(a, UPLO):
    return np.linalg.eigh(a, UPLO=UPLO)[1]


@_eigvalsh.vjp
def _(ctx, grad, UPLO):
    """d lambda_i = v_i^T dA v_i, so the gradient is V diag(G) V^T."""
    (a,) = ctx.saved
    vectors = _eigh_vectors(a, UPLO=UPLO)
    return matmul(matmul(vectors, diag_embed(grad)), _mT(vectors))


@_eigh_vectors.vjp
def _(ctx, grad, UPLO):
    raise RuntimeError("tapegrad does not differentiate linalg.eigvalsh twice (its first "
                       "derivative uses the eigenvectors, whose own derivative is not implemented)")


def _not_positive_definite(inputs, params):
    return ("linalg.cholesky: The factorization could not be completed because the input is not "
            "positive-definite.")


@primitive("cholesky", node="LinalgCholeskyExBackward0", group=OTHER, saves=("out",),
           error=_not_positive_definite)
def _cholesky(a, upper):
    return np.linalg.cholesky(a, upper=upper)


@_cholesky.vjp
def _(ctx, grad, upper):
    """PyTorch's rule: gA = L^-T Phi(L^T gL) L^-1, symmetrized, where Phi keeps the lower
    triangle with its diagonal halved (for ``upper``, L = U^T and gL = gU^T)."""
    (factor,) = ctx.saved
    lower, grad = (_mT(factor), _mT(grad)) if upper else (factor, grad)
    product = matmul(_mT(lower), grad)
    phi = tril(product, -1) + diag_embed(product.diagonal(0, -2, -1) * 0.5)
    lower_inverse = _inv(lower)
    grad_a = matmul(matmul(_mT(lower_inverse), phi), lower_inverse)
    return (grad_a + _mT(grad_a)) * 0.5


def det(A):
    _check_square("linalg.det", A)
    return _det(A)


def inv(A):
    _check_square("linalg.inv", A)
    return _inv(A)


inverse = inv


def solve(A, B, *, left=True):
    """``X`` with ``A X = B``; ``B`` may be a vector (or a batch of them)."""
    if not left:
        raise NotImplementedError("linalg.solve: left=False is not supported by tapegrad")
    _check_square("torch.linalg.solve", A)
    a_shape, b_shape = A._array.shape, B._array.shape
    vector = len(b_shape) == 1 or (len(b_shape) == len(a_shape) - 1 and b_shape == a_shape[:-1])
    if b_shape[-2 + vector] != a_shape[-1]:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation AX = B "
                           f"({a_shape[-2]}x{a_shape[-1]} and "
                           f"{'x'.join(map(str, b_shape[-2 + vector:]))})")
    if B._array.dtype != A._array.dtype:
        B = B.to(A.dtype)
    return _solve(A, B, vector=vector)


def eigvalsh(A, UPLO="L"):
    """The eigenvalues of symmetric matrices, ascending (only the ``UPLO`` triangle is read)."""
    _check_square("linalg.eigh", A)
    return _eigvalsh(A, UPLO=UPLO)


def cholesky(A, *, upper=False):
    _check_square("linalg.cholesky", A)
    return _cholesky(A, upper=upper)


class _QRResult(tuple):
    """``torch.return_types.linalg_qr(Q=..., R=...)``."""

    def __new__(cls, Q, R):
        return tuple.__new__(cls, (Q, R))

    Q = property(lambda self: self[0])
    R = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.linalg_qr(\nQ={self.Q!r},\nR={self.R!r})"


def qr(A, mode="reduced"):
    """Q with orthonormal columns and upper-triangular R, ``A = Q R``. Values only: QR's backward
    needs one node with two differentiable outputs, which tapegrad's op table does not have."""
    if A._requires_grad and grad_mode.is_grad_enabled():
        raise NotImplementedError("tapegrad cannot differentiate linalg.qr (a node with two "
                                  "differentiable outputs); call it on a detached tensor")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    if mode == "r":
        return _QRResult(Tensor._make(np.empty(0, A._array.dtype)),
                         Tensor._make(np.linalg.qr(A._array, mode="r")))
    q, r = np.linalg.qr(A._array, mode=mode)
    return _QRResult(Tensor._make(q), Tensor._make(r))
