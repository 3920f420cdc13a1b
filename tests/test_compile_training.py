"""Compiling a whole training step (forward, ``loss.backward()``, optimizer update): the
parameters follow eager training step by step."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn

from compile_helpers import assert_close, kernel_cache  # noqa: F401


def _line_fit_problem():
    tapegrad.manual_seed(0)
    x = tapegrad.linspace(-1, 1, 100)
    y = 2 * x - 1 + 0.1 * tapegrad.randn(100)
    return x, y


def _line_fit_step(w, b, x, y, lr=0.1):
    """The seed's loop body: forward, backward, a hand-written update, zeroing the gradients."""
    loss = ((w * x + b - y) ** 2).mean()
    loss.backward()
    with tapegrad.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
    return loss


def test_line_fit_steps_match_eager():
    x, y = _line_fit_problem()
    params = {}
    for mode in ("eager", "compiled"):
        w = tapegrad.tensor([0.3], requires_grad=True)
        b = tapegrad.zeros(1, requires_grad=True)
        step = _line_fit_step if mode == "eager" else tapegrad.compile(_line_fit_step)
        history = []
        for _ in range(30):
            loss = step(w, b, x, y)
            history.append((loss.item(), w.item(), b.item(), w.grad.item()))
        params[mode] = np.array(history)
    np.testing.assert_allclose(params["compiled"], params["eager"], rtol=1e-5, atol=1e-6)
    assert params["compiled"][-1, 0] < params["compiled"][0, 0] / 10  # it learns
    # forward, backward and both gradient sums in one pass over the data (the mean's 1/n is
    # folded at compile time, so nothing sits between the forward and the backward loops)
    groups = step.explain().specializations[-1].program.text["forward kernels (fused groups)"]
    assert groups.count("loop over [100]") == 1


def _mlp_step_function(model, optimizer):
    loss_fn = nn.CrossEntropyLoss()

    def step(inputs, targets):
        optimizer.zero_grad()
        loss = loss_fn(model(inputs), targets)
        loss.backward()
        optimizer.step()
        return loss
    return step


def _mlp(seed):
    tapegrad.manual_seed(seed)
    return nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 4))


@pytest.mark.parametrize("options", [dict(lr=0.1), dict(lr=0.05, momentum=0.9, weight_decay=1e-3)],
                         ids=["sgd", "sgd-momentum"])
def test_mlp_training_steps_match_eager(options):
    tapegrad.manual_seed(1)
    batches = [(tapegrad.randn(8, 12), tapegrad.randint(0, 4, (8,))) for _ in range(3)]
    trajectories = {}
    for mode in ("eager", "compiled"):
        model = _mlp(0)
        optimizer = tapegrad.optim.SGD(model.parameters(), **options)
        step = _mlp_step_function(model, optimizer)
        if mode == "compiled":
            step = tapegrad.compile(step)
        losses = []
        for i in range(6):
            inputs, targets = batches[i % len(batches)]
            losses.append(step(inputs, targets).item())
        trajectories[mode] = (losses, [p.detach().clone() for p in model.parameters()],
                              [p.grad.clone() for p in model.parameters()])
        if mode == "compiled":
            compiled_step = step
    np.testing.assert_allclose(trajectories["compiled"][0], trajectories["eager"][0], rtol=1e-5)
    for got, want in zip(trajectories["compiled"][1], trajectories["eager"][1]):
        assert_close(got, want, rtol=1e-5, atol=1e-6, what="parameter")
    for got, want in zip(trajectories["compiled"][2], trajectories["eager"][2]):
        assert_close(got, want, rtol=1e-4, atol=1e-6, what="gradient")
    specializations = compiled_step.explain().specializations
    # zero_grad() at the start makes the step independent of whether .grad was None on entry
    # (it was on the first call, not after): one specialization serves every call
    assert len(specializations) == 1
    program = specializations[-1].program
    assert program.backward is None  # forward, backward and update in one kernel
    assert program.mutations and program.grad_sets


