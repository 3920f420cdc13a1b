"""``torch.testing``: ``assert_close`` with PyTorch's default tolerances and failure messages, and
``make_tensor``.

Tensors are compared with ``isclose`` after their attributes (shape, dtype); Python numbers as
scalars; sequences and mappings item by item, a failure naming the item it occurred for.
"""
import collections.abc
import math
import numbers

import numpy as np

from . import dtypes
from .tensor import Tensor

__all__ = ["assert_close", "make_tensor"]

# (rtol, atol) by dtype; other dtypes (integers, bool) must match exactly
_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
               "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}


class _Mismatch(Exception):
    """A failed comparison: the exception type to raise and its message."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """Raise AssertionError unless ``actual`` and ``expected`` are close: for each element
    ``|actual - expected| <= atol + rtol * |expected|`` (the dtype's defaults unless both are
    given), NaNs equal only with ``equal_nan``."""
    if (rtol is None) != (atol is None):
        raise ValueError("Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                         f"{'rtol' if rtol is None else 'atol'}.")
    options = {"rtol": rtol, "atol": atol, "equal_nan": equal_nan, "check_dtype": check_dtype}
    try:
        _compare(actual, expected, options, ())
    except _Mismatch as mismatch:
        message = str(mismatch)
        if mismatch.kind is AssertionError and msg is not None:
            message = msg(message) if callable(msg) else msg
        raise mismatch.kind(message) from None


def _compare(actual, expected, options, path):
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        return _fail_at(path, _compare_tensors, actual, expected, options)
    if _is_number(actual) and _is_number(expected):
        return _fail_at(path, _compare_numbers, actual, expected, options)
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError, "The length of the sequences mismatch: "
                                            f"{len(actual)} != {len(expected)}")
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, options, path + (i,))
        return None
    if isinstance(actual, collections.abc.Mapping) and \
            isinstance(expected, collections.abc.Mapping):
        if set(actual) != set(expected):
            raise _Mismatch(AssertionError, "The keys of the mappings do not match:\n"
                                            f"Missing keys in the actual mapping: "
                                            f"{sorted(set(expected) - set(actual))}\n"
                                            f"Additional keys in the actual mapping: "
                                            f"{sorted(set(actual) - set(expected))}")
        for key in expected:
            _compare(actual[key], expected[key], options, path + (key,))
        return None
    raise _Mismatch(TypeError, "No comparison pair was able to handle inputs of type "
                               f"{_type_repr(actual)} and {_type_repr(expected)}.")


def _type_repr(value):
    return "<class 'torch.Tensor'>" if isinstance(value, Tensor) else str(type(value))


def _is_number(value):
    return isinstance(value, (numbers.Number, np.generic)) and not isinstance(value, np.ndarray)


def _is_sequence(value):
    return isinstance(value, collections.abc.Sequence) and not isinstance(value, str)


def _fail_at(path, compare, actual, expected, options):
    """Run ``compare``; a failure inside a container says which item it occurred for."""
    try:
        compare(actual, expected, options)
    except _Mismatch as mismatch:
        if not path:
            raise
        where = "".join(f"[{key!r}]" for key in path)
        raise _Mismatch(mismatch.kind, f"{mismatch}\n\nThe failure occurred for item "
                                       f"{where}") from None


def _tolerances(options, dtype_name):
    if options["rtol"] is not None:
        return options["rtol"], options["atol"]
    return _TOLERANCES.get(dtype_name, (0.0, 0.0))


def _compare_numbers(actual, expected, options):
    if options["check_dtype"] and type(actual) is not type(expected):
        raise _Mismatch(AssertionError, f"The (d)types do not match: {type(actual)} != "
                                        f"{type(expected)}.")
    kind = "float64" if isinstance(actual, float) or isinstance(expected, float) else "int64"
    rtol, atol = _tolerances(options, kind)
    close = math.isclose(actual, expected, rel_tol=rtol, abs_tol=atol) or actual == expected \
        or options["equal_nan"] and math.isnan(actual) and math.isnan(expected)
    if not close and not (rtol == 0 == atol and actual == expected):
        raise _Mismatch(AssertionError, _scalar_message(actual, expected, rtol, atol))


def _scalar_message(actual, expected, rtol, atol):
    difference = abs(actual - expected)
    relative = math.inf if expected == 0 else difference / abs(expected)
    return _message(f"Expected {expected} but got {actual}.", rtol, atol,
                    ("Absolute difference", difference), ("Relative difference", relative))


def _message(extra, rtol, atol, absolute, relative):
    equality = rtol == 0 and atol == 0
    lines = [f"{'Scalars' if extra.startswith('Expected') else 'Tensor-likes'} are not "
             f"{'equal' if equality else 'close'}!", "", extra]
    for (label, value), tolerance in ((absolute, atol), (relative, rtol)):
        lines.append(f"{label}: {value}" + ("" if equality else f" (up to {tolerance} allowed)"))
    return "\n".join(lines)


def _compare_tensors(actual, expected, options):
    if actual.shape != expected.shape:
        raise _Mismatch(AssertionError, "The values for attribute 'shape' do not match: "
                                        f"{actual.shape} != {expected.shape}.")
    if actual.dtype != expected.dtype:
        if options["check_dtype"]:
            raise _Mismatch(AssertionError, "The values for attribute 'dtype' do not match: "
                                            f"{actual.dtype} != {expected.dtype}.")
        common = dtypes.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    a, e = actual.detach()._array, expected.detach()._array
    rtol, atol = _tolerances(options, a.dtype.name)
    if a.dtype.kind in "fc":
        with np.errstate(invalid="ignore", over="ignore"):
            matches = np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=options["equal_nan"])
            matches |= (a == e)  # equal infinities
    else:
        matches = a == e
    if matches.all():
        return
    if not a.ndim:
        raise _Mismatch(AssertionError, _scalar_message(a.item(), e.item(), rtol, atol))
    raise _Mismatch(AssertionError, _tensor_message(a, e, matches, rtol, atol))


def _tensor_message(a, e, matches, rtol, atol):
    """PyTorch's statistics of a mismatch: how many, and the greatest differences (among the
    mismatched elements) with their indices."""
    total, mismatched = matches.size, int(matches.size - np.count_nonzero(matches))
    if a.dtype.kind not in "fc":
        a, e = a.astype(np.int64), e.astype(np.int64)
    flat_matches = matches.reshape(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        difference = np.abs(a.reshape(-1) - e.reshape(-1))  # a complex number's: its modulus
        difference[flat_matches] = 0
        # integers: as torch's true division; complex numbers: in their parts' type
        real = difference.dtype if a.dtype.kind in "fc" else np.float32
        relative = difference.astype(real) / np.abs(e.reshape(-1)).astype(real)
        relative[flat_matches] = 0
    stats = []
    for name, values in (("absolute", difference), ("relative", relative)):
        position = int(np.argmax(values)) if not np.isnan(values).any() else \
            int(np.flatnonzero(np.isnan(values))[0])
        index = tuple(int(i) for i in np.unravel_index(position, matches.shape))
        stats.append((f"Greatest {name} difference", f"{values[position].item()} at index {index}"))
    return _message(f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})",
                    rtol, atol, *stats)


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False,
                noncontiguous=False, exclude_zero=False, memory_format=None):
    """A tensor of ``shape`` with values drawn uniformly from [low, high) (floats: default
    [-9, 9]; integers: [-9, 10); bool: True or False)."""
    from . import ops
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    dtype = dtypes.as_dtype(dtype)
    if dtype is dtypes.bool:
        result = ops.randint(0, 2, shape).to(dtype)
    elif dtype.is_floating_point:
        low = -9.0 if low is None else low
        high = 9.0 if high is None else high
        result = ops.rand(*shape, dtype=dtype) * (high - low) + low
    else:
        low = (0 if dtype is dtypes.uint8 else -9) if low is None else math.ceil(low)
        high = 10 if high is None else math.ceil(high)
        result = ops.randint(low, high, shape, dtype=dtype)
    if exclude_zero:
        result = ops.where(result == 0, ops.ones((), dtype=dtype), result)
    if requires_grad:
        result.requires_grad_(True)
    return result
