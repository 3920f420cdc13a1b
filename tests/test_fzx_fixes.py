"""Differences found by differential fuzzing of ``torch.distributions`` against PyTorch (fzx):
every distribution's log_prob (in and out of support, with and without validation), cdf, icdf,
entropy, moments, shapes, supports, expand, enumerate_support, repr, seeded samples and their
gradients, invalid parameters and values, the multivariate distributions, mixtures, transforms
and transformed distributions, and kl_divergence of every registered pair.

Found: von Mises samples drawn as PyTorch draws them (three float64 uniforms per element each
round, a later acceptance replacing an earlier one); Wishart samples redrawn as PyTorch's first
check (which lacks its negation) asks, warning "Singular sample detected."; GeneralizedPareto's
log densities compare the concentration with a default-dtype ``tensor(0.0)`` (a float64 one is
refused, "Double did not match Float") and its support's bound divides by a concentration near
0 itself; Geometric has no ``param_shape``; ``full_like``/``zeros_like``/... and
``lgamma``/``digamma`` of a number are PyTorch's TypeErrors (so are Beta's, FisherSnedecor's,
Binomial's, NegativeBinomial's, RelaxedOneHotCategorical's log_prob of a number, unvalidated);
HalfCauchy's log_prob takes a number (or another dtype) in the scale's dtype; the TypeError of
a distribution called without its parameters names the distribution; a relaxed Bernoulli's
log_prob of an integer value fails in ``finfo``, as PyTorch's; a Gamma sample is clamped to the
dtype's tiny (so a NegativeBinomial of logit −∞ draws as PyTorch's); a Multinomial builds its
Binomial (validated by default) when made, so a negative ``total_count`` is refused there;
``positive_definite`` asks ``cholesky_ex`` as PyTorch does, not the eigenvalues; Dirichlet (and
Beta) rsample gradients are ATen's ``_dirichlet_grad`` (marginal-Beta approximations), not the
gradients of normalised gamma samples.
"""
import math
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


def _t(lib, values, dtype="float64"):
    return lib.tensor(values, dtype=getattr(lib, dtype))


# -- seeded samples -------------------------------------------------------------------------------

def _von_mises(lib, dtype):
    lib.manual_seed(3)
    d = lib.distributions.VonMises(_t(lib, [0.5, -1.0, 2.0], dtype), _t(lib, [0.3, 2.0, 1e-6], dtype))
    return d.sample((4,)), lib.rand(2)


def test_von_mises_samples_lie_on_the_circle():
    samples, _ = _von_mises(tapegrad, "float32")
    assert samples.shape == (4, 3) and bool((samples.abs() <= math.pi).all())


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_von_mises_samples_as_torch(dtype):
    assert_same(lambda lib: _von_mises(lib, dtype), torch)


def _wishart(lib, dtype="float64"):
    lib.manual_seed(0)
    scale = _t(lib, [[[2.0, 0.3], [0.3, 1.0]], [[1.0, 0.0], [0.0, 3.0]]], dtype)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sample = lib.distributions.Wishart(_t(lib, [3.0, 4.5], dtype),
                                           covariance_matrix=scale).sample((3,))
    return sample, [str(w.message) for w in caught]


def test_wishart_redraws_its_first_positive_definite_samples():
    sample, messages = _wishart(tapegrad)
    assert messages == ["Singular sample detected."]
    assert bool((tapegrad.linalg.eigvalsh(sample) > 0).all())


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_wishart_samples_as_torch(dtype):
    ours, theirs = _wishart(tapegrad, dtype), _wishart(torch, dtype)
    assert ours[1] == theirs[1]
    np.testing.assert_allclose(ours[0].numpy(), theirs[0].numpy(), rtol=1e-5)


# -- GeneralizedPareto ----------------------------------------------------------------------------

def _generalized_pareto(lib, dtype, method, concentration=0.2):
    d = lib.distributions.GeneralizedPareto(_t(lib, [0.5], dtype), _t(lib, [1.0], dtype),
                                            _t(lib, [concentration], dtype))
    if method == "support":
        return d.support.upper_bound
    return getattr(d, method)(_t(lib, [0.9], dtype))


@pytest.mark.parametrize("method", ["log_prob", "cdf", "log_survival_function"])
def test_a_float64_generalized_pareto_density_is_refused_as_pytorch_refuses_it(method):
    with pytest.raises(RuntimeError, match="^Double did not match Float$"):
        _generalized_pareto(tapegrad, "float64", method)
    assert _generalized_pareto(tapegrad, "float32", method).dtype == tapegrad.float32