@pytest.mark.parametrize("optimizer", ["Adam", "AdamW"])
def test_adam_training_steps_compile_and_match_eager(optimizer):
    """Adam's bias corrections come from its step tensor by tensor operations (no .item()), so
    the whole step, step count included, runs in the kernel."""
    tapegrad.manual_seed(1)
    batches = [(tapegrad.randn(8, 12), tapegrad.randint(0, 4, (8,))) for _ in range(2)]
    results = {}
    for mode in ("eager", "compiled"):
        model = _mlp(0)
        adam = getattr(tapegrad.optim, optimizer)(model.parameters(), lr=0.01)
        step = _mlp_step_function(model, adam)
        if mode == "compiled":
            step = tapegrad.compile(step, fullgraph=True)
        losses = [step(*batches[i % 2]).item() for i in range(5)]
        results[mode] = (losses, [p.detach().clone() for p in model.parameters()],
                         adam.state[model[0].weight]["step"].item())
        if mode == "compiled":
            assert len(step.explain().specializations) == 1
    np.testing.assert_allclose(results["compiled"][0], results["eager"][0], rtol=1e-6)
    for got, want in zip(results["compiled"][1], results["eager"][1]):
        assert_close(got, want, rtol=1e-5, atol=1e-6, what="parameter")
    assert results["compiled"][2] == results["eager"][2] == 5.0



@pytest.mark.parametrize("optimizer", ["SGD", "Adam"])
def test_a_tensor_lr_changed_by_a_scheduler_is_read_by_the_compiled_step(optimizer):
    """The torch.compile idiom: a tensor lr, filled in place by the scheduler, is an input of
    the whole-step kernel (no recompile per lr, no value read, no graph break)."""
    tapegrad.manual_seed(2)
    x, y = tapegrad.randn(8, 12), tapegrad.randint(0, 4, (8,))
    results = {}
    for mode in ("eager", "compiled"):
        model = _mlp(0)
        opt = getattr(tapegrad.optim, optimizer)(model.parameters(), lr=tapegrad.tensor(0.05))
        schedule = tapegrad.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        step = _mlp_step_function(model, opt)
        if mode == "compiled":
            step = tapegrad.compile(step, fullgraph=True)
        for _ in range(4):
            step(x, y)
            schedule.step()
        results[mode] = [p.detach().clone() for p in model.parameters()]
        if mode == "compiled":
            assert len(step.explain().specializations) == 1
    for got, want in zip(results["compiled"], results["eager"]):
        assert_close(got, want, rtol=1e-5, atol=1e-6, what="parameter")


def _update_reading_old_and_new_values(w, x):
    loss = (w * x).sum()
    loss.backward()
    before = w * 2  # the old values, returned after the update
    with tapegrad.no_grad():
        w -= 0.1 * w.grad + 0.01 * w.sum()  # reads every old element, not just its own
        w.mul_(0.5)                          # a second update of the first one's result
    w.grad = None
    return before, loss


@pytest.mark.filterwarnings("error::tapegrad.compile.CompileWarning")  # no eager fallback
def test_updates_written_into_the_parameter_keep_the_values_others_read():
    x = tapegrad.linspace(-1, 1, 6).reshape(2, 3)
    results = {}
    for mode in ("eager", "compiled"):
        w = tapegrad.tensor(np.linspace(0.5, 1.5, 6).reshape(2, 3), requires_grad=True)
        step = _update_reading_old_and_new_values
        step = step if mode == "eager" else tapegrad.compile(step)
        results[mode] = [np.concatenate([t.detach().numpy().ravel() for t in (*step(w, x), w)])
                         for _ in range(4)]
    np.testing.assert_allclose(results["compiled"], results["eager"], rtol=1e-6)


# -- repeat(): many steps in one kernel launch -----------------------------------------------------

def _ran_in_one_launch(compiled):
    return any(entry.program.forward_repeated.signatures
               for entry in compiled.explain().specializations if hasattr(entry, "program"))


def test_repeat_runs_the_line_fit_in_one_launch_as_eager_would():
    x, y = _line_fit_problem()
    results = {}
    for mode in ("eager", "compiled"):
        w = tapegrad.tensor([0.3], requires_grad=True)
        b = tapegrad.zeros(1, requires_grad=True)
        if mode == "eager":
            for _ in range(50):
                loss = _line_fit_step(w, b, x, y)
        else:
            step = tapegrad.compile(_line_fit_step)
            loss = step.repeat(50, w, b, x, y)
        results[mode] = (loss.item(), w.item(), b.item(), w.grad.item(), w._version)
    assert results["compiled"] == pytest.approx(results["eager"], rel=1e-6, abs=1e-7)
    assert _ran_in_one_launch(step)
    # a second repeat starts from where the first left off, in one launch at once
    with tapegrad.no_grad():
        w.fill_(0.3)
    assert step.repeat(50, w, b, x, y).item() == pytest.approx(results["eager"][0], rel=1e-6)


