"""Numerical-computing idioms against PyTorch: multi_dot / tensordot / cross argument checks,
the deprecated torch.qr, solve_triangular's dtype rules, lstsq's and pinv's dtype checks,
eigh's UPLO, quantile's ranks in the input's dtype, selections along an empty dimension.

Where PyTorch is installed each case must give its values or its exception type and message;
the independent checks (analytic values, gradcheck in float64) run without it."""
import warnings

import numpy as np
import pytest

import tapegrad as tg
from same_as_torch import assert_same
from tapegrad.autograd import gradcheck


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def _ones(lib, *shape, dtype="float32"):
    return lib.ones(*shape, dtype=getattr(lib, dtype))


CHECK_CASES = {
    # multi_dot: the ends' dimensions, then each tensor's dimensions and dtype, then the shapes
    "multi_dot shapes": lambda t: t.linalg.multi_dot([t.ones(2, 3), t.ones(2, 3)]),
    "multi_dot middle shapes": lambda t: t.linalg.multi_dot(
        [t.ones(2, 3), t.ones(3, 4), t.ones(3, 4)]),
    "multi_dot vector ends": lambda t: t.linalg.multi_dot([t.ones(3), t.ones(2)]),
    "multi_dot dtype": lambda t: t.linalg.multi_dot(
        [t.ones(2, 3), _ones(t, 3, 4, dtype="float64")]),
    "multi_dot dtype before shape": lambda t: t.linalg.multi_dot(
        [t.ones(2, 3), t.ones(3, 4), _ones(t, 5, 2, dtype="int64")]),
    "multi_dot middle ndim first": lambda t: t.linalg.multi_dot(
        [t.ones(2, 3), _ones(t, 3, 4, 1, dtype="float64"), t.ones(2)]),
    "multi_dot last ndim first": lambda t: t.linalg.multi_dot(
        [t.ones(2, 3), _ones(t, 3, 4, dtype="float64"), t.ones(2, 2, 2)]),
    "multi_dot int8 names": lambda t: t.linalg.multi_dot(
        [_ones(t, 2, 3, dtype="int8"), _ones(t, 3, 4, dtype="int16")]),
    "multi_dot vectors": lambda t: t.linalg.multi_dot([t.arange(3.0), t.ones(3, 2), t.ones(2)]),
    # tensordot
    "tensordot dims too many": lambda t: t.tensordot(t.ones(2, 2), t.ones(2, 2, 2, 2), dims=3),
    "tensordot dims all": lambda t: t.tensordot(t.arange(4.0).reshape(2, 2), t.ones(2, 2), 2),
    "tensordot dtype": lambda t: t.tensordot(t.ones(2, 2), _ones(t, 2, 2, dtype="float64"), 1),
    "tensordot repeated dim": lambda t: t.tensordot(t.ones(2, 3), t.ones(2, 2),
                                                    dims=([0, 0], [0, 1])),
    "tensordot size first": lambda t: t.tensordot(t.ones(2, 2), t.ones(2, 3),
                                                  dims=([0, 1], [1, 1])),
    "tensordot dim range": lambda t: t.tensordot(t.ones(2, 2), t.ones(2, 3),
                                                 dims=([0, 2], [0, 0])),
    "tensordot float dims": lambda t: t.tensordot(t.ones(2, 2), t.ones(2, 2), dims=2.0),
    "tensordot lists": lambda t: t.tensordot(t.arange(24.0).reshape(2, 3, 4),
                                             t.arange(12.0).reshape(4, 3), ([1, 2], [1, 0])),
    # cross refuses mixed dtypes and bool (after its shape checks)
    "cross int float": lambda t: t.linalg.cross(t.tensor([1, 0, 0]), t.tensor([0.0, 1.0, 0.0])),
    "cross float double": lambda t: t.cross(t.ones(3), _ones(t, 3, dtype="float64"), dim=0),
    "cross bool": lambda t: t.linalg.cross(t.ones(3, dtype=t.bool), t.ones(3, dtype=t.bool)),
    "cross shape before dtype": lambda t: t.linalg.cross(t.tensor([1, 0]), t.tensor([0.0, 1.0])),
    # solve_triangular: B in A's dtype; LAPACK's dtypes only; square A first
    "solve_triangular int A": lambda t: t.linalg.solve_triangular(
        t.tensor([[2, 1], [0, 2]]), t.ones(2, 2), upper=True),
    "solve_triangular int B": lambda t: t.linalg.solve_triangular(
        t.tensor([[2.0, 1.0], [0.0, 2.0]]), t.tensor([[1, 2], [3, 4]]), upper=True),
    "solve_triangular double B": lambda t: t.linalg.solve_triangular(
        t.tensor([[2.0, 1.0], [0.0, 2.0]]), _ones(t, 2, 1, dtype="float64"), upper=True).dtype.__repr__(),
    "solve_triangular half": lambda t: t.linalg.solve_triangular(
        _ones(t, 2, 2, dtype="float16"), _ones(t, 2, 2, dtype="float16"), upper=True),
    "solve_triangular not square": lambda t: t.linalg.solve_triangular(
        t.ones(2, 3), t.ones(2, 2), upper=True),
    "solve_triangular no upper": lambda t: t.linalg.solve_triangular(t.eye(2), t.eye(2)),
    "solve_triangular no B": lambda t: t.linalg.solve_triangular(t.eye(2)),
    "triangular_solve int": lambda t: t.triangular_solve(t.eye(2).long(), t.eye(2).long()),
    "cholesky_solve int": lambda t: t.cholesky_solve(t.eye(2).long(), t.eye(2).long()),
    "cholesky_solve half": lambda t: t.cholesky_solve(t.eye(2).half(), t.eye(2).half()),
    "cholesky_solve sizes first": lambda t: t.cholesky_solve(t.ones(3, 1).long(),
                                                             t.eye(2).long()),
    # lstsq: same dtypes, then driver, sizes, and float or double only
    "lstsq dtype": lambda t: t.linalg.lstsq(t.ones(3, 2), _ones(t, 3, 1, dtype="float64")),
    "lstsq dtype before driver": lambda t: t.linalg.lstsq(
        t.ones(3, 2), _ones(t, 3, 1, dtype="int64"), driver="foo"),
    "lstsq int": lambda t: t.linalg.lstsq(t.eye(2).long(), t.eye(2).long()),
    "lstsq half": lambda t: t.linalg.lstsq(t.eye(2).half(), t.eye(2).half()),
    "lstsq int driver": lambda t: t.linalg.lstsq(t.eye(2).long(), t.eye(2).long(), driver="x"),
    # pinv's own message, for the dimensions and the dtype
    "pinv int": lambda t: t.linalg.pinv(t.ones(2, 3, 4, dtype=t.int32)),
    "pinv vector": lambda t: t.linalg.pinv(t.ones(3)),
    "pinverse half": lambda t: t.pinverse(_ones(t, 2, 3, dtype="float16")),
    # linalg.pinv's older overload: rcond (keyword or positional) is rtol, atol 0
    "pinv rcond keyword": lambda t: t.linalg.pinv(t.tensor([[1.0, 2.0], [3.0, 4.0]]), rcond=0.1),
    "pinv rcond positional": lambda t: t.linalg.pinv(t.tensor([[1.0, 2.0], [3.0, 4.0]]), 0.1),
    "pinv rcond hermitian": lambda t: t.linalg.pinv(t.tensor([[2.0, 1.0], [1.0, 2.0]]), 1e-3,
                                                     True),
    "pinv rcond tensor": lambda t: t.linalg.pinv(t.tensor([[1.0, 2.0], [3.0, 4.0]]),
                                                 rcond=t.tensor([0.1])),
    "pinv rcond and atol": lambda t: t.linalg.pinv(t.eye(2), rcond=0.1, atol=0.2),
    # norms: a floating input first, then a floating dtype that does not narrow it
    "vector_norm int with dtype": lambda t: t.linalg.vector_norm(t.tensor([1, 2]),
                                                                 dtype=t.float64),
    "torch.norm int with dtype": lambda t: t.norm(t.tensor([1, 2]), dtype=t.float64),
    "vector_norm int dtype": lambda t: t.linalg.vector_norm(t.ones(2), dtype=t.int64),
    "vector_norm narrowing": lambda t: t.linalg.vector_norm(_ones(t, 2, dtype="float64"),
                                                            dtype=t.float32),
    "torch.norm narrowing": lambda t: t.norm(t.ones(2, 2), dtype=t.float16),
    "matrix_norm int dtype": lambda t: t.linalg.matrix_norm(t.ones(2, 2), dtype=t.int64),
    "vector_norm widening": lambda t: t.linalg.vector_norm(t.ones(2, 2).half(), dtype=t.float32),
    "norm dim dtype": lambda t: t.norm(t.ones(2, 2), p=1, dim=0, dtype=t.float64),
    # cdist: floating operands (each named), then one dtype, no half
    "cdist int X2": lambda t: t.cdist(t.ones(1, 2), t.ones(1, 2, dtype=t.int64)),
    "cdist mixed floats": lambda t: t.cdist(t.ones(1, 2), _ones(t, 1, 2, dtype="float64")),
    "cdist half": lambda t: t.cdist(t.ones(1, 2).half(), t.ones(1, 2)),
    "cdist float half": lambda t: t.cdist(t.ones(1, 2), t.ones(1, 2).half()),
    "cdist p before dtype": lambda t: t.cdist(t.ones(1, 2), _ones(t, 1, 2, dtype="float64"),
                                              p=-1),
    # eigh / eigvalsh: square, then UPLO (either case), then dtype
    "eigvalsh bad UPLO": lambda t: t.linalg.eigvalsh(t.eye(2), UPLO="X"),
    "eigvalsh UPLO before dtype": lambda t: t.linalg.eigvalsh(t.eye(2).long(), UPLO="x"),
    "eigh lower-case UPLO": lambda t: t.linalg.eigh(
        t.tensor([[1.0, 0.5], [9.0, 2.0]], dtype=t.float64), UPLO="u"),
    "eigvalsh lower-case UPLO": lambda t: t.linalg.eigvalsh(
        t.tensor([[1.0, 0.5], [9.0, 2.0]], dtype=t.float64), UPLO="l"),
    # selections along a dimension of size 0
    "median empty dim": lambda t: t.ones(2, 0).median(dim=1),
    "nanmedian empty dim": lambda t: t.ones(2, 0).nanmedian(dim=-1),
    "mode empty dim": lambda t: t.ones(2, 0).mode(dim=1),
    "mode empty vector": lambda t: t.ones(0, dtype=t.long).mode(),
    "kthvalue empty dim": lambda t: t.ones(2, 0).kthvalue(1, dim=1),
    "median empty other dim": lambda t: t.ones(2, 0).median(dim=0),
}