def test_generalized_pareto_support_bound_near_zero_concentration():
    upper = _generalized_pareto(tapegrad, "float64", "support", -1e-10)
    assert float(upper) == pytest.approx(0.5 + 1e10)


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("method", ["log_prob", "cdf", "icdf", "support"])
def test_generalized_pareto_as_torch(dtype, method):
    assert_same(lambda lib: _generalized_pareto(lib, dtype, method), torch)
    assert_same(lambda lib: _generalized_pareto(lib, dtype, method, -1e-10), torch)


# -- attributes, numbers and messages ------------------------------------------------------------

def test_geometric_has_no_param_shape():
    d = tapegrad.distributions.Geometric(tapegrad.tensor([0.3]))
    assert not hasattr(d, "param_shape")
    assert tapegrad.distributions.Bernoulli(tapegrad.tensor([0.3])).param_shape == (1,)


@pytest.mark.parametrize("name", ["full_like", "zeros_like", "ones_like", "rand_like"])
def test_like_factories_refuse_a_number(name):
    args = (1.0, 2.0) if name == "full_like" else (1.0,)
    with pytest.raises(TypeError, match=rf"^{name}\(\): argument 'input' \(position 1\) must be "
                                        r"Tensor, not float$"):
        getattr(tapegrad, name)(*args)


@pytest.mark.parametrize("name", ["lgamma", "digamma"])
def test_gamma_functions_refuse_a_number(name):
    with pytest.raises(TypeError, match=rf"^{name}\(\): argument 'input' \(position 1\) must be "
                                        r"Tensor, not float$"):
        getattr(tapegrad, name)(1.0)


_OF_A_NUMBER = {
    "Beta": lambda d, t: d.Beta(t([1.5, 2.0]), t([0.5, 1.0]), validate_args=False),
    "FisherSnedecor": lambda d, t: d.FisherSnedecor(t([2.5, 3.0]), t([4.0, 1.0]),
                                                    validate_args=False),
    "Binomial": lambda d, t: d.Binomial(t([3.0, 4.0]), t([0.2, 0.7]), validate_args=False),
    "NegativeBinomial": lambda d, t: d.NegativeBinomial(t([3.0, 4.0]), t([0.2, 0.7]),
                                                        validate_args=False),
    "HalfCauchy": lambda d, t: d.HalfCauchy(t([1.0, 2.0], "float32"), validate_args=False),
    "RelaxedOneHotCategorical": lambda d, t: d.RelaxedOneHotCategorical(
        0.5, t([0.2, 0.8]), validate_args=False),
}


def test_half_cauchy_takes_a_number_in_its_scales_dtype():
    d = _OF_A_NUMBER["HalfCauchy"](tapegrad.distributions, lambda v, dt="float64":
                                   _t(tapegrad, v, dt))
    assert d.log_prob(1.0).dtype == tapegrad.float32
    assert d.log_prob(_t(tapegrad, [1.0, -1.0])).dtype == tapegrad.float32
    assert float(d.log_prob(-1.0)[0]) == -math.inf


@needs_torch
@pytest.mark.parametrize("name", sorted(_OF_A_NUMBER))
def test_log_prob_of_a_number_as_torch(name):
    def case(lib):
        d = _OF_A_NUMBER[name](lib.distributions, lambda v, dt="float64": _t(lib, v, dt))
        return d.log_prob(1.0), d.log_prob(_t(lib, [0.5, 1.0]))
    assert_same(case, torch)


@pytest.mark.parametrize("name, missing", [
    ("Laplace", "2 required positional arguments: 'loc' and 'scale'"),
    ("Cauchy", "2 required positional arguments: 'loc' and 'scale'"),
    ("HalfNormal", "1 required positional argument: 'scale'"),
    ("HalfCauchy", "1 required positional argument: 'scale'"),
    ("NegativeBinomial", "1 required positional argument: 'total_count'")])
def test_a_missing_parameter_names_the_distribution(name, missing):
    with pytest.raises(TypeError, match=rf"^{name}\.__init__\(\) missing {missing}$"):
        getattr(tapegrad.distributions, name)()


def test_relaxed_bernoulli_log_prob_of_an_integer_value_fails_in_finfo():
    d = tapegrad.distributions.RelaxedBernoulli(tapegrad.tensor(0.5), tapegrad.tensor(0.3))
    with pytest.raises(TypeError, match=r"^torch.finfo\(\) requires a floating point input type"):
        d.log_prob(tapegrad.tensor([0, 1]))


