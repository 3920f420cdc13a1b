"""What quantitative-finance code found different from PyTorch: second derivatives of products
and running products at a zero (a -100% return), the graph of the normal CDF, multivariate
normals' triangular solves and precision route, learnable covariance weights, custom
distributions without constraints, and masked moments of distributions.

Each case runs on tapegrad and, where installed, on PyTorch (same values, or same exception type
and message); the values are also checked against analytic results and finite differences.
"""
import math
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck

from same_as_torch import assert_same


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def f64(lib, values, grad=False):
    return lib.tensor(values, dtype=lib.float64, requires_grad=grad)


def hessian_of(lib, function, values):
    return lib.autograd.functional.hessian(function, f64(lib, values))


# ------------------------------------------------------------- products and running products

WITH_ZEROS = [[2.0, 0.0, 3.0], [2.0, 0.0, 3.0, 0.0, 1.0], [0.0, 0.5, 3.0], [0.5, 2.0, 0.0],
              [1.05, 0.0, 1.1, 0.96]]


@pytest.mark.parametrize("values", WITH_ZEROS)
def test_cumprod_hessian_at_zeros(torch, values):
    assert_same(lambda lib: hessian_of(lib, lambda r: lib.cumprod(r, 0).sum(), values), torch)


@pytest.mark.parametrize("values", WITH_ZEROS + [[-1.0, 0.2, -1.0]])
def test_prod_hessian_at_zeros(torch, values):
    assert_same(lambda lib: hessian_of(lib, lambda r: lib.prod(r), values), torch)


def test_prod_along_a_dimension_second_derivative(torch):
    def case(lib):
        x = f64(lib, [[2.0, 0.0, 3.0], [1.0, 2.0, 3.0], [0.0, 0.0, 4.0]], grad=True)
        (g,) = lib.autograd.grad(x.prod(1).sum(), x, create_graph=True)
        return g, lib.autograd.grad((g * lib.arange(9.0, dtype=lib.float64).reshape(3, 3)).sum(),
                                    x)[0]
    assert_same(case, torch)


@pytest.mark.parametrize("dim", [0, 1])
def test_cumprod_second_derivative_along_either_dimension(torch, dim):
    def case(lib):
        x = f64(lib, [[2.0, 0.0, 3.0], [0.5, 2.0, 0.0]], grad=True)
        (g,) = lib.autograd.grad((lib.cumprod(x, dim) ** 2).sum(), x, create_graph=True)
        return g, lib.autograd.grad(g.sum(), x)[0]
    assert_same(case, torch)


@pytest.mark.parametrize("values", WITH_ZEROS)
def test_products_differentiate_twice_by_finite_differences(values):
    x = f64(tapegrad, values, grad=True)
    assert gradgradcheck(lambda t: tapegrad.cumprod(t, 0), (x,))
    assert gradgradcheck(lambda t: tapegrad.prod(t), (x,))
    m = f64(tapegrad, [values, values[::-1]], grad=True)
    assert gradgradcheck(lambda t: t.prod(1), (m,))


def test_terminal_wealth_hessian_with_a_total_loss_is_analytic():
    """d^2 prod(1 + r) / dr_i dr_j = prod over k not in {i, j} of (1 + r_k)."""
    r = [0.05, -1.0, 0.10, -0.04]
    got = hessian_of(tapegrad, lambda t: tapegrad.prod(1 + t), r).numpy()
    growth = 1 + np.array(r)
    expected = np.array([[0.0 if i == j else np.prod(np.delete(growth, [i, j]))
                          for j in range(4)] for i in range(4)])
    np.testing.assert_allclose(got, expected, atol=1e-15)


def test_prod_graph_nodes(torch):
    def names(lib):
        x = f64(lib, [2.0, 0.0, 3.0], grad=True)
        (g,) = lib.autograd.grad(lib.prod(x), x, create_graph=True)
        y = f64(lib, [2.0, 1.0, 3.0], grad=True)
        (h,) = lib.autograd.grad(lib.prod(y), y, create_graph=True)
        return type(g.grad_fn).__name__, type(h.grad_fn).__name__
    assert names(tapegrad) == names(torch)


# ---------------------------------------------------------------------------- normal CDF graph