def test_repeat_of_an_optimizer_step_matches_eager_steps():
    inputs, targets = tapegrad.randn(8, 12), tapegrad.randint(0, 4, (8,))
    results = {}
    for mode in ("eager", "compiled"):
        model = _mlp(0)
        step = _mlp_step_function(model, tapegrad.optim.SGD(model.parameters(), lr=0.1,
                                                            momentum=0.9))
        if mode == "eager":
            losses = [step(inputs, targets) for _ in range(7)]
            loss = losses[-1]
        else:
            step = tapegrad.compile(step)
            loss = step.repeat(7, inputs, targets)
        results[mode] = (loss.item(), [p.detach().clone() for p in model.parameters()],
                         [p.grad.clone() for p in model.parameters()])
    assert results["compiled"][0] == pytest.approx(results["eager"][0], rel=1e-5)
    for got, want in zip(results["compiled"][1] + results["compiled"][2],
                         results["eager"][1] + results["eager"][2]):
        assert_close(got, want, rtol=1e-4, atol=1e-6)
    assert _ran_in_one_launch(step)


def _halve_the_new_gradient(w):
    loss = (w * w).sum()
    loss.backward()
    w.grad = w.grad * 0.5  # a new .grad tensor, read (accumulated into) by the next call
    return loss


def test_repeat_of_a_step_replacing_what_the_next_reads_runs_call_by_call():
    results = {}
    for mode in ("eager", "compiled"):
        w = tapegrad.tensor([1.0, -2.0], requires_grad=True)
        if mode == "eager":
            for _ in range(5):
                _halve_the_new_gradient(w)
        else:
            step = tapegrad.compile(_halve_the_new_gradient)
            step.repeat(5, w)
        results[mode] = w.grad.tolist()
    assert results["compiled"] == results["eager"]
    assert not _ran_in_one_launch(step)


@pytest.mark.parametrize("times", [0, -1, 2.0, True])
def test_repeat_needs_a_positive_count(times):
    step = tapegrad.compile(_halve_the_new_gradient)
    w = tapegrad.tensor([1.0], requires_grad=True)
    with pytest.raises(ValueError, match="positive number of calls"):
        step.repeat(times, w)
    assert w.grad is None


def test_compiled_batch_norm_updates_running_statistics_from_each_batch():
    """The running statistics are computed from every call's batch (not the traced call's, kept
    as constants), the same numbers as eager, which follows ATen's arithmetic."""
    eager, compiled_module = nn.BatchNorm1d(3, momentum=0.2), nn.BatchNorm1d(3, momentum=0.2)
    step = tapegrad.compile(compiled_module)
    rng = np.random.default_rng(0)
    for _ in range(4):
        x = tapegrad.from_numpy(rng.standard_normal((5, 3)).astype(np.float32))
        assert_close(step(x), eager(x))
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        np.testing.assert_array_equal(getattr(compiled_module, name).numpy(),
                                      getattr(eager, name).numpy())


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_compiled_cross_entropy_with_a_class_weight_tensor(reduction):
    """A weight passed as a tensor argument is a graph input: the backward kernel runs the
    loss's gradient through numpy there (it crashed unpacking the extra input)."""
    def loss(logits, target, weight):
        return tapegrad.nn.functional.cross_entropy(logits, target, weight=weight,
                                                    reduction=reduction).sum()
    rng = np.random.default_rng(1)
    data = rng.standard_normal((4, 3)).astype(np.float32)
    target, weight = tapegrad.tensor([0, 2, 1, 2]), tapegrad.tensor([1.0, 2.0, 0.5])
    grads = []
    for fn in (loss, tapegrad.compile(loss)):
        logits = tapegrad.from_numpy(data.copy()).requires_grad_()
        value = fn(logits, target, weight)
        value.backward()
        grads.append((value, logits.grad))
    assert_close(grads[1][0], grads[0][0])
    assert_close(grads[1][1], grads[0][1])
