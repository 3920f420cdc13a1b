"""How multiprocessing pickles tensors: by a handle on their shared memory, not by value."""

from multiprocessing.reduction import DupFd, ForkingPickler

import numpy as np

from .. import _shared_memory
from .._array_memory import address
from ..nn.parameter import Parameter
from ..tensor import Tensor

__all__ = ["init_reductions", "reduce_tensor", "rebuild_tensor"]


def reduce_tensor(tensor):
    """Move ``tensor``'s storage into shared memory and describe where in it the tensor lies."""
    if tensor.requires_grad and not tensor.is_leaf:
        raise RuntimeError("Cowardly refusing to serialize non-leaf tensor which requires_grad, "
                           "since autograd does not support crossing process boundaries.  If you "
                           "just want to transfer the data, call detach() on the tensor before "
                           "serializing (e.g., putting it on the queue).")
    tensor.share_memory_()
    array = tensor._array
    segment = _shared_memory.segment_of(array)
    offset = address(array) - address(np.frombuffer(segment, np.uint8, 1))
    layout = (array.dtype.str, array.shape, array.strides, offset)
    return rebuild_tensor, (type(tensor) is Parameter, DupFd(segment.fd), len(segment), layout,
                            tensor.requires_grad)


def rebuild_tensor(is_parameter, handle, nbytes, layout, requires_grad):
    """The receiving side of ``reduce_tensor``: a tensor on the sender's memory."""
    dtype, shape, strides, offset = layout
    segment = _shared_memory.Segment(handle.detach(), nbytes)
    array = np.ndarray(shape, np.dtype(dtype), buffer=segment, offset=offset, strides=strides)
    tensor = Tensor._make(array)
    if is_parameter:
        return Parameter(tensor, requires_grad=requires_grad)
    return tensor.requires_grad_(requires_grad) if requires_grad else tensor


def init_reductions():
    """Register ``reduce_tensor`` with multiprocessing's pickler (queues, process arguments)."""
    for kind in (Tensor, Parameter):
        ForkingPickler.register(kind, reduce_tensor)
