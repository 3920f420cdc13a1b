"""Linear algebra, statistics, sorting and integration against PyTorch: eigvalsh twice
differentiable, lu_solve and lstsq as single nodes (LinalgLuSolveBackward0,
LinalgLstsqBackward0 with its residuals), trapezoid's scalar nodes (MulBackward1, DivBackward1),
quantile's SqueezeBackward4, cov's weight checks, histc/histogram range checks and histogramdd."""
import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")


def _outcome(fn, lib):
    try:
        return "ok", fn(lib)
    except (RuntimeError, NotImplementedError, TypeError) as exc:
        return type(exc).__name__, str(exc)


def _assert_same(fn):
    (kind, ours), (their_kind, theirs) = (_outcome(fn, lib) for lib in (tapegrad, torch))
    assert kind == their_kind, (ours, theirs)
    if kind != "ok":
        assert ours == theirs
        return
    ours, theirs = (tuple(v) if isinstance(v, tuple) else (v,) for v in (ours, theirs))
    for a, b in zip(ours, theirs, strict=True):
        if isinstance(a, tuple):
            for x, y in zip(a, b, strict=True):
                np.testing.assert_allclose(x.detach().numpy(), y.detach().numpy(), rtol=1e-6)
        else:
            np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6)
            assert a.shape == tuple(b.shape)
            name = lambda t: None if t.grad_fn is None else type(t.grad_fn).__name__
            assert name(a) == name(b)


def _double(lib, values):
    return lib.tensor(values, dtype=lib.float64, requires_grad=True)


# ------------------------------------------------------------------------------- eigvalsh / eigh

def test_hessian_of_the_largest_eigenvalue_matches_pytorch():
    results = []
    for lib in (tapegrad, torch):
        f = lambda k, lib=lib: lib.linalg.eigvalsh(
            lib.diag(k) + 0.5 * lib.ones(3, 3, dtype=lib.float64))[-1]
        k = lib.tensor([1.0, 2.0, 3.5], dtype=lib.float64)
        results.append(lib.autograd.functional.hessian(f, k).numpy())
    np.testing.assert_allclose(*results, rtol=1e-10, atol=1e-12)


def test_eigvalsh_and_eigh_are_twice_differentiable():
    a = _double(tapegrad, [[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 3.0]])
    assert gradgradcheck(lambda m: tapegrad.linalg.eigvalsh(m + m.mT), (a,))
    assert gradgradcheck(lambda m: tapegrad.linalg.eigh(m + m.mT)[0].pow(2), (a,))
    assert tapegrad.linalg.eigvalsh(a).grad_fn.name() == "LinalgEighBackward0"


# ------------------------------------------------------------------------------------ lu_solve

@pytest.mark.parametrize("left, adjoint", [(True, False), (True, True), (False, False),
                                           (False, True)])
