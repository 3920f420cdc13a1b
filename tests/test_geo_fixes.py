"""Linear algebra that 3D-geometry code leans on: ``linalg.cross``'s broadcast error and
``torch.cross``'s default dimension (the first of size 3 in ``input``), ``linalg.lstsq``'s shape
rules (which ``B`` is a vector, how a matrix ``B`` one dimension short of ``A`` broadcasts, its
errors in PyTorch's order), ``linalg.vecdot``'s dtype checks and conjugation of complex ``x``,
LAPACK's compact QR (``torch.geqrf``, ``orgqr``, ``ormqr``), norms over empty dimensions,
``norm_except_dim``, eig / svd / slogdet of matrices with infs or nans, LU factors of
rectangular matrices (their gradients, ``linalg.lu``'s node) and tensordot's messages."""
import warnings

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _matrix(lib, rows, columns):
    """A well-conditioned float64 matrix with fixed entries."""
    values = lib.arange(rows * columns, dtype=lib.float64).reshape(rows, columns)
    return values.sin() + lib.eye(rows, columns, dtype=lib.float64) * 2


# ------------------------------------------------------------------------------------ cross

CROSS_CASES = {
    "no broadcast": lambda lib: lib.linalg.cross(lib.ones(4, 3), lib.ones(5, 3)),
    "no broadcast, batch": lambda lib: lib.linalg.cross(lib.ones(2, 4, 3), lib.ones(3, 5, 3)),
    "length before broadcast": lambda lib: lib.linalg.cross(lib.ones(4, 3), lib.ones(5, 3),
                                                            dim=0),
    "broadcast before dtype": lambda lib: lib.linalg.cross(lib.ones(4, 3),
                                                           lib.ones(5, 3, dtype=lib.float64)),
    "default dim, no broadcast": lambda lib: lib.cross(lib.ones(4, 3), lib.ones(3, 3)),
    "default dim of input": lambda lib: lib.cross(lib.tensor([[1.0, 2.0, 3.0]]),
                                                  lib.eye(3)),
    "default dim, other too short": lambda lib: lib.cross(lib.eye(3),
                                                          lib.tensor([[1.0, 2.0, 3.0]])),
    "broadcast": lambda lib: lib.linalg.cross(lib.ones(1, 4, 3), lib.eye(3).reshape(3, 1, 3)),
}


@needs_torch
@pytest.mark.parametrize("name", CROSS_CASES)
def test_cross_like_torch(name):
    assert_same(CROSS_CASES[name], torch)


