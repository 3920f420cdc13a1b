"""tapegrad.save / tapegrad.load: round trips in PyTorch's checkpoint format, and loads that
fail cleanly."""
import io
import pickle
import zipfile
from collections import OrderedDict

import numpy as np
import pytest

import tapegrad
from tapegrad import nn, optim


def _model():
    return nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))


def test_state_dict_round_trip_through_a_file(tmp_path):
    model = _model()
    path = tmp_path / "model.pt"
    tapegrad.save(model.state_dict(), path)
    assert path.exists() and zipfile.is_zipfile(path)  # written exactly where asked
    loaded = tapegrad.load(path)
    assert isinstance(loaded, OrderedDict) and list(loaded) == list(model.state_dict())
    fresh = _model()
    fresh.load_state_dict(loaded)
    x = tapegrad.randn(5, 3)
    np.testing.assert_array_equal(fresh(x).detach().numpy(), model(x).detach().numpy())


def test_nested_checkpoint_with_optimizer_state_round_trips():
    model = _model()
    optimizer = optim.Adam(model.parameters(), lr=0.01, betas=(0.8, 0.9))
    model(tapegrad.randn(2, 3)).sum().backward()
    optimizer.step()
    buffer = io.BytesIO()
    tapegrad.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": 3,
                   "note": "ok", "best": None, "history": [0.5, float("inf")],
                   "flags": tapegrad.tensor([True, False]),
                   "param": nn.Parameter(tapegrad.ones(2))}, buffer)
    buffer.seek(0)
    loaded = tapegrad.load(buffer)
    assert loaded["epoch"] == 3 and loaded["note"] == "ok" and loaded["best"] is None
    assert loaded["history"] == [0.5, float("inf")]
    assert loaded["flags"].dtype == tapegrad.bool
    assert isinstance(loaded["param"], nn.Parameter) and loaded["param"].requires_grad
    state = loaded["optimizer"]
    assert state["param_groups"][0]["betas"] == (0.8, 0.9)
    assert sorted(state["state"]) == [0, 1, 2, 3]  # integer keys stay integers
    resumed = optim.Adam(_model().parameters())
    resumed.load_state_dict(state)
    np.testing.assert_array_equal(resumed.state[resumed.param_groups[0]["params"][0]]["exp_avg"]
                                  .numpy(), optimizer.state_dict()["state"][0]["exp_avg"].numpy())


def test_nothing_is_unpickled():
    buffer = io.BytesIO()
    np.savez(buffer, payload=np.array([object()], dtype=object))
    buffer.seek(0)
    with pytest.raises(RuntimeError, match="file in archive is not in a subdirectory: "
                                           "payload.npy"):  # a zip file, not a checkpoint
        tapegrad.load(buffer)
    with pytest.raises(pickle.UnpicklingError, match="Unsupported operand 149"):
        tapegrad.load(io.BytesIO(pickle.dumps({"a": 1})))  # PyTorch's weights-only refusal
    with pytest.raises(RuntimeError, match="Invalid magic number; corrupt file?"):
        tapegrad.load(io.BytesIO(pickle.dumps({"a": 1})), weights_only=False)
    with pytest.raises(AttributeError, match="Can't pickle local object"):  # as PyTorch
        tapegrad.save({"f": lambda: None}, io.BytesIO())


def test_loading_wrong_shapes_or_keys_copies_only_what_fits(tmp_path):
    """As PyTorch: a mismatched entry is reported, the ones that fit (``2.bias``) are copied."""
    path = tmp_path / "other.pt"
    other = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2))
    tapegrad.save(other.state_dict(), path)
    model = _model()
    before = [p.detach().numpy().copy() for p in model.parameters()]
    before[-1] = other[2].bias.detach().numpy().copy()
    with pytest.raises(RuntimeError, match="size mismatch for 0.weight: copying a param with "
                                           r"shape torch.Size\(\[5, 3\]\) from checkpoint"):
        model.load_state_dict(tapegrad.load(path))
    renamed = OrderedDict((k.replace("2.", "3."), v) for k, v in model.state_dict().items())
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "2.weight"'):
        model.load_state_dict(renamed)
    for p, b in zip(model.parameters(), before):
        np.testing.assert_array_equal(p.detach().numpy(), b)


def test_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        tapegrad.load(tmp_path / "absent.pt")


def test_pickled_objects_keep_what_they_share():
    """Whole objects saved together (a trainer's optimizer and the scheduler driving it, a
    module listed twice) come back sharing what they shared, as from PyTorch's one pickle."""
    model = _model()
    optimizer = optim.SGD(model.parameters(), lr=0.1)
    scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    buffer = io.BytesIO()
    tapegrad.save({"model": model, "optimizer": optimizer, "scheduler": scheduler,
                   "again": [model]}, buffer)
    buffer.seek(0)
    loaded = tapegrad.load(buffer, weights_only=False)
    assert loaded["scheduler"].optimizer is loaded["optimizer"]
    assert loaded["again"][0] is loaded["model"]
    assert loaded["optimizer"].param_groups[0]["params"][0] is loaded["model"][0].weight
    loaded["scheduler"].step()
    assert loaded["optimizer"].param_groups[0]["lr"] == 0.05
    buffer.seek(0)  # the names a weights-only load would refuse come from every object pickled
    unsafe = tapegrad.serialization.get_unsafe_globals_in_checkpoint(buffer)
    assert {"torch.optim.sgd.SGD", "torch.optim.lr_scheduler.StepLR"} <= set(unsafe)
