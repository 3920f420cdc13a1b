"""Shared memory for tensor storage: a memory file (Linux ``memfd``; elsewhere an unlinked
temporary file) mapped ``MAP_SHARED``.

Forked children inherit the mapping, so what they write their parent sees (Hogwild training);
other processes attach to the same memory through a duplicate of the file descriptor, which
multiprocessing passes along when it pickles a tensor (``reductions``).
"""

import mmap
import os
import tempfile
import weakref

import numpy as np


class Segment(mmap.mmap):
    """A shared mapping that keeps the descriptor it was mapped from (to hand to others)."""

    def __new__(cls, fd, nbytes):
        segment = super().__new__(cls, fd, nbytes)
        segment.fd = fd
        weakref.finalize(segment, os.close, fd)
        return segment


def new_segment(nbytes):
    """A fresh zeroed segment of at least one byte (mmap refuses empty mappings)."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("tapegrad-tensor", os.MFD_CLOEXEC)
    else:
        fd, path = tempfile.mkstemp(prefix="tapegrad-tensor-")
        os.unlink(path)
    nbytes = max(nbytes, 1)
    os.ftruncate(fd, nbytes)
    return Segment(fd, nbytes)


def owning_array(array):
    """The array that owns ``array``'s memory (its last ndarray base, through the holder
    ``as_strided`` puts between a view and its base)."""
    while True:
        base = array.base
        if not isinstance(base, np.ndarray):
            base = getattr(base, "base", None)  # as_strided's DummyArray
        if not isinstance(base, np.ndarray):
            return array
        array = base


def segment_of(array):
    """The ``Segment`` holding ``array``'s memory, or None."""
    buffer = owning_array(array).base
    if isinstance(buffer, memoryview):
        buffer = buffer.obj
    return buffer if isinstance(buffer, Segment) else None


def move_to_segment(owner):
    """A segment holding a copy of the memory ``owner`` (an owning array) spans."""
    if not (owner.flags.c_contiguous or owner.flags.f_contiguous):
        raise RuntimeError("share_memory_: the tensor's memory is not one contiguous block "
                           "tapegrad can move")
    segment = new_segment(owner.nbytes)
    np.frombuffer(segment, np.uint8, owner.nbytes)[:] = owner.ravel(order="K").view(np.uint8)
    return segment
