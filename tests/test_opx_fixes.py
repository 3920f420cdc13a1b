"""Optimizer plumbing found by the optimization-heavy programs (opx_*): step hooks of wrappers
that skip ``Optimizer.__init__``, LBFGS's late line-search check, ``load_state_dict`` (tensors
nested in the state, ``__setstate__`` upgrading older checkpoints, parameter names, state of no
parameter), the ``torch._foreach_*`` ops optimizers and EMA code call, ``clip_grad_value_``
without gradients, and schedulers meeting a parameter group added after them."""
import math
import subprocess
import sys
import textwrap
from collections import defaultdict

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


# -- step hooks of a wrapper that never runs Optimizer.__init__ (timm's Lookahead) ---------------
def _wrapper_class(lib):
    class Wrapper(lib.optim.Optimizer):
        def __init__(self, base):  # super().__init__() not called on purpose
            self.base = base
            self.param_groups = base.param_groups
            self.defaults = base.defaults
            self.state = defaultdict(dict)

        def step(self, closure=None):
            return self.base.step(closure)
    return Wrapper


def _wrapped_steps(lib, zero_grad_first):
    """The parameter after two wrapper steps; ``zero_grad`` on the wrapper makes PyTorch hook its
    class's ``step``, which then needs the hook tables ``__init__`` would have made."""
    w = lib.nn.Parameter(lib.tensor([1.0, 2.0]))
    opt = _wrapper_class(lib)(lib.optim.SGD([w], lr=0.1))
    for _ in range(2):
        if zero_grad_first:
            opt.zero_grad()
        else:
            w.grad = None
        (w ** 2).sum().backward()
        opt.step()
    return w


def test_wrapper_without_init_steps_bare():
    w = _wrapped_steps(tapegrad, zero_grad_first=False)
    np.testing.assert_allclose(w.detach().numpy(), [0.64, 1.28], rtol=1e-6)


def test_wrapper_without_init_runs_the_base_optimizers_hooks():
    w = tapegrad.nn.Parameter(tapegrad.tensor([1.0]))
    base = tapegrad.optim.SGD([w], lr=0.5)
    calls = []
    base.register_step_post_hook(lambda *args: calls.append("base"))
    w.grad = tapegrad.tensor([1.0])
    _wrapper_class(tapegrad)(base).step()
    assert calls == ["base"] and w.item() == 0.5


def test_wrapper_zero_grad_hooks_its_step():
    with pytest.raises(AttributeError, match="_optimizer_step_pre_hooks"):
        _wrapped_steps(tapegrad, zero_grad_first=True)


@needs_torch
@pytest.mark.parametrize("zero_grad_first", [False, True])
def test_wrapper_without_init_as_torch(zero_grad_first):
    assert_same(lambda lib: _wrapped_steps(lib, zero_grad_first), torch)


# -- LBFGS checks line_search_fn only when it searches -------------------------------------------
def _lbfgs_unknown_search(lib, with_gradient):
    w = lib.nn.Parameter(lib.tensor([1.0, -1.0]))
    opt = lib.optim.LBFGS([w], line_search_fn="armijo")

    def closure():
        opt.zero_grad()
        loss = (w ** 2).sum()
        if with_gradient:
            loss.backward()
        return loss
    return opt.step(closure)


def test_lbfgs_at_a_stationary_point_never_checks_the_line_search():
    assert _lbfgs_unknown_search(tapegrad, with_gradient=False).item() == 2.0
    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        _lbfgs_unknown_search(tapegrad, with_gradient=True)


@needs_torch
@pytest.mark.parametrize("with_gradient", [False, True])
def test_lbfgs_unknown_search_as_torch(with_gradient):
    assert_same(lambda lib: _lbfgs_unknown_search(lib, with_gradient), torch)


# -- load_state_dict casts tensors nested in the state ---------------------------------------------
def _history_optimizer(lib):
    class History(lib.optim.Optimizer):
        """Keeps every gradient, in containers, as hand-written optimizers do."""

        def __init__(self, params, **options):
            super().__init__(params, dict(lr=0.1, **options))

        def step(self, closure=None):
            for group in self.param_groups:
                for p in group["params"]:
                    state = self.state[p]
                    state.setdefault("hist", []).append(p.grad.clone())
                    state["pair"] = (p.grad.clone(), 3)
                    state["meta"] = {"best": p.grad.clone(), "step": lib.tensor(2.0)}
                    state["step"] = lib.tensor(1.0)
    return History


