"""Checks of the arguments every transform shares, with PyTorch's messages."""
import functools

__all__ = ["differentiated_positions", "name_of"]


def differentiated_positions(argnums, num_args):
    """The positions ``argnums`` (an int or a tuple of ints, negative counting from the end)
    selects among ``num_args`` positional arguments."""
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    positions = [_position(argnum, num_args)
                 for argnum in (argnums if isinstance(argnums, tuple) else (argnums,))]
    if isinstance(argnums, tuple):
        if not argnums:
            raise RuntimeError("argnums must be non-empty")
        if len(set(positions)) != len(positions):
            raise RuntimeError(f"argnums elements must be unique, got {tuple(positions)}")
    return positions


def _position(argnum, num_args):
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if -num_args <= argnum < num_args:
        return argnum % num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def name_of(func):
    """How PyTorch's vmap messages name a function."""
    if hasattr(func, "__name__"):
        return func.__name__
    if isinstance(func, functools.partial):
        return f"functools.partial({name_of(func.func)}, ...)"
    return repr(func)
