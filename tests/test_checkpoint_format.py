"""Checkpoints in PyTorch's format: what tapegrad saves PyTorch loads, and what PyTorch saves
tapegrad loads (state dicts, optimizer states, views sharing storage, whole pickled modules),
with the archive laid out as PyTorch lays it out."""
import io
import os
import pickle
import pickletools
import struct
import zipfile

import numpy as np
import pytest

import tapegrad

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _trained(lib):
    """A model and its Adam optimizer after one step (optimizer state to save), same weights in
    both libraries."""
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4), lib.nn.Linear(4, 2))
    with lib.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(lib.from_numpy(np.linspace(-1, 1, p.numel(), dtype=np.float32)
                                   .reshape(tuple(p.shape)) * (i + 1)))
    optimizer = lib.optim.Adam(model.parameters(), lr=0.01)
    model(lib.from_numpy(np.arange(15, dtype=np.float32).reshape(5, 3))).square().sum().backward()
    optimizer.step()
    return model, optimizer


def _outputs(model, lib):
    model.eval()
    return model(lib.from_numpy(np.ones((2, 3), np.float32))).detach().numpy()


def _records(data):
    archive = zipfile.ZipFile(io.BytesIO(data))
    return archive, [info.filename for info in archive.infolist()]


@needs_torch
@pytest.mark.parametrize("writer, reader", [(tapegrad, torch), (torch, tapegrad)],
                         ids=["tapegrad-to-torch", "torch-to-tapegrad"])
def test_a_training_checkpoint_moves_between_the_libraries(tmp_path, writer, reader):
    model, optimizer = _trained(writer)
    path = tmp_path / "checkpoint.pt"
    writer.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": 3},
                path)
    checkpoint = reader.load(path)  # weights_only: nothing but tensors and containers in it
    fresh, fresh_optimizer = _trained(reader)
    assert not fresh.load_state_dict(checkpoint["model"]).missing_keys
    fresh_optimizer.load_state_dict(checkpoint["optimizer"])
    assert checkpoint["epoch"] == 3
    np.testing.assert_allclose(_outputs(fresh, reader), _outputs(model, writer), rtol=1e-6)
    exp_avg = [fresh_optimizer.state[p]["exp_avg"].numpy() for p in fresh.parameters()]
    expected = [optimizer.state[p]["exp_avg"].numpy() for p in model.parameters()]
    for got, want in zip(exp_avg, expected):
        np.testing.assert_array_equal(got, want)


@needs_torch
@pytest.mark.parametrize("writer, reader", [(tapegrad, torch), (torch, tapegrad)],
                         ids=["tapegrad-to-torch", "torch-to-tapegrad"])
def test_views_dtypes_and_layouts_survive_the_move(writer, reader):
    base = writer.arange(12.0)
    saved = {"base": base, "row": base.view(3, 4)[1], "column": base.view(3, 4)[:, 2],
             "transposed": base.view(3, 4).t(),
             "uint32": writer.tensor([1, 2, 3], dtype=writer.uint32),
             "bool": writer.tensor([True, False]), "complex": writer.tensor([1 + 2j]),
             "scalar": writer.tensor(2.5, dtype=writer.float64), "empty": writer.zeros(0, 2),
             "size": writer.Size([2, 3]), "dtype": writer.float16,
             "parameter": writer.nn.Parameter(writer.ones(2))}
    buffer = io.BytesIO()
    writer.save(saved, buffer)
    buffer.seek(0)
    loaded = reader.load(buffer)
    for key, value in saved.items():
        if isinstance(value, (tuple, type(writer.float16))):
            assert str(loaded[key]) == str(value)
            continue
        assert loaded[key].tolist() == value.tolist()
        assert str(loaded[key].dtype) == str(value.dtype)
        assert loaded[key].stride() == value.stride()
        assert loaded[key].storage_offset() == value.storage_offset()
    assert type(loaded["parameter"]).__name__ == "Parameter" and loaded["parameter"].requires_grad
    loaded["base"][6] = -1.0  # one storage, as saved: the views see the write
    assert loaded["row"][2].item() == -1.0 and loaded["column"][1].item() == -1.0


@needs_torch
def test_a_pickled_pytorch_module_loads_as_a_tapegrad_module(tmp_path):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
    torch.save(model, tmp_path / "model.pt")
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL torch.nn.modules.container"
                                                     ".Sequential was not an allowed global"):
        tapegrad.load(tmp_path / "model.pt")
    loaded = tapegrad.load(tmp_path / "model.pt", weights_only=False)
    assert type(loaded) is tapegrad.nn.Sequential and type(loaded[0]) is tapegrad.nn.Linear
    x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(loaded(tapegrad.from_numpy(x)).detach().numpy(),
                               model(torch.from_numpy(x)).detach().numpy(), rtol=1e-6)