def _loaded_state(lib, dtype, **options):
    history = _history_optimizer(lib)
    w = lib.nn.Parameter(lib.tensor([1.0, 2.0]))
    opt = history([w], **options)
    w.grad = lib.tensor([0.5, 0.25])
    opt.step()
    saved = opt.state_dict()
    target = lib.nn.Parameter(lib.tensor([0.0, 0.0], dtype=dtype))
    loaded = history([target], **options)
    loaded.load_state_dict(saved)
    return loaded.state[target], saved["state"][0]


@pytest.mark.parametrize("dtype", [tapegrad.float64, tapegrad.float16])
def test_load_state_dict_casts_nested_tensors(dtype):
    state, saved = _loaded_state(tapegrad, dtype)
    assert state["hist"][0].dtype == dtype and state["pair"][0].dtype == dtype
    assert state["meta"]["best"].dtype == dtype
    assert type(state["pair"]) is tuple and state["pair"][1] == 3
    assert state["hist"] is not saved["hist"]  # containers are rebuilt
    # a step keeps its dtype, at any depth
    assert state["step"].dtype == state["meta"]["step"].dtype == tapegrad.float32


def test_load_state_dict_fused_group_step_is_float32():
    state, _ = _loaded_state(tapegrad, tapegrad.float64, fused=True)
    assert state["step"].dtype == tapegrad.float32 and state["hist"][0].dtype == tapegrad.float64


@needs_torch
def test_load_state_dict_nested_dtypes_as_torch():
    def dtypes_of(lib):
        state, saved = _loaded_state(lib, lib.float64)
        tensors = (state["hist"][0], state["pair"][0], state["meta"]["best"],
                   state["meta"]["step"], state["step"])
        return [str(t.dtype).split(".")[-1] for t in tensors], state["hist"] is saved["hist"]
    assert dtypes_of(tapegrad) == dtypes_of(torch)


# -- torch._foreach_* ---------------------------------------------------------------------------
def test_foreach_maximum_minimum_take_numbers():
    a = [tapegrad.tensor([1.0, 4.0]), tapegrad.tensor([9.0])]
    assert [t.tolist() for t in tapegrad._foreach_maximum(a, 3.0)] == [[3.0, 4.0], [9.0]]
    assert [t.tolist() for t in tapegrad._foreach_minimum(a, [2, 5.5])] == [[1.0, 2.0], [5.5]]
    ints = tapegrad._foreach_maximum([tapegrad.tensor([1, 5])], 3.5)[0]
    assert ints.dtype == tapegrad.float32 and ints.tolist() == [3.5, 5.0]
    out = tapegrad._foreach_maximum_(a, [tapegrad.tensor([2.0, 2.0]), tapegrad.tensor([10.0])])
    assert out is a and [t.tolist() for t in a] == [[2.0, 4.0], [10.0]]


def test_foreach_new_ops_values():
    a = [tapegrad.tensor([1.0, -4.0, 0.0]), tapegrad.tensor([[2.0, -1.0]])]
    assert [t.item() for t in tapegrad._foreach_powsum(a)] == [17.0, 5.0]
    assert [t.item() for t in tapegrad._foreach_powsum(a, 0)] == [3.0, 2.0]  # 0 ** 0 is one
    assert [t.item() for t in tapegrad._foreach_max(a)] == [1.0, 2.0]
    assert tapegrad._foreach_pow(2, [tapegrad.tensor([1, 3])])[0].tolist() == [2, 8]
    clone = tapegrad._foreach_clone(a)
    assert clone[0] is not a[0] and clone[0].tolist() == a[0].tolist()
    mm = tapegrad._foreach_mm([tapegrad.ones(2, 3)], [tapegrad.ones(3, 1)])
    assert mm[0].tolist() == [[3.0], [3.0]]
    x = [tapegrad.tensor([0.5, 0.25], dtype=tapegrad.float64)]
    for name, exact in [("erf", math.erf), ("lgamma", math.lgamma), ("log2", math.log2),
                        ("atan", math.atan), ("sinh", math.sinh)]:
        expected = [exact(v) for v in (0.5, 0.25)]
        np.testing.assert_allclose(getattr(tapegrad, f"_foreach_{name}")(x)[0].numpy(), expected)
        inplace = [x[0].clone()]
        getattr(tapegrad, f"_foreach_{name}_")(inplace)
        np.testing.assert_allclose(inplace[0].numpy(), expected)


