"""Differences found by the probabilistic deep learning programs (flw_*): triangular solves by
substitution, as LAPACK's trsm does (the inverse of a triangular matrix, and so the scale_tril of
a MultivariateNormal given its precision, is exactly triangular; a zero pivot gives infs, not an
error), ``transform_to(positive_semidefinite)``, ``torch.logdet``'s own name in its errors, and
the gradient of ``xlogy(a, b)`` in ``a`` where a = 0 (log b unless b is outside the domain), which
the log-densities of Gamma / Dirichlet / Beta take in their concentration when it is exactly 1;
also ``torch.linalg.ldl_factor(_ex)`` / ``ldl_solve`` (Bunch-Kaufman, LAPACK's sytrf / sytrs),
which were missing, and the graphs users print of Laplace.rsample, TanhTransform's inverse and the
continuous-Bernoulli KL."""
import math

import numpy as np
import pytest

import tapegrad
import tapegrad.distributions as TD
from same_as_torch import assert_same
from tapegrad.autograd import gradcheck

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _lower(lib, n, dtype):
    """A well-conditioned lower-triangular matrix with garbage above the diagonal (never read)."""
    a = lib.sin(lib.arange(float(n * n), dtype=dtype).reshape(n, n) * 0.9)
    return a + 3 * lib.eye(n, dtype=dtype)


# -- triangular solves ---------------------------------------------------------------------------

@pytest.mark.parametrize("upper", [False, True])
def test_inverse_of_triangular_matrix_is_exactly_triangular(upper):
    a = _lower(tapegrad, 5, tapegrad.float64)
    a = a.mT if upper else a
    inverse = tapegrad.linalg.solve_triangular(a, tapegrad.eye(5, dtype=tapegrad.float64),
                                               upper=upper).numpy()
    outside = np.tril(inverse, -1) if upper else np.triu(inverse, 1)
    assert (outside == 0).all()
    triangle = np.triu(a.numpy()) if upper else np.tril(a.numpy())
    np.testing.assert_allclose(inverse @ triangle, np.eye(5), atol=1e-12)


def test_precision_matrix_gives_an_exactly_lower_scale_tril():
    precision = tapegrad.tensor([[26.0, 1.0, 3.0], [1.0, 12.0, -2.0], [3.0, -2.0, 9.0]],
                                dtype=tapegrad.float64)
    mvn = TD.MultivariateNormal(tapegrad.zeros(3, dtype=tapegrad.float64),
                                precision_matrix=precision)
    scale_tril = mvn.scale_tril.numpy()
    assert (np.triu(scale_tril, 1) == 0).all()
    np.testing.assert_allclose(scale_tril @ scale_tril.T, np.linalg.inv(precision.numpy()),
                               atol=1e-12)


def test_zero_pivot_gives_infinities_not_an_error():
    """Substitution divides by the zero pivot, also a zero entry of B (0 / 0 is nan), as MKL."""
    singular = tapegrad.tensor([[1.0, 0.0], [2.0, 0.0]])
    x = tapegrad.linalg.solve_triangular(singular, tapegrad.eye(2), upper=False).numpy()
    np.testing.assert_array_equal(x, [[1.0, 0.0], [-np.inf, np.inf]])
    zero_first = tapegrad.tensor([[0.0, 0.0], [1.0, 1.0]])
    y = tapegrad.linalg.solve_triangular(zero_first, tapegrad.eye(2), upper=False).numpy()
    np.testing.assert_array_equal(y, [[np.inf, np.nan], [-np.inf, np.nan]])


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("unitriangular", [False, True])
def test_solve_triangular_gradients(left, upper, unitriangular):
    a = _lower(tapegrad, 3, tapegrad.float64)
    a = (a.mT if upper else a).requires_grad_()
    b = tapegrad.cos(tapegrad.arange(6.0, dtype=tapegrad.float64)).reshape((3, 2) if left
                                                                          else (2, 3))
    b.requires_grad_()
    assert gradcheck(lambda a, b: tapegrad.linalg.solve_triangular(
        a, b, upper=upper, left=left, unitriangular=unitriangular), (a, b))


def test_solve_triangular_broadcasts_batches():
    a = _lower(tapegrad, 3, tapegrad.float64).expand(4, 3, 3)
    b = tapegrad.ones(2, 1, 3, 2, dtype=tapegrad.float64)
    x = tapegrad.linalg.solve_triangular(a, b, upper=False)
    assert x.shape == (2, 4, 3, 2)
    np.testing.assert_allclose(np.tril(a.numpy()) @ x.numpy(), np.ones((2, 4, 3, 2)),
                               atol=1e-12)


