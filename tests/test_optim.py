"""Optimizers: step-by-step trajectories equal PyTorch's, state dicts, groups, zero_grad, errors."""
import copy

import numpy as np
import pytest

import tapegrad
from tapegrad import nn, optim

SHAPES = [(3, 4), (4,)]
STEPS = 8


def _initial_and_gradients(seed=0):
    rng = np.random.default_rng(seed)
    initial = [rng.standard_normal(s).astype(np.float32) for s in SHAPES]
    gradients = [[rng.standard_normal(s).astype(np.float32) for s in SHAPES]
                 for _ in range(STEPS)]
    return initial, gradients


CONFIGS = {
    "sgd": ("SGD", {"lr": 0.1}),
    "sgd-momentum": ("SGD", {"lr": 0.1, "momentum": 0.9}),
    "sgd-dampening": ("SGD", {"lr": 0.05, "momentum": 0.8, "dampening": 0.3}),
    "sgd-nesterov-decay": ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True,
                                   "weight_decay": 0.01}),
    "sgd-maximize": ("SGD", {"lr": 0.1, "momentum": 0.5, "maximize": True}),
    "adam": ("Adam", {"lr": 0.01}),
    "adam-decay-amsgrad": ("Adam", {"lr": 0.02, "betas": (0.8, 0.9), "weight_decay": 0.1,
                                    "amsgrad": True}),
    "adam-maximize": ("Adam", {"lr": 0.01, "eps": 1e-3, "maximize": True}),
    "adamw": ("AdamW", {"lr": 0.01}),
    "adamw-amsgrad": ("AdamW", {"lr": 0.03, "weight_decay": 0.5, "amsgrad": True}),
    "rmsprop": ("RMSprop", {"lr": 0.01}),
    "rmsprop-centered-momentum": ("RMSprop", {"lr": 0.01, "alpha": 0.9, "centered": True,
                                              "momentum": 0.5, "weight_decay": 0.1}),
    "adagrad": ("Adagrad", {"lr": 0.1}),
    "adagrad-decay-initial": ("Adagrad", {"lr": 0.1, "lr_decay": 0.05, "weight_decay": 0.1,
                                          "initial_accumulator_value": 0.3, "maximize": True}),
    "adadelta": ("Adadelta", {"lr": 1.0}),
    "adadelta-rho-decay": ("Adadelta", {"lr": 0.5, "rho": 0.7, "eps": 1e-4,
                                        "weight_decay": 0.1}),
    "adamax": ("Adamax", {"lr": 0.01}),
    "adamax-decay-maximize": ("Adamax", {"lr": 0.02, "betas": (0.8, 0.95), "weight_decay": 0.1,
                                         "maximize": True}),
    "nadam": ("NAdam", {"lr": 0.01}),
    "nadam-decay": ("NAdam", {"lr": 0.02, "weight_decay": 0.1, "momentum_decay": 0.01}),
    "nadam-decoupled": ("NAdam", {"lr": 0.02, "weight_decay": 0.1,
                                  "decoupled_weight_decay": True}),
    "radam": ("RAdam", {"lr": 0.01}),
    # beta2 = 0.9 makes the variance tractable (rho_t > 5) after a few steps: both branches run.
    "radam-rectified-decay": ("RAdam", {"lr": 0.01, "betas": (0.9, 0.9), "weight_decay": 0.1}),
    "radam-decoupled": ("RAdam", {"lr": 0.01, "betas": (0.8, 0.9), "weight_decay": 0.1,
                                  "decoupled_weight_decay": True, "maximize": True}),
}


def _trajectory(library, name, initial, gradients, groups=False):
    """Parameters after each step, as numpy arrays."""
    class_name, options = CONFIGS[name]
    params = [library.nn.Parameter(library.tensor(a.copy())) for a in initial]
    spec = ([{"params": [params[0]]}, {"params": [params[1]], "lr": options["lr"] * 3}]
            if groups else params)
    optimizer = getattr(library.optim, class_name)(spec, **options)
    history = []
    for step_gradients in gradients:
        for p, g in zip(params, step_gradients):
            p.grad = library.tensor(g.copy())
        optimizer.step()
        history.append([p.detach().numpy().copy() for p in params])
    return history, optimizer, params


