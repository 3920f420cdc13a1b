"""``functionalize``: a function without mutations, for tools that need a pure program.

tapegrad runs eagerly with no program to rewrite, so what remains observable is the contract:
the function runs on copies of its tensor inputs, an input the function mutated is updated
in place afterwards (once, by ``copy_``), and no output aliases an input.
"""
import functools

from .. import ops
from ..autograd import function
from ..tensor import Tensor
from ..utils import _pytree

__all__ = ["functionalize"]

_REMOVE = ("mutations", "mutations_and_views")


def functionalize(func, *, remove="mutations"):
    """``func`` with its mutations removed (``remove="mutations_and_views"`` also removes
    views): same values, inputs updated as ``func`` would have updated them."""
    if remove not in _REMOVE:
        raise RuntimeError(
            f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}."
            " Valid options are:\n     remove='mutations': all inplace and out= operators will "
            "be removed from the program, and replaced with their out-of-place equivalents.\n"
            "     remove='mutations_and_views': In addition to the above, all aliasing operators "
            "{view} will be replaced with their non-aliasing counterparts, {view}_copy.\n")

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        (flat, spec) = _pytree.flatten((args, kwargs))
        copies = [ops.clone(x) if isinstance(x, Tensor) else x for x in flat]
        versions = [c._version_counter.value if isinstance(c, Tensor) else None for c in copies]
        with function.functorch_transform("functionalize"):
            copied_args, copied_kwargs = _pytree.unflatten(copies, spec)
            output = func(*copied_args, **copied_kwargs)
        for original, copy, version in zip(flat, copies, versions):
            if isinstance(copy, Tensor) and copy._version_counter.value != version:
                original.copy_(copy)
        return output

    return wrapper
