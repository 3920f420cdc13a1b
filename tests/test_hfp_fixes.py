"""Non-reentrant checkpoint checks its recomputation as PyTorch does (CheckpointError on a
different number or metadata of saved tensors; early stop drops extra ones), and the
CheckpointPolicy / set_checkpoint_early_stop API."""
import pytest

import tapegrad
from tapegrad.utils import checkpoint as tg_checkpoint
from same_as_torch import assert_same


def _flipping(lib, second_call):
    """A function that runs ``t.exp()`` the first time and ``second_call(t)`` afterwards, as a
    layer whose Python state (a KV cache, a flag) changes between forward and recomputation."""
    calls = []

    def function(t):
        calls.append(1)
        return t.exp() * t if len(calls) == 1 else second_call(t)
    return function


def _run(lib, second_call, early_stop=True, **kwargs):
    x = lib.tensor([0.1, 0.2, 0.3], requires_grad=True)
    with lib.utils.checkpoint.set_checkpoint_early_stop(early_stop):
        y = lib.utils.checkpoint.checkpoint(_flipping(lib, second_call), x, use_reentrant=False,
                                            **kwargs)
    y.sum().backward()
    return x.grad


CASES = {
    "fewer saved": lambda t: t.exp() + t,
    "other shapes": lambda t: t[:2].exp().repeat(2)[:3] * t,
    "more saved, early stop": lambda t: (t.exp() * t).sin(),
}


@pytest.mark.parametrize("name", CASES)
def test_mismatch_errors_match_torch(name):
    torch = pytest.importorskip("torch")
    assert_same(lambda lib: _run(lib, CASES[name]), torch)


def test_more_saved_without_early_stop_matches_torch():
    torch = pytest.importorskip("torch")
    assert_same(lambda lib: _run(lib, CASES["more saved, early stop"], early_stop=False), torch)


def test_determinism_check_none_skips_the_metadata_comparison():
    torch = pytest.importorskip("torch")
    # the same number of saved tensors, other values: only the metadata check could notice
    assert_same(lambda lib: _run(lib, lambda t: (t * 2).exp() * t, determinism_check="none"), torch)


def test_mismatch_is_a_checkpoint_error_and_a_runtime_error():
    with pytest.raises(tg_checkpoint.CheckpointError, match="different number of tensors"):
        _run(tapegrad, CASES["fewer saved"])
    assert issubclass(tg_checkpoint.CheckpointError, RuntimeError)


def test_consistent_recomputation_gives_the_analytic_gradient():
    x = tapegrad.tensor([0.1, 0.2, 0.3], dtype=tapegrad.float64, requires_grad=True)
    y = tg_checkpoint.checkpoint(lambda t: t.exp() * t, x, use_reentrant=False)
    y.sum().backward()
    expected = (x.detach().exp() * (1 + x.detach())).numpy()
    assert abs(x.grad.numpy() - expected).max() < 1e-12


def test_early_stop_override_is_scoped():
    assert tg_checkpoint._early_stop_override is None
    with tg_checkpoint.set_checkpoint_early_stop(False):
        assert tg_checkpoint._early_stop_override is False
    assert tg_checkpoint._early_stop_override is None


def test_checkpoint_policy_members_match_torch():
    torch = pytest.importorskip("torch")
    ours = [(m.name, m.value) for m in tg_checkpoint.CheckpointPolicy]
    assert ours == [(m.name, m.value) for m in torch.utils.checkpoint.CheckpointPolicy]
