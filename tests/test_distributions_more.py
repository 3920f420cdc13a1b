"""The distributions beyond the basic ones (continuous, discrete, relaxed, transformed, mixture,
independent): log_prob, entropy, moments, cdf/icdf and KL equal PyTorch's in value and gradient;
samples have the right shapes and moments; reprs, shapes and validation errors are PyTorch's."""
import math

import numpy as np
import pytest

import tapegrad
from tapegrad import distributions as D
from tapegrad.ops import PRIMITIVES

RNG = np.random.default_rng(1)
LOC = RNG.standard_normal(3)
SCALE = RNG.uniform(0.5, 2.0, 3)
POS = RNG.uniform(0.5, 3.0, 3)
POS2 = RNG.uniform(0.5, 3.0, 3)
PROBS = RNG.uniform(0.1, 0.9, 3)
UNIT = RNG.uniform(0.1, 0.9, 3)
REAL = RNG.standard_normal(3)
LOGITS = RNG.standard_normal((3, 4))
ONE_HOT = np.eye(4)[[0, 3, 1]]
COUNTS = np.array([[1.0, 0.0, 2.0, 2.0], [0.0, 5.0, 0.0, 0.0], [3.0, 1.0, 1.0, 0.0]])
DF = RNG.uniform(2.5, 6.0, 3)

# name: (parameter arrays, build(distributions, *params), value array, what to compare)
MOMENTS = ("mean", "mode", "variance", "entropy")
CDFS = ("cdf", "icdf")
CASES = {
    "exponential": ((POS,), lambda d, r: d.Exponential(r), POS2, MOMENTS + CDFS),
    "laplace": ((LOC, SCALE), lambda d, m, s: d.Laplace(m, s), REAL, MOMENTS + CDFS),
    "cauchy": ((LOC, SCALE), lambda d, m, s: d.Cauchy(m, s), REAL, ("mode", "entropy") + CDFS),
    "gumbel": ((LOC, SCALE), lambda d, m, s: d.Gumbel(m, s), REAL, MOMENTS + CDFS),
    "half-normal": ((SCALE,), lambda d, s: d.HalfNormal(s), POS, MOMENTS + CDFS),
    "half-cauchy": ((SCALE,), lambda d, s: d.HalfCauchy(s), POS, ("mode", "entropy") + CDFS),
    "log-normal": ((LOC, SCALE), lambda d, m, s: d.LogNormal(m, s), POS, MOMENTS + CDFS),
    "student-t": ((DF, LOC, SCALE), lambda d, df, m, s: d.StudentT(df, m, s), REAL, MOMENTS),
    "student-t-heavy-tails": ((np.array([0.8, 1.5, 3.0]), LOC, SCALE),
                              lambda d, df, m, s: d.StudentT(df, m, s), REAL, MOMENTS),
    "chi2": ((DF,), lambda d, df: d.Chi2(df), POS, MOMENTS),
    "weibull": ((SCALE, POS), lambda d, s, k: d.Weibull(s, k), POS2, MOMENTS + CDFS),
    "pareto": ((SCALE, DF), lambda d, s, a: d.Pareto(s, a), SCALE + POS, MOMENTS + CDFS),
    "kumaraswamy": ((POS, POS2), lambda d, a, b: d.Kumaraswamy(a, b), UNIT, MOMENTS),
    "von-mises": ((LOC, POS), lambda d, m, k: d.VonMises(m, k), REAL, ("mean", "mode",
                                                                        "variance")),
    "fisher-snedecor": ((DF + 2, DF + 3), lambda d, a, b: d.FisherSnedecor(a, b), POS,
                        ("mean", "mode", "variance")),
    "fisher-snedecor-small-dfs": ((np.array([1.5, 2.5, 3.0]), np.array([1.5, 3.0, 4.5])),
                                  lambda d, a, b: d.FisherSnedecor(a, b), POS,
                                  ("mean", "mode", "variance")),
    "gamma": ((POS, POS2), lambda d, a, b: d.Gamma(a, b), POS, MOMENTS),
    "inverse-gamma": ((POS + 2, POS2), lambda d, a, b: d.InverseGamma(a, b), POS, MOMENTS),
    "logistic-normal": ((LOC, SCALE), lambda d, m, s: d.LogisticNormal(m, s),
                        np.array([0.1, 0.2, 0.3, 0.4]), ()),
    "poisson": ((POS,), lambda d, r: d.Poisson(r), np.array([0.0, 2.0, 5.0]),
                ("mean", "mode", "variance")),
    "binomial": ((PROBS,), lambda d, p: d.Binomial(5, probs=p), np.array([0.0, 2.0, 5.0]),
                 MOMENTS),
    "binomial-logits": ((REAL,), lambda d, l: d.Binomial(4, logits=l),
                        np.array([1.0, 4.0, 0.0]), MOMENTS),
    "geometric": ((PROBS,), lambda d, p: d.Geometric(probs=p), np.array([0.0, 3.0, 1.0]),
                  MOMENTS),
    "geometric-logits": ((REAL,), lambda d, l: d.Geometric(logits=l), np.array([2.0, 0.0, 1.0]),
                         MOMENTS),
    "negative-binomial": ((POS, PROBS), lambda d, n, p: d.NegativeBinomial(n, probs=p),
                          np.array([0.0, 3.0, 1.0]), ("mean", "mode", "variance")),
    "multinomial": ((np.exp(LOGITS),), lambda d, p: d.Multinomial(5, probs=p), COUNTS,
                    ("mean", "variance", "entropy")),
    "one-hot-categorical": ((LOGITS,), lambda d, l: d.OneHotCategorical(logits=l), ONE_HOT,
                            MOMENTS),
    "relaxed-bernoulli": ((np.array(0.7), PROBS),
                          lambda d, t, p: d.RelaxedBernoulli(t, probs=p), UNIT, ()),
    "relaxed-one-hot": ((np.array(0.5), LOGITS),
                        lambda d, t, l: d.RelaxedOneHotCategorical(t, logits=l),
                        np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True), ()),
    "continuous-bernoulli": ((PROBS,), lambda d, p: d.ContinuousBernoulli(probs=p), UNIT,
                             ("mean", "variance", "entropy") + CDFS),
    "continuous-bernoulli-taylor": ((np.array([0.4995, 0.5, 0.5004]),),
                                    lambda d, p: d.ContinuousBernoulli(probs=p), UNIT,
                                    ("mean", "variance", "entropy") + CDFS),
    "independent-normal": ((LOC, SCALE), lambda d, m, s: d.Independent(d.Normal(m, s), 1),
                           REAL, MOMENTS),
    "mixture": ((LOGITS[0], LOGITS[1], np.abs(LOGITS[2]) + 0.5),
                lambda d, w, m, s: d.MixtureSameFamily(d.Categorical(logits=w), d.Normal(m, s)),
                REAL, ("mean", "variance", "cdf")),
    "lowrank-mvn": ((LOC, LOGITS[:, :2], POS), lambda d, m, w, s:
                    d.LowRankMultivariateNormal(m, w, s), REAL, MOMENTS),
    "transformed-tanh": ((LOC, SCALE), lambda d, m, s: d.TransformedDistribution(
        d.Normal(m, s), [d.transforms.TanhTransform(), d.transforms.AffineTransform(1.0, 2.0)]),
        UNIT + 0.5, CDFS),
    "transformed-decreasing": ((LOC, SCALE), lambda d, m, s: d.TransformedDistribution(
        d.Normal(m, s), [d.transforms.ExpTransform(), d.transforms.AffineTransform(0.0, -1.0)]),
        -POS, CDFS),
    "transformed-stick-breaking": ((LOC, SCALE), lambda d, m, s: d.TransformedDistribution(
        d.Independent(d.Normal(m, s), 1), d.transforms.StickBreakingTransform()),
        np.array([0.1, 0.2, 0.3, 0.4]), ()),
}


