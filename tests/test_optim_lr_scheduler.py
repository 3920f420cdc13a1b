"""Learning-rate schedulers: lr sequences equal PyTorch's, state dicts, resuming."""
import copy
import math
import warnings

import pytest

import tapegrad
from tapegrad import nn, optim
from tapegrad.optim import lr_scheduler

EPOCHS = 25


def _warmup(epoch):
    return min(1.0, (epoch + 1) / 5)


def _simple(class_name, **options):
    return lambda schedulers, optimizer: getattr(schedulers, class_name)(optimizer, **options)


def _sequential(schedulers, optimizer):
    warmup = schedulers.LinearLR(optimizer, start_factor=0.1, total_iters=4)
    decay = schedulers.ExponentialLR(optimizer, gamma=0.9)
    cosine = schedulers.CosineAnnealingLR(optimizer, T_max=6)
    return schedulers.SequentialLR(optimizer, [warmup, decay, cosine], milestones=[4, 12])


def _chained(schedulers, optimizer):
    return schedulers.ChainedScheduler([schedulers.ConstantLR(optimizer, factor=0.5,
                                                              total_iters=3),
                                        schedulers.MultiStepLR(optimizer, [5, 9], gamma=0.7),
                                        schedulers.ExponentialLR(optimizer, gamma=0.95)])


SCHEDULES = {
    "step": _simple("StepLR", step_size=4, gamma=0.5),
    "multi-step": _simple("MultiStepLR", milestones=[3, 7, 7, 15], gamma=0.5),
    "exponential": _simple("ExponentialLR", gamma=0.9),
    "cosine": _simple("CosineAnnealingLR", T_max=10),
    "cosine-eta-min": _simple("CosineAnnealingLR", T_max=7, eta_min=0.01),
    "lambda": _simple("LambdaLR", lr_lambda=_warmup),
    "lambda-per-group": _simple("LambdaLR", lr_lambda=[_warmup, lambda e: 0.95 ** e]),
    "constant": _simple("ConstantLR", factor=0.25, total_iters=6),
    "linear": _simple("LinearLR", start_factor=0.2, end_factor=0.9, total_iters=8),
    "polynomial": _simple("PolynomialLR", total_iters=12, power=2.0),
    "warm-restarts": _simple("CosineAnnealingWarmRestarts", T_0=4, T_mult=2, eta_min=0.001),
    "warm-restarts-constant-period": _simple("CosineAnnealingWarmRestarts", T_0=6),
    "one-cycle": _simple("OneCycleLR", max_lr=[1.0, 2.0], total_steps=EPOCHS + 1),
    "one-cycle-linear-three-phase": _simple("OneCycleLR", max_lr=0.8, epochs=EPOCHS + 1,
                                            steps_per_epoch=1, anneal_strategy="linear",
                                            three_phase=True, pct_start=0.25),
    "sequential": _sequential,
    "chained": _chained,
}


def _lrs(library, name, optimizer_name="SGD"):
    """The lrs (and momenta) of both groups after construction and after each epoch."""
    params = [library.nn.Parameter(library.zeros(1)) for _ in range(2)]
    optimizer = getattr(library.optim, optimizer_name)(
        [{"params": [params[0]]}, {"params": [params[1]], "lr": 0.5}], lr=0.1, **(
            {"momentum": 0.9} if optimizer_name == "SGD" else {}))
    scheduler = SCHEDULES[name](library.optim.lr_scheduler, optimizer)

    def record():
        momenta = [g.get("momentum", g.get("betas")) for g in optimizer.param_groups]
        return scheduler.get_last_lr(), momenta

    history = [record()]
    for _ in range(EPOCHS):
        optimizer.step()
        scheduler.step()
        history.append(record())
    return history


@pytest.mark.parametrize("name", SCHEDULES)
def test_lr_sequence_equals_pytorchs(name):
    torch = pytest.importorskip("torch")
    assert _lrs(tapegrad, name) == _lrs(torch, name)  # bit for bit: the same recursions


def test_one_cycle_cycles_adams_beta1():
    torch = pytest.importorskip("torch")
    assert _lrs(tapegrad, "one-cycle", "Adam") == _lrs(torch, "one-cycle", "Adam")


@pytest.mark.parametrize("name", ["multi-step", "linear", "polynomial", "constant",
                                  "warm-restarts", "exponential"])
