"""Compiled functions and the Python state around them: what a trace read from Python (a closure's
number, ``cfg["lr"]``, ``obj.bias``, a list of tensors) is guarded, so a change recompiles
instead of computing with stale values; a function that changes Python state runs eagerly,
since a compiled call runs no Python."""
import warnings

import pytest

import tapegrad
from tapegrad.compile import CompileWarning

CONFIG = {"scale": 2.0, "inner": {"shift": 1.0}}
WEIGHTS = [tapegrad.tensor(1.0), tapegrad.tensor(2.0)]
HISTORY = []


class Settings:
    bias = 0.0


SETTINGS = Settings()


def _values(compiled, updates, x):
    """The compiled function's result after each update of Python state."""
    results = []
    with warnings.catch_warnings():
        warnings.simplefilter("error", CompileWarning)
        for update in updates:
            update()
            results.append(compiled(x).tolist())
    return results


def test_closure_numbers_and_tensors_are_read_again():
    scale, offset = 1.0, tapegrad.tensor([0.0])
    compiled = tapegrad.compile(lambda x: x * scale + offset)

    def set_to(value):
        def update():
            nonlocal scale, offset
            scale, offset = value, tapegrad.tensor([value])
        return update

    assert _values(compiled, [set_to(1.0), set_to(1.0), set_to(2.0)], tapegrad.ones(1)) == \
        [[2.0], [2.0], [4.0]]
    assert "scale == 2.0" in str(compiled.explain())


def test_dict_entries_attributes_and_helpers_are_guarded():
    def helper(x):
        return x * CONFIG["inner"]["shift"]

    compiled = tapegrad.compile(lambda x: x * CONFIG["scale"] + SETTINGS.bias + helper(x))
    updates = [lambda: None, lambda: CONFIG.update(scale=3.0),
               lambda: setattr(SETTINGS, "bias", 5.0),
               lambda: CONFIG["inner"].update(shift=0.0)]
    try:
        assert _values(compiled, updates, tapegrad.ones(1)) == [[3.0], [4.0], [9.0], [8.0]]
    finally:
        CONFIG.update(scale=2.0, inner={"shift": 1.0})
        SETTINGS.bias = 0.0
    text = str(compiled.explain())
    assert "CONFIG['scale'] changed 2.0 → 3.0" in text  # the recompile says why
    assert "CONFIG['inner']['shift'] == 1.0" in text


def test_a_list_of_tensors_changing_recompiles():
    compiled = tapegrad.compile(lambda x: sum((x * w).sum() for w in WEIGHTS))
    try:
        assert _values(compiled, [lambda: None, lambda: WEIGHTS.append(tapegrad.tensor(3.0)),
                                  lambda: WEIGHTS.__setitem__(0, tapegrad.tensor(0.0))],
                       tapegrad.ones(2)) == [6.0, 12.0, 10.0]
    finally:
        WEIGHTS[:] = [tapegrad.tensor(1.0), tapegrad.tensor(2.0)]


def test_a_modules_own_python_settings_are_guarded():
    class Scaled(tapegrad.nn.Module):
        def __init__(self):
            super().__init__()
            self.linear = tapegrad.nn.Linear(2, 1)
            self.cfg = {"gain": 1.0}

        def forward(self, x):
            return self.linear(x) * self.cfg["gain"]

    model = Scaled()
    compiled = tapegrad.compile(model)
    x = tapegrad.ones(3, 2)
    first = compiled(x)
    assert tapegrad.allclose(compiled(x), first)
    model.cfg["gain"] = 2.0
    assert tapegrad.allclose(compiled(x), 2 * first)


def test_an_unchanged_loop_compiles_once():
    compiled = tapegrad.compile(lambda x: x * CONFIG["scale"])
    for _ in range(4):
        compiled(tapegrad.ones(2))
    assert len(compiled.explain().specializations) == 1


@pytest.mark.parametrize("make", ["nonlocal", "global", "append"])
def test_a_function_changing_python_state_runs_eagerly(make):
    counter = 0

    def count_nonlocal(x):
        nonlocal counter
        counter += 1
        return x * counter

    def count_global(x):
        global SETTINGS
        SETTINGS = Settings()
        return x * 2

    def append(x):
        HISTORY.append(x)
        return x * 2

    fn = {"nonlocal": count_nonlocal, "global": count_global, "append": append}[make]
    compiled = tapegrad.compile(fn)
    HISTORY.clear()
    with pytest.warns(CompileWarning, match="a compiled call runs no Python"):
        compiled(tapegrad.ones(1))
    results = [compiled(tapegrad.ones(1)).item() for _ in range(2)]
    if make == "nonlocal":
        assert results == [2.0, 3.0] and counter == 3
    if make == "append":
        assert len(HISTORY) == 3


def test_a_tensor_learning_rate_replaced_by_a_scheduler_recompiles():
    p = tapegrad.nn.Parameter(tapegrad.zeros(1))
    optimizer = tapegrad.optim.Adam([p], lr=tapegrad.tensor(0.1))
    scheduler = tapegrad.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.5)
    step = tapegrad.compile(lambda: optimizer.step())
    seen = []
    for _ in range(4):  # Adam moves a constant gradient by the learning rate
        p.grad = tapegrad.ones(1)
        step()
        scheduler.step()
        seen.append(round(p.item(), 6))
    assert seen == [-0.1, -0.15, -0.175, -0.1875]


RATE = 0.5


def test_a_global_number_is_guarded_by_type_and_value():
    """``RATE`` becoming 1 (an int) or another float recompiles, with the change in words."""
    global RATE
    compiled = tapegrad.compile(lambda x: x * RATE)
    x = tapegrad.ones(1)
    try:
        assert compiled(x).tolist() == [0.5]
        RATE = 1
        assert compiled(x).tolist() == [1.0]
        assert compiled._entries[0].guards.failure((x,), {}) is None
        RATE = 1.0
        assert "global 'RATE' changed 1 → 1.0" in compiled._entries[0].guards.failure((x,), {})
        assert compiled(x).tolist() == [1.0]
    finally:
        RATE = 0.5