def test_cross_default_dim_is_inputs_first_size_three():
    a = tapegrad.tensor([[1.0, 2.0, 3.0]])
    b = tapegrad.eye(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the deprecation of the default dim, once per process
        result = tapegrad.cross(a, b)
    expected = np.cross(np.array([1.0, 2.0, 3.0]), np.eye(3))
    np.testing.assert_allclose(result.numpy(), expected)
    with pytest.raises(RuntimeError, match="must match the size of tensor b"):
        tapegrad.linalg.cross(tapegrad.ones(4, 3), tapegrad.ones(5, 3))


# ------------------------------------------------------------------------------------ lstsq

def _lstsq_case(a_shape, b_shape, driver=None, single_b=False):
    def case(lib):
        A = lib.ones(a_shape, dtype=lib.float64) + lib.eye(a_shape[-2], a_shape[-1],
                                                           dtype=lib.float64)
        B = lib.arange(int(np.prod(b_shape)), dtype=lib.float64).reshape(b_shape).cos()
        result = lib.linalg.lstsq(A, B.float() if single_b else B, driver=driver)
        return result.solution, result.solution.shape
    return case


LSTSQ_CASES = {
    "vector": _lstsq_case((4, 3), (4,)),
    "vector of a batch": _lstsq_case((2, 4, 3), (2, 4)),
    "vector, wrong length": _lstsq_case((4, 3), (5,)),
    "rank gap": _lstsq_case((2, 4, 3), (4,)),
    "rank gap, other larger": _lstsq_case((4, 3), (2, 4, 1)),
    "matrix one dim short, rows": _lstsq_case((2, 4, 3), (2, 5)),
    "matrix one dim short, batch": _lstsq_case((2, 4, 3), (4, 1)),
    "matrix one dim short, broadcast": _lstsq_case((1, 4, 3), (4, 2)),
    "matrix one dim short, batches": _lstsq_case((3, 1, 4, 3), (1, 4, 4)),
    "batch mismatch": _lstsq_case((2, 4, 3), (3, 4, 1)),
    "batch mismatch, inner dim": _lstsq_case((3, 2, 4, 3), (1, 4, 2)),
    "rows before batch": _lstsq_case((2, 4, 3), (3, 5, 1)),
    "driver after rows": _lstsq_case((4, 3), (5,), driver="x"),
    "driver before batch": _lstsq_case((2, 4, 3), (3, 4, 1), driver="x"),
    "dtype before rank": _lstsq_case((4, 3), (2, 2, 4, 1), single_b=True),
    "input is a vector": lambda lib: lib.linalg.lstsq(lib.ones(4), lib.ones(4)),
    "other is a scalar": lambda lib: lib.linalg.lstsq(lib.ones(4, 3), lib.tensor(1.0)),
}


@needs_torch
@pytest.mark.parametrize("name", LSTSQ_CASES)
def test_lstsq_shapes_like_torch(name):
    assert_same(LSTSQ_CASES[name], torch)


def test_lstsq_matrix_one_dimension_short_broadcasts_its_leading_dimensions():
    A = _matrix(tapegrad, 4, 3).reshape(1, 4, 3)
    B = _matrix(tapegrad, 4, 2)
    solution = tapegrad.linalg.lstsq(A, B).solution
    assert solution.shape == (4, 3, 2)
    expected = np.linalg.lstsq(A.numpy()[0], B.numpy(), rcond=None)[0]
    for batch in range(4):
        np.testing.assert_allclose(solution[batch].numpy(), expected, atol=1e-12)


# ----------------------------------------------------------------------------------- vecdot

VECDOT_CASES = {
    "complex conjugates x": lambda lib: lib.view_as_real(lib.linalg.vecdot(
        lib.tensor([1 + 2j, 3 - 1j]), lib.tensor([2 - 1j, 1j]))),
    "integer": lambda lib: lib.linalg.vecdot(lib.ones(3, dtype=lib.long),
                                             lib.ones(3, dtype=lib.long)),
    "bool": lambda lib: lib.linalg.vecdot(lib.ones(3, dtype=lib.bool), lib.ones(3, dtype=lib.bool)),
    "integer x first": lambda lib: lib.linalg.vecdot(lib.ones(3, dtype=lib.long), lib.ones(3)),
    "mixed dtypes": lambda lib: lib.linalg.vecdot(lib.ones(3), lib.ones(3, dtype=lib.float64)),
    "complex and real": lambda lib: lib.linalg.vecdot(lib.tensor([1j]), lib.ones(1)),
    "broadcast": lambda lib: lib.linalg.vecdot(lib.ones(2, 1, 3), lib.arange(12.0).reshape(4, 3)),
}


@needs_torch
@pytest.mark.parametrize("name", VECDOT_CASES)
def test_vecdot_like_torch(name):
    assert_same(VECDOT_CASES[name], torch)


def test_vecdot_is_the_complex_inner_product_and_its_gradient():
    x = tapegrad.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    y = tapegrad.tensor([2 - 1j, 1j])
    out = tapegrad.linalg.vecdot(x, y)
    assert out.item() == np.vdot([1 + 2j, 3 - 1j], [2 - 1j, 1j])
    out.real.backward()
    np.testing.assert_allclose(x.grad.numpy(), np.array([2 - 1j, 1j]))  # conj(d out / d conj x)


# ---------------------------------------------------------------------- geqrf, orgqr, ormqr

def test_geqrf_gives_r_and_reflectors_that_rebuild_a():
    A = _matrix(tapegrad, 5, 3)
    a, tau = tapegrad.geqrf(A)
    Q = tapegrad.orgqr(a, tau)
    np.testing.assert_allclose((Q @ a.triu()[:3]).numpy(), A.numpy(), atol=1e-12)
    np.testing.assert_allclose((Q.mT @ Q).numpy(), np.eye(3), atol=1e-12)
    assert type(tapegrad.geqrf(A)).__name__ == "geqrf" and A.geqrf().tau.shape == (3,)


def test_geqrf_records_a_node_whose_backward_raises():
    a, tau = tapegrad.geqrf(_matrix(tapegrad, 3, 3).requires_grad_(True))
    assert type(a.grad_fn).__name__ == "GeqrfBackward0" and tau.grad_fn is a.grad_fn
    with pytest.raises(NotImplementedError, match="the derivative for 'geqrf' is not implemented"):
        a.sum().backward()


def _householder_q(a, tau):
    """H_1 ... H_k, H_i = I - tau_i v_i v_i^T with v_i column i of ``a`` below a unit diagonal."""
    m = a.shape[0]
    Q = np.eye(m)
    for i, scale in enumerate(tau):
        v = np.concatenate([np.zeros(i), [1.0], a[i + 1:, i]])
        Q = Q @ (np.eye(m) - scale * np.outer(v, v))
    return Q


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
def test_ormqr_multiplies_by_the_full_q(left, transpose):
    A = _matrix(tapegrad, 4, 3)
    a, tau = tapegrad.geqrf(A)
    Q = _householder_q(a.numpy(), tau.numpy())
    np.testing.assert_allclose(Q[:, :3] @ np.triu(a.numpy())[:3], A.numpy(), atol=1e-12)
    C = _matrix(tapegrad, 4, 2) if left else _matrix(tapegrad, 2, 4)
    result = tapegrad.ormqr(a, tau, C, left=left, transpose=transpose).numpy()
    Qt = Q.T if transpose else Q
    np.testing.assert_allclose(result, Qt @ C.numpy() if left else C.numpy() @ Qt, atol=1e-12)


def test_ormqr_gradients_match_finite_differences():
    a, tau = tapegrad.geqrf(_matrix(tapegrad, 4, 3))
    C = _matrix(tapegrad, 4, 2)
    inputs = tuple(t.detach().requires_grad_(True) for t in (a, tau, C))
    assert tapegrad.autograd.gradcheck(
        lambda x, t, c: tapegrad.ormqr(x, t, c, transpose=True), inputs)
    assert type(tapegrad.ormqr(*inputs).grad_fn).__name__ == "OrmqrBackward0"


def _ormqr_case(a_shape, tau_shape, other_shape, left=True, dtypes=(None, None, None)):
    def case(lib):
        a, tau, other = (lib.ones(shape, dtype=lib.float64 if dtype is None else dtype(lib))
                         for shape, dtype in zip((a_shape, tau_shape, other_shape), dtypes))
        return lib.ormqr(a, tau, other, left=left)
    return case


def _float(lib):
    return lib.float32


def _long(lib):
    return lib.long


ORMQR_CASES = {
    "input vector": _ormqr_case((3,), (3,), (3, 2)),
    "other vector": _ormqr_case((4, 3), (3,), (4,)),
    "other rows": _ormqr_case((4, 3), (3,), (2, 4)),
    "other columns": _ormqr_case((4, 3), (2,), (4, 2), left=False),
    "tau length": _ormqr_case((4, 3), (2,), (4, 2)),
    "tau length, right": _ormqr_case((4, 3), (2,), (2, 4), left=False),
    "tau scalar": _ormqr_case((4, 3), (), (4, 2)),
    "tau rank": _ormqr_case((4, 3), (1, 3), (4, 2)),
    "other rank": _ormqr_case((4, 3), (3,), (1, 4, 2)),
    "tau batch": _ormqr_case((2, 4, 3), (3, 3), (2, 4, 2)),
    "other batch": _ormqr_case((2, 4, 3), (2, 3), (1, 4, 2)),
    "tau dtype": _ormqr_case((4, 3), (3,), (4, 2), dtypes=(None, _float, _float)),
    "other dtype": _ormqr_case((4, 3), (3,), (4, 2), dtypes=(None, None, _float)),
    "integers": _ormqr_case((4, 3), (3,), (4, 2), dtypes=(_long, _long, _long)),
    "wide input": _ormqr_case((3, 4), (3,), (3, 2)),
    "batched": _ormqr_case((2, 4, 3), (2, 3), (2, 4, 2)),
    "geqrf of a vector": lambda lib: lib.geqrf(lib.ones(3)),
    "geqrf of integers": lambda lib: lib.geqrf(lib.ones(3, 3, dtype=lib.long)),
    "geqrf wide and batched": lambda lib: tuple(lib.geqrf(
        lib.arange(24.0).reshape(2, 3, 4) ** 1.5)),
    "ormqr values": lambda lib: lib.ormqr(*lib.geqrf(_matrix(lib, 4, 3)), _matrix(lib, 2, 4),
                                          left=False, transpose=True),
    "orgqr": lambda lib: lib.orgqr(*lib.geqrf(_matrix(lib, 4, 3))),
}


@needs_torch
@pytest.mark.parametrize("name", ORMQR_CASES)
def test_geqrf_ormqr_like_torch(name):
    assert_same(ORMQR_CASES[name], torch)


# ------------------------------------------------------------------------- norms of empty sets

def _vector_norm_case(shape, ord, dim=None):
    return lambda lib: lib.linalg.vector_norm(lib.ones(shape), ord=ord, dim=dim)


EMPTY_NORM_CASES = {
    "inf of an empty tensor": _vector_norm_case((0,), float("inf")),
    "-inf over an empty dim": _vector_norm_case((0, 3), -float("inf"), 0),
    "negative order over empty dims": _vector_norm_case((2, 0, 3), -1, (0, 1)),
    "negative dim named as given": _vector_norm_case((3, 0), float("inf"), -1),
    "empty tensor, dim not empty": _vector_norm_case((0, 3), float("inf"), 1),
    "positive order of an empty tensor": _vector_norm_case((0, 3), 0.5),
    "torch.norm": lambda lib: lib.norm(lib.ones(3, 0), p=-1, dim=1),
    "normalize": lambda lib: lib.nn.functional.normalize(lib.ones(0, 3), p=float("inf"), dim=0),
    "matrix inf-norm without rows": lambda lib: lib.linalg.matrix_norm(lib.ones(0, 3),
                                                                       ord=float("inf")),
    "matrix 1-norm without columns": lambda lib: lib.linalg.matrix_norm(lib.ones(3, 0), ord=1),
    "matrix norm, batch": lambda lib: lib.linalg.matrix_norm(lib.ones(2, 0, 3), ord=float("inf")),
    "matrix norm, dims": lambda lib: lib.linalg.matrix_norm(lib.ones(0, 3, 2), ord=float("inf"),
                                                            dim=(2, 0)),
    "matrix -1-norm without columns": lambda lib: lib.linalg.matrix_norm(lib.ones(3, 0), ord=-1),
}


@needs_torch
@pytest.mark.parametrize("name", EMPTY_NORM_CASES)
def test_norms_of_empty_sets_like_torch(name):
    assert_same(EMPTY_NORM_CASES[name], torch)


def test_max_norms_of_empty_matrices_are_zero():
    for ord, shape in ((float("inf"), (0, 3)), (1, (3, 0)), (1, (0, 0))):
        assert tapegrad.linalg.matrix_norm(tapegrad.ones(shape), ord=ord).item() == 0.0
    with pytest.raises(RuntimeError, match="cannot compute the inf norm on an empty tensor"):
        tapegrad.linalg.vector_norm(tapegrad.ones(0), ord=float("inf"))


# -------------------------------------------------------------------------- norm_except_dim

NORM_EXCEPT_DIM_CASES = {
    "dim 1": lambda lib: lib.norm_except_dim(lib.arange(24.0).reshape(2, 3, 4), 2, 1),
    "all dims": lambda lib: lib.norm_except_dim(lib.arange(24.0).reshape(2, 3, 4), 3, -1),
    "last dim": lambda lib: lib.norm_except_dim(lib.arange(24.0).reshape(2, 3, 4), 1, 2),
    "negative dim": lambda lib: lib.norm_except_dim(lib.arange(24.0).reshape(2, 3, 4), 2, -2),
    "out of range": lambda lib: lib.norm_except_dim(lib.arange(24.0).reshape(2, 3, 4), 2, 5),
    "defaults": lambda lib: lib.norm_except_dim(lib.arange(6.0).reshape(2, 3)),
}


@needs_torch
@pytest.mark.parametrize("name", NORM_EXCEPT_DIM_CASES)
def test_norm_except_dim_like_torch(name):
    assert_same(NORM_EXCEPT_DIM_CASES[name], torch)


def test_norm_except_dim_keeps_dim_and_differentiates():
    v = tapegrad.arange(24.0, dtype=tapegrad.float64).reshape(2, 3, 4).requires_grad_(True)
    out = tapegrad.norm_except_dim(v, 2, 1)
    expected = np.sqrt((v.detach().numpy() ** 2).sum(axis=(0, 2), keepdims=True))
    np.testing.assert_allclose(out.detach().numpy(), expected)
    assert out.shape == (1, 3, 1) and type(out.grad_fn).__name__ == "ViewBackward0"
    assert tapegrad.autograd.gradcheck(lambda x: tapegrad.norm_except_dim(x, 3, 2), (v,))


# -------------------------------------------------------------- non-finite matrices' failures

_NAN = float("nan")
_INF = float("inf")


def _with(value):
    return lambda lib: lib.tensor([[1.0, value], [0.5, 2.0]])


NON_FINITE_CASES = {
    "eig refuses nan": lambda lib: lib.linalg.eig(_with(_NAN)(lib)),
    "eig refuses inf": lambda lib: lib.linalg.eig(_with(_INF)(lib).double()),
    "eigvals of inf are nan": lambda lib: lib.view_as_real(lib.linalg.eigvals(
        lib.stack([lib.eye(2), _with(_INF)(lib)]))),
    "eigvals with grad refuses": lambda lib: lib.linalg.eigvals(
        _with(_INF)(lib).requires_grad_(True)),
    "svd": lambda lib: lib.linalg.svd(_with(_NAN)(lib)),
    "svdvals": lambda lib: lib.linalg.svdvals(_with(_NAN)(lib)),
    "matrix_rank": lambda lib: lib.linalg.matrix_rank(_with(_NAN)(lib)),
    "slogdet of nan": lambda lib: tuple(lib.linalg.slogdet(_with(_NAN)(lib))),
    "slogdet of nan after a swap": lambda lib: tuple(lib.linalg.slogdet(
        lib.tensor([[1.0, 2.0], [3.0, _NAN]]))),
}


@needs_torch
@pytest.mark.parametrize("name", NON_FINITE_CASES)
def test_non_finite_matrices_like_torch(name):
    assert_same(NON_FINITE_CASES[name], torch)


def test_svd_failure_is_a_linalg_error():
    with pytest.raises(tapegrad.linalg.LinAlgError, match="contained non-finite values"):
        tapegrad.linalg.svd(tapegrad.tensor([[1.0, _NAN], [0.5, 2.0]]))


def test_slogdet_sign_of_a_nan_pivot_is_a_signed_zero():
    sign, logabsdet = tapegrad.linalg.slogdet(tapegrad.tensor([[1.0, 2.0], [3.0, _NAN]]))
    assert sign.item() == 0.0 and np.signbit(sign.item()) and np.isnan(logabsdet.item())


# ------------------------------------------------------------------------------ LU factors

@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 2), (2, 3, 5), (2, 5, 3)])
def test_lu_gradients_of_any_shape_match_finite_differences(shape):
    A = _matrix(tapegrad, shape[-2], shape[-1]).expand(shape).contiguous()
    A = (A + 0.1 * tapegrad.arange(A.numel(), dtype=tapegrad.float64).reshape(shape).cos())
    A.requires_grad_(True)
    assert tapegrad.autograd.gradcheck(lambda a: tuple(tapegrad.linalg.lu(a))[1:], (A,))
    assert tapegrad.autograd.gradcheck(lambda a: tapegrad.linalg.lu_factor(a).LU, (A,))