@pytest.mark.parametrize("groups", [False, True], ids=["one-group", "two-groups"])
@pytest.mark.parametrize("name", CONFIGS)
def test_trajectory_equals_pytorchs(name, groups):
    torch = pytest.importorskip("torch")
    initial, gradients = _initial_and_gradients()
    ours, _, _ = _trajectory(tapegrad, name, initial, gradients, groups)
    theirs, _, _ = _trajectory(torch, name, initial, gradients, groups)
    for step, (a, b) in enumerate(zip(ours, theirs)):
        for p, q in zip(a, b):
            np.testing.assert_allclose(p, q, rtol=1e-6, atol=1e-7, err_msg=f"step {step}")


@pytest.mark.parametrize("name", CONFIGS)
def test_state_dict_round_trip_continues_the_same_trajectory(name):
    initial, gradients = _initial_and_gradients(1)
    full, _, _ = _trajectory(tapegrad, name, initial, gradients)
    _, optimizer, params = _trajectory(tapegrad, name, initial, gradients[:3])
    saved = copy.deepcopy(optimizer.state_dict())
    class_name, options = CONFIGS[name]
    resumed_params = [nn.Parameter(p.detach().clone()) for p in params]
    resumed = getattr(optim, class_name)(resumed_params, **{**options, "lr": 123.0})
    resumed.load_state_dict(saved)
    assert resumed.param_groups[0]["lr"] == options["lr"]
    for step_gradients, expected in zip(gradients[3:], full[3:]):
        for p, g in zip(resumed_params, step_gradients):
            p.grad = tapegrad.tensor(g)
        resumed.step()
        for p, e in zip(resumed_params, expected):
            np.testing.assert_array_equal(p.detach().numpy(), e)


def test_state_dict_layout_equals_pytorchs():
    torch = pytest.importorskip("torch")
    initial, gradients = _initial_and_gradients()
    for name in ("sgd-momentum", "adam-decay-amsgrad", "rmsprop-centered-momentum",
                 "adagrad-decay-initial", "adadelta", "adamax", "nadam", "radam"):
        _, ours, _ = _trajectory(tapegrad, name, initial, gradients[:2], groups=True)
        _, theirs, _ = _trajectory(torch, name, initial, gradients[:2], groups=True)
        ours_state, theirs_state = ours.state_dict(), theirs.state_dict()
        assert ours_state["param_groups"] == theirs_state["param_groups"]
        assert list(ours_state["state"]) == list(theirs_state["state"])
        for index, state in ours_state["state"].items():
            assert list(state) == list(theirs_state["state"][index])
            for key, value in state.items():
                np.testing.assert_allclose(value.numpy(), theirs_state["state"][index][key],
                                           rtol=1e-6, atol=1e-8)
        assert repr(ours) == repr(theirs)


def test_step_is_not_recorded_and_skips_parameters_without_grad():
    a, b = nn.Parameter(tapegrad.ones(2)), nn.Parameter(tapegrad.ones(2))
    optimizer = optim.SGD([a, b], lr=0.5, momentum=0.9)
    a.grad = tapegrad.ones(2)
    optimizer.step()
    assert a.is_leaf and a.grad_fn is None and a.requires_grad
    np.testing.assert_array_equal(a.detach().numpy(), [0.5, 0.5])
    np.testing.assert_array_equal(b.detach().numpy(), [1.0, 1.0])
    assert b not in optimizer.state


def test_zero_grad_sets_to_none_by_default():
    p = nn.Parameter(tapegrad.ones(2))
    optimizer = optim.Adam([p])
    p.grad = tapegrad.ones(2)
    optimizer.zero_grad(set_to_none=False)
    np.testing.assert_array_equal(p.grad.numpy(), [0, 0])
    optimizer.zero_grad()
    assert p.grad is None


def test_closure_is_evaluated_with_grad_enabled():
    w = nn.Parameter(tapegrad.tensor([3.0]))
    optimizer = optim.SGD([w], lr=0.1)

    def closure():
        optimizer.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    with tapegrad.no_grad():
        loss = optimizer.step(closure)
    assert loss.item() == 9.0 and w.item() == pytest.approx(2.4)


def test_seed_training_loop_decreases_the_loss():
    tapegrad.manual_seed(0)
    model = nn.Linear(4, 2)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = optim.SGD(model.parameters(), lr=0.1)
    x, y = tapegrad.randn(8, 4), tapegrad.randint(0, 2, (8,))
    losses = []
    for _ in range(20):
        loss = loss_fn(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0]


