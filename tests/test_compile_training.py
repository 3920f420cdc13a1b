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