def _lu_losses(lib, shape):
    A = _matrix(lib, shape[0], shape[1]).requires_grad_(True)
    W = lib.arange(shape[0] * shape[1], dtype=lib.float64).reshape(shape).cos()
    P, L, U = lib.linalg.lu(A)
    ((L ** 2).sum() + (U * U.sin()).sum() + (lib.linalg.lu_factor(A).LU * W).sum()).backward()
    return A.grad


def _u_alone(lib, shape):
    A = _matrix(lib, *shape).requires_grad_(True)
    lib.linalg.lu(A).U.sum().backward()
    return A.grad


def _l_alone(lib, shape):
    A = _matrix(lib, *shape).requires_grad_(True)
    lib.linalg.lu(A).L.sum().backward()
    return A.grad


LU_CASES = {
    "wide gradient": lambda lib: _lu_losses(lib, (2, 3)),
    "tall gradient": lambda lib: _lu_losses(lib, (5, 3)),
    "U alone, wide": lambda lib: _u_alone(lib, (3, 5)),
    "L alone, tall": lambda lib: _l_alone(lib, (5, 3)),
    "empty": lambda lib: tuple(lib.linalg.lu(lib.ones(0, 0))),
    "empty, wide batch": lambda lib: [t.shape for t in lib.linalg.lu(lib.ones(2, 0, 3))],
    "empty, tall": lambda lib: tuple(lib.linalg.lu(lib.ones(3, 0))),
    "vector": lambda lib: lib.linalg.lu(lib.ones(2)),
    "lu_factor of a vector": lambda lib: lib.linalg.lu_factor(lib.ones(2)),
    "no pivoting": lambda lib: lib.linalg.lu(lib.eye(3), pivot=False),
}