def _evaluate(library, name):
    """log_prob and the chosen properties, and the gradients of their sum w.r.t. the
    parameters."""
    arrays, build, value, checks = CASES[name]
    params = [library.tensor(a, dtype=library.float64, requires_grad=True) for a in arrays]
    dist = build(library.distributions, *params)
    value_tensor = library.tensor(value, dtype=library.float64)
    outputs = [dist.log_prob(value_tensor)]
    for check in checks:
        if check == "cdf":
            outputs.append(dist.cdf(value_tensor))
        elif check == "icdf":
            outputs.append(dist.icdf(library.tensor(UNIT, dtype=library.float64)))
        elif check == "entropy":
            outputs.append(dist.entropy())
        else:
            outputs.append(getattr(dist, check))
    finite = [o for o in outputs if o.requires_grad]
    total = sum(library.where(o.isfinite(), o, library.zeros_like(o)).sum() for o in finite)
    grads = library.autograd.grad(total, params, allow_unused=True)
    return ([o.detach().numpy() for o in outputs],
            [np.zeros(1) if g is None else g.numpy() for g in grads],
            (tuple(dist.batch_shape), tuple(dist.event_shape)))


@pytest.mark.parametrize("name", CASES)
def test_values_and_gradients_equal_pytorchs(name):
    torch = pytest.importorskip("torch")
    ours, our_grads, our_shapes = _evaluate(tapegrad, name)
    theirs, their_grads, their_shapes = _evaluate(torch, name)
    assert our_shapes == their_shapes
    for mine, expected in zip(ours + our_grads, theirs + their_grads):
        np.testing.assert_allclose(mine, expected, rtol=1e-9, atol=1e-12)


def _exponential(d, rate):
    return d.Exponential(rate)


def _gamma(d, a, b):
    return d.Gamma(a, b)


def _normal(d, m, s):
    return d.Normal(m, s)


def _laplace(d, m, s):
    return d.Laplace(m, s)


