"""``tapegrad.testing``, the samplers and datasets of ``utils.data``, save/load keeping shared
memory and identity, and the gamma / Dirichlet / beta distributions, against PyTorch."""
import io
import math
import pickle

import numpy as np
import pytest

import tapegrad

torch = pytest.importorskip("torch")


def _outcome(fn, T):
    try:
        return "ok", fn(T)
    except Exception as exc:  # noqa: BLE001  the error is the result to compare
        return type(exc).__name__, str(exc)


def _same_text(fn):
    """Same printed result or same error, with both libraries."""
    ours, theirs = _outcome(fn, tapegrad), _outcome(fn, torch)
    assert (ours[0], str(ours[1])) == (theirs[0], str(theirs[1]))


nan, inf = math.nan, math.inf


@pytest.mark.parametrize("case", [
    lambda T: T.testing.assert_close(T.tensor([1., 2.]), T.tensor([1., 2. + 1e-6])),
    lambda T: T.testing.assert_close(T.tensor([1., 2., 3.]), T.tensor([1., 2.5, 3.])),
    lambda T: T.testing.assert_close(T.tensor([1, 2]), T.tensor([1., 2.])),
    lambda T: T.testing.assert_close(T.tensor([1, 2]), T.tensor([1., 2.]), check_dtype=False),
    lambda T: T.testing.assert_close(T.ones(2), T.ones(3)),
    lambda T: T.testing.assert_close(T.tensor([nan]), T.tensor([nan])),
    lambda T: T.testing.assert_close(T.tensor([nan, inf]), T.tensor([nan, inf]), equal_nan=True),
    lambda T: T.testing.assert_close(T.tensor([1, 2]), T.tensor([1, 3])),
    lambda T: T.testing.assert_close(T.tensor([[1., 2.], [3., 4.]]),
                                     T.tensor([[1., 2.], [3., 5.]]), rtol=0, atol=0),
    lambda T: T.testing.assert_close(T.tensor(1.), T.tensor(2.)),
    lambda T: T.testing.assert_close(T.tensor([1.]), T.tensor([1.]), rtol=0.1),
    lambda T: T.testing.assert_close(T.tensor([1., 2.]), T.tensor([1., 3.]), msg="boom"),
    lambda T: T.testing.assert_close(1., 1.5),
    lambda T: T.testing.assert_close(1, 1.0),
    lambda T: T.testing.assert_close([1., 2.], [1., 2.5]),
    lambda T: T.testing.assert_close({"a": T.tensor([1.])}, {"a": T.tensor([2.])}),
    lambda T: T.testing.assert_close([T.tensor(1.)], [T.tensor(1.), T.tensor(1.)]),
    lambda T: T.testing.assert_close(T.tensor([1., 2.]), 1.),
    lambda T: T.testing.assert_close(T.tensor([True]), T.tensor([False])),
])
def test_assert_close_matches_pytorch(case):
    _same_text(case)


def test_make_tensor():
    t = tapegrad.testing.make_tensor(2, 3, dtype=tapegrad.float32, device="cpu", low=-1, high=1)
    assert t.shape == (2, 3) and t.dtype == tapegrad.float32 and bool((t.abs() <= 1).all())
    n = tapegrad.testing.make_tensor((4,), dtype=tapegrad.int64, device=None, low=0, high=3)
    assert n.dtype == tapegrad.int64 and bool(((n >= 0) & (n < 3)).all())


def test_samplers_and_datasets():
    def facts(T):
        D = T.utils.data
        g = T.Generator().manual_seed(3)
        subset = D.SubsetRandomSampler([2, 4, 6], generator=g)
        weighted = D.WeightedRandomSampler([0., 0., 1., 0.], num_samples=5)
        stacked = D.StackDataset([1, 2], [3, 4])
        named = D.StackDataset(a=[1, 2], b=[3, 4])

        class Stream(D.IterableDataset):
            def __init__(self, n):
                self.n = n

            def __iter__(self):
                return iter(range(self.n))

            def __len__(self):
                return self.n
        chain = D.ChainDataset([Stream(2), Stream(3)])
        return (sorted(subset), len(subset), type(next(iter(subset))).__name__, list(weighted),
                len(weighted), weighted.weights.dtype == T.float64, stacked[1], len(stacked),
                named[0], stacked.__getitems__([0, 1]), list(chain), len(chain),
                D.get_worker_info())
    ours, theirs = facts(tapegrad), facts(torch)
    assert str(ours) == str(theirs)


