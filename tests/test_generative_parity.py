"""What deep generative model code needs from ``tapegrad.distributions`` beyond the basics:
PyTorch's per-distribution submodules, Dirichlet's event-wise parameter constraint, the
``utils`` helpers for triangular matrices, broadcast errors, and the correlation-Cholesky
family (``corr_cholesky``, ``CorrCholeskyTransform``, ``LKJCholesky``). Compared with PyTorch
where installed, and checked against independent truths (analytic values, finite
differences in float64) everywhere."""
import importlib
import math

import numpy as np
import pytest

import tapegrad
from tapegrad import distributions as D
from tapegrad.distributions import constraints
from tapegrad.distributions.transforms import CorrCholeskyTransform
from tapegrad.distributions.utils import (broadcast_all, tril_matrix_to_vec,
                                          vec_to_tril_matrix)

from same_as_torch import assert_same

SUBMODULES = {
    "beta": ["Beta"], "binomial": ["Binomial"], "cauchy": ["Cauchy"], "chi2": ["Chi2"],
    "dirichlet": ["Dirichlet"], "fishersnedecor": ["FisherSnedecor"],
    "generalized_pareto": ["GeneralizedPareto"], "geometric": ["Geometric"],
    "gumbel": ["Gumbel"], "half_cauchy": ["HalfCauchy"], "half_normal": ["HalfNormal"],
    "inverse_gamma": ["InverseGamma"], "laplace": ["Laplace"], "lkj_cholesky": ["LKJCholesky"],
    "log_normal": ["LogNormal"], "logistic_normal": ["LogisticNormal"],
    "lowrank_multivariate_normal": ["LowRankMultivariateNormal"],
    "multinomial": ["Multinomial"], "negative_binomial": ["NegativeBinomial"],
    "one_hot_categorical": ["OneHotCategorical", "OneHotCategoricalStraightThrough"],
    "pareto": ["Pareto"], "poisson": ["Poisson"],
    "relaxed_bernoulli": ["LogitRelaxedBernoulli", "RelaxedBernoulli"],
    "relaxed_categorical": ["ExpRelaxedCategorical", "RelaxedOneHotCategorical"],
    "studentT": ["StudentT"], "weibull": ["Weibull"], "wishart": ["Wishart"]}


@pytest.mark.parametrize("name", sorted(SUBMODULES))
def test_pytorchs_submodules_import_and_hold_their_distributions(name):
    module = importlib.import_module(f"tapegrad.distributions.{name}")
    assert getattr(D, name) is module
    for cls_name in SUBMODULES[name]:
        assert getattr(module, cls_name) is getattr(D, cls_name)
    assert module.__all__ == SUBMODULES[name]


def test_submodule_names_match_pytorchs():
    torch = pytest.importorskip("torch")
    for name, classes in SUBMODULES.items():
        assert importlib.import_module(f"torch.distributions.{name}").__all__ == classes


def test_dirichlet_constrains_its_concentration_event_wise():
    constraint = D.Dirichlet.arg_constraints["concentration"]
    assert repr(constraint) == "IndependentConstraint(GreaterThan(lower_bound=0.0), 1)"
    assert constraint.check(tapegrad.tensor([[1.0, 2.0], [0.0, 1.0]])).tolist() == [True, False]
    with pytest.raises(ValueError, match=r"IndependentConstraint\(GreaterThan"):
        D.Beta(tapegrad.tensor(0.0), tapegrad.tensor(1.0))


def test_dirichlet_and_beta_errors_equal_pytorchs():
    torch = pytest.importorskip("torch")
    assert_same(lambda lib: lib.distributions.Dirichlet(lib.tensor([1.0, -2.0])), torch)
    assert_same(lambda lib: lib.distributions.Beta(lib.tensor([1.0, 0.0]), lib.tensor(1.0)), torch)


@pytest.mark.parametrize("diag", [-2, -1, 0, 1])
def test_tril_vec_round_trip_in_row_order(diag):
    n = 4
    mat = tapegrad.arange(2 * n * n, dtype=tapegrad.float64).view(2, n, n)
    vec = tril_matrix_to_vec(mat, diag)
    expected = [[float(m[i, j]) for i in range(n) for j in range(n) if j <= i + diag]
                for m in mat.numpy()]
    assert vec.tolist() == expected
    assert np.array_equal(vec_to_tril_matrix(vec, diag).numpy(), np.tril(mat.numpy(), diag))


