"""``save`` and ``load`` in PyTorch's checkpoint format: a file either library writes, the other
reads (a state dict saved by PyTorch loads into a tapegrad model, and the other way round).

A checkpoint is a zip archive of uncompressed records in one folder (named after the file, or
``archive``), laid out as PyTorch lays it out:

- ``data.pkl``: the object, pickled (protocol 2 unless asked otherwise). Each tensor in it is a
  call ``torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks)``
  (a Parameter wraps one in ``torch._utils._rebuild_parameter``) whose storage is a persistent id
  ``("storage", torch.FloatStorage, key, "cpu", numel)``: the data stays out of the pickle;
- ``data/<key>``: the bytes of one storage (little-endian, aligned to 64 bytes in the file);
- ``version``, ``byteorder``, ``.format_version``, ``.storage_alignment`` and
  ``.data/serialization_id``.

Tensors that share memory are saved as views of one storage, so they share it again after
loading, and an object saved twice comes back as one object (the pickle's memo). tapegrad's own
classes and functions are named in the pickle as PyTorch names them (``torch.nn.modules.linear.
Linear``), and ``load`` reads PyTorch's names as tapegrad's. With ``weights_only=True`` (the
default) ``load`` rebuilds only tensors, containers and the few classes PyTorch's weights-only
unpickler allows, plus the user's allowlist: a file can carry data, never code.
"""
import codecs
import io
import os
import pickle
import pickletools
import secrets
import struct
import sys
import types
import zipfile
from _compat_pickle import IMPORT_MAPPING, NAME_MAPPING
from collections import Counter, OrderedDict

import numpy as np

from . import dtypes
from ._array_memory import address as _address
from ._layout import strided
from .tensor import Size, Tensor, device

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals",
           "safe_globals", "get_unsafe_globals_in_checkpoint"]

DEFAULT_PROTOCOL = 2  # the pickle protocol torch.save writes with
_ALIGNMENT = 64  # where each storage's bytes start in the file (PyTorch maps them with mmap)
_FILE_FORMAT_VERSION = b"3\n"  # PyTorch's "version" record: the format its readers accept


def save(obj, f, pickle_module=None, pickle_protocol=DEFAULT_PROTOCOL,
         _use_new_zipfile_serialization=True):
    """Write ``obj`` to ``f`` (a path or a binary file object) as ``torch.save`` does.

    The object is pickled before anything is written: an object that cannot be pickled leaves
    no file, or nothing added to ``f``."""
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a "
                             "'write' attribute")
    if isinstance(f, (str, os.PathLike)):
        _check_parent_directory(f)
    pickled = io.BytesIO()
    pickler = _CheckpointPickler(pickled, pickle_protocol)
    pickler.dump(obj)
    if isinstance(f, (str, os.PathLike)):
        folder = os.path.splitext(os.path.basename(os.fspath(f)))[0] or "archive"
        with open(f, "wb") as handle:
            _write_archive(handle, folder, pickled.getvalue(), pickler.storages)
    else:
        _write_archive(f, "archive", pickled.getvalue(), pickler.storages)


def _check_parent_directory(path):
    """PyTorch refuses to save into a directory that is not there, before writing anything."""
    parent = os.path.dirname(os.fspath(path))
    if parent and not os.path.isdir(parent):
        raise RuntimeError(f"Parent directory {parent} does not exist.")


# -- writing --------------------------------------------------------------------------------------

class _SavedStorage:
    """One storage of the checkpoint: the memory of one numpy array (bytes), which the tensors
    viewing it read as elements of ``dtype``."""

    __slots__ = ("key", "memory", "dtype")

    def __init__(self, key, memory, dtype):
        self.key, self.memory, self.dtype = key, memory, dtype