@needs_torch
@pytest.mark.parametrize("name", LU_CASES)
def test_lu_like_torch(name):
    assert_same(LU_CASES[name], torch)


def test_linalg_lu_is_one_node_for_l_and_u():
    A = _matrix(tapegrad, 3, 4).requires_grad_(True)
    P, L, U = tapegrad.linalg.lu(A)
    assert P.grad_fn is None and L.grad_fn is U.grad_fn
    assert type(L.grad_fn).__name__ == "LinalgLuBackward0"
    unpacked = tapegrad.lu_unpack(*tapegrad.linalg.lu_factor(A))
    assert {type(t.grad_fn).__name__ for t in unpacked[1:]} == {"LuUnpackBackward0"}


# ------------------------------------------------------------------------------- tensordot

TENSORDOT_CASES = {
    "count": lambda lib: lib.tensordot(lib.ones(2, 3), lib.ones(2, 3), dims=1),
    "count of two": lambda lib: lib.tensordot(lib.ones(2, 3, 4), lib.ones(3, 5, 4), dims=2),
    "negative dims as given": lambda lib: lib.tensordot(lib.ones(2, 3), lib.ones(2, 3),
                                                        dims=([-1], [-2])),
    "values": lambda lib: lib.tensordot(lib.arange(24.0).reshape(2, 3, 4),
                                        lib.arange(12.0).reshape(3, 4), dims=2),
}


