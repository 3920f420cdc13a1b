"""``nn.Parameter``: the tensor type a Module registers as learnable; and the uninitialized
parameters and buffers of lazy modules, whose shape the first input decides."""
import numpy as np

from .. import dtypes
from ..overrides import disabled_torch_function
from ..ops.operands import type_name
from ..tensor import Tensor, _check_device, _make_meta

__all__ = ["Parameter", "Buffer", "UninitializedParameter", "UninitializedBuffer", "is_lazy",
           "reset_grad"]


class Parameter(Tensor):
    """A leaf tensor that requires grad by default and that Modules register on assignment.

    It shares memory with the tensor it wraps, as PyTorch's does; operations on it return plain
    tensors.
    """

    __module__ = "torch.nn.parameter"  # ``type(p)`` prints as in PyTorch (pickled by value)
    # operations on parameters give plain tensors (PyTorch's _disabled_torch_function_impl)
    __torch_function__ = classmethod(disabled_torch_function)

    def __new__(cls, data=None, requires_grad=True):
        if data is not None and not isinstance(data, Tensor):
            data.detach()  # as PyTorch detaches it: anything else fails with its AttributeError
        if requires_grad.__class__ is not bool:
            raise TypeError("_make_subclass(): argument 'require_grad' (position 3) must be bool, "
                            f"not {type_name(type(requires_grad))}")
        array = np.empty(0, dtype=np.float32) if data is None else data._array
        param = object.__new__(cls)
        param._init(array)
        if data is not None:
            param._version_counter = data._version_counter
            if data.is_inference():  # an alias of an inference tensor is one too
                param._inference = True
            if data._meta:
                param._meta = True
        if requires_grad and array.dtype.kind not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        param.requires_grad_(requires_grad)
        return param

    def __init__(self, data=None, requires_grad=True):
        pass  # all the work happens in __new__; Tensor.__init__ would copy the data

    def __deepcopy__(self, memo):
        """A new parameter of the same class with a copy of the data, and nothing else: unlike a
        plain tensor's copy it has no ``.grad`` (a deep-copied model, an EMA target, starts
        without gradients, as in PyTorch)."""
        if id(self) not in memo:
            copy = Parameter(Tensor._make(self._array.copy()), self._requires_grad)
            copy.__class__ = type(self)
            if self._meta:  # (its copy has no data either)
                _make_meta(copy)
            memo[id(self)] = copy
        return memo[id(self)]

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (self._array, self._requires_grad))


class _BufferMeta(type):
    """``isinstance(t, Buffer)`` holds for any tensor ``Buffer(...)`` marked as one."""

    def __instancecheck__(cls, instance):
        return isinstance(instance, Tensor) and instance.__dict__.get("_is_buffer", False)


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor that, assigned as a Module attribute, registers itself as a buffer (part of the
    module's state, not a parameter); ``persistent=False`` keeps it out of the state dict.
    As in PyTorch, ``Buffer(t)`` returns a plain tensor (``t`` detached) marked as one."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = _empty(None)
        buffer = data.detach().requires_grad_(data.requires_grad)
        buffer.persistent = persistent
        buffer._is_buffer = True
        return buffer


def _rebuild_parameter(array, requires_grad):
    return Parameter(Tensor._make(array.copy()), requires_grad)


class UninitializedTensorMixin:
    """A tensor without a shape yet: ``materialize`` gives it one, in place (the same object,
    so an optimizer given it before then updates it after), and turns it into
    ``cls_to_become``."""

    __slots__ = ()
    cls_to_become = None

    def materialize(self, shape, device=None, dtype=None):
        dtype = self._array.dtype if dtype is None else dtypes.as_dtype(dtype).numpy
        self._array = np.empty(tuple(shape), dtype=dtype)
        self.__class__ = self.cls_to_become
        if self._meta or _check_device(device) == "meta":  # (made there: stays there)
            _make_meta(self)

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
            "initialized one. Call `forward` to initialize the parameters before accessing their "
            "attributes.")

    def share_memory_(self):
        raise RuntimeError("Can't share memory on an uninitialized parameter or buffer. Call "
                           "`forward` to initialize the parameters before calling "
                           "`module.share_memory()`.")

    def __repr__(self):
        return f"<{type(self).__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        return (type(self), (self._requires_grad,))


def _empty(dtype):
    dtype = dtypes.get_default_dtype() if dtype is None else dtypes.as_dtype(dtype)
    return Tensor._make(np.empty(0, dtype=dtype.numpy))


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """The parameter of a lazy module before its first forward."""

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        param = Parameter.__new__(cls, _empty(dtype), requires_grad)
        return _make_meta(param) if _check_device(device) == "meta" else param

    def __init__(self, requires_grad=True, device=None, dtype=None):
        pass  # all the work happens in __new__


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """The buffer of a lazy module (batch norm's running statistics) before its first forward."""

    __slots__ = ()
    cls_to_become = Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None, persistent=True):
        meta = _check_device(device) == "meta"
        buffer = object.__new__(cls)
        buffer._init(_empty(dtype)._array)
        buffer.requires_grad_(requires_grad)
        return _make_meta(buffer) if meta else buffer

    def __init__(self, requires_grad=False, device=None, dtype=None, persistent=True):
        pass  # all the work happens in __new__


def is_lazy(tensor):
    return isinstance(tensor, UninitializedTensorMixin)


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