class _CheckpointPickler(pickle._Pickler):
    """Pickles as ``torch.save`` does: tensors as rebuild calls on storages kept out of the
    pickle (``storages``: key -> _SavedStorage), tapegrad's objects under PyTorch's names.

    The pure-Python pickler, because the C one checks each global by importing the module it
    names: tapegrad's ``Tensor`` calls itself ``torch.Tensor``, which is no tapegrad module (and
    may be PyTorch's). Only the structure goes through it; the tensors' data never does."""

    dispatch = dict(pickle._Pickler.dispatch)  # functions too go through save_global below
    dispatch[types.FunctionType] = lambda self, obj: self.save_global(obj)

    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = {}
        self._by_owner = {}  # id(owning numpy array) -> its _SavedStorage
        self._owners = []    # the owners, alive until the end: their ids stay unique

    def persistent_id(self, obj):
        if type(obj) is _SavedStorage:
            kind = _STORAGE_TYPES.get(obj.dtype.name, _UNTYPED)
            numel = obj.memory.nbytes // kind.dtype.itemsize
            if self.proto == 0:  # its persistent ids are text: (PyTorch's reader fails on them)
                return f"storage {kind!r} {obj.key} cpu {numel}"
            return "storage", kind, obj.key, "cpu", numel
        return None

    def reducer_override(self, obj):
        if _holds_data(obj):
            return self._reduce_tensor(obj)
        if type(obj) is Size:
            return Size, (tuple(obj),)
        if type(obj) is device:
            return device, (obj.type,) if obj.index is None else (obj.type, obj.index)
        if isinstance(obj, (dtypes.dtype, _StorageType)):
            return obj.name  # a global: ``torch.float32``, ``torch.FloatStorage``
        return NotImplemented

    def _reduce_tensor(self, tensor):
        from .nn.parameter import Parameter
        if isinstance(tensor, Parameter):
            return _rebuild_parameter, (Tensor._make(tensor._array), tensor._requires_grad,
                                        OrderedDict())
        array = tensor._array
        storage, offset, strides = self._storage_of(array)
        arguments = (storage, offset, tuple(array.shape), strides, tensor._requires_grad,
                     OrderedDict())
        if array.dtype.name in _STORAGE_TYPES:
            return _rebuild_tensor_v2, arguments
        return _rebuild_tensor_v3, arguments + (dtypes.from_numpy_dtype(array.dtype),)

    def _storage_of(self, array):
        """(storage, offset, strides) in elements: the owner of ``array``'s memory where PyTorch
        can describe ``array`` as a view of it, else a copy of ``array`` on its own."""
        owner, itemsize = _owner(array), array.itemsize
        offset = _address(array) - _address(owner)
        if (array.size and array.dtype.isnative
                and (owner.flags.c_contiguous or owner.flags.f_contiguous)
                and owner.nbytes % itemsize == 0 and offset % itemsize == 0
                and all(s >= 0 and s % itemsize == 0 for s in array.strides)):
            memory = owner if owner.flags.c_contiguous else owner.T
            storage = self._storage_for(owner, memory.reshape(-1).view(np.uint8), array.dtype)
            return storage, offset // itemsize, tuple(s // itemsize for s in array.strides)
        copy = np.ascontiguousarray(array, array.dtype.newbyteorder("="))
        storage = self._new_storage(copy.reshape(-1).view(np.uint8), copy.dtype)
        return storage, 0, tuple(s // itemsize for s in copy.strides) if copy.size else \
            _contiguous_strides(copy.shape)

    def _storage_for(self, owner, memory, dtype):
        storage = self._by_owner.get(id(owner))
        if storage is None:
            storage = self._by_owner[id(owner)] = self._new_storage(memory, dtype)
            self._owners.append(owner)
        elif storage.dtype != dtype:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same data "
                               "as different types")
        return storage

    def _new_storage(self, memory, dtype):
        storage = _SavedStorage(str(len(self.storages)), memory, dtype)
        self.storages[storage.key] = storage
        return storage

    def save_global(self, obj, name=None):
        """Write the global's name, PyTorch's for tapegrad's objects; checked as the C pickler
        checks it (with its errors) for everything else."""
        module, qualname = _torch_spelling(obj) or _checked_global(obj, name)
        if self.proto >= 4:
            self.save(module)
            self.save(qualname)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + f"{module}\n{qualname}\n".encode("utf-8"))
        self.memoize(obj)


