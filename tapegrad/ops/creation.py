"""Making tensors: from data, filled, ranges, and random. None of these is recorded."""
import builtins
import functools
import math
import operator
import warnings

import numpy as np

from .. import dtypes, random
from ..memory_format import contiguous_format, copy_in, preserve_format
from ..autograd import grad_mode
from ..tensor import (_CPU, _DEFAULT_DEVICE, _DEVICE_CONTEXTS, _LEGACY_TYPE_NAMES, _META, Tensor,
                      _check_device, _make_meta)
from .operands import CPP_TYPE_NAMES, checked_number, not_a_tensor, type_name
from .._warnings import warn_at_caller

__all__ = ["tensor", "as_tensor", "from_numpy", "asarray", "zeros", "ones", "full", "empty",
           "empty_strided",
           "arange", "linspace", "logspace", "eye", "rand", "randn", "randint", "randperm",
           "normal", "zeros_like", "ones_like", "full_like", "empty_like", "rand_like",
           "randn_like", "randint_like", "scalar_tensor"]


def _finish(array, requires_grad, device=None):
    """The factories' common tail: the new tensor on ``device`` (the CPU or the meta device,
    by default that of an enclosing ``with torch.device(...)``; others are refused), marked for
    inference mode and made to require grad when asked."""
    if device is None:
        device = _DEVICE_CONTEXTS[-1] if _DEVICE_CONTEXTS else _DEFAULT_DEVICE[0]
    t = Tensor._make(array)
    if device is not _CPU and _check_device(device) == "meta":
        _make_meta(t)
    if grad_mode._state.inference:
        t._inference = True
    if requires_grad:
        if array.dtype.kind not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        t._requires_grad = True
    return t


def _checked_flag(name, requires_grad, none_means_false=False):
    """``requires_grad`` as PyTorch's argument parser takes it: a bool, checked before anything
    is allocated or drawn (the overloaded random and range factories also take None)."""
    if requires_grad.__class__ is bool:
        return requires_grad
    if requires_grad is None and none_means_false:
        return False
    raise TypeError(f"{name}(): argument 'requires_grad' must be bool, not "
                    f"{type_name(type(requires_grad))}")


def _size(args, name, size=None):
    """The shape a factory is given: ``f(2, 3)``, ``f((2, 3))``, ``f(torch.Size)`` or
    ``f(size=(2, 3))``, no dimension negative."""
    if size is not None:
        if args:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        args = (size,)
    if not args:  # a 0-d tensor is asked for with ``()``
        raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
    shape = int_list(args, name)
    for n in shape:
        if n < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {n}: {list(shape)}")
    return shape


