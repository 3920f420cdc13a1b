"""Training-recipe internals as PyTorch does them: weight averaging (``AveragedModel``'s default
averaging of batch-norm buffers with ``use_buffers=True``, the multi-tensor SWA/EMA functions on
integer buffers, the dtype groups handed to a ``multi_avg_fn``), the KL divergence of a soft
target that requires grad (``xlogy``'s derivative at a zero probability), and the per-sample
losses of ignored rows (written as +0).

Each case runs on tapegrad and, where installed, on PyTorch (same values, or same exception type
and message); independent checks (hand-computed averages, finite differences) run without PyTorch.
"""
import numpy as np
import pytest

import tapegrad
import tapegrad.nn as nn
import tapegrad.nn.functional as F
from tapegrad.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

from same_as_torch import assert_same


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def _bn_model(lib):
    model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3))
    with lib.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(lib.cos(lib.arange(p.numel(), dtype=lib.float32) + i).view_as(p))
    return model


def _average_with_buffers(lib, **kwargs):
    """An averaged model of a batch-norm net updated after each of three training batches."""
    model = _bn_model(lib)
    averaged = lib.optim.swa_utils.AveragedModel(model, use_buffers=True, **kwargs)
    x = lib.arange(8.0).view(4, 2)
    for scale in (1.0, -0.5, 2.0):
        model(x * scale)
        averaged.update_parameters(model)
    bn = averaged.module[1]
    return (bn.running_mean, bn.running_var, bn.num_batches_tracked.float(),
            averaged.module[0].weight)


# --- AveragedModel's default averaging -----------------------------------------------------------

def test_default_average_with_buffers_matches_torch(torch):
    assert_same(_average_with_buffers, torch)


def test_default_average_with_buffers_truncates_the_batch_counter():
    mean, _, counter, _ = _average_with_buffers(tapegrad)
    # num_batches_tracked was 1, 2, 3 after the updates: int(1 + (2 - 1) / 2) = 1, then
    # int(1 + (3 - 1) / 3) = 1 (the float average copied back into an int64 buffer)
    assert counter.item() == 1.0
    assert mean.dtype == tapegrad.float32


def test_default_average_is_avg_plus_difference_over_count_bit_for_bit():
    """PyTorch's CPU default is ``avg + (p - avg) / (n + 1)`` per tensor (not a lerp), so
    its roundings are these."""
    model = nn.Linear(50, 1, bias=False)
    averaged = AveragedModel(model)
    values = [np.cos(np.arange(50, dtype=np.float32) * k * 0.37).astype(np.float32) * 1.37
              for k in range(1, 4)]
    expected = None
    for n, value in enumerate(values):
        with tapegrad.no_grad():
            model.weight.copy_(tapegrad.tensor(value[None]))
        averaged.update_parameters(model)
        expected = value.copy() if n == 0 else (
            expected + (value - expected) / np.float32(n + 1)).astype(np.float32)
    np.testing.assert_array_equal(averaged.module.weight.detach().numpy()[0], expected)


def test_swa_multi_avg_fn_refuses_integer_buffers(torch):
    def case(lib):
        avg = lib.optim.swa_utils.AveragedModel(
            _bn_model(lib), multi_avg_fn=lib.optim.swa_utils.get_swa_multi_avg_fn(),
            use_buffers=True)
        model = _bn_model(lib)
        avg.update_parameters(model)
        avg.update_parameters(model)
    assert_same(case, torch)
    with pytest.raises(RuntimeError, match="Integer division with addcdiv"):
        case(tapegrad)


def test_swa_multi_avg_fn_with_a_number_count(torch):
    def case(lib):
        fn = lib.optim.swa_utils.get_swa_multi_avg_fn()
        floats = [lib.zeros(2)]
        fn(floats, [lib.ones(2)], 3)
        ints = [lib.zeros(2, dtype=lib.int64)]
        fn(ints, [lib.ones(2, dtype=lib.int64)], 3)
    assert_same(case, torch)


def test_ema_multi_avg_fn_on_integer_buffers(torch):
    def case(lib):
        ints = [lib.tensor([10, 20])]
        lib.optim.swa_utils.get_ema_multi_avg_fn(0.75)(ints, [lib.tensor([2, 3])], None)
        floats = [lib.tensor([10.0, 20.0])]
        lib.optim.swa_utils.get_ema_multi_avg_fn(0.75)(floats, [lib.tensor([2.0, 3.0])], None)
        return ints[0].float(), floats[0]
    assert_same(case, torch)
    ints, floats = case(tapegrad)
    assert ints.tolist() == [8.0, 15.0]  # 10 * .75 + 2 * .25 = 8.0, 20 * .75 + 3 * .25 = 15.75
    assert floats.tolist() == [8.0, 15.75]