@pytest.mark.parametrize("name", sorted(CHECK_CASES))
def test_same_as_torch(name, torch):
    assert_same(CHECK_CASES[name], torch)


# quantile's ranks q * (n - 1) are computed in the input's dtype: 0.1 * 5 is 0.5 in float32
QUANTILE_INPUT = [1.0, 7.0, 3.0, 4.0, 10.0, 2.0]
QUANTILES = [0.0, 0.1, 0.25, 0.3, 0.5, 0.7, 0.9, 1.0]


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_quantile_ranks_as_torch(interpolation, dtype, torch):
    def case(t):
        x = t.arange(11.0, dtype=getattr(t, dtype)) ** 2 * 0.75
        q = t.linspace(0, 1, 41, dtype=getattr(t, dtype))
        nan = t.cat([x, t.tensor([float("nan")], dtype=x.dtype)])
        return (t.quantile(x, q, interpolation=interpolation),
                t.nanquantile(nan, q, interpolation=interpolation),
                t.quantile(x, 0.1, interpolation=interpolation))
    assert_same(case, torch)


@pytest.mark.parametrize("keywords", [{}, {"dim": 1}, {"dim": 1, "keepdim": True},
                                      {"dim": None, "keepdim": True}])
def test_quantile_zero_dim_q_is_a_single_quantile(keywords, torch):
    """A 0-dim tensor q gives no dimension for the quantiles, as a Python float does."""
    def case(t):
        x = t.tensor([[1.0, 2.0, 3.0], [4.0, 6.0, 5.0]])
        return tuple(f(x, q, **keywords).shape.__repr__() for f in (t.quantile, t.nanquantile)
                     for q in (t.tensor(0.25), 0.25, t.tensor([0.25])))
    assert_same(case, torch)
    got = tg.quantile(tg.tensor([[1.0, 2.0, 3.0]]), tg.tensor(0.5), **keywords)
    assert got.numel() == 1 and got.ndim == (2 if keywords.get("keepdim") else
                                             1 if "dim" in keywords else 0)