# name: (build p, p's parameter arrays, build q, q's parameter arrays)
KL_CASES = {
    "exponential": (_exponential, (POS,), _exponential, (POS2,)),
    "gamma": (_gamma, (POS, POS2), _gamma, (POS2, DF)),
    "chi2": (lambda d, df: d.Chi2(df), (DF,), lambda d, df: d.Chi2(df), (POS,)),
    "beta": (lambda d, a, b: d.Beta(a, b), (POS, POS2), lambda d, a, b: d.Beta(a, b), (DF, POS)),
    "dirichlet": (lambda d, c: d.Dirichlet(c), (np.exp(LOGITS),), lambda d, c: d.Dirichlet(c),
                  (np.exp(-LOGITS),)),
    "laplace": (_laplace, (LOC, SCALE), _laplace, (REAL, POS)),
    "cauchy": (lambda d, m, s: d.Cauchy(m, s), (LOC, SCALE), lambda d, m, s: d.Cauchy(m, s),
               (REAL, POS)),
    "gumbel": (lambda d, m, s: d.Gumbel(m, s), (LOC, SCALE), lambda d, m, s: d.Gumbel(m, s),
               (REAL, POS)),
    "half-normal": (lambda d, s: d.HalfNormal(s), (SCALE,), lambda d, s: d.HalfNormal(s), (POS,)),
    "log-normal": (lambda d, m, s: d.LogNormal(m, s), (LOC, SCALE),
                   lambda d, m, s: d.LogNormal(m, s), (REAL, POS)),
    "pareto": (lambda d, s, a: d.Pareto(s, a), (SCALE, POS), lambda d, s, a: d.Pareto(s, a),
               (POS2, DF)),
    "poisson": (lambda d, r: d.Poisson(r), (POS,), lambda d, r: d.Poisson(r), (POS2,)),
    "binomial": (lambda d, p: d.Binomial(6, probs=p), (PROBS,),
                 lambda d, p: d.Binomial(6, probs=p), (UNIT,)),
    "geometric": (lambda d, p: d.Geometric(probs=p), (PROBS,), lambda d, p: d.Geometric(probs=p),
                  (UNIT,)),
    "one-hot": (lambda d, l: d.OneHotCategorical(logits=l), (LOGITS,),
                lambda d, l: d.OneHotCategorical(logits=l), (-LOGITS,)),
    "continuous-bernoulli": (lambda d, p: d.ContinuousBernoulli(p), (PROBS,),
                             lambda d, p: d.ContinuousBernoulli(p), (UNIT,)),
    "independent": (lambda d, m, s: d.Independent(d.Normal(m, s), 1), (LOC, SCALE),
                    lambda d, m, s: d.Independent(d.Normal(m, s), 1), (REAL, POS)),
    "lowrank-mvn": (lambda d, m, w, s: d.LowRankMultivariateNormal(m, w, s),
                    (LOC, LOGITS[:, :2], POS),
                    lambda d, m, w, s: d.LowRankMultivariateNormal(m, w, s),
                    (REAL, LOGITS[:, 2:], POS2)),
    "exponential-gamma": (_exponential, (POS,), _gamma, (POS2, DF)),
    "gamma-exponential": (_gamma, (POS, POS2), _exponential, (DF,)),
    "exponential-normal": (_exponential, (POS,), _normal, (LOC, SCALE)),
    "laplace-normal": (_laplace, (LOC, SCALE), _normal, (REAL, POS)),
    "normal-laplace": (_normal, (LOC, SCALE), _laplace, (REAL, POS)),
    "normal-gumbel": (_normal, (LOC, SCALE), lambda d, m, s: d.Gumbel(m, s), (REAL, POS)),
    "uniform-normal": (lambda d, a, b: d.Uniform(a, b), (LOC, LOC + POS), _normal, (REAL, POS)),
}


def _kl(library, name):
    build_p, p_arrays, build_q, q_arrays = KL_CASES[name]
    p_params = [library.tensor(a, dtype=library.float64, requires_grad=True) for a in p_arrays]
    q_params = [library.tensor(a, dtype=library.float64, requires_grad=True) for a in q_arrays]
    kl = library.distributions.kl_divergence(build_p(library.distributions, *p_params),
                                             build_q(library.distributions, *q_params))
    finite = library.where(kl.isfinite(), kl, library.zeros_like(kl))
    grads = library.autograd.grad(finite.sum(), p_params + q_params)
    return [kl.detach().numpy()] + [g.numpy() for g in grads]


@pytest.mark.parametrize("name", KL_CASES)
def test_kl_divergence_equals_pytorchs(name):
    pytest.importorskip("torch")
    import torch
    for ours, theirs in zip(_kl(tapegrad, name), _kl(torch, name)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-7, atol=1e-12)  # digamma's derivative


def test_kl_between_different_exponential_families_is_not_implemented():
    with pytest.raises(NotImplementedError, match="different exponential families"):
        D.kl_divergence(D.Poisson(tapegrad.tensor(1.0)), D.Exponential(tapegrad.tensor(1.0)))
    with pytest.raises(NotImplementedError, match="No KL"):
        D.kl_divergence(D.Cauchy(0.0, 1.0), D.Normal(0.0, 1.0))


def test_exponential_family_entropy_is_the_bregman_form():
    """The generic entropy from the natural parameters equals each closed form."""
    for dist in (D.Exponential(tapegrad.tensor(POS)),
                 D.Gamma(tapegrad.tensor(POS), tapegrad.tensor(POS2)),
                 D.Normal(tapegrad.tensor(LOC), tapegrad.tensor(SCALE)),
                 D.Bernoulli(tapegrad.tensor(PROBS)),
                 D.ContinuousBernoulli(tapegrad.tensor(PROBS))):
        np.testing.assert_allclose(D.ExponentialFamily.entropy(dist).detach().numpy(),
                                   dist.entropy().detach().numpy(), rtol=1e-6)


def _t(values):
    return tapegrad.tensor(values, dtype=tapegrad.float64)


