"""``save`` and ``load``: state dicts (and nests of them) in a numpy ``.npz`` archive.

Each storage (the memory tensors view) is one byte array of the archive, each tensor a view of
one (dtype, offset, shape, strides), so tensors that shared memory share it again after loading,
and an object saved twice comes back as one object, as with ``torch.save``. The structure around
them (dicts, lists, tuples, numbers, strings; a state dict's ``_metadata`` too) is one JSON
document stored as a string array.
Anything else (a whole module, a numpy array, a dict subclass, a numpy scalar) is pickled, the
tensors in it kept out of the pickle (persistent ids naming structure nodes, as PyTorch keeps
them out of its pickle). All pickled objects are dumped by one pickler into one entry, so
objects they share (an optimizer a saved scheduler drives) are one object again after loading,
as in PyTorch's single pickle. ``load`` rebuilds a pickled object with ``weights_only=True``
only if every class and function it names is allowed, so by default a file can carry data,
never code.
"""
import codecs
import io
import json
import os
import pickle
import pickletools
import zipfile
from _compat_pickle import IMPORT_MAPPING, NAME_MAPPING
from collections import Counter, OrderedDict

import numpy as np

from ._array_memory import address as _address
from ._layout import strided
from .tensor import Tensor

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals", "get_unsafe_globals_in_checkpoint"]

_STRUCTURE = "__tapegrad_structure__"
_FORMAT_VERSION = 4
# format 2 pickled the tensors inside pickled objects themselves; formats 2 and 3 pickled each
# object on its own (``"pickle"`` nodes), format 4 into one stream (``"pickled"`` nodes)
_READABLE_FORMATS = (2, 3, 4)
_PICKLES = "pickles"  # the archive entry of format 4's pickle stream
DEFAULT_PROTOCOL = 2  # the pickle protocol torch.save writes with


def save(obj, f, pickle_module=None, pickle_protocol=DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization=True):
    """Write ``obj`` (tensors, numbers, strings, None, and dicts/lists/tuples of them; anything
    else pickled) to ``f``, a path or a binary file object."""
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a "
                             "'write' attribute")
    if isinstance(f, (str, os.PathLike)):
        _check_parent_directory(f)
    arrays = {}
    encoder = _Encoder(arrays, pickle_protocol)
    structure = {"format": _FORMAT_VERSION, "root": encoder.encode(obj)}
    encoder.finish()
    arrays[_STRUCTURE] = np.array(json.dumps(structure))
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as handle:  # np.savez would append ".npz" to a path
            np.savez(handle, **arrays)
    else:
        np.savez(f, **arrays)