def test_quantile_nearest_float32_tie_rounds_to_even():
    """0.1 in float32 times 5 rounds to exactly 0.5, which rounds to the even rank 0."""
    x = tg.tensor(QUANTILE_INPUT)
    got = tg.quantile(x, tg.tensor(QUANTILES), interpolation="nearest")
    assert got.tolist() == [1.0, 1.0, 2.0, 3.0, 3.0, 7.0, 7.0, 10.0]  # ranks 0.5, 1.5, 2.5, 3.5, 4.5 to even
    assert tg.quantile(tg.arange(4.0), 1 / 6, interpolation="nearest").item() == 0.0


def test_legacy_qr_matches_linalg_qr_and_warns_once(torch):
    a = tg.tensor([[2.0, -1.0], [1.0, 3.0], [0.0, 1.0]], dtype=tg.float64)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reduced = tg.qr(a)
        complete = a.qr(some=False)
        tg.qr(a, False)
    deprecations = [w for w in caught if "torch.qr is deprecated" in str(w.message)]
    assert len(deprecations) <= 1  # once per process, as PyTorch's TORCH_WARN_ONCE
    assert type(reduced).__name__ == "qr" and reduced.Q.shape == (3, 2)
    assert complete.Q.shape == (3, 3) and complete.R.shape == (3, 2)
    np.testing.assert_allclose((reduced.Q @ reduced.R).numpy(), a.numpy(), atol=1e-12)
    np.testing.assert_allclose(reduced.R.numpy(), tg.linalg.qr(a).R.numpy())
    assert reduced.Q.requires_grad is False
    assert_same(lambda t: tuple(t.qr(t.tensor([[3.0, 1.0], [4.0, 2.0], [0.0, 5.0]]))), torch)