# (build, statistic of the samples, its expected value): 40000 draws, fixed seed
SAMPLE_MOMENTS = [
    (lambda: D.Exponential(_t([0.5, 2.0])), None, None),
    (lambda: D.Laplace(_t([0.0, 1.0]), _t([1.0, 0.5])), None, None),
    (lambda: D.Gumbel(_t([0.0, 1.0]), _t([1.0, 0.5])), None, None),
    (lambda: D.HalfNormal(_t([1.0, 2.0])), None, None),
    (lambda: D.LogNormal(_t([0.0, 0.5]), _t([0.5, 0.25])), None, None),
    (lambda: D.StudentT(_t([6.0, 9.0]), _t([1.0, -1.0]), _t([1.0, 2.0])), None, None),
    (lambda: D.Chi2(_t([3.0, 5.0])), None, None),
    (lambda: D.Weibull(_t([1.0, 2.0]), _t([1.5, 3.0])), None, None),
    (lambda: D.Pareto(_t([1.0, 2.0]), _t([5.0, 6.0])), None, None),
    (lambda: D.Kumaraswamy(_t([2.0, 0.5]), _t([3.0, 1.5])), None, None),
    (lambda: D.FisherSnedecor(_t([5.0, 8.0]), _t([10.0, 12.0])), None, None),
    (lambda: D.Poisson(_t([0.5, 4.0])), None, None),
    (lambda: D.Binomial(10, probs=_t([0.2, 0.7])), None, None),
    (lambda: D.Geometric(probs=_t([0.3, 0.8])), None, None),
    (lambda: D.NegativeBinomial(_t([3.0, 1.5]), probs=_t([0.4, 0.6])), None, None),
    (lambda: D.Multinomial(6, probs=_t([0.2, 0.5, 0.3])), None, None),
    (lambda: D.OneHotCategorical(probs=_t([0.2, 0.5, 0.3])), None, None),
    (lambda: D.ContinuousBernoulli(probs=_t([0.2, 0.9])), None, None),
    (lambda: D.LowRankMultivariateNormal(_t([1.0, -1.0]), _t([[1.0], [0.5]]), _t([0.5, 1.0])),
     None, None),
    (lambda: D.MixtureSameFamily(D.Categorical(probs=_t([0.3, 0.7])),
                                 D.Normal(_t([-2.0, 1.0]), _t([0.5, 1.0]))), None, None),
    (lambda: D.Cauchy(_t([1.0, -2.0]), _t([1.0, 0.5])), lambda x: x.median(0)[0],
     np.array([1.0, -2.0])),
    (lambda: D.HalfCauchy(_t([1.0, 2.0])), lambda x: x.median(0)[0], np.array([1.0, 2.0])),
    (lambda: D.VonMises(_t([0.0, 0.0]), _t([0.5, 4.0])), lambda x: x.cos().mean(0),
     1 - D.VonMises(_t([0.0, 0.0]), _t([0.5, 4.0])).variance.numpy()),
    (lambda: D.RelaxedBernoulli(_t(0.5), probs=_t([0.2, 0.7])), lambda x: (x > 0.5).double()
     .mean(0), np.array([0.2, 0.7])),
]


@pytest.mark.parametrize("case", range(len(SAMPLE_MOMENTS)))
def test_samples_have_the_distributions_shape_and_moments(case):
    build, statistic, expected = SAMPLE_MOMENTS[case]
    dist = build()
    tapegrad.manual_seed(case)
    n = 40000
    samples = dist.sample((n,))
    assert samples.shape == (n,) + tuple(dist.batch_shape) + tuple(dist.event_shape)
    assert samples.dtype == tapegrad.float64 and not samples.requires_grad
    assert bool(dist.support.check(samples).all())
    if statistic is not None:
        np.testing.assert_allclose(statistic(samples).numpy(), expected, atol=0.03)
        return
    mean, std = dist.mean.numpy(), dist.stddev.numpy()
    np.testing.assert_allclose(samples.mean(0).numpy(), mean, atol=float(5 * std.max()
                                                                        / math.sqrt(n)))
    np.testing.assert_allclose(samples.std(0).numpy(), std, rtol=0.05)


RSAMPLE_GRADIENTS = {
    "exponential": ((POS,), lambda r: D.Exponential(r)),
    "laplace": ((LOC, SCALE), lambda m, s: D.Laplace(m, s)),
    "gumbel": ((LOC, SCALE), lambda m, s: D.Gumbel(m, s)),
    "half-normal": ((SCALE,), lambda s: D.HalfNormal(s)),
    "log-normal": ((LOC * 0.3, SCALE * 0.3), lambda m, s: D.LogNormal(m, s)),
    "weibull": ((SCALE, POS + 1), lambda s, k: D.Weibull(s, k)),
    "pareto": ((SCALE, DF), lambda s, a: D.Pareto(s, a)),
    "kumaraswamy": ((POS, POS2), lambda a, b: D.Kumaraswamy(a, b)),
    "continuous-bernoulli": ((PROBS,), lambda p: D.ContinuousBernoulli(p)),
    "student-t-location-scale": ((LOC, SCALE), lambda m, s: D.StudentT(_t(DF + 3), m, s)),
    "lowrank-mvn": ((LOC, LOGITS[:, :1], POS), lambda m, w, s:
                    D.LowRankMultivariateNormal(m, w, s)),
    "independent": ((LOC, SCALE), lambda m, s: D.Independent(D.Normal(m, s), 1)),
}


@pytest.mark.parametrize("name", RSAMPLE_GRADIENTS)
def test_rsample_gradient_estimates_the_gradient_of_the_mean(name):
    """The reparameterized samples' mean has (about) the gradient of the analytic mean."""
    arrays, build = RSAMPLE_GRADIENTS[name]
    params = [_t(a).requires_grad_() for a in arrays]
    dist = build(*params)
    assert dist.has_rsample
    tapegrad.manual_seed(5)
    estimate = tapegrad.autograd.grad(dist.rsample((40000,)).mean(0).sum(), params,
                                      retain_graph=True)  # parameters derived in __init__
    exact = tapegrad.autograd.grad(dist.mean.sum(), params, allow_unused=True)
    for ours, expected in zip(estimate, exact):
        expected = 0.0 if expected is None else expected.numpy()
        np.testing.assert_allclose(ours.numpy(), expected, rtol=0.05, atol=0.03)


