"""``torch.linalg``: norms, determinants, inverses, solves, eigenvalues and factorizations.

The operations live in the op table (``tapegrad.ops.matrix``, ``ops.norm``, ``ops.linalg``); this
module gives them PyTorch's ``torch.linalg`` names and defaults.
"""
import functools

from .autograd import grad_mode as _grad_mode
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
from .tensor import Tensor as _Tensor
from .ops.factorizations import (ldl_factor, ldl_factor_ex, ldl_solve, lu, lu_factor,
                                 lu_factor_ex, lu_solve, solve_triangular)
from .ops.matrix_functions import (cholesky_ex, householder_product, inv_ex, lstsq, matrix_exp,
                                   matrix_power, solve_ex, tensorinv, tensorsolve, vecdot)
from .ops.matrix_functions import linalg_diagonal as diagonal
from .ops.matrix_functions import linalg_slogdet as slogdet
from .ops.operands import CPP_TYPE_NAMES as _CPP_TYPE_NAMES
from .ops.operands import check_tensor_elements as _check_tensor_elements
from .ops.out import write_out as _write_out
from .return_types import out_type as _out_type

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
# PyTorch's linalg functions take ``out=`` (a tensor, or a tuple for several results), which must
# have the result's dtype exactly; autograd refuses them under the name of the op they run.
# Per function: its parser's name, the number of results, the op named by the autograd error.
_OUT_FUNCTIONS = {
    "cholesky": ("linalg_cholesky", 1, "linalg_cholesky_ex"),
    "cholesky_ex": ("linalg_cholesky_ex", 2, "linalg_cholesky_ex"),
    "inv": ("linalg_inv", 1, "linalg_inv_ex"),
    "inv_ex": ("linalg_inv_ex", 2, "linalg_inv_ex"),
    "solve": ("linalg_solve", 1, "_linalg_solve_ex"),
    "solve_ex": ("linalg_solve_ex", 2, "_linalg_solve_ex"),
    "solve_triangular": ("linalg_solve_triangular", 1, "linalg_solve_triangular"),
    "det": ("linalg_det", 1, "_linalg_det"),
    "slogdet": ("linalg_slogdet", 2, "_linalg_slogdet"),
    "eigh": ("linalg_eigh", 2, "_linalg_eigh"),
    "eigvalsh": ("linalg_eigvalsh", 1, "_linalg_eigh"),
    "svdvals": ("linalg_svdvals", 1, "_linalg_svd"),
    "matrix_power": ("linalg_matrix_power", 1, "matmul"),
}


def _with_out(function, parser_name, n_results, op_name):
    """``function`` taking ``out=``: the results are computed, then copied into ``out``."""
    @functools.wraps(function)
    def call(*args, out=None, **kwargs):
        if out is None:
            return function(*args, **kwargs)
        targets = _out_targets(out, parser_name, n_results)
        result = function(*args, **kwargs)
        values = (result,) if n_results == 1 else tuple(result)
        _refuse_grad(op_name, values, targets)
        for value, target in zip(values, targets):
            _check_out_dtype(parser_name, value, target)
        written = [_write_out(op_name, value, target) for value, target in zip(values, targets)]
        return written[0] if n_results == 1 else _out_type(type(result))(*written)
    return call


def _out_targets(out, parser_name, n_results):
    """``out`` as a tuple of tensors, checked as PyTorch's argument parser checks it."""
    if n_results == 1:
        if not isinstance(out, _Tensor):
            raise TypeError(f"{parser_name}(): argument 'out' must be Tensor, not "
                            f"{type(out).__name__}")
        return (out,)
    if not isinstance(out, (tuple, list)):
        raise TypeError(f"{parser_name}(): argument 'out' must be tuple of Tensors, not "
                        f"{type(out).__name__}")
    if len(out) != n_results:
        raise TypeError(f"expected tuple of {n_results} elements but got {len(out)}")
    _check_tensor_elements(out, 2)
    return tuple(out)


def _refuse_grad(op_name, values, targets):
    """Autograd's refusal comes before any other check of the outputs."""
    for value, target in zip(values, targets):
        if _grad_mode.is_grad_enabled() and (value._requires_grad or target._requires_grad):
            raise RuntimeError(f"{op_name}(): functions with out=... arguments don't support "
                               "automatic differentiation, but one of the arguments requires "
                               "grad.")


def _check_out_dtype(parser_name, value, target):
    expected, found = value._array.dtype.name, target._array.dtype.name
    if expected == found:
        return
    if parser_name == "linalg_solve_triangular":
        raise RuntimeError(f"expected scalar type {_LEGACY_TYPE_NAMES[expected]} but found "
                           f"{_LEGACY_TYPE_NAMES[found]}")
    raise RuntimeError(f"Expected out tensor to have dtype {_CPP_TYPE_NAMES[expected]}, but got "
                       f"{_CPP_TYPE_NAMES[found]} instead")


globals().update({name: _with_out(globals()[name], *spec) for name, spec in _OUT_FUNCTIONS.items()})
