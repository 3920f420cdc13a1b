"""``Tensor.storage()``: the deprecated typed view of a tensor's memory (``TypedStorage``)."""

import functools

import numpy as np

from . import dtypes
from ._array_memory import address

__all__ = ["TypedStorage", "typed_storage"]


class TypedStorage:
    """The elements of a tensor's storage, as its dtype reads them (a copy-free numpy view)."""

    __slots__ = ("_array", "dtype")

    def __init__(self, array, dtype):
        self._array, self.dtype = array, dtype

    @property
    def device(self):
        from .tensor import device
        return device("cpu")

    def size(self):
        return self._array.size

    __len__ = size

    def element_size(self):
        return self._array.itemsize

    def nbytes(self):
        return self._array.nbytes

    def data_ptr(self):
        return address(self._array) if self._array.size else 0

    def tolist(self):
        return self._array.tolist()

    def __getitem__(self, index):
        """One element, as a Python number; slicing is only for untyped storages, as in PyTorch."""
        if isinstance(index, slice):
            raise RuntimeError("slices are only supported in UntypedStorage.__getitem__")
        if not isinstance(index, int):
            raise RuntimeError(f"can't index a <class 'torch.storage.TypedStorage'> with "
                               f"{type(index)}")
        size = self.size()
        if not -size <= index < size:
            raise IndexError(f"index {index} out of range for storage of size {size}")
        return self._array[index].item()

    def __setitem__(self, index, value):
        """Write elements (an index or a slice): the tensors over this storage see them."""
        self._elements()[index] = value

    def _elements(self):
        from .tensor import Tensor
        return Tensor._make(self._array)

    def fill_(self, value):
        self._elements().fill_(value)
        return self

    def copy_(self, source, non_blocking=None):
        """Copy ``source``'s bytes over this storage's (byte sizes must match, as in PyTorch)."""
        mine, theirs = self._array.view(np.uint8), source._array.view(np.uint8)
        if mine.size != theirs.size:
            raise RuntimeError(f"size does not match, self was {mine.size} bytes but src was "
                               f"{theirs.size} bytes")
        mine[...] = theirs
        return self

    def clone(self):
        return TypedStorage(self._array.copy(), self.dtype)

    def cpu(self):
        """A new storage object over the same memory (already on the CPU)."""
        return TypedStorage(self._array, self.dtype)

    def type(self):
        """The legacy class name of a storage of this dtype (``torch.FloatStorage``)."""
        from .tensor import _LEGACY_TYPE_NAMES
        if self._array.dtype.name not in _CONVERSIONS:  # uint16, float8 …: no legacy class
            return "torch.storage.TypedStorage"
        return f"torch.{_LEGACY_TYPE_NAMES[self._array.dtype.name]}Storage"

    def pickle_storage_type(self):
        """The legacy class name ``torch.save`` records for this storage (``FloatStorage``)."""
        if self._array.dtype.name not in _CONVERSIONS:
            raise KeyError(f"dtype {self.dtype} is not recognized")
        return self.type().removeprefix("torch.")

    def is_shared(self):
        from . import _shared_memory
        return _shared_memory.segment_of(self._array) is not None

    def is_pinned(self, device="cuda"):
        return False

    is_sparse = is_cuda = False

    def _to(self, dtype):
        """A converted copy, as ``storage.double()`` and the like give."""
        return TypedStorage(self._array.astype(dtype.numpy), dtype)

    def __iter__(self):
        return iter(self.tolist())

    def untyped(self):
        from .tensor import UntypedStorage
        return UntypedStorage(self._array)

    def __repr__(self):
        header = (f"[torch.storage.TypedStorage(dtype={self.dtype!r}, device=cpu) of size "
                  f"{self.size()}]")
        return " " + "\n ".join(str(value) for value in self.tolist()) + "\n" + header

    __str__ = __repr__


def _conversion(dtype_name):
    """The method converting a storage to ``dtype_name`` (``storage.double()``)."""
    def convert(self):
        return self._to(getattr(dtypes, dtype_name))
    convert.__name__ = _CONVERSIONS[dtype_name]
    convert.__qualname__ = f"TypedStorage.{convert.__name__}"
    return convert


_CONVERSIONS = {"float64": "double", "float32": "float", "float16": "half", "bfloat16": "bfloat16",
                "int64": "long", "int32": "int", "int16": "short", "int8": "char", "uint8": "byte",
                "bool": "bool", "complex64": "complex_float", "complex128": "complex_double"}
for _dtype_name, _method in _CONVERSIONS.items():
    setattr(TypedStorage, _method, _conversion(_dtype_name))


def typed_storage(tensor):
    """``tensor.storage()``, with PyTorch's deprecation warning."""
    _warn_deprecated()
    memory = tensor._storage_array()
    if not memory.flags.c_contiguous:
        memory = np.ascontiguousarray(memory)
    dtype = tensor.dtype
    return TypedStorage(memory.reshape(-1).view(dtype.numpy), dtype)


@functools.cache
def _warn_deprecated():
    """Once per process, as PyTorch warns."""
    from ._warnings import warn_at_caller
    warn_at_caller("TypedStorage is deprecated. It will be removed in the future and "
                   "UntypedStorage will be the only storage class. This should only matter to you "
                   "if you are using storages directly.  To access UntypedStorage directly, use "
                   "tensor.untyped_storage() instead of tensor.storage()")