FOREACH_CASES = {
    "maximum_scalar": lambda lib: lib._foreach_maximum([lib.tensor([1.0, 5.0])], 3.0),
    "maximum_int_list": lambda lib: lib._foreach_maximum([lib.tensor([1, 5])], [3]),
    "minimum_0d": lambda lib: lib._foreach_minimum([lib.tensor([1.0, 5.0])], lib.tensor(2.0)),
    "maximum_1d_tensor": lambda lib: lib._foreach_maximum([lib.tensor([1.0, 5.0])],
                                                          lib.tensor([3.0, 1.0])),
    "maximum_inplace_int": lambda lib: lib._foreach_maximum_([lib.tensor([1, 5])], 3.5),
    "minimum_wrong_length": lambda lib: lib._foreach_minimum([lib.tensor([1.0])], [1.0, 2.0]),
    "powsum_orders": lambda lib: [lib._foreach_powsum([lib.tensor([1.0, -4.0, 0.0])], o)
                                  for o in (1, 1.5, 3, float("inf"), -1)],
    "powsum_dtype": lambda lib: lib._foreach_powsum([lib.tensor([1.0, 2.0])], 2,
                                                    dtype=lib.float64),
    "powsum_int": lambda lib: lib._foreach_powsum([lib.tensor([1, 2])]),
    "max_empty": lambda lib: lib._foreach_max([lib.tensor([])]),
    "mm_lengths": lambda lib: lib._foreach_mm([lib.ones(2, 3)], [lib.ones(3, 1)] * 2),
    "pow_scalar_base": lambda lib: lib._foreach_pow(2.0, [lib.tensor([1.0, 0.5])]),
    "pow_empty": lambda lib: lib._foreach_pow(2.0, []),
    "unary_family": lambda lib: [getattr(lib, f"_foreach_{n}")([lib.tensor([0.5, 0.25])])
                                 for n in ("acos", "asin", "atan", "cosh", "sinh", "tan", "erf",
                                           "erfc", "lgamma", "log10", "log2")],
}


@needs_torch
@pytest.mark.parametrize("name", sorted(FOREACH_CASES))
def test_foreach_as_torch(name):
    assert_same(FOREACH_CASES[name], torch)


# -- clip_grad_value_ with no gradient at all ------------------------------------------------------
def _clip_value_without_grads(lib, parameters):
    return lib.nn.utils.clip_grad_value_(parameters(lib), 1.0)


NO_GRAD_PARAMETERS = {
    "frozen": lambda lib: [lib.nn.Parameter(lib.ones(2))],
    "empty_list": lambda lib: [],
    "empty_generator": lambda lib: (p for p in []),
}


@pytest.mark.parametrize("name", sorted(NO_GRAD_PARAMETERS))
def test_clip_grad_value_without_gradients_raises(name):
    with pytest.raises(RuntimeError, match="nested_tensorlist"):
        _clip_value_without_grads(tapegrad, NO_GRAD_PARAMETERS[name])


def test_clip_grad_value_clamps_when_some_gradients_exist():
    with_grad, frozen = tapegrad.nn.Parameter(tapegrad.ones(2)), tapegrad.nn.Parameter(tapegrad.ones(1))
    with_grad.grad = tapegrad.tensor([3.0, -0.5])
    assert tapegrad.nn.utils.clip_grad_value_([with_grad, frozen], 1.0) is None
    assert with_grad.grad.tolist() == [1.0, -0.5]