def test_lu_solve_is_one_node_with_pytorchs_gradients(left, adjoint):
    a_values = [[0.5, 1.0, 0.5], [4.0, 3.0, 0.2], [0.3, 0.1, 2.0]]
    b_values = [[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]]
    results = []
    for lib in (tapegrad, torch):
        a, b = _double(lib, a_values), _double(lib, b_values)
        rhs = b if left else b.mT
        x = lib.linalg.lu_solve(*lib.linalg.lu_factor(a), rhs, left=left, adjoint=adjoint)
        assert type(x.grad_fn).__name__ == "LinalgLuSolveBackward0"
        weights = lib.arange(6.0, dtype=lib.float64).reshape(x.shape)
        grads = lib.autograd.grad((x * weights).sum(), (a, b), create_graph=True)
        second = lib.autograd.grad(grads[0].pow(2).sum(), (a, b))
        results.append([t.detach().numpy() for t in (x, *grads, *second)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-9)


def test_lu_solve_gradients_check():
    lu, pivots = tapegrad.linalg.lu_factor(tapegrad.tensor([[0.5, 1.0], [4.0, 3.0]],
                                                           dtype=tapegrad.float64))
    lu.requires_grad_()
    b = _double(tapegrad, [[1.0, 2.0, 0.5], [3.0, -1.0, 0.25]])
    for left, adjoint in ((True, False), (False, True)):
        f = lambda m, r: tapegrad.linalg.lu_solve(m, pivots, r if left else r.mT, left=left,
                                                  adjoint=adjoint)
        assert gradcheck(f, (lu, b))


@pytest.mark.parametrize("fn", [
    lambda T, lu, piv: T.linalg.lu_solve(lu, piv, T.ones(4, 2, dtype=T.float64)),
    lambda T, lu, piv: T.linalg.lu_solve(lu, piv, T.ones(4, dtype=T.float64)),
    lambda T, lu, piv: T.linalg.lu_solve(lu, piv, T.ones(3, 2)),
    lambda T, lu, piv: T.linalg.lu_solve(lu, piv.long(), T.ones(3, 2, dtype=T.float64)),
    lambda T, lu, piv: T.linalg.lu_solve(lu[:2], piv[:2], T.ones(2, 2, dtype=T.float64)),
    lambda T, lu, piv: T.linalg.lu_solve(lu, piv, T.ones(2, 4, dtype=T.float64), left=False),
    lambda T, lu, piv: T.linalg.lu_solve(lu, piv, T.ones(2, 3, 2, dtype=T.float64)),
])
def test_lu_solve_checks_and_broadcasting_match_pytorch(fn):
    a = [[0.5, 1.0, 0.5], [4.0, 3.0, 0.2], [0.3, 0.1, 2.0]]
    _assert_same(lambda T: fn(T, *T.linalg.lu_factor(T.tensor(a, dtype=T.float64))))


# --------------------------------------------------------------------------------------- lstsq

@pytest.mark.parametrize("driver", ["gelsy", "gelsd", "gels"])
@pytest.mark.parametrize("vector", [True, False])
def test_lstsq_residuals_are_an_output_of_the_node(driver, vector):
    a_values = [[1.0, 2.0], [3.0, 4.0], [5.0, 7.0], [0.5, -1.0]]
    b_values = [1.0, 0.5, -2.0, 3.0] if vector else [[1.0, 3.0], [0.5, 2.0], [-2.0, -3.0],
                                                       [3.0, 7.0]]
    results = []
    for lib in (tapegrad, torch):
        a, b = _double(lib, a_values), _double(lib, b_values)
        result = lib.linalg.lstsq(a, b, driver=driver)
        names = [type(t.grad_fn).__name__ for t in result[:2]]
        loss = result.solution.sum() + result.residuals.sum() * 3
        results.append((names, result.residuals.shape,
                        [t.numpy() for t in lib.autograd.grad(loss, (a, b))]))
    assert results[0][:2] == (results[1][0], tuple(results[1][1]))
    for ours, theirs in zip(results[0][2], results[1][2]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-9)


def test_lstsq_gradients_check_including_residuals():
    a = _double(tapegrad, [[1.0, 2.0], [3.0, 4.0], [5.0, 7.0], [0.5, -1.0]])
    b = _double(tapegrad, [[1.0, 3.0], [0.5, 2.0], [-2.0, -3.0], [3.0, 7.0]])
    f = lambda m, r: tuple(tapegrad.linalg.lstsq(m, r, driver="gelsd")[:2])
    assert gradcheck(f, (a, b))
    assert gradgradcheck(f, (a, b))
    square = tapegrad.linalg.lstsq(_double(tapegrad, [[2.0, 1.0], [1.0, 3.0]]),
                                   tapegrad.ones(2, 1, dtype=tapegrad.float64))
    assert repr(square.residuals) == ("tensor([], dtype=torch.float64, "
                                      "grad_fn=<LinalgLstsqBackward0>)")


# --------------------------------------------------------------------------------- integration

@pytest.mark.parametrize("fn", [
    lambda T, y, x: T.trapezoid(y, x),
    lambda T, y, x: T.trapezoid(y, dx=0.5),
    lambda T, y, x: T.trapezoid(y.reshape(2, 2)),
    lambda T, y, x: T.trapezoid(y.reshape(2, 2), dim=0),
    lambda T, y, x: T.trapz(y, x),
    lambda T, y, x: T.trapz(y, dx=2),
    lambda T, y, x: T.cumulative_trapezoid(y, x),
    lambda T, y, x: T.cumulative_trapezoid(y, dx=0.5),
    lambda T, y, x: T.trapezoid(T.arange(6).reshape(2, 3), dx=0.5),
    lambda T, y, x: T.cumulative_trapezoid(T.arange(4), x),
])
def test_integration_records_pytorchs_scalar_nodes(fn):
    _assert_same(lambda T: fn(T, T.tensor([1.0, 2.0, 4.0, 3.0], requires_grad=True),
                              T.tensor([0.0, 1.0, 3.0, 3.5])))


def test_scalar_multiplication_is_differentiable_twice():
    y = tapegrad.tensor([1.0, 2.0, 4.0], dtype=tapegrad.float64, requires_grad=True)
    assert gradgradcheck(lambda t: tapegrad.trapezoid(t * t, dx=0.3), (y,))


# ------------------------------------------------------------------------------------ quantile

@pytest.mark.parametrize("kwargs", [{}, {"keepdim": True}, {"dim": 1}, {"dim": 1, "keepdim": True},
                                    {"dim": 0}, {"interpolation": "nearest"},
                                    {"interpolation": "lower", "dim": -1}])
@pytest.mark.parametrize("scalar_q", [True, False])
@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
def test_quantile_values_gradients_and_node_match_pytorch(kwargs, scalar_q, name):
    data = np.arange(12.0).reshape(3, 4) ** 1.5
    data[1, 2] = np.nan
    results = []
    for lib in (tapegrad, torch):
        x = lib.tensor(data, requires_grad=True)
        q = 0.3 if scalar_q else lib.tensor([0.25, 0.75], dtype=lib.float64)
        out = getattr(lib, name)(x, q, **kwargs)
        out.nan_to_num().sum().backward()
        results.append((type(out.grad_fn).__name__, out.detach().numpy(), x.grad.numpy()))
    assert results[0][0] == results[1][0] == "SqueezeBackward4"
    for ours, theirs in zip(results[0][1:], results[1][1:]):
        assert ours.shape == theirs.shape
        np.testing.assert_allclose(ours, theirs)


@pytest.mark.parametrize("fn", [
    lambda T, x: T.quantile(x, 0.5, interpolation="cubic"),
    lambda T, x: T.nanquantile(x, 0.5, interpolation="cubic"),
    lambda T, x: T.nanquantile(x, 1.5),
    lambda T, x: T.nanquantile(x.long(), 0.5),
    lambda T, x: T.nanquantile(x, T.ones(2, 2) * 0.5),
    lambda T, x: T.quantile(x, T.tensor([0.5], dtype=T.float64)),
    lambda T, x: T.quantile(x, T.tensor([1.5])),
    lambda T, x: T.quantile(T.zeros(0), 0.5),
])
def test_quantile_errors_match_pytorch(fn):
    _assert_same(lambda T: fn(T, T.arange(6.0).reshape(2, 3)))


# ----------------------------------------------------------------------------------------- cov

@pytest.mark.parametrize("fn", [
    lambda T, x: T.cov(T.zeros(2, 2, 2)),
    lambda T, x: T.cov(x > 3),
    lambda T, x: T.cov(x, fweights=T.ones(6)),
    lambda T, x: T.cov(x, fweights=T.ones(6, dtype=T.bool)),
    lambda T, x: T.cov(x, fweights=T.tensor([1, -1, 1, 1, 1, 1])),
    lambda T, x: T.cov(x, aweights=T.tensor([1.0, -1, 1, 1, 1, 1])),
    lambda T, x: T.cov(x, fweights=T.tensor([1, 2])),
    lambda T, x: T.cov(x, aweights=T.tensor([1.0, 2])),
    lambda T, x: T.cov(x, fweights=T.ones(2, 3, dtype=T.long)),
    lambda T, x: T.cov(x, aweights=T.ones(2, 3)),
    lambda T, x: T.cov(x, aweights=T.ones(6, dtype=T.long)),
    lambda T, x: T.cov(x, aweights=T.zeros(6)),
    lambda T, x: T.cov(T.arange(3.0), fweights=T.tensor([1, 2])),
    lambda T, x: T.cov(x, fweights=T.tensor([1, 2, 3, 1, 1, 2], dtype=T.int32),
                       aweights=T.tensor([0.5, 1, 2, 1, 0.25, 1])),
])
def test_cov_checks_and_weights_match_pytorch(fn):
    _assert_same(lambda T: fn(T, T.tensor([[1.0, 2, 4, 0, 3, 3], [2, 0, 1, 5, 1, 2]])))


# ---------------------------------------------------------------------- histc, histogram(dd)

NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize("fn", [
    lambda T: T.histc(T.tensor([NAN, 1.0])),
    lambda T: T.histc(T.tensor([1.0, INF])),
    lambda T: T.histc(T.tensor([1.0, 2.0]), min=0, max=INF),
    lambda T: T.histc(T.tensor([1.0, 2.0]), min=3, max=1),
    lambda T: T.histc(T.tensor([1.0, 2.0]), bins=0),
    lambda T: T.histc(T.tensor([1.0, 2.0, 2.5]), bins=3),
    lambda T: T.histogram(T.tensor([NAN, 1.0])),
    lambda T: T.histogram(T.tensor([1.0, 2.0]), range=(0.1234567, INF)),
    lambda T: T.histogram(T.tensor([1.0, 2.0]), range=(3.0, 1.0)),
    lambda T: T.histogram(T.tensor([1.0, 2.0]), bins=0),
    lambda T: T.histogram(T.tensor([1.0, 2.0]), weight=T.ones(3)),
    lambda T: T.histogram(T.tensor([1.0, 2.0]), weight=T.ones(2, dtype=T.float64)),
    lambda T: T.histogram(T.tensor([1.0, 2.0]), bins=T.tensor([0.0, 1, 3], dtype=T.float64)),
    lambda T: T.histogram(T.tensor([1.0, 2.0]), bins=T.tensor([[0.0, 1, 3]])),
    lambda T: T.histogram(T.tensor([1.0, 2.0]), bins=T.tensor([3.0, 1, 0])),
    lambda T: T.histogram(T.tensor([]), bins=3),
    lambda T: T.histogram(T.tensor([[1.0, 2.0, 2.5]]), bins=3, range=(0.0, 3.0)),
])
def test_histc_and_histogram_match_pytorch(fn):
    _assert_same(fn)


POINTS = [[0.0, 1.0], [1.0, 2.0], [2.0, 0.5], [3.0, 3.0], [1.5, 1.5]]


@pytest.mark.parametrize("fn", [
    lambda T, p: T.histogramdd(p, bins=[2, 3]),
    lambda T, p: T.histogramdd(p, bins=2),
    lambda T, p: T.histogramdd(p, bins=[2, 2], range=[0.0, 4.0, 0.0, 4.0]),
    lambda T, p: T.histogramdd(p, bins=[2, 2], weight=T.arange(5.0)),
    lambda T, p: T.histogramdd(p, bins=[2, 2], density=True),
    lambda T, p: T.histogramdd(p, bins=[T.tensor([0.0, 1.0, 4.0]), T.tensor([0.0, 2.0, 3.0])]),
    lambda T, p: T.histogramdd(p.reshape(5, 1, 2), bins=[2, 2]),
    lambda T, p: T.histogramdd(T.zeros(0, 2), bins=[2, 2]),
    lambda T, p: T.histogramdd(T.tensor([1.0, 2.0]), bins=[2]),
    lambda T, p: T.histogramdd(p, bins=[2]),
    lambda T, p: T.histogramdd(p, bins=[T.tensor([0.0, 1.0])]),
    lambda T, p: T.histogramdd(p, bins=[2, 2], range=[0.0, 1.0]),
    lambda T, p: T.histogramdd(p, bins=[0, 2]),
    lambda T, p: T.histogramdd(p, bins=[2, 2], weight=T.ones(4)),
])
def test_histogramdd_matches_pytorch(fn):
    _assert_same(lambda T: fn(T, T.tensor(POINTS)))


def test_histogramdd_result_prints_as_pytorchs():
    ours, theirs = (repr(lib.histogramdd(lib.tensor(POINTS), bins=[2, 1]))
                    for lib in (tapegrad, torch))
    assert ours == theirs


# ------------------------------------------------------------------------- householder_product

@pytest.mark.parametrize("shape, k", [((4, 3), 2), ((3, 3), 3), ((2, 4, 2), 2)])
def test_householder_product_is_one_node_with_pytorchs_gradients(shape, k):
    rng = np.random.default_rng(0)
    a_values, tau_values = rng.standard_normal(shape), rng.standard_normal(shape[:-2] + (k,))
    results = []
    for lib in (tapegrad, torch):
        a, tau = lib.tensor(a_values, requires_grad=True), lib.tensor(tau_values,
                                                                       requires_grad=True)
        q = lib.linalg.householder_product(a, tau)
        assert type(q.grad_fn).__name__ == "LinalgHouseholderProductBackward0"
        weights = lib.arange(float(q.numel()), dtype=lib.float64).reshape(q.shape)
        grads = lib.autograd.grad((q * weights).sum(), (a, tau), create_graph=True)
        second = lib.autograd.grad(grads[0].pow(2).sum() + grads[1].pow(2).sum(), (a, tau))
        results.append([t.detach().numpy() for t in (q, *grads, *second)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)
    a, tau = (tapegrad.tensor(v, requires_grad=True) for v in (a_values, tau_values))
    assert gradcheck(tapegrad.linalg.householder_product, (a, tau))
