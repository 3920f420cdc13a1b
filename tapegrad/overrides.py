"""``torch.overrides``: ``__torch_function__`` on Tensor subclasses.

A subclass of ``torch.Tensor`` keeps its type through operations (``MyTensor + 1`` is a
``MyTensor``), and one that defines ``__torch_function__`` sees every public function and method
called with it, as in PyTorch: ``cls.__torch_function__(func, types, args, kwargs)``.

Checking the arguments of every call for such types would cost every eager operation, so the
dispatch is installed only when the first user subclass of ``Tensor`` is defined: the public
functions of ``torch``, ``torch.nn.functional`` and the methods of ``Tensor`` are then wrapped
once. Until then nothing changes, and tapegrad's own code calls the op table directly, so
dispatch happens at the public boundary only, as PyTorch's does.
"""
import functools
import threading

__all__ = ["has_torch_function", "handle_torch_function", "get_default_nowrap_functions",
           "is_tensor_like", "DisableTorchFunctionSubclass"]


class _State(threading.local):
    disabled = False


_state = _State()
_installed = False


class DisableTorchFunctionSubclass:
    """Within it, subclasses' ``__torch_function__`` is not called (what the default
    implementation runs the operation in, so that it reaches the plain function)."""

    def __enter__(self):
        self._saved, _state.disabled = _state.disabled, True
        return self

    def __exit__(self, *exc_info):
        _state.disabled = self._saved


def get_default_nowrap_functions():
    """Functions whose results the default ``__torch_function__`` leaves as they are (none
    here: it converts only tensor results)."""
    return set()


def is_tensor_like(inp):
    from .tensor import Tensor
    return type(inp) is Tensor or hasattr(type(inp), "__torch_function__")


def _overloaded(args, kwargs):
    """The argument types whose ``__torch_function__`` takes part, subclasses before their
    bases, each once (one level into lists and tuples, as PyTorch looks)."""
    from .tensor import Tensor
    found = []
    for value in (*args, *kwargs.values()):
        for item in (value if type(value) in (list, tuple) else (value,)):
            kind = type(item)
            if kind is Tensor or kind in found or not hasattr(kind, "__torch_function__"):
                continue
            if getattr(kind.__torch_function__, "__func__", None) is disabled_torch_function:
                continue  # (Parameter's: it takes no part)
            position = next((i for i, other in enumerate(found) if issubclass(kind, other)),
                            len(found))
            found.insert(position, kind)
    return found


def has_torch_function(args):
    return bool(_overloaded(tuple(args), {}))


def handle_torch_function(public, relevant_args, *args, **kwargs):
    """Call the ``__torch_function__`` of the types among ``relevant_args``, most derived
    first, until one does not return NotImplemented."""
    return _overridden(public, _overloaded(tuple(relevant_args), {}), args, kwargs)


def _overridden(public, types, args, kwargs):
    """``public(*args, **kwargs)`` as the first of ``types`` that implements it computes it."""
    for kind in types:
        result = kind.__torch_function__(public, tuple(types), args, kwargs)
        if result is not NotImplemented:
            return result
    names = [f"{kind.__module__}.{kind.__qualname__}" if kind.__module__ != "builtins"
             else kind.__qualname__ for kind in types]
    raise TypeError(f"no implementation found for '{_qualified(public)}' on types that "
                    f"implement __torch_function__: {names}")


def _qualified(function):
    name = getattr(function, "__qualname__", getattr(function, "__name__", repr(function)))
    return name if name.startswith("Tensor.") else f"torch.{name}"


def default_torch_function(cls, func, types, args=(), kwargs=None):
    """``Tensor.__torch_function__``: run ``func`` as if no subclass were involved, then give
    tensor results the subclass's type (sharing memory and history, as ``as_subclass``)."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, kind) for kind in types):
        return NotImplemented
    with DisableTorchFunctionSubclass():
        result = func(*args, **kwargs)
    return _converted(result, cls)


def _converted(value, cls):
    from .tensor import Tensor
    if isinstance(value, Tensor) and not isinstance(value, cls):
        return value.as_subclass(cls)
    if type(value) in (tuple, list):
        return type(value)(_converted(v, cls) for v in value)
    return value


def disabled_torch_function(cls, func, types, args=(), kwargs=None):
    """``torch._C._disabled_torch_function_impl``: results stay plain tensors (Parameter)."""
    if kwargs is None:
        kwargs = {}
    with DisableTorchFunctionSubclass():
        return func(*args, **kwargs)


def _dispatching(original, public_name, owner):
    """``original`` calling the arguments' ``__torch_function__`` first, when they have one."""
    @functools.wraps(original)
    def dispatch(*args, **kwargs):
        if _state.disabled:
            return original(*args, **kwargs)
        types = _overloaded(args, kwargs)
        if not types:
            return original(*args, **kwargs)
        return _overridden(getattr(owner, public_name), types, args, kwargs)
    dispatch.__wrapped_original__ = original
    return dispatch


def enable_subclass_dispatch():
    """Wrap the public functions and Tensor's methods (once; see the module's docstring)."""
    global _installed
    if _installed:
        return
    _installed = True
    import tapegrad
    from . import ops
    from .nn import functional
    from .tensor import Tensor
    for name in dir(Tensor):
        if name in _NEVER or (name.startswith("_") and name not in _OPERATORS):
            continue
        member = Tensor.__dict__.get(name)
        if callable(member) and not isinstance(member, (staticmethod, classmethod, type)):
            setattr(Tensor, name, _dispatching(member, name, Tensor))
    for module, names in ((tapegrad, _public_functions(tapegrad, ops)),
                          (functional, getattr(functional, "__all__", ()))):
        for name in names:
            member = getattr(module, name, None)
            if callable(member) and not isinstance(member, type):
                setattr(module, name, _dispatching(member, name, module))


def _public_functions(tapegrad, ops):
    return [name for name in getattr(ops, "__all__", ()) if hasattr(tapegrad, name)]


# Tensor's own machinery, never dispatched
_NEVER = {"_init", "_make", "_become_view_of", "as_subclass", "__torch_function__",
          "__init_subclass__", "_is_view"}
# the operators and the few dunders PyTorch dispatches
_OPERATORS = {"__add__", "__radd__", "__iadd__", "__sub__", "__rsub__", "__isub__", "__mul__",
              "__rmul__", "__imul__", "__truediv__", "__rtruediv__", "__itruediv__",
              "__matmul__", "__rmatmul__", "__pow__", "__rpow__", "__neg__", "__abs__",
              "__getitem__", "__setitem__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__",
              "__ge__", "__floordiv__", "__mod__", "__and__", "__or__", "__xor__", "__invert__",
              "__repr__", "__format__", "__len__"}
