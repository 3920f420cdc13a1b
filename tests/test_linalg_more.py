"""torch.linalg against PyTorch: LinAlgError and its messages, LAPACK's results for failed
factorizations (cholesky_ex, inv_ex), gradients at singular matrices (det, slogdet), solve's
broadcasting and left=False, and the primitives qr, cholesky_solve, pinv and lstsq (with
gradcheck)."""
import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck

torch = pytest.importorskip("torch")

SINGULAR = [[1., 2.], [2., 4.]]
NOT_PD = [[1., 2.], [2., 1.]]


def _both(fn):
    """fn run with each library; the outcome as (value or exception type name, message)."""
    outcomes = []
    for lib in (tapegrad, torch):
        try:
            outcomes.append(("ok", fn(lib)))
        except RuntimeError as exc:
            outcomes.append((type(exc).__name__, str(exc)))
    return outcomes


@pytest.mark.parametrize("fn", [
    lambda T: T.linalg.inv(T.tensor(SINGULAR)),
    lambda T: T.linalg.inv(T.tensor([[[1., 0.], [0., 1.]], SINGULAR])),
    lambda T: T.linalg.cholesky(T.tensor(NOT_PD)),
    lambda T: T.linalg.cholesky(-T.eye(3)),
    lambda T: T.linalg.solve(T.tensor(SINGULAR), T.ones(2)),
    lambda T: T.linalg.inv_ex(T.tensor(SINGULAR), check_errors=True),
    lambda T: T.linalg.cholesky_ex(T.tensor(NOT_PD), check_errors=True),
    lambda T: T.linalg.solve_ex(T.tensor(SINGULAR), T.ones(2), check_errors=True),
    lambda T: T.linalg.solve(T.eye(2), T.ones(3)),
    lambda T: T.linalg.solve(T.eye(2), T.ones(2, 3, 1)),
    lambda T: T.linalg.solve(T.eye(2), T.ones(2, dtype=T.float64)),
    lambda T: T.linalg.solve(T.ones(2, 3), T.ones(2)),
    lambda T: T.linalg.solve(T.eye(2), T.ones(2), left=False),
    lambda T: T.linalg.qr(T.ones(3)),
    lambda T: T.outer(T.ones(2, 2), T.ones(2)),
    lambda T: T.outer(T.ones(2), T.ones(2, 2)),
    lambda T: T.cholesky_solve(T.ones(3, 2), T.eye(2)),
])
def test_errors_match_pytorch(fn):
    ours, theirs = _both(fn)
    assert ours[0] == theirs[0] != "ok"
    assert ours[1] == theirs[1]


def test_linalg_error_is_a_runtime_error_exported_by_linalg():
    assert issubclass(tapegrad.linalg.LinAlgError, RuntimeError)
    with pytest.raises(tapegrad.linalg.LinAlgError):
        tapegrad.linalg.cholesky(tapegrad.tensor(NOT_PD))


@pytest.mark.parametrize("fn", [
    lambda T: T.linalg.cholesky_ex(T.tensor(NOT_PD)),
    lambda T: T.linalg.cholesky_ex(T.tensor(NOT_PD), upper=True),
    lambda T: T.linalg.cholesky_ex(T.tensor([[[4., 2.], [2., 3.]], NOT_PD])),
    lambda T: T.linalg.inv_ex(T.tensor(SINGULAR)),
    lambda T: T.linalg.inv_ex(T.zeros(2, 2)),
    lambda T: T.linalg.solve_ex(T.tensor(SINGULAR), T.ones(2)),
    lambda T: T.linalg.det(T.tensor(SINGULAR)),
    lambda T: T.linalg.slogdet(T.tensor(SINGULAR)),
])
def test_lapack_results_of_failed_factorizations(fn):
    ours, theirs = fn(tapegrad), fn(torch)
    for a, b in zip(ours, theirs) if isinstance(ours, tuple) else [(ours, theirs)]:
        np.testing.assert_array_equal(a.numpy(), b.numpy())
        np.testing.assert_array_equal(np.signbit(a.numpy()), np.signbit(b.numpy()))


def _grads(lib, fn, *arrays, create_graph=False):
    inputs = [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in arrays]
    out = fn(lib, *inputs)
    return [g.detach().numpy() for g in
            lib.autograd.grad(out, inputs, create_graph=create_graph)]


