"""Turning user arguments into tensors of one dtype, following PyTorch's promotion rules."""
import functools
import numbers

import numpy as np

from .. import dtypes
from ..tensor import Tensor

__all__ = ["as_tensor_operand", "is_operand", "not_a_tensor", "promote",
           "promote_with_scalar_operand", "half_opmath_scalar", "tensor_operands", "cast_operand",
           "refuse_complex", "scalar_tensor", "broadcast_error", "CPP_TYPE_NAMES",
           "checked_number", "type_name", "with_overloads", "check_overloads", "TENSORS_ONLY",
           "NUMBER_OTHER", "NUMBER_EITHER"]

# How PyTorch's C++ spells each dtype, which some of its messages print ("float != double").
CPP_TYPE_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double",
                  "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int",
                  "uint8": "unsigned char", "bool": "bool", "complex64": "c10::complex<float>",
                  "complex128": "c10::complex<double>"}


_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class defined in Python


def type_name(kind):
    """A type's name as CPython's and PyTorch's C++ messages print it (its ``tp_name``): with its
    module for a type defined in C outside the builtins (``numpy.ndarray``, ``numpy.float32``),
    bare for the builtins and for classes defined in Python (``list``, ``Tensor``)."""
    if kind.__module__ == "builtins" or kind.__flags__ & _HEAP_TYPE:
        return kind.__name__
    return f"{kind.__module__}.{kind.__name__}"


def scalar_tensor(value, dtype):
    """A Python number as a 0-d tensor that needs no grad (what PyTorch calls a wrapped number)."""
    return wrapped_number(value, dtype.numpy)


_wrapped = {}  # (type, value, numpy dtype) -> read-only 0-d tensor, shared by every op using it


def _marked_wrapped(tensor):
    """A Python number as an operand: saved for backward without saved-tensor hooks, as PyTorch
    saves a wrapped number (``x * 2`` packs nothing)."""
    tensor._wrapped_number = True
    return tensor


def wrapped_number(value, np_dtype):
    """A cached read-only 0-d tensor for ``value``: ``x * 2`` in a loop makes no new array.

    Zeros and NaNs bypass the cache: ``-0.0 == 0.0`` would share one entry (losing the sign) and
    ``nan != nan`` would never hit. A Python int out of the dtype's range wraps around, as in
    PyTorch (``uint8_tensor + -1`` adds 255).
    """
    if value == 0 or value != value:
        return _marked_wrapped(Tensor._make(_number_array(value, np_dtype)))
    key = (type(value), value, np_dtype)
    tensor = _wrapped.get(key)
    if tensor is None:
        if len(_wrapped) >= 4096:
            _wrapped.clear()
        array = _number_array(value, np_dtype)
        array.flags.writeable = False
        tensor = _wrapped[key] = _marked_wrapped(Tensor._make(array))
    return tensor


_INT64_MIN, _UINT64_MAX = -(1 << 63), (1 << 64) - 1


def check_scalar_int(value):
    """PyTorch reads a Python int argument as an int64, else as a uint64, whatever the tensor's
    dtype: one fitting neither is an OverflowError with CPython's words."""
    if type(value) is int and not _INT64_MIN <= value <= _UINT64_MAX:
        raise OverflowError("can't convert negative int to unsigned" if value < 0
                            else "int too big to convert")


def _number_array(value, np_dtype):
    """``value`` as a 0-d array of ``np_dtype``, wrapping an integer out of its range.

    A Python int is first read as PyTorch reads a Scalar (``check_scalar_int``)."""
    check_scalar_int(value)
    try:
        return np.array(value, dtype=np_dtype)
    except OverflowError:
        return np.array(value).astype(np_dtype)


# The names PyTorch's checked scalar conversion gives the C++ types in its overflow message.
_SCALAR_TYPE_NAMES = {**CPP_TYPE_NAMES, "int8": "int8_t", "int16": "int16_t", "int64": "int64_t",
                      "uint8": "uint8_t"}


