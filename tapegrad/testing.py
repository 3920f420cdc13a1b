"""``torch.testing``: ``assert_close`` with PyTorch's default tolerances and failure messages, and
``make_tensor``.

``assert_close`` works as PyTorch's in two phases. First the inputs are paired up: sequences and
mappings item by item (mapping keys in sorted order), each leaf pair by the first kind that accepts
it (None, booleans, Python/numpy numbers, tensor-likes of directly related types). A structural
problem found there (lengths, keys, types no pair accepts, a lone ``rtol``) raises at once and
ignores ``msg``. Then each pair compares attributes and values; the first failure raises, with
``msg`` replacing or rewriting the message, and names the item it occurred for.
"""
import cmath
import collections.abc
import math
import warnings

import numpy as np

from . import dtypes, ops
from .tensor import Tensor

__all__ = ["assert_close", "assert_allclose", "make_tensor"]

# (rtol, atol) by dtype name; the loosest of two inputs applies; other dtypes must match exactly
_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (0.016, 1e-5), "float32": (1.3e-6, 1e-5),
               "float64": (1e-7, 1e-7), "complex32": (1e-3, 1e-5), "complex64": (1.3e-6, 1e-5),
               "complex128": (1e-7, 1e-7)}


class _ErrorMeta(Exception):
    """A failure: the exception type to raise, its message and the item (path) it concerns."""

    def __init__(self, kind, message, path=()):
        super().__init__(message)
        self.kind, self.message, self.path = kind, message, path

    def to_error(self, msg=None):
        """The user-facing exception; a string ``msg`` replaces the whole message, a callable
        rewrites it."""
        if isinstance(msg, str):
            return self.kind(msg)
        message = self.message
        if self.path:
            message += f"\n\nThe failure occurred for item {''.join(str([k]) for k in self.path)}"
        return self.kind(msg(message) if callable(msg) else message)


class _Unsupported(Exception):
    """A pair kind does not handle these inputs; the next kind is tried."""


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """Raise unless ``actual`` and ``expected`` are close: for each element
    ``|actual - expected| <= atol + rtol * |expected|`` (the dtypes' defaults unless both are
    given), NaNs equal only with ``equal_nan``."""
    options = {"allow_subclasses": allow_subclasses, "rtol": rtol, "atol": atol,
               "equal_nan": equal_nan, "check_device": check_device, "check_dtype": check_dtype,
               "check_layout": check_layout, "check_stride": check_stride}
    try:
        pairs = _originate_pairs(actual, expected, options, ())
    except _ErrorMeta as error:
        raise error.to_error() from None
    for pair in pairs:
        try:
            pair.compare()
        except _ErrorMeta as error:
            raise error.to_error(msg) from None


# the looser tolerances of the deprecated assert_allclose
_ALLCLOSE_TOLERANCES = {"float16": (1e-3, 1e-3), "float32": (1e-4, 1e-5), "float64": (1e-5, 1e-8)}


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """Deprecated since PyTorch 1.12 (it warns so): ``assert_close`` with looser default
    tolerances, NaNs equal, any dtype, and a non-tensor ``expected`` taking ``actual``'s dtype."""
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed "
                  "in a future release. Please use `torch.testing.assert_close()` instead. You "
                  "can find detailed upgrade instructions in "
                  "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning, stacklevel=2)
    if not isinstance(actual, Tensor):
        actual = ops.tensor(actual)
    if not isinstance(expected, Tensor):
        expected = ops.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = _default_tolerances([actual.dtype.name, expected.dtype.name],
                                         _ALLCLOSE_TOLERANCES)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
                 check_dtype=False, check_stride=False, msg=msg or None)


# ------------------------------------------------------------------ pairing the inputs up


def _is_sequence(value):
    return isinstance(value, collections.abc.Sequence) and not isinstance(value, str)