def test_multi_dot_value_and_vectors():
    a, b, c = tg.arange(6.0).reshape(2, 3), tg.arange(12.0).reshape(3, 4), tg.ones(4)
    np.testing.assert_allclose(tg.linalg.multi_dot([a, b, c]).numpy(),
                               a.numpy() @ b.numpy() @ c.numpy())
    assert tg.linalg.multi_dot([tg.ones(3), tg.ones(3, 2), tg.ones(2)]).shape == ()


def test_tensordot_contracts_listed_dims_and_count():
    a, b = tg.arange(24.0).reshape(2, 3, 4), tg.arange(12.0).reshape(4, 3)
    np.testing.assert_allclose(tg.tensordot(a, b, dims=([1, 2], [1, 0])).numpy(),
                               np.einsum("ijk,kj->i", a.numpy(), b.numpy()))
    m = tg.arange(4.0).reshape(2, 2)
    assert tg.tensordot(m, m, dims=2).item() == 14.0
    with pytest.raises(RuntimeError, match="dims < ndim_a or ndim_b"):
        tg.tensordot(m, m, dims=3)


def test_cross_refuses_mixed_dtypes():
    with pytest.raises(RuntimeError, match="expected scalar type Long but found Float"):
        tg.linalg.cross(tg.tensor([1, 0, 0]), tg.tensor([0.0, 1.0, 0.0]))
    np.testing.assert_array_equal(
        tg.linalg.cross(tg.tensor([1, 0, 0]), tg.tensor([0, 1, 0])).numpy(), [0, 0, 1])


def test_solve_triangular_b_in_a_dtype_gradcheck():
    """B of another dtype is converted to A's; the gradient still reaches it."""
    a = tg.tensor([[2.0, 0.5], [0.0, 3.0]], dtype=tg.float64, requires_grad=True)
    b = tg.tensor([[1.0], [2.0]], requires_grad=True)
    x = tg.linalg.solve_triangular(a, b, upper=True)
    assert x.dtype == tg.float64
    x.sum().backward()
    assert b.grad.dtype == tg.float32
    np.testing.assert_allclose(b.grad.numpy().ravel(), [0.5, 0.25])  # A^-T 1
    assert gradcheck(lambda m, r: tg.linalg.solve_triangular(m, r, upper=True),
                     (a.detach().clone().requires_grad_(), b.detach().double().requires_grad_()))


def test_pinv_rcond_is_relative_tolerance():
    """rank-one cut: sigma_2 / sigma_1 of [[1, 2], [3, 4]] is about 0.067 < 0.1."""
    a = tg.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=tg.float64)
    u, s, vh = tg.linalg.svd(a)
    rank_one = (vh[0:1].T / s[0]) @ u[:, 0:1].T
    np.testing.assert_allclose(tg.linalg.pinv(a, rcond=0.1).numpy(), rank_one.numpy())
    np.testing.assert_allclose(tg.linalg.pinv(a, 0.01).numpy(), tg.linalg.inv(a).numpy())


def test_lstsq_and_eigh_checks_without_torch():
    with pytest.raises(RuntimeError, match="Expected input and other to have the same dtype"):
        tg.linalg.lstsq(tg.ones(3, 2), tg.ones(3, 1, dtype=tg.float64))
    with pytest.raises(RuntimeError, match="doesn't handle types other than float and double"):
        tg.linalg.lstsq(tg.eye(2).long(), tg.eye(2).long())
    sym = tg.tensor([[1.0, 5.0], [0.0, 1.0]], dtype=tg.float64)
    np.testing.assert_allclose(tg.linalg.eigvalsh(sym, UPLO="u").numpy(), [-4.0, 6.0])
    np.testing.assert_allclose(tg.linalg.eigvalsh(sym, UPLO="l").numpy(), [1.0, 1.0])


