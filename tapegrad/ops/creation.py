"""Making tensors: from data, filled, ranges, and random. None of these is recorded."""
import builtins
import warnings

import numpy as np

from .. import dtypes, random
from ..memory_format import contiguous_format, copy_in, preserve_format
from ..autograd import grad_mode
from ..tensor import _LEGACY_TYPE_NAMES, Tensor

__all__ = ["tensor", "as_tensor", "from_numpy", "asarray", "zeros", "ones", "full", "empty",
           "arange", "linspace", "logspace", "eye", "rand", "randn", "randint", "randperm",
           "normal", "zeros_like", "ones_like", "full_like", "empty_like", "rand_like",
           "randn_like", "randint_like", "scalar_tensor"]


def _finish(array, requires_grad):
    t = Tensor._make(array)
    if grad_mode._state.inference:
        t._inference = True
    if requires_grad:
        if array.dtype.kind not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        t._requires_grad = True
    return t


def _size(size, name):
    """``(2, 3)``, ``2, 3`` or ``torch.Size`` as a tuple of ints, refused as PyTorch refuses it."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    for position, s in enumerate(size, 1):
        if isinstance(s, builtins.bool) or not isinstance(s, (builtins.int, np.integer)):
            raise TypeError(f"{name}(): argument 'size' failed to unpack the object at pos "
                            f"{position} with error \"type must be tuple of ints,but got "
                            f"{type(s).__name__}\"")
    size = tuple(builtins.int(s) for s in size)
    for s in size:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
    return size


def _numpy_dtype(dtype, default=None):
    if dtype is None:
        return (default or dtypes.get_default_dtype()).numpy
    return dtypes.as_dtype(dtype).numpy


def _infer_array(data, dtype=None):
    """PyTorch's dtype inference: Python floats give the default float dtype, ints int64.

    With an explicit ``dtype`` the data is converted straight to it, so that
    ``tensor([0.1], dtype=float64)`` keeps every digit instead of passing through float32.
    """
    if isinstance(data, Tensor):
        return data._array
    if isinstance(data, np.ndarray):
        dtypes.from_numpy_dtype(data.dtype)  # refuses unsupported types with PyTorch's message
        return data
    if isinstance(data, np.generic):
        return np.asarray(data)
    if isinstance(data, (list, tuple)):
        data = _unwrap_tensors(data)
        _check_rectangular(data)
    elif isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    array = np.asarray(data)
    if dtype is not None and array.dtype.kind in "fiub":
        return array.astype(_numpy_dtype(dtype))
    if array.dtype.kind == "f":
        return array.astype(dtypes.get_default_dtype().numpy)
    if array.dtype.kind in "iu":
        return array.astype(np.int64)
    if array.dtype.kind == "b":
        return array
    if array.size == 0:
        return array.astype(dtypes.get_default_dtype().numpy)
    if array.dtype.kind in "US":
        raise TypeError(f"new(): invalid data type '{type(array.flat[0].item()).__name__}'")
    raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")


def _check_rectangular(data):
    """Nested sequences must be rectangular: PyTorch names the first ragged dimension."""
    level, dim = [data], 0
    while isinstance(level[0], (list, tuple)):
        length = len(level[0])
        for x in level:
            if not isinstance(x, (list, tuple)):
                raise TypeError("not a sequence")
            if len(x) != length:
                raise ValueError(f"expected sequence of length {length} at dim {dim} "
                                 f"(got {len(x)})")
        level = [item for x in level for item in x]
        dim += 1
        if not level:
            return
    for x in level:
        if isinstance(x, (list, tuple)):  # a number where its siblings are numbers
            raise TypeError(f"must be real number, not {type(x).__name__}"
                            if isinstance(level[0], float) else
                            f"'{type(x).__name__}' object cannot be interpreted as an integer")


def _unwrap_tensors(data):
    return [(_unwrap_tensors(x) if isinstance(x, (list, tuple)) else
             x.item() if isinstance(x, Tensor) else x) for x in data]


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of ``data`` (a number, nested sequence, array or tensor)."""
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
            "or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
    array = _infer_array(data, dtype)
    array = np.array(array, dtype=None if dtype is None else _numpy_dtype(dtype), copy=True)
    return _finish(array, requires_grad)


def as_tensor(data, dtype=None, device=None):
    """Like ``tensor`` but shares memory with a numpy array or tensor of the same dtype."""
    if isinstance(data, Tensor) and (dtype is None or data.dtype is dtypes.as_dtype(dtype)):
        return data
    array = _infer_array(data, dtype)
    if dtype is not None:
        array = array.astype(_numpy_dtype(dtype), copy=False)
    return Tensor._make(array)


asarray = as_tensor