def int_list(args, name, argument="size"):
    """PyTorch's reading of an ``int[]`` argument given as ``*args``: ``(2, 3)``, ``((2, 3),)``
    or a ``torch.Size``, each number an int or anything with ``__index__`` (numpy integers,
    integer tensors of one element); anything else refused in PyTorch's words."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = args[0]
        if args and _index(args[0]) is None:  # the parser reads the first to tell the overload
            raise TypeError(f"{name}(): argument '{argument}' (position 1) must be tuple of "
                            f"ints, but found element of type {type(args[0]).__name__} at pos 0")
    elif args and _index(args[0]) is None:
        if len(args) > 1:
            raise TypeError(f"{name}() takes 1 positional argument but {len(args)} were given")
        raise TypeError(f"{name}(): argument '{argument}' (position 1) must be tuple of ints, "
                        f"not {type(args[0]).__name__}")
    if all(type(s) is int for s in args):  # the common case, nothing to convert
        return tuple(args)
    numbers = []
    for position, s in enumerate(args, 1):
        n = _index(s)
        if n is None:
            raise TypeError(f"{name}(): argument '{argument}' failed to unpack the object at pos "
                            f"{position} with error \"type must be tuple of ints,but got "
                            f"{type(s).__name__}\"")
        numbers.append(n)
    return tuple(numbers)


def _index(value):
    """``value`` as an int when it stands for one (not a bool), else None."""
    if isinstance(value, builtins.bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _numpy_dtype(dtype, default=None):
    if dtype is None:
        return (default or dtypes.get_default_dtype()).numpy
    return dtypes.as_dtype(dtype).numpy


_FLOAT32_MAX = float(np.finfo(np.float32).max)  # floats within it fit either default dtype


def _infer_array(data, dtype=None):
    """``data`` as an array, with PyTorch's dtype: ``dtype`` if given; else a tensor's or an
    array's own, or for numbers and sequences the promotion of their elements' types (Python
    floats the default float dtype, ints int64, numpy scalars and tensors their own).

    Nested sequences are read as PyTorch's ``tensor_new.cpp`` reads them, with its messages: the
    shape follows the first element at each depth (``compute_sizes``), the dtype every element
    (``infer_scalar_type``), then each element is checked against the shape and the dtype
    (``recursive_store``). The data go straight to the target dtype, so that
    ``tensor([0.1], dtype=float64)`` keeps every digit, and integers that do not fit it are
    refused, as PyTorch refuses them.
    """
    if type(data) is float and dtype is None and -_FLOAT32_MAX <= data <= _FLOAT32_MAX:
        return np.array(data, dtype=dtypes.get_default_dtype().numpy)  # tensor(3.0), kept quick
    if isinstance(data, Tensor):
        return data._array
    if isinstance(data, np.ndarray):
        _check_numpy(data)
        return np.asarray(data)  # a subclass's (np.matrix …) data, without its own rules
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type_name(type(data))}'")
    if dtype is None:
        plain = _plain_numbers(data)
        if plain is not None:
            return plain
    sizes = _sizes(data)
    target = _numpy_dtype(dtype) if dtype is not None else _inferred_dtype(data)
    if 0 in sizes:
        return np.empty(sizes, target)
    if target == np.uint64:
        return _as_uint64(data)
    values = np.asarray(_stored(data, sizes, 0, target.kind) if sizes else _scalar_of(data, target.kind))
    if target.kind in "iub" and (values.dtype in (np.uint64, object) or
                                 dtype is None and values.dtype.kind == "f"):
        # numpy's types for Python ints beyond int64 (tapegrad takes no other uint64 or objects;
        # an inferred integer dtype means no float among the data)
        raise ValueError("Overflow when unpacking long long")
    if target.kind in "iu":
        _check_fits(values, target)
    with np.errstate(over="ignore"):  # a float beyond float32's range is inf there
        return values.astype(target, copy=False)


def _as_uint64(data):
    """Python numbers read as uint64, as PyTorch reads them: the whole range of ints, no
    wrapping, no floats."""
    values = np.array(data, dtype=object)
    for value in values.flat:
        if isinstance(value, (float, np.floating)):
            raise TypeError("an integer is required")
        if value < 0:
            raise OverflowError("can't convert negative int to unsigned")
        if value >= 2**64:
            raise OverflowError("int too big to convert")
    return values.astype(np.uint64)


def _plain_numbers(data):
    """The common case quickly: a list or tuple of Python numbers, or of equally long lists or
    tuples of them, as the array ``_infer_array`` would give (None for anything else, which then
    takes the general reader: its checks and messages)."""
    kind = type(data)
    if (kind is not list and kind is not tuple) or not data:
        return None
    nested = type(data[0]) is list or type(data[0]) is tuple
    if nested:
        width = len(data[0])
        if not width or any((type(row) is not list and type(row) is not tuple)
                            or len(row) != width for row in data):
            return None
        kinds = {type(x) for row in data for x in row}
    else:
        kinds = {type(x) for x in data}
    if not kinds <= _NUMBERS:
        return None
    if float in kinds:
        target = dtypes.get_default_dtype().numpy
        if target == np.float32 and not _fits_float32(data, nested):
            return None
    else:
        target = np.int64 if int in kinds else np.bool_
    try:
        return np.array(data, dtype=target)
    except OverflowError:  # an int beyond int64: refused by the general reader
        return None


def _fits_float32(data, nested):
    """Whether every number lies in float32's range (a NaN fails the comparisons too: the
    general reader then takes it, and stores what lies beyond as inf)."""
    low, high = (min(map(min, data)), max(map(max, data))) if nested else (min(data), max(data))
    return -_FLOAT32_MAX <= low <= high <= _FLOAT32_MAX


def is_sequence(value):
    """What PyTorch's ``PySequence_Check`` calls a sequence: lists, tuples, numpy arrays, strings,
    any class with ``__getitem__`` (deque, range ...) but mappings; tensors and numpy scalars count
    as numbers here."""
    kind = type(value)
    if kind is list or kind is tuple:
        return True
    if isinstance(value, (int, float, complex, Tensor, np.number, np.bool_, np.datetime64, dict)):
        return False  # an IntEnum or a datetime64 too, though their classes have ``__getitem__``
    return hasattr(kind, "__getitem__")


_NUMBERS = {float, int, builtins.bool}


def _sizes(data):
    """PyTorch's ``compute_sizes``: the lengths of ``data``, its first element, its first
    element's first element ... (a 0-d array among them has no length: ``len()``'s error)."""
    sizes = []
    while is_sequence(data):
        if isinstance(data, str):  # each character is a string again: no end
            raise ValueError("too many dimensions 'str'")
        if isinstance(data, np.ndarray) and data.ndim and data.dtype.kind in "biufc":
            sizes.extend(data.shape)  # its elements are numpy scalars: numbers
            break
        sizes.append(len(data))
        if not sizes[-1]:
            break
        data = data[0]
    return tuple(sizes)


def _inferred_dtype(data):
    """PyTorch's ``infer_scalar_type``: the promotion of the types of all the numbers in
    ``data`` (an array or a tensor counts with its dtype; an empty sequence is the default
    float dtype). Read level by level, one set of types per level, not one call per number."""
    found, level = set(), [data]
    while level:
        inner = []
        for kind in {type(x) for x in level}:
            if issubclass(kind, (np.generic, np.ndarray, Tensor)):  # np.float64 is a float too
                found.update(dtypes.from_numpy_dtype(x._array.dtype if isinstance(x, Tensor)
                                                     else x.dtype) for x in level if type(x) is kind)
            elif kind is builtins.bool:
                found.add(dtypes.bool)
            elif issubclass(kind, builtins.int):  # subclasses (IntEnum …) as their base type
                found.add(dtypes.int64)
            elif issubclass(kind, float):
                found.add(dtypes.get_default_dtype())
            elif issubclass(kind, complex):
                found.add(dtypes.default_complex_dtype())
            elif issubclass(kind, (str, bytes)):
                raise TypeError(f"new(): invalid data type '{type_name(kind)}'")
            elif is_sequence(next(x for x in level if type(x) is kind)):
                empty = False
                for x in level:
                    if type(x) is kind:
                        inner.extend(x)
                        empty = empty or not len(x)
                if empty:
                    found.add(dtypes.get_default_dtype())
            else:
                raise RuntimeError(f"Could not infer dtype of {type_name(kind)}")
        level = inner
    common = found.pop()
    for other in found:
        common = dtypes.promote_types(common, other)
    return common.numpy


def _stored(data, sizes, dim, kind):
    """PyTorch's ``recursive_store``, as checks: ``data`` (a sequence at depth ``dim``) as nested
    lists numpy can take, or PyTorch's error for the first element, depth first, that does not fit
    the shape or the dtype ``kind``. An array of the right shape is taken whole."""
    if isinstance(data, np.ndarray) and data.shape == sizes[dim:]:
        return data
    if type(data) is not list and type(data) is not tuple:
        try:
            data = list(data)
        except TypeError:
            raise TypeError("not a sequence") from None
    if len(data) != sizes[dim]:
        raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} "
                         f"(got {len(data)})")
    if dim + 1 < len(sizes):
        out = []
        for x in data:
            if isinstance(x, np.ndarray):
                _warn_list_of_arrays_is_slow()
            out.append(_stored(x, sizes, dim + 1, kind))
        return out
    if _NUMBERS.issuperset({type(x) for x in data}):
        return data
    return [_scalar_of(x, kind) for x in data]


def _scalar_of(x, kind):
    """One number of a sequence as PyTorch's ``store_scalar`` takes it into a dtype of ``kind``,
    refused in its words: a tensor must hold one element, an integer type takes integers and
    floats (truncated), a floating type anything with ``__float__`` or ``__index__``."""
    if isinstance(x, np.ndarray):
        _warn_list_of_arrays_is_slow()
    if isinstance(x, Tensor):
        if kind in "iub" and x._array.dtype.kind == "f" and x._array.size == 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        if x._array.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if kind in "fc" and x.requires_grad:
            float(x)  # PyTorch reads it with __float__, which warns about the lost history
        return x._array.reshape(())
    if kind in "iub":
        if not isinstance(x, float) and not (kind == "b" and isinstance(x, np.bool_)):
            operator.index(x)  # Python's own message: "'numpy.float32' object cannot be ..."
    elif kind in "fc" and not isinstance(x, complex):
        if not (hasattr(type(x), "__float__") or hasattr(type(x), "__index__")):
            raise TypeError(f"must be real number, not {type_name(type(x))}")
        if isinstance(x, np.ndarray):
            float(x)  # numpy's message for an array of more than one element
    return x


def _check_fits(values, target):
    """PyTorch's overflow check of numbers stored as integers: floats must lie in the type's
    range (nan and infinities never do); integers too, except that a negative one may wrap
    into an unsigned type (-1 is 255 in uint8)."""
    info = np.iinfo(target)
    if values.dtype.kind == "f":
        fits = np.isfinite(values) & (values >= info.min) & (values <= info.max)
    elif values.dtype.kind in "iu":
        fits = (values >= (-info.max if target.kind == "u" else info.min)) & (values <= info.max)
    else:
        return
    if not fits.all():
        raise RuntimeError(f"value cannot be converted to type {target.name} without overflow")


def _check_numpy(array):
    dtypes.from_numpy_dtype(array.dtype)  # refuses unsupported types with PyTorch's message
    if any(stride < 0 for stride in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors "
                         "with negative strides are not currently supported. (You can probably "
                         "work around this by making a copy of your array  with array.copy().) ")


@functools.cache
def _warn_list_of_arrays_is_slow():
    """Once per process, as PyTorch's TORCH_WARN_ONCE."""
    warn_at_caller("Creating a tensor from a list of numpy.ndarrays is extremely slow. Please "
                   "consider converting the list to a single numpy.ndarray with numpy.array() "
                   "before converting to a tensor.")


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of ``data`` (a number, nested sequence, array or tensor)."""
    requires_grad = _checked_flag("tensor", requires_grad)
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
            "or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
    array = _infer_array(data, dtype)
    array = np.array(array, dtype=None if dtype is None else _numpy_dtype(dtype), copy=True)
    return _finish(array, requires_grad, device)


def as_tensor(data, dtype=None, device=None):
    """Like ``tensor`` but shares memory with a numpy array or tensor of the same dtype; a
    tensor of another dtype is converted as ``data.to(dtype)`` (on the tape, ToCopyBackward0)."""
    meta = _check_device(device) == "meta"
    if isinstance(data, Tensor):
        return data.to(dtype=dtype, device=device) if dtype or device is not None else data
    array = _infer_array(data, dtype)
    if dtype is not None:
        array = array.astype(_numpy_dtype(dtype), copy=False)
    if array is data and not array.flags.writeable:
        _warn_not_writable()
    return _make_meta(Tensor._make(array)) if meta else Tensor._make(array)


asarray = as_tensor


def from_numpy(ndarray):
    """A tensor sharing ``ndarray``'s memory: changes to one show in the other."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type_name(type(ndarray))})")
    _check_numpy(ndarray)
    if not ndarray.flags.writeable:
        _warn_not_writable()
    return Tensor._make(np.asarray(ndarray))  # a subclass's (np.matrix …) data only