def _contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def _checked_global(obj, name):
    """(module, qualified name) under which unpickling finds ``obj`` again, or the C pickler's
    error where it would not."""
    qualname = name or getattr(obj, "__qualname__", None) or obj.__name__
    module_name = pickle.whichmodule(obj, qualname)
    if "<locals>" in qualname.split("."):
        raise AttributeError(f"Can't pickle local object {qualname!r}")
    try:
        __import__(module_name, level=0)
        found = sys.modules[module_name]
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, KeyError):
        raise pickle.PicklingError(f"Can't pickle {obj!r}: import of module {module_name!r} "
                                   "failed") from None
    except AttributeError:
        raise pickle.PicklingError(f"Can't pickle {obj!r}: attribute lookup {qualname} on "
                                   f"{module_name} failed") from None
    if found is not obj:
        raise pickle.PicklingError(f"Can't pickle {obj!r}: it's not the same object as "
                                   f"{module_name}.{qualname}")
    return module_name, qualname


def _write_archive(f, folder, pickled, storages):
    """The zip archive of the records, in PyTorch's order, each storage's bytes aligned."""
    try:
        start = f.tell()
    except (OSError, AttributeError):  # a stream: written as it comes, without alignment
        start = None
    records = [("data.pkl", pickled), (".format_version", b"1"),
               (".storage_alignment", str(_ALIGNMENT).encode()), ("byteorder", b"little")]
    records += [(f"data/{key}", storage.memory) for key, storage in storages.items()]
    records += [("version", _FILE_FORMAT_VERSION),
                (".data/serialization_id", str(secrets.randbits(128)).zfill(40).encode())]
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as archive:
        for name, data in records:
            info = zipfile.ZipInfo(f"{folder}/{name}", date_time=(1980, 1, 1, 0, 0, 0))
            size = memoryview(data).nbytes
            large = size * 1.05 > zipfile.ZIP64_LIMIT
            if start is not None and name.startswith("data/"):
                info.extra = _padding(f.tell() - start, info.filename, large)
            with archive.open(info, "w", force_zip64=large) as record:
                record.write(data)


def _padding(position, filename, large):
    """An extra field (PyTorch's "FB" padding) that moves the record's data, whose local header
    starts at ``position``, to the next multiple of the alignment."""
    header = 30 + len(filename.encode("utf-8")) + 4 + (20 if large else 0)  # (+ zip64 field)
    return b"FB" + struct.pack("<H", -(position + header) % _ALIGNMENT) + \
        b"Z" * (-(position + header) % _ALIGNMENT)


def _holds_data(obj):
    """Whether ``obj`` is a tensor saved as data (one strided array): a lazy module's
    placeholder has none yet, and is pickled as its class (``UninitializedParameter``), as
    PyTorch pickles it; a sparse tensor is pickled as its parts (indices and values tensors)."""
    from .nn.parameter import is_lazy
    return isinstance(obj, Tensor) and obj.layout is strided and not is_lazy(obj)


def _owner(array):
    """The numpy array that owns ``array``'s memory."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


# -- reading --------------------------------------------------------------------------------------

def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None,
         **pickle_load_args):
    """Read a checkpoint ``save`` or ``torch.save`` wrote. Tensors come back as tapegrad tensors
    (Parameters as Parameters), sharing memory where the saved ones did; other objects only with
    ``weights_only=False``, or when allowlisted. ``mmap=True`` maps the storages from the file
    (copy-on-write) instead of reading them."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as handle:
            return _load(handle, map_location, weights_only, os.fspath(f) if mmap else None,
                         pickle_load_args)
    if mmap:  # memory-mapping needs a file name
        raise ValueError("f must be a file path in order to use the mmap argument")
    return _load(f, map_location, weights_only, None, pickle_load_args)


def _load(f, map_location, weights_only, mmap_path, pickle_load_args):
    _check_seekable(f)
    start = f.tell()
    head = f.read(4)
    f.seek(start)
    if head != b"PK\x03\x04":  # not a zip archive: PyTorch's legacy format, a bare pickle
        return _load_pickle(f, weights_only)
    with _open_archive(f) as (archive, folder):
        storages = _StorageReader(archive, folder, map_location, mmap_path and f)
        with archive.open(f"{folder}/data.pkl") as data:
            unpickler = _CheckpointUnpickler(data, weights_only, storages,
                                             encoding=pickle_load_args.get("encoding", "ASCII"))
            return unpickler.load()