@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("left", [True, False])
def test_lu_solve_by_substitution(adjoint, left):
    a = _lower(tapegrad, 4, tapegrad.float64) + 0.5 * tapegrad.ones(4, 4, dtype=tapegrad.float64)
    b = tapegrad.sin(tapegrad.arange(8.0, dtype=tapegrad.float64)).reshape((4, 2) if left
                                                                          else (2, 4))
    x = tapegrad.linalg.lu_solve(*tapegrad.linalg.lu_factor(a), b, left=left, adjoint=adjoint)
    op = a.numpy().T if adjoint else a.numpy()
    np.testing.assert_allclose(op @ x.numpy() if left else x.numpy() @ op, b.numpy(),
                               atol=1e-12)
    packed, pivots = tapegrad.linalg.lu_factor(a)
    assert gradcheck(lambda lu, b: tapegrad.linalg.lu_solve(lu, pivots, b, left=left,
                                                            adjoint=adjoint),
                     (packed.requires_grad_(), b.requires_grad_()))


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.linalg.solve_triangular(_lower(lib, 4, lib.float32), lib.eye(4),
                                            upper=False),
    lambda lib: lib.linalg.solve_triangular(_lower(lib, 4, lib.float32).mT, lib.ones(2, 4),
                                            upper=True, left=False, unitriangular=True),
    lambda lib: lib.linalg.solve_triangular(lib.tensor([[0.0, 0.0], [1.0, 1.0]]), lib.eye(2),
                                            upper=False),
    lambda lib: lib.cholesky_inverse(lib.linalg.cholesky(lib.tensor([[4.0, 1.0], [1.0, 3.0]]))),
    lambda lib: lib.distributions.MultivariateNormal(
        lib.zeros(2), precision_matrix=lib.tensor([[2.0, 0.5], [0.5, 1.0]])).scale_tril,
])
def test_triangular_solves_same_as_torch(case):
    assert_same(case, torch)


# -- transform_to and logdet ---------------------------------------------------------------------

def test_transform_to_positive_semidefinite():
    transform = TD.transform_to(TD.constraints.positive_semidefinite)
    assert isinstance(transform, TD.transforms.PositiveDefiniteTransform)
    matrix = transform(tapegrad.tensor([[0.3, 5.0], [-1.0, 0.2]]))
    assert TD.constraints.positive_semidefinite.check(matrix).item()


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.logdet(lib.ones(2, 3)),
    lambda lib: lib.logdet(lib.ones(3)),
    lambda lib: lib.logdet(lib.ones(2, 2, dtype=lib.long)),
    lambda lib: lib.ones(2, 3).logdet(),
    lambda lib: lib.logdet(lib.tensor([[0.0, 1.0], [1.0, 0.0]])),
])
def test_logdet_same_as_torch(case):
    assert_same(case, torch)


def test_logdet_names_itself_in_errors():
    with pytest.raises(RuntimeError, match="^logdet: A must be batches of square matrices"):
        tapegrad.logdet(tapegrad.ones(2, 3))


# -- xlogy's gradient where its first argument is 0 -----------------------------------------------

@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # log of a negative b
@pytest.mark.parametrize("function, log, edge", [
    (tapegrad.xlogy, np.log, 0.0), (tapegrad.special.xlog1py, np.log1p, -1.0)])
def test_xlogy_gradient_in_first_argument(function, log, edge):
    """log(b) wherever it is defined or a != 0; 0 only where a = 0 and b is at or below the
    edge of the domain (nan stays nan)."""
    b_values = [0.3, edge, edge - 0.5, float("nan"), 2.0]
    a = tapegrad.tensor([0.0, 0.0, 0.0, 0.0, 1.5], requires_grad=True)
    function(a, tapegrad.tensor(b_values)).sum().backward()
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = [log(0.3), 0.0, 0.0, np.nan, log(2.0)]
    np.testing.assert_allclose(a.grad.numpy(), expected, rtol=1e-6)
    assert a.grad.dtype == tapegrad.float32


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # log of a negative b
@pytest.mark.parametrize("function, edge", [(tapegrad.xlogy, 0.0),
                                            (tapegrad.special.xlog1py, -1.0)])
def test_xlogy_scalar_other_gradient(function, edge):
    a = tapegrad.tensor([0.0, 2.0], dtype=tapegrad.float64, requires_grad=True)
    (grad,) = tapegrad.autograd.grad(function(a, 0.5).sum(), a)
    log = math.log(0.5) if edge == 0 else math.log1p(0.5)
    np.testing.assert_allclose(grad.numpy(), [log, log])
    (grad,) = tapegrad.autograd.grad(function(a, edge - 0.5).sum(), a)
    assert grad[0].item() == 0 and math.isnan(grad[1].item())