@needs_torch
@pytest.mark.parametrize("name", sorted(NO_GRAD_PARAMETERS))
def test_clip_grad_value_without_gradients_as_torch(name):
    assert_same(lambda lib: _clip_value_without_grads(lib, NO_GRAD_PARAMETERS[name]), torch)


# -- schedulers refuse a parameter group added after them (progressive unfreezing) ------------------
SCHEDULERS = {
    "LambdaLR": lambda L, o: L.LambdaLR(o, lambda e: 0.9 ** e),
    "MultiplicativeLR": lambda L, o: L.MultiplicativeLR(o, lambda e: 0.9),
    "CyclicLR": lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2),
    "CyclicLR_no_momentum": lambda L, o: L.CyclicLR(o, 0.01, 0.1, cycle_momentum=False),
    "CosineAnnealingWarmRestarts": lambda L, o: L.CosineAnnealingWarmRestarts(o, 2),
    "CosineAnnealingLR": lambda L, o: L.CosineAnnealingLR(o, T_max=1),  # periodic branch
    "StepLR": lambda L, o: L.StepLR(o, 1, 0.5),
    "LinearLR": lambda L, o: L.LinearLR(o, 0.5, total_iters=3),
}


def _lrs_after_adding_a_group(lib, name):
    """The lrs of both groups after two steps; the second group came after the scheduler."""
    first, second = lib.nn.Parameter(lib.ones(2)), lib.nn.Parameter(lib.ones(2))
    opt = lib.optim.SGD([first], lr=0.1, momentum=0.9)
    scheduler = SCHEDULERS[name](lib.optim.lr_scheduler, opt)
    opt.step()
    scheduler.step()
    opt.add_param_group({"params": [second], "lr": 0.01})
    for _ in range(2):
        opt.step()
        scheduler.step()
    return [group["lr"] for group in opt.param_groups]


def test_lambda_lr_after_adding_a_group_raises():
    with pytest.raises(ValueError, match="zip\\(\\) argument 2 is shorter than argument 1"):
        _lrs_after_adding_a_group(tapegrad, "LambdaLR")


def test_step_lr_after_adding_a_group_schedules_both():
    np.testing.assert_allclose(_lrs_after_adding_a_group(tapegrad, "StepLR"), [0.0125, 0.0025])


@needs_torch
@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_scheduler_after_adding_a_group_as_torch(name):
    assert_same(lambda lib: _lrs_after_adding_a_group(lib, name), torch)


# -- load_state_dict goes through __setstate__, which upgrades older checkpoints -------------------
NEWER_OPTIONS = ("foreach", "maximize", "capturable", "differentiable", "fused",
                 "decoupled_weight_decay", "nesterov", "centered", "amsgrad")
NUMBER_STATE = ("step", "eta", "mu", "mu_product")
OPTIMIZERS = ("SGD", "Adam", "AdamW", "Adagrad", "Adadelta", "Adamax", "ASGD", "NAdam", "RAdam",
              "RMSprop", "Rprop", "Adafactor")


def _old_checkpoint_loaded(lib, name):
    """Group options and number-state types after loading a state dict stripped of the newer
    options, its scalar state as Python numbers (what older versions wrote)."""
    w = lib.nn.Parameter(lib.tensor([1.0, -2.0]))
    w.grad = lib.tensor([0.5, 0.25])
    opt = getattr(lib.optim, name)([w], lr=0.01)
    opt.step()
    old = opt.state_dict()
    old["param_groups"][0]["weight_decay"] = 0.1
    for key in NEWER_OPTIONS:
        old["param_groups"][0].pop(key, None)
    for key in NUMBER_STATE:
        if key in old["state"].get(0, {}):
            old["state"][0][key] = old["state"][0][key].item()
    fresh = getattr(lib.optim, name)([w], lr=0.5)
    fresh.load_state_dict(old)
    group = fresh.param_groups[0]
    numbers = {key: str(value.dtype).split(".")[-1] for key, value in fresh.state[w].items()
               if key in NUMBER_STATE}
    return sorted((key, group[key]) for key in NEWER_OPTIONS if key in group), numbers