def test_ndtr_records_scalar_multiplications(torch):
    def names(lib):
        x = f64(lib, [-1.0, 0.5], grad=True)
        y = lib.special.ndtr(x)
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        return type(y.grad_fn).__name__, type(g.grad_fn).__name__
    assert names(tapegrad) == names(torch) == ("MulBackward1", "MulBackward1")


def test_ndtr_derivative_is_the_density():
    x = f64(tapegrad, [-3.0, -0.5, 0.0, 1.0, 2.5], grad=True)
    (g,) = tapegrad.autograd.grad(tapegrad.special.ndtr(x).sum(), x)
    density = np.exp(-x.detach().numpy() ** 2 / 2) / math.sqrt(2 * math.pi)
    np.testing.assert_allclose(g.numpy(), density, rtol=1e-14)


# ----------------------------------------------------------------------- multivariate normals

def lower(lib, rows, grad=True):
    return f64(lib, rows, grad=grad)


L_P = [[0.1, 0.0, 0.0], [0.05, 0.2, 0.0], [0.01, 0.02, 0.15]]
L_Q = [[0.2, 0.0, 0.0], [0.03, 0.15, 0.0], [0.02, -0.04, 0.18]]
POINTS = [[0.01, -0.02, 0.03], [0.0, 0.05, -0.01]]


def test_log_prob_gradient_of_scale_tril_is_lower_triangular(torch):
    def case(lib):
        L = lower(lib, L_P)
        mvn = lib.distributions.MultivariateNormal(lib.zeros(3, dtype=lib.float64), scale_tril=L)
        return lib.autograd.grad(mvn.log_prob(f64(lib, POINTS)).sum(), L)[0]
    assert_same(case, torch)
    got = case(tapegrad).numpy()
    assert not np.triu(got, 1).any()


@pytest.mark.parametrize("pair", ["mvn_mvn", "lowrank_mvn", "mvn_lowrank"])
def test_kl_gradients_of_scale_trils_are_lower_triangular(torch, pair):
    def case(lib):
        D = lib.distributions
        Lp, Lq = lower(lib, L_P), lower(lib, L_Q)
        zeros = lib.zeros(3, dtype=lib.float64)
        mvn_p = D.MultivariateNormal(zeros, scale_tril=Lp)
        mvn_q = D.MultivariateNormal(zeros + 0.01, scale_tril=Lq)
        lowrank = D.LowRankMultivariateNormal(zeros, f64(lib, [[0.2], [0.1], [0.04]]),
                                              f64(lib, [0.04, 0.02, 0.03]))
        p, q = {"mvn_mvn": (mvn_p, mvn_q), "lowrank_mvn": (lowrank, mvn_q),
                "mvn_lowrank": (mvn_p, lowrank)}[pair]
        kl = D.kl_divergence(p, q)
        return (kl,) + lib.autograd.grad(kl, (Lp, Lq), allow_unused=True,
                                         materialize_grads=True)
    assert_same(case, torch)


PRECISION = [[2.0, 0.5, 0.1], [0.5, 1.0, 0.2], [0.1, 0.2, 3.0]]


def test_precision_parameterization(torch):
    def case(lib):
        mvn = lib.distributions.MultivariateNormal(lib.zeros(3, dtype=lib.float64),
                                                   precision_matrix=f64(lib, PRECISION))
        return mvn.scale_tril, mvn.precision_matrix, mvn.covariance_matrix
    assert_same(case, torch)
    scale_tril, precision, covariance = case(tapegrad)
    inverse = np.linalg.inv(np.array(PRECISION))
    np.testing.assert_allclose(scale_tril.numpy(), np.linalg.cholesky(inverse), atol=1e-15)
    np.testing.assert_allclose(precision.numpy(), PRECISION, atol=1e-14)
    np.testing.assert_allclose(covariance.numpy(), inverse, atol=1e-15)


def test_precision_parameterized_log_prob_gradient(torch):
    def case(lib):
        P = f64(lib, PRECISION, grad=True)
        mvn = lib.distributions.MultivariateNormal(lib.zeros(3, dtype=lib.float64),
                                                   precision_matrix=P)
        return lib.autograd.grad(mvn.log_prob(f64(lib, POINTS)).sum(), P)[0]
    assert_same(case, torch)


def test_wishart_from_precision(torch):
    def case(lib):
        w = lib.distributions.Wishart(f64(lib, 5.0), precision_matrix=f64(lib, PRECISION))
        return w.scale_tril, w.log_prob(f64(lib, PRECISION))
    assert_same(case, torch)


