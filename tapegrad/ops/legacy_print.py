"""A tensor as ATen's C++ ``operator<<`` prints it (``aten/src/ATen/core/Formatting.cpp``): the
form some of PyTorch's error messages embed (" 1\\n 2\\n[ torch.LongTensor{2,1} ]")."""
import math
import warnings

import numpy as np

from ..dtypes import SCALAR_TYPE_NAMES

LINESIZE = 80  # ATen's default line length for matrices
# The dtypes whose ATen type string is the legacy Python class name (``torch.FloatTensor``);
# every other one is named after backend and scalar type (``CPUBoolType``).
_LEGACY_NAMED = {"float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8"}


def legacy_print(array):
    """``array`` (a numpy array) in ATen's C++ form."""
    array = np.asarray(array)
    values = _as_double(array)
    sizes = ",".join(str(s) for s in values.shape)
    body = ""
    if values.ndim == 0:
        body = f"{_g(float(values))}\n"
    elif values.size:
        if values.ndim == 1:
            scale, width, number = _format(values)
            body = (f"{_scale_text(scale)} *\n" if scale != 1 else "") + "".join(
                f"{number(v / scale):>{width}}\n" for v in values)
        elif values.ndim == 2:
            body = _matrix(values, 0)
        else:
            body = _blocks(values)
    return f"{body}[ {aten_type_name(array.dtype.name)}{{{sizes}}} ]"


def aten_type_name(dtype_name):
    """ATen's ``Tensor::toString()``: ``torch.FloatTensor`` for the legacy types, else
    ``CPUBoolType``, ``CPUComplexFloatType``, ..."""
    scalar = SCALAR_TYPE_NAMES[dtype_name]
    return f"torch.{scalar}Tensor" if dtype_name in _LEGACY_NAMED else f"CPU{scalar}Type"


def _as_double(array):
    """The values ATen prints: converted to double, complex ones losing (with a warning, as
    ATen's copy warns) their imaginary part."""
    if array.dtype.kind == "c":
        warnings.warn("Casting complex values to real discards the imaginary part", UserWarning,
                      stacklevel=4)
        array = array.real
    return array.astype(np.float64)


def _g(value):
    """C++'s default float output (``%g``, six significant digits); a NaN keeps its sign bit."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return f"{value:g}"


def _scale_text(scale):
    """The power of ten a scaled block is divided by, in its shortest round-trip form as ATen
    prints it: ``1e-05``, ``0.001``, ``100000000000`` (no ``%g`` rounding to ``1e+11``)."""
    return repr(scale).removesuffix(".0")


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
    """ATen's ``__printMatrix``: columns in blocks that fit in LINESIZE, each block headed
    "Columns a to b" (with no line break after it, as ATen writes it) when there are several."""
    scale, width, number = _format(values)
    pad = " " * indent
    n_columns = values.shape[1]
    per_line = max(1, (LINESIZE - indent) // (width + 1))
    row_separator = "\n" + pad + (" " if scale != 1 else "")
    blocks = []
    for first in range(0, n_columns, per_line):
        last = min(first + per_line, n_columns)
        header = f"Columns {first + 1} to {last}{pad}" if per_line < n_columns else ""
        if scale != 1:
            header += f"{_scale_text(scale)} *\n{pad}"
        rows = [" ".join(f"{number(v / scale):>{width}}" for v in row[first:last])
                for row in values]
        blocks.append(header + row_separator.join(rows) + "\n")
    return "\n".join(blocks)


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