def test_straight_through_and_relaxed_samples_carry_gradients():
    logits = _t(LOGITS).requires_grad_()
    tapegrad.manual_seed(0)
    sample = D.OneHotCategoricalStraightThrough(logits=logits).rsample((2,))
    assert sample.shape == (2, 3, 4) and sample.requires_grad
    assert set(np.unique(sample.detach().numpy())) <= {0.0, 1.0}
    (sample * _t(np.arange(4.0))).sum().backward()
    probs = np.exp(LOGITS) / np.exp(LOGITS).sum(-1, keepdims=True)
    jacobian_term = probs * (np.arange(4.0) - (probs * np.arange(4.0)).sum(-1, keepdims=True))
    np.testing.assert_allclose(logits.grad.numpy(), 2 * jacobian_term, rtol=1e-10)
    temperature = _t(0.5).requires_grad_()
    relaxed = D.RelaxedOneHotCategorical(temperature, logits=logits).rsample()
    np.testing.assert_allclose(relaxed.sum(-1).detach().numpy(), 1.0, rtol=1e-12)
    relaxed[..., 0].sum().backward()
    assert temperature.grad is not None


def _described(library):
    """Distributions built from the same arguments in either library."""
    t, d = library, library.distributions
    return [
        d.Exponential(t.tensor([1.0, 2.0])), d.Exponential(2.0), d.Laplace(0.0, 1.0),
        d.Cauchy(t.tensor(0.5), 1.0), d.Gumbel(t.zeros(2), t.ones(2)), d.HalfNormal(t.tensor(1.5)),
        d.HalfCauchy(1.0), d.LogNormal(0.0, 1.0), d.StudentT(3.0),
        d.StudentT(t.tensor([3.0, 4.0]), 1.0, 2.0), d.Chi2(t.tensor(2.0)), d.Weibull(1.0, 2.0),
        d.Pareto(1.0, 2.0), d.Kumaraswamy(1.0, 2.0), d.VonMises(t.tensor(0.0), t.tensor(1.0)),
        d.FisherSnedecor(2.0, 3.0), d.Poisson(t.tensor([1.0, 2.0])), d.Poisson(3.0),
        d.InverseGamma(2.0, 1.0), d.LogisticNormal(t.zeros(2, 3), 1.0),
        d.GeneralizedPareto(0.0, 1.0, t.tensor([0.5, -0.5])),
        d.Binomial(5, probs=t.tensor(0.3)),
        d.Binomial(t.tensor([5.0, 6.0]), logits=t.tensor([0.3, 0.1])),
        d.Geometric(probs=t.tensor(0.3)), d.NegativeBinomial(3.0, probs=t.tensor(0.3)),
        d.Multinomial(4, probs=t.tensor([0.2, 0.8])),
        d.OneHotCategorical(probs=t.tensor([0.2, 0.8])),
        d.OneHotCategoricalStraightThrough(logits=t.zeros(2, 3)),
        d.RelaxedBernoulli(t.tensor(0.5), probs=t.tensor(0.3)),
        d.RelaxedOneHotCategorical(t.tensor(0.5), logits=t.zeros(3)),
        d.ContinuousBernoulli(probs=t.tensor(0.3)), d.ContinuousBernoulli(logits=t.zeros(2)),
        d.Independent(d.Normal(t.zeros(2, 3), 1.0), 1),
        d.MixtureSameFamily(d.Categorical(logits=t.zeros(3)), d.Normal(t.zeros(3), t.ones(3))),
        d.LowRankMultivariateNormal(t.zeros(3), t.ones(3, 1), t.ones(3)),
        d.TransformedDistribution(d.Normal(0.0, 1.0), [d.transforms.ExpTransform()]),
    ]


def _description(dist):
    return (repr(dist), tuple(dist.batch_shape), tuple(dist.event_shape), dist.has_rsample,
            dist.has_enumerate_support, repr(dist.support))


def test_reprs_shapes_flags_and_supports_equal_pytorchs():
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_described(tapegrad), _described(torch)):
        if isinstance(theirs, torch.distributions.MixtureSameFamily):
            # PyTorch's MixtureSameFamily.support is a dependent_property of its own
            assert repr(ours) == repr(theirs)
            assert repr(ours.support) == "MixtureSameFamilyConstraint(Real())"
            continue
        assert _description(ours) == _description(theirs)


