"""Names real PyTorch programs use that tapegrad lacked: array helpers (trapezoid, gradient,
vander, the *_scatter ops, put …), linear algebra (slogdet, matrix_exp, LU, triangular solves …),
window functions, binomial/poisson/fork_rng, runtime settings, and the functional operations
PyTorch also exposes as ``torch.conv2d``, ``torch.layer_norm`` ….

Rows are written against a module ``T`` (tapegrad or PyTorch) so one table checks values,
gradients and recorded nodes against PyTorch, and gradcheck checks tapegrad in float64.
"""
import sys
import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck

torch = pytest.importorskip("torch")


@dataclass(frozen=True)
class Row:
    id: str
    fn: Callable  # fn(T, *float_tensors) -> tensor or tuple of tensors
    arrays: tuple
    node: str = ""  # the grad_fn name both record ("": they differ or there is none)
    torch_backward: bool = True  # False: PyTorch's own backward fails (checked by gradcheck)


def _spd(n, batch=()):
    rng = np.random.default_rng(1)
    a = rng.standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _sym(a):
    """Cholesky reads one triangle: gradcheck perturbs the matrix symmetrically through this."""
    return (a + a.mT) / 2


def _lower(n):
    return np.tril(np.random.default_rng(2).standard_normal((n, n))) + 3 * np.eye(n)


_rng = np.random.default_rng(0)
_M = _rng.standard_normal((3, 3)) + 2 * np.eye(3)
_X = np.array([0.0, 0.5, 1.5, 2.0, 3.5])


def _index(T, values):
    return T.tensor(values, dtype=T.int64)


