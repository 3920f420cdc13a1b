"""Tensor element types and PyTorch's type-promotion rules.

A ``dtype`` wraps a numpy dtype. Its repr reads ``torch.float32`` on purpose: tapegrad is used as
``import tapegrad as torch``, and programs written for PyTorch print their dtypes.
"""
import builtins

import numpy as np

__all__ = [
    "dtype", "float16", "half", "float32", "float", "float64", "double", "int8", "int16", "short",
    "int32", "int", "int64", "long", "uint8", "uint16", "uint32", "uint64", "bool", "bfloat16",
    "complex32", "chalf", "complex64", "cfloat", "complex128", "cdouble",
    "get_default_dtype", "set_default_dtype",
    "as_dtype", "promote_types", "result_type", "can_cast", "finfo", "iinfo",
]

# Categories order the kinds of number: a value of a higher category wins a promotion.
_BOOL, _INT, _FLOAT, _COMPLEX = 0, 1, 2, 3


class dtype:
    """An element type: a numpy dtype plus the facts autograd asks about it."""

    __slots__ = ("name", "numpy", "is_floating_point", "is_complex", "is_signed", "itemsize",
                 "_category")
    __module__ = "torch"  # ``type(torch.float32)`` prints as in PyTorch (pickled by name)

    def __init__(self, name, numpy_dtype):
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.is_floating_point = self.numpy.kind == "f"
        self.is_complex = self.numpy.kind == "c"
        self.is_signed = self.numpy.kind in "fic"
        self.itemsize = self.numpy.itemsize
        self._category = {"b": _BOOL, "u": _INT, "i": _INT, "f": _FLOAT,
                          "c": _COMPLEX}[self.numpy.kind]

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return (as_dtype, (self.name,))

    def to_complex(self):
        """The complex dtype with this floating dtype's parts (itself if complex); PyTorch has
        none for an integer or bool dtype. bfloat16 maps to complex64, as in PyTorch."""
        if self.is_complex:
            return self
        if not self.is_floating_point:
            raise RuntimeError(f"Unknown Complex ScalarType for {SCALAR_TYPE_NAMES[self.name]}")
        return complex64 if self is bfloat16 else complex_of(self)

    def to_real(self):
        """The dtype of a complex dtype's parts; any other dtype is its own real type."""
        return real_of(self)


float16 = half = dtype("float16", np.float16)
float32 = float = dtype("float32", np.float32)
float64 = double = dtype("float64", np.float64)
int8 = dtype("int8", np.int8)
int16 = short = dtype("int16", np.int16)
int32 = int = dtype("int32", np.int32)
int64 = long = dtype("int64", np.int64)
uint8 = dtype("uint8", np.uint8)
uint16 = dtype("uint16", np.uint16)
uint32 = dtype("uint32", np.uint32)
uint64 = dtype("uint64", np.uint64)
bool = dtype("bool", np.bool_)


complex64 = cfloat = dtype("complex64", np.complex64)
complex128 = cdouble = dtype("complex128", np.complex128)


class _StorageOnlyDtype(dtype):
    """A dtype of PyTorch's that tapegrad cannot compute in (bfloat16 and complex32, which numpy
    lacks): it exists, so that code naming it (``{'bfloat16': torch.bfloat16, ...}[name]``,
    ``torch.finfo(torch.bfloat16).min``) runs, but no tensor can hold it."""

    __slots__ = ("_why", "_limits")

    def __init__(self, name, itemsize, why, complex=False, limits=None):
        for slot, value in (("name", name), ("is_floating_point", not complex),
                            ("is_complex", complex), ("is_signed", True), ("itemsize", itemsize),
                            ("_category", _COMPLEX if complex else _FLOAT), ("_why", why),
                            ("_limits", limits)):
            object.__setattr__(self, slot, value)

    @property
    def numpy(self):
        raise TypeError(f"tapegrad cannot compute in {self!r}: {self._why}")


# bfloat16's limits, for torch.finfo: an 8-bit significand with float32's exponent range
_BFLOAT16_LIMITS = {"bits": 16, "eps": 0.0078125, "max": 3.3895313892515355e+38,
                    "smallest_normal": 1.1754943508222875e-38, "resolution": 0.01}
bfloat16 = _StorageOnlyDtype("bfloat16", 2, "numpy has no such type (use torch.float32)",
                             limits=_BFLOAT16_LIMITS)
complex32 = chalf = _StorageOnlyDtype("complex32", 4, "numpy has no such type (use "
                                     "torch.complex64)", complex=True)
_COMPLEX_PARTS = {complex32: float16, complex64: float32, complex128: float64}
_COMPLEX_OF = {part: whole for whole, part in _COMPLEX_PARTS.items()}

_ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool,
        complex64, complex128)
# PyTorch's ScalarType names, as its messages spell dtypes.
SCALAR_TYPE_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char",
                      "int16": "Short", "int32": "Int", "int64": "Long", "uint8": "Byte",
                      "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64", "bool": "Bool",
                      "complex64": "ComplexFloat", "complex128": "ComplexDouble",
                      "bfloat16": "BFloat16", "complex32": "ComplexHalf"}
# The unsigned types beyond uint8, which PyTorch 2 stores but does not promote with other integers.
_BARELY_SUPPORTED = (uint16, uint32, uint64)
_BY_NUMPY = {d.numpy: d for d in _ALL}
_BY_NAME = {d.name: d for d in _ALL}
_BY_NAME.update(half=float16, float=float32, double=float64, short=int16, int=int32, long=int64,
                bfloat16=bfloat16, complex32=complex32, chalf=complex32, cfloat=complex64,
                cdouble=complex128)

_default_float = float32


def get_default_dtype():
    return _default_float


def default_complex_dtype():
    """The complex dtype a Python complex number takes: the default float's complex type."""
    return _COMPLEX_OF[_default_float]


def complex_of(d):
    """The complex dtype with parts of the floating dtype ``d`` (float64: complex128)."""
    return _COMPLEX_OF[d]


def real_of(d):
    """The floating dtype of a complex dtype's parts (complex64: float32); ``d`` if real."""
    return _COMPLEX_PARTS.get(d, d)


def set_default_dtype(d):
    global _default_float
    d = as_dtype(d)
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float = d


def as_dtype(spec):
    """Accept a tapegrad dtype, a numpy dtype or type, a Python type, or a name."""
    if isinstance(spec, dtype):
        return spec
    if spec is builtins.float:  # a Python float is a double, whatever the default dtype
        return float64
    if spec is builtins.int:
        return int64
    if spec is builtins.bool:
        return bool
    if isinstance(spec, str) and spec in _BY_NAME:
        return _BY_NAME[spec]
    try:
        return _BY_NUMPY[np.dtype(spec)]
    except (TypeError, KeyError):
        raise TypeError(f"tapegrad has no dtype for {spec!r}") from None


def from_numpy_dtype(np_dtype):
    """The tapegrad dtype of a numpy array, or a TypeError naming the unsupported type."""
    try:
        return _BY_NUMPY[np_dtype]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).type.__name__}. The "
            "only supported types are: float64, float32, float16, complex64, complex128, int64, "
            "int32, int16, int8, uint64, uint32, uint16, uint8, and bool."  # PyTorch's words
        ) from None


_PYTHON_NUMBER_TYPES = (builtins.bool, builtins.int, builtins.float, builtins.complex)


def _dtype_argument(function, argument, position, value):
    """``value`` read as PyTorch's parser reads a ``torch.dtype`` argument: a dtype, or one of
    Python's number types (``float`` is float64); anything else (a name, a numpy type) is its
    TypeError."""
    if isinstance(value, dtype):
        return value
    if any(value is kind for kind in _PYTHON_NUMBER_TYPES):
        return as_dtype(value)
    from .ops.operands import type_name
    raise TypeError(f"{function}(): argument '{argument}' (position {position}) must be "
                    f"torch.dtype, not {type_name(type(value))}")


def promote_types(type1, type2):
    """The smallest dtype both ``type1`` and ``type2`` convert to (PyTorch's table, via
    numpy's)."""
    a = _dtype_argument("promote_types", "type1", 1, type1)
    b = _dtype_argument("promote_types", "type2", 2, type2)
    if a is b:
        return a
    if a in _BARELY_SUPPORTED or b in _BARELY_SUPPORTED:
        return _promote_barely_supported(a, b)
    if a._category != b._category:
        higher, lower = (a, b) if a._category > b._category else (b, a)
        if higher._category == _COMPLEX and lower._category == _FLOAT:
            return complex_of(promote_types(real_of(higher), lower))  # float64, cfloat: cdouble
        return higher
    if type(a) is _StorageOnlyDtype or type(b) is _StorageOnlyDtype:
        return _promote_storage_only(a, b)
    return _BY_NUMPY[np.promote_types(a.numpy, b.numpy)]


def _promote_storage_only(a, b):
    """Two floating or two complex dtypes, one of them bfloat16 or complex32 (numpy has neither):
    complex ones promote by their parts; bfloat16 and float16, neither holding the other, meet
    in float32; a wider float holds bfloat16."""
    if a._category == _COMPLEX:
        return complex_of(promote_types(real_of(a), real_of(b)))
    if float16 in (a, b):
        return float32
    return b if a is bfloat16 else a