@needs_torch
@pytest.mark.parametrize("va", [False, True])
def test_relaxed_bernoulli_of_an_integer_value_as_torch(va):
    assert_same(lambda lib: lib.distributions.RelaxedBernoulli(
        lib.tensor(0.5), lib.tensor(0.3), validate_args=va).log_prob(lib.tensor([0, 1])), torch)


def test_multinomial_refuses_a_negative_total_count_when_made():
    with pytest.raises(ValueError, match=r"^Expected parameter total_count .* of distribution "
                                         r"Binomial\("):
        tapegrad.distributions.Multinomial(-1, tapegrad.tensor([0.2, 0.8]), validate_args=False)


@needs_torch
@pytest.mark.parametrize("total_count", [-1, 0, 3])
def test_multinomial_total_count_as_torch(total_count):
    assert_same(lambda lib: lib.distributions.Multinomial(
        total_count, lib.tensor([0.2, 0.8]), validate_args=False).mean, torch)


def _gamma_underflow(lib):
    lib.manual_seed(0)
    concentration = lib.tensor([1e-3, 0.01, 2.0], requires_grad=True)
    d = lib.distributions.Gamma(concentration, lib.tensor([1e30, 1e38, 3.0]))
    sample = d.rsample((2,))
    return sample, lib.autograd.grad(sample.sum(), concentration)[0]


def test_a_gamma_sample_is_at_least_tiny():
    sample, _ = _gamma_underflow(tapegrad)
    assert float(sample.detach()[:, :2].min()) == float(np.finfo(np.float32).tiny)
    assert sample.grad_fn.name() == "DivBackward0"


@needs_torch
def test_gamma_underflow_as_torch():
    assert_same(_gamma_underflow, torch)
    assert_same(lambda lib: (lib.manual_seed(1), lib.distributions.NegativeBinomial(
        lib.tensor([2.6, 2.0, 0.27]), logits=lib.tensor([-3.2, -0.5, -math.inf])).sample((2,)))[1],
        torch)


_MATRICES = [[[7.74, -2.43], [-2.43, math.inf]], [[math.nan, 0.0], [0.0, 1.0]],
             [[1.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [1.0, 1.0 + 1e-15]], [[1e-300, 0.0], [0.0, 1.0]],
             [[2.0, 1.0], [1.0, 2.0]]]


def test_positive_definite_asks_cholesky():
    check = tapegrad.distributions.constraints.positive_definite.check
    got = [bool(check(_t(tapegrad, m))) for m in _MATRICES]
    assert got == [True, False, False, True, True, True]
    assert [bool(check(_t(tapegrad, m, "float32"))) for m in _MATRICES[3:5]] == [False, False]


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_positive_definite_as_torch(dtype):
    assert_same(lambda lib: lib.distributions.constraints.positive_definite.check(
        _t(lib, _MATRICES, dtype)), torch)
    assert_same(lambda lib: lib.distributions.Wishart(
        4.6, covariance_matrix=_t(lib, [[5.9, 0.9], [0.9, 2.3]], dtype),
        validate_args=True).log_prob(_t(lib, _MATRICES[0], dtype)), torch)


# -- Dirichlet and Beta rsample gradients: ATen's _dirichlet_grad --------------------------------

def _dirichlet_rsample_grad(lib, dtype="float64"):
    lib.manual_seed(0)
    concentration = _t(lib, [[0.3, 2.0, 9.0], [7.0, 8.0, 0.05]], dtype).requires_grad_()
    x = lib.distributions.Dirichlet(concentration).rsample()
    weights = _t(lib, [[1.0, -2.0, 0.5], [0.3, 1.0, -1.0]], dtype)
    return x, lib.autograd.grad((x * weights).sum(), concentration)[0]


def test_dirichlet_rsample_gradient_is_atens():
    _, grad = _dirichlet_rsample_grad(tapegrad)
    np.testing.assert_allclose(grad.numpy(), [[1.56763668e-05, -1.32466648e-01, 1.62532099e-02],
                                              [-2.66808669e-02, 2.15681242e-02, -6.51497564e-03]],
                               rtol=1e-7)


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dirichlet_and_beta_rsample_gradients_as_torch(dtype):
    assert_same(lambda lib: _dirichlet_rsample_grad(lib, dtype), torch)

    def beta(lib):
        lib.manual_seed(1)
        a = _t(lib, [0.5, 3.0, 20.0, 0.05], dtype).requires_grad_()
        b = _t(lib, [2.0, 0.7, 30.0, 1.0], dtype).requires_grad_()
        x = lib.distributions.Beta(a, b).rsample((3,))
        return (x,) + lib.autograd.grad(x.sum(), (a, b))
    assert_same(beta, torch)