def from_numpy(ndarray):
    """A tensor sharing ``ndarray``'s memory: changes to one show in the other."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    dtypes.from_numpy_dtype(ndarray.dtype)
    return Tensor._make(ndarray)


def scalar_tensor(value, *, dtype=None, requires_grad=False):
    return _finish(np.array(value, dtype=_numpy_dtype(dtype)), requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad=False, out=None):
    try:
        shape = _size(size, "zeros")
    except RuntimeError:
        raise RuntimeError("zeros: Dimension size must be non-negative.") from None
    return _finish(np.zeros(shape, dtype=_numpy_dtype(dtype)), requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    return _finish(np.ones(_size(size, "ones"), dtype=_numpy_dtype(dtype)), requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False, memory_format=None):
    array = np.empty(_size(size, "empty"), dtype=_numpy_dtype(dtype))
    if memory_format not in (None, contiguous_format):
        array = copy_in(array, memory_format)
    return _finish(array, requires_grad)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    if dtype is None:
        dtype = dtypes.result_type(fill_value)
    return _finish(np.full(_size((size,), "full"), fill_value, dtype=_numpy_dtype(dtype)),
                   requires_grad)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """``start + i * step`` computed in double precision, then cast (as PyTorch's kernel does;
    numpy's float32 arange accumulates a float32 step and drifts by hundreds of ulps)."""
    if end is None:
        start, end = 0, start
    start, end, step = (v.item() if isinstance(v, Tensor) else v for v in (start, end, step))
    d = _numpy_dtype(dtype or dtypes.result_type(start, end, step))
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if d.kind in "iub":  # PyTorch's argument parsing truncates the bounds and the step
        start, end, step = (builtins.int(v) for v in (start, end, step))
        if step == 0:
            raise ValueError("step must be nonzero")
    if not all(np.isfinite(v) for v in (start, end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if d.kind != "f":
        return _finish(np.arange(start, end, step, dtype=d), requires_grad)
    count = builtins.int(np.ceil((end - start) / step))
    return _finish((start + np.arange(count, dtype=np.float64) * step).astype(d), requires_grad)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    values = np.linspace(start, end, steps, dtype=np.float64)
    return _finish(values.astype(_numpy_dtype(dtype)), requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False):
    """``base`` raised to ``steps`` evenly spaced exponents, computed in double and then cast
    (an integer dtype truncates, as in PyTorch)."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    values = np.power(float(base), np.linspace(start, end, steps, dtype=np.float64))
    return _finish(values.astype(_numpy_dtype(dtype)), requires_grad)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False):
    for name, size in (("n", n), ("m", m)):
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    return _finish(np.eye(n, m, dtype=_numpy_dtype(dtype)), requires_grad)


def _float_dtype(dtype, kernel):
    d = _numpy_dtype(dtype)
    if d.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[d.name]}'")
    return d


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False):
    d = _float_dtype(dtype, "check_uniform_bounds")
    shape = _size(size, "rand")
    rng = random.generator(generator)
    array = rng.random(shape, dtype=d) if d != np.float16 else rng.random(shape).astype(d)
    return _finish(array, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False):
    d = _float_dtype(dtype, "normal_kernel_cpu")
    shape = _size(size, "randn")
    rng = random.generator(generator)
    if d in (np.float32, np.float64):
        array = rng.standard_normal(shape, dtype=d)
    else:
        array = rng.standard_normal(shape).astype(d)
    return _finish(array, requires_grad)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False):
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")
    d = _numpy_dtype(dtype, dtypes.int64)
    shape = _size((size,), "randint")
    array = random.generator(generator).integers(low, high, shape, dtype=np.int64)
    return _finish(array.astype(d), requires_grad)


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    array = random.generator(generator).permutation(n).astype(_numpy_dtype(dtype, dtypes.int64))
    return _finish(array, requires_grad)


def normal(mean, std, size=None, *, generator=None):
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        mean_a = mean._array if isinstance(mean, Tensor) else mean
        std_a = std._array if isinstance(std, Tensor) else std
        like = mean if isinstance(mean, Tensor) else std
        array = random.generator(generator).normal(mean_a, std_a).astype(like._array.dtype)
        return Tensor._make(np.asarray(array))
    array = random.generator(generator).normal(mean, std, _size((size,), "normal"))
    return Tensor._make(array.astype(dtypes.get_default_dtype().numpy))


def _like(fill):
    def make(input, *args, dtype=None, device=None, requires_grad=False, memory_format=None):
        d = input._array.dtype if dtype is None else _numpy_dtype(dtype)
        array = fill(input._array.shape, d, *args)
        if not (input._array.flags.c_contiguous and memory_format in (None, preserve_format)):
            # in the layout of ``input`` (PyTorch's preserve_format) or the one asked for
            array = copy_in(input._array if memory_format in (None, preserve_format) else array,
                            memory_format)
            array[...] = fill(input._array.shape, d, *args)
        return _finish(array, requires_grad)
    return make


zeros_like = _like(lambda shape, d: np.zeros(shape, dtype=d))
ones_like = _like(lambda shape, d: np.ones(shape, dtype=d))
empty_like = _like(lambda shape, d: np.empty(shape, dtype=d))
full_like = _like(lambda shape, d, value: np.full(shape, value, dtype=d))
rand_like = _like(lambda shape, d: random.generator().random(shape).astype(d))
randn_like = _like(lambda shape, d: random.generator().standard_normal(shape).astype(d))


def randint_like(input, low, high=None, *, dtype=None, requires_grad=False):
    if high is None:
        low, high = 0, low
    d = input._array.dtype if dtype is None else _numpy_dtype(dtype)
    return _finish(random.generator().integers(low, high, input._array.shape).astype(d),
                   requires_grad)


# ``Tensor.new_*``: factories that default to the tensor's dtype (methods only, as in PyTorch).


def _factory_dtype(self, dtype):
    return self.dtype if dtype is None else dtype


def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
    return zeros(*size, dtype=_factory_dtype(self, dtype), requires_grad=requires_grad)


def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
    return ones(*size, dtype=_factory_dtype(self, dtype), requires_grad=requires_grad)


def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
    return empty(*size, dtype=_factory_dtype(self, dtype), requires_grad=requires_grad)


def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
    return full(size, fill_value, dtype=_factory_dtype(self, dtype), requires_grad=requires_grad)


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
    return tensor(data, dtype=_factory_dtype(self, dtype), requires_grad=requires_grad)


def type_as(self, other):
    return self.to(other.dtype)
