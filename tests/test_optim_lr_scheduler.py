"""Learning-rate schedulers: lr sequences equal PyTorch's, state dicts, resuming."""
import math

import pytest

import tapegrad
from tapegrad import nn, optim
from tapegrad.optim import lr_scheduler

EPOCHS = 25


def _warmup(epoch):
    return min(1.0, (epoch + 1) / 5)


SCHEDULES = {
    "step": ("StepLR", {"step_size": 4, "gamma": 0.5}),
    "exponential": ("ExponentialLR", {"gamma": 0.9}),
    "cosine": ("CosineAnnealingLR", {"T_max": 10}),
    "cosine-eta-min": ("CosineAnnealingLR", {"T_max": 7, "eta_min": 0.01}),
    "lambda": ("LambdaLR", {"lr_lambda": _warmup}),
    "lambda-per-group": ("LambdaLR", {"lr_lambda": [_warmup, lambda e: 0.95 ** e]}),
}


def _lrs(library, name):
    class_name, options = SCHEDULES[name]
    params = [library.nn.Parameter(library.zeros(1)) for _ in range(2)]
    optimizer = library.optim.SGD([{"params": [params[0]]}, {"params": [params[1]], "lr": 0.5}],
                                  lr=0.1)
    scheduler = getattr(library.optim.lr_scheduler, class_name)(optimizer, **options)
    history = [scheduler.get_last_lr()]
    for _ in range(EPOCHS):
        optimizer.step()
        scheduler.step()
        history.append(scheduler.get_last_lr())
    return history


@pytest.mark.parametrize("name", SCHEDULES)
def test_lr_sequence_equals_pytorchs(name):
    torch = pytest.importorskip("torch")
    assert _lrs(tapegrad, name) == _lrs(torch, name)  # bit for bit: the same recursions


def test_closed_forms_hold():
    cosine = _lrs(tapegrad, "cosine")
    for epoch in range(11):
        expected = 0.1 * (1 + math.cos(math.pi * epoch / 10)) / 2
        assert cosine[epoch][0] == pytest.approx(expected, abs=1e-12)
    step = _lrs(tapegrad, "step")
    assert [round(lrs[0], 10) for lrs in step[:9]] == [0.1] * 4 + [0.05] * 4 + [0.025]


def test_scheduler_state_dict_resumes_the_sequence():
    params = [nn.Parameter(tapegrad.zeros(1))]
    optimizer = optim.SGD(params, lr=1.0)
    scheduler = lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.1)
    for _ in range(3):
        scheduler.step()
    state = scheduler.state_dict()
    assert "optimizer" not in state and state["last_epoch"] == 3
    resumed_optimizer = optim.SGD([nn.Parameter(tapegrad.zeros(1))], lr=1.0)
    resumed_optimizer.load_state_dict(optimizer.state_dict())
    resumed = lr_scheduler.StepLR(resumed_optimizer, step_size=2, gamma=0.1)
    resumed.load_state_dict(state)
    scheduler.step()
    resumed.step()
    assert resumed.get_last_lr() == scheduler.get_last_lr() == pytest.approx([0.01])


def test_lambda_scheduler_saves_callable_objects_but_not_functions():
    class Decay:
        def __init__(self):
            self.rate = 0.5

        def __call__(self, epoch):
            return self.rate ** epoch

    optimizer = optim.SGD([nn.Parameter(tapegrad.zeros(1))], lr=1.0)
    scheduler = lr_scheduler.LambdaLR(optimizer, Decay())
    assert scheduler.state_dict()["lr_lambdas"] == [{"rate": 0.5}]
    with pytest.raises(ValueError, match="Expected 1 lr_lambdas, but got 2"):
        lr_scheduler.LambdaLR(optimizer, [_warmup, _warmup])
