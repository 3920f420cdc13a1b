"""The eigendecomposition of general square matrices (``torch.linalg.eig``, ``eigvals``).

A real matrix may have complex eigenvalues, so the results are always complex, as PyTorch's.
numpy's LAPACK ``geev`` normalizes each eigenvector to length 1 with its largest component
real, as PyTorch's does. An eigenvector is only defined up to a phase, so a loss that depends on
the phase has no gradient: PyTorch's backward refuses it, and so does this one.
"""
import numpy as np

from ..dtypes import SCALAR_TYPE_NAMES
from ..return_types import structseq
from .conjugation import conj, real
from .elementwise import where
from .layout import diag_embed
from .linalg import matmul
from .matrix import check_phase_free, check_square_shape, solve
from .registry import OTHER, primitive
from .shape import transpose, unsqueeze
from ..tensor import Tensor

__all__ = ["eig", "eigvals"]

_Eig = structseq("linalg_eig", "eigenvalues eigenvectors")


@primitive("linalg_eig", node="LinalgEigBackward0", group=OTHER, n_outputs=None,
           saves=("out0", "out1"), complex_rule=True)
def _eig(a):
    values, vectors = np.linalg.eig(a)
    complex_dtype = np.result_type(a.dtype, np.complex64)  # float32: complex64
    return values.astype(complex_dtype, copy=False), vectors.astype(complex_dtype, copy=False)


@_eig.vjp
def _(ctx, grads):
    """PyTorch's ``linalg_eig_backward``: with V^H gV less its projection on V's scaling,
    gA = V^-H ((V^H gV)_proj / conj(E) + diag(gL)) V^H, E_ij = L_j - L_i; real for a real A."""
    values, vectors = ctx.saved
    grad_values, grad_vectors = (grads[i] if i < len(grads) else None for i in range(2))
    vectors_h = conj(transpose(vectors, -2, -1))
    n = values.shape[-1]
    eye = Tensor._make(np.eye(n, dtype=bool))
    if grad_vectors is None:
        inner = diag_embed(grad_values)
    else:
        product = matmul(vectors_h, grad_vectors)
        check_phase_free(product, "linalg_eig_backward")
        diagonal = product.diagonal(0, -2, -1)
        product = product - matmul(vectors_h, vectors * unsqueeze(real(diagonal), -2))
        if grad_values is not None:
            product = product + diag_embed(grad_values)
        gaps = conj(unsqueeze(values, -2) - unsqueeze(values, -1))
        inner = product / where(eye, 1, gaps)
    grad = solve(vectors_h, matmul(inner, vectors_h))
    return grad if ctx.input_dtypes[0].kind == "c" else real(grad)


def _check(name, A):
    check_square_shape(name, A)
    dtype = A._array.dtype
    if dtype.kind not in "fc":  # PyTorch fails to name the complex type of its result
        raise RuntimeError(f"Unknown Complex ScalarType for {SCALAR_TYPE_NAMES[dtype.name]}")
    if dtype == np.float16:
        raise NotImplementedError('"linalg_eig_out_cpu" not implemented for \'Half\'')


def eig(A):
    """Eigenvalues and unit eigenvectors (columns) of square matrices, as complex tensors."""
    _check("linalg.eig", A)
    _refuse_non_finite(A)
    return _Eig(*_eig(A))


def _refuse_non_finite(A):
    if not np.isfinite(A._array).all():
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")


def eigvals(A):
    """The eigenvalues of square matrices, complex; differentiable through ``eig``. Without a
    gradient to record, a matrix with an inf or nan has nan eigenvalues (LAPACK's geev gives
    no others), as in PyTorch."""
    _check("linalg.eigvals", A)
    if A.requires_grad or A._fw_grad is not None:  # (a tangent: forward-mode AD)
        _refuse_non_finite(A)
        return _eig(A)[0]
    array = A._array
    finite = np.isfinite(array).all(axis=(-2, -1), keepdims=True)
    values = np.linalg.eigvals(np.where(finite, array, 0))
    values = np.where(finite[..., 0], values, np.nan + np.nan * 1j)
    return Tensor._make(values.astype(np.result_type(array.dtype, np.complex64), copy=False))
