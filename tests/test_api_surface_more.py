"""The torch.* surface training scripts reach for (nanoGPT, build-nanogpt, llm.c, makemore,
tabular notebooks): backends flags, unsigned and bfloat16 dtypes, amp, distributed stubs,
frombuffer, storages, Generator seeding, set_default_tensor_type and the weights-only load,
each checked against PyTorch."""
import io
import pickle
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad import _buffer, _default_type, _storage
from tapegrad.ops import creation

torch = pytest.importorskip("torch")


def _outcome(fn):
    """What ``fn()`` gives: its value, or the exception's type name and message."""
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001  comparing failures is the point
        return type(exc).__name__, str(exc)


def _messages(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [(w.category.__name__, str(w.message).split(" (Triggered internally")[0])
            for w in caught]


# --- backends -----------------------------------------------------------------------------

def test_backends_cuda_flags_mirror_pytorch():
    for T in (tapegrad, torch):
        T.backends.cuda.matmul.allow_tf32 = True
        assert T.get_float32_matmul_precision() == "high"
        T.backends.cuda.matmul.allow_tf32 = False
        assert T.get_float32_matmul_precision() == "highest"
        assert not T.backends.cuda.matmul.allow_tf32
        assert T.backends.cudnn.allow_tf32 is True
        assert T.backends.cuda.flash_sdp_enabled() and T.backends.cuda.math_sdp_enabled()
        assert not T.backends.cuda.is_built()
    assert _outcome(lambda: tapegrad.backends.cuda.matmul.nope) == \
        _outcome(lambda: torch.backends.cuda.matmul.nope)


def test_sdpa_kernel_sets_the_flags_inside_the_block():
    import torch.nn.attention as theirs

    import tapegrad.nn.attention as ours
    for T, A in ((tapegrad, ours), (torch, theirs)):
        with A.sdpa_kernel([A.SDPBackend.MATH]):
            assert (T.backends.cuda.flash_sdp_enabled(), T.backends.cuda.math_sdp_enabled()) \
                == (False, True)
        assert T.backends.cuda.flash_sdp_enabled()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            with T.backends.cuda.sdp_kernel(enable_flash=False):
                assert not T.backends.cuda.flash_sdp_enabled()
    assert repr(ours.SDPBackend.MATH) == repr(theirs.SDPBackend.MATH)
    assert [b.name for b in ours.SDPBackend] == list(theirs.SDPBackend.__members__)


# --- dtypes -------------------------------------------------------------------------------

def test_unsigned_dtypes_from_numpy_print_and_convert():
    for T in (tapegrad, torch):
        tokens = T.from_numpy(np.array([50256, 11, 9], dtype=np.uint16))
        assert T.tensor(np.array([1, 2, 65535], dtype=np.uint16)).dtype is T.uint16
        assert tokens.dtype is T.uint16 and tokens.long().dtype is T.int64
    ours = tapegrad.from_numpy(np.array([50256, 11, 9], dtype=np.uint16))
    theirs = torch.from_numpy(np.array([50256, 11, 9], dtype=np.uint16))
    assert repr(ours) == repr(theirs)
    assert repr(ours.to(tapegrad.int64)) == repr(theirs.to(torch.int64))
    assert repr(ours.sum()) == repr(theirs.sum())
    assert repr(tapegrad.zeros(2, dtype=tapegrad.uint32)) == \
        repr(torch.zeros(2, dtype=torch.uint32))
    assert (tapegrad.uint64.itemsize, tapegrad.uint16.is_signed) == (8, False)


def test_unsigned_promotion_is_refused_as_in_pytorch():
    for a, b in (("uint16", "int64"), ("uint16", "uint8"), ("uint32", "int8")):
        def promote(T, a=a, b=b):
            return T.promote_types(getattr(T, a), getattr(T, b))
        assert _outcome(lambda: promote(tapegrad)) == _outcome(lambda: promote(torch))
    assert repr(tapegrad.promote_types(tapegrad.uint16, tapegrad.float32)) == "torch.float32"


def test_bfloat16_exists_but_cannot_hold_tensors():
    assert repr(tapegrad.bfloat16) == repr(torch.bfloat16)
    assert (tapegrad.bfloat16.itemsize, tapegrad.bfloat16.is_floating_point) == (2, True)
    with pytest.raises(TypeError, match="numpy has no such type"):
        tapegrad.zeros(2, dtype=tapegrad.bfloat16)
    with pytest.raises(TypeError, match="numpy has no such type"):
        tapegrad.ones(2).to(tapegrad.bfloat16)


# --- amp ----------------------------------------------------------------------------------

def _train_step(T, scaler, loss_factor=1.0):
    T.manual_seed(0)
    model = T.nn.Linear(2, 1)
    with T.no_grad():
        model.weight.copy_(T.tensor([[0.5, -0.25]]))
        model.bias.fill_(0.125)
    optimizer = T.optim.SGD(model.parameters(), lr=0.1)
    loss = model(T.tensor([[1.0, 2.0]])).sum() * loss_factor
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    grads = [p.grad.tolist() for p in model.parameters()]
    result = scaler.step(optimizer)
    scaler.update()
    return grads, result, model.weight.tolist(), scaler.get_scale(), scaler.state_dict()


@pytest.mark.parametrize("args", [dict(device="cpu", init_scale=4.0, growth_interval=1),
                                  dict(device="cuda", enabled=False)])
def test_grad_scaler_matches_pytorch(args):
    mine = _train_step(tapegrad, tapegrad.amp.GradScaler(**args))
    theirs = _train_step(torch, torch.amp.GradScaler(**args))
    assert mine == theirs


def test_grad_scaler_skips_a_step_with_inf_and_backs_off():
    mine = _train_step(tapegrad, tapegrad.amp.GradScaler("cpu", init_scale=4.0),
                       float("inf"))
    theirs = _train_step(torch, torch.amp.GradScaler("cpu", init_scale=4.0), float("inf"))
    assert mine[1:] == theirs[1:]


def test_grad_scaler_warnings_and_errors_match_pytorch():
    for make in (lambda T: T.cuda.amp.GradScaler(), lambda T: T.amp.GradScaler("cuda")):
        assert _messages(lambda: make(tapegrad)) == _messages(lambda: make(torch))
    for T in (tapegrad, torch):
        model = T.nn.Linear(1, 1)
        optimizer = T.optim.SGD(model.parameters(), lr=0.1)
        model(T.ones(1, 1)).sum().backward()
        scaler = T.amp.GradScaler("cpu")
        scaler.scale(T.ones(1))
        scaler.unscale_(optimizer)
        error = _outcome(lambda: scaler.unscale_(optimizer))
        assert error == ("RuntimeError", "unscale_() has already been called on this optimizer "
                         "since the last update().")
        scaler = T.amp.GradScaler("cpu")
        scaler.scale(T.ones(1))
        assert _outcome(scaler.update) == \
            ("AssertionError", "No inf checks were recorded prior to update.")
    for name in ("update", "unscale_"):
        def call(T):
            return getattr(T.amp.GradScaler("cpu"), name)(*(() if name == "update" else (
                T.optim.SGD(T.nn.Linear(1, 1).parameters(), lr=0.1),)))
        assert _outcome(lambda: call(tapegrad)) == _outcome(lambda: call(torch))


def test_autocast_is_a_context_manager_and_decorator():
    for T in (tapegrad, torch):
        with T.autocast(device_type="cpu", dtype=T.bfloat16, enabled=False):
            assert (T.ones(2, 2) @ T.ones(2, 2)).dtype is T.float32

        @T.autocast("cpu", enabled=False)
        def double(x):
            return x * 2
        assert double(T.ones(1)).tolist() == [2.0]
    for make in (lambda T: T.autocast("cuda"), lambda T: T.amp.autocast("cpu", dtype=T.float32),
                 lambda T: T.cuda.amp.autocast(enabled=False)):
        assert _messages(lambda: make(tapegrad)) == _messages(lambda: make(torch))
    assert _outcome(lambda: tapegrad.autocast("xyz")) == _outcome(lambda: torch.autocast("xyz"))


def test_enabled_cpu_autocast_warns_and_computes_in_float32():
    with pytest.warns(UserWarning, match="tapegrad has no autocast"):
        with tapegrad.autocast("cpu", dtype=tapegrad.bfloat16):
            assert (tapegrad.ones(2, 2) @ tapegrad.ones(2, 2)).dtype is tapegrad.float32
            assert not tapegrad.is_autocast_enabled()


# --- distributed, DataParallel, cuda, version, _dynamo.config -----------------------------

def test_distributed_is_unavailable_and_uninitialized():
    import torch.distributed as tdist

    import tapegrad.distributed as dist
    from tapegrad.nn.parallel import DistributedDataParallel
    assert (dist.is_available(), dist.is_initialized()) == (False, False)
    with pytest.raises(RuntimeError, match="no distributed support"):
        dist.init_process_group(backend="gloo")
    for name in ("get_rank", "get_world_size", "barrier"):
        assert _outcome(getattr(dist, name)) == _outcome(getattr(tdist, name))
    assert _outcome(lambda: dist.all_reduce(tapegrad.ones(1), op=dist.ReduceOp.AVG)) == \
        _outcome(lambda: tdist.all_reduce(torch.ones(1), op=tdist.ReduceOp.AVG))
    assert repr(dist.ReduceOp.AVG) == repr(tdist.ReduceOp.AVG)
    assert _outcome(lambda: DistributedDataParallel(tapegrad.nn.Linear(1, 1))) == \
        _outcome(lambda: torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(1, 1)))