def test_xlogy_gradients_by_finite_differences():
    a = tapegrad.tensor([[0.0], [0.7]], dtype=tapegrad.float64, requires_grad=True)
    b = tapegrad.tensor([0.5, 1.5, 3.0], dtype=tapegrad.float64, requires_grad=True)
    assert gradcheck(tapegrad.xlogy, (a, b))
    assert gradcheck(tapegrad.special.xlog1py, (a, b))


def test_concentration_gradient_at_one():
    """d/dα log Gamma(x; α, β) = log β + log x - ψ(α), and for a Dirichlet
    log x_i + ψ(Σα) - ψ(α_i): the log x term is there when α = 1."""
    alpha = tapegrad.tensor(1.0, dtype=tapegrad.float64, requires_grad=True)
    TD.Gamma(alpha, 2.0).log_prob(tapegrad.tensor(0.7, dtype=tapegrad.float64)).backward()
    euler_gamma = 0.5772156649015329
    assert alpha.grad.item() == pytest.approx(math.log(2.0) + math.log(0.7) + euler_gamma)
    concentration = tapegrad.tensor([0.5, 1.0, 3.0], dtype=tapegrad.float64, requires_grad=True)
    x = tapegrad.tensor([0.2, 0.3, 0.5], dtype=tapegrad.float64)
    TD.Dirichlet(concentration).log_prob(x).backward()
    expected = (np.log(x.numpy()) + tapegrad.digamma(concentration.sum()).item()
                - tapegrad.digamma(concentration.detach()).numpy())
    np.testing.assert_allclose(concentration.grad.numpy(), expected)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.autograd.grad(lib.distributions.Beta(
        c := lib.tensor([1.0, 2.0], requires_grad=True), 1.0).log_prob(
            lib.tensor([0.3, 0.6])).sum(), c),
    lambda lib: lib.autograd.grad(lib.distributions.Gamma(
        c := lib.tensor([1.0, 0.5], requires_grad=True), 1.0).log_prob(
            lib.tensor([0.7, 0.0])).sum(), c),
    lambda lib: lib.autograd.grad(lib.xlogy(
        x := lib.tensor([0.0, 0.0, 1.0], requires_grad=True), lib.tensor([0.5, 0.0, 2.0])).sum(), x),
])
def test_xlogy_gradients_same_as_torch(case):
    assert_same(case, torch)


# -- ldl_factor / ldl_solve ----------------------------------------------------------------------

def _symmetric_indefinite(lib, n, dtype, shrink_diagonal=1.0):
    a = lib.sin(lib.arange(float(n * n), dtype=dtype).reshape(n, n) ** 2 * 0.37 + 0.3)
    a = a + a.mT
    return a - (1 - shrink_diagonal) * lib.diag_embed(lib.diagonal(a, dim1=-2, dim2=-1))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("shrink_diagonal", [1.0, 0.01])
def test_ldl_solve_inverts_the_factored_matrix(n, shrink_diagonal):
    a = _symmetric_indefinite(tapegrad, n, tapegrad.float64, shrink_diagonal)
    packed, pivots = tapegrad.linalg.ldl_factor(a)
    assert pivots.dtype == tapegrad.int32
    assert (np.triu(packed.numpy(), 1) == 0).all()
    x = tapegrad.linalg.ldl_solve(packed, pivots, tapegrad.eye(n, dtype=tapegrad.float64))
    np.testing.assert_allclose(a.numpy() @ x.numpy(), np.eye(n), atol=1e-10)


def test_ldl_factor_reads_the_lower_triangle_and_batches():
    a = _symmetric_indefinite(tapegrad, 4, tapegrad.float64, 0.01)
    garbage_above = a + tapegrad.triu(tapegrad.ones(4, 4, dtype=tapegrad.float64), 1)
    batched = tapegrad.linalg.ldl_factor_ex(tapegrad.stack([a, garbage_above, 0 * a]))
    assert batched.LD.shape == (3, 4, 4) and batched.info.tolist() == [0, 0, 1]
    np.testing.assert_array_equal(batched.LD[0].numpy(), batched.LD[1].numpy())
    b = tapegrad.ones(2, 1, 4, 3, dtype=tapegrad.float64)
    x = tapegrad.linalg.ldl_solve(batched.LD[:2], batched.pivots[:2], b)
    assert x.shape == (2, 2, 4, 3)
    np.testing.assert_allclose(a.numpy() @ x[1, 0].numpy(), np.ones((4, 3)), atol=1e-10)