def _failing(library):
    """Calls that PyTorch refuses (bad parameters or values, wrong shapes or types)."""
    t, d = library, library.distributions
    return [
        lambda: d.Exponential(t.tensor([-1.0, 2.0])),
        lambda: d.Laplace(0.0, -1.0),
        lambda: d.Poisson(t.tensor([-1.0])),
        lambda: d.Binomial(t.tensor(2.5), probs=t.tensor(0.3)),
        lambda: d.Binomial(5),
        lambda: d.Geometric(probs=t.tensor(0.0)),
        lambda: d.Geometric(probs=t.tensor(1.5)),
        lambda: d.Multinomial(2.5, probs=t.tensor([0.5, 0.5])),
        lambda: d.StudentT(t.tensor(-1.0)),
        lambda: d.Pareto(1.0, 0.0),
        lambda: d.LogNormal(0.0, -1.0),
        lambda: d.HalfNormal(-1.0),
        lambda: d.Weibull(1.0, -2.0),
        lambda: d.VonMises(t.tensor(0.0), t.tensor(-1.0)),
        lambda: d.ContinuousBernoulli(probs=t.tensor(1.5), validate_args=True),
        lambda: d.Independent(d.Normal(t.zeros(2), 1.0), 2),
        lambda: d.MixtureSameFamily(d.Normal(0.0, 1.0), d.Normal(t.zeros(3), 1.0)),
        lambda: d.MixtureSameFamily(d.Categorical(logits=t.zeros(2)), d.Normal(t.zeros(3), 1.0)),
        lambda: d.LowRankMultivariateNormal(t.zeros(3), t.ones(2, 1), t.ones(3)),
        lambda: d.TransformedDistribution(d.Normal(0.0, 1.0), "exp"),
        lambda: d.Exponential(1.0).log_prob(t.tensor(-1.0)),
        lambda: d.Poisson(t.tensor(1.0)).log_prob(t.tensor(1.5)),
        lambda: d.Binomial(3, probs=t.tensor(0.5)).log_prob(t.tensor(4.0)),
        lambda: d.OneHotCategorical(probs=t.tensor([0.5, 0.5])).log_prob(t.tensor([1.0, 1.0])),
        lambda: d.Multinomial(3, probs=t.tensor([0.5, 0.5])).log_prob(t.tensor([3.0, 1.0])),
        lambda: d.Pareto(2.0, 1.0).log_prob(t.tensor(1.0)),
        lambda: d.Kumaraswamy(1.0, 2.0).log_prob(t.tensor(1.5)),
        lambda: d.Exponential(t.ones(3)).log_prob(t.ones(2)),
        lambda: d.Binomial(t.tensor([2.0, 3.0]), probs=t.tensor(0.5)).entropy(),
        lambda: d.transforms.ExpTransform(cache_size=2),
        lambda: d.biject_to(d.constraints.boolean),
    ]


def _error(call):
    with pytest.raises(Exception) as info:
        call()
    return type(info.value).__name__, str(info.value)


def test_invalid_arguments_raise_pytorchs_errors():
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_failing(tapegrad), _failing(torch)):
        assert _error(ours) == _error(theirs)


def _transforms(library):
    """(transform, input array) pairs, built alike in either library."""
    t, T = library, library.distributions.transforms
    positive = np.abs(LOGITS) + 0.1
    square = LOGITS[:, :3]
    return [
        (T.ExpTransform(), LOGITS), (T.SigmoidTransform(), LOGITS), (T.TanhTransform(), LOGITS),
        (T.SoftplusTransform(), LOGITS), (T.AffineTransform(1.5, -2.0), LOGITS),
        (T.AffineTransform(t.tensor(LOC[:, None]), t.tensor(POS[:, None])), LOGITS),
        (T.AffineTransform(0.5, t.tensor(POS2[:, None] * np.ones(4)), event_dim=1), LOGITS),
        (T.PowerTransform(t.tensor(POS[:, None])), positive), (T.PowerTransform(2.0).inv, positive),
        (T.ExpTransform().inv, positive), (T.StickBreakingTransform(), LOGITS),
        (T.StickBreakingTransform().inv, positive / positive.sum(-1, keepdims=True)),
        (T.LowerCholeskyTransform(), square), (T.PositiveDefiniteTransform(), square),
        (T.ComposeTransform([T.AffineTransform(0.0, 2.0), T.SigmoidTransform(),
                             T.AffineTransform(-1.0, 2.0)]), LOGITS),
        (T.ComposeTransform([T.ExpTransform(), T.StickBreakingTransform()]), LOGITS),
        (T.IndependentTransform(T.ExpTransform(), 1), LOGITS),
        (T.ReshapeTransform((4,), (2, 2)), LOGITS),
        (T.CatTransform([T.ExpTransform(), T.AffineTransform(1.0, 3.0)], -1, [1, 3]), LOGITS),
        (T.CatTransform([T.SigmoidTransform(), T.ExpTransform()], 0, [2, 1]), LOGITS),
        (T.StackTransform([T.ExpTransform(), T.identity_transform, T.TanhTransform()], 0),
         LOGITS),
        (T.CumulativeDistributionTransform(library.distributions.Normal(0.0, 1.0)), LOGITS),
        (T.identity_transform, LOGITS),
    ]


def _apply(transform, array, library):
    x = library.tensor(array, dtype=library.float64, requires_grad=True)
    y = transform(x)
    inverse = transform.inv(y.detach())
    outputs = [y, inverse]
    if not isinstance(transform, (library.distributions.transforms.PositiveDefiniteTransform,
                                  library.distributions.transforms.LowerCholeskyTransform)):
        outputs.append(transform.log_abs_det_jacobian(x, y))
    total = sum(o.sum() for o in outputs if o.requires_grad)
    (grad,) = library.autograd.grad(total, [x])
    try:
        sign = transform.sign
    except NotImplementedError:
        sign = "not implemented"
    sign = sign.numpy() if hasattr(sign, "numpy") else sign
    return ([o.detach().numpy() for o in outputs] + [grad.numpy()],
            (repr(transform), transform.bijective, repr(transform.domain),
             repr(transform.codomain), tuple(transform.forward_shape(x.shape)),
             tuple(transform.inverse_shape(y.shape))), sign)


def test_transforms_equal_pytorchs():
    torch = pytest.importorskip("torch")
    for (ours, array), (theirs, _) in zip(_transforms(tapegrad), _transforms(torch)):
        our_values, our_facts, our_sign = _apply(ours, array, tapegrad)
        their_values, their_facts, their_sign = _apply(theirs, array, torch)
        assert our_facts == their_facts
        np.testing.assert_array_equal(our_sign, their_sign)
        for mine, expected in zip(our_values, their_values):
            np.testing.assert_allclose(mine, expected, rtol=1e-10, atol=1e-12)