def checked_number(value, np_dtype):
    """``value`` as a Python number that fits ``np_dtype``, converted as PyTorch converts a number
    argument (``fill_``, ``clamp``'s bounds, ``where``'s values): a value out of the dtype's range
    is an error, not wrapped as in arithmetic, except that a negative integer down to ``-max``
    wraps into an unsigned dtype (``fill_(-1)`` gives 255); a float truncates towards zero into an
    integer dtype; infinities fit a floating dtype, NaN no integer one."""
    check_scalar_int(value)
    kind = np_dtype.kind
    if kind == "b":
        return bool(value)
    if kind == "c":
        return value
    if isinstance(value, (complex, np.complexfloating)):
        if value.imag == 0:  # PyTorch takes a complex number with no imaginary part
            return checked_number(value.real, np_dtype)
        raise RuntimeError(f"value cannot be converted to type {_SCALAR_TYPE_NAMES[np_dtype.name]}"
                           " without overflow")
    low, high = _limits(np_dtype)
    if kind == "f":
        if low <= value <= high or value != value or abs(value) == _INF:
            return value
    elif isinstance(value, (int, np.integer)):  # a bool is an int: it always fits
        if (-high if kind == "u" else low) <= value <= high:
            return int(value) % (high + 1) if value < 0 and kind == "u" else int(value)
    elif low <= value <= high:  # a float (NaN compares false: it does not fit)
        return int(value)
    raise RuntimeError(f"value cannot be converted to type {_SCALAR_TYPE_NAMES[np_dtype.name]} "
                       "without overflow")


_INF = float("inf")


@functools.cache
def _limits(np_dtype):
    """The lowest and highest value of a numeric dtype, as Python numbers."""
    info = np.finfo(np_dtype) if np_dtype.kind == "f" else np.iinfo(np_dtype)
    return info.min.item() if np_dtype.kind == "f" else int(info.min), \
        info.max.item() if np_dtype.kind == "f" else int(info.max)


def refuse_complex(input, message=None, *, kernel=None, error=RuntimeError):
    """PyTorch's refusal of a complex tensor by an operation on real numbers only: ``message``,
    or its CPU ``kernel``'s NotImplementedError."""
    if input._array.dtype.kind == "c":
        if kernel is not None:
            raise NotImplementedError(f'"{kernel}" not implemented for '
                                      f"'{dtypes.SCALAR_TYPE_NAMES[input._array.dtype.name]}'")
        raise error(message)


def is_operand(value):
    """Whether ``value`` is a tensor or a number (what a binary operation takes)."""
    return isinstance(value, (Tensor, numbers.Number, np.generic))


def as_tensor_operand(value):
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (numbers.Number, np.generic)):
        return scalar_tensor(value, dtypes.result_type(value))
    # a numpy array too, as in PyTorch: ``t += array`` is then numpy's business (see ``promote``)
    raise TypeError(f"expected a Tensor or a number, got {type_name(type(value))}")


def not_a_tensor(name, argument, position, value):
    """PyTorch's TypeError for ``value`` where ``name`` takes a tensor: ``position`` counts
    the arguments as the call passes them (a method's ``self`` is not one)."""
    return TypeError(f"{name}(): argument '{argument}' (position {position}) must be Tensor, "
                     f"not {type_name(type(value))}")


def check_tensor_elements(values, argument=0):
    """PyTorch's parser's TypeError for a non-tensor inside a list-of-tensors argument (its
    ``argument``-th)."""
    for element, value in enumerate(values):
        if not isinstance(value, Tensor):
            raise TypeError(f"expected Tensor as element {element} in argument {argument}, but "
                            f"got {type_name(type(value))}")


