"""Numerical integration and differentiation of sampled functions: trapezoid (trapz),
cumulative_trapezoid and gradient, composed of slices, differences and sums as PyTorch's
``Integration.cpp`` and ``gradient`` write them (so the gradients and node names follow)."""
import numbers

from ..tensor import Tensor, _wrap_dim
from .creation import zeros
from .cumulative import cumsum
from .elementwise import div_scalar, mul_scalar
from .reduction import sum
from .shape import cat, getitem, reshape, select, view

__all__ = ["trapezoid", "trapz", "cumulative_trapezoid", "gradient"]


def _times(t, factor):
    """``t * factor`` for a Python number as ATen's ``mul.Scalar`` (``MulBackward1``), the
    step PyTorch's C++ integration code takes; an integer tensor promotes as ``*`` does."""
    return mul_scalar(t, factor) if t._array.dtype.kind == "f" else t * factor


def _halved(t):
    """``t / 2.`` as ATen's ``div.Scalar`` (``DivBackward1``)."""
    return div_scalar(t, 2.0) if t._array.dtype.kind == "f" else t / 2.0


def _slice(t, dim, start=None, stop=None):
    """``t.slice(dim, start, stop)``, which refuses a 0-d tensor before looking at ``dim``."""
    if not t._array.ndim:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    return getitem(t, (slice(None),) * _wrap_dim(dim, t._array.ndim) + (slice(start, stop),))


def _spacings(name, y, x, dim):
    """The differences of the sample points ``x`` along ``dim``, shaped to broadcast with ``y``'s
    (a 1-d ``x`` lies along ``dim``; a shorter one gains leading ones, as numpy's)."""
    if y._array.dtype.kind == "b" or x._array.dtype.kind == "b":
        raise RuntimeError(f"{name}: received a bool input for `x` or `y`, but bool is not "
                           "supported")
    ndim = y._array.ndim
    if x._array.ndim == 1:
        if x._array.shape[0] != y.size(dim):
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        x = view(x, tuple(-1 if d == dim else 1 for d in range(ndim)))
    elif x._array.ndim < ndim:
        x = view(x, (1,) * (ndim - x._array.ndim) + x._array.shape)
    return _slice(x, dim, 1) - _slice(x, dim, None, -1)


def _check_scalar(name, y, dx):
    if y._array.dtype.kind == "b":
        raise RuntimeError(f"{name}: received a bool input for `y`, but bool is not supported")
    if isinstance(dx, (bool, complex)) or not isinstance(dx, numbers.Real):
        raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")


_WITH_X = "(Tensor y, Tensor x, *, int dim = -1)"
_WITH_NUMBER_DX = "(Tensor y, *, Number dx = 1, int dim = -1)"
_SIGNATURES = {  # as PyTorch's parser lists them when no overload matches
    "trapezoid": (_WITH_X, _WITH_NUMBER_DX),
    "cumulative_trapezoid": (_WITH_X, _WITH_NUMBER_DX),
    "trapz": ("(Tensor y, *, float dx = 1, int dim = -1)", _WITH_X),
}


_UNGIVEN = object()  # an argument left out, unlike an explicit None that PyTorch refuses


def _samples_or_spacing(name, x, dx):
    """The sample points ``x`` (a tensor, else None) or the spacing ``dx`` (default 1), as
    PyTorch's argument parser picks between the two signatures: a 0-d tensor ``dx`` that needs
    no gradient is read as its number; giving both, a non-tensor ``x``, or a ``dx`` that is no
    number matches neither."""
    if x is not _UNGIVEN:
        if dx is not _UNGIVEN or not isinstance(x, Tensor):
            _no_overload(name, x, dx)
        return x, None
    if isinstance(dx, Tensor) and not dx._array.ndim and not dx.requires_grad:
        return None, dx.item()
    if dx is _UNGIVEN:
        return None, 1
    if isinstance(dx, Tensor) or not isinstance(dx, numbers.Number):
        _no_overload(name, x, dx)
    return None, dx


def _no_overload(name, x, dx):
    got = ["Tensor"] + ([type(x).__name__] if x is not _UNGIVEN else [])
    got += [f"dx={type(dx).__name__}"] if dx is not _UNGIVEN else []
    lines = "".join(f"\n * {signature}" for signature in _SIGNATURES[name])
    raise TypeError(f"{name}() received an invalid combination of arguments - got "
                    f"({', '.join(got)}), but expected one of:{lines}\n")


def _zeros_without(y, dim):
    shape = y._array.shape
    return zeros(shape[:dim] + shape[dim + 1:], dtype=y.dtype)


def trapezoid(y, x=_UNGIVEN, *, dx=_UNGIVEN, dim=-1):
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, the samples ``dx`` apart
    (default 1) or at the points ``x``; zero for no samples."""
    x, dx = _samples_or_spacing("trapezoid", x, dx)
    if x is not None:  # (only this overload wraps ``dim`` before asking ``y`` its size)
        dim = _wrap_dim(dim, y._array.ndim)
    if y.size(dim) == 0:
        return _zeros_without(y, _wrap_dim(dim, y._array.ndim))
    if x is not None:
        steps = _spacings("trapezoid", y, x, dim)
        return _halved(sum((_slice(y, dim, None, -1) + _slice(y, dim, 1)) * steps, dim))
    _check_scalar("trapezoid", y, dx)
    return _times(sum(y, dim) - _times(select(y, dim, 0) + select(y, dim, -1), 0.5), dx)


def trapz(y, x=_UNGIVEN, *, dx=_UNGIVEN, dim=-1):
    """``trapezoid``'s older name, whose ``dx`` is a float."""
    if isinstance(dx, complex):
        _no_overload("trapz", x, dx)
    x, dx = _samples_or_spacing("trapz", x, dx)
    if x is not None:
        return trapezoid(y, x, dim=dim)
    if isinstance(dx, complex):  # a 0-d complex tensor's value
        raise RuntimeError("value cannot be converted to type double without overflow")
    return trapezoid(y, dx=float(dx), dim=dim)