def test_transform_caching_equality_and_inverses():
    T = D.transforms
    exp = T.ExpTransform(cache_size=1)
    x = _t(LOC)
    y = exp(x)
    assert exp(x) is y and exp.inv(y) is x
    assert T.ExpTransform() == T.ExpTransform() and T.ExpTransform() != T.SigmoidTransform()
    assert T.AffineTransform(1.0, 2.0) == T.AffineTransform(1.0, 2.0)
    assert T.AffineTransform(1.0, 2.0) != T.AffineTransform(1.0, 3.0)
    assert exp.inv.inv is exp and T.ExpTransform().inv == T.ExpTransform().inv
    compose = T.ComposeTransform([T.ExpTransform(), T.AffineTransform(0.0, 2.0)])
    assert compose.inv.inv is compose and compose.with_cache(1)._cache_size == 1
    with pytest.raises(ValueError, match="Please use either"):
        _ = T.ReshapeTransform((4,), (2, 2)).event_dim


def _registry_cases(library):
    c = library.distributions.constraints
    return [c.real, c.real_vector, c.positive, c.nonnegative, c.greater_than(2.0),
            c.greater_than_eq(-1.0), c.less_than(3.0), c.unit_interval, c.interval(-1.0, 2.0),
            c.half_open_interval(0.0, 5.0), c.simplex, c.independent(c.positive, 2),
            c.lower_cholesky, c.positive_definite, c.cat([c.positive, c.real], -1, [1, 2]),
            c.stack([c.unit_interval, c.real, c.positive], -1)]


def test_biject_to_and_transform_to_equal_pytorchs():
    torch = pytest.importorskip("torch")
    for registry in ("biject_to", "transform_to"):
        ours_all, theirs_all = _registry_cases(tapegrad), _registry_cases(torch)
        for ours, theirs in zip(ours_all, theirs_all):
            try:
                expected = getattr(torch.distributions, registry)(theirs)
            except NotImplementedError as error:
                with pytest.raises(NotImplementedError, match=str(error)):
                    getattr(D, registry)(ours)
                continue
            transform = getattr(D, registry)(ours)
            assert repr(transform) == repr(expected)
            shape = (3, 3) if ours.event_dim == 2 else (2, 3)
            unconstrained = _t(RNG.standard_normal(shape))
            constrained = transform(unconstrained)
            assert bool(ours.check(constrained).all())
            np.testing.assert_allclose(
                constrained.numpy(), expected(torch.tensor(unconstrained.numpy())).numpy(),
                rtol=1e-12)


def _expandable(library):
    """(distribution, a value in its support) pairs, built alike in either library."""
    t, d = library, library.distributions
    x = t.tensor(UNIT, dtype=t.float64)
    p = t.tensor(PROBS, dtype=t.float64)
    logits = t.tensor(LOGITS, dtype=t.float64)
    return [
        (d.Exponential(p), x), (d.Laplace(x, p), x), (d.Gumbel(x, p), x), (d.HalfNormal(p), x),
        (d.LogNormal(x, p), x), (d.StudentT(p + 2, x, p), x), (d.Chi2(p), x),
        (d.Weibull(p, x + 1), x), (d.Pareto(p * 0.1, x + 1), x), (d.Kumaraswamy(p, x), x),
        (d.VonMises(x, p), x), (d.FisherSnedecor(p + 1, x + 2), x), (d.Poisson(p), x.round()),
        (d.Binomial(3, probs=p), x.round()), (d.Geometric(probs=p), x.round()),
        (d.NegativeBinomial(p, logits=x), x.round()),
        (d.Multinomial(2, logits=logits), t.tensor([1.0, 0.0, 1.0, 0.0])),
        (d.OneHotCategorical(logits=logits), t.tensor(ONE_HOT)),
        (d.RelaxedBernoulli(t.tensor(0.5), probs=p), x),
        (d.RelaxedOneHotCategorical(t.tensor(0.5), logits=logits),
         t.tensor(ONE_HOT * 0.7 + 0.075)),
        (d.ContinuousBernoulli(p), x), (d.Independent(d.Normal(logits, 1.0), 1), logits[0]),
        (d.MixtureSameFamily(d.Categorical(logits=logits), d.Normal(logits, 1.0)), x),
        (d.LowRankMultivariateNormal(x, logits[:, :2], p), x),
    ]


def test_expand_broadcasts_the_batch_like_pytorch():
    torch = pytest.importorskip("torch")
    for (ours, value), (theirs, their_value) in zip(_expandable(tapegrad), _expandable(torch)):
        shape = (2,) + tuple(theirs.batch_shape)
        our_expanded, their_expanded = ours.expand(shape), theirs.expand(shape)
        assert type(our_expanded) is type(ours)
        assert tuple(our_expanded.batch_shape) == tuple(their_expanded.batch_shape) == shape
        assert our_expanded.event_shape == tuple(their_expanded.event_shape)
        assert tuple(our_expanded.sample((5,)).shape) == \
            tuple(their_expanded.sample((5,)).shape)
        np.testing.assert_allclose(our_expanded.log_prob(value).detach().numpy(),
                                   their_expanded.log_prob(their_value).detach().numpy(),
                                   rtol=1e-10)