def test_vec_to_tril_matrix_is_differentiable_and_checks_its_length():
    x = tapegrad.arange(6.0, requires_grad=True)
    vec_to_tril_matrix(x, -1).sum().backward()
    assert x.grad.tolist() == [1.0] * 6
    with pytest.raises(ValueError, match="The size of last dimension is 5 which cannot"):
        vec_to_tril_matrix(tapegrad.zeros(5))
    with pytest.raises(ValueError, match=r"diag \(3\) provided is outside \[-3, 2\]"):
        tril_matrix_to_vec(tapegrad.eye(3), 3)


def test_tril_helpers_equal_pytorchs():
    torch = pytest.importorskip("torch")
    for diag in (-1, 0, 1):
        assert_same(lambda lib: lib.distributions.utils.vec_to_tril_matrix(
            lib.arange(1.0, 7.0), diag), torch)
        assert_same(lambda lib: lib.distributions.utils.tril_matrix_to_vec(
            lib.arange(16.0).view(4, 4), diag), torch)
    assert_same(lambda lib: lib.distributions.utils.vec_to_tril_matrix(lib.zeros(5)), torch)
    assert D.utils.euler_constant == torch.distributions.utils.euler_constant


def test_broadcast_errors_equal_pytorchs():
    torch = pytest.importorskip("torch")
    for shapes in (((2,), (3,)), ((2, 1), (4, 3)), ((5, 2), (3, 1, 3)), ((2,), (1,), (3,))):
        assert_same(lambda lib: lib.broadcast_tensors(*(lib.zeros(s) for s in shapes)), torch)
        assert_same(lambda lib: lib.distributions.utils.broadcast_all(
            *(lib.zeros(s) for s in shapes)), torch)
    assert_same(lambda lib: lib.distributions.utils.broadcast_all("a", 1.0), torch)
    with pytest.raises(RuntimeError, match="size of tensor a \\(2\\) must match"):
        broadcast_all(tapegrad.zeros(2), tapegrad.zeros(3))


# -- correlation Cholesky factors --------------------------------------------------------------
UNCONSTRAINED = np.array([[0.3, -1.2, 0.8, 2.0, 0.0, -0.5], [1.5, 0.1, -0.7, 0.4, -2.2, 0.9]])


def test_corr_cholesky_transform_gives_unit_row_lower_factors_and_inverts():
    t = CorrCholeskyTransform()
    x = tapegrad.tensor(UNCONSTRAINED, dtype=tapegrad.float64)
    y = t(x)
    assert y.shape == (2, 4, 4)
    factors = y.numpy()
    assert np.allclose(np.tril(factors), factors)
    assert np.allclose((factors ** 2).sum(-1), 1.0)
    assert (np.diagonal(factors, axis1=-2, axis2=-1) > 0).all()
    assert constraints.corr_cholesky.check(y).tolist() == [True, True]
    assert np.allclose(t.inv(y).numpy(), UNCONSTRAINED)
    assert t.forward_shape((2, 6)) == (2, 4, 4) and t.inverse_shape((2, 4, 4)) == (2, 6)


def test_corr_cholesky_log_det_is_the_jacobians():
    """log |det J| of the map onto the free (strictly lower) entries, by finite differences."""
    t = CorrCholeskyTransform()
    x = UNCONSTRAINED[0]

    def free_entries(v):
        return tril_matrix_to_vec(t(tapegrad.tensor(v, dtype=tapegrad.float64)), -1).numpy()

    h = 1e-6
    jacobian = np.stack([(free_entries(x + h * e) - free_entries(x - h * e)) / (2 * h)
                         for e in np.eye(len(x))], 1)
    xt = tapegrad.tensor(x, dtype=tapegrad.float64)
    expected = np.log(abs(np.linalg.det(jacobian)))
    assert math.isclose(float(t.log_abs_det_jacobian(xt, t(xt))), expected, rel_tol=1e-6)