def test_ldl_is_not_differentiable():
    a = _symmetric_indefinite(tapegrad, 3, tapegrad.float32).requires_grad_()
    packed, pivots = tapegrad.linalg.ldl_factor(a)
    assert packed.grad_fn.name() == "torch::autograd::NotImplemented"
    assert not pivots.requires_grad
    with pytest.raises(RuntimeError, match="derivative for aten::linalg_ldl_factor_ex is not"):
        packed.sum().backward()


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: tuple(lib.linalg.ldl_factor(_symmetric_indefinite(lib, 5, lib.float32))),
    lambda lib: tuple(lib.linalg.ldl_factor(_symmetric_indefinite(lib, 6, lib.float64, 0.01))),
    lambda lib: tuple(lib.linalg.ldl_factor(lib.tensor([[0.0, 1.0], [1.0, 0.0]]))),
    lambda lib: tuple(lib.linalg.ldl_factor_ex(lib.tensor([[1.0, 0.0], [0.0, 0.0]]))),
    lambda lib: tuple(lib.linalg.ldl_factor(lib.zeros(0, 2, 2))),
    lambda lib: lib.linalg.ldl_solve(*lib.linalg.ldl_factor(
        _symmetric_indefinite(lib, 5, lib.float64, 0.01)), lib.eye(5, dtype=lib.float64)),
    lambda lib: lib.linalg.ldl_factor(lib.zeros(2, 2)),
    lambda lib: lib.linalg.ldl_factor_ex(lib.zeros(2, 2), check_errors=True),
    lambda lib: lib.linalg.ldl_factor(lib.zeros(2, 3)),
    lambda lib: lib.linalg.ldl_factor(lib.zeros(3)),
    lambda lib: lib.linalg.ldl_factor(lib.zeros(2, 2, dtype=lib.long)),
    lambda lib: lib.linalg.ldl_factor(lib.eye(2, dtype=lib.float16)),
    lambda lib: lib.linalg.ldl_factor(lib.eye(2), hermitian="yes"),
    lambda lib: lib.linalg.ldl_solve(*lib.linalg.ldl_factor(lib.eye(3)), lib.ones(3)),
    lambda lib: lib.linalg.ldl_solve(*lib.linalg.ldl_factor(lib.eye(3)), lib.ones(2, 1)),
    lambda lib: lib.linalg.ldl_solve(*lib.linalg.ldl_factor(lib.eye(3)), lib.ones(3, 1).double()),
    lambda lib: lib.linalg.ldl_solve(lib.eye(3), lib.ones(2, dtype=lib.int32), lib.ones(3, 1)),
    lambda lib: lib.linalg.ldl_solve(lib.eye(3), lib.ones(3), lib.ones(3, 1)),
    lambda lib: lib.linalg.ldl_solve(lib.eye(3).long(), lib.ones(3), lib.ones(3, 1)),
])
def test_ldl_same_as_torch(case):
    assert_same(case, torch)


# -- the graphs distributions record -------------------------------------------------------------

def test_laplace_rsample_by_inversion():
    tapegrad.manual_seed(0)
    loc = tapegrad.tensor([1.0, -1.0], dtype=tapegrad.float64, requires_grad=True)
    scale = tapegrad.tensor([0.5, 2.0], dtype=tapegrad.float64, requires_grad=True)
    draws = TD.Laplace(loc, scale).rsample((40000,))
    assert draws.grad_fn.name() == "SubBackward0"
    np.testing.assert_allclose(draws.mean(0).detach().numpy(), [1.0, -1.0], atol=0.05)
    np.testing.assert_allclose(draws.std(0).detach().numpy(), [0.5 * 2 ** 0.5, 2 * 2 ** 0.5],
                               rtol=0.03)
    draws.mean().backward()
    np.testing.assert_allclose(loc.grad.numpy(), [0.5, 0.5], rtol=1e-9)


def test_tanh_transform_inverse_is_atanh():
    y = tapegrad.tensor([-0.9, 0.0, 0.5], requires_grad=True)
    x = TD.transforms.TanhTransform().inv(y)
    assert x.grad_fn.name() == "AtanhBackward0"
    np.testing.assert_allclose(x.detach().numpy(), np.arctanh(y.detach().numpy()), rtol=1e-6)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.distributions.Laplace(lib.zeros(2, requires_grad=True), 1.0).rsample(),
    lambda lib: lib.distributions.transforms.TanhTransform().inv(
        lib.tensor([0.5], requires_grad=True)),
    lambda lib: lib.distributions.kl_divergence(
        lib.distributions.ContinuousBernoulli(logits=lib.tensor([0.3, -2.0], requires_grad=True)),
        lib.distributions.ContinuousBernoulli(lib.tensor([0.6, 0.5]))),
])
def test_recorded_graph_same_as_torch(case):
    assert case(tapegrad).grad_fn.name() == case(torch).grad_fn.name()


@needs_torch
def test_continuous_bernoulli_kl_same_as_torch():
    assert_same(lambda lib: lib.distributions.kl_divergence(
        lib.distributions.ContinuousBernoulli(logits=lib.tensor([0.3, -2.0])),
        lib.distributions.ContinuousBernoulli(lib.tensor([0.6, 0.5]))), torch)