def test_data_parallel_runs_the_module():
    for T in (tapegrad, torch):
        model = T.nn.DataParallel(T.nn.Linear(2, 1))
        assert model(T.ones(3, 2)).shape == (3, 1)
        assert list(model.state_dict()) == ["module.weight", "module.bias"]
    assert repr(tapegrad.nn.DataParallel(tapegrad.nn.Linear(2, 1))) == \
        repr(torch.nn.DataParallel(torch.nn.Linear(2, 1)))


def test_cuda_and_version_queries_as_a_cpu_build():
    for name in ("synchronize", "current_device", "get_device_name"):
        assert _outcome(getattr(tapegrad.cuda, name)) == _outcome(getattr(torch.cuda, name))
    for name in ("is_bf16_supported", "is_initialized", "memory_allocated", "empty_cache"):
        assert getattr(tapegrad.cuda, name)() == getattr(torch.cuda, name)()
    assert (tapegrad.version.cuda, tapegrad.version.hip) == (None, None)
    assert tapegrad.version.__version__ == tapegrad.__version__


def test_dynamo_config_keeps_pytorch_settings():
    config, theirs = tapegrad._dynamo.config, torch._dynamo.config
    for name in ("cache_size_limit", "recompile_limit", "suppress_errors", "optimize_ddp"):
        assert getattr(config, name) == getattr(theirs, name)
    config.cache_size_limit = 3
    assert config.recompile_limit == 3
    config.recompile_limit = 8
    assert _outcome(lambda: setattr(config, "nope", 1)) == \
        _outcome(lambda: setattr(theirs, "nope", 1))