def _check_parent_directory(path):
    """PyTorch refuses to save into a directory that is not there, before writing anything."""
    parent = os.path.dirname(os.fspath(path))
    if parent and not os.path.isdir(parent):
        raise RuntimeError(f"Parent directory {parent} does not exist.")


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None,
         **pickle_load_args):
    """Read what ``save`` wrote. Tensors come back as new tensors (Parameters as Parameters),
    sharing memory where the saved ones did; pickled objects only with ``weights_only=False``."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as handle:
            return load(handle, map_location, pickle_module, weights_only=weights_only)
    if mmap:  # memory-mapping needs a file name (a path reached this point as a handle)
        raise ValueError("f must be a file path in order to use the mmap argument")
    _check_seekable(f)
    start = f.tell()
    head = f.read(4)
    f.seek(start)
    if head != b"PK\x03\x04":  # not a zip archive: PyTorch's legacy format, a bare pickle
        return _load_pickle(f, weights_only)
    structure, arrays = _read_archive(f)
    return _Decoder(arrays, weights_only, map_location).decode(structure["root"])


def _read_archive(f):
    """The structure and the arrays of a file ``save`` wrote (``f`` at its start)."""
    start = f.tell()
    try:
        with np.load(f, allow_pickle=False) as archive:
            if _STRUCTURE not in archive.files:
                raise ValueError("the archive has no tapegrad structure entry")
            structure = json.loads(str(archive[_STRUCTURE]))
            arrays = {name: archive[name] for name in archive.files if name != _STRUCTURE}
    except zipfile.BadZipFile:
        raise RuntimeError(_corrupt_zip_message(f.seek(0, io.SEEK_END) - start)) from None
    except (ValueError, OSError, json.JSONDecodeError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise RuntimeError(f"{_describe(f)} is not a file written by tapegrad.save (a .npz "
                           f"archive of arrays and a structure entry): {exc}") from None
    if structure.get("format") not in _READABLE_FORMATS:
        raise RuntimeError(f"{_describe(f)} was written in tapegrad save format "
                           f"{structure.get('format')}; this version reads formats "
                           f"{', '.join(map(str, _READABLE_FORMATS))}")
    return structure, arrays


_ZIP_END_RECORD_SIZE = 22  # a zip archive shorter than its end record cannot be one


def _corrupt_zip_message(size):
    """PyTorch's message for a file (of ``size`` bytes) that starts as a zip archive but is cut
    short or damaged (a checkpoint whose writing was interrupted)."""
    reason = ("not a ZIP archive" if size < _ZIP_END_RECORD_SIZE
              else "failed finding central directory")
    return (f"PytorchStreamReader failed reading zip archive: {reason}. This is an internal miniz "
            "error. If you are seeing this error, there is a high likelihood that your checkpoint "
            "file is corrupted. This can happen if the checkpoint was not saved properly, was "
            "transferred incorrectly, or the file was modified after saving.")


_NO_CUDA_MESSAGE = (
    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
    "If you are running on a CPU-only machine, please use torch.load with "
    "map_location=torch.device('cpu') to map your storages to the CPU.")


def _check_map_location(map_location):
    """Every storage is saved on the CPU, so only "cpu" is a place to restore it: a CUDA device
    fails as in a CPU-only PyTorch, another device as tapegrad refuses it, a location that is
    no device's tag as in PyTorch. Checked for each tensor restored, as PyTorch maps storages
    (a file without any loads wherever it is mapped); a callable is PyTorch's per-storage hook:
    storages stay on the CPU."""
    from .tensor import _check_device, device
    if isinstance(map_location, dict):
        targets = [map_location.get("cpu", "cpu")]
    elif map_location is None or callable(map_location):
        targets = []
    elif isinstance(map_location, (str, device)):
        targets = [map_location]
    else:  # PyTorch calls whatever else it is given
        raise TypeError(f"'{type(map_location).__name__}' object is not callable")
    for target in map(str, targets):
        if target.split(":")[0] == "cuda":
            raise RuntimeError(_NO_CUDA_MESSAGE)
        if target != "cpu":
            _check_device(_parsed_device(target))
            raise RuntimeError("don't know how to restore data location of "
                               f"torch.storage.UntypedStorage (tagged with {target})")


def _parsed_device(location):
    """The device a location string names (the CPU for a string that names none)."""
    from .tensor import device
    try:
        return device(location)
    except RuntimeError:
        return device("cpu")


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

    def __init__(self, arrays, pickle_protocol=DEFAULT_PROTOCOL):
        self.arrays = arrays
        self.pickle_protocol = pickle_protocol
        self.seen = {}      # id(object) -> its reference number
        self.keep = []      # the objects seen, alive until the end (their ids stay unique)
        self.storages = {}  # id(owning numpy array) -> (archive key, the array)
        self.pickle_stream = io.BytesIO()
        self.pickler = None  # made for the first object pickled; one memo for all of them
        self.pickled = 0
        self.pickled_tensors = None  # the tensor nodes of the object being pickled

    def encode(self, obj):
        if id(obj) in self.seen:
            return {"ref": self.seen[id(obj)]}
        if isinstance(obj, (Tensor, dict, list)):
            return self._remembered(obj, self._encode_new)
        return self._encode_new(obj)

    def _remembered(self, obj, encode):
        """``encode(obj)``'s node, numbered so that a later occurrence can refer to it."""
        self.seen[id(obj)] = number = len(self.keep)
        self.keep.append(obj)
        node = encode(obj)
        node["id"] = number
        return node

    def finish(self):
        """Add the pickle stream to the archive (if anything was pickled)."""
        if self.pickled:
            self.arrays[_PICKLES] = np.frombuffer(self.pickle_stream.getvalue(), np.uint8)

    def _encode_new(self, obj):
        if _holds_data(obj):
            return self._encode_tensor(obj)
        if obj is None or type(obj) in (bool, int, float, str):  # not a subclass (np.float64)
            return {"value": obj}
        safe = self._encode_safe(obj)
        if safe is not None:
            return safe
        if type(obj) in (dict, OrderedDict):  # a subclass (defaultdict) keeps its type: pickled
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
        return self._remembered(obj, self._encode_pickled)

    def _encode_pickled(self, obj):
        """``obj`` dumped into the pickle stream (the ``pickled``-th object there), each tensor
        in it a persistent id: the index of its node (so it shares memory with the other
        tensors saved, and the pickle names no array-rebuilding function)."""
        if self.pickler is None:
            self.pickler = pickle.Pickler(self.pickle_stream, protocol=self.pickle_protocol)
            self.pickler.persistent_id = self._persistent_id
        self.pickled_tensors = tensors = []
        self.pickler.dump(obj)
        self.pickled += 1
        return {"pickled": self.pickled - 1, "tensors": tensors}

    def _persistent_id(self, value):
        if _holds_data(value):
            self.pickled_tensors.append(self.encode(value))
            return str(len(self.pickled_tensors) - 1)  # a string: protocol 0 takes no other id
        return None

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