ROWS = [
    # integration and differences
    Row("trapezoid", lambda T, y: T.trapezoid(y), (_rng.standard_normal((2, 5)),)),
    Row("trapezoid_dx", lambda T, y: T.trapezoid(y, dx=0.5, dim=0),
        (_rng.standard_normal((3, 2)),)),
    Row("trapezoid_x", lambda T, y: T.trapezoid(y, T.tensor(_X, dtype=y.dtype)),
        (_rng.standard_normal((2, 5)),)),
    Row("trapz", lambda T, y: T.trapz(y, T.tensor(_X, dtype=y.dtype)), (_rng.standard_normal(5),)),
    Row("cumulative_trapezoid", lambda T, y: T.cumulative_trapezoid(y, dx=2.0),
        (_rng.standard_normal((2, 5)),), "CumsumBackward0"),
    Row("cumulative_trapezoid_x", lambda T, y: T.cumulative_trapezoid(
        y, T.tensor(_X, dtype=y.dtype)), (_rng.standard_normal((2, 5)),)),
    Row("gradient", lambda T, y: T.gradient(y), (_rng.standard_normal((4, 5)),), "CatBackward0"),
    Row("gradient_order2", lambda T, y: T.gradient(y, spacing=[2.0, 0.5], edge_order=2),
        (_rng.standard_normal((4, 5)),)),
    Row("gradient_coordinates", lambda T, y: T.gradient(
        y, spacing=(T.tensor(_X, dtype=y.dtype),), dim=1, edge_order=2),
        (_rng.standard_normal((3, 5)),)),
    Row("gradient_coordinates_1", lambda T, y: T.gradient(
        y, spacing=[T.tensor(_X[:4], dtype=y.dtype)], dim=-1), (_rng.standard_normal(4),)),
    # assembling and splitting
    # PyTorch's vander writes into the slices it reads: its backward refuses to run
    Row("vander", lambda T, x: T.vander(x), (_rng.standard_normal(4),), torch_backward=False),
    Row("vander_increasing", lambda T, x: T.vander(x, N=3, increasing=True),
        (_rng.standard_normal(4),), torch_backward=False),
    Row("linalg_vander", lambda T, x: T.linalg.vander(x, N=4), (_rng.standard_normal((2, 3)),)),
    Row("diagflat", lambda T, x: T.diagflat(x, -1), (_rng.standard_normal((2, 2)),),
        "DiagEmbedBackward0"),
    Row("column_stack", lambda T, a, b: T.column_stack([a, b]),
        (_rng.standard_normal(3), _rng.standard_normal((3, 2))), "CatBackward0"),
    Row("row_stack", lambda T, a, b: T.row_stack([a, b]),
        (_rng.standard_normal(3), _rng.standard_normal((2, 3))), "CatBackward0"),
    Row("dstack", lambda T, a, b: T.dstack([a, b]),
        (_rng.standard_normal((2, 3)), _rng.standard_normal((2, 3))), "CatBackward0"),
    Row("hsplit", lambda T, a: T.hsplit(a, 2), (_rng.standard_normal((2, 4)),)),
    Row("vsplit", lambda T, a: a.vsplit([1]), (_rng.standard_normal((3, 2)),)),
    Row("dsplit", lambda T, a: T.dsplit(a, [1, 2]), (_rng.standard_normal((2, 2, 3)),)),
    Row("ravel", lambda T, a: a.t().ravel(), (_rng.standard_normal((2, 3)),)),
    Row("select_scatter", lambda T, a, s: T.select_scatter(a, s, 1, -1),
        (_rng.standard_normal((2, 3)), _rng.standard_normal(2)), "SelectScatterBackward0"),
    Row("slice_scatter", lambda T, a, s: a.slice_scatter(s, 1, 0, None, 2),
        (_rng.standard_normal((2, 5)), _rng.standard_normal((2, 3))), "SliceScatterBackward0"),
    Row("diagonal_scatter", lambda T, a, s: T.diagonal_scatter(a, s, -1, 1, 2),
        (_rng.standard_normal((2, 3, 3)), _rng.standard_normal((2, 2))),
        "DiagonalScatterBackward0"),
    Row("put", lambda T, a, s: a.put(_index(T, [[0, -1], [4, 2]]), s),
        (_rng.standard_normal((2, 3)), _rng.standard_normal((2, 2))), "PutBackward0"),
    Row("put_accumulate", lambda T, a, s: T.put(a, _index(T, [1, 1, 5]), s, accumulate=True),
        (_rng.standard_normal((2, 3)), _rng.standard_normal(3)), "PutBackward0"),
    Row("put_", lambda T, a, s: (a * 1).put_(_index(T, [3, 0]), s),
        (_rng.standard_normal((2, 3)), _rng.standard_normal(2)), "PutBackward0"),
    # linear algebra
    Row("slogdet", lambda T, a: T.slogdet(a).logabsdet, (_M,), "LinalgSlogdetBackward0"),
    Row("linalg_slogdet", lambda T, a: T.linalg.slogdet(a)[1], (_rng.standard_normal((2, 3, 3)),),
        "LinalgSlogdetBackward0"),
    Row("logdet", lambda T, a: T.logdet(a), (_spd(3),), "WhereBackward0"),
    Row("matrix_power", lambda T, a: T.matrix_power(a, 5), (_M / 2,), "MmBackward0"),
    Row("matrix_power_negative", lambda T, a: a.matrix_power(-2), (_M,)),
    Row("linalg_matrix_power_0", lambda T, a: T.linalg.matrix_power(a, 0), (_M,)),
    Row("matrix_exp", lambda T, a: T.matrix_exp(a), (_rng.standard_normal((2, 3, 3)),),
        "LinalgMatrixExpBackward0"),
    Row("matrix_exp_large", lambda T, a: T.linalg.matrix_exp(4 * a), (_M,),
        "LinalgMatrixExpBackward0"),
    Row("pinverse", lambda T, a: T.pinverse(a), (_rng.standard_normal((3, 2)),)),
    Row("linalg_pinv", lambda T, a: T.linalg.pinv(a, atol=0.1), (_rng.standard_normal((2, 4)),)),
    Row("solve_triangular", lambda T, a, b: T.linalg.solve_triangular(a, b, upper=False),
        (_lower(3), _rng.standard_normal((3, 2))), "LinalgSolveTriangularBackward0"),
    Row("solve_triangular_right_unit", lambda T, a, b: T.linalg.solve_triangular(
        a, b, upper=True, left=False, unitriangular=True),
        (_lower(3).T, _rng.standard_normal((2, 3))), "LinalgSolveTriangularBackward0"),
    Row("cholesky_solve", lambda T, b, a: T.cholesky_solve(b, T.linalg.cholesky(_sym(a))),
        (_rng.standard_normal((3, 2)), _spd(3))),
    Row("cholesky_solve_upper",
        lambda T, b, a: b.cholesky_solve(T.linalg.cholesky(_sym(a)).mT, True),
        (_rng.standard_normal((3, 2)), _spd(3))),
    Row("cholesky_inverse", lambda T, a: T.cholesky_inverse(T.linalg.cholesky(_sym(a))),
        (_spd(3),)),
    Row("lu_factor", lambda T, a: T.linalg.lu_factor(a).LU, (_rng.standard_normal((2, 3, 3)),),
        "LinalgLuFactorExBackward0"),
    Row("linalg_lu", lambda T, a: T.linalg.lu(a)[1:], (_M,)),
    Row("lu_unpack", lambda T, a: T.lu_unpack(*T.linalg.lu_factor(a))[1:], (_M,)),
    Row("lu_solve", lambda T, a, b: T.linalg.lu_solve(*T.linalg.lu_factor(a), b),
        (_M, _rng.standard_normal((3, 2)))),
    Row("lu_solve_adjoint_right", lambda T, a, b: T.linalg.lu_solve(
        *T.linalg.lu_factor(a), b, left=False, adjoint=True), (_M, _rng.standard_normal((2, 3)))),
    Row("solve_ex", lambda T, a, b: T.linalg.solve_ex(a, b).result,
        (_M, _rng.standard_normal(3)), "LinalgSolveExBackward0"),
    Row("inv_ex", lambda T, a: T.linalg.inv_ex(a).inverse, (_M,), "LinalgInvExBackward0"),
    Row("cholesky_ex", lambda T, a: T.linalg.cholesky_ex(_sym(a)).L, (_spd(3),),
        "LinalgCholeskyExBackward0"),
    Row("tensorinv", lambda T, a: T.linalg.tensorinv(a, 1),
        (np.eye(6).reshape(6, 2, 3) + 0.1 * _rng.standard_normal((6, 2, 3)),)),
    Row("tensorsolve", lambda T, a, b: T.linalg.tensorsolve(a, b, dims=(0,)),
        (np.eye(6).reshape(2, 3, 6).transpose(2, 0, 1) + 0.1 * _rng.standard_normal((6, 2, 3)),
         _rng.standard_normal((2, 3)))),
    Row("householder_product", lambda T, a, tau: T.linalg.householder_product(a, tau),
        (_rng.standard_normal((2, 4, 3)), _rng.standard_normal((2, 2)))),
    Row("lstsq", lambda T, a, b: T.linalg.lstsq(a, b, driver="gelsd")[:2],
        (_rng.standard_normal((5, 3)), _rng.standard_normal((5, 2)))),
    Row("lstsq_underdetermined", lambda T, a, b: T.linalg.lstsq(a, b).solution,
        (_rng.standard_normal((2, 4)), _rng.standard_normal(2))),
    Row("eigh", lambda T, a: (T.linalg.eigh(_sym(a)).eigenvalues,
                              T.linalg.eigh(_sym(a), UPLO="U").eigenvectors ** 2),
        (_rng.standard_normal((2, 3, 3)),), "LinalgEighBackward0"),
    Row("eigh_vectors_only", lambda T, a: T.linalg.eigh(_sym(a))[1][..., 1:] ** 2,
        (_rng.standard_normal((4, 4)),)),
    Row("vecdot", lambda T, a, b: T.linalg.vecdot(a, b, dim=0),
        (_rng.standard_normal((3, 2)), _rng.standard_normal((3, 1))), "SumBackward1"),
    Row("linalg_diagonal", lambda T, a: T.linalg.diagonal(a, offset=1),
        (_rng.standard_normal((2, 3, 3)),), "DiagonalBackward0"),
]