@pytest.mark.parametrize("call, error, message", [
    (lambda p: optim.SGD([], lr=0.1), ValueError, "optimizer got an empty parameter list"),
    (lambda p: optim.SGD(p, lr=-1), ValueError, "Invalid learning rate: -1"),
    (lambda p: optim.SGD([p], lr=0.1, nesterov=True), ValueError,
     "Nesterov momentum requires a momentum and zero dampening"),
    (lambda p: optim.Adam([p], betas=(1.0, 0.9)), ValueError,
     "Invalid beta parameter at index 0: 1.0"),
    (lambda p: optim.SGD([p * 2], lr=0.1), ValueError, "can't optimize a non-leaf Tensor"),
    (lambda p: optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1), ValueError,
     "some parameters appear in more than one parameter group"),
    (lambda p: optim.SGD(p, lr=0.1), TypeError,
     "params argument given to the optimizer should be an iterable of Tensors or dicts"),
])
def test_bad_arguments_give_pytorchs_errors(call, error, message):
    with pytest.raises(error) as info:
        call(nn.Parameter(tapegrad.ones(1)))
    assert message in str(info.value)


def test_loading_a_live_state_dict_shares_the_state_as_torch():
    torch = pytest.importorskip("torch")

    def program(lib):
        w1, w2 = (lib.nn.Parameter(lib.tensor([1.0])) for _ in range(2))
        a, b = lib.optim.Adam([w1], lr=0.1), lib.optim.Adam([w2], lr=0.1)
        (w1 * 2).sum().backward()
        a.step()
        b.load_state_dict(a.state_dict())  # not a copy: b's state is a's tensors
        (w1 * 2).sum().backward()
        a.step()
        return b.state[w2]["step"].item(), b.state[w2]["exp_avg"].item()

    assert program(tapegrad) == pytest.approx(program(torch))


def test_loading_a_mismatched_state_dict_changes_nothing():
    p, q = nn.Parameter(tapegrad.ones(1)), nn.Parameter(tapegrad.ones(1))
    optimizer = optim.SGD([p], lr=0.1, momentum=0.9)
    other = optim.SGD([p, q], lr=0.5)
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        optimizer.load_state_dict(other.state_dict())
    assert optimizer.param_groups[0]["lr"] == 0.1


def test_add_param_group_fills_defaults():
    p, q = nn.Parameter(tapegrad.ones(1)), nn.Parameter(tapegrad.ones(1))
    optimizer = optim.SGD([p], lr=0.1, momentum=0.9)
    optimizer.add_param_group({"params": q, "lr": 0.01})
    assert optimizer.param_groups[1]["momentum"] == 0.9
    assert optimizer.param_groups[1]["lr"] == 0.01


@pytest.mark.parametrize("class_name, options, steps", [
    ("Adagrad", {"lr": 0.1, "weight_decay": 0.01}, 4),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.1}, 4),
    ("Adadelta", {"lr": 1.0, "rho": 0.8}, 4),
    ("Adamax", {"lr": 0.05, "weight_decay": 0.01}, 4),
    ("NAdam", {"lr": 0.01}, 4),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}, 4),
    ("RAdam", {"lr": 0.01}, 8),  # rho_t <= 5 for steps 1-5, rectified from step 6 on
], ids=["adagrad", "adagrad-lr-decay", "adadelta", "adamax", "nadam", "nadam-decoupled",
        "radam"])
def test_compiled_training_step_captures_the_update_and_matches_eager(class_name, options, steps):
    """Optimizers whose rule never reads a tensor's value (step counts included: they are
    tensors) are captured by ``tapegrad.compile``: fullgraph=True raises on any graph break."""
    results = {mode: _training_run(class_name, options, mode == "compiled", steps)
               for mode in ("eager", "compiled")}
    np.testing.assert_allclose(results["compiled"][0], results["eager"][0], rtol=1e-5)
    for got, want in zip(results["compiled"][1], results["eager"][1]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def _training_run(class_name, options, compiled, steps=4):
    """Losses and final parameters of ``steps`` training steps on one batch."""
    tapegrad.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3))
    optimizer = getattr(optim, class_name)(model.parameters(), **options)
    loss_fn = nn.CrossEntropyLoss()

    def step(inputs, targets):
        optimizer.zero_grad()
        loss = loss_fn(model(inputs), targets)
        loss.backward()
        optimizer.step()
        return loss

    if compiled:
        step = tapegrad.compile(step, fullgraph=True)
    tapegrad.manual_seed(1)
    inputs, targets = tapegrad.randn(5, 6), tapegrad.randint(0, 3, (5,))
    losses = [step(inputs, targets).item() for _ in range(steps)]
    return losses, [p.detach().numpy().copy() for p in model.parameters()]