class _open_archive:
    """``with _open_archive(f) as (archive, folder)``: the zip archive checked as PyTorch's
    reader checks it (one folder holding a ``version`` and a ``data.pkl`` record)."""

    def __init__(self, f):
        start = f.tell()
        try:
            self.archive = zipfile.ZipFile(f)
        except zipfile.BadZipFile:
            raise RuntimeError(_corrupt_zip_message(f.seek(0, io.SEEK_END) - start)) from None

    def __enter__(self):
        names = self.archive.namelist()
        folder = names[0].partition("/")[0] if names else ""
        if not names or "/" not in names[0]:
            self.archive.close()
            raise RuntimeError("[enforce fail at inline_container.cc:180] . file in archive is "
                               f"not in a subdirectory: {names[0] if names else ''}")
        for record in ("version", "data.pkl"):
            if f"{folder}/{record}" not in names:
                self.archive.close()
                raise RuntimeError(_MISSING_RECORD[record])
        return self.archive, folder

    def __exit__(self, *exc_info):
        self.archive.close()
        return False


_MISSING_RECORD = {
    "version": 'Expected hasRecord("version") to be true, but got false.  (Could this error '
               "message be improved?  If so, please report an enhancement request to PyTorch.)",
    "data.pkl": "PytorchStreamReader failed locating file data.pkl: file not found"}


class _StorageReader:
    """The storages of an archive, each read (or mapped) once, as 1-d numpy arrays."""

    def __init__(self, archive, folder, map_location, mapped_file):
        self.archive, self.folder = archive, folder
        self.map_location, self.mapped_file = map_location, mapped_file  # (a file of a path)
        self.loaded = {}

    def __call__(self, key, kind, numel):
        dtype = kind.dtype
        array = self.loaded.get(key)
        if array is None:
            _check_map_location(self.map_location)
            info = self.archive.getinfo(f"{self.folder}/data/{key}")
            if info.file_size != numel * dtype.itemsize:
                raise RuntimeError(
                    f"record size ({info.file_size} bytes) does not match expected size "
                    f"({numel * dtype.itemsize} bytes = {numel} elements * {dtype.itemsize} "
                    f"bytes/element) for dtype {_scalar_type_name(kind)}")
            array = self.loaded[key] = self._read(info, dtype, numel)
        elif array.dtype != dtype:  # (one storage, read as two types: a view's)
            array = array.view(dtype)
        return array

    def _read(self, info, dtype, numel):
        if self.mapped_file and info.compress_type == zipfile.ZIP_STORED and numel:
            return np.memmap(self.mapped_file, dtype, mode="c", offset=self._data_offset(info),
                             shape=(numel,))
        array = np.empty(numel, dtype)
        with self.archive.open(info) as record:
            record.readinto(memoryview(array.reshape(-1).view(np.uint8)))
        return array

    def _data_offset(self, info):
        """Where a stored record's bytes start in the file: after its local header."""
        self.mapped_file.seek(info.header_offset)
        name_length, extra_length = struct.unpack("<HH", self.mapped_file.read(30)[26:30])
        return info.header_offset + 30 + name_length + extra_length


class _CheckpointUnpickler(pickle.Unpickler):
    """Reads ``data.pkl``: storages from the archive, PyTorch's names as tapegrad's objects, and
    with ``weights_only`` only the allowed globals (anything else refused with PyTorch's
    message)."""

    def __init__(self, file, weights_only, storages, encoding="ASCII"):
        super().__init__(file, encoding=encoding)
        self.weights_only, self.storages = weights_only, storages

    def persistent_load(self, saved_id):
        if isinstance(saved_id, str) and saved_id.startswith("storage "):  # protocol 0's form
            _, kind, key, location, numel = saved_id.split(" ")
            saved_id = ("storage", _torch_globals().get(kind), key, location, int(numel))
        if not (isinstance(saved_id, tuple) and saved_id and saved_id[0] == "storage"):
            raise pickle.UnpicklingError(f"Unsupported persistent id {saved_id!r}")
        _, kind, key, _location, numel = saved_id
        if not isinstance(kind, _StorageType):
            raise pickle.UnpicklingError(f"Unsupported storage type {kind!r}")
        return _LoadedStorage(self.storages(key, kind, numel))

    def find_class(self, module, name):
        full_name = _python3_name(module, name)
        if self.weights_only:
            return _allowed_global(full_name)
        found = _torch_globals().get(full_name) or _tapegrad_global(full_name)
        return found if found is not None else super().find_class(module, name)


