"""Distributions: log_prob, entropy, moments and KL equal PyTorch's (values and gradients),
reparameterized samples are differentiable, sampling follows tapegrad's generator, validation
errors are PyTorch's."""
import math

import numpy as np
import pytest

import tapegrad
from tapegrad import distributions as D

RNG = np.random.default_rng(0)
LOC = RNG.standard_normal(4)
SCALE = RNG.uniform(0.5, 2.0, 4)
LOW = RNG.uniform(-1.0, 0.0, 4)
HIGH = LOW + RNG.uniform(0.5, 2.0, 4)
PROBS = RNG.uniform(0.05, 0.95, 4)
LOGITS_2D = RNG.standard_normal((3, 5))
OTHER_LOGITS_2D = RNG.standard_normal((3, 5))


def _params(library, *arrays):
    return [library.tensor(a, dtype=library.float64, requires_grad=True) for a in arrays]


# Each case: (parameters, build(distributions, *params), value array or None, other params for KL)
CASES = {
    "normal": ((LOC, SCALE), lambda d, loc, scale: d.Normal(loc, scale),
               RNG.standard_normal(4)),
    "normal-broadcast": ((LOC, SCALE[:1]), lambda d, loc, scale: d.Normal(loc, scale),
                         RNG.standard_normal((2, 4))),
    "uniform": ((LOW, HIGH), lambda d, low, high: d.Uniform(low, high),
                LOW + 0.3 * (HIGH - LOW)),
    "bernoulli-probs": ((PROBS,), lambda d, probs: d.Bernoulli(probs=probs),
                        np.array([0.0, 1.0, 1.0, 0.0])),
    "bernoulli-logits": ((LOC,), lambda d, logits: d.Bernoulli(logits=logits),
                         np.array([1.0, 1.0, 0.0, 0.0])),
    "categorical-probs": ((np.exp(LOGITS_2D),), lambda d, probs: d.Categorical(probs=probs),
                          np.array([[0, 4, 2], [1, 1, 3]])),
    "categorical-logits": ((LOGITS_2D,), lambda d, logits: d.Categorical(logits=logits),
                           np.array([4, 0, 3])),
}


def _evaluate(library, name):
    """log_prob, entropy and moments, and the gradients of their sum w.r.t. the parameters."""
    arrays, build, value = CASES[name]
    params = _params(library, *arrays)
    dist = build(library.distributions, *params)
    value_tensor = library.tensor(value, dtype=library.int64 if "categorical" in name
                                  else library.float64)
    outputs = [dist.log_prob(value_tensor), dist.entropy()]
    if "categorical" in name:
        outputs += [dist.probs, dist.logits]
    else:
        outputs += [dist.mean, dist.variance, dist.stddev]
    if "bernoulli" in name:
        outputs += [dist.probs, dist.logits]
    total = sum(o.sum() for o in outputs)
    grads = library.autograd.grad(total, params)
    return ([o.detach().numpy() for o in outputs], [g.numpy() for g in grads],
            tuple(dist.batch_shape), tuple(dist.event_shape))