def test_the_archive_is_laid_out_as_pytorchs():
    buffer = io.BytesIO()
    weights = tapegrad.arange(40.0)
    tapegrad.save({"w": weights, "half": weights[20:], "b": tapegrad.ones(3)}, buffer)
    data = buffer.getvalue()
    archive, names = _records(data)
    assert names == ["archive/data.pkl", "archive/.format_version", "archive/.storage_alignment",
                     "archive/byteorder", "archive/data/0", "archive/data/1", "archive/version",
                     "archive/.data/serialization_id"]  # a view adds no storage of its own
    assert archive.read("archive/version") == b"3\n"
    assert archive.read("archive/byteorder") == b"little"
    assert np.frombuffer(archive.read("archive/data/0"), np.float32).tolist() == \
        weights.tolist()
    for info in archive.infolist():
        assert info.compress_type == zipfile.ZIP_STORED
        if "/data/" in info.filename:  # each storage's bytes start at a multiple of 64
            name_length, extra_length = struct.unpack(
                "<HH", data[info.header_offset + 26:info.header_offset + 30])
            assert (info.header_offset + 30 + name_length + extra_length) % 64 == 0
    globals_named = {arg for op, arg, _ in pickletools.genops(archive.read("archive/data.pkl"))
                     if op.name == "GLOBAL"}
    assert globals_named == {"collections OrderedDict", "torch._utils _rebuild_tensor_v2",
                             "torch FloatStorage"}


def test_a_file_is_named_after_its_path_and_written_only_when_pickling_succeeded(tmp_path):
    tapegrad.save({"w": tapegrad.ones(2)}, tmp_path / "run.ckpt")
    assert _records((tmp_path / "run.ckpt").read_bytes())[1][0] == "run/data.pkl"
    with pytest.raises(AttributeError, match="Can't pickle local object"):
        tapegrad.save({"f": lambda: None}, tmp_path / "broken.pt")
    assert not os.path.exists(tmp_path / "broken.pt")


def _checkpoint_with(records):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in records.items():
            archive.writestr(f"archive/{name}", data)
    buffer.seek(0)
    return buffer


def _tensor_pickle(size, stride, offset, numel):
    """data.pkl of one float tensor as PyTorch writes it (protocol 2)."""
    saved, storage = io.BytesIO(), object()
    pickler = tapegrad.serialization._CheckpointPickler(saved, 2)
    pickler.persistent_id = lambda obj: (
        ("storage", tapegrad.serialization._STORAGE_TYPES["float32"], "0", "cpu", numel)
        if obj is storage else None)
    pickler.save_reduce(tapegrad.serialization._rebuild_tensor_v2,
                        (storage, offset, size, stride, False, None))
    pickler.write(pickle.STOP)
    return b"\x80\x02" + saved.getvalue()


def test_a_damaged_checkpoint_is_refused_not_read_outside_its_storage():
    good = {"data.pkl": _tensor_pickle((2,), (1,), 1, 3), "version": b"3\n",
            "data/0": np.arange(3, dtype=np.float32).tobytes()}
    assert tapegrad.load(_checkpoint_with(good)).tolist() == [1.0, 2.0]
    with pytest.raises(RuntimeError, match="does not fit in its storage of 3 elements"):
        tapegrad.load(_checkpoint_with(dict(good, **{"data.pkl": _tensor_pickle((4,), (1,), 1,
                                                                                3)})))
    with pytest.raises(RuntimeError, match=r"record size \(8 bytes\) does not match expected "
                                           r"size \(12 bytes = 3 elements \* 4 bytes/element\) "
                                           "for dtype Float"):
        tapegrad.load(_checkpoint_with(dict(good, **{"data/0": b"\x00" * 8})))
    with pytest.raises(RuntimeError, match='Expected hasRecord\\("version"\\) to be true'):
        tapegrad.load(_checkpoint_with({"data.pkl": good["data.pkl"]}))


def test_mmap_maps_the_storages_copy_on_write(tmp_path):
    path = tmp_path / "weights.pt"
    tapegrad.save({"w": tapegrad.arange(100.0)}, path)
    mapped = tapegrad.load(path, mmap=True)["w"]
    assert isinstance(mapped._array.base, np.memmap)
    mapped[0] = 7.0
    assert mapped[0].item() == 7.0 and tapegrad.load(path)["w"][0].item() == 0.0


@needs_torch
@pytest.mark.parametrize("value", [slice(1, 2), frozenset([1]), range(3), bytearray(b"ab")],
                         ids=["slice", "frozenset", "range", "bytearray"])
def test_weights_only_allows_the_values_pytorch_allows(value):
    def load_back(lib):
        buffer = io.BytesIO()
        lib.save({"v": value}, buffer)
        buffer.seek(0)
        try:
            return repr(lib.load(buffer)["v"])
        except pickle.UnpicklingError as error:
            return str(error).split("WeightsUnpickler error: ")[1].split(" was not")[0]
    assert load_back(tapegrad) == load_back(torch)
