"""Where a numpy array's elements lie: its address, and the same elements in other memory."""

import numpy as np

__all__ = ["address", "same_elements_in"]


def address(array):
    """The address of ``array``'s first element."""
    return array.__array_interface__["data"][0]


def same_elements_in(array, owner, memory):
    """``array`` (inside ``owner``'s memory) as the elements at the same offsets of ``memory``,
    a buffer laid out as ``owner`` is (a copy of it: shared memory, a tangent)."""
    return np.ndarray(array.shape, array.dtype, buffer=memory,
                      offset=address(array) - address(owner), strides=array.strides)