@pytest.mark.parametrize("call", [
    lambda T: T.utils.data.WeightedRandomSampler([[1.]], 2),
    lambda T: T.utils.data.WeightedRandomSampler([1.], 2, replacement=1),
    lambda T: T.utils.data.WeightedRandomSampler([1.], 0),
    lambda T: list(T.utils.data.WeightedRandomSampler([1.0, 2.0], 3, replacement=False)),
    lambda T: T.utils.data.StackDataset(),
    lambda T: T.utils.data.StackDataset([1], [1, 2]),
    lambda T: T.utils.data.StackDataset([1], a=[1]),
    lambda T: list(T.utils.data.ChainDataset([[1]])),
    lambda T: T.utils.data.TensorDataset([1, 2, 3]),
])
def test_data_errors(call):
    _same_text(call)


def _round_trip(T, obj, **load_options):
    buffer = io.BytesIO()
    T.save(obj, buffer)
    buffer.seek(0)
    return T.load(buffer, **load_options)


def test_save_keeps_shared_memory_identity_and_offsets():
    def facts(T):
        base = T.arange(6.)
        back = _round_trip(T, {"a": base[:3], "b": base, "c": base[2:5], "t": base.view(2, 3).t()})
        back["b"][0] = 100.
        back["b"][3] = 7.
        x = T.ones(2)
        pair = _round_trip(T, [x, x, (x,)])
        p = T.nn.Parameter(T.ones(2))
        params = _round_trip(T, {"p": p, "q": p})
        return (str(back["a"]), str(back["c"]), back["c"].storage_offset(),
                back["a"].storage_offset(), back["t"].stride(), str(back["t"]),
                pair[0] is pair[1], pair[2][0] is pair[0], type(params["p"]).__name__,
                params["p"] is params["q"])
    assert facts(tapegrad) == facts(torch)


def test_pickled_objects_need_weights_only_false():
    buffer = io.BytesIO()
    tapegrad.save({"array": np.ones(2), "module": tapegrad.nn.Linear(2, 1)}, buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed") as caught:
        tapegrad.load(buffer)
    assert "Unsupported global: GLOBAL numpy" in str(caught.value)
    buffer.seek(0)
    loaded = tapegrad.load(buffer, weights_only=False)
    np.testing.assert_array_equal(loaded["array"], np.ones(2))
    assert type(loaded["module"]).__name__ == "Linear" and loaded["module"].weight.shape == (1, 2)


def test_beta_dirichlet_gamma_match_pytorch():
    def facts(T):
        D = T.distributions
        beta = D.Beta(T.tensor([0.4, 2.]), T.tensor([0.4, 3.]))
        scalar = D.Beta(2.0, 3.0)
        dirichlet = D.Dirichlet(T.tensor([[1., 2., 3.], [0.5, 0.2, 0.3]]))
        gamma = D.Gamma(T.tensor([2., 0.5]), T.tensor([3., 1.]))
        c = T.tensor([1.5, 2.5], requires_grad=True)
        D.Beta(c, T.tensor(2.)).log_prob(T.tensor(0.3)).sum().backward()
        return [beta.mean, beta.variance, beta.batch_shape, beta.event_shape, beta.entropy(),
                beta.log_prob(T.tensor([0.3, 0.6])), beta.concentration1, beta.concentration0,
                scalar.mode, scalar.batch_shape, repr(scalar),
                scalar.log_prob(T.tensor(0.5)), dirichlet.mean, dirichlet.variance,
                dirichlet.mode, dirichlet.entropy(),
                dirichlet.log_prob(T.tensor([0.2, 0.3, 0.5])), dirichlet.event_shape,
                gamma.mean, gamma.variance, gamma.mode, gamma.entropy(),
                gamma.log_prob(T.tensor([1., 2.])), c.grad,
                beta.sample((3,)).shape, dirichlet.rsample().shape, gamma.sample((2, 1)).shape]
    for ours, theirs in zip(facts(tapegrad), facts(torch)):
        if isinstance(ours, tapegrad.Tensor):
            np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-4,
                                       atol=1e-5)
        else:
            assert str(ours) == str(theirs)


def test_beta_samples_have_the_right_moments():
    tapegrad.manual_seed(0)
    samples = tapegrad.distributions.Beta(tapegrad.tensor([2., 5.]),
                                          tapegrad.tensor([3., 1.])).sample((20000,))
    assert bool(((samples > 0) & (samples < 1)).all())
    np.testing.assert_allclose(samples.mean(0).numpy(), [0.4, 5 / 6], atol=0.01)
    np.testing.assert_allclose(samples.var(0).numpy(), [0.04, 5 / 252], atol=0.005)
