"""``nn.Parameter``: the tensor type a Module registers as learnable."""
import numpy as np

from ..tensor import Tensor

__all__ = ["Parameter", "reset_grad"]


class Parameter(Tensor):
    """A leaf tensor that requires grad by default and that Modules register on assignment.

    It shares memory with the tensor it wraps, as PyTorch's does; operations on it return plain
    tensors.
    """

    def __new__(cls, data=None, requires_grad=True):
        array = np.empty(0, dtype=np.float32) if data is None else data._array
        param = object.__new__(cls)
        param._init(array)
        if data is not None:
            param._version_counter = data._version_counter
        param.requires_grad_(requires_grad)
        return param

    def __init__(self, data=None, requires_grad=True):
        pass  # all the work happens in __new__; Tensor.__init__ would copy the data

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__  # Tensor binds its own __repr__ as __str__, which would skip the header

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (self._array, self._requires_grad))


def _rebuild_parameter(array, requires_grad):
    return Parameter(Tensor._make(array.copy()), requires_grad)


def reset_grad(param, set_to_none=True):
    """What ``zero_grad`` does to one parameter: drop its ``.grad``, or zero it in place (cut
    out of any graph first, as PyTorch does)."""
    if set_to_none:
        # Assigned even when already None: a compiled step that starts with zero_grad() then
        # sees the write and does not specialize on whether .grad was None when it was called.
        param._grad = None
        return
    grad = param._grad
    if grad is None:
        return
    if grad._grad_fn is not None:
        grad.detach_()
    else:
        grad.requires_grad_(False)
    grad.zero_()