@needs_torch
@pytest.mark.parametrize("name", TENSORDOT_CASES)
def test_tensordot_like_torch(name):
    assert_same(TENSORDOT_CASES[name], torch)


# ----------------------------------------------------------- the addmm family's beta / alpha

def _ints(lib, *shape):
    return lib.ones(*shape, dtype=lib.long)


def _bools(lib, *shape):
    return lib.ones(*shape, dtype=lib.bool)


_INF_ROWS = (2, 3)

ADDMM_CASES = {
    "integers truncate beta": lambda lib: lib.addmm(_ints(lib, 2, 2), _ints(lib, 2, 3),
                                                    _ints(lib, 3, 2), beta=1.5),
    "integers truncate alpha": lambda lib: lib.addmm(_ints(lib, 2, 2), _ints(lib, 2, 3),
                                                     _ints(lib, 3, 2), alpha=-1.5),
    "integer overflow": lambda lib: lib.addmm(_ints(lib, 2, 2), _ints(lib, 2, 3),
                                              _ints(lib, 3, 2), beta=1e20),
    "float overflow": lambda lib: lib.addmm(lib.ones(2, 2), lib.ones(2, 3), lib.ones(3, 2),
                                            alpha=1e300),
    "complex alpha, double": lambda lib: lib.addmm(lib.ones(2, 2).double(),
                                                   lib.ones(2, 3).double(),
                                                   lib.ones(3, 2).double(), alpha=1j),
    "in place": lambda lib: _ints(lib, 2, 2).addmm_(_ints(lib, 2, 3), _ints(lib, 3, 2),
                                                    alpha=1.9),
    "addmv": lambda lib: lib.addmv(_ints(lib, 2), _ints(lib, 2, 3), _ints(lib, 3), beta=0.5,
                                   alpha=2.7),
    "baddbmm": lambda lib: lib.baddbmm(_ints(lib, 1, 2, 2), _ints(lib, 1, 2, 3),
                                       _ints(lib, 1, 3, 2), beta=0.5, alpha=2.7),
    "addbmm": lambda lib: lib.addbmm(_ints(lib, 2, 2), _ints(lib, 1, 2, 3), _ints(lib, 1, 3, 2),
                                     beta=0.5, alpha=2.7),
    "addr float scalar": lambda lib: lib.addr(_ints(lib, 2, 2), _ints(lib, 2), _ints(lib, 2),
                                              alpha=2.5),
    "addr bool scalar": lambda lib: lib.addr(_ints(lib, 2, 2), _ints(lib, 2), _ints(lib, 2),
                                             beta=True),
    "addr of bools": lambda lib: lib.addr(_bools(lib, 2, 2), _bools(lib, 2),
                                          lib.zeros(2, dtype=lib.bool), alpha=2),
    "addmm of bools": lambda lib: lib.addmm(_bools(lib, 2, 2), _bools(lib, 2, 3),
                                            _bools(lib, 3, 2)),
    "addmv of bools": lambda lib: lib.addmv(_bools(lib, 2), _bools(lib, 2, 3), _bools(lib, 3)),
    "baddbmm of bools": lambda lib: lib.baddbmm(_bools(lib, 1, 2, 2), _bools(lib, 1, 2, 3),
                                                _bools(lib, 1, 3, 2)),
    "alpha 0 skips the product": lambda lib: lib.addmm(
        lib.ones(2, 2), lib.full(_INF_ROWS, _INF), lib.ones(3, 2), alpha=0),
    "alpha and beta 0": lambda lib: lib.addmm(
        lib.full((2, 2), _NAN), lib.full(_INF_ROWS, _INF), lib.ones(3, 2), alpha=0, beta=0),
    "alpha 0, addmv": lambda lib: lib.addmv(lib.ones(2), lib.ones(2, 3), lib.full((3,), _NAN),
                                            alpha=0),
    "alpha 0, addbmm": lambda lib: lib.addbmm(lib.zeros(2, 2), lib.full((1, 2, 3), _INF),
                                              lib.ones(1, 3, 2), alpha=0),
    "alpha 0, in place": lambda lib: lib.ones(2, 2).addmm_(lib.full(_INF_ROWS, _INF),
                                                           lib.ones(3, 2), alpha=0),
    "alpha 0, baddbmm multiplies": lambda lib: lib.baddbmm(
        lib.zeros(1, 2, 2), lib.full((1, 2, 3), _INF), lib.ones(1, 3, 2), alpha=0),
    "alpha 0, float16 multiplies": lambda lib: lib.addmm(
        lib.ones(2, 2).half(), lib.full(_INF_ROWS, _INF).half(), lib.ones(3, 2).half(), alpha=0),
}