def _tapegrad_global(full_name):
    """tapegrad's object for PyTorch's dotted name ``torch.a.b.C`` (at ``tapegrad.a.b.C``), or
    None where tapegrad has none."""
    package, dot, rest = full_name.partition(".")
    if package != "torch":
        return None
    module_name, _, name = f"tapegrad{dot}{rest}".rpartition(".")
    try:
        found = __import__(module_name, fromlist=["_"])
        for part in name.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        return None
    return found


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


# -- PyTorch's vocabulary: storages, rebuild functions, names -------------------------------------

class _StorageType:
    """A storage class as a checkpoint names it (``torch.FloatStorage``), and the numpy dtype
    of the elements its bytes hold (``torch.storage.UntypedStorage``: bytes)."""

    def __init__(self, module, name, dtype):
        self.module, self.name, self.dtype = module, name, np.dtype(dtype)

    def __repr__(self):
        return f"{self.module}.{self.name}"


_STORAGE_TYPES = {dtype: _StorageType("torch", name, dtype) for dtype, name in [
    ("float32", "FloatStorage"), ("float64", "DoubleStorage"), ("float16", "HalfStorage"),
    ("int64", "LongStorage"), ("int32", "IntStorage"), ("int16", "ShortStorage"),
    ("int8", "CharStorage"), ("uint8", "ByteStorage"), ("bool", "BoolStorage"),
    ("complex64", "ComplexFloatStorage"), ("complex128", "ComplexDoubleStorage")]}
# other dtypes (uint16, uint32, uint64) are saved as bytes, their dtype in the rebuild call
_UNTYPED = _StorageType("torch.storage", "UntypedStorage", np.uint8)


def _scalar_type_name(kind):
    """PyTorch's C++ name of a storage's element type (``Float``; bytes are ``Byte``)."""
    return "Byte" if kind is _UNTYPED else kind.name.removesuffix("Storage")


class _LoadedStorage:
    """A storage as the rebuild calls of a checkpoint being loaded receive it."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array  # its elements, a 1-d numpy array


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       metadata=None):
    return _tensor_on(storage.array, storage_offset, size, stride, requires_grad)


def _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       dtype, metadata=None):
    return _tensor_on(storage.array.view(dtype.numpy), storage_offset, size, stride,
                      requires_grad)


def _rebuild_parameter(data, requires_grad, backward_hooks):
    from .nn.parameter import Parameter
    return Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    return _with_state(_rebuild_parameter(data, requires_grad, backward_hooks), state)


def _rebuild_from_type_v2(func, new_type, args, state):
    """A tensor of a subclass, or with attributes of its own (``t.note = ...``)."""
    tensor = func(*args)
    if type(tensor) is not new_type:
        tensor = tensor.as_subclass(new_type)
    return _with_state(tensor, state)


def _with_state(obj, state):
    """``obj`` with the attributes PyTorch pickled beside its data: a dict, or (dict, slots)."""
    for part in (state if isinstance(state, tuple) else (state,)):
        for name, value in (part or {}).items():
            setattr(obj, name, value)
    return obj


def _tensor_on(memory, offset, size, stride, requires_grad):
    """The tensor viewing ``memory`` (elements) from ``offset`` with ``size`` and ``stride``;
    a view that would reach outside the storage (a damaged file) is refused."""
    size, stride = tuple(size), tuple(stride)
    try:
        array = np.ndarray(size, memory.dtype, buffer=memory,
                           offset=offset * memory.itemsize if all(size) else 0,
                           strides=tuple(s * memory.itemsize for s in stride))
    except (TypeError, ValueError) as exc:
        raise RuntimeError(f"a tensor of size {list(size)} and stride {list(stride)} at offset "
                           f"{offset} does not fit in its storage of {memory.size} elements "
                           f"(a damaged file): {exc}") from None
    tensor = Tensor._make(array)
    if array.nbytes != memory.nbytes or offset:
        tensor._storage = memory  # storage_offset() and untyped_storage() as saved
    return tensor.requires_grad_(bool(requires_grad))


_REBUILDS = [("torch._utils", f) for f in (_rebuild_tensor_v2, _rebuild_tensor_v3,
                                            _rebuild_parameter, _rebuild_parameter_with_state)]
_REBUILDS.append(("torch._tensor", _rebuild_from_type_v2))


def _torch_globals():
    """PyTorch's dotted name -> tapegrad's object, for the globals a checkpoint of tensors
    names: rebuild functions, storage classes, dtypes and the tensor classes."""
    if not _TORCH_GLOBALS:
        from .nn.parameter import Parameter
        _TORCH_GLOBALS.update({f"{module}.{f.__name__}": f for module, f in _REBUILDS})
        _TORCH_GLOBALS.update({repr(kind): kind for kind in (*_STORAGE_TYPES.values(), _UNTYPED)})
        _TORCH_GLOBALS["torch.UntypedStorage"] = _UNTYPED
        _TORCH_GLOBALS.update({f"torch.{name}": getattr(dtypes, name) for name in dir(dtypes)
                               if isinstance(getattr(dtypes, name), dtypes.dtype)})
        _TORCH_GLOBALS.update({"torch.Size": Size, "torch.device": device,
                               "torch.Tensor": Tensor, "torch.nn.parameter.Parameter": Parameter})
    return _TORCH_GLOBALS


_TORCH_GLOBALS = {}


def _torch_spelling(obj):
    """(module, name) by which a checkpoint names tapegrad's ``obj``, as PyTorch names its own
    (``torch.nn.modules.linear``, ``Linear``); None for an object that is not tapegrad's."""
    if isinstance(obj, _StorageType):
        return obj.module, obj.name
    if isinstance(obj, dtypes.dtype):
        return "torch", obj.name
    for module, function in _REBUILDS:
        if obj is function:
            return module, function.__name__
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str):
        return None
    package, dot, rest = module.partition(".")
    if package not in ("tapegrad", "torch"):
        return None
    module = f"torch{dot}{rest}"
    return (module, qualname) if _tapegrad_global(f"{module}.{qualname}") is obj else None


