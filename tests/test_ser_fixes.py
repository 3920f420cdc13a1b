"""Differences found by the checkpoint programs (ser_*): what ``torch.save`` pickles (dict
subclasses, numpy scalars, tensors inside pickled objects), ``weights_only`` refusals naming
``torch.`` globals, ``get_unsafe_globals_in_checkpoint``, PyTorch's errors for a corrupt
checkpoint, a missing parent directory, an unpicklable object, a ``map_location`` that names no
device and ``mmap`` without a file name; a lazy module's uninitialized parameters in its state
dict and checkpoints."""
import collections
import io
import os
import pickle

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


class RunInfo:
    """A user's class stored in a checkpoint (allowlisted or not)."""

    def __init__(self, name, weights=None):
        self.name = name
        self.weights = weights


def _roundtrip(lib, obj, **load_args):
    buffer = io.BytesIO()
    lib.save(obj, buffer)
    buffer.seek(0)
    return lib.load(buffer, **load_args)


def _weights_only_error(lib, obj):
    """The line of the weights-only refusal naming the global."""
    try:
        _roundtrip(lib, obj, weights_only=True)
    except pickle.UnpicklingError as error:
        return [line.strip() for line in str(error).splitlines() if "WeightsUnpickler" in line][0]
    return "loaded"


# -- subclasses of plain values keep their type (and are refused by weights-only loads) --------

def test_dict_and_number_subclasses_come_back_with_their_type():
    counts = collections.defaultdict(list, {"a": [1]})
    loaded = _roundtrip(tapegrad, {"dd": counts, "acc": np.float64(0.8), "n": np.int64(3),
                                   "counter": collections.Counter("aab")}, weights_only=False)
    assert type(loaded["dd"]) is collections.defaultdict and loaded["dd"]["b"] == []
    assert type(loaded["acc"]) is np.float64 and loaded["acc"] == 0.8
    assert type(loaded["n"]) is np.int64
    assert loaded["counter"] == collections.Counter("aab")


@needs_torch
@pytest.mark.parametrize("value", [collections.defaultdict(int), np.float64(0.5), np.int64(2),
                                   np.eye(2), collections.Counter("ab"), {1, 2}, b"\x00"],
                         ids=["defaultdict", "np.float64", "np.int64", "ndarray", "Counter",
                              "set", "bytes"])
def test_weights_only_accepts_and_refuses_what_pytorch_does(value):
    assert_same(lambda lib: _weights_only_error(lib, {"v": value}), torch)


@needs_torch
def test_refusals_name_torch_globals():
    def case(lib):
        return _weights_only_error(lib, lib.nn.Sequential(lib.nn.Linear(2, 1)))
    assert_same(case, torch)
    assert "GLOBAL torch.nn.modules.container.Sequential" in case(tapegrad)


# -- tensors inside pickled objects ------------------------------------------------------------

def test_tensors_inside_pickled_objects_share_memory_with_the_rest():
    weights = tapegrad.arange(4.0)
    info = RunInfo("r", weights)
    with tapegrad.serialization.safe_globals([RunInfo]):
        loaded = _roundtrip(tapegrad, {"info": info, "w": weights, "view": weights[1:]})
    assert loaded["info"].weights is loaded["w"]
    loaded["w"][1] = -1.0
    assert loaded["view"][0].item() == -1.0


@needs_torch
def test_a_numpy_array_in_an_allowlisted_object_is_refused_as_in_pytorch():
    def case(lib):
        with lib.serialization.safe_globals([RunInfo]):
            return _weights_only_error(lib, RunInfo("r", np.zeros(2)))
    assert_same(case, torch)


@pytest.mark.parametrize("protocol", [0, 2, 4])
def test_pickle_protocol_is_honoured(protocol):
    info = RunInfo("p", tapegrad.ones(2))
    buffer = io.BytesIO()
    tapegrad.save({"info": info}, buffer, pickle_protocol=protocol)
    buffer.seek(0)
    loaded = tapegrad.load(buffer, weights_only=False)
    assert loaded["info"].name == "p" and loaded["info"].weights.tolist() == [1.0, 1.0]


# -- get_unsafe_globals_in_checkpoint ----------------------------------------------------------

def _unsafe_globals(lib, obj, allow=()):
    buffer = io.BytesIO()
    lib.save(obj, buffer)
    buffer.seek(0)
    with lib.serialization.safe_globals(list(allow)):
        return sorted(lib.serialization.get_unsafe_globals_in_checkpoint(buffer))