@needs_torch
@pytest.mark.parametrize("name", ADDMM_CASES)
def test_addmm_family_scalars_like_torch(name):
    assert_same(ADDMM_CASES[name], torch)


def test_integer_addmm_keeps_its_dtype_with_truncated_scalars():
    result = tapegrad.addmm(_ints(tapegrad, 2, 2), _ints(tapegrad, 2, 3), _ints(tapegrad, 3, 2),
                            beta=2.9, alpha=-1.2)
    assert result.dtype == tapegrad.int64 and result.tolist() == [[-1, -1], [-1, -1]]


ORDER_CASES = {
    "string order": lambda lib: lib.linalg.vector_norm(lib.ones(3), ord="fro"),
    "None order": lambda lib: lib.linalg.vector_norm(lib.ones(3), ord=None),
    "tensor order": lambda lib: lib.linalg.vector_norm(lib.ones(3), ord=lib.tensor(3.0)),
    "type before dtype": lambda lib: lib.linalg.vector_norm(lib.ones(3, dtype=lib.long),
                                                            ord="fro"),
}


@needs_torch
@pytest.mark.parametrize("name", ORDER_CASES)
def test_vector_norm_order_argument_like_torch(name):
    assert_same(ORDER_CASES[name], torch)


def _geqrf_of(lib):
    return lib.geqrf(lib.tensor([[4.0, 1.0], [1.0, 3.0]]))