def test_enumerate_support_equals_pytorchs():
    torch = pytest.importorskip("torch")
    results = []
    for library in (tapegrad, torch):
        d = library.distributions
        probs = library.tensor(PROBS, dtype=library.float64)
        results.append([d.Binomial(3, probs=probs).enumerate_support(),
                        d.Binomial(3, probs=probs).enumerate_support(expand=False),
                        d.OneHotCategorical(probs=probs).enumerate_support(),
                        d.Independent(d.Bernoulli(probs), 0).enumerate_support()])
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    with pytest.raises(NotImplementedError, match="cartesian product"):
        D.Independent(D.Bernoulli(_t(PROBS)), 1).enumerate_support()


def test_transformed_distribution_shapes_follow_its_transforms():
    base = D.Normal(tapegrad.zeros(2, 3), 1.0)
    stick = D.TransformedDistribution(base, D.transforms.StickBreakingTransform())
    assert stick.batch_shape == (2,) and stick.event_shape == (4,)
    assert stick.sample((5,)).shape == (5, 2, 4)
    assert isinstance(stick.base_dist, D.Independent)
    assert repr(stick.support) == "Simplex()"
    broadcast = D.TransformedDistribution(D.Normal(0.0, 1.0),
                                          D.transforms.AffineTransform(tapegrad.zeros(3), 2.0))
    assert broadcast.batch_shape == (3,) and broadcast.base_dist.batch_shape == (3,)


def test_samples_keep_the_parameters_dtype_and_log_prob_takes_them():
    tapegrad.manual_seed(0)
    for dist in _described(tapegrad):
        sample = dist.sample((3,))
        assert sample.dtype == tapegrad.float32
        assert sample.shape == (3,) + tuple(dist.batch_shape) + tuple(dist.event_shape)
        assert dist.log_prob(sample).shape == (3,) + tuple(dist.batch_shape)


def test_constraints_check_and_print_like_pytorchs():
    torch = pytest.importorskip("torch")
    matrices = [[[2.0, 1.0], [1.0, 2.0]], [[1.0, 2.0], [2.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]]]
    vectors = [[0.5, 0.5, 0.0], [1.0, 0.0, 0.0], [2.0, -1.0, 0.0]]
    results = []
    for library in (tapegrad, torch):
        c = library.distributions.constraints
        m, v = library.tensor(matrices), library.tensor(vectors)
        checks = [(c.square, m), (c.symmetric, m), (c.positive_semidefinite, m),
                  (c.positive_definite, m), (c.lower_cholesky, m), (c.lower_triangular, m),
                  (c.simplex, v), (c.one_hot, v), (c.multinomial(2), v), (c.real_vector, v),
                  (c.nonnegative_integer, v), (c.positive_integer, v), (c.nonnegative, v),
                  (c.half_open_interval(0.0, 1.0), v), (c.greater_than_eq(0.5), v),
                  (c.independent(c.positive, 1), v), (c.integer_interval(0, 1), v)]
        results.append([(repr(constraint), constraint.event_dim, constraint.is_discrete,
                         constraint.check(value).tolist()) for constraint, value in checks])
    assert results[0] == results[1]


def test_generalized_pareto_equals_pytorchs():
    """In float32: PyTorch's log_prob fails on float64 parameters (it compares them with a
    float32 zero)."""
    torch = pytest.importorskip("torch")
    results = []
    for library in (tapegrad, torch):
        params = [library.tensor(a, dtype=library.float32, requires_grad=True)
                  for a in (LOC, SCALE, [-0.2, 0.0, 0.3])]
        dist = library.distributions.GeneralizedPareto(*params)
        value = library.tensor(LOC + POS * 0.5, dtype=library.float32)
        outputs = [dist.log_prob(value), dist.cdf(value), dist.icdf(library.tensor(UNIT)),
                   dist.mean, dist.variance, dist.entropy(), dist.support.upper_bound]
        total = sum(o.nan_to_num().sum() for o in outputs[:-1])
        grads = library.autograd.grad(total, params)
        results.append([o.detach().numpy() for o in outputs + list(grads)])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=2e-5, atol=1e-6)


def test_the_gamma_sample_gradient_is_pytorchs():
    """d sample / d concentration in each of PyTorch's three regimes (small x, large alpha, the
    rational fit between)."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    alpha = np.concatenate([rng.uniform(0.05, 20, 300), [0.3, 1.0, 2.5, 10.0, 100.0, 1000.0]])
    x = np.concatenate([rng.gamma(alpha[:300]), [0.2, 1.5, 2.0, 9.0, 110.0, 990.0]])
    ours = PRIMITIVES["standard_gamma_grad"](tapegrad.tensor(x), tapegrad.tensor(alpha))
    theirs = torch._standard_gamma_grad(torch.tensor(alpha), torch.tensor(x))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12)


@pytest.mark.parametrize("make, mean", [
    (lambda a: tapegrad.distributions.Gamma(a, tapegrad.tensor([1.0, 3.0])),
     lambda a: a / tapegrad.tensor([1.0, 3.0])),
    (lambda a: tapegrad.distributions.Beta(a, tapegrad.tensor([2.0, 0.7])),
     lambda a: a / (a + tapegrad.tensor([2.0, 0.7]))),
])
def test_rsample_gradients_reach_the_concentration(make, mean):
    """The sample mean's gradient approaches the analytic mean's (pathwise estimator)."""
    tapegrad.manual_seed(0)
    a = tapegrad.tensor([2.0, 0.5], dtype=tapegrad.float64, requires_grad=True)
    make(a).rsample((20000,)).mean(0).sum().backward()
    b = a.detach().clone().requires_grad_()
    mean(b).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=0.05)