def test_unsafe_globals_are_read_without_running_the_pickle():
    lin = tapegrad.nn.Linear(2, 1)
    assert _unsafe_globals(tapegrad, {"w": tapegrad.ones(2), "n": 3}) == []
    assert _unsafe_globals(tapegrad, {"info": RunInfo("a")}) == [f"{__name__}.RunInfo"]
    assert _unsafe_globals(tapegrad, {"info": RunInfo("a")}, allow=[RunInfo]) == []
    assert "torch.nn.modules.linear.Linear" in _unsafe_globals(tapegrad, lin)
    with pytest.raises(ValueError, match="Expected input to be a checkpoint"):
        tapegrad.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(b"plain bytes"))


@needs_torch
@pytest.mark.parametrize("make", [lambda lib: {"info": RunInfo("a", lib.ones(1))},
                                  lambda lib: {"acc": np.float64(1.0), "m": np.eye(2)},
                                  lambda lib: {"dd": collections.defaultdict(int), "s": {1}},
                                  lambda lib: lib.nn.Sequential(lib.nn.Linear(2, 1))],
                         ids=["user-class", "numpy", "defaultdict", "module"])
def test_unsafe_globals_as_pytorch(make):
    assert_same(lambda lib: _unsafe_globals(lib, make(lib)), torch)


# -- errors ------------------------------------------------------------------------------------

def _load_damaged(lib, keep):
    buffer = io.BytesIO()
    lib.save({"w": lib.ones(3)}, buffer)
    data = keep(buffer.getvalue())
    return lib.load(io.BytesIO(data), weights_only=True)


@needs_torch
@pytest.mark.parametrize("keep", [lambda d: d[: len(d) // 2], lambda d: d[:21], lambda d: d[:22],
                                  lambda d: d[:-10], lambda d: b""],
                         ids=["half", "21-bytes", "22-bytes", "no-end-record", "empty"])
def test_truncated_checkpoints_fail_as_in_pytorch(keep):
    assert_same(lambda lib: _load_damaged(lib, keep), torch)


@needs_torch
def test_saving_into_a_missing_directory_fails_as_in_pytorch(tmp_path):
    def case(lib):
        lib.save({}, os.path.join(str(tmp_path), "absent", "x.pt"))
    assert_same(case, torch)
    assert not (tmp_path / "absent").exists()


@needs_torch
def test_unpicklable_objects_raise_pickles_error():
    def case(lib):
        lib.save({"fn": lambda x: x}, io.BytesIO())
    assert_same(case, torch)



def _load_mapped(lib, map_location, with_tensor=True):
    buffer = io.BytesIO()
    lib.save({"w": lib.ones(2) if with_tensor else 1}, buffer)
    buffer.seek(0)
    return str(lib.load(buffer, map_location=map_location)["w"])


@needs_torch
@pytest.mark.parametrize("location", ["cpu", "cuda:0", "gpu", "cpu:0", {"cpu": "gpu"},
                                      {"cuda:0": "gpu"}, 3, lambda storage, loc: storage])
@pytest.mark.parametrize("with_tensor", [True, False])
def test_map_location_as_pytorch(location, with_tensor):
    assert_same(lambda lib: _load_mapped(lib, location, with_tensor), torch)


@needs_torch
def test_mmap_needs_a_file_name(tmp_path):
    def case(lib):
        path = str(tmp_path / f"{lib.__name__}.pt")
        lib.save({"w": lib.arange(3.0)}, path)
        with open(path, "rb") as handle:
            try:
                lib.load(handle, mmap=True)
            except ValueError as error:
                refused = str(error)
        return refused, lib.load(path, mmap=True)["w"].tolist()
    assert_same(case, torch)

# -- lazy modules ------------------------------------------------------------------------------

def test_a_lazy_state_dict_holds_the_placeholders_themselves():
    lazy = tapegrad.nn.LazyLinear(2)
    state = lazy.state_dict()
    assert state["weight"] is lazy.weight and tapegrad.nn.parameter.is_lazy(state["bias"])
    other = tapegrad.nn.LazyLinear(2)
    assert not other.load_state_dict(state).missing_keys
    assert tapegrad.nn.parameter.is_lazy(other.weight)  # nothing to materialize from
    other(tapegrad.ones(1, 3))
    assert other.weight.shape == (2, 3)


@needs_torch
def test_lazy_checkpoints_as_pytorch():
    def into_eager(lib):
        return lib.nn.Linear(3, 2).load_state_dict(lib.nn.LazyLinear(2).state_dict())

    def types_after_save(lib):
        loaded = _roundtrip(lib, lib.nn.LazyBatchNorm1d().state_dict(), weights_only=False)
        return tuple(sorted((key, type(value).__name__) for key, value in loaded.items()))

    assert_same(into_eager, torch)
    assert_same(types_after_save, torch)
    assert_same(lambda lib: _weights_only_error(lib, lib.nn.LazyLinear(2).state_dict()), torch)