def cumulative_trapezoid(y, x=_UNGIVEN, *, dx=_UNGIVEN, dim=-1):
    """The running integrals of ``trapezoid``: one fewer than the samples along ``dim`` (which
    the ``dx`` overload checks only in slicing ``y``, after its dtype)."""
    x, dx = _samples_or_spacing("cumulative_trapezoid", x, dx)
    if x is not None:
        dim = _wrap_dim(dim, y._array.ndim)
        steps = _spacings("cumulative_trapezoid", y, x, dim)
        return _halved(cumsum((_slice(y, dim, None, -1) + _slice(y, dim, 1)) * steps, dim))
    _check_scalar("cumulative_trapezoid", y, dx)
    return cumsum(_times(_slice(y, dim, None, -1) + _slice(y, dim, 1), dx / 2.0), dim)


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """The derivative estimates of ``input`` along each of ``dim`` (default: all), a tuple:
    central differences inside, one-sided ones of ``edge_order`` 1 or 2 at the edges. ``spacing``
    is one step for all dimensions, a step per dimension, or per dimension the coordinates of the
    samples (1-d tensors)."""
    ndim = input._array.ndim
    dims = dim if isinstance(dim, (list, tuple)) else None if dim is None else [dim]
    spacings = list(spacing) if isinstance(spacing, (list, tuple)) else None
    _check_gradient(input, spacings, dims, edge_order)
    dims = list(range(ndim)) if dims is None else [_wrap_dim(d, ndim) for d in dims]
    if spacings is None:
        spacings = [spacing] * len(dims)
    return tuple(_coordinate_gradient(input, s, d, edge_order) if isinstance(s, Tensor)
                 else _step_gradient(input, s, d, edge_order) for s, d in zip(spacings, dims))


def _check_gradient(input, spacings, dims, edge_order):
    shape = input._array.shape
    if input._array.dtype.name == "uint8":
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if spacings is not None and dims is None and len(spacings) != len(shape):
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar, or a list "
                           f"of length equal to 'self.dim() = {len(shape)}', since dim argument "
                           f"was not given, but got a list of length {len(spacings)}")
    if spacings is not None and dims is not None and len(spacings) != len(dims):
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar or it's "
                           "spacing and dim arguments to have the same length, but got a spacing "
                           f"argument of length {len(spacings)} and a dim argument of length "
                           f"{len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    for d in range(len(shape)) if dims is None else dims:
        if shape[_wrap_dim(d, len(shape))] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")


def _step_gradient(f, step, dim, edge_order):
    """Samples ``step`` apart: (f[i+1] - f[i-1]) / 2h inside."""
    center = (_slice(f, dim, 2) - _slice(f, dim, None, -2)) / step
    if edge_order == 1:
        first = (_slice(f, dim, 1, 2) - _slice(f, dim, 0, 1)) / step
        last = (_slice(f, dim, -1) - _slice(f, dim, -2, -1)) / step
    else:
        first = (_slice(f, dim, 0, 1) * -1.5 + _slice(f, dim, 1, 2) * 2
                 - _slice(f, dim, 2, 3) * 0.5) / step
        last = (_slice(f, dim, -3, -2) * 0.5 - _slice(f, dim, -2, -1) * 2
                + _slice(f, dim, -1) * 1.5) / step
    return cat([first, center / 2, last], dim)


def _coordinate_gradient(f, coordinates, dim, edge_order):
    """Samples at ``coordinates``: the second-order accurate weights of unequal steps."""
    if coordinates._array.ndim != 1:
        raise RuntimeError("torch.gradient expected each element of spacing to have one "
                           f"dimension, but got an element with {coordinates._array.ndim} "
                           "dimensions!")
    shape = tuple(-1 if d == dim else 1 for d in range(f._array.ndim))
    h = coordinates[1:] - coordinates[:-1]
    h1, h2 = h[:-1], h[1:]
    a, b, c = (reshape(w, shape) for w in (-h2 / (h1 * (h1 + h2)), (h2 - h1) / (h1 * h2),
                                           h1 / (h2 * (h1 + h2))))
    center = a * _slice(f, dim, None, -2) + b * _slice(f, dim, 1, -1) + c * _slice(f, dim, 2)
    if edge_order == 1:
        first = (_slice(f, dim, 1, 2) - _slice(f, dim, 0, 1)) / h[0]
        last = (_slice(f, dim, -1) - _slice(f, dim, -2, -1)) / h[-1]
    else:
        a = -(2.0 * h[0] + h[1]) / (h[0] * (h[0] + h[1]))
        b = (h[0] + h[1]) / (h[0] * h[1])
        c = -h[0] / (h[1] * (h[0] + h[1]))
        first = a * _slice(f, dim, 0, 1) + b * _slice(f, dim, 1, 2) + c * _slice(f, dim, 2, 3)
        a = h[-1] / (h[-2] * (h[-1] + h[-2]))
        b = -(h[-1] + h[-2]) / (h[-1] * h[-2])
        c = (2 * h[-1] + h[-2]) / (h[-1] * (h[-1] + h[-2]))
        last = a * _slice(f, dim, -3, -2) + b * _slice(f, dim, -2, -1) + c * _slice(f, dim, -1)
    return cat([first, center, last], dim)