# -- weights-only loads ---------------------------------------------------------------------------

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


def _safe_builtins():
    """Besides PyTorch's tensor vocabulary, what a weights-only load accepts without being told:
    the plain containers and values PyTorch's weights-only unpickler accepts, and tapegrad's
    sparse tensors' parts."""
    from ._sparse_tensor import _rebuild_sparse_coo
    from .sparse._csr import _rebuild_sparse_csr
    return [OrderedDict, Counter, set, complex, bytearray, codecs.encode,
            _rebuild_sparse_coo, _rebuild_sparse_csr]


def _global_name(entry):
    """The dotted name a checkpoint names an allowlist entry by."""
    if isinstance(entry, tuple):
        return entry[1]
    spelled = _torch_spelling(entry)
    if spelled is not None:
        return ".".join(spelled)
    module = "builtins" if entry.__module__ is None else entry.__module__
    return f"{module}.{entry.__qualname__}"


def _allowed_global(full_name):
    """The object a weights-only load may rebuild for the global ``full_name``; PyTorch's refusal
    for any other."""
    found = _torch_globals().get(full_name)
    if found is not None:
        return found
    for entry in _safe_builtins() + _user_safe_globals:
        if _global_name(entry) == full_name:
            return entry[0] if isinstance(entry, tuple) else entry
    raise pickle.UnpicklingError(_weights_only_message(_message_name(full_name)))


def get_unsafe_globals_in_checkpoint(f):
    """The classes/functions (``"module.name"``) a checkpoint's pickle names that a
    ``weights_only=True`` load would refuse: read from the pickle's opcodes, never running it."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as handle:
            return get_unsafe_globals_in_checkpoint(handle)
    start = f.tell()
    is_archive = f.read(4) == b"PK\x03\x04"
    f.seek(start)
    if not is_archive:
        raise ValueError("Expected input to be a checkpoint returned by torch.save")
    with _open_archive(f) as (archive, folder):
        data = archive.read(f"{folder}/data.pkl")
    safe = set(_torch_globals()) | {_global_name(entry)
                                    for entry in _safe_builtins() + _user_safe_globals}
    return [_public_name(name) for name in _globals_in_pickle(data) - safe]


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
