"""Fixes found by the torch.distributions programs (tests/programs/dst_*): kl_divergence's
dispatch among registered pairs (PyTorch's lexicographic subclass order, the ambiguity warning,
memoized lookups cleared by register_kl), and Binomial.log_prob summed in PyTorch's order."""
import math
import warnings

import pytest

import tapegrad
from tapegrad.distributions import kl as tg_kl
from same_as_torch import assert_same

torch = pytest.importorskip("torch")


@pytest.fixture
def restored_registries():
    """Tests register KL functions; leave both libraries' registries as they were."""
    saved = [(module, dict(module._KL_REGISTRY)) for module in (tg_kl, torch.distributions.kl)]
    yield
    for module, registry in saved:
        module._KL_REGISTRY.clear()
        module._KL_REGISTRY.update(registry)
        module._KL_MEMOIZE.clear()


def _subclasses(lib):
    """A subclass of Normal and one of Laplace, as user code defines them."""
    D = lib.distributions
    return type("MyNormal", (D.Normal,), {}), type("MyLaplace", (D.Laplace,), {})


def _ambiguous_setup(lib):
    """(MyNormal, Distribution) and (Distribution, MyLaplace) registered: for (MyNormal,
    MyLaplace) ordering by p first and by q first disagree."""
    D = lib.distributions
    my_normal, my_laplace = _subclasses(lib)
    D.register_kl(my_normal, D.Distribution)(lambda p, q: lib.tensor(-1.0))
    D.register_kl(D.Distribution, my_laplace)(lambda p, q: lib.tensor(-2.0))
    return my_normal, my_laplace


def _kl_with_warnings(lib, p, q):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = lib.distributions.kl_divergence(p, q)
    return value.item(), [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.usefixtures("restored_registries")
def test_ambiguous_pair_takes_the_p_first_match_and_warns():
    results = []
    for lib in (tapegrad, torch):
        my_normal, my_laplace = _ambiguous_setup(lib)
        results.append(_kl_with_warnings(lib, my_normal(0.0, 1.0), my_laplace(1.0, 2.0)))
    assert results[0] == results[1] == (-1.0, [(
        "RuntimeWarning",
        "Ambiguous kl_divergence(MyNormal, MyLaplace). Please register_kl(MyNormal, MyLaplace)")])


@pytest.mark.usefixtures("restored_registries")
def test_a_subclass_pair_beats_a_closer_base_pair_in_p_order():
    """(MyNormal, Distribution) precedes the built-in (Normal, Normal) for (MyNormal, Normal):
    the first position decides (and q-first order picks the other, hence the warning)."""
    results = []
    for lib in (tapegrad, torch):
        my_normal, _ = _ambiguous_setup(lib)
        normal = lib.distributions.Normal(1.0, 2.0)
        results.append(_kl_with_warnings(lib, my_normal(0.0, 1.0), normal))
    assert results[0] == results[1]
    assert results[0][0] == -1.0 and len(results[0][1]) == 1


@pytest.mark.usefixtures("restored_registries")
def test_lookup_is_memoized_until_the_next_registration():
    D = tapegrad.distributions
    my_normal, my_laplace = _ambiguous_setup(tapegrad)
    p, q = my_normal(0.0, 1.0), my_laplace(1.0, 2.0)
    assert _kl_with_warnings(tapegrad, p, q)[1]
    assert _kl_with_warnings(tapegrad, p, q) == (-1.0, [])  # dispatched once: warned once
    D.register_kl(my_normal, my_laplace)(lambda p, q: tapegrad.tensor(-3.0))
    assert _kl_with_warnings(tapegrad, p, q) == (-3.0, [])


@pytest.mark.usefixtures("restored_registries")
def test_unambiguous_subclass_uses_the_most_specific_registration():
    """Independent of PyTorch: a subclass registered against its base wins, unrelated pairs
    still use the built-in closed form, and unregistered pairs raise."""
    D = tapegrad.distributions
    my_normal, my_laplace = _subclasses(tapegrad)
    D.register_kl(my_normal, D.Normal)(lambda p, q: tapegrad.tensor(5.0))
    assert D.kl_divergence(my_normal(0.0, 1.0), D.Normal(0.0, 1.0)).item() == 5.0
    assert D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(0.0, 1.0)).item() == 0.0
    with pytest.raises(NotImplementedError, match="p type MyLaplace and q type Independent"):
        D.kl_divergence(my_laplace(0.0, 1.0), D.Independent(D.Normal(tapegrad.zeros(2), 1.0), 1))


@pytest.mark.usefixtures("restored_registries")
def test_register_kl_checks_only_that_it_gets_classes():
    assert_same(lambda lib: lib.distributions.register_kl(int, lib.distributions.Normal)
                is not None, torch)
    assert_same(lambda lib: lib.distributions.register_kl("Normal", lib.distributions.Normal),
                torch)



def test_binomial_log_prob_of_a_certain_outcome_is_exactly_zero():
    """With |logits| so large that the outcome is certain in float32, the log-factorials cancel
    exactly in PyTorch's order of summation: 0, not a denormal or a rounding residue."""
    def case(lib):
        d = lib.distributions.Binomial(3, logits=lib.tensor([-100.0, 100.0, 0.0]))
        return d.log_prob(lib.tensor([0.0, 3.0, 1.0]))
    assert case(tapegrad).tolist()[:2] == [0.0, 0.0]
    assert abs(case(tapegrad)[2].item() - math.log(3 / 8)) < 1e-6  # C(3,1) / 2^3
    assert_same(case, torch)


def _user_constraints(lib):
    """A user's constraint classes, with and without a leading underscore, and a subclass of a
    library interval."""
    C = lib.distributions.constraints
    sorted_ = type("Sorted", (C.Constraint,), {"check": lambda self, v: v[1:] >= v[:-1]})
    private = type("_Ordered", (C.Constraint,), {"check": lambda self, v: v[1:] > v[:-1]})
    unit = type("_UnitRange", (C._Interval,), {})
    return sorted_(), private(), unit(0.0, 1.0), C.Constraint(), C.independent(C.positive, 1)


def test_constraint_reprs_drop_the_first_character_of_the_class_name():
    """PyTorch shows a constraint as its class name less the first character (meant for the
    leading underscore), for user classes too: ``Sorted`` shows as ``orted()``."""
    shown = [repr(c) for c in _user_constraints(tapegrad)]
    assert shown == [repr(c) for c in _user_constraints(torch)]
    assert shown[:2] == ["orted()", "Ordered()"]
    assert shown[2] == "UnitRange(lower_bound=0.0, upper_bound=1.0)"