@pytest.mark.parametrize("matrix", [np.zeros((2, 2)), SINGULAR, np.diag([2., 3., 0.]),
                                    np.outer([1., 2., 3.], np.ones(3)), [[2., 1.], [1., 3.]]])
@pytest.mark.parametrize("create_graph", [False, True])
def test_det_gradient_at_singular_matrices(matrix, create_graph):
    def fn(T, a):
        return T.linalg.det(a)
    ours = _grads(tapegrad, fn, matrix, create_graph=create_graph)
    theirs = _grads(torch, fn, matrix, create_graph=create_graph)
    np.testing.assert_allclose(ours[0], theirs[0], atol=1e-12)


def test_det_second_derivative_through_the_adjugate():
    a = tapegrad.tensor(np.diag([2., 3., 0.]), requires_grad=True)
    assert gradcheck(lambda x: tapegrad.linalg.det(x), (tapegrad.tensor(
        np.random.default_rng(0).normal(size=(3, 3)), requires_grad=True),))
    (g,) = tapegrad.autograd.grad(tapegrad.linalg.det(a), a, create_graph=True)
    (g2,) = tapegrad.autograd.grad(g.sum(), a)
    t = torch.tensor(np.diag([2., 3., 0.]), requires_grad=True)
    (tg,) = torch.autograd.grad(torch.linalg.det(t), t, create_graph=True)
    (tg2,) = torch.autograd.grad(tg.sum(), t)
    np.testing.assert_allclose(g2.numpy(), tg2.numpy(), atol=1e-12)


def test_slogdet_sign_is_an_output_of_the_node():
    for lib in (tapegrad, torch):
        a = lib.tensor([[2., 1.], [1., 3.]], requires_grad=True)
        sign = lib.linalg.slogdet(a).sign
        assert sign.requires_grad and sign.grad_fn.name() == "LinalgSlogdetBackward0"
    theirs = _grads(torch, lambda T, a: T.linalg.slogdet(a).logabsdet, SINGULAR)
    ours = _grads(tapegrad, lambda T, a: T.linalg.slogdet(a).logabsdet, SINGULAR)
    np.testing.assert_array_equal(ours[0], theirs[0])


@pytest.mark.parametrize("b_shape", [(2,), (2, 1), (3, 2), (3, 2, 1), (2, 4)])
@pytest.mark.parametrize("left", [True, False])
def test_solve_gradients_are_summed_to_the_inputs_shapes(b_shape, left):
    a = np.array([[[2., 1.], [1., 3.]], [[1., 2.], [3., 4.]], [[4., 1.], [2., 2.]]])
    b = np.arange(1., 1 + np.prod(b_shape)).reshape(b_shape)
    if not left:  # X A = B: B's rows are the unknowns' rows (a 1-D B is refused, as in PyTorch)
        if b.ndim == 1 or b.shape[-2] != 2:
            return
        b = b.swapaxes(-1, -2)

    def fn(T, a, b):
        return (T.linalg.solve(a, b, left=left) ** 2).sum()
    for ours, theirs in zip(_grads(tapegrad, fn, a, b), _grads(torch, fn, a, b)):
        assert ours.shape == theirs.shape
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-14)
    x = tapegrad.tensor(a, requires_grad=True)
    y = tapegrad.tensor(b, requires_grad=True)
    assert gradcheck(lambda x, y: tapegrad.linalg.solve(x, y, left=left), (x, y))


@pytest.mark.parametrize("shape,mode", [((4, 3), "reduced"), ((3, 3), "complete"),
                                        ((2, 4), "reduced"), ((2, 4), "complete"),
                                        ((2, 4, 3), "reduced")])
def test_qr_gradients_match_pytorch(shape, mode):
    a = np.random.default_rng(1).normal(size=shape)

    def fn(T, a):
        q, r = T.linalg.qr(a, mode=mode)
        return (q * T.arange(q.shape[-1], dtype=T.float64)).sum() + (r ** 2).sum()
    np.testing.assert_allclose(_grads(tapegrad, fn, a)[0], _grads(torch, fn, a)[0], rtol=1e-9,
                               atol=1e-12)
    x = tapegrad.tensor(a, requires_grad=True)
    assert gradcheck(lambda x: tuple(tapegrad.linalg.qr(x, mode=mode)), (x,))