def test_old_adam_checkpoint_is_upgraded():
    options, numbers = _old_checkpoint_loaded(tapegrad, "Adam")
    assert dict(options) == {"amsgrad": False, "maximize": False, "foreach": None,
                             "capturable": False, "differentiable": False, "fused": None,
                             "decoupled_weight_decay": False}
    assert numbers == {"step": "float32"}


def test_adamw_always_loads_decoupled():
    options, _ = _old_checkpoint_loaded(tapegrad, "AdamW")
    assert dict(options)["decoupled_weight_decay"] is True


@needs_torch
@pytest.mark.parametrize("name", OPTIMIZERS)
def test_old_checkpoint_upgraded_as_torch(name):
    assert _old_checkpoint_loaded(tapegrad, name) == _old_checkpoint_loaded(torch, name)


def _custom_setstate_and_names(lib):
    calls = []

    class Custom(lib.optim.Optimizer):
        def __init__(self, params):
            super().__init__(params, dict(lr=0.1, nesterov=False))

        def __setstate__(self, state):
            calls.append(sorted(state))
            super().__setstate__(state)
            for group in self.param_groups:
                group.setdefault("nesterov", True)

        def step(self, closure=None):
            pass

    model = lib.nn.Linear(2, 1)
    opt = Custom(model.named_parameters())
    saved = opt.state_dict()
    del saved["param_groups"][0]["nesterov"], saved["param_groups"][0]["param_names"]
    saved["state"]["note"] = 7  # state of no parameter
    opt.load_state_dict(saved)
    group = opt.param_groups[0]
    return (calls, group["nesterov"], group["param_names"], opt.state["note"],
            sorted(map(str, opt.state_dict()["state"])))


def test_load_state_dict_calls_setstate_and_keeps_names_and_stray_state():
    calls, nesterov, names, note, keys = _custom_setstate_and_names(tapegrad)
    assert calls == [["param_groups", "state"]] and nesterov is True
    assert names == ["weight", "bias"] and note == 7 and keys == ["note"]


@needs_torch
def test_load_state_dict_setstate_as_torch():
    assert _custom_setstate_and_names(tapegrad) == _custom_setstate_and_names(torch)


# -- step hooks are patched onto each class an instance was made of, as PyTorch ---------------------
def _hook_calls_through_super_step(lib):
    """Post-hook calls for a subclass step calling ``super().step()``: once while the parent class
    has had no instance of its own, twice after (its step is hooked then too)."""
    class Parent(lib.optim.Optimizer):
        def __init__(self, params):
            super().__init__(params, {"lr": 1.0})

        def step(self, closure=None):
            for p in self.param_groups[0]["params"]:
                p.data.sub_(p.grad)

    class Child(Parent):
        def step(self, closure=None):
            return super().step(closure)

    w = lib.nn.Parameter(lib.ones(1))
    w.grad = lib.ones(1)
    opt = Child([w])
    calls = []
    opt.register_step_post_hook(lambda *args: calls.append(1))
    opt.step()
    counts = [len(calls)]
    Parent([lib.nn.Parameter(lib.ones(1))])
    opt.step()
    return counts + [len(calls)]


def test_super_step_hooks_follow_patched_classes():
    assert _hook_calls_through_super_step(tapegrad) == [1, 3]


def test_builtin_optimizers_each_have_their_own_step():
    """Each built-in has a ``step`` of its own class, as in PyTorch, so that patching one (or the
    bare base class, whose step raises) hooks no other's. Checked in a fresh process: creating
    an AdamW anywhere earlier patches a ``step`` onto AdamW itself, as in PyTorch."""
    program = textwrap.dedent("""
        import tapegrad
        for name in ("SGD", "Adam", "Adagrad", "Rprop", "Muon"):
            assert "step" in vars(getattr(tapegrad.optim, name))
        assert "step" not in vars(tapegrad.optim.AdamW)  # it inherits Adam's, as PyTorch's
        try:
            tapegrad.optim.Optimizer([tapegrad.nn.Parameter(tapegrad.ones(1))], {}).step()
        except NotImplementedError:
            print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr


@needs_torch
def test_super_step_hooks_as_torch():
    assert _hook_calls_through_super_step(tapegrad) == _hook_calls_through_super_step(torch)