@pytest.mark.parametrize("name", CASES)
def test_values_and_gradients_equal_pytorchs(name):
    torch = pytest.importorskip("torch")
    our_outputs, our_grads, our_batch, our_event = _evaluate(tapegrad, name)
    their_outputs, their_grads, their_batch, their_event = _evaluate(torch, name)
    assert (our_batch, our_event) == (their_batch, their_event)
    for ours, theirs in zip(our_outputs + our_grads, their_outputs + their_grads):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_normal_log_prob_is_the_gaussian_density():
    dist = D.Normal(tapegrad.tensor(LOC), tapegrad.tensor(SCALE))
    x = RNG.standard_normal(4)
    expected = -(x - LOC) ** 2 / (2 * SCALE ** 2) - np.log(SCALE * math.sqrt(2 * math.pi))
    np.testing.assert_allclose(dist.log_prob(tapegrad.tensor(x)).numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(dist.entropy().numpy(),
                               0.5 * np.log(2 * math.pi * math.e * SCALE ** 2), rtol=1e-12)
    np.testing.assert_allclose(dist.cdf(tapegrad.tensor(LOC)).numpy(), 0.5, rtol=1e-12)


def test_rsample_is_differentiable_through_the_reparameterization():
    loc, scale = _params(tapegrad, LOC, SCALE)
    tapegrad.manual_seed(3)
    sample = D.Normal(loc, scale).rsample((5,))
    assert sample.shape == (5, 4) and sample.requires_grad
    sample.sum().backward()
    noise = (sample.detach().numpy() - LOC) / SCALE
    np.testing.assert_allclose(loc.grad.numpy(), [5.0] * 4)
    np.testing.assert_allclose(scale.grad.numpy(), noise.sum(0), rtol=1e-10)
    low, high = _params(tapegrad, LOW, HIGH)
    uniform_sample = D.Uniform(low, high).rsample()
    uniform_sample.sum().backward()
    fraction = (uniform_sample.detach().numpy() - LOW) / (HIGH - LOW)
    np.testing.assert_allclose(high.grad.numpy(), fraction, rtol=1e-10)
    np.testing.assert_allclose(low.grad.numpy(), 1 - fraction, rtol=1e-10)


def test_sample_is_not_differentiable_and_follows_the_seed():
    loc, scale = _params(tapegrad, LOC, SCALE)
    dist = D.Normal(loc, scale)
    tapegrad.manual_seed(7)
    first = dist.sample((3,))
    tapegrad.manual_seed(7)
    again = dist.sample((3,))
    assert not first.requires_grad and first.shape == (3, 4)
    np.testing.assert_array_equal(first.numpy(), again.numpy())


@pytest.mark.parametrize("build, mean, variance", [
    (lambda: D.Normal(tapegrad.tensor(1.5), tapegrad.tensor(0.5)), 1.5, 0.25),
    (lambda: D.Uniform(tapegrad.tensor(-1.0), tapegrad.tensor(3.0)), 1.0, 16 / 12),
    (lambda: D.Bernoulli(probs=tapegrad.tensor(0.3)), 0.3, 0.21),
    (lambda: D.Categorical(probs=tapegrad.tensor([0.2, 0.5, 0.3])), 1.1, 0.49),
])
def test_sample_moments_match_the_distribution(build, mean, variance):
    tapegrad.manual_seed(0)
    samples = build().sample((20000,)).double().numpy()
    assert samples.shape == (20000,)
    assert abs(samples.mean() - mean) < 5 * math.sqrt(variance / 20000)
    assert abs(samples.var() - variance) < 0.05 * variance


def test_sample_shapes_follow_sample_batch_and_event_shapes():
    categorical = D.Categorical(logits=tapegrad.zeros(3, 5))
    assert categorical.batch_shape == (3,) and categorical.event_shape == ()
    assert categorical.sample().shape == (3,)
    assert categorical.sample((2, 4)).shape == (2, 4, 3)
    assert categorical.sample().dtype == tapegrad.int64
    assert D.Bernoulli(probs=tapegrad.full((2, 3), 0.5)).sample((4,)).shape == (4, 2, 3)
    assert D.Normal(0.0, 1.0).sample().shape == ()
    assert D.Uniform(tapegrad.zeros(2), 1.0).rsample((3,)).shape == (3, 2)


_FACTOR = RNG.standard_normal((3, 3))
COVARIANCE = _FACTOR @ _FACTOR.T + np.eye(3)
MVN_LOC = RNG.standard_normal((2, 3))
MVN_VALUE = RNG.standard_normal((4, 2, 3))


def _mvn(library, name):
    """log_prob, entropy, moments and their gradients, for one way of giving the covariance."""
    loc, covariance = _params(library, MVN_LOC, COVARIANCE)
    matrix = covariance if name != "scale_tril" else library.linalg.cholesky(covariance)
    dist = library.distributions.MultivariateNormal(loc, **{name: matrix})
    outputs = [dist.log_prob(library.tensor(MVN_VALUE)), dist.entropy(), dist.mean,
               dist.variance, dist.covariance_matrix, dist.precision_matrix, dist.scale_tril]
    grads = library.autograd.grad(sum(o.sum() for o in outputs), [loc, covariance])
    arrays = [o.detach().numpy() for o in outputs] + [g.numpy() for g in grads]
    return arrays, tuple(dist.batch_shape), tuple(dist.event_shape), repr(dist)


@pytest.mark.parametrize("name", ["covariance_matrix", "precision_matrix", "scale_tril"])
def test_multivariate_normal_equals_pytorchs(name):
    torch = pytest.importorskip("torch")
    ours, theirs = _mvn(tapegrad, name), _mvn(torch, name)
    assert ours[1:] == theirs[1:]
    for a, b in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


def test_multivariate_normal_rsample_has_the_covariance():
    factor = tapegrad.linalg.cholesky(tapegrad.tensor(COVARIANCE))
    loc = tapegrad.tensor(MVN_LOC[0], requires_grad=True)
    tapegrad.manual_seed(0)
    samples = D.MultivariateNormal(loc, scale_tril=factor).rsample((20000,))
    assert samples.shape == (20000, 3)
    np.testing.assert_allclose(np.cov(samples.detach().numpy().T), COVARIANCE, atol=0.15)
    samples.sum().backward()
    np.testing.assert_allclose(loc.grad.numpy(), [20000.0] * 3)


KL_CASES = {
    "normal": (lambda d, a, b: d.Normal(a, b.exp()), (LOC, SCALE), (SCALE, LOC)),
    "categorical": (lambda d, logits: d.Categorical(logits=logits), (LOGITS_2D,),
                    (OTHER_LOGITS_2D,)),
    "bernoulli": (lambda d, logits: d.Bernoulli(logits=logits), (LOC,), (SCALE,)),
    "uniform": (lambda d, low, high: d.Uniform(low, high), (LOW, HIGH), (LOW - 0.5, HIGH)),
    "multivariate-normal": (lambda d, loc, factor: d.MultivariateNormal(
        loc, scale_tril=factor.tril(-1) + factor.diagonal().exp().diag()),
        (MVN_LOC, _FACTOR), (MVN_LOC[:1] * 2, _FACTOR.T)),
}


def _kl(library, name):
    build, p_arrays, q_arrays = KL_CASES[name]
    p_params, q_params = _params(library, *p_arrays), _params(library, *q_arrays)
    d = library.distributions
    kl = d.kl_divergence(build(d, *p_params), build(d, *q_params))
    grads = library.autograd.grad(kl.sum(), p_params + q_params)
    return [kl.detach().numpy()] + [g.numpy() for g in grads]


@pytest.mark.parametrize("name", KL_CASES)
def test_kl_divergence_equals_pytorchs(name):
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_kl(tapegrad, name), _kl(torch, name)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_kl_divergence_is_zero_for_equal_and_infinite_for_disjoint_supports():
    p = D.Categorical(probs=tapegrad.tensor([0.5, 0.5, 0.0]))
    np.testing.assert_allclose(D.kl_divergence(p, p).numpy(), 0.0, atol=1e-12)
    q = D.Categorical(probs=tapegrad.tensor([1.0, 0.0, 0.0]))
    assert D.kl_divergence(p, q).item() == math.inf
    assert D.kl_divergence(q, p).item() == pytest.approx(math.log(2))
    normal = D.Normal(tapegrad.tensor(0.3), tapegrad.tensor(1.7))
    assert D.kl_divergence(normal, normal).item() == pytest.approx(0.0, abs=1e-7)


def test_kl_divergence_of_an_unregistered_pair_raises():
    with pytest.raises(NotImplementedError, match="No KL\\(p \\|\\| q\\) is implemented for p "
                                                  "type Normal and q type Categorical"):
        D.kl_divergence(D.Normal(0.0, 1.0), D.Categorical(tapegrad.tensor([0.5, 0.5])))


@pytest.mark.parametrize("call", [
    lambda d, lib: d.Normal(lib.tensor(0.0), lib.tensor(-1.0)),
    lambda d, lib: d.Normal(0.0, 1.0).log_prob(1.0),
    lambda d, lib: d.Bernoulli(lib.tensor(0.3)).log_prob(lib.tensor(0.5)),
    lambda d, lib: d.Bernoulli(lib.tensor(1.3)),
    lambda d, lib: d.Uniform(lib.tensor(0.0), lib.tensor(0.0)),
    lambda d, lib: d.Uniform(0.0, 1.0).log_prob(lib.tensor(2.0)),
    lambda d, lib: d.Categorical(),
    lambda d, lib: d.Categorical(probs=lib.tensor(0.5)),
    lambda d, lib: d.Categorical(probs=lib.tensor([0.5, -0.5, 1.0])),
    lambda d, lib: d.Categorical(logits=lib.zeros(3)).log_prob(lib.tensor(3)),
    lambda d, lib: d.Normal(lib.zeros(3), 1.0).log_prob(lib.zeros(2)),
    lambda d, lib: d.MultivariateNormal(lib.zeros(2), lib.tensor([[1.0, 2.0], [2.0, 1.0]])),
    lambda d, lib: d.MultivariateNormal(lib.zeros(2), scale_tril=lib.tensor([[1.0, 2.0],
                                                                             [0.0, 1.0]])),
    lambda d, lib: d.MultivariateNormal(lib.zeros(2)),
    lambda d, lib: d.MultivariateNormal(lib.zeros(2), lib.eye(2)).log_prob(lib.zeros(3)),
])
def test_validation_errors_equal_pytorchs(call):
    torch = pytest.importorskip("torch")
    with pytest.raises(ValueError) as theirs:
        call(torch.distributions, torch)
    with pytest.raises(ValueError) as ours:
        call(D, tapegrad)
    assert str(ours.value) == str(theirs.value)


def test_validation_can_be_turned_off():
    dist = D.Normal(tapegrad.tensor(0.0), tapegrad.tensor(-1.0), validate_args=False)
    assert dist.scale.item() == -1.0


def test_repr_equals_pytorchs():
    torch = pytest.importorskip("torch")
    for build in (lambda d, lib: d.Normal(lib.zeros(2), 1.0),
                  lambda d, lib: d.Normal(0.0, 1.0),
                  lambda d, lib: d.Categorical(logits=lib.zeros(3)),
                  lambda d, lib: d.Bernoulli(probs=lib.tensor(0.25)),
                  lambda d, lib: d.Uniform(lib.zeros(2), lib.ones(2)),
                  lambda d, lib: d.MultivariateNormal(lib.zeros(2), lib.eye(2))):
        assert repr(build(D, tapegrad)) == repr(build(torch.distributions, torch))