# The overloads PyTorch's parser lists for a binary function: of two tensors only (``atan2``),
# also with a number on the right (``eq``), or on either side but not both (``bitwise_and``).
_TWO_TENSORS = "Tensor input, Tensor other, *, Tensor out = None"
TENSORS_ONLY = (_TWO_TENSORS,)
NUMBER_OTHER = (_TWO_TENSORS, "Tensor input, Number other, *, Tensor out = None")
NUMBER_EITHER = (_TWO_TENSORS, "Number self, Tensor other",
                 "Tensor input, Number other, *, Tensor out = None")


def with_overloads(function, overloads, name=None):
    """The binary ``function`` refusing operands none of PyTorch's ``overloads`` takes (a
    number where only a tensor may stand, a list, None) with its parser's TypeError, which
    names the function ``name`` (an alias: ``greater``) or its own."""
    taken = _operand_kinds(overloads)
    number_other = ("Tensor", "Number") in taken

    @functools.wraps(function)  # its ``primitive`` too, for the in-place forms
    def op(input, other):
        # the common calls (two tensors, ``x > 0``) pass the first test, at little cost
        if not (isinstance(input, Tensor) and (isinstance(other, Tensor) or (
                number_other and type(other) in _PYTHON_NUMBERS))) and \
                (_operand_kind(input), _operand_kind(other)) not in taken:
            _refuse(op.__name__, overloads, input, other)
        return function(input, other)
    op.__name__ = name or function.__name__
    return op


def check_overloads(name, overloads, input, other, kwargs=None):
    """PyTorch's parser's TypeError for the first two operands of ``name`` when none of its
    ``overloads`` takes them (``kwargs``: the call's other arguments given by name)."""
    kinds = (_operand_kind(input), _operand_kind(other))
    if kinds != ("Tensor", "Tensor") and kinds not in _operand_kinds(overloads):
        _refuse(name, overloads, input, other, kwargs)


def _refuse(name, overloads, input, other, kwargs=None):
    from .signatures import invalid_combination
    raise invalid_combination(name, [input, other], kwargs or {}, overloads)


def _operand_kinds(overloads):
    """The (first, second) parameter kinds of each overload: ``("Number", "Tensor")`` …"""
    kinds = _KINDS.get(overloads)
    if kinds is None:
        kinds = _KINDS[overloads] = frozenset(
            tuple(parameter.split(" ", 1)[0] for parameter in overload.split(", ")[:2])
            for overload in overloads)
    return kinds


_KINDS = {}  # overloads -> _operand_kinds (a dictionary lookup costs a third of a cache's)


_PYTHON_NUMBERS = frozenset((int, float, bool, complex))


def _operand_kind(value):
    """How an overload's parameter names what ``value`` can be passed as."""
    if isinstance(value, Tensor):
        return "Tensor"
    if type(value) in _PYTHON_NUMBERS or isinstance(value, (numbers.Number, np.generic)):
        return "Number"
    return None


def tensor_operands(name, input, other):
    """``(input, other)`` promoted, for the binary functions PyTorch defines for two tensors
    only (``maximum``, ``fmax``): a Python number is PyTorch's TypeError there."""
    if not isinstance(input, Tensor):
        raise not_a_tensor(name, "input", 1, input)
    if not isinstance(other, Tensor):
        raise not_a_tensor(name, "other", 2, other)
    return promote(input, other)


def promote(a, b):
    """Two operands as tensors of their common dtype.

    The common cases take a fast path: two tensors of one dtype, and a float tensor with a Python
    number. Everything else goes through ``dtypes.result_type`` and a differentiable cast.
    """
    a_is_tensor, b_is_tensor = isinstance(a, Tensor), isinstance(b, Tensor)
    if a_is_tensor and b_is_tensor:
        if a._array.dtype is b._array.dtype or a._array.dtype == b._array.dtype:
            return a, b
    elif a_is_tensor and type(b) in (float, int) and a._array.dtype.kind == "f":
        return a, wrapped_number(b, a._array.dtype)
    elif b_is_tensor and type(a) in (float, int) and b._array.dtype.kind == "f":
        return wrapped_number(a, b._array.dtype), b
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        # Not a tensor nor a number, as in PyTorch: ``t + array`` gets NotImplemented from the
        # tensor's operator, and numpy computes ``array + t`` (or refuses it, deferring to the
        # tensor's higher ``__array_priority__``).
        position, value = (1, a) if isinstance(a, np.ndarray) else (2, b)
        raise TypeError(f"argument '{'input' if position == 1 else 'other'}' (position "
                        f"{position}) must be Tensor, not {type_name(type(value))}")
    result = dtypes.result_type(a, b)
    return cast_operand(a, result), cast_operand(b, result)