@functools.cache
def _warn_not_writable():
    """Once per process, as PyTorch warns. tapegrad keeps numpy's read-only flag, so a write
    through the tensor fails where PyTorch's would write."""
    warnings.warn("The given NumPy array is not writable, and PyTorch does not support "
                  "non-writable tensors. This means writing to this tensor will result in "
                  "undefined behavior. You may want to copy the array to protect its data or make "
                  "it writable before converting it to a tensor. This type of warning will be "
                  "suppressed for the rest of this program.", UserWarning, stacklevel=3)


def scalar_tensor(value, *, dtype=None, device=None, requires_grad=False):
    requires_grad = _checked_flag("scalar_tensor", requires_grad)
    return _finish(np.array(value, dtype=_numpy_dtype(dtype)), requires_grad, device)


def zeros(*args, size=None, dtype=None, device=None, requires_grad=False, out=None):
    requires_grad = _checked_flag("zeros", requires_grad)
    try:
        shape = _size(args, "zeros", size)
    except RuntimeError:
        raise RuntimeError("zeros: Dimension size must be non-negative.") from None
    return _finish(np.zeros(shape, dtype=_numpy_dtype(dtype)), requires_grad, device)


def ones(*args, size=None, dtype=None, device=None, requires_grad=False):
    requires_grad = _checked_flag("ones", requires_grad)
    return _finish(np.ones(_size(args, "ones", size), dtype=_numpy_dtype(dtype)), requires_grad,
                   device)