@pytest.mark.parametrize("mode", ["r", "complete"])
def test_qr_backward_errors_match_pytorch(mode):
    def fn(T):
        a = T.tensor([[1., 2.], [3., 4.], [5., 7.]], requires_grad=True)
        T.linalg.qr(a, mode=mode).R.sum().backward()
    ours, theirs = _both(fn)
    assert ours == theirs


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_solve_gradient_is_pytorchs_full_one(upper):
    factor = np.array([[2., 0.5], [1., 3.]])
    b = np.array([[1., 2., 0.], [3., 4., 1.]])

    def fn(T, b, f):
        return (T.cholesky_solve(b, f, upper=upper) * T.tensor([1., 2., 3.],
                                                               dtype=T.float64)).sum()
    for ours, theirs in zip(_grads(tapegrad, fn, b, factor), _grads(torch, fn, b, factor)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10)
    x = tapegrad.tensor(b, requires_grad=True)
    f = tapegrad.tensor(factor, requires_grad=True)
    assert tapegrad.cholesky_solve(x, f, upper=upper).grad_fn.name() == "CholeskySolveBackward0"
    # the full gradient is the derivative for A = L L^T built from the whole (triangular) L
    triangle = (lambda t: t.triu()) if upper else (lambda t: t.tril())
    assert gradcheck(lambda x, f: tapegrad.cholesky_solve(x, triangle(f), upper=upper), (x, f))


@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (3, 3)])
def test_pinv_matches_pytorch(shape):
    a = np.random.default_rng(2).normal(size=shape)

    def fn(T, a):
        return (T.linalg.pinv(a) * T.arange(float(np.prod(shape)), dtype=T.float64).reshape(shape[::-1])).sum()
    np.testing.assert_allclose(_grads(tapegrad, fn, a)[0], _grads(torch, fn, a)[0], rtol=1e-9)
    x = tapegrad.tensor(a, requires_grad=True)
    assert tapegrad.linalg.pinv(x).grad_fn.name() == "LinalgPinvBackward0"
    assert gradcheck(tapegrad.linalg.pinv, (x,))
    sym = a @ a.T if shape[0] <= shape[1] else a.T @ a
    np.testing.assert_allclose(tapegrad.linalg.pinv(tapegrad.tensor(sym), hermitian=True).numpy(),
                               torch.linalg.pinv(torch.tensor(sym), hermitian=True).numpy(),
                               atol=1e-8)


@pytest.mark.parametrize("driver", [None, "gels", "gelsd", "gelss", "gelsy"])
def test_lstsq_matches_pytorch(driver):
    a = np.array([[1., 2.], [3., 4.], [5., 7.], [1., 0.]])
    b = np.array([[1., 0.], [2., 1.], [2., 3.], [0., 1.]])
    ours = tapegrad.linalg.lstsq(tapegrad.tensor(a), tapegrad.tensor(b), driver=driver)
    theirs = torch.linalg.lstsq(torch.tensor(a), torch.tensor(b), driver=driver)
    for x, y in zip(ours, theirs):
        assert x.shape == y.shape
        np.testing.assert_allclose(x.numpy(), y.numpy(), rtol=1e-10)

    def fn(T, a, b):
        return (T.linalg.lstsq(a, b).solution ** 2).sum()
    for x, y in zip(_grads(tapegrad, fn, a, b), _grads(torch, fn, a, b)):
        np.testing.assert_allclose(x, y, rtol=1e-9)
    x, y = tapegrad.tensor(a, requires_grad=True), tapegrad.tensor(b, requires_grad=True)
    assert tapegrad.linalg.lstsq(x, y).solution.grad_fn.name() == "LinalgLstsqBackward0"
    assert gradcheck(lambda x, y: tapegrad.linalg.lstsq(x, y).solution, (x, y))


def test_cdist_gradient_at_zero_distance_is_positive_zero():
    def grad(T):
        a = T.tensor([[1., 1.], [3., -1.]])
        c = T.tensor([[1., 1.], [2., 0.]], requires_grad=True)
        T.cdist(a, c, p=1).sum().backward()
        return c.grad.numpy()
    ours, theirs = grad(tapegrad), grad(torch)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(np.signbit(ours), np.signbit(theirs))