def _originate_pairs(actual, expected, options, path):
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _ErrorMeta(AssertionError, "The length of the sequences mismatch: "
                                             f"{len(actual)} != {len(expected)}", path)
        return [pair for i in range(len(actual))
                for pair in _originate_pairs(actual[i], expected[i], options, path + (i,))]
    if isinstance(actual, collections.abc.Mapping) and \
            isinstance(expected, collections.abc.Mapping):
        return _originate_mapping_pairs(actual, expected, options, path)
    for kind in (_NonePair, _BooleanPair, _NumberPair, _TensorLikePair):
        try:
            return [kind(actual, expected, options, path)]
        except _Unsupported:
            continue
    raise _ErrorMeta(TypeError, "No comparison pair was able to handle inputs of type "
                                f"{type(actual)} and {type(expected)}.", path)


def _originate_mapping_pairs(actual, expected, options, path):
    missing, additional = set(expected) - set(actual), set(actual) - set(expected)
    if missing or additional:
        raise _ErrorMeta(AssertionError, "The keys of the mappings do not match:\n"
                                         f"Missing keys in the actual mapping: {sorted(missing)}\n"
                                         "Additional keys in the actual mapping: "
                                         f"{sorted(additional)}", path)
    keys = list(actual)
    try:
        keys = sorted(keys)  # deterministic: the first failure is the first key's
    except TypeError:
        pass
    return [pair for key in keys
            for pair in _originate_pairs(actual[key], expected[key], options, path + (key,))]


def _tolerances(dtype_names, options, path):
    """The given tolerances, or the loosest defaults of the compared dtypes."""
    rtol, atol = options["rtol"], options["atol"]
    if (rtol is None) != (atol is None):
        raise _ErrorMeta(ValueError, "Both 'rtol' and 'atol' must be either specified or "
                                     f"omitted, but got no {'rtol' if rtol is None else 'atol'}.",
                         path)
    if rtol is not None:
        return rtol, atol
    return _default_tolerances(dtype_names, _TOLERANCES)


def _default_tolerances(dtype_names, table):
    rtols, atols = zip(*(table.get(name, (0.0, 0.0)) for name in dtype_names))
    return max(rtols), max(atols)


class _Pair:
    def __init__(self, actual, expected, path):
        self.actual, self.expected, self.path = actual, expected, path

    def fail(self, message, kind=AssertionError):
        raise _ErrorMeta(kind, message, self.path)


class _NonePair(_Pair):
    def __init__(self, actual, expected, options, path):
        if actual is not None and expected is not None:
            raise _Unsupported
        super().__init__(actual, expected, path)

    def compare(self):
        if not (self.actual is None and self.expected is None):
            self.fail(f"None mismatch: {self.actual} is not {self.expected}")


class _BooleanPair(_Pair):
    def __init__(self, actual, expected, options, path):
        if not all(isinstance(v, (bool, np.bool_)) for v in (actual, expected)):
            raise _Unsupported
        # PyTorch reports no item location for booleans: its pair drops it
        super().__init__(bool(actual), bool(expected), ())

    def compare(self):
        if self.actual is not self.expected:
            self.fail(f"Booleans mismatch: {self.actual} is not {self.expected}")


class _NumberPair(_Pair):
    _DTYPE_NAMES = {int: "int64", float: "float64", complex: "complex128"}

    def __init__(self, actual, expected, options, path):
        if not all(isinstance(v, (int, float, complex, np.number)) for v in (actual, expected)):
            raise _Unsupported
        actual, expected = (v.item() if isinstance(v, np.number) else v
                            for v in (actual, expected))
        super().__init__(actual, expected, path)
        names = [self._DTYPE_NAMES.get(type(v), "int64") for v in (actual, expected)]
        self.rtol, self.atol = _tolerances(names, options, path)
        self.equal_nan, self.check_dtype = options["equal_nan"], options["check_dtype"]

    def compare(self):
        actual, expected = self.actual, self.expected
        if self.check_dtype and type(actual) is not type(expected):
            self.fail(f"The (d)types do not match: {type(actual)} != {type(expected)}.")
        if actual == expected or \
                self.equal_nan and cmath.isnan(actual) and cmath.isnan(expected):
            return
        difference = abs(actual - expected)
        if cmath.isfinite(difference) and difference <= self.atol + self.rtol * abs(expected):
            return
        self.fail(_scalar_message(actual, expected, self.rtol, self.atol))