def empty(*args, size=None, dtype=None, device=None, requires_grad=False, memory_format=None):
    requires_grad = _checked_flag("empty", requires_grad)
    array = np.empty(_size(args, "empty", size), dtype=_numpy_dtype(dtype))
    if memory_format not in (None, contiguous_format):
        array = copy_in(array, memory_format)
    return _finish(array, requires_grad, device)


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=False):
    """An uninitialized tensor of ``size`` laid out with ``stride`` (in elements) over storage of
    just the size that layout needs, as PyTorch allocates it (not a view of another tensor)."""
    requires_grad = _checked_flag("empty_strided", requires_grad)
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality of "
                           f"strides ({len(stride)})")
    numpy_dtype = np.dtype(_numpy_dtype(dtype))
    extent = 0 if 0 in size else 1 + sum((n - 1) * s for n, s in zip(size, stride))
    storage = np.empty(extent, numpy_dtype)
    array = np.lib.stride_tricks.as_strided(
        storage, size, tuple(s * numpy_dtype.itemsize for s in stride))
    return _finish(array, requires_grad, device)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    requires_grad = _checked_flag("full", requires_grad)
    if dtype is None:
        dtype = dtypes.result_type(fill_value)
    return _finish(_filled(_size((size,), "full"), fill_value, _numpy_dtype(dtype)),
                   requires_grad, device)


def _filled(shape, value, d):
    """An array of ``shape`` holding ``value`` converted to ``d`` as PyTorch converts a fill
    value: refused when it does not fit, a negative integer wrapping into an unsigned type."""
    if isinstance(value, Tensor):
        value = value.item()
    _check_scalar_fits(value, d)
    with np.errstate(over="ignore"):  # beyond float16's range is inf there, as in PyTorch
        return np.full(shape, np.array(value).astype(d), dtype=d)


# The C++ types whose names PyTorch's overflow message of a fill value gives.
_C_TYPE_NAMES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int",
                 "int64": "int64_t", "float32": "float"}


