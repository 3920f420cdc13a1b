"""``constant_pad_nd``: pad (or, with negative amounts, crop) the trailing dimensions.

Its gradient is the same operation with the amounts negated and zeros as the value — a crop of
the gradient where the forward padded — so the primitive's rule is itself, and every derivative
order records ``ConstantPadNdBackward0`` as PyTorch does.
"""
import numpy as np

from .registry import OTHER, primitive

__all__ = ["constant_pad_nd"]


@primitive("constant_pad_nd", node="ConstantPadNdBackward0", group=OTHER)
def _constant_pad_nd(a, pad, value):
    """``pad`` is PyTorch's flat list: (last_before, last_after, second_last_before, ...)."""
    pairs = [(0, 0)] * (a.ndim - len(pad) // 2) + [
        (pad[i], pad[i + 1]) for i in reversed(range(0, len(pad), 2))]
    crop = tuple(slice(-before if before < 0 else 0, after if after < 0 else None)
                 for before, after in pairs)
    grow = [(max(before, 0), max(after, 0)) for before, after in pairs]
    return np.pad(a[crop], grow, constant_values=value)


@_constant_pad_nd.vjp
def _(ctx, grad, pad, value):
    return _constant_pad_nd(grad, pad=tuple(-p for p in pad), value=0)


def constant_pad_nd(input, pad, value=0):
    """Pad the last ``len(pad) // 2`` dimensions of ``input`` with ``value``."""
    if len(pad) % 2:
        raise RuntimeError("Length of pad must be even but instead it equals " + str(len(pad)))
    if len(pad) // 2 > input.dim():
        raise RuntimeError(f"Length of pad should be no more than twice the number of dimensions "
                           f"of the input. Pad length is {len(pad)} while the input has "
                           f"{input.dim()} dimensions.")
    for i in range(0, len(pad), 2):
        size = input.shape[input.dim() - 1 - i // 2]
        if size + pad[i] + pad[i + 1] < 0:
            raise RuntimeError(f"The input size {size}, plus negative padding {pad[i]} and "
                               f"{pad[i + 1]} resulted in a negative output size, which is "
                               f"invalid. Check dimension {input.dim() - 1 - i // 2} of your "
                               "input.")
    return _constant_pad_nd(input, pad=tuple(int(p) for p in pad), value=value)