def _dtype_groups(lib):
    """The dtypes of the lists a ``multi_avg_fn`` is called with, in call order."""
    seen = []

    def record(averaged, current, n):
        seen.append(str(averaged[0].dtype))
        lib.optim.swa_utils.get_ema_multi_avg_fn(0.5)(averaged, current, n)

    model = _bn_model(lib)
    avg = lib.optim.swa_utils.AveragedModel(model, multi_avg_fn=record, use_buffers=True)
    avg.update_parameters(model)
    avg.update_parameters(model)
    return tuple(seen)


def test_multi_avg_fn_sees_the_last_dtype_first(torch):
    assert _dtype_groups(tapegrad) == ("torch.int64", "torch.float32")
    assert _dtype_groups(tapegrad) == _dtype_groups(torch)


def test_ema_with_buffers_keeps_averaging_floats():
    model = _bn_model(tapegrad)
    ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.5), use_buffers=True)
    x = tapegrad.arange(8.0).view(4, 2)
    model(x)
    ema.update_parameters(model)
    first = model[1].running_mean.clone()
    model(x * 2)
    ema.update_parameters(model)
    np.testing.assert_allclose(ema.module[1].running_mean.numpy(),
                               0.5 * first.numpy() + 0.5 * model[1].running_mean.numpy(),
                               rtol=1e-6)


# --- kl_div of a soft target that requires grad --------------------------------------------------

def _kl_target_grad(lib, target_values):
    log_p = lib.log_softmax(lib.tensor([[1.0, 2.0, 3.0]]), 1)
    target = lib.tensor([target_values], requires_grad=True)
    loss = lib.nn.functional.kl_div(log_p, target, reduction="sum")
    loss.backward()
    return loss, target.grad


def test_kl_div_target_grad_at_zero_probability_is_nan(torch):
    assert_same(lambda lib: _kl_target_grad(lib, [0.0, 0.7, 0.3]), torch)
    _, grad = _kl_target_grad(tapegrad, [0.0, 0.7, 0.3])
    assert np.isnan(grad[0, 0].item()) and np.isfinite(grad[0, 1:].numpy()).all()


def test_kl_div_of_a_negative_target_is_nan(torch):
    def case(lib):
        log_p = lib.log_softmax(lib.tensor([[1.0, 2.0, 3.0]]), 1)
        return lib.nn.functional.kl_div(log_p, lib.tensor([[-0.5, 0.7, 0.8]]), reduction="none")
    assert_same(case, torch)
    assert np.isnan(case(tapegrad)[0, 0].item())


def test_kl_div_gradients_by_finite_differences():
    log_p = tapegrad.log_softmax(tapegrad.tensor([[1.0, 2.0, 3.0]], dtype=tapegrad.float64), 1)
    log_p.requires_grad_()
    target = tapegrad.tensor([[0.1, 0.6, 0.3]], dtype=tapegrad.float64, requires_grad=True)

    def kl(a, b):
        return F.kl_div(a, b, reduction="batchmean")
    assert tapegrad.autograd.gradcheck(kl, (log_p, target))
    assert tapegrad.autograd.gradgradcheck(kl, (log_p, target))


# --- ignored rows of per-sample losses ----------------------------------------------------------

def test_ignored_rows_are_positive_zero(torch):
    def case(lib):
        x = lib.sin(lib.arange(24.0)).view(2, 3, 4)
        y = lib.tensor([[0, 1, 2, -100], [2, -100, 1, 0]])
        return (lib.nn.functional.nll_loss(x, y, reduction="none"),
                lib.nn.functional.cross_entropy(x[:, :, 0], y[:, 3], reduction="none"))
    assert_same(case, torch)
    nll, ce = case(tapegrad)
    # -x * 0 would be -0. where x > 0 (x[0, :, 3] is positive at the target-less class 0)
    assert not np.signbit(nll.numpy()[0, 3]) and not np.signbit(nll.numpy()[1, 1])
    assert not np.signbit(ce.numpy()[0])


def test_zero_dim_cross_entropy_takes_the_probability_branch(torch):
    def case(lib):
        return lib.nn.functional.cross_entropy(lib.tensor(1.0), lib.tensor(0))
    assert_same(case, torch)
    with pytest.raises(RuntimeError, match="Expected floating point type for target with class "
                                           "probabilities, got Long"):
        case(tapegrad)


# --- errors raised in DataLoader workers ---------------------------------------------------------

class _Records:
    """A map-style dataset with a corrupt record (3) and one without its "x" field (5)."""

    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 3:
            raise ValueError(f"record {i} is corrupt")
        return {"y": i} if i == 5 else {"x": i}


def _worker_outcomes(lib, **loader_options):
    """Each batch of a two-worker loader, or the first and last lines of what it raised."""
    loader = lib.utils.data.DataLoader(_Records(), batch_size=1, num_workers=2,
                                       collate_fn=lambda batch: batch[0]["x"], **loader_options)
    it, seen = iter(loader), []
    for _ in range(len(loader)):
        try:
            seen.append(next(it))
        except Exception as error:  # noqa: BLE001  what was raised is the outcome
            lines = str(error).splitlines()
            seen.append((type(error).__name__, lines[0], lines[1], lines[-1]))
    return seen


