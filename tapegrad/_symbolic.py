"""``torch.sym_int`` and its siblings: arithmetic that stays symbolic on PyTorch's traced sizes.

tapegrad's sizes are always plain Python numbers (its compiler specialises on shapes), so these
are the functions on numbers, with PyTorch's result types: ``sym_max(2, 3.0)`` is a float,
``sym_int`` truncates towards zero, ``sym_ite`` takes only a bool condition.
"""
import builtins
import math

__all__ = ["sym_int", "sym_float", "sym_max", "sym_min", "sym_not", "sym_ite", "sym_sum",
           "sym_sqrt"]


def sym_int(a):
    return builtins.int(a)


def sym_float(a):
    return builtins.float(a)


def _extreme(choose, a, b):
    """``choose(a, b)``, a float when either is one (as Python's max would not make it)."""
    result = choose(a, b)
    return builtins.float(result) if isinstance(a, float) or isinstance(b, float) else result


def sym_max(a, b):
    return _extreme(builtins.max, a, b)


def sym_min(a, b):
    return _extreme(builtins.min, a, b)


def sym_not(a):
    return not a


def sym_ite(b, t, f):
    """``t if b else f``; ``b`` must be a bool."""
    if not isinstance(b, builtins.bool):
        raise AssertionError(f"expected SymBool or bool, got {type(b)}")
    return t if b else f


def sym_sum(args):
    return builtins.sum(args)


def sym_sqrt(a):
    return math.sqrt(a)