QR_OUT_CASES = {
    "geqrf": lambda lib: tuple(lib.geqrf(lib.tensor([[4.0, 1.0], [1.0, 3.0]]),
                                         out=(lib.empty(0), lib.empty(0)))),
    "geqrf into double": lambda lib: tuple(lib.geqrf(
        lib.tensor([[4.0, 1.0], [1.0, 3.0]]), out=(lib.empty(2, 2, dtype=lib.float64),
                                                   lib.empty(2)))),
    "geqrf into integers": lambda lib: lib.geqrf(
        lib.tensor([[4.0, 1.0], [1.0, 3.0]]), out=(lib.empty(2, 2), lib.empty(2, dtype=lib.long))),
    "geqrf out not a tuple": lambda lib: lib.geqrf(lib.eye(2), out=lib.empty(2)),
    "geqrf with grad": lambda lib: lib.geqrf(lib.eye(2).requires_grad_(),
                                             out=(lib.empty(2, 2), lib.empty(2))),
    "ormqr exact dtype": lambda lib: lib.ormqr(*_geqrf_of(lib), lib.eye(2),
                                               out=lib.empty(2, 2, dtype=lib.float64)),
    "orgqr": lambda lib: lib.orgqr(*_geqrf_of(lib), out=lib.empty(2, 2, dtype=lib.float64)),
    "orgqr into integers": lambda lib: lib.orgqr(*_geqrf_of(lib),
                                                 out=lib.empty(2, 2, dtype=lib.long)),
}


@needs_torch
@pytest.mark.parametrize("name", QR_OUT_CASES)
def test_compact_qr_out_like_torch(name):
    assert_same(QR_OUT_CASES[name], torch)