def test_worker_errors_are_wrapped_as_pytorch_wraps_them(torch):
    assert _worker_outcomes(tapegrad) == _worker_outcomes(torch)


def test_worker_errors_name_the_worker_and_keep_the_traceback():
    seen = _worker_outcomes(tapegrad)
    assert seen[3] == ("ValueError", "Caught ValueError in DataLoader worker process 1.",
                       "Original Traceback (most recent call last):",
                       "ValueError: record 3 is corrupt")
    assert seen[5] == ("KeyError", "Caught KeyError in DataLoader worker process 1.",
                       "Original Traceback (most recent call last):", "KeyError: 'x'")
    assert seen[6] == 6  # the iterator carries on after an error


def test_failing_worker_init_fn_is_reported_at_that_workers_first_batch(torch):
    def init(worker_id):
        if worker_id == 1:
            raise RuntimeError("cannot open shard 1")

    def case(lib):
        return _worker_outcomes(lib, worker_init_fn=init)[:3]
    assert case(tapegrad) == case(torch)
    assert case(tapegrad)[1][1] == "Caught RuntimeError in DataLoader worker process 1."


def test_exception_types_that_take_no_message_come_back_as_runtime_errors():
    class TwoArguments(Exception):
        def __init__(self, a, b):
            super().__init__(a, b)

    class Failing:
        def __len__(self):
            return 2

        def __getitem__(self, i):
            raise TwoArguments(1, 2)

    loader = tapegrad.utils.data.DataLoader(Failing(), num_workers=1)
    with pytest.raises(RuntimeError, match="Caught TwoArguments in DataLoader worker process 0"):
        next(iter(loader))


def test_without_workers_errors_are_not_wrapped():
    loader = tapegrad.utils.data.DataLoader(_Records(), batch_size=1, num_workers=0)
    it = iter(loader)
    for _ in range(3):
        next(it)
    with pytest.raises(ValueError, match=r"^record 3 is corrupt$"):
        next(it)


# --- scheduler checkpoints -----------------------------------------------------------------------

def test_cyclic_lr_load_state_dict_takes_the_scale_fn_entry_out(torch):
    def case(lib):
        param = lib.nn.Parameter(lib.zeros(1))
        make = lambda: lib.optim.lr_scheduler.CyclicLR(  # noqa: E731
            lib.optim.SGD([param], lr=0.1, momentum=0.9), 0.01, 0.1, step_size_up=2)
        state = make().state_dict()
        make().load_state_dict(state)
        keys = "_scale_fn_custom" in state
        make().load_state_dict(state)  # the entry is gone: KeyError, as in PyTorch
        return keys
    assert_same(case, torch)
    with pytest.raises(KeyError):
        case(tapegrad)


# --- label smoothing as ATen composes it ---------------------------------------------------------

def _graph_names(output):
    """The node names of ``output``'s graph, breadth first."""
    seen, names, queue = set(), [], [output.grad_fn]
    while queue:
        node = queue.pop(0)
        if node is None or node in seen:
            continue
        seen.add(node)
        names.append(node.name())
        queue.extend(next_node for next_node, _ in node.next_functions)
    return names


@pytest.mark.parametrize("options", [{}, {"reduction": "sum"}, {"reduction": "none"},
                                     {"weight": [1.0, 2.0, 3.0]}])
def test_label_smoothing_graph_matches_torch(torch, options):
    def names(lib):
        x = lib.sin(lib.arange(12.0)).view(4, 3).requires_grad_()
        kwargs = dict(options)
        if "weight" in kwargs:
            kwargs["weight"] = lib.tensor(kwargs["weight"])
        loss = lib.nn.functional.cross_entropy(x, lib.tensor([0, 1, 2, -100]),
                                               label_smoothing=0.1, **kwargs)
        return _graph_names(loss)
    ours, theirs = names(tapegrad), names(torch)
    assert ours == theirs
    assert ours[1] == "MulBackward1" and "MaskedFillBackward0" in ours


def test_label_smoothing_ignores_non_finite_logits_of_ignored_rows(torch):
    def case(lib):
        x = lib.tensor([[1.0, 2.0, 3.0], [float("-inf"), 0.0, 1.0], [float("nan"), 0.0, 1.0]],
                       requires_grad=True)
        loss = lib.nn.functional.cross_entropy(x, lib.tensor([0, -100, -100]),
                                               label_smoothing=0.1)
        loss.backward()
        return loss, x.grad[:2]
    assert_same(case, torch)
    loss, grad = case(tapegrad)
    assert np.isfinite(loss.item()) and (grad[1] == 0).all()
