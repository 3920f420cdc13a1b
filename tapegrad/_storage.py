"""``Tensor.storage()``: the deprecated typed view of a tensor's memory (``TypedStorage``)."""

import functools

import numpy as np

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
        return self._array[index].item() if isinstance(index, int) else \
            TypedStorage(self._array[index], self.dtype)

    def __iter__(self):
        return iter(self.tolist())

    def untyped(self):
        from .tensor import UntypedStorage
        return UntypedStorage(self._array)

    def __repr__(self):
        header = (f"[torch.storage.TypedStorage(dtype={self.dtype!r}, device=cpu) of size "
                  f"{self.size()}]")
        return "\n".join([*(f" {value}" for value in self.tolist()), header])

    __str__ = __repr__


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


