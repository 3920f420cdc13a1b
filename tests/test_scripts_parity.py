"""Training-script boilerplate on a CPU-only machine: backend flags, guarded CUDA calls, CUDA
generators, checkpoint loading (allowlists, map_location) and runtime helpers, as PyTorch does
them. Cases compare with PyTorch where it is installed; the rest are facts that hold without it."""
import dataclasses
import io

import pytest

import tapegrad
from same_as_torch import assert_same


@dataclasses.dataclass
class RunConfig:
    """A user's config object stored in a checkpoint (pickled, so rebuilt only if allowed)."""
    lr: float
    stats: object = None


class Other:
    pass


def _roundtrip(lib, obj, **load_kwargs):
    buf = io.BytesIO()
    lib.save(obj, buf)
    buf.seek(0)
    return lib.load(buf, **load_kwargs)


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def _clean_allowlist():
    yield
    tapegrad.serialization.clear_safe_globals()


# --- torch.backends and torch.cuda on a CPU-only machine ---------------------------------------

def test_cpu_backends_exist_with_flags():
    backends = tapegrad.backends
    assert backends.mkldnn.enabled is True and backends.mkldnn.deterministic is False
    for module in (backends.mkldnn, backends.openmp, backends.mkl):
        assert isinstance(module.is_available(), bool)
    backends.mkldnn.deterministic = True  # settable, as in PyTorch
    backends.mkldnn.deterministic = False


@pytest.mark.parametrize("call", [
    lambda lib: lib.cuda.Stream(), lambda lib: lib.cuda.Event(enable_timing=True),
    lambda lib: lib.cuda.get_device_properties(0), lambda lib: lib.cuda.mem_get_info(),
    lambda lib: lib.cuda.current_stream(), lambda lib: lib.cuda.initial_seed(),
    lambda lib: lib.cuda.get_rng_state(), lambda lib: (lib.cuda.seed(), lib.cuda.seed_all()),
    lambda lib: lib.cuda.get_rng_state_all(), lambda lib: lib.cuda.get_arch_list(),
    lambda lib: lib.Generator(device="cuda"),
    lambda lib: lib.backends.cudnn.is_acceptable(lib.ones(2)),
])
def test_cuda_calls_without_cuda(call, torch):
    assert_same(call, torch)


def test_cuda_stream_context_with_none_is_a_no_op():
    with tapegrad.cuda.stream(None):
        assert tapegrad.ones(2).sum().item() == 2.0
    assert isinstance(tapegrad.cuda.Stream, type) and isinstance(tapegrad.cuda.Event, type)


# --- checkpoints: weights-only allowlist and map_location --------------------------------------

def test_weights_only_refuses_unlisted_class_by_name():
    with pytest.raises(Exception, match=r"test_scripts_parity\.RunConfig") as info:
        _roundtrip(tapegrad, {"cfg": RunConfig(0.1)}, weights_only=True)
    assert type(info.value).__name__ == "UnpicklingError"


def test_safe_globals_context_allows_for_the_block_only():
    saved = {"cfg": RunConfig(0.1, stats=tapegrad.tensor([1.0, 2.0]))}
    with tapegrad.serialization.safe_globals([RunConfig]):
        loaded = _roundtrip(tapegrad, saved, weights_only=True)
        assert RunConfig in tapegrad.serialization.get_safe_globals()
    assert loaded["cfg"].lr == 0.1 and loaded["cfg"].stats.tolist() == [1.0, 2.0]
    assert tapegrad.serialization.get_safe_globals() == []
    with pytest.raises(Exception, match="Weights only load failed"):
        _roundtrip(tapegrad, saved, weights_only=True)


def test_add_safe_globals_by_name_pair_and_clear():
    tapegrad.serialization.add_safe_globals([(Other, f"{__name__}.Other")])
    assert isinstance(_roundtrip(tapegrad, [Other()], weights_only=True)[0], Other)
    tapegrad.serialization.clear_safe_globals()
    assert tapegrad.serialization.get_safe_globals() == []


def test_safe_globals_same_as_torch(torch):
    def case(lib):
        with lib.serialization.safe_globals([RunConfig]):
            cfg = _roundtrip(lib, {"c": RunConfig(0.5, lib.arange(3.0))}, weights_only=True)["c"]
        return cfg.lr, cfg.stats, type(cfg).__name__
    assert_same(case, torch)


@pytest.mark.parametrize("map_location", ["cuda", "cuda:0", {"cpu": "cuda:1"}, "cpu",
                                          {"cuda:0": "cpu"}])
def test_map_location_to_cuda_fails_as_on_a_cpu_build(map_location, torch):
    def case(lib):
        where = lib.device(map_location) if map_location == "cuda" else map_location
        return _roundtrip(lib, {"w": lib.ones(2)}, map_location=where, weights_only=True)["w"]
    assert_same(case, torch)


# --- runtime helpers ---------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda lib: lib.ones(2), lambda lib: lib.ones(2).untyped_storage(), lambda lib: [1],
])
def test_is_storage(make, torch):
    assert_same(lambda lib: lib.is_storage(make(lib)), torch)


def test_typename_names_modules_as_torch(torch):
    assert_same(lambda lib: (lib.typename(lib.nn.Linear(1, 1)), lib.typename(lib.nn.ReLU),
                             lib.typename(3), lib.typename(RunConfig)), torch)


def test_typename_leaves_other_packages_alone():
    assert tapegrad.typename(RunConfig(1.0)) == f"{__name__}.RunConfig"
    assert tapegrad.typename(tapegrad.nn.Linear(1, 1)) == "torch.nn.modules.linear.Linear"


def test_dtype_is_complex(torch):
    assert_same(lambda lib: [d.is_complex for d in (lib.float32, lib.int64, lib.bool,
                                                     lib.bfloat16)], torch)


# --- torch.accelerator, torch.cpu, default_generator, deprecated autocast getters -------------

@pytest.mark.parametrize("call", [
    lambda lib: (lib.accelerator.is_available(), lib.accelerator.device_count(),
                 lib.accelerator.current_accelerator()),
    lambda lib: lib.accelerator.current_device_index(), lambda lib: lib.accelerator.synchronize(),
    lambda lib: lib.accelerator.set_device_index(0),
    lambda lib: (lib.cpu.is_available(), lib.cpu.device_count(), lib.cpu.current_device(),
                 lib.cpu.synchronize(), lib.cpu.is_initialized()),
    lambda lib: (lib.is_autocast_cpu_enabled(), str(lib.get_autocast_cpu_dtype())),
    lambda lib: (dict(lib.cuda.memory_stats()), lib.backends.cuda.is_flash_attention_available()),
])
def test_device_modules_without_accelerator(call, torch):
    assert_same(call, torch)


def test_deprecated_cpu_amp_spellings_warn(torch):
    def case(lib):
        with pytest.warns(FutureWarning) as record:
            context = lib.cpu.amp.autocast(enabled=False)
            scaler = lib.cpu.amp.GradScaler(enabled=False)
        return ([str(w.message) for w in record], context.device, str(context.fast_dtype),
                scaler.is_enabled())
    assert_same(case, torch)


def test_default_generator_is_the_global_one():
    tapegrad.default_generator.manual_seed(5)
    assert tapegrad.initial_seed() == 5
    first = tapegrad.rand(3)
    tapegrad.manual_seed(5)
    assert tapegrad.equal(first, tapegrad.rand(3))
    assert tapegrad.default_generator is tapegrad.random.default_generator