def _holds_data(obj):
    """Whether ``obj`` is a tensor stored as data (one strided array): a lazy module's
    placeholder has none yet, and is pickled as its class (``UninitializedParameter``), as
    PyTorch pickles it; a sparse tensor is pickled as its parts (indices and values tensors)."""
    from .nn.parameter import is_lazy
    return isinstance(obj, Tensor) and obj.layout is strided and not is_lazy(obj)


def _owner(array):
    """The numpy array that owns ``array``'s memory."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


class _Decoder:
    def __init__(self, arrays, weights_only, map_location=None):
        self.arrays = arrays
        self.weights_only = weights_only
        self.map_location = map_location
        self.objects = {}  # reference number -> the object rebuilt
        self.unpickler = None  # over the pickle stream, read in the order it was written
        self.unpickled = 0
        self.pickled_tensor_nodes = ()  # those of the object being unpickled

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
        if "pickled" in node:
            return self._remember(node, self._next_pickled(node))
        return self._unpickle(self.arrays[node["pickle"]].tobytes(), node.get("tensors", ()))

    def _remember(self, node, obj):
        if "id" in node:
            self.objects[node["id"]] = obj
        return obj

    def _decode_tensor(self, node):
        _check_map_location(self.map_location)
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

    def _next_pickled(self, node):
        """The next object of the pickle stream; the structure meets them in the order they
        were dumped, which is the order ``save`` met them."""
        if node["pickled"] != self.unpickled:
            raise RuntimeError("the archive's pickled objects are out of order (a damaged file)")
        if self.unpickler is None:
            unpickler_class = _AllowlistUnpickler if self.weights_only else pickle.Unpickler
            self.unpickler = unpickler_class(io.BytesIO(self.arrays[_PICKLES].tobytes()))
            self.unpickler.persistent_load = self._persistent_load
        self.pickled_tensor_nodes = node["tensors"]
        self.unpickled += 1
        return self.unpickler.load()

    def _persistent_load(self, index):
        return self.decode(self.pickled_tensor_nodes[int(index)])

    def _unpickle(self, data, tensor_nodes):
        unpickler_class = _AllowlistUnpickler if self.weights_only else pickle.Unpickler
        unpickler = unpickler_class(io.BytesIO(data))
        unpickler.persistent_load = lambda index: self.decode(tensor_nodes[int(index)])
        return unpickler.load()


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
    from ._sparse_tensor import _rebuild_sparse_coo
    from .dtypes import as_dtype
    from .nn.parameter import _rebuild_parameter
    from .sparse._csr import _rebuild_sparse_csr
    from .tensor import _rebuild, _size, device
    return [_rebuild, _rebuild_parameter, as_dtype, _size, device, *_numpy_array_globals(),
            _rebuild_sparse_coo, _rebuild_sparse_csr,
            OrderedDict, Counter, set, frozenset, slice, complex, bytearray, codecs.encode]


def _numpy_array_globals():
    """What a numpy array pickles through: allowed only inside a tensor of a format-2 file (a
    plain numpy array is refused by default, as in PyTorch)."""
    return [np.zeros(0).__reduce__()[0], np.ndarray, np.dtype]


def _python3_name(module, name):
    """The dotted name of a global as Python 3 calls it: protocol 2 pickles (PyTorch's) write
    Python 2's names (``__builtin__.set``)."""
    if (module, name) in NAME_MAPPING:
        module, name = NAME_MAPPING[(module, name)]
    return f"{IMPORT_MAPPING.get(module, module)}.{name}"


def _public_name(full_name):
    """A global's dotted name as the user's code spells it: tapegrad's modules are torch's."""
    package, dot, rest = full_name.partition(".")
    return f"torch{dot}{rest}" if package == "tapegrad" else full_name


def _message_name(full_name):
    """The name PyTorch's refusal shows: a builtin without its module (``getattr``)."""
    package, _, rest = full_name.partition(".")
    return rest if package == "builtins" else _public_name(full_name)


class _AllowlistUnpickler(pickle.Unpickler):
    """Rebuilds only objects whose every class/function is allowed (built in, or on the user's
    allowlist), refusing any other global with PyTorch's message."""

    _inside_tensor = False  # a tensor's rebuild function came first: its array may follow

    def find_class(self, module, name):
        allowed = {_global_name(entry): entry[0] if isinstance(entry, tuple) else entry
                   for entry in _builtin_safe_globals() + _user_safe_globals}
        full_name = _python3_name(module, name)
        found = allowed.get(full_name)
        if found is None or (not self._inside_tensor and found in _numpy_array_globals()
                             and not any(found is e for e in _user_safe_globals)):
            raise pickle.UnpicklingError(_weights_only_message(_message_name(full_name)))
        if getattr(found, "__name__", "") in ("_rebuild", "_rebuild_parameter"):
            self._inside_tensor = True
        return found


def get_unsafe_globals_in_checkpoint(f):
    """The classes/functions (``"module.name"``) a checkpoint's pickled objects name that a
    ``weights_only=True`` load would refuse: read from the pickles, never running them."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as handle:
            return get_unsafe_globals_in_checkpoint(handle)
    start = f.tell()
    is_archive = f.read(4) == b"PK\x03\x04"
    f.seek(start)
    if not is_archive:
        raise ValueError("Expected input to be a checkpoint returned by torch.save")
    _, arrays = _read_archive(f)
    safe = {_global_name(entry) for entry in _builtin_safe_globals() + _user_safe_globals
            if not any(entry is numpy_global for numpy_global in _numpy_array_globals())}
    named = set().union(*(_globals_in_pickle(array.tobytes()) for key, array in arrays.items()
                          if key.startswith("pickle_") or key == _PICKLES))
    return [_public_name(name) for name in named - safe]


_STRING_PUSHES = {"SHORT_BINUNICODE", "BINUNICODE", "BINUNICODE8", "UNICODE", "SHORT_BINSTRING",
                  "BINSTRING", "STRING"}
_MEMO_GETS = {"GET", "BINGET", "LONG_BINGET"}
_MEMO_PUTS = {"PUT", "BINPUT", "LONG_BINPUT"}


def _globals_in_pickle(data):
    """The dotted names the pickles in ``data`` (one after another, sharing one memo) import,
    from their opcodes: GLOBAL carries one (protocols 0-3); STACK_GLOBAL (protocol 4+) takes
    the two strings pushed just before it, which may come back from the memo."""
    found, memo = set(), {}
    stream = io.BytesIO(data)
    while stream.tell() < len(data):
        _read_globals(stream, found, memo)
    return found


def _read_globals(stream, found, memo):
    """Add the names the next pickle in ``stream`` imports to ``found``."""
    recent = [None, None]  # what the last two opcodes pushed
    for opcode, arg, _ in pickletools.genops(stream):
        pushed = None
        if opcode.name == "GLOBAL":
            found.add(_python3_name(*arg.split(" ")))
        elif opcode.name == "STACK_GLOBAL":
            found.add(_python3_name(*recent))
        elif opcode.name in _STRING_PUSHES:
            pushed = arg
        elif opcode.name in _MEMO_GETS:
            pushed = memo.get(arg)
        elif opcode.name in _MEMO_PUTS or opcode.name == "MEMOIZE":
            memo[len(memo) if opcode.name == "MEMOIZE" else arg] = recent[1]
            continue  # stores the top of the stack, pushes nothing
        recent = [recent[1], pushed]


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