# ---------------------------------------------------------------------- learnable cov weights

def test_cov_with_learnable_aweights_does_not_warn_and_differentiates():
    t = tapegrad.arange(12, dtype=tapegrad.float64)
    X = tapegrad.stack([tapegrad.sin(t), tapegrad.cos(t / 2)])
    decay = f64(tapegrad, 0.9, grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        C = tapegrad.cov(X, aweights=decay ** tapegrad.flip(t, (0,)))
    assert C.requires_grad
    assert gradcheck(lambda lam: tapegrad.cov(X, aweights=lam ** tapegrad.flip(t, (0,))),
                     (decay,))


def test_cov_with_learnable_aweights(torch):
    def case(lib):
        t = lib.arange(12, dtype=lib.float64)
        X = lib.stack([lib.sin(t), lib.cos(t / 2)])
        decay = f64(lib, 0.9, grad=True)
        C = lib.cov(X, aweights=decay ** lib.flip(t, (0,)))
        return C, lib.autograd.grad(C.sum(), decay)[0]
    assert_same(case, torch)


# -------------------------------------------------------------------------- custom subclasses

def skew_normal_class(lib):
    class QuickSkewNormal(lib.distributions.Distribution):
        """A user's subclass that names neither ``arg_constraints`` nor ``support``."""
        def __init__(self, loc, validate_args=None):
            self.loc = loc
            super().__init__(loc.shape, validate_args=validate_args)

        def log_prob(self, x):
            if self._validate_args:
                self._validate_sample(x)
            return lib.special.log_ndtr(3 * (x - self.loc)) - (x - self.loc) ** 2 / 2
    return QuickSkewNormal


def warnings_and_value(lib):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d = skew_normal_class(lib)(lib.tensor([0.0, 0.1]))
        value = d.log_prob(lib.tensor([0.5, -0.5]))
    return [str(w.message).split("> ", 1)[1] for w in caught], value


def test_subclass_without_constraints_warns_instead_of_failing(torch):
    ours, theirs = warnings_and_value(tapegrad), warnings_and_value(torch)
    assert ours[0] == theirs[0] and len(ours[0]) == 2
    assert "does not define `arg_constraints`" in ours[0][0]
    assert "does not define `support`" in ours[0][1]
    np.testing.assert_allclose(ours[1].numpy(), theirs[1].numpy(), rtol=1e-6)


def test_subclass_warning_points_at_the_subclass():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        skew_normal_class(tapegrad)(tapegrad.tensor([0.0]))
    assert caught[0].filename == __file__


# ----------------------------------------------------------------- masked moments and modes

def test_student_t_moments(torch):
    def case(lib):
        df = f64(lib, [0.5, 1.0, 1.5, 2.0, 3.0], grad=True)
        scale = f64(lib, [1.0, 2.0, 3.0, 4.0, 5.0], grad=True)
        d = lib.distributions.StudentT(df, f64(lib, 0.25), scale)
        variance, mean = d.variance, d.mean
        return (variance, mean, type(variance.grad_fn).__name__, type(mean.grad_fn).__name__,
                *lib.autograd.grad(variance[2:].nan_to_num(posinf=0.0).sum(), (df, scale)))
    assert_same(case, torch)


def test_student_t_variance_gradient_at_two_degrees_of_freedom_is_zero_not_nan():
    df = f64(tapegrad, [2.0, 4.0], grad=True)
    v = tapegrad.distributions.StudentT(df, 0.0, 1.0).variance
    (g,) = tapegrad.autograd.grad(v[1], df)
    np.testing.assert_array_equal(g.numpy(), [0.0, -2 / (4.0 - 2) ** 2])


def test_fisher_snedecor_and_kumaraswamy_masked_moments(torch):
    def case(lib):
        D = lib.distributions
        f = D.FisherSnedecor(f64(lib, [1.0, 2.0, 5.0], grad=True), f64(lib, [2.0, 4.0, 6.0]))
        k = D.Kumaraswamy(f64(lib, [0.5, 2.0], grad=True), f64(lib, [2.0, 3.0]))
        return (f.mean, f.mode, f.variance, k.mode, type(f.mode.grad_fn).__name__,
                lib.autograd.grad(f.mode[2] + k.mode[1], f.df1)[0])
    assert_same(case, torch)


@pytest.mark.parametrize("pair", ["uniform", "pareto", "binomial", "beta_uniform",
                                  "uniform_continuous_bernoulli", "uniform_exponential"])
def test_kl_infinities_are_assigned_or_selected_as_in_pytorch(torch, pair):
    def case(lib):
        D = lib.distributions
        low = f64(lib, [0.1, -0.2], grad=True)
        p, q = {
            "uniform": (D.Uniform(low, 0.9), D.Uniform(f64(lib, [0.0, 0.0]), 1.0)),
            "pareto": (D.Pareto(low.abs() + 1, 2.0), D.Pareto(f64(lib, [1.0, 1.5]), 1.0)),
            "binomial": (D.Binomial(5, probs=low.abs() + 0.2), D.Binomial(5, f64(lib, [0.5, 0.5]))),
            "beta_uniform": (D.Beta(low.abs() + 1, 2.0), D.Uniform(f64(lib, [0.0, 0.2]), 1.0)),
            "uniform_continuous_bernoulli": (D.Uniform(low, 0.9),
                                             D.ContinuousBernoulli(f64(lib, [0.2, 0.3]))),
            "uniform_exponential": (D.Uniform(low, 0.9), D.Exponential(f64(lib, [2.0, 3.0]))),
        }[pair]
        kl = D.kl_divergence(p, q)
        return kl, type(kl.grad_fn).__name__, lib.autograd.grad(kl[0], low)[0]
    assert_same(case, torch)


@pytest.mark.parametrize("concentration", [[0.5, 0.3, 0.8], [[0.5, 0.3, 0.8], [2.0, 3.0, 0.5],
                                                             [0.2, 0.9, 0.1]]])
def test_dirichlet_mode_corner_when_every_concentration_is_below_one(torch, concentration):
    def case(lib):
        c = lib.tensor(concentration, requires_grad=True)
        mode = lib.distributions.Dirichlet(c).mode
        return mode, lib.autograd.grad(mode.sum(), c)[0]
    assert_same(case, torch)


def test_beta_mode_of_a_u_shaped_density(torch):
    assert_same(lambda lib: lib.distributions.Beta(lib.tensor([0.5, 0.3, 2.0]),
                                                   lib.tensor([0.8, 0.2, 0.5])).mode, torch)


def test_uniform_mode_is_in_the_graph_of_high(torch):
    def name(lib):
        mode = lib.distributions.Uniform(lib.tensor([0.0]), lib.tensor([2.0],
                                                                      requires_grad=True)).mode
        return type(mode.grad_fn).__name__, bool(mode.isnan().all())
    assert name(tapegrad) == name(torch) == ("MulBackward0", True)


# --------------------------------------------------------------------- dtypes and shapes

def test_gamma_log_prob_is_in_the_parameters_dtype(torch):
    def case(lib):
        x = f64(lib, [0.5, 1.5], grad=True)
        lp = lib.distributions.Gamma(2.0, 1.0).log_prob(x)
        return lp, str(lp.dtype).replace("tapegrad", "torch"), lib.autograd.grad(lp.sum(), x)[0]
    assert_same(case, torch)


@pytest.mark.parametrize("name", ["StickBreakingTransform", "CorrCholeskyTransform"])
@pytest.mark.parametrize("shape", [(6,), (1, 6), "size"])
def test_transform_shapes_keep_their_type(torch, name, shape):
    def case(lib):
        given = lib.Size([6]) if shape == "size" else shape
        result = getattr(lib.distributions.transforms, name)().forward_shape(given)
        return tuple(result), type(result).__name__
    assert_same(case, torch)


@pytest.mark.parametrize("p_kind, q_kind", [("mvn", "mvn"), ("lowrank", "lowrank"),
                                            ("lowrank", "mvn"), ("mvn", "lowrank")])
def test_kl_event_shape_mismatch_messages(torch, p_kind, q_kind):
    def case(lib):
        D = lib.distributions

        def make(kind, n):
            if kind == "mvn":
                return D.MultivariateNormal(lib.zeros(n), lib.eye(n))
            return D.LowRankMultivariateNormal(lib.zeros(n), lib.ones(n, 1), lib.ones(n))
        return D.kl_divergence(make(p_kind, 2), make(q_kind, 3))
    assert_same(case, torch)
