"""Fixes found by the Lightning-style trainer programs (tests/programs/ptl_*): the autocast
settings a region sets and restores even when it does not autocast; GradScaler's float32 scale and
its argument checks; DataLoader workers with their own Python/NumPy random streams."""
import random
import threading

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same
from tapegrad.utils.data import DataLoader, Dataset


def _scaler_trace(lib):
    """Scales seen through growth and backoff with non-power-of-two factors, and what a float64
    loss scales to."""
    scaler = lib.amp.GradScaler("cpu", init_scale=0.1, growth_factor=1.1, backoff_factor=0.3,
                                growth_interval=1)
    weight = lib.nn.Parameter(lib.tensor([1.0, -1.0]))
    optimizer = lib.optim.SGD([weight], lr=0.1)
    seen = [scaler.get_scale()]
    for overflow in (False, True, False):
        optimizer.zero_grad()
        scaler.scale(weight.sum()).backward()
        if overflow:
            weight.grad[0] = float("inf")
        scaler.step(optimizer)
        scaler.update()
        seen += [scaler.get_scale(), weight.grad.tolist()]
    scaler.update(new_scale=0.7)
    seen += [scaler.get_scale(), scaler.state_dict()["scale"],
             scaler.scale(lib.tensor(3.0, dtype=lib.float64)).item()]
    return seen


def _autocast_dtypes_seen(lib):
    """The cpu autocast dtype outside, inside a disabled float16 region, in a nested region
    without a dtype (it inherits), and after leaving."""
    seen = [lib.get_autocast_dtype("cpu")]
    with lib.autocast("cpu", dtype=lib.float16, enabled=False):
        seen.append(lib.get_autocast_dtype("cpu"))
        with lib.autocast("cpu", enabled=False) as inner:
            seen += [lib.get_autocast_dtype("cpu"), inner.fast_dtype]
        seen.append(lib.get_autocast_dtype("cpu"))
    seen.append(lib.get_autocast_dtype("cpu"))
    return [str(d) for d in seen]


def test_disabled_region_sets_and_restores_the_autocast_dtype():
    assert _autocast_dtypes_seen(tapegrad) == ["torch.bfloat16", "torch.float16", "torch.float16",
                                               "torch.float16", "torch.float16", "torch.bfloat16"]
    torch = pytest.importorskip("torch")
    assert _autocast_dtypes_seen(tapegrad) == _autocast_dtypes_seen(torch)


def test_region_dtype_is_per_device_and_restored_after_an_exception():
    with pytest.raises(ZeroDivisionError):
        with tapegrad.autocast("cuda:0", dtype=tapegrad.bfloat16, enabled=False):
            assert tapegrad.get_autocast_dtype("cuda") == tapegrad.bfloat16
            assert tapegrad.get_autocast_dtype("cpu") == tapegrad.bfloat16
            1 / 0
    assert tapegrad.get_autocast_dtype("cuda") == tapegrad.float16


def test_unsupported_cpu_dtype_still_names_the_region_dtype():
    with pytest.warns(UserWarning, match="target dtype is not supported"):
        region = tapegrad.autocast("cpu", dtype=tapegrad.float32)
    with region:
        assert not tapegrad.is_autocast_enabled("cpu")
        assert tapegrad.get_autocast_dtype("cpu") == tapegrad.float32
    assert tapegrad.get_autocast_dtype("cpu") == tapegrad.bfloat16


def test_decorated_function_reentered_recursively_restores_each_level():
    @tapegrad.autocast("cpu", dtype=tapegrad.float16, enabled=False)
    def depth(n):
        return 0 if n == 0 else 1 + depth(n - 1)

    assert depth(3) == 3
    assert tapegrad.get_autocast_dtype("cpu") == tapegrad.bfloat16


def test_settings_are_per_thread():
    seen = []
    with tapegrad.autocast("cpu", dtype=tapegrad.float16, enabled=False):
        worker = threading.Thread(target=lambda: seen.append(tapegrad.get_autocast_dtype("cpu")))
        worker.start()
        worker.join()
    assert seen == [tapegrad.bfloat16]


def test_set_autocast_dtype_and_cache_flag():
    previous = tapegrad.get_autocast_dtype("cpu")
    try:
        tapegrad.set_autocast_dtype("cpu", tapegrad.float16)
        assert tapegrad.get_autocast_dtype("cpu") == tapegrad.float16
        assert tapegrad.autocast("cpu", enabled=False).fast_dtype == tapegrad.float16
    finally:
        tapegrad.set_autocast_dtype("cpu", previous)
    assert tapegrad.is_autocast_cache_enabled()
    with tapegrad.autocast("cpu", enabled=False, cache_enabled=False):
        assert not tapegrad.is_autocast_cache_enabled()
    assert tapegrad.is_autocast_cache_enabled()


@pytest.mark.parametrize("case", [
    lambda lib: lib.get_autocast_dtype("foo"),
    lambda lib: lib.get_autocast_dtype(1),
    lambda lib: lib.is_autocast_enabled("foo"),
    lambda lib: lib.set_autocast_dtype("cpu", 3),
    lambda lib: lib.autocast("foo", dtype=lib.float16),
    lambda lib: str(lib.get_autocast_dtype("cuda:0")),
])
def test_device_checks_match_pytorch(case):
    torch = pytest.importorskip("torch")
    assert_same(case, torch)