def _check_scalar_fits(value, d):
    if type(value) is builtins.int and not -2**63 <= value < 2**64:
        raise OverflowError("int too big to convert")
    if isinstance(value, (builtins.bool, np.bool_)) or d.name not in _C_TYPE_NAMES:
        return
    if d.kind == "f":
        fits = not math.isfinite(value) or builtins.abs(value) <= float(np.finfo(d).max)
    elif isinstance(value, (float, np.floating)):
        info = np.iinfo(d)
        fits = math.isfinite(value) and info.min <= value <= info.max
    else:
        info = np.iinfo(d)
        fits = (-info.max if d.kind == "u" else info.min) <= value <= info.max
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {_C_TYPE_NAMES[d.name]} without "
                           "overflow")


def arange(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """``start, start + step, …`` short of ``end``, valued as PyTorch's CPU kernel values them."""
    requires_grad = _checked_flag("arange", requires_grad, none_means_false=True)
    if end is None:
        start, end = 0, start
    if dtype is None and type(start) is int and type(end) is int and type(step) is int \
            and step and (end - start) * step >= 0:  # the common case: Python ints, int64
        return _finish(np.arange(start, end, step, dtype=np.int64), requires_grad, device)
    start, end, step = (v.item() if isinstance(v, Tensor) else v for v in (start, end, step))
    d = _numpy_dtype(dtype or dtypes.result_type(start, end, step))
    if d == np.bool_ or d.kind == "c":
        raise NotImplementedError('"arange_cpu" not implemented for '
                                  f"'{dtypes.SCALAR_TYPE_NAMES[d.name]}'")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if d == np.int64:  # PyTorch's argument parsing truncates the bounds and the step
        start, end, step = (builtins.int(v) for v in (start, end, step))
        if step == 0:
            raise ValueError("step must be nonzero")
    if not all(np.isfinite(v) for v in (start, end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if d == np.int64:
        count = -(-(end - start) // step)
    else:
        count = builtins.int(np.ceil((float(end) - float(start)) / float(step)))
    if d.kind != "f":  # in int64 arithmetic from the truncated start and step, then cast
        values = builtins.int(start) + builtins.int(step) * np.arange(count, dtype=np.int64)
        return _finish(values.astype(d), requires_grad, device)
    return _finish(_arange_floats(float(start), float(step), count, d), requires_grad, device)


def _arange_floats(start, step, count, d):
    """PyTorch's float arange, bit for bit: in double precision, each vector of ``lanes``
    elements starts at ``fma(step, i, start)`` rounded to the output dtype and goes on by
    ``fma(k, step, base)``; the elements after the last pair of whole vectors are
    ``fma(step, i, start)`` each. (Its kernel runs on 256-bit vectors, two at a time.)"""
    lanes = 32 // d.itemsize
    index = np.arange(count, dtype=np.float64)
    vectorized = count - count % (2 * lanes)
    lane = index[:vectorized] % lanes
    base = _fma(step, index[:vectorized] - lane, start).astype(d).astype(np.float64)
    values = np.empty(count, d)
    values[:vectorized] = _fma(lane, step, base)
    values[vectorized:] = _fma(step, index[vectorized:], start)
    return values


def _fma(a, b, c):
    """``a * b + c`` with one rounding, in float64, as the fused multiply-adds of PyTorch's
    compiled kernels: Dekker's exact product, then a compensated sum."""
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    product = a * b
    a_high, a_low = _split(a)
    b_high, b_low = _split(b)
    product_error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
    total = product + c
    c_part = total - product
    sum_error = (product - (total - c_part)) + (c - c_part)
    return total + (sum_error + product_error)


def _split(x):
    """Veltkamp's split of float64 ``x`` into a high and a low half of 26 bits each."""
    scaled = x * 134217729.0  # 2**27 + 1
    high = scaled - (scaled - x)
    return high, x - high


def _ramp(start, end, step, steps, compute, fused=True):
    """The values of PyTorch's linspace and logspace kernels in the ``compute`` dtype:
    ``start + step * i`` for the first half, ``end - step * (steps - 1 - i)`` for the second
    (so both ends are exact). ``fused``: as one fused multiply-add each, rounded once (the
    vectorized kernels' build); else each operation rounded to ``compute``."""
    index = np.arange(steps, dtype=np.float64)
    from_start = index < builtins.max(steps // 2, 1)
    from_end = steps - 1 - index
    if fused:
        values = np.where(from_start, _fma(step, index, start), _fma(-step, from_end, end))
        return values.astype(compute)
    index, from_end = index.astype(compute), from_end.astype(compute)
    return np.where(from_start, start + step * index, end - step * from_end)


def _step(start, end, steps):
    return (end - start) / end.dtype.type(steps - 1) if steps > 1 else end.dtype.type(0)


def _check_ends_fit(start, end, steps, d):
    """The ends PyTorch's kernel converts to ``d`` must fit it (one step reads only the start,
    none neither)."""
    for value in (start, end)[:builtins.min(steps, 2)]:
        _check_scalar_fits(value, d)


def _refuse_bool_ramp(name, d, steps):
    """PyTorch's kernels have no bool ramp; none or one value needs no kernel."""
    if d == np.bool_ and steps > 1:
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'Bool\'')


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    """``steps`` values from ``start`` to ``end`` evenly spaced, as PyTorch's kernel rounds them:
    in the output dtype for floats (float16 operation by operation); from the truncated ends in
    double, then truncated, for integers."""
    requires_grad = _checked_flag("linspace", requires_grad, none_means_false=True)
    start, end = (v.item() if isinstance(v, Tensor) else v for v in (start, end))
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dtype is None and any(isinstance(v, (complex, np.complexfloating)) for v in (start, end)):
        dtype = dtypes.default_complex_dtype()  # complex ends: a complex ramp
    d = _numpy_dtype(dtype)
    _refuse_bool_ramp("linspace", d, steps)
    _check_ends_fit(start, end, steps, d)
    compute = d if d.kind in "fc" else np.dtype(np.float64)
    start, end = (np.array(v).astype(d).astype(compute)[()] for v in (start, end))
    values = _ramp(start, end, _step(start, end, steps), steps, compute,
                   fused=d != np.float16 and d.kind != "c")  # (complex: operation by operation)
    return _finish((values if d.kind in "fc" else np.trunc(values)).astype(d), requires_grad,
                   device)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False):
    """``base`` to the power of ``steps`` evenly spaced exponents, as PyTorch's kernel computes
    them: the ends in the output dtype (truncated for integers), the step from their
    difference in that dtype, the exponents and the powers in double (for integers, of a float
    ``base``), then cast (truncated)."""
    requires_grad = _checked_flag("logspace", requires_grad, none_means_false=True)
    start, end = (v.item() if isinstance(v, Tensor) else v for v in (start, end))
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    d = _numpy_dtype(dtype)
    _refuse_bool_ramp("logspace", d, steps)
    _check_ends_fit(start, end, steps, d)
    if steps == 1:  # PyTorch's shortcut: the start as given, in double
        values = _pow(np.float64(base), np.array([start], dtype=np.float64))
    else:
        first, last = (np.array(v).astype(d)[()] for v in (start, end))
        # the difference in ``d`` for floats; integers subtract as C's ints, without wrapping
        step = np.float64(last - first if d.kind == "f" else builtins.int(last) - builtins.int(
            first)) / (steps - 1)
        exponents = _ramp(np.float64(first), np.float64(last), step, steps,
                          np.dtype(np.float64), fused=False)
        values = _pow(np.float64(base if d.kind == "f" else np.float32(base)), exponents)
    truncated = d.kind in "iu"  # (a bool is whether the value is nonzero)
    return _finish((np.trunc(values) if truncated else values).astype(d), requires_grad, device)


_libm_pow = np.frompyfunc(math.pow, 2, 1)


def _pow(base, exponents):
    """``base ** exponents`` correctly rounded, as C's ``pow`` (numpy's vectorized float64
    power may be one unit in the last place off, which float64 results would show)."""
    return _libm_pow(base, exponents).astype(np.float64)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False):
    requires_grad = _checked_flag("eye", requires_grad, none_means_false=True)
    for name, size in (("n", n), ("m", m)):
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    return _finish(np.eye(n, m, dtype=_numpy_dtype(dtype)), requires_grad, device)


def _float_dtype(dtype, kernel):
    return _require_float_kind(_numpy_dtype(dtype), kernel)


def _require_float_kind(d, kernel):
    """The numpy dtype ``d``, or the refusal of PyTorch's floating-point-only ``kernel``."""
    if d.kind not in "fc":
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[d.name]}'")
    return d


def rand(*args, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    """Uniform on [0, 1); a complex number's two parts each."""
    requires_grad = _checked_flag("rand", requires_grad, none_means_false=True)
    d = _float_dtype(dtype, "check_uniform_bounds")
    shape = _size(args, "rand", size)
    return _finish(random.drawn(lambda: _in_parts(_uniform, generator, shape, d, 1.0)),
                   requires_grad, device)


def _uniform(generator, shape, d):
    return random.source(generator).uniform(shape, d)


def randn(*args, size=None, generator=None, dtype=None, device=None, requires_grad=False):
    """Standard normal; a complex number's parts each with variance 1/2, as PyTorch's."""
    requires_grad = _checked_flag("randn", requires_grad, none_means_false=True)
    d = _float_dtype(dtype, "normal_kernel_cpu")
    shape = _size(args, "randn", size)
    return _finish(random.drawn(lambda: _in_parts(_standard_normal, generator, shape, d,
                                                  np.sqrt(0.5))),
                   requires_grad, device)


def _in_parts(draw, generator, shape, d, part_scale):
    """``draw`` in a real dtype; for a complex ``d``, the real and imaginary parts drawn as
    pairs of its part type and scaled by ``part_scale``."""
    if d.kind != "c":
        return draw(generator, shape, d)
    parts = draw(generator, (*shape, 2), np.empty(0, d).real.dtype)
    if part_scale != 1.0:
        parts *= parts.dtype.type(part_scale)
    return parts.view(d)[..., 0]


def _standard_normal(generator, shape, d):
    return random.source(generator).normal(shape, d)


def randint(low=None, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False):
    requires_grad = _checked_flag("randint", requires_grad, none_means_false=True)
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    elif low is None:  # randint(high=..., size=...)
        low = 0
    d = _numpy_dtype(dtype, dtypes.int64)
    check_random_range(d, low, high)
    shape = _size((size,), "randint")
    array = random.drawn(lambda: random.source(generator).integers(shape, low, high).astype(d))
    return _finish(array, requires_grad, device)


def check_random_range(d, low, high):
    """PyTorch's checks of integers drawn from ``[low, high)`` into the numpy dtype ``d``: a
    non-empty range whose ends (``high - 1``) ``d`` holds; integers beyond those a float dtype
    holds exactly are only a warning."""
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")
    if d.kind not in "biuf":
        raise RuntimeError("check_random_bounds handles only integral, floating-point and "
                           "boolean types")
    ends = (("from", low), ("to - 1", high - 1))
    lowest, highest = _value_range(d)
    for name, value in ends:
        if not lowest <= value <= highest:
            raise RuntimeError(f"{name} is out of bounds for {CPP_TYPE_NAMES[d.name]}")
    if d.kind == "f":
        digits = np.finfo(d).nmant + 1  # C++'s numeric_limits<T>::digits
        for name, value in ends:
            if builtins.abs(value) > 2 ** digits:
                warn_at_caller(
                    f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {CPP_TYPE_NAMES[d.name]} can support discrete uniform "
                    "distribution only within this range. This warning will become an error in "
                    "version 1.7 release, please fix the code in advance")


def _value_range(d):
    """The lowest and highest values of the real numpy dtype ``d``, as Python numbers."""
    if d.kind == "b":
        return 0, 1
    info = np.finfo(d) if d.kind == "f" else np.iinfo(d)
    return info.min.item() if d.kind == "f" else builtins.int(info.min), \
        info.max.item() if d.kind == "f" else builtins.int(info.max)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    requires_grad = _checked_flag("randperm", requires_grad, none_means_false=True)
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"randperm(): argument 'n' (position 1) must be int, not "
                        f"{type(n).__name__}")
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    d = _numpy_dtype(dtype, dtypes.int64)
    _check_permutation_fits(n, d)
    array = random.drawn(lambda: random.source(generator).permutation(n).astype(d))
    return _finish(array, requires_grad, device)


def _check_permutation_fits(n, d):
    """PyTorch's checks that the numpy dtype ``d`` holds 0 … n - 1: bool has no permutation
    kernel; a float dtype holds every integer up to 2 ** digits + 1, an integer one is checked
    as a number converted to it."""
    if d.kind == "b":
        raise NotImplementedError("\"randperm\" not implemented for 'Bool'")
    if d.kind == "f":
        digits = np.finfo(d).nmant + 1
        if n > 2 ** digits + 1:
            limit = "2049" if d == np.float16 else f"2^{digits}+1"
            raise RuntimeError(f"n cannot be greater than {limit} for "
                               f"{_LEGACY_TYPE_NAMES[d.name]} type.")
    elif n > 0:
        checked_number(n - 1, d)


def normal(mean, std, size=None, *, generator=None, dtype=None, layout=None, device=None,
           requires_grad=False, pin_memory=False):
    requires_grad = _checked_flag("normal", requires_grad, none_means_false=True)
    if device is not None:
        _check_device(device)
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        mean_a = mean._array if isinstance(mean, Tensor) else mean
        std_a = std._array if isinstance(std, Tensor) else std
        like = mean if isinstance(mean, Tensor) else std
        if isinstance(std, Tensor) and std._array.dtype.kind == "c":
            raise RuntimeError("normal expects standard deviation to be non-complex")
        d = _require_float_kind(like._array.dtype, "normal_kernel_cpu")
        _check_std(std_a)
        shape = np.broadcast_shapes(np.shape(mean_a), np.shape(std_a))
        if d.kind == "c":  # each part with half the variance, as PyTorch draws a complex mean's
            noise = _in_parts(_standard_normal, generator, shape, d, np.sqrt(0.5))
            return Tensor._make(np.asarray(mean_a + std_a * noise, dtype=d))
        # as PyTorch: standard normals (scaled by a number std), times a tensor std, plus mean
        scale = 1.0 if isinstance(std, Tensor) else std_a
        noise = random.source(generator).normal(shape, d, 0.0, scale)
        if isinstance(std, Tensor):
            noise = noise * std_a.astype(d)
        return Tensor._make(np.asarray(noise + np.asarray(mean_a, dtype=d), dtype=d))
    shape, d = _size((size,), "normal"), _float_dtype(dtype, "normal_kernel_cpu")
    _check_std(std)
    return _finish(random.drawn(lambda: random.source(generator).normal(shape, d, mean, std)),
                   requires_grad, device)


def _check_std(std):
    """PyTorch's refusal of a negative (or NaN) standard deviation, a number or a tensor's."""
    if isinstance(std, np.ndarray):
        if not (std >= 0).all():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def _like(fill, name, none_means_false=False):
    def make(input, *args, dtype=None, device=None, requires_grad=False, memory_format=None):
        if not isinstance(input, Tensor):  # PyTorch's argument parser refuses a number
            raise not_a_tensor(name, "input", 1, input)
        requires_grad = _checked_flag(name, requires_grad, none_means_false)
        d = input._array.dtype if dtype is None else _numpy_dtype(dtype)
        array = fill(input._array.shape, d, *args)
        if not (input._array.flags.c_contiguous and memory_format in (None, preserve_format)):
            # in the layout of ``input`` (PyTorch's preserve_format) or the one asked for
            values = array
            array = copy_in(input._array if memory_format in (None, preserve_format) else array,
                            memory_format, d)
            array[...] = values
        return _finish(array, requires_grad, _META if device is None and input._meta else device)
    return make


zeros_like = _like(lambda shape, d: np.zeros(shape, dtype=d), "zeros_like")
ones_like = _like(lambda shape, d: np.ones(shape, dtype=d), "ones_like")
empty_like = _like(lambda shape, d: np.empty(shape, dtype=d), "empty_like")
full_like = _like(lambda shape, d, value: _filled(shape, value, d), "full_like")


def _uniform_like(shape, d, generator):
    """``rand``'s draws for ``rand_like``: floating-point dtypes only."""
    _require_float_kind(d, "check_uniform_bounds")
    return random.drawn(lambda: _in_parts(_uniform, generator, shape, d, 1.0))


def _normal_like(shape, d, generator):
    """``randn``'s draws for ``randn_like``: floating-point dtypes only."""
    _require_float_kind(d, "normal_kernel_cpu")
    return random.drawn(lambda: _in_parts(_standard_normal, generator, shape, d, np.sqrt(0.5)))


def _random_like(draw, name):
    """A ``*_like`` factory of random draws, which takes PyTorch's ``generator=`` too."""
    def make(input, *, generator=None, dtype=None, device=None, requires_grad=False,
             memory_format=None):
        return _like(lambda shape, d: draw(shape, d, generator), name, none_means_false=True)(
            input, dtype=dtype, device=device, requires_grad=requires_grad,
            memory_format=memory_format)
    return make


rand_like = _random_like(_uniform_like, "rand_like")
randn_like = _random_like(_normal_like, "randn_like")


def randint_like(input, low, high=None, *, generator=None, dtype=None, device=None,
                 requires_grad=False):
    requires_grad = _checked_flag("randint_like", requires_grad, none_means_false=True)
    if high is None:
        low, high = 0, low
    d = input._array.dtype if dtype is None else _numpy_dtype(dtype)
    check_random_range(d, low, high)
    shape = input._array.shape
    return _finish(random.drawn(lambda: random.source(generator).integers(shape, low, high)
                                .astype(d)), requires_grad, device)


# ``Tensor.new_*``: factories that default to the tensor's dtype (methods only, as in PyTorch).


def _factory_dtype(self, dtype):
    return self.dtype if dtype is None else dtype


def _new_factory(fill, name):
    """``Tensor.new_zeros``, ``new_ones``, ``new_empty``: ``fill`` (numpy's constructor) of the
    size given, in ``self``'s dtype unless another is given; a bad size reported under ``name``
    (not ``zeros``'s own message, which only ``torch.zeros`` has)."""
    def factory(self, *args, size=None, dtype=None, device=None, requires_grad=False):
        requires_grad = _checked_flag(name, requires_grad)
        array = fill(_size(args, name, size), dtype=_numpy_dtype(_factory_dtype(self, dtype)))
        return _finish(array, requires_grad, _META if device is None and self._meta else device)
    factory.__name__ = factory.__qualname__ = name
    return factory


new_zeros = _new_factory(np.zeros, "new_zeros")
new_ones = _new_factory(np.ones, "new_ones")
new_empty = _new_factory(np.empty, "new_empty")


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
    requires_grad = _checked_flag("new_full", requires_grad)
    return full(size, fill_value, dtype=_factory_dtype(self, dtype), device=device,
                requires_grad=requires_grad)


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    requires_grad = _checked_flag("new_tensor", requires_grad)
    return tensor(data, dtype=_factory_dtype(self, dtype), device=device,
                  requires_grad=requires_grad)


def type_as(self, other):
    return self.to(other.dtype)