class _TensorLikePair(_Pair):
    def __init__(self, actual, expected, options, path):
        related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
        if not related or not options["allow_subclasses"] and type(actual) is not type(expected):
            raise _Unsupported
        super().__init__(_as_tensor(actual), _as_tensor(expected), path)
        self.rtol, self.atol = _tolerances([t.dtype.name for t in (self.actual, self.expected)],
                                           options, path)
        self.options = options

    def compare(self):
        self._compare_attributes()
        actual, expected = self.actual, self.expected
        if actual.dtype != expected.dtype:
            common = dtypes.promote_types(*(_signed_for_promotion(t.dtype)
                                            for t in (actual, expected)))
            actual, expected = actual.to(common), expected.to(common)
        a, e = actual.detach().numpy(), expected.detach().numpy()
        matches = _isclose(a, e, self.rtol, self.atol, self.options["equal_nan"])
        if matches.all():
            return
        if not a.ndim:
            self.fail(_scalar_message(a.item(), e.item(), self.rtol, self.atol))
        self.fail(_tensor_message(a, e, matches, self.rtol, self.atol))

    def _compare_attributes(self):
        actual, expected, options = self.actual, self.expected, self.options
        checks = [("shape", True, lambda t: t.shape)]
        if actual.layout != expected.layout:
            checks.append(("layout", options["check_layout"], lambda t: t.layout))
        else:
            checks.append(("stride()", options["check_stride"], lambda t: t.stride()))
        checks += [("device", options["check_device"], lambda t: t.device),
                   ("dtype", options["check_dtype"], lambda t: t.dtype)]
        for name, enabled, attribute in checks:
            if enabled and attribute(actual) != attribute(expected):
                self.fail(f"The values for attribute '{name}' do not match: "
                          f"{attribute(actual)} != {attribute(expected)}.")


def _as_tensor(value):
    if isinstance(value, Tensor):
        return value
    try:
        return ops.as_tensor(value)
    except Exception:
        raise _Unsupported from None


def _signed_for_promotion(dtype):
    """The wide unsigned types, which PyTorch does not promote, compare as int64."""
    return dtypes.int64 if dtype.name in ("uint16", "uint32", "uint64") else dtype


def _isclose(a, e, rtol, atol, equal_nan):
    """PyTorch's isclose: equal, or (both NaN with ``equal_nan``), or a finite difference within
    ``atol + |rtol * e|``, computed in the values' type (integers and booleans: the default
    floating type)."""
    matches = np.asarray(a == e)
    if equal_nan and a.dtype.kind in "fc":
        matches = matches | (np.isnan(a) & np.isnan(e))
    if rtol == 0 and atol == 0:
        return matches
    if a.dtype.kind not in "fc":
        real = dtypes.get_default_dtype().numpy
        a, e = a.astype(real), e.astype(real)
    with np.errstate(invalid="ignore", over="ignore"):
        allowed = np.abs(e * a.dtype.type(rtol)) + np.abs(a.dtype.type(atol))
        difference = np.abs(a - e)
        return matches | (np.isfinite(difference) & (difference <= allowed))


# ------------------------------------------------------------------ failure messages


def _scalar_message(actual, expected, rtol, atol):
    difference = abs(actual - expected)
    relative = math.inf if expected == 0 else difference / abs(expected)
    return _message("Scalars", f"Expected {expected} but got {actual}.", rtol, atol,
                    ("Absolute difference", difference), ("Relative difference", relative))


