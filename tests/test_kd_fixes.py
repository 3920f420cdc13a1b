"""Differences found by the distillation / compression programs (kd_*): stacking a structured
pruning method on an already pruned tensor validates the pruning dim the way PyTorch's
PruningContainer does (the channel slice is built first, so a dim past the last raises
PyTorch's IndexError), and a failed stacked pruning leaves the module as PyTorch does."""
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
    import torch.nn.utils.prune  # noqa: F401  (not imported by torch itself)
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _conv_pruned_twice(lib, dim):
    """Conv1d weight (4, 3, 2) pruned by rows, then by ``LnStructured`` along ``dim``."""
    prune = lib.nn.utils.prune
    conv = lib.nn.Conv1d(3, 4, 2)
    with lib.no_grad():
        conv.weight.copy_(lib.arange(24, dtype=lib.float32).reshape(4, 3, 2).sin())
    prune.ln_structured(conv, "weight", amount=1, n=1, dim=0)
    prune.ln_structured(conv, "weight", amount=1, n=2, dim=dim)
    return conv.weight_mask


def _state_after_failed_stacking(lib):
    """Names and hooks left when the stacked method fails, then the error of pruning again."""
    prune = lib.nn.utils.prune
    conv = lib.nn.Conv1d(3, 4, 2)
    prune.l1_unstructured(conv, "weight", amount=2)
    try:
        prune.ln_structured(conv, "weight", amount=1, n=2, dim=3)
    except IndexError:
        pass
    names = ([n for n, _ in conv.named_parameters()], [n for n, _ in conv.named_buffers()],
             len(conv._forward_pre_hooks))
    try:
        prune.l1_unstructured(conv, "weight", amount=1)
    except TypeError as error:
        return names, str(error)
    return names, None


@pytest.mark.parametrize("dim", [1, 2, -1, -3])
def test_stacked_structured_pruning_mask_matches_torch(dim):
    if torch is None:
        pytest.skip("PyTorch is not installed")
    assert_same(lambda lib: _conv_pruned_twice(lib, dim), torch)


@needs_torch
@pytest.mark.parametrize("dim", [3, 5, -4])
def test_stacked_structured_pruning_bad_dim_error_matches_torch(dim):
    assert_same(lambda lib: _conv_pruned_twice(lib, dim), torch)


def test_stacked_structured_pruning_dim_past_last_raises_index_error():
    with pytest.raises(IndexError, match="list assignment index out of range"):
        _conv_pruned_twice(tapegrad, 3)


def test_stacked_structured_pruning_keeps_earlier_channels_pruned():
    mask = _conv_pruned_twice(tapegrad, 2)
    assert mask.shape == (4, 3, 2)
    assert int((mask.flatten(1).sum(1) == 0).sum()) == 1  # the row pruned first stays pruned
    assert int((mask.sum(dim=(0, 1)) == 0).sum()) == 1  # one column of the last dim pruned


@needs_torch
def test_failed_stacked_pruning_leaves_module_like_torch():
    assert _state_after_failed_stacking(tapegrad) == _state_after_failed_stacking(torch)


UNAPPLIED_METHOD_USES = {
    "container_of_two": lambda lib: lib.nn.utils.prune.PruningContainer(
        lib.nn.utils.prune.L1Unstructured(amount=1), "not a method"),
    "container_of_unapplied": lambda lib: lib.nn.utils.prune.PruningContainer(
        lib.nn.utils.prune.L1Unstructured(amount=1)),
    "empty_container_add": lambda lib: lib.nn.utils.prune.PruningContainer().add_pruning_method(
        lib.nn.utils.prune.Identity()),
    "apply_mask": lambda lib: lib.nn.utils.prune.L1Unstructured(amount=1).apply_mask(
        lib.nn.Linear(2, 2)),
    "remove": lambda lib: lib.nn.utils.prune.L1Unstructured(amount=1).remove(lib.nn.Linear(2, 2)),
}


@pytest.mark.parametrize("use", sorted(UNAPPLIED_METHOD_USES))
def test_unapplied_pruning_method_has_no_tensor_name(use):
    with pytest.raises(AttributeError, match="has no attribute '_tensor_name'"):
        UNAPPLIED_METHOD_USES[use](tapegrad)


@needs_torch
@pytest.mark.parametrize("use", sorted(UNAPPLIED_METHOD_USES))
def test_unapplied_pruning_method_error_matches_torch(use):
    assert_same(UNAPPLIED_METHOD_USES[use], torch)


def test_applied_and_global_pruning_methods_are_named():
    prune = tapegrad.nn.utils.prune
    lin = tapegrad.nn.Linear(3, 2)
    prune.l1_unstructured(lin, "weight", amount=2)
    assert [m._tensor_name for m in lin._forward_pre_hooks.values()] == ["weight"]
    other = tapegrad.nn.Linear(3, 2)
    prune.global_unstructured([(other, "weight"), (other, "bias")],
                              pruning_method=prune.L1Unstructured, amount=3)
    assert int((other.weight_mask == 0).sum() + (other.bias_mask == 0).sum()) == 3


def test_kl_div_of_one_hot_targets_warns_nothing_even_with_every_warning_shown():
    # log(0) is taken on purpose (then masked): numpy must not say so, whatever the user's filters
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tapegrad.nn.functional.kl_div(tapegrad.log_softmax(tapegrad.tensor([[1.0, 2.0, 0.5]]), 1),
                                      tapegrad.tensor([[0.0, 1.0, 0.0]]), reduction="batchmean")
        tapegrad.xlogy(tapegrad.tensor([0.0, 1.0]), tapegrad.tensor([0.0, 2.0]))
    assert [str(w.message) for w in caught] == []
