"""``torch.frombuffer``: a 1-d tensor over the memory of any object with the buffer protocol."""
import functools
import warnings

import numpy as np

from . import dtypes
from .ops.creation import _finish

__all__ = ["frombuffer"]


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """``count`` elements of ``dtype`` from byte ``offset`` of ``buffer`` (all the rest when -1),
    sharing its memory: writes through either show in the other."""
    if not isinstance(dtype, (dtypes.dtype, type)):
        raise TypeError(f"frombuffer(): argument 'dtype' must be torch.dtype, not "
                        f"{type(dtype).__name__}")
    try:
        memory = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    if not memory.c_contiguous:  # PyTorch asks for the buffer as one plain block of bytes
        raise RuntimeError("could not retrieve buffer from object")
    length, itemsize = memory.nbytes, dtypes.as_dtype(dtype).itemsize
    if length <= 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({length} bytes) minus 1")
    if count < 0:
        if (length - offset) % itemsize:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} "
                             f"bytes) must be a multiple of element size ({itemsize})")
        count = (length - offset) // itemsize
    elif count * itemsize > length - offset:
        raise ValueError(f"requested buffer length ({count} * {itemsize} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({length} bytes)")
    if memory.readonly:
        _warn_not_writable()
    array = np.frombuffer(memory.cast("B"), dtypes.as_dtype(dtype).numpy, count, offset)
    return _finish(array, requires_grad)


@functools.cache
def _warn_not_writable():
    """Once per process, as PyTorch warns. tapegrad keeps the buffer read-only: a write through
    the tensor fails where PyTorch's would write."""
    warnings.warn("The given buffer is not writable, and PyTorch does not support non-writable "
                  "tensors. This means you can write to the underlying (supposedly non-writable) "
                  "buffer using the tensor. You may want to copy the buffer to protect its data "
                  "or make it writable before converting it to a tensor. This type of warning "
                  "will be suppressed for the rest of this program.", UserWarning, stacklevel=3)
