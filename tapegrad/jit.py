"""``torch.jit``: the decorators and queries that model code calls whether or not it is ever
scripted (timm-style models mark methods ``@torch.jit.ignore`` and branch on
``torch.jit.is_scripting()``).

tapegrad runs no TorchScript: code is never being scripted or traced here, the decorators give
back what they decorate, and ``script``/``trace`` refuse with a pointer to ``tapegrad.compile``,
the way tapegrad compiles a function.
"""
import typing
import warnings

__all__ = ["ignore", "unused", "export", "is_scripting", "is_tracing", "annotate", "Final",
           "script", "trace"]

Final = typing.Final


def is_scripting():
    return False


def is_tracing():
    return False


def annotate(the_type, the_value):
    """A type hint for the TorchScript compiler; the value itself in Python."""
    return the_value


def ignore(drop=False, **kwargs):
    """``@torch.jit.ignore`` (or ``@torch.jit.ignore(drop=...)``): the function unchanged."""
    if callable(drop):
        return drop
    if drop:
        warnings.warn("ignore(True) has been deprecated. TorchScript will now drop the function "
                      "call on compilation. Use torch.jit.unused now. {}", FutureWarning,
                      stacklevel=2)
    return lambda function: function


def unused(function):
    return function


def export(function):
    return function


def _unsupported(name):
    def refuse(obj, *args, **kwargs):
        raise NotImplementedError(f"torch.jit.{name} is not supported: tapegrad runs no "
                                  "TorchScript. tapegrad.compile (torch.compile) compiles a "
                                  "function or a module instead.")
    refuse.__name__ = name
    return refuse


script = _unsupported("script")
trace = _unsupported("trace")