def test_step_with_an_epoch_uses_the_closed_form_as_pytorch(name):
    torch = pytest.importorskip("torch")

    def lrs(library):
        optimizer = library.optim.SGD([library.nn.Parameter(library.zeros(1))], lr=0.3)
        scheduler = SCHEDULES[name](library.optim.lr_scheduler, optimizer)
        result = []
        for epoch in (3, 7, 2, 10, 5.5 if name == "warm-restarts" else 5):
            scheduler.step(epoch)
            result.append(scheduler.get_last_lr())
        return result

    with warnings.catch_warnings(record=True) as their_warnings:
        warnings.simplefilter("always")
        theirs = lrs(torch)
    with warnings.catch_warnings(record=True) as our_warnings:
        warnings.simplefilter("always")
        ours = lrs(tapegrad)
    assert ours == theirs
    assert ([str(w.message) for w in our_warnings if "epoch parameter" in str(w.message)]
            == [str(w.message) for w in their_warnings if "epoch parameter" in str(w.message)])


def _plateau_lrs(library, **options):
    optimizer = library.optim.SGD([{"params": [library.nn.Parameter(library.zeros(1))]},
                                   {"params": [library.nn.Parameter(library.zeros(1))],
                                    "lr": 0.02}], lr=1.0)
    scheduler = library.optim.lr_scheduler.ReduceLROnPlateau(optimizer, **options)
    metrics = [5.0, 4.0, 4.0, 4.0, 3.99999, 4.1, 4.0, 4.2, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0,
               2.5, 2.6, 2.7, 2.8, 2.9, 3.0, 3.1, 3.2, 3.3, 3.4]
    history = []
    for value in metrics:
        scheduler.step(value)
        history.append((scheduler.get_last_lr(), scheduler.num_bad_epochs,
                        scheduler.cooldown_counter, scheduler.best))
    return history


@pytest.mark.parametrize("options", [
    {"patience": 2},
    {"mode": "max", "factor": 0.5, "patience": 1, "threshold_mode": "abs", "threshold": 0.05},
    {"patience": 1, "cooldown": 2, "min_lr": [0.05, 0.01], "factor": 0.3},
    {"patience": 0, "threshold": 0.1, "min_lr": 0.001},
])
def test_reduce_on_plateau_equals_pytorchs(options):
    torch = pytest.importorskip("torch")
    assert _plateau_lrs(tapegrad, **options) == _plateau_lrs(torch, **options)


def test_reduce_on_plateau_cuts_after_patience_runs_out():
    history = _plateau_lrs(tapegrad, patience=2)
    lrs = [lrs[0] for lrs, *_ in history]
    # 4.0 improves on 5.0; three epochs without relative improvement > 1e-4 then cut the lr.
    assert lrs[:4] == [1.0, 1.0, 1.0, 1.0] and lrs[4] == pytest.approx(0.1)


@pytest.mark.parametrize("name", ["sequential", "chained", "one-cycle-linear-three-phase",
                                  "warm-restarts"])
def test_state_dict_resumes_composite_schedules(name):
    def build():
        optimizer = optim.SGD([nn.Parameter(tapegrad.zeros(1))], lr=0.1, momentum=0.9)
        return optimizer, SCHEDULES[name](lr_scheduler, optimizer)

    optimizer, scheduler = build()
    for _ in range(7):
        scheduler.step()
    state = copy.deepcopy(scheduler.state_dict())
    assert "optimizer" not in state
    resumed_optimizer, resumed = build()
    resumed_optimizer.load_state_dict(optimizer.state_dict())
    resumed.load_state_dict(state)
    for _ in range(10):
        scheduler.step()
        resumed.step()
        assert resumed.get_last_lr() == scheduler.get_last_lr()


@pytest.mark.parametrize("call, error, message", [
    (lambda o: lr_scheduler.LinearLR(o, start_factor=0), ValueError,
     "Starting multiplicative factor expected to be greater than 0"),
    (lambda o: lr_scheduler.ConstantLR(o, factor=2), ValueError,
     "Constant multiplicative factor expected to be between 0 and 1."),
    (lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=0), ValueError,
     "Expected positive integer T_0, but got 0"),
    (lambda o: lr_scheduler.OneCycleLR(o, max_lr=1.0), ValueError,
     "You must define either total_steps OR (epochs AND steps_per_epoch)"),
    (lambda o: lr_scheduler.OneCycleLR(o, max_lr=[1.0, 2.0], total_steps=3), ValueError,
     "max_lr must have the same length as optimizer.param_groups"),
    (lambda o: lr_scheduler.ReduceLROnPlateau(o, factor=1.0), ValueError,
     "Factor should be < 1.0."),
    (lambda o: lr_scheduler.ReduceLROnPlateau(o, mode="up"), ValueError, "mode up is unknown!"),
    (lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.StepLR(o, 2)], milestones=[3]),
     ValueError, "Sequential Schedulers expects number of schedulers provided to be one more"),
    (lambda o: lr_scheduler.ChainedScheduler([lr_scheduler.ReduceLROnPlateau(o)]), ValueError,
     "ChainedScheduler does not support `ReduceLROnPlateau`"),
])
def test_bad_arguments_give_pytorchs_errors(call, error, message):
    optimizer = optim.SGD([nn.Parameter(tapegrad.zeros(1))], lr=0.1)
    with pytest.raises(error) as info:
        call(optimizer)
    assert message in str(info.value)


