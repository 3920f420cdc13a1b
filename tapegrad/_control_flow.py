"""``torch.cond`` and ``torch.while_loop``: control flow as functions, which ``torch.compile``
and ``torch.export`` capture as one operation. Run eagerly here, they are the plain branch and
loop (a compiled function that calls them breaks the graph at the data-dependent test)."""

import numbers

from .tensor import Tensor

__all__ = ["cond", "while_loop"]


def _truth(pred, what):
    if isinstance(pred, Tensor):
        if pred.numel() != 1:
            raise RuntimeError(f"Expected {what} to be bool or single-element tensor, but got "
                               f"{pred!r}.")
        return bool(pred.item())
    if not isinstance(pred, (bool, numbers.Number)):
        raise RuntimeError(f"Expected {what} to be bool or single-element tensor, but got "
                           f"{pred!r}.")
    return bool(pred)


def cond(pred, true_fn, false_fn, operands=()):
    """``true_fn(*operands)`` if ``pred`` else ``false_fn(*operands)``."""
    if not isinstance(operands, (tuple, list)):
        raise RuntimeError(f"Expect operands to be a tuple of possibly nested dict/list/tuple "
                           f"that only consists of tensor leaves, but got {operands}.")
    return (true_fn if _truth(pred, "pred") else false_fn)(*operands)


def while_loop(cond_fn, body_fn, carried_inputs):
    """Apply ``body_fn`` to the carried values while ``cond_fn`` holds; the last values."""
    if not isinstance(carried_inputs, (tuple, list)):
        raise RuntimeError(f"carried_inputs must be a tuple or list, got {type(carried_inputs)}")
    carried = tuple(carried_inputs)
    while _truth(cond_fn(*carried), "cond_fn's output"):
        result = body_fn(*carried)
        carried = tuple(result) if isinstance(result, (tuple, list)) else (result,)
    return carried