def test_corr_cholesky_constraint_registry_and_errors():
    t = D.biject_to(constraints.corr_cholesky)
    assert isinstance(t, CorrCholeskyTransform)
    assert isinstance(D.transform_to(constraints.corr_cholesky), CorrCholeskyTransform)
    assert t != CorrCholeskyTransform()  # no parameters, yet compared by identity as in PyTorch
    assert constraints.corr_cholesky.event_dim == 2
    assert constraints.corr_cholesky.check(2 * tapegrad.eye(3)).item() is False
    with pytest.raises(ValueError, match="Input is not a flattened lower-diagonal number"):
        t.forward_shape((5,))
    with pytest.raises(ValueError, match="Input is not square"):
        t.inverse_shape((2, 3))


def test_corr_cholesky_equals_pytorchs():
    torch = pytest.importorskip("torch")

    def transform(lib):
        t = lib.distributions.transforms.CorrCholeskyTransform()
        x = lib.tensor(UNCONSTRAINED, requires_grad=True)
        y = t(x)
        ladj = t.log_abs_det_jacobian(x, y)
        (y.sum() + ladj.sum()).backward()
        return y, t.inv(y), ladj, x.grad, lib.distributions.constraints.corr_cholesky.check(y)
    assert_same(transform, torch)
    assert repr(constraints.corr_cholesky) == repr(torch.distributions.constraints.corr_cholesky)
    assert repr(CorrCholeskyTransform()) == "CorrCholeskyTransform()"


def lkj_log_density_2d(concentration, r):
    """LKJ on 2×2: the correlation r has density ∝ (1 − r²)^(η − 1) on (−1, 1), which for the
    Cholesky factor's free entry r (with L₂₂ = √(1 − r²)) is the same density."""
    log_norm = math.lgamma(2 * concentration) - 2 * math.lgamma(concentration) \
        - (2 * concentration - 1) * math.log(2)
    return (concentration - 1) * math.log(1 - r * r) + log_norm


@pytest.mark.parametrize("concentration", [0.5, 1.0, 3.0])
def test_lkj_log_prob_on_2x2_is_the_analytic_density(concentration):
    r = 0.6
    factor = tapegrad.tensor([[1.0, 0.0], [r, math.sqrt(1 - r * r)]], dtype=tapegrad.float64)
    value = D.LKJCholesky(2, tapegrad.tensor(concentration, dtype=tapegrad.float64)) \
        .log_prob(factor)
    assert math.isclose(float(value), lkj_log_density_2d(concentration, r), rel_tol=1e-10)


def test_lkj_samples_are_correlation_factors_and_expand():
    tapegrad.manual_seed(0)
    d = D.LKJCholesky(4, tapegrad.tensor([0.5, 2.0]))
    samples = d.sample((3,))
    assert samples.shape == (3, 2, 4, 4)
    assert bool(constraints.corr_cholesky.check(samples).all())
    expanded = d.expand((5, 2))
    assert expanded.batch_shape == (5, 2) and expanded.sample().shape == (5, 2, 4, 4)
    assert expanded.log_prob(tapegrad.eye(4)).shape == (5, 2)
    assert not d.has_rsample


def test_lkj_equals_pytorchs():
    torch = pytest.importorskip("torch")

    def lkj(lib):
        c = lib.tensor([0.5, 1.0, 2.5], requires_grad=True)
        d = lib.distributions.LKJCholesky(4, c)
        value = lib.distributions.transforms.CorrCholeskyTransform()(lib.tensor(UNCONSTRAINED))
        lp = d.log_prob(value.unsqueeze(1))
        lp.sum().backward()
        return lp, c.grad, repr(d), d.batch_shape, d.event_shape
    assert_same(lkj, torch)
    assert_same(lambda lib: lib.distributions.LKJCholesky(1), torch)
    assert_same(lambda lib: lib.distributions.LKJCholesky(3, -1.0), torch)
    assert_same(lambda lib: lib.distributions.LKJCholesky(3).log_prob(2 * lib.eye(3)), torch)
    assert repr(D.LKJCholesky.arg_constraints) == repr(
        torch.distributions.LKJCholesky.arg_constraints)


