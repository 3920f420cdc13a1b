"""``save`` and ``load``: state dicts (and nests of them) in a numpy ``.npz`` archive.

Each storage (the memory tensors view) is one byte array of the archive, each tensor a view of
one (dtype, offset, shape, strides), so tensors that shared memory share it again after loading,
and an object saved twice comes back as one object, as with ``torch.save``. The structure around
them (dicts, lists, tuples, numbers, strings; a state dict's ``_metadata`` too) is one JSON
document stored as a string array.
Anything else (a whole module, a numpy array) is pickled into its own entry, which ``load`` only
unpickles with ``weights_only=False``: by default a file can carry data, never code.
"""
import io
import json
import os
import pickle
import zipfile
from collections import OrderedDict

import numpy as np

from ._array_memory import address as _address
from .tensor import Tensor

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals"]

_STRUCTURE = "__tapegrad_structure__"
_FORMAT_VERSION = 2


def save(obj, f, pickle_module=None, pickle_protocol=None, _use_new_zipfile_serialization=True):
    """Write ``obj`` (tensors, numbers, strings, None, and dicts/lists/tuples of them) to ``f``,
    a path or a binary file object."""
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a "
                             "'write' attribute")
    arrays = {}
    structure = {"format": _FORMAT_VERSION, "root": _Encoder(arrays).encode(obj)}
    arrays[_STRUCTURE] = np.array(json.dumps(structure))
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as handle:  # np.savez would append ".npz" to a path
            np.savez(handle, **arrays)
    else:
        np.savez(f, **arrays)


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None,
         **pickle_load_args):
    """Read what ``save`` wrote. Tensors come back as new tensors (Parameters as Parameters),
    sharing memory where the saved ones did; pickled objects only with ``weights_only=False``."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as handle:
            return load(handle, map_location, pickle_module, weights_only=weights_only)
    _check_map_location(map_location)
    _check_seekable(f)
    start = f.tell()
    head = f.read(4)
    f.seek(start)
    if head != b"PK\x03\x04":  # not a zip archive: PyTorch's legacy format, a bare pickle
        return _load_pickle(f, weights_only)
    try:
        with np.load(f, allow_pickle=False) as archive:
            if _STRUCTURE not in archive.files:
                raise ValueError("the archive has no tapegrad structure entry")
            structure = json.loads(str(archive[_STRUCTURE]))
            arrays = {name: archive[name] for name in archive.files if name != _STRUCTURE}
    except (ValueError, OSError, zipfile.BadZipFile, json.JSONDecodeError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise RuntimeError(f"{_describe(f)} is not a file written by tapegrad.save (a .npz "
                           f"archive of arrays and a structure entry): {exc}") from None
    if structure.get("format") != _FORMAT_VERSION:
        raise RuntimeError(f"{_describe(f)} was written in tapegrad save format "
                           f"{structure.get('format')}; this version reads format "
                           f"{_FORMAT_VERSION}")
    return _Decoder(arrays, weights_only).decode(structure["root"])


_NO_CUDA_MESSAGE = (
    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
    "If you are running on a CPU-only machine, please use torch.load with "
    "map_location=torch.device('cpu') to map your storages to the CPU.")


def _check_map_location(map_location):
    """Every storage is saved on the CPU; mapping it to a CUDA device fails as it does in a
    CPU-only PyTorch. (A callable is PyTorch's per-storage hook: storages stay on the CPU.)"""
    if isinstance(map_location, dict):
        targets = [map_location.get("cpu", "cpu")]
    elif map_location is None or callable(map_location):
        targets = []
    else:
        targets = [map_location]
    for target in targets:
        if str(target).split(":")[0] == "cuda":
            raise RuntimeError(_NO_CUDA_MESSAGE)


def _check_seekable(f):
    """Reading a file means peeking at its head and going back, which PyTorch checks first:
    its message for a file (or any other object) that cannot seek."""
    try:
        f.seek(f.tell())
    except (io.UnsupportedOperation, AttributeError) as exc:
        if "seek" not in str(exc) and "tell" not in str(exc):
            raise
        raise type(exc)(f"{exc}. You can only torch.load from a file that is seekable. Please "
                        "pre-load the data into a buffer like io.BytesIO and try to load from it "
                        "instead.") from None


_LEGACY_MAGIC_NUMBER = 0x1950a86a20f9469cfc6c  # the first pickle of PyTorch's legacy format


def _load_pickle(f, weights_only):
    """A file that is not tapegrad's archive, read as PyTorch reads a legacy one: unpickled, and
    only with ``weights_only=False`` (a weights-only load refuses its first opcode)."""
    if not weights_only:
        if pickle.load(f) != _LEGACY_MAGIC_NUMBER:
            raise RuntimeError("Invalid magic number; corrupt file?")
        raise RuntimeError("this is a file of PyTorch's legacy format (torch.save with "
                           "_use_new_zipfile_serialization=False), which tapegrad cannot read")
    data = f.read()
    if not data:
        raise EOFError
    opcode = data[2] if data[:1] == b"\x80" and len(data) > 2 else data[0]  # after PROTO
    raise pickle.UnpicklingError(
        "Weights only load failed. In PyTorch 2.6, we changed the default value of the "
        "`weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` "
        "with `weights_only` set to `False` will likely succeed, but it can result in arbitrary "
        "code execution. Do it only if you got the file from a trusted source.\nPlease file an "
        "issue with the following so that we can make `weights_only=True` compatible with your "
        f"use case: WeightsUnpickler error: \n\nUnsupported operand {opcode}\n\nCheck the "
        "documentation of torch.load to learn more about types accepted by default with "
        "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


def _describe(f):
    return repr(os.fspath(f)) if isinstance(f, (str, os.PathLike)) else "the file object"


class _Encoder:
    """Turns an object into the JSON structure, adding the storages (and pickles) to
    ``arrays``; an object met again is stored as a reference to its first occurrence."""

    def __init__(self, arrays):
        self.arrays = arrays
        self.seen = {}      # id(object) -> its reference number
        self.keep = []      # the objects seen, alive until the end (their ids stay unique)
        self.storages = {}  # id(owning numpy array) -> (archive key, the array)

    def encode(self, obj):
        if id(obj) in self.seen:
            return {"ref": self.seen[id(obj)]}
        if isinstance(obj, (Tensor, dict, list)):
            self.seen[id(obj)] = len(self.keep)
            self.keep.append(obj)
            node = self._encode_new(obj)
            node["id"] = self.seen[id(obj)]
            return node
        return self._encode_new(obj)

    def _encode_new(self, obj):
        if isinstance(obj, Tensor):
            return self._encode_tensor(obj)
        if obj is None or isinstance(obj, (bool, int, float, str)):
            return {"value": obj}
        safe = self._encode_safe(obj)
        if safe is not None:
            return safe
        if isinstance(obj, dict):
            if all(type(k) in (str, int) for k in obj):
                node = {"dict": [[key, self.encode(value)] for key, value in obj.items()]}
            else:  # keys a JSON object cannot hold (tuples, floats, None, …)
                node = {"dict": [], "items": [[self.encode(key), self.encode(value)]
                                              for key, value in obj.items()]}
            node["ordered"] = isinstance(obj, OrderedDict)
            if isinstance(getattr(obj, "_metadata", None), dict):  # a state dict's versions
                node["metadata"] = self.encode(obj._metadata)
            return node
        if type(obj) in (list, tuple):
            return {"list" if isinstance(obj, list) else "tuple":
                    [self.encode(v) for v in obj]}
        try:
            data = pickle.dumps(obj)
        except (pickle.PicklingError, AttributeError, TypeError) as exc:
            raise TypeError(f"tapegrad.save: cannot store an object of type "
                            f"{type(obj).__name__}: {exc}") from None
        key = f"pickle_{len(self.arrays)}"
        self.arrays[key] = np.frombuffer(data, np.uint8)
        return {"pickle": key}

    def _encode_safe(self, obj):
        """The non-container values PyTorch's weights-only unpickler accepts: dtypes, sizes,
        devices, sets, bytes, complex numbers (None for anything else)."""
        from . import dtypes
        from .tensor import Size, device
        kind = type(obj)
        if kind is Size:
            return {"size": list(obj)}
        if isinstance(obj, dtypes.dtype):
            return {"dtype": obj.name}
        if kind is device:
            return {"device": str(obj)}
        if kind is set:
            return {"set": [self.encode(item) for item in obj]}
        if kind is bytes:
            return {"bytes": obj.hex()}
        if kind is complex:
            return {"complex": [obj.real, obj.imag]}
        return None

    def _encode_tensor(self, tensor):
        from .nn.parameter import Parameter
        array = tensor._array
        owner = _owner(array)
        if owner.flags.c_contiguous or owner.flags.f_contiguous:
            if id(owner) not in self.storages:
                key = f"storage_{len(self.arrays)}"
                memory = owner if owner.flags.c_contiguous else owner.T
                self.arrays[key] = memory.reshape(-1).view(np.uint8)
                self.storages[id(owner)] = key, owner
            key = self.storages[id(owner)][0]
            offset = _address(array) - _address(owner)
        else:  # memory numpy does not lay out in one block: stored on its own
            key, array, offset = f"storage_{len(self.arrays)}", np.ascontiguousarray(array), 0
            self.arrays[key] = array.reshape(-1).view(np.uint8)
        return {"tensor": key, "dtype": array.dtype.str, "offset": int(offset),
                "shape": list(array.shape), "strides": list(array.strides),
                "storage_dtype": owner.dtype.str if offset or array is not tensor._array
                else array.dtype.str,
                "requires_grad": tensor._requires_grad, "parameter": isinstance(tensor, Parameter)}


def _owner(array):
    """The numpy array that owns ``array``'s memory."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


class _Decoder:
    def __init__(self, arrays, weights_only):
        self.arrays = arrays
        self.weights_only = weights_only
        self.objects = {}  # reference number -> the object rebuilt

    def decode(self, node):
        if "ref" in node:
            return self.objects[node["ref"]]
        if "tensor" in node:
            return self._remember(node, self._decode_tensor(node))
        if "value" in node:
            return node["value"]
        if "dict" in node:
            result = OrderedDict() if node["ordered"] else {}
            self._remember(node, result)
            for key, value in node["dict"]:
                result[key] = self.decode(value)
            for key, value in node.get("items", ()):
                result[self.decode(key)] = self.decode(value)
            if "metadata" in node:
                result._metadata = self.decode(node["metadata"])
            return result
        if "list" in node:
            result = self._remember(node, [])
            result.extend(self.decode(v) for v in node["list"])
            return result
        if "tuple" in node:
            return tuple(self.decode(v) for v in node["tuple"])
        if len(node) == 1 and next(iter(node)) in _SAFE_DECODERS:
            ((kind, value),) = node.items()
            return _SAFE_DECODERS[kind](self, value)
        return self._unpickle(self.arrays[node["pickle"]].tobytes())

    def _remember(self, node, obj):
        if "id" in node:
            self.objects[node["id"]] = obj
        return obj

    def _decode_tensor(self, node):
        memory = self.arrays[node["tensor"]]
        array = np.ndarray(tuple(node["shape"]), np.dtype(node["dtype"]), buffer=memory,
                           offset=node["offset"], strides=tuple(node["strides"]))
        tensor = Tensor._make(array)
        storage_dtype = np.dtype(node["storage_dtype"])
        if node["offset"] or array.nbytes != memory.nbytes:
            tensor._storage = memory.view(storage_dtype)  # storage_offset() as saved
        if node["parameter"]:
            from .nn.parameter import Parameter
            parameter = Parameter(tensor, requires_grad=node["requires_grad"])
            return parameter
        return tensor.requires_grad_(node["requires_grad"])

    def _unpickle(self, data):
        if self.weights_only:
            return _AllowlistUnpickler(io.BytesIO(data)).load()
        return pickle.loads(data)


# The user's allowlist for weights-only loads: classes and functions, or (object, "module.name")
# pairs, as ``add_safe_globals`` was given them.
_user_safe_globals = []


def add_safe_globals(safe_globals):
    """Allow these classes/functions in the objects a ``weights_only=True`` load rebuilds."""
    _user_safe_globals.extend(safe_globals)


def get_safe_globals():
    return list(_user_safe_globals)


def clear_safe_globals():
    _user_safe_globals.clear()


class safe_globals:
    """``with torch.serialization.safe_globals([Config]):`` — the allowlist extended for the
    block only."""

    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        self._saved = get_safe_globals()
        add_safe_globals(self.safe_globals)

    def __exit__(self, exc_type, exc_value, traceback):
        _user_safe_globals[:] = self._saved
        return False


def _global_name(entry):
    """The dotted name a pickle imports an allowlist entry by."""
    if isinstance(entry, tuple):
        return entry[1]
    module = "builtins" if entry.__module__ is None else entry.__module__
    return f"{module}.{entry.__qualname__}"


def _builtin_safe_globals():
    """What tensors, Parameters, dtypes, sizes, devices and the plain containers pickle
    through: always allowed, as PyTorch's weights-only unpickler allows its own."""
    from .dtypes import as_dtype
    from .nn.parameter import _rebuild_parameter
    from .tensor import _rebuild, _size, device
    return [_rebuild, _rebuild_parameter, as_dtype, _size, device, *_numpy_array_globals(),
            OrderedDict, set, frozenset, slice, complex, bytearray]


def _numpy_array_globals():
    """What a numpy array pickles through: allowed only inside a tensor (a plain numpy array
    is refused by default, as in PyTorch)."""
    return [np.zeros(0).__reduce__()[0], np.ndarray, np.dtype]


class _AllowlistUnpickler(pickle.Unpickler):
    """Rebuilds only objects whose every class/function is allowed (built in, or on the user's
    allowlist), refusing any other global with PyTorch's message."""

    _inside_tensor = False  # a tensor's rebuild function came first: its array may follow

    def find_class(self, module, name):
        allowed = {_global_name(entry): entry[0] if isinstance(entry, tuple) else entry
                   for entry in _builtin_safe_globals() + _user_safe_globals}
        full_name = f"{module}.{name}"
        found = allowed.get(full_name)
        if found is None or (not self._inside_tensor and found in _numpy_array_globals()
                             and not any(found is e for e in _user_safe_globals)):
            raise pickle.UnpicklingError(_weights_only_message(full_name))
        if getattr(found, "__name__", "") in ("_rebuild", "_rebuild_parameter"):
            self._inside_tensor = True
        return found


def _decode_size(decoder, value):
    from .tensor import Size
    return Size(value)


def _decode_dtype(decoder, value):
    from . import dtypes
    return dtypes.as_dtype(value)


def _decode_device(decoder, value):
    from .tensor import device
    return device(value)


_SAFE_DECODERS = {
    "size": _decode_size, "dtype": _decode_dtype, "device": _decode_device,
    "set": lambda decoder, items: {decoder.decode(item) for item in items},
    "bytes": lambda decoder, text: bytes.fromhex(text),
    "complex": lambda decoder, parts: complex(*parts),
}


def _weights_only_message(name):
    return (
        "Weights only load failed. This file can still be loaded, to do so you have two options, "
        "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In "
        "PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
        "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
        "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
        "file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please "
        "check the recommended steps in the following error message.\n\tWeightsUnpickler error: "
        f"Unsupported global: GLOBAL {name} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{name}])` or the "
        f"`torch.serialization.safe_globals([{name}])` context manager to allowlist this global "
        "if you trust this class/function.\n\nCheck the documentation of torch.load to learn more "
        "about types accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.")