def test_one_cycle_refuses_to_step_past_total_steps():
    optimizer = optim.SGD([nn.Parameter(tapegrad.zeros(1))], lr=0.1, momentum=0.9)
    scheduler = lr_scheduler.OneCycleLR(optimizer, max_lr=1.0, total_steps=3)
    scheduler.step()
    scheduler.step()
    scheduler.step()
    with pytest.raises(ValueError, match="Tried to step 4 times. The specified number of total "
                                         "steps is 3"):
        scheduler.step()


def test_closed_forms_hold():
    cosine = [lrs for lrs, _ in _lrs(tapegrad, "cosine")]
    for epoch in range(11):
        expected = 0.1 * (1 + math.cos(math.pi * epoch / 10)) / 2
        assert cosine[epoch][0] == pytest.approx(expected, abs=1e-12)
    step = [lrs for lrs, _ in _lrs(tapegrad, "step")]
    assert [round(lrs[0], 10) for lrs in step[:9]] == [0.1] * 4 + [0.05] * 4 + [0.025]
    linear = [lrs for lrs, _ in _lrs(tapegrad, "linear")]
    for epoch in range(EPOCHS + 1):
        factor = 0.2 + 0.7 * min(epoch, 8) / 8
        assert linear[epoch][1] == pytest.approx(0.5 * factor, abs=1e-12)
    restarts = [lrs for lrs, _ in _lrs(tapegrad, "warm-restarts")]
    # periods 4, 8, 16: restarts at epochs 4 and 12
    assert restarts[4][0] == restarts[12][0] == pytest.approx(0.1)
    assert restarts[3][0] == pytest.approx(0.001 + 0.099 * (1 + math.cos(math.pi * 3 / 4)) / 2)
    one_cycle = _lrs(tapegrad, "one-cycle")
    warmup_end = 0.3 * (EPOCHS + 1) - 1  # the lr peaks at this (fractional) step
    assert one_cycle[0][0] == pytest.approx([1.0 / 25, 2.0 / 25])
    for step in (3, 6):
        rise = (1 - math.cos(math.pi * step / warmup_end)) / 2
        assert one_cycle[step][0][0] == pytest.approx(0.04 + (1.0 - 0.04) * rise, abs=1e-12)
        assert one_cycle[step][1][0] == pytest.approx(0.95 - 0.1 * rise, abs=1e-12)
    assert one_cycle[-1][0] == pytest.approx([1.0 / 25 / 1e4, 2.0 / 25 / 1e4])


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


@pytest.mark.parametrize("name", [n for n in SCHEDULES if not n.startswith("one-cycle")
                                  and n != "lambda-per-group"])
def test_a_tensor_lr_is_filled_in_place_with_the_float_schedule(name):
    """A tensor lr (what a compiled optimizer step reads) keeps its identity: schedulers fill it,
    as PyTorch's do, and the values follow the same schedule as a float lr."""
    def lrs(lr):
        optimizer = optim.SGD([nn.Parameter(tapegrad.zeros(1))], lr=lr, momentum=0.9)
        tensor = optimizer.param_groups[0]["lr"]
        scheduler = SCHEDULES[name](lr_scheduler, optimizer)
        values = []
        for _ in range(EPOCHS):
            optimizer.step()
            scheduler.step()
            assert not isinstance(lr, tapegrad.Tensor) or optimizer.param_groups[0]["lr"] is tensor
            values.append(float(optimizer.param_groups[0]["lr"]))
        assert scheduler.get_last_lr()[0] is not tensor  # a copy, as PyTorch's get_last_lr() gives
        return values

    expected = lrs(0.1)
    assert lrs(tapegrad.tensor(0.1, dtype=tapegrad.float64)) == pytest.approx(expected, rel=1e-12)