# --- frombuffer, read-only numpy ----------------------------------------------------------

def test_frombuffer_shares_memory_and_checks_its_arguments():
    for T in (tapegrad, torch):
        buffer = bytearray(np.arange(6, dtype=np.float32).tobytes())
        t = T.frombuffer(buffer, dtype=T.float32)
        t[0] = 9
        assert np.frombuffer(buffer, np.float32)[0] == 9
        assert T.frombuffer(buffer, dtype=T.float32, count=2, offset=4).tolist() == [1.0, 2.0]
        assert T.frombuffer(buffer, dtype=T.int16, offset=2).shape == (11,)
    buffer = bytearray(24)
    for kwargs in (dict(offset=3), dict(count=10), dict(offset=100), dict(count=0)):
        assert _outcome(lambda: tapegrad.frombuffer(buffer, dtype=tapegrad.float32, **kwargs)) \
            == _outcome(lambda: torch.frombuffer(buffer, dtype=torch.float32, **kwargs))
    assert _outcome(lambda: tapegrad.frombuffer([1, 2], dtype=tapegrad.float32)) == \
        _outcome(lambda: torch.frombuffer([1, 2], dtype=torch.float32))


def test_read_only_inputs_warn_once_with_pytorchs_words():
    frozen = np.ones(3)
    frozen.flags.writeable = False
    _buffer._warn_not_writable.cache_clear()
    creation._warn_not_writable.cache_clear()
    assert _messages(lambda: tapegrad.from_numpy(frozen)) == \
        _messages(lambda: torch.from_numpy(frozen))
    assert _messages(lambda: tapegrad.frombuffer(bytes(8), dtype=tapegrad.float32))[0][1] == \
        _messages(lambda: torch.frombuffer(bytes(8), dtype=torch.float32))[0][1]


# --- storages and tensor flags ------------------------------------------------------------