_HALF = np.dtype(np.float16)
_FLOAT = np.dtype(np.float32)
_DOUBLE = np.dtype(np.float64)


def same_float_tensors(a, b):
    """Whether ``a`` and ``b`` are plain tensors of one float32 or float64 dtype: the operands
    of nearly every arithmetic call, which need no checks, promotion or opmath scalar."""
    if type(a) is not Tensor or type(b) is not Tensor:
        return False
    dtype = a._array.dtype
    return dtype is b._array.dtype and (dtype is _FLOAT or dtype is _DOUBLE)


def promote_with_scalar_operand(tensor, other):
    """``promote`` for ``mul``/``div``, whose CPU kernels read a scalar second operand of a
    float16 tensor in float32 (PyTorch's "opmath"), with its own value: ``x * 0.1`` multiplies by
    float32(0.1), not float16(0.1), and rounds once (a third of float16 results differed). The
    scalar stays a float32 operand; the primitive rounds its result to float16."""
    if isinstance(tensor, Tensor) and tensor._array.dtype is _HALF:
        scalar = half_opmath_scalar(tensor, other)
        if scalar is not None:
            return tensor, scalar
    return promote(tensor, other)


def half_opmath_scalar(tensor, other):
    """``other`` as the float32 scalar a float16 ``tensor``'s kernel reads it as, or None when
    it is not such a scalar: a Python number, or a 0-d real tensor that needs no gradient (one
    that does keeps the cast that carries its gradient back in its own dtype) and leaves the
    result float16 (a 0-d float tensor beside a 0-d ``tensor`` promotes it)."""
    if tensor._array.dtype is not _HALF:
        return None
    if type(other) in (float, int):
        return wrapped_number(other, _FLOAT)
    if isinstance(other, Tensor) and other._wrapped_number:
        return other  # a number the forward took (a backward rule's saved ``2.0``): still one
    if (isinstance(other, Tensor) and other._array.ndim == 0 and not other._requires_grad
            and (other._array.dtype.kind in "biu" or
                 (other._array.dtype.kind == "f" and tensor._array.ndim))):
        return other if other._array.dtype is _FLOAT else wrapped_number(other.item(), _FLOAT)
    return None


def cast_operand(value, dtype):
    """A tensor or number as a tensor of ``dtype`` (a differentiable cast for tensors)."""
    if not isinstance(value, Tensor):
        if not isinstance(value, (numbers.Number, np.generic)):
            raise TypeError(f"unsupported operand type: {type(value).__name__}")
        return scalar_tensor(value, dtype)
    if value._array.dtype == dtype.numpy:
        return value
    from .elementwise import to_dtype
    return to_dtype(value, dtype)


def broadcast_error(inputs, params):
    """PyTorch's message for shapes that do not broadcast: the inputs' shapes are broadcast in
    order, and the first one that does not fit the shape so far is named with it."""
    shapes = [t._array.shape for t in inputs]
    a = shapes[0]
    for b in shapes[1:]:
        for i in range(1, max(len(a), len(b)) + 1):
            sa = a[-i] if i <= len(a) else 1
            sb = b[-i] if i <= len(b) else 1
            if sa != sb and sa != 1 and sb != 1:
                return (f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) at "
                        f"non-singleton dimension {max(len(a), len(b)) - i}")
        a = np.broadcast_shapes(a, b)
    return f"shapes {list(shapes[0])} and {list(shapes[1])} are not broadcastable"