DIFFERENTIABLE = [r for r in ROWS if r.id not in ("linalg_matrix_power_0",)]


def _tensors(T, r, dtype, requires_grad=True):
    return [T.tensor(a, dtype=dtype, requires_grad=requires_grad) for a in r.arrays]


def _outputs(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


@pytest.mark.parametrize("r", ROWS, ids=lambda r: r.id)
def test_matches_pytorch(r):
    ours, theirs = _tensors(tapegrad, r, tapegrad.float64), _tensors(torch, r, torch.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        our_out, their_out = _outputs(r.fn(tapegrad, *ours)), _outputs(r.fn(torch, *theirs))
    assert len(our_out) == len(their_out)
    for o, t in zip(our_out, their_out):
        assert tuple(o.shape) == tuple(t.shape) and str(o.dtype) == str(t.dtype)
        np.testing.assert_allclose(o.detach().numpy(), t.detach().numpy(), rtol=1e-7, atol=1e-9)
    if r.node:
        assert type(our_out[0].grad_fn).__name__ == r.node == type(their_out[0].grad_fn).__name__
    if not r.torch_backward:
        return
    weights = [np.random.default_rng(3).standard_normal(tuple(t.shape)) for t in their_out]
    sum(((o * tapegrad.tensor(w)).sum() for o, w in zip(our_out, weights))).backward()
    sum(((t * torch.tensor(w)).sum() for t, w in zip(their_out, weights))).backward()
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o.grad.numpy(), t.grad.numpy(), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("r", DIFFERENTIABLE, ids=lambda r: r.id)
def test_gradcheck(r):
    inputs = _tensors(tapegrad, r, tapegrad.float64)

    def fn(*tensors):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return tuple(_outputs(r.fn(tapegrad, *tensors)))
    assert gradcheck(fn, tuple(inputs))


def _same(fn):
    """fn(T) gives equal values (or the same exception) with tapegrad and PyTorch."""
    results = []
    for T in (tapegrad, torch):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                results.append(fn(T))
        except Exception as exc:  # noqa: BLE001  compared below
            results.append((type(exc).__name__, str(exc)))
    ours, theirs = results
    if isinstance(theirs, tuple) and theirs and isinstance(theirs[0], str):
        assert ours == theirs
        return
    for o, t in zip(_outputs(ours), _outputs(theirs)):
        if isinstance(t, torch.Tensor):
            assert str(o.dtype) == str(t.dtype) and tuple(o.shape) == tuple(t.shape)
            np.testing.assert_allclose(np.asarray(o.tolist(), dtype=np.float64),
                                       np.asarray(t.tolist(), dtype=np.float64),
                                       rtol=1e-6, atol=1e-7)
        else:
            assert o == t


VALUE_CASES = {
    "trapezoid_int": lambda T: T.trapezoid(T.tensor([1, 2, 4])),
    "trapezoid_int_x": lambda T: T.trapezoid(T.tensor([1, 2, 4]), T.tensor([1, 2, 5])),
    "trapezoid_empty": lambda T: T.trapezoid(T.zeros(2, 0)),
    "trapezoid_wrong_x": lambda T: T.trapezoid(T.zeros(4), T.zeros(3)),
    "trapezoid_bool_dx": lambda T: T.trapezoid(T.zeros(4), dx=True),
    "trapezoid_x_2d": lambda T: T.trapezoid(T.ones(2, 3), T.tensor([[0., 1, 3], [0, 2, 3]])),
    "cumulative_trapezoid_bool": lambda T: T.cumulative_trapezoid(T.tensor([True, False])),
    "gradient_int": lambda T: T.gradient(T.tensor([1, 2, 4, 8])),
    "gradient_int_spacing": lambda T: T.gradient(T.arange(12).reshape(3, 4) ** 2, spacing=2,
                                                 dim=0),
    "gradient_edge_order": lambda T: T.gradient(T.ones(3), edge_order=3),
    "gradient_too_short": lambda T: T.gradient(T.ones(2), edge_order=2),
    "gradient_spacing_length": lambda T: T.gradient(T.ones(3, 4), spacing=[2.0]),
    "gradient_spacing_dims": lambda T: T.gradient(T.ones(3, 4), spacing=[2.0], dim=[0, 1]),
    "gradient_uint8": lambda T: T.gradient(T.ones(3, dtype=T.uint8)),
    "vander_int": lambda T: T.vander(T.tensor([1, 2, 3])),
    "vander_bool": lambda T: T.vander(T.tensor([True, False])),
    "vander_zero": lambda T: T.vander(T.ones(3), N=0),
    "vander_negative": lambda T: T.vander(T.ones(3), N=-1),
    "vander_2d": lambda T: T.vander(T.ones(2, 2)),
    "linalg_vander_int": lambda T: T.linalg.vander(T.tensor([1, 2])),
    "linalg_vander_n1": lambda T: T.linalg.vander(T.tensor([1., 2]), N=1),
    "column_stack_scalars": lambda T: T.column_stack([T.tensor(1.), T.zeros(1)]),
    "hsplit_scalar": lambda T: T.hsplit(T.tensor(1.), 1),
    "hsplit_indivisible": lambda T: T.hsplit(T.zeros(2, 3), 2),
    "vsplit_1d": lambda T: T.vsplit(T.arange(6), 2),
    "dsplit_2d": lambda T: T.dsplit(T.zeros(2, 2), 2),
    "hsplit_1d": lambda T: T.hsplit(T.arange(6), [1, 4]),
    "unravel_index": lambda T: T.unravel_index(T.tensor([[4, 7], [-1, 9]]), (2, 4)),
    "unravel_index_int_shape": lambda T: T.unravel_index(T.tensor(5), 8),
    "unravel_index_float": lambda T: T.unravel_index(T.tensor(1.), (2, 4)),
    "unravel_index_negative_shape": lambda T: T.unravel_index(T.tensor(1), (2, -4)),
    "not_equal": lambda T: T.not_equal(T.tensor([1., 2, 3]), 2),
    "not_equal_method": lambda T: T.tensor([1., 2]).not_equal(T.tensor(2.)),
    "not_equal_": lambda T: T.tensor([1., 2]).not_equal_(2),
    "ne": lambda T: T.ne(T.tensor([1, 2]), T.tensor([1, 3])),
    "is_nonzero": lambda T: (T.is_nonzero(T.tensor([0.])), T.tensor(3).is_nonzero()),
    "is_nonzero_many": lambda T: T.is_nonzero(T.tensor([1, 2])),
    "is_nonzero_empty": lambda T: T.is_nonzero(T.tensor([])),
    "is_same_size": lambda T: (T.is_same_size(T.ones(3), T.zeros(3)),
                               T.ones(2).is_same_size(T.ones(3))),
    "is_signed": lambda T: tuple(T.is_signed(T.ones(1, dtype=d)) for d in
                                 (T.uint8, T.bool, T.int8, T.float32)),
    "select_scatter_shape": lambda T: T.select_scatter(T.zeros(2, 3), T.ones(2), 0, 1),
    "select_scatter_index": lambda T: T.select_scatter(T.zeros(2, 3), T.ones(3), 0, 5),
    "select_scatter_cast": lambda T: T.select_scatter(T.zeros(2, 3), T.ones(3, dtype=T.float64),
                                                      0, 1),
    "slice_scatter_shape": lambda T: T.slice_scatter(T.zeros(2, 3), T.ones(2, 3), 1, 0, 3, 2),
    "diagonal_scatter_shape": lambda T: T.diagonal_scatter(T.zeros(2, 3), T.ones(3), 1),
    "put_out_of_range": lambda T: T.zeros(2, 3).put_(T.tensor([0, 6]), T.ones(2)),
    "put_numel": lambda T: T.zeros(2, 3).put_(T.tensor([0, 1]), T.ones(1)),
    "put_index_dtype": lambda T: T.zeros(2, 3).put_(T.tensor([0., 1]), T.ones(2)),
    "put_dtype": lambda T: T.zeros(2, 3).put_(T.tensor([0, 1]), T.tensor([9, 1])),
    "resize_as_": lambda T: T.zeros(2, 3).resize_as_(T.zeros(3, 2, 1)).shape,
    "resize_as_grad": lambda T: T.resize_as_(T.zeros(2, requires_grad=True), T.zeros(3)),
    "detach": lambda T: T.detach(T.ones(2, requires_grad=True)).requires_grad,
    "detach_": lambda T: T.detach_(T.ones(2, requires_grad=True) * 2).requires_grad,
    # linear algebra: values and errors
    "logdet_negative": lambda T: T.logdet(-T.eye(3)),
    "logdet_singular": lambda T: T.logdet(T.zeros(2, 2)),
    "slogdet_int": lambda T: T.linalg.slogdet(T.ones(2, 2, dtype=T.int64)),
    "matrix_power_shape": lambda T: T.linalg.matrix_power(T.ones(2, 3), 2),
    "matrix_power_int": lambda T: T.linalg.matrix_power(T.ones(2, 2, dtype=T.int64), 3),
    "matrix_exp_shape": lambda T: T.linalg.matrix_exp(T.ones(2, 3)),
    "matrix_exp_int": lambda T: T.linalg.matrix_exp(T.ones(2, 2, dtype=T.int64)),
    "lu_factor_pivots": lambda T: T.linalg.lu_factor(T.tensor([[1., 2, 0], [3, 1, 1], [2, 5, 4]])),
    "lu_factor_singular": lambda T: T.linalg.lu_factor(T.zeros(3, 3)),
    "lu_factor_ex_singular": lambda T: T.linalg.lu_factor_ex(T.tensor([[1., 2], [2, 4]])),
    "lu_factor_no_pivot": lambda T: T.linalg.lu_factor(T.eye(3), pivot=False),
    "lu_factor_1d": lambda T: T.linalg.lu_factor(T.ones(3)),
    "lu_factor_int": lambda T: T.linalg.lu_factor(T.ones(3, 3, dtype=T.int64)),
    "lu_rectangular": lambda T: T.linalg.lu(T.tensor([[1., 2, 3], [4, 5, 6]])),
    "lu_tall": lambda T: T.linalg.lu(T.tensor([[1., 2], [4, 5], [7, 9]])),
    "lu_legacy": lambda T: T.lu(T.tensor([[1., 2], [3, 4]])),
    "lu_legacy_infos": lambda T: T.lu(T.tensor([[1., 2], [3, 4]]), get_infos=True),
    "lu_solve_legacy": lambda T: T.lu_solve(T.ones(2, 1), *T.linalg.lu_factor(
        T.tensor([[1., 2], [3, 4]]))),
    "lu_solve_1d": lambda T: T.linalg.lu_solve(*T.linalg.lu_factor(T.eye(2)), T.ones(2)),
    "triangular_solve": lambda T: T.triangular_solve(T.ones(2, 1), T.tensor([[2., 1], [1, 3]])),
    "triangular_solve_transpose": lambda T: T.tensor([[1.], [2]]).triangular_solve(
        T.tensor([[2., 1], [1, 3]]), upper=False, transpose=True, unitriangular=True),
    "solve_triangular_shapes": lambda T: T.linalg.solve_triangular(T.eye(2), T.ones(3, 1),
                                                                   upper=True),
    "solve_ex_singular": lambda T: T.linalg.solve_ex(T.eye(2), T.ones(2)).info,
    "inv_ex_singular": lambda T: T.linalg.inv_ex(T.zeros(2, 2)).info,
    "cholesky_ex_failing": lambda T: T.linalg.cholesky_ex(T.tensor([[1., 2], [2, 1]])).info,
    "cholesky_solve_1d": lambda T: T.cholesky_solve(T.ones(2), T.eye(2)),
    "lstsq_default": lambda T: T.linalg.lstsq(T.tensor([[1., 2], [3, 4], [5, 7]], dtype=T.double),
                                              T.tensor([[1.], [2], [2]], dtype=T.double)),
    "lstsq_gels": lambda T: T.linalg.lstsq(T.tensor([[1., 2], [3, 4], [5, 7]], dtype=T.double),
                                           T.tensor([1., 2, 2], dtype=T.double), driver="gels"),
    "lstsq_shapes": lambda T: T.linalg.lstsq(T.ones(3, 2), T.ones(4, 1)),
    "lstsq_driver": lambda T: T.linalg.lstsq(T.ones(3, 2), T.ones(3, 1), driver="qr"),
    "tensorinv_ind": lambda T: T.linalg.tensorinv(T.ones(2, 2), ind=0),
    "tensorinv_shape": lambda T: T.linalg.tensorinv(T.ones(2, 3), ind=1),
    "tensorsolve_shape": lambda T: T.linalg.tensorsolve(T.ones(2, 3, 4), T.ones(3)),
    "householder_tau": lambda T: T.linalg.householder_product(T.ones(3, 2), T.ones(3)),
    "householder_wide": lambda T: T.linalg.householder_product(T.ones(2, 3), T.ones(1)),
    "eigh_uplo": lambda T: T.linalg.eigh(T.eye(2), UPLO="X"),
    "eigh_int": lambda T: T.linalg.eigh(T.ones(2, 2, dtype=T.int64)),
    "eigvalsh_int": lambda T: T.linalg.eigvalsh(T.ones(2, 2, dtype=T.int64)),
    "vecdot_broadcast": lambda T: T.linalg.vecdot(T.ones(2, 3), T.ones(3)),
    "pinv_rank_deficient": lambda T: T.linalg.pinv(T.ones(2, 3)),
    "pinverse_rcond": lambda T: T.pinverse(T.tensor([[1., 0], [0, 1e-3]]), rcond=1e-2),
    # windows
    **{f"{name}_{length}_{periodic}": (lambda T, name=name, length=length, periodic=periodic:
                                       getattr(T, name)(length, periodic))
       for name in ("hann_window", "hamming_window", "blackman_window", "bartlett_window",
                    "kaiser_window")
       for length in (0, 1, 2, 7, 64) for periodic in (True, False)},
    "hann_window_default": lambda T: T.hann_window(10, dtype=T.float64),
    "hamming_window_alpha_beta": lambda T: T.hamming_window(9, False, 0.5, 0.3),
    "kaiser_window_beta": lambda T: T.kaiser_window(12, True, 5.0, dtype=T.float64),
    "window_negative": lambda T: T.hann_window(-1),
    "window_int": lambda T: T.blackman_window(3, dtype=T.int64),
    "window_requires_grad": lambda T: T.bartlett_window(4, requires_grad=True).requires_grad,
    # random draws: shapes, dtypes, errors
    "binomial_shape": lambda T: T.binomial(T.full((2, 3), 4.0), T.tensor([0.0, 1.0, 2.0])),
    "binomial_int": lambda T: T.binomial(T.tensor([5, 10]), T.tensor([0.5, 0.2])),
    "binomial_dtype": lambda T: T.binomial(T.tensor([5., 10]), T.tensor([0.5, 0.2],
                                                                        dtype=T.float64)),
    "poisson_zero": lambda T: T.poisson(T.zeros(2, 2, dtype=T.float64)),
    "poisson_int": lambda T: T.poisson(T.tensor([1, 20])),
    "poisson_negative": lambda T: T.poisson(T.tensor([-1., 20])),
    "poisson_nan": lambda T: T.poisson(T.tensor([float("nan")])),
    # runtime settings
    "typename": lambda T: (T.typename(T.zeros(2)), T.typename(T.zeros(2, dtype=T.int64)),
                           T.typename(3), T.typename([1]), T.typename(len),
                           T.typename(T.zeros(1, dtype=T.bool))),
    "is_inference": lambda T: T.is_inference(T.zeros(1)),
    "is_inference_int": lambda T: T.is_inference(3),
    "layout": lambda T: (repr(T.strided), repr(T.zeros(1).layout), T.zeros(1).layout == T.strided,
                         isinstance(T.strided, T.layout)),
    "flush_denormal": lambda T: T.set_flush_denormal(False),
    "set_num_threads_zero": lambda T: T.set_num_threads(0),
    "set_num_threads_float": lambda T: T.set_num_threads(2.5),
}


@pytest.mark.parametrize("name", sorted(VALUE_CASES))
def test_values_and_errors_match_pytorch(name):
    _same(VALUE_CASES[name])


def test_window_values_are_pytorchs_within_float32_rounding():
    """The same float32 steps as PyTorch; a cosine may differ by one unit in the last place (of
    values near 1), so results agree to float32's epsilon in absolute terms. PyTorch's Kaiser
    window is computed in float32 throughout (tapegrad's in float64, then rounded)."""
    for name, tolerance in (("hann_window", 2), ("hamming_window", 2), ("blackman_window", 2),
                            ("bartlett_window", 0), ("kaiser_window", 8)):
        for length in (255, 256):
            ours = getattr(tapegrad, name)(length).numpy()
            theirs = getattr(torch, name)(length).numpy()
            assert ours.dtype == theirs.dtype
            np.testing.assert_allclose(ours, theirs, rtol=0,
                                       atol=tolerance * np.finfo(np.float32).eps)


def test_matrix_exp_in_float32_is_accurate():
    a = [[0.1, 2.0], [-1.0, 0.3]]
    ours = tapegrad.matrix_exp(tapegrad.tensor(a))
    assert ours.dtype == tapegrad.float32
    np.testing.assert_allclose(ours.numpy(), torch.matrix_exp(torch.tensor(a)).numpy(),
                               rtol=1e-5, atol=1e-6)


def test_lu_unpack_of_batches_reassembles_the_matrix():
    a = tapegrad.tensor(np.random.default_rng(4).standard_normal((2, 4, 4)))
    p, lower, upper = tapegrad.lu_unpack(*tapegrad.linalg.lu_factor(a))
    np.testing.assert_allclose((p @ lower @ upper).numpy(), a.numpy(), atol=1e-12)
    theirs = torch.lu_unpack(*torch.linalg.lu_factor(torch.tensor(a.numpy())))
    for o, t in zip((p, lower, upper), theirs):
        np.testing.assert_allclose(o.numpy(), t.numpy(), atol=1e-12)


def test_deprecated_linalg_names_warn_once_like_pytorch(monkeypatch):
    monkeypatch.setattr(sys.modules["tapegrad.tensor"], "_warned", set())
    a = tapegrad.tensor([[2., 1], [0, 3]])
    with pytest.warns(UserWarning, match="torch.triangular_solve is deprecated"):
        tapegrad.triangular_solve(tapegrad.ones(2, 1), a)
    with pytest.warns(UserWarning, match="torch.lu is deprecated"):
        tapegrad.lu(a)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tapegrad.lu(a)


def test_random_counts_follow_the_seed_and_are_in_range():
    tapegrad.manual_seed(5)
    counts = tapegrad.full((1000,), 10.0)
    draws = tapegrad.binomial(counts, tapegrad.full((1000,), 0.3))
    assert draws.dtype == tapegrad.float32 and 0 <= draws.min() and draws.max() <= 10
    assert abs(draws.mean().item() - 3.0) < 0.3
    tapegrad.manual_seed(5)
    assert tapegrad.equal(draws, tapegrad.binomial(counts, tapegrad.full((1000,), 0.3)))
    rates = tapegrad.full((1000,), 4.0, requires_grad=True)
    sample = tapegrad.poisson(rates)
    assert type(sample.grad_fn).__name__ == "PoissonBackward0"
    assert abs(sample.mean().item() - 4.0) < 0.4
    sample.sum().backward()
    assert rates.grad.abs().sum().item() == 0


def test_fork_rng_restores_the_generator():
    tapegrad.manual_seed(0)
    with tapegrad.random.fork_rng():
        inside = tapegrad.rand(3)
    assert tapegrad.equal(inside, tapegrad.rand(3))
    with tapegrad.random.fork_rng(enabled=False):
        tapegrad.rand(3)
    tapegrad.manual_seed(0)
    tapegrad.rand(3)
    with pytest.raises(ValueError), tapegrad.random.fork_rng():
        tapegrad.rand(2)
        raise ValueError
    after = tapegrad.rand(3)
    tapegrad.manual_seed(0)
    tapegrad.rand(3)
    assert tapegrad.equal(after, tapegrad.rand(3))


def test_runtime_settings_record_what_was_set(monkeypatch):
    from tapegrad import _runtime
    monkeypatch.setattr(_runtime, "_settings", dict(_runtime._settings))
    tapegrad.set_num_threads(3)
    assert tapegrad.get_num_threads() == 3
    tapegrad.set_num_interop_threads(2)
    assert tapegrad.get_num_interop_threads() == 2
    with pytest.raises(RuntimeError, match="cannot set number of interop threads"):
        tapegrad.set_num_interop_threads(2)
    tapegrad.use_deterministic_algorithms(True, warn_only=True)
    assert tapegrad.are_deterministic_algorithms_enabled()
    assert tapegrad.is_deterministic_algorithms_warn_only_enabled()
    with pytest.raises(TypeError, match=r"^_set_deterministic_algorithms\(\): argument 'mode' "
                       r"\(position 1\) must be bool, not int$"):
        tapegrad.use_deterministic_algorithms(1)
    assert tapegrad.get_float32_matmul_precision() == "highest"
    tapegrad.set_float32_matmul_precision("medium")
    with pytest.warns(UserWarning, match="HIGH is not one of 'highest', 'high', or 'medium'"):
        tapegrad.set_float32_matmul_precision("HIGH")
    assert tapegrad.get_float32_matmul_precision() == "medium"
    assert tapegrad.get_default_device() == tapegrad.device("cpu")
    tapegrad.set_default_device("cpu:0")
    assert str(tapegrad.get_default_device()) == "cpu:0"
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        tapegrad.set_default_device("cuda")
    tapegrad.set_default_device(None)
    assert str(tapegrad.get_default_device()) == "cpu"
    assert not tapegrad.is_warn_always_enabled()
    tapegrad.set_warn_always(True)
    assert tapegrad.is_warn_always_enabled()
    with tapegrad.inference_mode():
        assert tapegrad.is_inference(tapegrad.zeros(1))


def test_typename_of_classes_and_modules():
    for obj in (tapegrad.nn.Linear, tapegrad.nn.Linear(1, 1)):
        assert tapegrad.typename(obj) == "torch.nn.modules.linear.Linear"  # as PyTorch names it
    assert tapegrad.typename(tapegrad.nn.Linear(1, 1).weight) == "torch.FloatTensor"


# ----------------------------------------------------- torch.conv2d, torch.layer_norm, … aliases

_x = _rng.standard_normal((2, 4, 6))
_img = _rng.standard_normal((2, 4, 6, 6))

ALIASES = {
    "conv1d": (lambda T, x, w: T.conv1d(x, w, None, 1, 1), (_x, _rng.standard_normal((3, 4, 3)))),
    "conv2d": (lambda T, x, w: T.conv2d(x, w, stride=2),
               (_img, _rng.standard_normal((3, 4, 3, 3)))),
    "conv_transpose1d": (lambda T, x, w: T.conv_transpose1d(x, w, None, 2),
                         (_x, _rng.standard_normal((4, 3, 3)))),
    "conv_transpose2d": (lambda T, x, w: T.conv_transpose2d(x, w, padding=1),
                         (_img, _rng.standard_normal((4, 3, 3, 3)))),
    "conv3d": (lambda T, x, w: T.conv3d(x, w, None, 1, 1),
               (_rng.standard_normal((1, 2, 4, 4, 4)), _rng.standard_normal((3, 2, 3, 3, 3)))),
    "conv_transpose3d": (lambda T, x, w: T.conv_transpose3d(x, w, None, 2),
                         (_rng.standard_normal((1, 2, 3, 3, 3)),
                          _rng.standard_normal((2, 3, 2, 2, 2)))),
    "max_pool3d": (lambda T, x: T.max_pool3d(x, 2), (_rng.standard_normal((1, 2, 4, 4, 4)),)),
    "alpha_dropout_eval": (lambda T, x: T.alpha_dropout(x, 0.5, False), (_x,)),
    "alpha_dropout_": (lambda T, x: T.alpha_dropout_(x * 1, 0.5, False), (_x,)),
    "feature_alpha_dropout_eval": (lambda T, x: T.feature_alpha_dropout(x, 0.5, False), (_x,)),
    "feature_alpha_dropout_": (lambda T, x: T.feature_alpha_dropout_(x * 1, 0.2, False), (_x,)),
    "dropout_eval": (lambda T, x: T.dropout(x, 0.5, False), (_x,)),
    "dropout_p0": (lambda T, x: T.dropout(x, 0.0, True), (_x,)),
    "dropout_": (lambda T, x: T.dropout_(x * 1, 0.3, False), (_x,)),
    "layer_norm": (lambda T, x, w, b: T.layer_norm(x, (6,), w, b, 1e-5, True),
                   (_x, _rng.standard_normal(6), _rng.standard_normal(6))),
    "group_norm": (lambda T, x: T.group_norm(x, 2), (_x,)),
    "instance_norm": (lambda T, x: T.instance_norm(x, None, None, None, None, True, 0.1, 1e-5,
                                                   False), (_x,)),
    "batch_norm": (lambda T, x, w, b: T.batch_norm(x, w, b, None, None, True, 0.1, 1e-5, False),
                   (_x, _rng.standard_normal(4), _rng.standard_normal(4))),
    "embedding": (lambda T, w: T.embedding(w, _index(T, [[0, 2], [3, 0]])),
                  (_rng.standard_normal((4, 3)),)),
    "embedding_padding": (lambda T, w: T.embedding(w, _index(T, [0, 2, 0]), 0),
                          (_rng.standard_normal((4, 3)),)),
    "max_pool1d": (lambda T, x: T.max_pool1d(x, 2), (_x,)),
    "max_pool2d": (lambda T, x: T.max_pool2d(x, 3, 2, 1), (_img,)),
    "avg_pool1d": (lambda T, x: T.avg_pool1d(x, 3, 2, 1), (_x,)),
    "adaptive_avg_pool1d": (lambda T, x: T.adaptive_avg_pool1d(x, 4), (_x,)),
    "adaptive_max_pool1d": (lambda T, x: T.adaptive_max_pool1d(x, 3)[0], (_x,)),
    "pixel_shuffle": (lambda T, x: T.pixel_shuffle(x, 2), (_img,)),
    "pixel_unshuffle": (lambda T, x: T.pixel_unshuffle(x, 2), (_img,)),
    "prelu": (lambda T, x, w: T.prelu(x, w), (_x, _rng.standard_normal(4))),
    "selu": (lambda T, x: T.selu(x), (_x,)),
    "selu_": (lambda T, x: T.selu_(x * 1), (_x,)),
    "celu": (lambda T, x: T.celu(x, 0.5), (_x,)),
    "celu_": (lambda T, x: T.celu_(x * 1), (_x,)),
    "rrelu_eval": (lambda T, x: T.rrelu(x), (_x,)),
    "threshold": (lambda T, x: T.threshold(x, 0.1, -2.0), (_x,)),
    "threshold_": (lambda T, x: T.threshold_(x * 1, 0.1, -2.0), (_x,)),
    "hardshrink": (lambda T, x: T.hardshrink(x, 0.3), (_x,)),
    "bilinear": (lambda T, a, b, w: T.bilinear(a, b, w),
                 (_rng.standard_normal((5, 3)), _rng.standard_normal((5, 2)),
                  _rng.standard_normal((4, 3, 2)))),
    "kl_div": (lambda T, a, b: T.kl_div(a, b, 2, log_target=True), (_x, _rng.standard_normal(6))),
    "bce_with_logits": (lambda T, a, b: T.binary_cross_entropy_with_logits(a, b, None, None, 0),
                        (_x, _rng.uniform(0, 1, (2, 4, 6)))),
    "cosine_embedding_loss": (lambda T, a, b: T.cosine_embedding_loss(
        a, b, T.tensor([1.0, -1.0, 1.0]), 0.1, 1), (_rng.standard_normal((3, 4)),) * 2),
    "margin_ranking_loss": (lambda T, a, b: T.margin_ranking_loss(
        a, b, T.tensor([1.0, -1.0, 1.0]), 0.2, 2), (_rng.standard_normal(3),) * 2),
    "hinge_embedding_loss": (lambda T, a: T.hinge_embedding_loss(
        a, T.tensor([1.0, -1.0, 1.0]), 1.0, 0), (_rng.standard_normal(3),)),
    "triplet_margin_loss": (lambda T, a, p, n: T.triplet_margin_loss(a, p, n, 1.0, 2.0, 1e-6, True,
                                                                     1),
                            (_rng.standard_normal((3, 4)),) * 3),
    "poisson_nll_loss": (lambda T, a, b: T.poisson_nll_loss(a, b, True, True, 1e-8, 1),
                         (_x, _rng.uniform(0, 3, (2, 4, 6)))),
    "rms_norm": (lambda T, x, w: T.rms_norm(x, [6], w), (_x, _rng.standard_normal(6))),
    "channel_shuffle": (lambda T, x: T.channel_shuffle(x, 2), (_img,)),
}


@pytest.mark.parametrize("name", sorted(ALIASES))
def test_functional_aliases_match_pytorch(name):
    fn, arrays = ALIASES[name]
    r = Row(name, fn, arrays)
    test_matches_pytorch(r)


def test_training_dropout_aliases_scale_what_they_keep():
    x = tapegrad.ones(1000)
    kept = tapegrad.dropout(x, 0.25, True)
    assert set(kept.unique().tolist()) <= {0.0, float(np.float32(4 / 3))}
    assert 0.6 < (kept > 0).float().mean().item() < 0.9
    y = tapegrad.ones(1000)
    assert tapegrad.dropout_(y, 0.5, True) is y and set(y.unique().tolist()) <= {0.0, 2.0}


def test_aliases_keep_pytorchs_positional_signatures():
    x = tapegrad.ones(2, 3)
    with pytest.raises(TypeError):
        tapegrad.dropout(x, 0.5)  # ``train`` is required, as in PyTorch
    with pytest.raises(TypeError):
        tapegrad.kl_div(x, x, "mean")  # reduction is an enum value here