def _graph(fn):
    """A grad_fn tree as text: node names with their inputs, to compare the recorded order."""
    if fn is None:
        return "None"
    inputs = ",".join(_graph(next_fn) for next_fn, _ in fn.next_functions)
    return fn.name().replace("torch::autograd::", "") + (f"({inputs})" if inputs else "")


CHAINS = [[(2, 3), (3, 2)], [(10, 100), (100, 5), (5, 50)], [(50, 5), (5, 100), (100, 10)],
          [(4, 4), (4, 4), (4, 4)], [(30, 35), (35, 15), (15, 5), (5, 10), (10, 20), (20, 25)],
          [(3, 3)] * 5, [(2, 9), (9, 2), (2, 9), (9, 2)], [(3,), (3, 4), (4, 2), (2,)]]


@pytest.mark.parametrize("shapes", CHAINS, ids=str)
def test_multi_dot_order_and_final_view_as_torch(shapes, torch):
    def case(t):
        mats = [(t.arange(float(np.prod(s))).reshape(s) / 7).requires_grad_() for s in shapes]
        result = t.linalg.multi_dot(mats)
        return result.detach(), _graph(result.grad_fn)  # an array first: compared by value
    assert_same(case, torch)


def test_multi_dot_cheapest_order_without_torch():
    """(10x100)(100x5)(5x50): (AB)C costs 7500 multiplications, A(BC) 75000."""
    a, b, c = (tg.ones(*s, requires_grad=True) for s in [(10, 100), (100, 5), (5, 50)])
    assert _graph(tg.linalg.multi_dot([a, b, c]).grad_fn) == (
        "ViewBackward0(MmBackward0(MmBackward0(AccumulateGrad,AccumulateGrad),AccumulateGrad))")


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, -1, -2, -3, -5])
def test_matrix_power_nodes_as_torch(n, torch):
    def case(t):
        a = t.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
        result = t.linalg.matrix_power(a, n)
        result.sum().backward()
        return result.detach(), a.grad, _graph(result.grad_fn)
    assert_same(case, torch)


def test_matrix_power_zero_of_empty_batch_and_gradcheck():
    assert tg.linalg.matrix_power(tg.ones(0, 3, 3), 0).shape == (0, 3, 3)
    a = tg.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=tg.float64, requires_grad=True)
    assert gradcheck(lambda m: tg.linalg.matrix_power(m, -3), (a,))
    assert gradcheck(lambda m: tg.linalg.matrix_power(m, 3), (a,))


def test_in_place_write_into_empty_tensor():
    """An empty tensor (numpy may give it zero strides) has no overlapping elements."""
    x = tg.ones(0, 3)
    assert x.add_(1).shape == (0, 3)
    assert tg.ones(0, 3, 3).clone().copy_(tg.eye(3)).shape == (0, 3, 3)


@pytest.mark.parametrize("p", [0.5, 1.5, 3.0, -1.0])
def test_vector_norm_gradient_zero_at_zero_entries(p, torch):
    """sign(a) |a|^(p-1) is 0 at a zero entry, not 0 * inf (PyTorch masks it for p < 1)."""
    def case(t):
        a = t.tensor([[1.0, -2.0, 0.0], [0.0, 3.0, 0.5]], dtype=t.float64, requires_grad=True)
        t.linalg.vector_norm(a, ord=p, dim=1).sum().backward()
        return a.grad
    assert_same(case, torch)
    a = tg.tensor([[1.0, -2.0, 0.0]], dtype=tg.float64, requires_grad=True)
    tg.linalg.vector_norm(a, ord=p).backward()
    assert np.isfinite(a.grad.numpy()).all() and a.grad[0, 2].item() == 0.0
    shifted = tg.tensor([[1.0, -2.0, 0.3]], dtype=tg.float64, requires_grad=True)
    assert gradcheck(lambda x: tg.linalg.vector_norm(x, ord=p), (shifted,))


def test_float16_addmm_rounds_once_as_pytorchs_kernel():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x, w, b = (rng.standard_normal(shape).astype(np.float16) for shape in ((7, 33), (9, 33), (9,)))

    def linear(lib):
        return lib.nn.functional.linear(*(lib.from_numpy(v) for v in (x, w, b))).numpy()
    np.testing.assert_array_equal(linear(tg), linear(torch))