def test_storage_views_and_flags():
    results = []
    for T in (tapegrad, torch):
        t = T.arange(18.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            storage = t.view(3, 6)[1:].storage()
        results.append((type(storage).__name__, storage.size(), len(storage),
                        storage.tolist()[:3], repr(storage.dtype), storage.nbytes(),
                        storage.element_size(), storage.data_ptr() == t.data_ptr(), storage[2],
                        t.untyped_storage().tolist()[4:8], t.is_pinned(), t.is_meta,
                        t.is_quantized, t.share_memory_() is t))
        assert str(T.arange(3.0).storage()).endswith(
            "[torch.storage.TypedStorage(dtype=torch.float32, device=cpu) of size 3]")
    assert results[0] == results[1]
    _storage._warn_deprecated.cache_clear()
    first, again = _messages(tapegrad.ones(1).storage), _messages(tapegrad.ones(1).storage)
    assert first[0][1].startswith("TypedStorage is deprecated. It will be removed") and not again


# --- Generator ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [-1, 2 ** 64 - 1, -2 ** 63, 2 ** 64, -2 ** 63 - 1, 1.5, True, "3"])
def test_generator_manual_seed_matches_pytorch(seed):
    assert _outcome(lambda: tapegrad.Generator().manual_seed(seed).initial_seed()) == \
        _outcome(lambda: torch.Generator().manual_seed(seed).initial_seed())


@pytest.mark.parametrize("seed", [-1, 2 ** 64, 1.5, 2.0])
def test_torch_manual_seed_matches_pytorch(seed):
    try:
        assert _outcome(lambda: tapegrad.manual_seed(seed).initial_seed()) == \
            _outcome(lambda: torch.manual_seed(seed).initial_seed())
    finally:
        tapegrad.manual_seed(0)
        torch.manual_seed(0)


def test_generator_device():
    assert repr(tapegrad.Generator().device) == repr(torch.Generator().device)
    assert str(tapegrad.Generator(device="cpu").device) == "cpu"


# --- set_default_tensor_type --------------------------------------------------------------

def test_set_default_tensor_type_by_type_and_name():
    _default_type._warn_deprecated.cache_clear()
    try:
        for T in (tapegrad, torch):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                T.set_default_tensor_type(T.DoubleTensor)
            assert "set_default_tensor_type() is deprecated" in str(caught[0].message)
            assert T.get_default_dtype() is T.float64 and T.ones(1).dtype is T.float64
            T.set_default_tensor_type("torch.FloatTensor")
            assert T.get_default_dtype() is T.float32
        for arg in ("LongTensor", "'torch.LongTensor'", "float64", "'torch.cuda.FloatTensor'",
                    "'nosuchmodule'"):
            def call(T):
                return T.set_default_tensor_type(eval(arg if arg[0] == "'" else "T." + arg))
            assert _outcome(lambda: call(tapegrad)) == _outcome(lambda: call(torch))
    finally:
        tapegrad.set_default_dtype(tapegrad.float32)
        torch.set_default_dtype(torch.float32)


# --- weights-only load --------------------------------------------------------------------

def _round_trip(T, obj, **kwargs):
    buffer = io.BytesIO()
    T.save({"value": obj}, buffer)
    buffer.seek(0)
    return T.load(buffer, **kwargs)["value"]


@pytest.mark.parametrize("make", [
    lambda T: T.float64, lambda T: T.Size([2, 3]), lambda T: T.device("cpu"),
    lambda T: {1, 2}, lambda T: b"raw", lambda T: 1 + 2j, lambda T: T.int64,
    lambda T: {(1, 2): 3, None: 4, 1.5: "x"}, lambda T: (1, (2.5, "a"))])
def test_weights_only_load_accepts_pytorchs_allowlist(make):
    mine, theirs = _round_trip(tapegrad, make(tapegrad)), _round_trip(torch, make(torch))
    assert repr(mine) == repr(theirs) and type(mine).__name__ == type(theirs).__name__


@pytest.mark.parametrize("data", [b"garbage bytes here", b"\x80\x02garbage", b"",
                                  pickle.dumps({"a": 1})])
@pytest.mark.parametrize("weights_only", [True, False])
def test_load_of_garbage_fails_as_in_pytorch(data, weights_only):
    assert _outcome(lambda: tapegrad.load(io.BytesIO(data), weights_only=weights_only)) == \
        _outcome(lambda: torch.load(io.BytesIO(data), weights_only=weights_only))
