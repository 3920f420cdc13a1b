"""``torch.linalg``: norms, determinants, inverses, solves, eigenvalues and factorizations.

The operations live in the op table (``tapegrad.ops.matrix``, ``ops.norm``, ``ops.linalg``); this
module gives them PyTorch's ``torch.linalg`` names and defaults.
"""
from .ops.linalg import cross as _cross
from .ops.linalg import matmul, multi_dot, vdot
from .ops.lapack import LinAlgError
from .ops.matrix import cholesky, det, eigh, eigvalsh, inv, matrix_rank, solve, svdvals
from .ops.eigen import eig, eigvals
from .ops.decompositions import pinv as _pinv
from .ops.decompositions import qr
from .ops.signatures import invalid_combination
from .ops.matrix import linalg_svd as svd
from .ops.norm import cond, matrix_norm, vector_norm
from .ops.assembly import increasing_powers as _increasing_powers
from .tensor import _LEGACY_TYPE_NAMES
from .ops.factorizations import (ldl_factor, ldl_factor_ex, ldl_solve, lu, lu_factor,
                                 lu_factor_ex, lu_solve, solve_triangular)
from .ops.matrix_functions import (cholesky_ex, householder_product, inv_ex, lstsq, matrix_exp,
                                   matrix_power, solve_ex, tensorinv, tensorsolve, vecdot)
from .ops.matrix_functions import linalg_diagonal as diagonal
from .ops.matrix_functions import linalg_slogdet as slogdet
from .ops.out import MULTI_DOT_DTYPE as _MULTI_DOT_DTYPE
from .ops.out import OutSpec as _Out
from .ops.out import castable_dtype as _castable
from .ops.out import exact_dtype as _exact
from .ops.out import with_results_out as _with_results_out

__all__ = ["vector_norm", "matrix_norm", "norm", "cond", "det", "inv", "solve", "cross",
           "eigvalsh", "qr", "cholesky", "svd", "svdvals", "matrix_rank", "matmul", "multi_dot", "vdot",
           "slogdet", "matrix_power", "matrix_exp", "pinv", "solve_triangular", "lu_factor",
           "lu_factor_ex", "lu", "lu_solve", "solve_ex", "inv_ex", "cholesky_ex", "vecdot",
           "diagonal", "vander", "tensorinv", "tensorsolve", "householder_product",
           "lstsq", "eigh", "eig", "eigvals", "ldl_factor", "ldl_factor_ex", "ldl_solve",
           "LinAlgError"]


def vander(x, N=None):
    """Powers x^0 .. x^(N-1) of each element along a new last dimension (N defaults to the
    last dimension's size)."""
    if x._array.dtype.kind not in "fiu":
        raise RuntimeError("linalg.vander supports floating point, complex, and integer tensors, "
                           f"but got {_LEGACY_TYPE_NAMES[x._array.dtype.name]}")
    x = x.unsqueeze(-1) if x._array.ndim == 0 else x
    n = x._array.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    return _increasing_powers(x, n)


_PINV_OVERLOADS = (
    "Tensor input, *, Tensor atol = None, Tensor rtol = None, bool hermitian = False, "
    "Tensor out = None",
    "Tensor input, *, float atol = None, float rtol = None, bool hermitian = False, "
    "Tensor out = None",
    "Tensor input, Tensor rcond, bool hermitian = False, *, Tensor out = None",
    "Tensor input, float rcond, bool hermitian = False, *, Tensor out = None",
)


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None):
    """The pseudo-inverse; ``rcond`` (PyTorch's older overload, also positional) is ``rtol``
    with no absolute tolerance."""
    if rcond is None:
        return _pinv(A, atol=atol, rtol=rtol, hermitian=hermitian)
    if atol is not None or rtol is not None:
        given = {"rcond": rcond, "atol": atol, "rtol": rtol}
        raise invalid_combination("linalg_pinv", (A,), {k: v for k, v in given.items()
                                                        if v is not None}, _PINV_OVERLOADS)
    return _pinv(A, atol=0.0, rtol=rcond, hermitian=hermitian)


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


