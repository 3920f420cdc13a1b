"""Fixes found by the Bayesian deep learning programs (tests/programs/bay_*): the multivariate
normal KL broadcasts the two batches through ``q.loc - p.loc`` as PyTorch does (same result
shapes, same error for batches that do not broadcast); ``expand`` of a user's distribution
subclass follows PyTorch (a subclass with its own ``__init__`` must define ``expand``, and a
direct subclass of ``Distribution`` or ``ExponentialFamily`` inherits no ``expand``)."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

A = [[2.0, 0.3, 0.0], [0.3, 1.0, -0.2], [0.0, -0.2, 0.5]]


def _mvn_kl(lib, p_loc_shape, p_batch_cov, q_loc_shape, q_batch_cov):
    """KL between MVNs whose locs and covariances carry their own batch shapes."""
    D = lib.distributions
    cov = lib.tensor(A)
    p_cov = cov.expand(*p_batch_cov, 3, 3)
    q_cov = (2 * lib.eye(3)).expand(*q_batch_cov, 3, 3)
    p_loc = lib.arange(float(np.prod(p_loc_shape))).reshape(p_loc_shape) / 10
    q_loc = lib.ones(q_loc_shape)
    return D.kl_divergence(D.MultivariateNormal(p_loc, p_cov), D.MultivariateNormal(q_loc, q_cov))


@pytest.mark.parametrize("shapes", [
    ((2, 3), (), (4, 3), ()),            # loc batches do not broadcast
    ((2, 3), (2,), (3,), (4,)),          # covariance batches do not broadcast
    ((5, 1, 3), (), (4, 3), (4,)),       # broadcast to (5, 4)
    ((3,), (2,), (3,), ()),              # batch from p's covariance only
    ((2, 1, 3), (), (3, 3), ()),         # batch from the locs only
])
def test_mvn_kl_batch_broadcasting_matches_torch(shapes):
    torch = pytest.importorskip("torch")
    assert_same(lambda lib: _mvn_kl(lib, *shapes), torch)


def test_mvn_kl_broadcast_equals_closed_form_per_pair():
    """Each entry of a broadcast batch is the float64 closed form for its own pair."""
    D = tapegrad.distributions
    p_locs = tapegrad.arange(6.0, dtype=tapegrad.float64).reshape(2, 1, 3) / 10
    f64 = tapegrad.float64
    q_locs = tapegrad.ones(4, 3, dtype=f64) * tapegrad.arange(4.0, dtype=f64)[:, None]
    p_cov = np.array(A)
    q_cov = 2 * np.eye(3)
    kl = D.kl_divergence(D.MultivariateNormal(p_locs, tapegrad.tensor(p_cov)),
                         D.MultivariateNormal(q_locs, tapegrad.tensor(q_cov)))
    assert tuple(kl.shape) == (2, 4)
    q_inv = np.linalg.inv(q_cov)
    for i in range(2):
        for j in range(4):
            d = q_locs.numpy()[j] - p_locs.numpy()[i, 0]
            expected = 0.5 * (np.trace(q_inv @ p_cov) + d @ q_inv @ d - 3
                              + np.log(np.linalg.det(q_cov) / np.linalg.det(p_cov)))
            assert kl[i, j].item() == pytest.approx(expected, rel=1e-10)


def test_mvn_kl_mismatched_batches_raise_size_error():
    D = tapegrad.distributions
    p = D.MultivariateNormal(tapegrad.zeros(2, 3), tapegrad.eye(3))
    q = D.MultivariateNormal(tapegrad.zeros(4, 3), tapegrad.eye(3))
    message = r"size of tensor a \(4\) must match the size of tensor b \(2\)"
    with pytest.raises(RuntimeError, match=message):
        D.kl_divergence(p, q)


def _user_subclass(lib, base_name, custom_init):
    """A subclass of ``lib.distributions.<base_name>`` as a user writes one (e.g. a Bayes by
    Backprop posterior parametrised by rho), with or without its own ``__init__``."""
    D = lib.distributions
    base = getattr(D, base_name)
    if not custom_init:
        return type("My" + base_name, (base,), {})
    softplus = lib.nn.functional.softplus
    inits = {
        "Normal": lambda self, mu, rho: base.__init__(self, mu, softplus(rho)),
        "HalfNormal": lambda self, mu, rho: base.__init__(self, softplus(rho)),
        "RelaxedBernoulli": lambda self, mu, rho: base.__init__(self, lib.tensor(0.5), logits=mu),
        "Bernoulli": lambda self, mu, rho: base.__init__(self, logits=mu),
    }
    return type("My" + base_name, (base,), {"__init__": inits[base_name]})


@pytest.mark.parametrize("base_name", ["Normal", "HalfNormal", "RelaxedBernoulli", "Bernoulli"])
@pytest.mark.parametrize("custom_init", [True, False])
def test_expand_of_user_subclass_matches_torch(base_name, custom_init):
    torch = pytest.importorskip("torch")

    def case(lib):
        cls = _user_subclass(lib, base_name, custom_init)
        dist = cls(lib.zeros(2), lib.ones(2)) if custom_init else _plain(lib, cls, base_name)
        expanded = dist.expand((3, 2))
        assert type(expanded) is cls
        return expanded.log_prob(lib.ones(3, 2) * 0.5), lib.tensor(list(expanded.batch_shape))

    assert_same(case, torch)


def _plain(lib, cls, base_name):
    """An instance of a subclass without its own ``__init__``: the base class's arguments."""
    args = {"Normal": (lib.zeros(2), lib.ones(2)), "HalfNormal": (lib.ones(2),),
            "RelaxedBernoulli": (lib.tensor(0.5), lib.zeros(2)),
            "Bernoulli": (lib.full((2,), 0.3),)}
    return cls(*args[base_name])


def test_direct_subclasses_of_abstract_bases_have_no_expand():
    D = tapegrad.distributions

    class ScaleMixture(D.Distribution):
        arg_constraints = {}

    class MyFamily(D.ExponentialFamily):
        arg_constraints = {}

    for cls in (ScaleMixture, MyFamily):
        with pytest.raises(NotImplementedError):
            cls(batch_shape=tapegrad.Size([2])).expand((3, 2))


def test_expand_error_names_the_library_class():
    D = tapegrad.distributions
    cls = _user_subclass(tapegrad, "HalfNormal", custom_init=True)
    message = "Subclass MyHalfNormal of HalfNormal that defines a custom __init__ method must"
    with pytest.raises(NotImplementedError, match=message):
        cls(tapegrad.zeros(2), tapegrad.ones(2)).expand((3, 2))
    # a built-in distribution still expands (parameters become broadcast views)
    expanded = D.HalfNormal(tapegrad.ones(2)).expand((3, 2))
    assert tuple(expanded.scale.shape) == (3, 2)
