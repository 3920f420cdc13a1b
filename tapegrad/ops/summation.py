"""Floating-point sums over leading axes, added up in PyTorch's order.

numpy sums along a non-innermost axis (a bias gradient, ``x.sum(0)``, ``mean(0)``) with one
running total per output element: the error grows with the number of rows, and 40,000 rows of
float32 drift in the fourth digit. PyTorch's CPU kernel (``multi_row_sum`` in SumKernel.cpp)
cascades instead: rows go into a level-0 accumulator in chunks of 16 (more for very long sums),
each full chunk is added into level 1, every 16 level-1 additions flush into level 2, and so on
over four levels, which are added together at the end. Following that order gives its accuracy
and, where PyTorch takes this path (rows wider than a few elements), its exact bits.
"""
import numpy as np

__all__ = ["add_reduce"]

_LEVELS = 4


def add_reduce(a, axis, keepdims):
    """``np.add.reduce(a, axis, keepdims=keepdims)``; floating sums over leading axes of a
    C-contiguous array in PyTorch's cascade order; float16 summed in float32 and rounded once,
    as PyTorch accumulates it (numpy rounds every partial sum to float16)."""
    if a.dtype == np.float16:
        return add_reduce(a.astype(np.float32), axis, keepdims).astype(np.float16)
    if axis and a.dtype.kind == "f" and a.itemsize >= 4 and a.flags.c_contiguous:
        lead = len(axis)
        rows = a.shape[0] if axis == (0,) else _leading_rows(a.shape, axis)
        if rows is not None and rows > 16 and lead < a.ndim and a.size > rows:
            total = _cascade(a.reshape(rows, a.size // rows))
            return total.reshape((1,) * lead + a.shape[lead:] if keepdims else a.shape[lead:])
    return np.add.reduce(a, axis=axis, keepdims=keepdims)


def _leading_rows(shape, axis):
    """How many rows the leading axes ``axis`` make, or None if they are not the leading ones."""
    if axis != tuple(range(len(axis))):
        return None
    rows = 1
    for size in shape[:len(axis)]:
        rows *= size
    return rows


def _cascade(rows):
    """The column sums of ``rows`` (rows x width, width > 1: numpy then adds each chunk
    sequentially, as PyTorch does)."""
    count, width = rows.shape
    step = 16 if count <= _STEP_16_UP_TO else 1 << ((count - 1).bit_length() // _LEVELS)
    chunks = count // step
    full = chunks * step
    level = np.add.reduce((rows if full == count else rows[:full]).reshape(chunks, step, width),
                          axis=1)
    if chunks < step:  # one level (up to 256 rows): its sum, after the rows past the last chunk
        total = np.add.reduce(level, axis=0)
        if full < count:
            total += np.add.reduce(rows[full:], axis=0)
        return total
    pending = []  # what each level holds at the end, below the last full group of ``step``
    for _ in range(_LEVELS - 2):
        if level.shape[0] < step:
            break
        groups = level.shape[0] // step
        pending.append(np.add.reduce(level[groups * step:], axis=0))
        level = np.add.reduce(level[:groups * step].reshape(groups, step, width), axis=1)
    pending.append(np.add.reduce(level, axis=0))
    total = np.add.reduce(rows[full:], axis=0)  # the rows after the last full chunk, then
    for partial in pending:                      # each level, lowest first
        total += partial
    return total


# PyTorch's chunk: 2 ** max(4, ceil(log2(count)) // 4) rows, 16 up to 2 ** 19 rows
_STEP_16_UP_TO = 1 << 19