class _Augmenting(Dataset):
    """Draws from Python's and NumPy's global generators, as augmentation pipelines do."""

    def __len__(self):
        return 6

    def __getitem__(self, i):
        return tapegrad.tensor([float(i), random.random(), float(np.random.rand())])


def _seed_worker(worker_id):
    """The reseeding recipe of PyTorch's reproducibility notes."""
    seed = tapegrad.initial_seed() % 2 ** 32
    np.random.seed(seed)
    random.seed(seed)


def _main_draws():
    return random.random(), float(np.random.rand())


@pytest.mark.parametrize("init", [None, _seed_worker])
def test_workers_leave_the_main_python_and_numpy_streams_alone(init):
    random.seed(0)
    np.random.seed(0)
    expected = _main_draws()
    random.seed(0)
    np.random.seed(0)
    loader = DataLoader(_Augmenting(), batch_size=2, num_workers=2, worker_init_fn=init,
                        generator=tapegrad.Generator().manual_seed(3))
    first = tapegrad.cat(list(loader))
    assert _main_draws() == expected
    second = tapegrad.cat(list(DataLoader(_Augmenting(), batch_size=2, num_workers=2,
                                          worker_init_fn=init,
                                          generator=tapegrad.Generator().manual_seed(3))))
    assert tapegrad.equal(first, second)  # the same base seed gives the same worker draws


def test_worker_python_stream_is_seeded_with_base_seed_plus_id():
    seen = []

    def record(worker_id):
        seen.append((tapegrad.initial_seed(), random.random()))

    list(DataLoader(_Augmenting(), batch_size=2, num_workers=2, worker_init_fn=record))
    (seed0, draw0), (seed1, draw1) = seen
    assert seed1 == seed0 + 1
    assert (draw0, draw1) == (random.Random(seed0).random(), random.Random(seed1).random())


def test_workers_numpy_streams_differ():
    rows = tapegrad.cat(list(DataLoader(_Augmenting(), batch_size=1, num_workers=2)))
    worker0, worker1 = rows[0::2, 2], rows[1::2, 2]
    assert not tapegrad.equal(worker0, worker1)


def test_grad_scaler_keeps_its_scale_in_float32():
    seen = _scaler_trace(tapegrad)
    assert seen[0] == 0.1  # the init_scale as given until the first scale()
    assert seen[1] == float(np.float32(float(np.float32(0.1)) * 1.1))  # grown in double, stored float32
    torch = pytest.importorskip("torch")
    assert seen == _scaler_trace(torch)


def test_grad_scaler_load_state_dict_sets_the_scale_in_use_only():
    state = {"scale": 0.1, "growth_factor": 2.0, "backoff_factor": 0.5, "growth_interval": 3,
             "_growth_tracker": 1}
    fresh = tapegrad.amp.GradScaler("cpu")
    fresh.load_state_dict(state)
    assert fresh.get_scale() == 0.1
    with pytest.raises(AssertionError, match="Attempted update but _scale is None"):
        fresh.update()
    used = tapegrad.amp.GradScaler("cpu")
    used.scale(tapegrad.tensor(1.0))
    used.load_state_dict(state)
    assert used.get_scale() == float(np.float32(0.1))


def _scale_outputs(lib):
    scaler = lib.amp.GradScaler("cpu", init_scale=4.0)
    lazy = scaler.scale(t for t in [lib.tensor(1.0), lib.tensor(2.0)])
    nested = scaler.scale([lib.tensor(1.0), (lib.tensor(2.0),)])
    return type(lazy).__name__, list(lazy), type(nested[1]).__name__, nested[1][0]


@pytest.mark.parametrize("case", [
    _scale_outputs,
    lambda lib: lib.amp.GradScaler("cpu").scale(2.0),
    lambda lib: lib.amp.GradScaler("cpu").scale([lib.tensor(1.0), 2.0]),
    lambda lib: lib.amp.GradScaler("cpu").step(lib.optim.SGD([lib.zeros(1, requires_grad=True)])),
])
def test_grad_scaler_scale_and_step_checks_match_pytorch(case):
    torch = pytest.importorskip("torch")
    assert_same(case, torch)


def test_unscaling_float16_gradients_is_refused_before_any_is_changed():
    full = tapegrad.nn.Parameter(tapegrad.ones(2))
    half = tapegrad.nn.Parameter(tapegrad.ones(2, dtype=tapegrad.float16))
    optimizer = tapegrad.optim.SGD([full, half], lr=0.1)
    scaler = tapegrad.amp.GradScaler("cpu", init_scale=8.0)
    scaler.scale(full.sum() + half.float().sum()).backward()
    with pytest.raises(ValueError, match="Attempting to unscale FP16 gradients."):
        scaler.unscale_(optimizer)
    assert full.grad.tolist() == [8.0, 8.0]
