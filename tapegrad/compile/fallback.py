"""Primitives without a lowering, run by numpy from inside a kernel (Numba's object mode).

A kernel calls ``call(key, *inputs)``; ``key`` names the node, which the runtime that loaded the
kernel registered (``register``) with the primitive and its parameters.
"""
import numpy as np

from ..ops import PRIMITIVES
from .ir import Operand

__all__ = ["register", "call"]

_TABLE = {}


def register(key, op, params):
    _TABLE[key] = (PRIMITIVES[op], params, sum(1 for _ in _operands(params.values())))


def call(key, *inputs):
    """The primitive's forward on the node's inputs; outputs as a tuple of C-contiguous arrays."""
    primitive, params, n_operands = _TABLE[key]
    params = {name: _resolve(p, inputs) for name, p in params.items()}
    result = primitive.forward(*inputs[:len(inputs) - n_operands], **params)
    results = result if type(result) is tuple else (result,)
    # (np.asarray with order='C', not ascontiguousarray, which makes a 0-d result 1-d: the
    # kernel would read it as the 0-d array it declared, past its memory)
    return tuple(np.asarray(r, order="C") for r in results)


def _resolve(param, inputs):
    if isinstance(param, Operand):
        return inputs[param.index]
    if isinstance(param, tuple):
        return tuple(_resolve(p, inputs) for p in param)
    return param


def _operands(params):
    for param in params:
        if isinstance(param, Operand):
            yield param
        elif isinstance(param, tuple):
            yield from _operands(param)