# -- Wishart -----------------------------------------------------------------------------------
COVARIANCE = np.array([[2.0, 0.3], [0.3, 1.0]])
MATRIX = np.array([[3.0, 0.5], [0.5, 2.0]])


@pytest.mark.parametrize("df", [1.5, 4.0])
def test_one_dimensional_wishart_is_a_gamma(df):
    """W₁(ν, σ²) is Gamma(ν/2, rate 1/(2σ²)): same density and entropy."""
    variance = tapegrad.tensor([[[2.5]]], dtype=tapegrad.float64)
    w = D.Wishart(tapegrad.tensor([df], dtype=tapegrad.float64), variance)
    g = D.Gamma(tapegrad.tensor([df / 2], dtype=tapegrad.float64), 1 / (2 * variance[:, 0, 0]))
    x = tapegrad.tensor([[[1.7]]], dtype=tapegrad.float64)
    assert np.allclose(w.log_prob(x).numpy(), g.log_prob(x[:, 0, 0]).numpy())
    assert np.allclose(w.entropy().numpy(), g.entropy().numpy())
    assert np.allclose(w.mean[:, 0, 0].numpy(), g.mean.numpy())
    assert np.allclose(w.variance[:, 0, 0].numpy(), g.variance.numpy())


def test_wishart_parameterizations_agree_and_samples_are_positive_definite():
    cov = tapegrad.tensor(COVARIANCE, dtype=tapegrad.float64)
    x = tapegrad.tensor(MATRIX, dtype=tapegrad.float64)
    by_cov = D.Wishart(3.0, covariance_matrix=cov)
    by_precision = D.Wishart(3.0, precision_matrix=tapegrad.linalg.inv(cov))
    by_tril = D.Wishart(3.0, scale_tril=tapegrad.linalg.cholesky(cov))
    for other in (by_precision, by_tril):
        assert np.allclose(other.log_prob(x).numpy(), by_cov.log_prob(x).numpy())
        assert np.allclose(other.covariance_matrix.numpy(), COVARIANCE)
    tapegrad.manual_seed(0)
    samples = by_cov.expand((2,)).sample((2000,))
    assert samples.shape == (2000, 2, 2, 2)
    assert bool(constraints.positive_definite.check(samples[:50]).all())
    assert np.allclose(samples.mean(0).numpy(), 3.0 * COVARIANCE, rtol=0.1, atol=0.1)


def test_wishart_equals_pytorchs():
    torch = pytest.importorskip("torch")

    def wishart(lib):
        df = lib.tensor([3.0, 5.5], requires_grad=True)
        cov = lib.tensor(COVARIANCE, requires_grad=True)
        w = lib.distributions.Wishart(df, cov)
        lp = w.log_prob(lib.tensor(MATRIX))
        (lp.sum() + w.entropy().sum()).backward()
        return (lp, w.entropy(), w.mean, w.mode, w.variance, w.precision_matrix, df.grad,
                cov.grad, repr(w), repr(w.arg_constraints), w.batch_shape, w.event_shape)
    assert_same(wishart, torch)
    assert_same(lambda lib: lib.distributions.kl_divergence(
        lib.distributions.Wishart(lib.tensor(3.0), lib.tensor(COVARIANCE)),
        lib.distributions.Wishart(lib.tensor(4.0), lib.eye(2))), torch)
    for kwargs in ({}, {"covariance_matrix": np.ones(2)}, {"covariance_matrix": np.ones((2, 2))},
                   {"scale_tril": -np.eye(2)}):
        assert_same(lambda lib: lib.distributions.Wishart(
            3.0, **{k: lib.tensor(v) for k, v in kwargs.items()}), torch)
    assert_same(lambda lib: lib.distributions.Wishart(lib.tensor([0.5, 3.0]), lib.eye(2)), torch)
    assert_same(lambda lib: lib.distributions.Wishart(3.0, lib.eye(2)).log_prob(
        lib.ones(2, 2)), torch)


def test_sample_n_warns_of_its_deprecation_as_pytorch_does():
    with pytest.warns(FutureWarning, match=r"`sample_n\(n\)` will be deprecated"):
        assert D.Normal(tapegrad.zeros(2), 1.0).sample_n(3).shape == (3, 2)
