"""``flags(...)``: a backend's flags set for the length of a ``with`` block."""
import contextlib

__all__ = ["flags_of"]


def flags_of(module, names, ignored=()):
    """The ``flags`` context manager of ``module``: it sets the flags ``names`` (keyword
    arguments with the module's defaults) and restores every one on exit, as PyTorch's does
    (the double-backward-through-an-RNN idiom wraps its step in ``cudnn.flags(enabled=False)``).
    Keywords in ``ignored`` are accepted and have no effect, as without the library."""
    @contextlib.contextmanager
    def flags(**values):
        unknown = set(values) - set(names) - set(ignored)
        if unknown:
            raise TypeError(f"flags() got an unexpected keyword argument '{sorted(unknown)[0]}'")
        saved = {name: getattr(module, name) for name in names}
        for name, default in names.items():
            setattr(module, name, values.get(name, default))
        try:
            yield
        finally:
            for name, value in saved.items():
                setattr(module, name, value)
    return flags