def _promote_barely_supported(a, b):
    """PyTorch promotes uint16/32/64 with a floating dtype only (to that floating dtype): with
    bool, another integer or a complex dtype it refuses."""
    for floating in (a, b):
        if floating.is_floating_point:
            return floating
    raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, "
                       f"attempted to promote {SCALAR_TYPE_NAMES[a.name]} and "
                       f"{SCALAR_TYPE_NAMES[b.name]}")


def can_cast(from_, to):
    """Whether PyTorch casts ``from_`` to ``to`` in an operation writing into ``to`` (never to a
    lower kind of number: float to int, int to bool)."""
    return (_dtype_argument("can_cast", "from_", 1, from_)._category
            <= _dtype_argument("can_cast", "to", 2, to)._category)


class _Limits:
    """What ``finfo`` and ``iinfo`` share: two of them are equal when they describe the same
    dtype (``finfo(complex64) == finfo(float32)``: a complex type's limits are its parts'), and
    like PyTorch's they are not hashable."""

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self.dtype == other.dtype

    def __hash__(self):
        raise TypeError(f"unhashable type: 'torch.{type(self).__name__}'")


class finfo(_Limits):
    """Machine limits of a floating dtype (the default dtype when none is given)."""

    __module__ = "torch"  # as PyTorch prints the class

    def __init__(self, type=None):
        type = get_default_dtype() if type is None else as_dtype(type)
        type = _COMPLEX_PARTS.get(type, type)  # a complex type's limits are its parts'
        if not type.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo "
                            "to handle 'torch.finfo'")
        limits = getattr(type, "_limits", None)
        if limits is None:
            info = np.finfo(type.numpy)
            limits = {"bits": info.bits, "eps": builtins.float(info.eps),
                      "max": builtins.float(info.max),
                      "smallest_normal": builtins.float(info.smallest_normal),
                      "resolution": 10.0 ** -info.precision}
        self.bits, self.dtype = limits["bits"], type.name
        self.eps, self.max, self.min = limits["eps"], limits["max"], -limits["max"]
        self.tiny = self.smallest_normal = limits["smallest_normal"]
        self.resolution = limits["resolution"]

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo(_Limits):
    """Limits of an integer dtype."""

    __module__ = "torch"  # as PyTorch prints the class

    def __init__(self, type):
        type = as_dtype(type)
        if type._category == _BOOL:
            raise TypeError(f"{type} is not supported by torch.iinfo")
        if type._category != _INT:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to "
                            "handle 'torch.iinfo'")
        info = np.iinfo(type.numpy)
        self.bits, self.max, self.min, self.dtype = info.bits, builtins.int(info.max), \
            builtins.int(info.min), type.name

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


def _scalar_category(value):
    """A Python or numpy number's kind, as PyTorch's argument parsing reads it: numpy integers
    are integers, and a numpy bool (not a Python bool) is read as a double."""
    if isinstance(value, builtins.bool):
        return _BOOL
    if isinstance(value, (builtins.int, np.integer)):
        return _INT
    if isinstance(value, (builtins.complex, np.complexfloating)):
        return _COMPLEX
    return _FLOAT


def _lifted(result, lower):
    """PyTorch's ``combine_categories`` for a lower tier of higher category: a complex lower
    tier keeps a floating result's width (float64 tensor * 1j is complex128)."""
    if lower._category == _COMPLEX and result is not None and result._category == _FLOAT:
        return complex_of(result)
    return lower


def result_type(*operands):
    """PyTorch's promotion of tensors and Python numbers.

    Three tiers take part: tensors with dimensions, zero-dim tensors, and Python numbers. A lower
    tier changes the result only when its category (bool < int < float < complex) is higher; a
    Python number then contributes the default dtype of its category rather than a width of its
    own. So
    ``int64 tensor * 1.5`` is float32 and ``float32 tensor * float64 0-dim tensor`` stays float32.
    """
    dimmed = zero_dim = scalar_category = None
    for operand in operands:
        d = getattr(operand, "dtype", None)
        if type(d) is dtype:
            if operand.ndim:
                dimmed = d if dimmed is None else promote_types(dimmed, d)
            else:
                zero_dim = d if zero_dim is None else promote_types(zero_dim, d)
        else:
            category = _scalar_category(operand)
            scalar_category = category if scalar_category is None else max(scalar_category, category)

    result = dimmed
    if zero_dim is not None and (result is None or zero_dim._category > result._category):
        result = _lifted(result, zero_dim)
    if scalar_category is not None and (result is None or scalar_category > result._category):
        if scalar_category == _COMPLEX:
            result = _lifted(result, default_complex_dtype())
        else:
            result = (bool, int64, _default_float)[scalar_category]
    return result