def _message(identifier, extra, rtol, atol, absolute, relative):
    equality = rtol == 0 and atol == 0
    lines = [f"{identifier} are not {'equal' if equality else 'close'}!", "", extra]
    for (label, value), tolerance in ((absolute, atol), (relative, rtol)):
        lines.append(f"{label}: {value}" + ("" if equality else f" (up to {tolerance} allowed)"))
    return "\n".join(lines)


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
    return _message("Tensor-likes",
                    f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})",
                    rtol, atol, *stats)


# ------------------------------------------------------------------ make_tensor


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False,
                noncontiguous=False, exclude_zero=False, memory_format=None):
    """A tensor of ``shape`` with values drawn uniformly from [low, high) (defaults: bool [0, 2),
    integers [-9, 10), floats and complex parts [-9, 9)), bounds clamped to the dtype's range;
    PyTorch's checks of the arguments."""
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    dtype = dtypes.as_dtype(dtype)
    inexact = dtype.is_floating_point or dtype.is_complex
    if noncontiguous and memory_format is not None:
        raise ValueError("The parameters `noncontiguous` and `memory_format` are mutually "
                         f"exclusive, but got noncontiguous={noncontiguous!r} and "
                         f"memory_format={memory_format!r}")
    if requires_grad and not inexact:
        raise ValueError("`requires_grad=True` is not supported for boolean and integral "
                         f"dtypes, but got dtype={dtype!r}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:  # twice as wide, so that the strided view skips distinct values
        shape = (*shape[:-1], 2 * shape[-1])
    result = (_uniform if inexact else _integers)(shape, dtype, device, low, high)
    if noncontiguous:
        result = result[..., 1::2]  # offset by one to also catch offset bugs
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = dtypes.finfo(dtype).tiny if inexact else 1
    if inexact:
        result.requires_grad = requires_grad
    return result


def _integers(shape, dtype, device, low, high):
    if dtype is dtypes.bool:
        lowest, highest = 0, 2
        low, high = _checked_bounds(dtype, low, high, lowest, highest, 0, 2)
    else:
        info = dtypes.iinfo(dtype)
        # randint's bounds are int64: int64's own maximum cannot be drawn
        lowest, highest = info.min, info.max + (dtype is not dtypes.int64)
        low, high = _checked_bounds(dtype, low, high, lowest, highest, -9, 10)
    # ceiled: no value below ``low``; ``high`` is exclusive
    return ops.randint(math.ceil(low), math.ceil(high), shape, device=device).to(dtype)


def _uniform(shape, dtype, device, low, high):
    info = dtypes.finfo(dtype)
    low, high = _checked_bounds(dtype, low, high, info.min, info.max, -9, 9)
    part = dtypes.finfo(dtype).dtype if dtype.is_complex else dtype
    draw_shape = (*shape, 2) if dtype.is_complex else shape
    # a range wider than the dtype's maximum is drawn at half scale, then doubled
    scale = 2 if high - low >= info.max else 1
    values = ops.rand(draw_shape, dtype=dtypes.as_dtype(part), device=device) * \
        (high / scale - low / scale) + low / scale
    values = values * scale if scale != 1 else values
    return ops.view_as_complex(values) if dtype.is_complex else values


def _checked_bounds(dtype, low, high, lowest, highest, default_low, default_high):
    """``low`` and ``high`` (or the defaults), refused as PyTorch refuses them, then clamped to
    [lowest, highest]."""
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(value, float) and math.isnan(value) for value in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low!r} and high={high!r}")
    if low == high and (dtype.is_floating_point or dtype.is_complex):
        warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or complex "
                      "types is deprecated since 2.1 and will be removed in 2.3. Use "
                      "`torch.full(...)` instead.", FutureWarning, stacklevel=4)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, {high}), "
                         f"but {dtype} only supports [{lowest}, {highest})")
    return min(max(low, lowest), highest), min(max(high, lowest), highest)
