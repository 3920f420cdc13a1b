"""Index patterns and the tuples they pick: tril/triu_indices, combinations, cartesian_prod.

The tuples are gathered with ``getitem`` and stacked, so their gradients flow back through
``StackBackward0`` as in PyTorch.
"""
import itertools

import numpy as np

from .. import dtypes
from ..tensor import Tensor, _check_device
from .creation import _numpy_dtype
from .shape import getitem, stack

__all__ = ["tril_indices", "triu_indices", "combinations", "cartesian_prod"]


def _triangle_indices(function, pick, row, col, offset, dtype):
    for name, value in (("row", row), ("col", col)):
        if value < 0:
            raise RuntimeError(f"{name} must be non-negative, got{value}")
    _check_index_dtype(function, dtype)
    rows, cols = pick(row, offset, col)
    return Tensor._make(np.stack([rows, cols]).astype(_numpy_dtype(dtype, dtypes.int64)))


def _check_index_dtype(function, dtype):
    """ATen builds the coordinates only in the index types, int32 and int64."""
    if dtype is not None and dtype not in (dtypes.int32, dtypes.int64):
        name = dtypes.SCALAR_TYPE_NAMES.get(dtype.name) or {"bfloat16": "BFloat16"}.get(
            dtype.name, dtype.name)
        raise NotImplementedError(f"\"{function}\" not implemented for '{name}'")


_MISSING = object()  # a required argument left out: PyTorch's own message, not Python's


def tril_indices(row=_MISSING, col=_MISSING, offset=0, *, dtype=None, device=None, layout=None):
    """The coordinates (a 2 x N tensor, row-major order) of the lower triangle of a
    ``row`` x ``col`` matrix, the diagonal moved by ``offset``."""
    _check_arguments("tril_indices", row, col, offset, device)
    return _triangle_indices("tril_indices", np.tril_indices, row, col, offset, dtype)


def triu_indices(row=_MISSING, col=_MISSING, offset=0, *, dtype=None, device=None, layout=None):
    """The coordinates of the upper triangle, as ``tril_indices``."""
    _check_arguments("triu_indices", row, col, offset, device)
    return _triangle_indices("triu_indices", np.triu_indices, row, col, offset, dtype)


def _check_arguments(function, row, col, offset, device):
    """PyTorch's argument parser's checks, in its words (and its grammar)."""
    missing = [name for name, value in (("row", row), ("col", col)) if value is _MISSING]
    if missing:
        names = ", ".join(f'"{name}"' for name in missing)
        raise TypeError(f"{function}() missing {len(missing)} required positional argument"
                        f"{'s' if len(missing) == 1 else ''}: {names}")
    for position, (name, value) in enumerate((("row", row), ("col", col), ("offset", offset)), 1):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise TypeError(f"{function}(): argument '{name}' (position {position}) must be int, "
                            f"not {type(value).__name__}")
    _check_device(device)


def _check_vector(tensor):
    if tensor._array.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(tensor._array.shape)}")


def combinations(input, r=2, with_replacement=False):
    """The length-``r`` combinations of the elements of a vector, one per row, in
    ``itertools.combinations`` order."""
    _check_vector(input)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return Tensor._make(np.empty(0, input._array.dtype))
    choose = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    n = input._array.shape[0]
    picks = np.fromiter(itertools.chain.from_iterable(choose(range(n), r)), np.int64)
    picks = picks.reshape(-1, r)  # (no combination: still stacked, as PyTorch records it)
    return stack([getitem(input, picks[:, k]) for k in range(r)], dim=1)


def cartesian_prod(*tensors):
    """Every tuple of one element from each vector, one per row, the last varying fastest (a
    single vector comes back as it is)."""
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for tensor in tensors:
        _check_vector(tensor)
    if len(tensors) == 1:
        return tensors[0]
    if len({t._array.dtype for t in tensors}) > 1:
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    grids = np.meshgrid(*[np.arange(t._array.shape[0]) for t in tensors], indexing="ij")
    return stack([getitem(t, grid.reshape(-1)) for t, grid in zip(tensors, grids)], dim=1)