# ------------------------------------------------------------------------------------ out=
#
# PyTorch's linalg functions take ``out=`` (a tensor, or a tuple for several results), each as
# ``ops.out.OutSpec`` describes.
_ONE = ("result",)
_TRIANGULAR = _exact("expected scalar type {expected} but found {found}")
_OUT_FUNCTIONS = {
    "cholesky": _Out("linalg_cholesky", _ONE, "linalg_cholesky_ex", _exact()),
    "cholesky_ex": _Out("linalg_cholesky_ex", ("L", "info"), "linalg_cholesky_ex", _exact(), 3),
    "inv": _Out("linalg_inv", _ONE, "linalg_inv_ex", _exact()),
    "inv_ex": _Out("linalg_inv_ex", ("inverse", "info"), "linalg_inv_ex", _exact(), 2),
    "solve": _Out("linalg_solve", _ONE, "_linalg_solve_ex", _exact()),
    "solve_ex": _Out("linalg_solve_ex", ("result", "info"), "_linalg_solve_ex", _exact(), 4),
    "solve_triangular": _Out("linalg_solve_triangular", _ONE, "linalg_solve_triangular",
                             _TRIANGULAR),
    "det": _Out("linalg_det", _ONE, "_linalg_det", _exact()),
    "slogdet": _Out("linalg_slogdet", ("sign", "logabsdet"), "_linalg_slogdet", _exact(), 1),
    "eigh": _Out("linalg_eigh", ("eigenvalues", "eigenvectors"), "_linalg_eigh", _exact(), 2),
    "eigvalsh": _Out("linalg_eigvalsh", _ONE, "_linalg_eigh", _exact()),
    "svdvals": _Out("linalg_svdvals", _ONE, "_linalg_svd", _exact()),
    "matrix_power": _Out("linalg_matrix_power", _ONE, "matmul", _exact()),
    "pinv": _Out("linalg_pinv", _ONE, "linalg_pinv", _castable("linalg.pinv"),
                 overloads=_PINV_OVERLOADS),
    "qr": _Out("linalg_qr", ("Q", "R"), "linalg_qr", _exact(), 2),
    "svd": _Out("linalg_svd", ("U", "S", "Vh"), "_linalg_svd", _exact(), 3),
    "lstsq": _Out("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"),
                  "linalg_lstsq", _castable("torch.linalg.lstsq"), 4),
    "eig": _Out("linalg_eig", ("eigenvalues", "eigenvectors"), "linalg_eig",
                _castable("torch.linalg.eig"), 1),
    "eigvals": _Out("linalg_eigvals", ("eigenvalues",), "aten::linalg_eigvals",
                    _castable("torch.linalg.eigvals"), composite=True),
    "matrix_norm": _Out("linalg_matrix_norm", _ONE, None, _exact(
        "linalg.matrix_norm expected out tensor dtype {expected} but got: {found}"),
        composite=True, overloads=(
            "Tensor input, Number ord, tuple of ints dim = {-2,-1}, bool keepdim = False, *, "
            "torch.dtype dtype = None, Tensor out = None",
            'Tensor input, str ord = "fro", tuple of ints dim = {-2,-1}, bool keepdim = False, '
            "*, torch.dtype dtype = None, Tensor out = None")),
    "vector_norm": _Out("linalg_vector_norm", _ONE, "linalg_vector_norm", _exact()),
    "norm": _Out("linalg_norm", _ONE, None, _exact(
        "linalg.norm expected out tensor dtype {expected} but got: {found}"), composite=True,
        overloads=(
            "Tensor input, Number ord = None, tuple of ints dim = None, bool keepdim = False, *, "
            "torch.dtype dtype = None, Tensor out = None",
            "Tensor input, str ord, tuple of ints dim = None, bool keepdim = False, *, "
            "torch.dtype dtype = None, Tensor out = None")),
    "cross": _Out("linalg_cross", _ONE, "linalg_cross", _exact()),
    "vecdot": _Out("linalg_vecdot", _ONE, "sum", _exact(
        "linalg.vecdot: Expected out of dtype{expected} but found {found}")),
    "multi_dot": _Out("linalg_multi_dot", _ONE, "mm", _MULTI_DOT_DTYPE),
    "householder_product": _Out("linalg_householder_product", _ONE, "linalg_householder_product",
                                _castable("torch.linalg.householder_product")),
    "lu": _Out("linalg_lu", ("P", "L", "U"), "linalg_lu", _exact(), 2),
    "lu_factor": _Out("linalg_lu_factor", ("LU", "pivots"), "linalg_lu_factor_ex", _exact(), 2),
    "lu_factor_ex": _Out("linalg_lu_factor_ex", ("LU", "pivots", "info"), "linalg_lu_factor_ex",
                         _exact(), 3),
    "lu_solve": _Out("linalg_lu_solve", _ONE, "linalg_lu_solve", _exact()),
    "tensorinv": _Out("linalg_tensorinv", _ONE, None, _castable("tensorinv"), composite=True),
    "tensorsolve": _Out("linalg_tensorsolve", _ONE, None, _castable("tensorsolve"),
                        composite=True),
    "ldl_factor": _Out("linalg_ldl_factor", ("LD", "pivots"), "aten::linalg_ldl_factor_ex",
                       _exact(), 2, composite=True),
    "ldl_factor_ex": _Out("linalg_ldl_factor_ex", ("LD", "pivots", "info"),
                          "aten::linalg_ldl_factor_ex", _exact(), 3, composite=True),
    "ldl_solve": _Out("linalg_ldl_solve", _ONE, "aten::linalg_ldl_solve", _exact(),
                      composite=True),
    "cond": _Out("linalg_cond", _ONE, None, _castable("linalg.cond"), composite=True,
                 overloads=("Tensor input, Number p = None, *, Tensor out = None",
                            "Tensor input, str p, *, Tensor out = None")),
    "matrix_rank": _Out("linalg_matrix_rank", _ONE, "sum", _castable("torch.linalg.matrix_rank"),
                        overloads=_PINV_OVERLOADS[:2] + (
                            "Tensor input, Tensor tol, bool hermitian = False, *, "
                            "Tensor out = None",
                            "Tensor input, float tol, bool hermitian = False, *, "
                            "Tensor out = None")),
}


globals().update({name: _with_results_out(globals()[name], spec)
                  for name, spec in _OUT_FUNCTIONS.items()})
