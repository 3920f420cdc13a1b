"""A tensor as ATen's C++ ``operator<<`` prints it (``aten/src/ATen/core/Formatting.cpp``): the
form some of PyTorch's error messages embed (" 1\\n 2\\n[ torch.LongTensor{2,1} ]")."""
import math

import numpy as np

from ..tensor import _LEGACY_TYPE_NAMES


def legacy_print(array):
    """``array`` (a numpy array of at least one dimension) in ATen's C++ form."""
    values = np.asarray(array, dtype=np.float64)
    sizes = ",".join(str(s) for s in array.shape)
    body = ""
    if values.size:
        if values.ndim == 1:
            scale, width, number = _format(values)
            body = (f"{_g(scale)} *\n" if scale != 1 else "") + "".join(
                f"{number(v / scale):>{width}}\n" for v in values)
        elif values.ndim == 2:
            body = _matrix(values, 0)
        else:
            body = _blocks(values)
    return f"{body}[ torch.{_LEGACY_TYPE_NAMES[array.dtype.name]}Tensor{{{sizes}}} ]"


def _g(value):
    """C++'s default float output (``%g``, six significant digits)."""
    return "nan" if math.isnan(value) else f"{value:g}"


def _format(values):
    """ATen's ``__printFormat``: the scale to divide by, the field width, and the formatter."""
    finite = values[np.isfinite(values)]
    integral = bool(np.all(finite == np.ceil(finite)))
    exp_min = exp_max = 1.0
    if finite.size:
        magnitudes = np.abs(finite)
        low, high = magnitudes.min(), magnitudes.max()
        exp_min = math.floor(math.log10(low)) + 1 if low != 0 else 1
        exp_max = math.floor(math.log10(high)) + 1 if high != 0 else 1
    if integral:
        return (1, 11, _scientific) if exp_max > 9 else (1, int(exp_max) + 1, _g)
    if exp_max - exp_min > 4:
        return 1, 12 if abs(exp_max) > 99 or abs(exp_min) > 99 else 11, _scientific
    if exp_max > 5 or exp_max < 0:
        return 10.0 ** (exp_max - 1), 7, _fixed
    return 1, 7 if exp_max == 0 else int(exp_max) + 6, _fixed


def _fixed(value):
    return f"{value:.4f}" if math.isfinite(value) else _g(value)


def _scientific(value):
    return f"{value:.4e}" if math.isfinite(value) else _g(value)


def _matrix(values, indent):
    """ATen's ``__printMatrix`` (one block of columns: messages hold small tensors)."""
    scale, width, number = _format(values)
    pad = " " * indent
    rows = [" ".join(f"{number(v / scale):>{width}}" for v in row) for row in values]
    prefix = f"{_g(scale)} *\n{pad}" if scale != 1 else ""
    separator = "\n" + pad + (" " if scale != 1 else "")
    return prefix + separator.join(rows) + "\n"


def _blocks(values):
    """ATen's ``__printTensor``: each matrix of the last two dimensions under its index, the
    first index varying fastest, as ATen counts."""
    leading = values.shape[:-2]
    blocks = []
    for flat in range(int(np.prod(leading))):
        index = np.unravel_index(flat, leading, order="F")
        label = "".join(f"{i + 1}," for i in index)
        blocks.append(f"({label}.,.) = \n" + _matrix(values[index], 1))
    return "\n".join(blocks)
