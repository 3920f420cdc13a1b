"""Grad mode: whether operations record themselves on the tape, per thread.

``no_grad``, ``enable_grad``, ``set_grad_enabled`` and ``inference_mode`` work as context managers
and as decorators, exactly as in PyTorch. The state is thread-local, so one thread evaluating under
``no_grad`` does not stop another from training.
"""
import functools
import inspect
import threading

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled", "set_multithreading_enabled", "is_multithreading_enabled"]


class _State(threading.local):
    def __init__(self):
        self.grad_enabled = True
        self.inference = False
        # autograd.graph.saved_tensors_hooks: the (pack, unpack) pairs in force, innermost last;
        # the message that refuses new ones inside disable_saved_tensors_hooks, or None
        self.saved_tensors_hooks = []
        self.saved_tensors_hooks_refusal = None
        # the backward walk in progress, (edge counts, roots, visited nodes or None), for
        # register_multi_grad_hook: a tuple, so that a walk pays nothing more to publish it
        self.walk = None


_state = _State()


def is_grad_enabled():
    return _state.grad_enabled


def is_inference_mode_enabled():
    return _state.inference


class _GradModeContext:
    """Base of the grad-mode switches: sets the mode on entry, restores the previous one on exit.

    Usable as ``with no_grad():``, ``@no_grad()`` and ``@no_grad``.
    """

    _bare_decorator = True

    def __new__(cls, *args, **kwargs):
        if cls._bare_decorator and args and callable(args[0]):
            return cls()(args[0])  # used as a bare decorator: @no_grad
        return super().__new__(cls)

    def _target(self):
        raise NotImplementedError

    def __enter__(self):
        self._saved = (_state.grad_enabled, _state.inference)
        _state.grad_enabled, _state.inference = self._target()  # (``as`` binds None)

    def __exit__(self, *exc):
        _state.grad_enabled, _state.inference = self._saved
        return False

    def clone(self):
        return self.__class__()

    def __call__(self, fn):
        target = self._target
        if inspect.isgeneratorfunction(fn):
            return _generator_in_mode(fn, target)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return _in_mode(target, fn, *args, **kwargs)
        return wrapper


def _in_mode(target, fn, *args, **kwargs):
    """Call ``fn`` with the grad mode ``target()`` gives, restoring the caller's mode after."""
    saved = (_state.grad_enabled, _state.inference)
    _state.grad_enabled, _state.inference = target()
    try:
        return fn(*args, **kwargs)
    finally:
        _state.grad_enabled, _state.inference = saved


def _generator_in_mode(fn, target):
    """A decorated generator runs each of its steps in the mode, and yields in the caller's mode."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        generator = _in_mode(target, fn, *args, **kwargs)
        try:
            response = _in_mode(target, generator.send, None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    _in_mode(target, generator.close)
                    raise
                except BaseException as exc:
                    response = _in_mode(target, generator.throw, exc)
                else:
                    response = _in_mode(target, generator.send, request)
        except StopIteration as stop:
            return stop.value
    return wrapper


class no_grad(_GradModeContext):
    """Operations inside record nothing: results have ``requires_grad=False`` and no ``grad_fn``."""

    def _target(self):
        return False, _state.inference


class enable_grad(_GradModeContext):
    """Re-enables recording inside a ``no_grad`` block."""

    def _target(self):
        return True, _state.inference


class set_grad_enabled(_GradModeContext):
    """Sets grad mode to ``mode`` at once (as PyTorch does); ``with`` restores the previous mode."""

    _bare_decorator = False

    def __init__(self, mode):
        self.mode = _checked_bool("set_grad_enabled", mode)
        self._saved = (_state.grad_enabled, _state.inference)
        _state.grad_enabled = self.mode

    def clone(self):
        return self.__class__(self.mode)

    def _target(self):
        return self.mode, _state.inference

    def __enter__(self):
        pass  # the mode was already set by the constructor

    def __call__(self, fn):
        _state.grad_enabled, _state.inference = self._saved  # as a decorator, set only during calls
        return super().__call__(fn)


class inference_mode(_GradModeContext):
    """``no_grad`` for pure inference: nothing is recorded and ``is_inference_mode_enabled()`` is true.

    ``inference_mode(False)`` switches inference mode off and recording on, as PyTorch's does.
    tapegrad's ``no_grad`` is already free of per-tensor bookkeeping, so both run at the same speed.
    """

    def __new__(cls, mode=True):
        if mode is None or isinstance(mode, bool):
            return object.__new__(cls)
        return cls()(mode)  # anything else is a function to decorate, as in PyTorch

    def __init__(self, mode=True):
        self.mode = bool(mode)

    def clone(self):
        return self.__class__(self.mode)

    def _target(self):
        return (False, True) if self.mode else (True, False)


def _checked_bool(function, value):
    """A ``bool`` argument, refused otherwise (an int, a numpy bool) as PyTorch's parser does."""
    if not isinstance(value, bool):
        kind = type(value)
        name = kind.__name__ if kind.__module__ == "builtins" else \
            f"{kind.__module__}.{kind.__name__}"
        raise TypeError(f"{function}(): argument 'enabled' (position 1) must be bool, not {name}")
    return value


_multithreading = [True]


def is_multithreading_enabled():
    return _multithreading[0]


class set_multithreading_enabled:
    """PyTorch's switch for the backward pass's worker threads, set at once (``with`` restores
    it). tapegrad's backward runs on the calling thread either way: only the flag is kept."""

    def __init__(self, mode):
        self.prev = _multithreading[0]
        self.mode = _multithreading[0] = _checked_bool("set_multithreading_enabled", mode)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _multithreading[0] = self.prev
        return False

    def clone(self):
        return self.__class__(self.mode)

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return wrapper
