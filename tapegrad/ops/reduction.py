"""Reductions and the normalisations built on them (softmax, log_softmax, logsumexp).

PyTorch names a full reduction and a reduction over ``dim`` differently (``SumBackward0`` and
``SumBackward1``); here they are two primitives sharing one forward and one rule.
"""
import builtins
import functools
import inspect
import math
import warnings

import numpy as np

from .. import dtypes, return_types
from .._warnings import warn_at_caller
from ..autograd import grad_mode
from .signatures import invalid_combination
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .operands import refuse_complex
from .broadcast import _expand
from . import libm
from .summation import add_reduce
from .registry import REDUCTION, Primitive, primitive

__all__ = ["sum", "nansum", "nanmean", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "var", "std",
           "var_mean", "std_mean", "logsumexp", "softmax", "log_softmax",
           "all", "any", "count_nonzero", "normalize_dims"]


def normalize_dims(dim, ndim):
    """``dim`` as a sorted tuple of non-negative axes, or None for all of them."""
    if dim is None:
        return None
    dims = (int(dim),) if isinstance(dim, (int, np.integer)) else tuple(dim)
    if not dims:
        return None
    rank = builtins.max(ndim, 1)
    out = []
    for d in dims:
        if not -rank <= d < rank:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, "
                             f"{rank - 1}], but got {d})")
        d %= rank
        if d in out:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        out.append(d)
    return tuple(sorted(out)) if ndim else None


# PyTorch's argument parser takes numpy's names for two arguments of every function:
NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim"}


def accept_numpy_names(function):
    """``function`` also called as ``f(x, axis=0, keepdims=True)``, as PyTorch's parser allows
    for every function with a ``dim``; giving both names is refused as PyTorch refuses it."""
    code = function.__code__
    parameters = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    positions = {torch_name: parameters.index(torch_name) if torch_name in parameters[
        :code.co_argcount] else None for torch_name in NUMPY_NAMES.values()}
    open_keywords = bool(code.co_flags & inspect.CO_VARKEYWORDS)

    @functools.wraps(function)
    def call(*args, **kwargs):
        if kwargs and ("axis" in kwargs or "keepdims" in kwargs):
            strangers = [k for k in kwargs if k not in parameters]
            if not open_keywords and builtins.any(k not in NUMPY_NAMES for k in strangers):
                # another unknown keyword: PyTorch then takes numpy's names for no alias either,
                # and names the first unknown one (``np.mean(t)`` calls ``t.mean(axis=None,
                # dtype=None, out=None)``: "unexpected keyword argument 'axis'")
                raise TypeError(f"{function.__name__}() got an unexpected keyword argument "
                                f"'{strangers[0]}'")
            for numpy_name, torch_name in NUMPY_NAMES.items():
                if numpy_name in kwargs:
                    position = positions[torch_name]
                    if torch_name in kwargs or position is not None and len(args) > position:
                        raise TypeError(f"{function.__name__}() got an unexpected keyword "
                                        f"argument '{numpy_name}'")
                    kwargs[torch_name] = kwargs.pop(numpy_name)
        return function(*args, **kwargs)
    return call


def accept_numpy_names_everywhere(namespace, modules):
    """Give every public function of ``namespace`` that takes a ``dim`` numpy's names, and put
    the wrapped function in place of the original wherever ``modules`` hold it: every caller
    then calls the same object (the compiler's tracer swaps functions by identity)."""
    wrapped = {}
    for name, value in namespace.items():
        if not name.startswith("_") and _takes_a_dim(value) and id(value) not in wrapped:
            wrapped[id(value)] = value, accept_numpy_names(value)
    for module in (namespace, *(vars(m) for m in modules)):
        for name, value in list(module.items()):
            original, wrapper = wrapped.get(id(value), (None, None))
            if value is original:
                module[name] = wrapper


def _takes_a_dim(function):
    """Whether ``function`` (a Python function) has a ``dim`` or ``keepdim`` parameter."""
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    parameters = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return builtins.any(name in parameters for name in NUMPY_NAMES.values())


def _unreduce(grad, shape, dims, keepdim):
    """Broadcast a reduced gradient back over the reduced dimensions of ``shape``."""
    if not keepdim:
        grad = unsqueeze_reduced(grad, shape, dims)
    return _expand(grad, shape=shape)


def unsqueeze_reduced(reduced, shape, dims):
    """``reduced`` (reduced over ``dims`` of ``shape``, not keeping them) with its size-1 dims
    back, unsqueezed one at a time from the first, as PyTorch's ``unsqueeze_multiple`` (so that
    create_graph records its nodes: ``SqueezeBackward1`` last in the gradient's gradient); a
    whole reduction (``dims`` None) is left 0-d, to broadcast."""
    if dims is None:
        return reduced
    kept = list(reduced._array.shape)
    for d in sorted(d % len(shape) for d in dims):
        kept.insert(d, 1)
        reduced = _unsqueeze(reduced, shape=tuple(kept))
    return reduced


def _count(shape, dims):
    return math.prod(shape) if dims is None else math.prod(shape[d] for d in dims)


def _twin_primitives(name, forward, full_node, dim_node, saves=(), complex_rule=False):
    """The full-reduction and the over-``dim`` primitive of one reduction."""
    full = Primitive(name + "_all", forward, node=full_node, group=REDUCTION, saves=saves,
                     complex_rule=complex_rule)
    along = Primitive(name, forward, node=dim_node, group=REDUCTION, saves=saves,
                      complex_rule=complex_rule)
    return full, along


def _reduce(full, along, input, dim, keepdim, **params):
    """The reduction over ``dim``: the full primitive only when no dim is given (SumBackward0),
    the one over dims when any is, even all of them or none (``dim=()``: SumBackward1)."""
    dims = normalize_dims(dim, input._array.ndim)
    if dim is None and not keepdim:
        return full(input, dims=None, keepdim=False, **params)
    return along(input, dims=dims, keepdim=keepdim, **params)


# ------------------------------------------------------------------------------------- sum, mean

# ``np.add.reduce``, not ``ndarray.sum``: see the warning filter in elementwise.py.

def _sum_forward(a, dims, keepdim):
    if a.dtype.kind in "biu":
        return np.add.reduce(a, axis=dims, keepdims=keepdim, dtype=np.int64)
    return add_reduce(a, dims, keepdim)


_sum_all, _sum = _twin_primitives("sum", _sum_forward, "SumBackward0", "SumBackward1",
                                 complex_rule=True)


@_sum_all.vjp
@_sum.vjp
def _(ctx, grad, dims, keepdim):
    return _unreduce(grad, ctx.input_shapes[0], dims, keepdim)


def _mean_forward(a, dims, keepdim):
    if a.dtype.kind == "f" and a.itemsize >= 4:  # what ndarray.mean does, minus its Python layer
        return np.true_divide(add_reduce(a, dims, keepdim), _count(a.shape, dims))
    if a.size == 0:  # nan, quietly, as PyTorch's (numpy warns of a mean of nothing)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return a.mean(axis=dims, keepdims=keepdim)
    return a.mean(axis=dims, keepdims=keepdim)  # float16 sums in float32 there


_mean_all, _mean = _twin_primitives("mean", _mean_forward, "MeanBackward0", "MeanBackward1",
                                   complex_rule=True)


@_mean_all.vjp
@_mean.vjp
def _(ctx, grad, dims, keepdim):
    # expanded, then divided, as PyTorch's rule: the gradient is an array of its own (a caller
    # of autograd.grad may write into it), not a broadcast view
    shape = ctx.input_shapes[0]
    return div_scalar(_unreduce(grad, shape, dims, keepdim), _count(shape, dims))


def _nansum_forward(a, dims, keepdim):
    if a.dtype.kind == "f":
        a = np.where(a == a, a, 0)
    return _sum_forward(a, dims, keepdim)


_nansum_all, _nansum = _twin_primitives("nansum", _nansum_forward, "NansumBackward0",
                                        "NansumBackward0", saves=("a",))


@_nansum_all.vjp
@_nansum.vjp
def _(ctx, grad, dims, keepdim):
    (a,) = ctx.saved
    return _unreduce(grad, ctx.input_shapes[0], dims, keepdim) * (a == a).to(grad.dtype)


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """The sum of the entries that are not nan (zero gradient at the nans)."""
    _refuse_complex_nansum(input, dim)
    if dtype is None:
        return _reduce(_nansum_all, _nansum, input, dim, keepdim)
    check_differentiable_dtype(input, dtype)
    if dtypes.as_dtype(dtype).is_complex and input._array.size:  # (no kernel runs on nothing)
        raise NotImplementedError(f'"nansum_cpu" not implemented for '
                                  f"'{_legacy_name(dtype)}'")
    return in_dtype(_reduce(_nansum_all, _nansum, input.to(dtype), dim, keepdim), dtype)


def _refuse_complex_nansum(input, dim):
    """nansum (and nanmean, a nansum divided) has no complex kernel; a wrong dim is reported
    first, as PyTorch reports it."""
    normalize_dims(dim, input._array.ndim)
    if input._array.dtype.kind == "c":
        raise RuntimeError("nansum on CPU does not support complex inputs")


def _legacy_name(dtype):
    """PyTorch's legacy name of ``dtype`` (Long, Float, ComplexFloat), as its messages spell it."""
    return _LEGACY_TYPE_NAMES[dtypes.as_dtype(dtype).numpy.name]


def check_differentiable_dtype(input, dtype):
    """A reduction into ``dtype`` of a tensor autograd records must stay differentiable:
    PyTorch refuses an integer or bool result up front."""
    wanted = dtypes.as_dtype(dtype)
    if input.requires_grad and grad_mode.is_grad_enabled() and not (
            wanted.is_floating_point or wanted.is_complex):
        raise RuntimeError(f"Autograd not support dtype: {_legacy_name(wanted)}")


def in_dtype(result, dtype):
    """The result of a reduction given ``dtype=``, in that dtype: the reduction ran on the input
    cast to it, but integers add and multiply in int64, and their sums and products wrap
    into the narrower type exactly as they would have wrapped there."""
    return result if result.dtype is dtypes.as_dtype(dtype) else result.to(dtype)


def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    """The mean of the entries that are not nan: their sum over their count, as PyTorch."""
    if input._array.dtype.kind not in "fc":
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype "
                           f"but got {_LEGACY_TYPE_NAMES[input._array.dtype.name]}")
    wanted = dtypes.as_dtype(dtype) if dtype is not None else None
    if wanted is not None and not (wanted.is_floating_point or wanted.is_complex):
        raise RuntimeError("nanmean(): could not infer output dtype. Optional dtype must be "
                           f"either a floating point or complex dtype. Got: {_legacy_name(dtype)}")
    _refuse_complex_nansum(input, dim)
    if wanted is not None:
        input = input.to(wanted)
    counts = sum((input == input), dim, keepdim)
    return nansum(input, dim, keepdim) / counts


def sum(input, dim=None, keepdim=False, *, dtype=None):
    if dtype is None:
        return _reduce(_sum_all, _sum, input, dim, keepdim)
    normalize_dims(dim, input._array.ndim)  # a wrong dim is reported first, as PyTorch
    check_differentiable_dtype(input, dtype)
    return in_dtype(_reduce(_sum_all, _sum, input.to(dtype), dim, keepdim), dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        input = input.to(dtype)
    if input._array.dtype.kind not in "fc":
        raise RuntimeError(
            f"mean(): could not infer output dtype. {'Input' if dtype is None else 'Optional'} "
            "dtype must be either a floating point or complex dtype. Got: "
            f"{_LEGACY_TYPE_NAMES[input._array.dtype.name]}")
    return _reduce(_mean_all, _mean, input, dim, keepdim)


# ---------------------------------------------------------------------------- max, min, amax, amin

def _extremum_forward(a, dims, keepdim, largest):
    return (np.amax if largest else np.amin)(a, axis=dims, keepdims=keepdim)


_max_all = Primitive("max_all", _extremum_forward, node="MaxBackward1", group=REDUCTION,
                     saves=("a", "out"))
_min_all = Primitive("min_all", _extremum_forward, node="MinBackward1", group=REDUCTION,
                     saves=("a", "out"))
_amax = Primitive("amax", _extremum_forward, node="AmaxBackward0", group=REDUCTION,
                  saves=("a", "out"))
_amin = Primitive("amin", _extremum_forward, node="AminBackward0", group=REDUCTION,
                  saves=("a", "out"))


@_max_all.vjp
@_min_all.vjp
def _(ctx, grad, dims, keepdim, largest):
    a, out = ctx.saved
    return evenly_distribute(grad, a, out)


def evenly_distribute(grad, a, out):
    """The gradient of a full reduction that picks a value (max, min, median), shared evenly
    among the entries equal to it (the nans, when it is nan), +0 elsewhere: PyTorch's
    evenly_distribute_backward."""
    hits = (a == out) | (a.isnan() & out.isnan())  # (zeros filled: MaskedFillBackward1)
    return _masked_fill_tensor(zeros(a.shape, dtype=grad.dtype), hits, grad / hits.sum())


@_amax.vjp
@_amin.vjp
def _(ctx, grad, dims, keepdim, largest):
    # Ties share the gradient evenly, as PyTorch's amax/amin formula does: a mask multiply
    # (-0 for a negative gradient where not chosen, as there).
    a, out = ctx.saved
    return _shared_among_ties(grad, a, out, ctx.input_shapes[0], dims, keepdim)


def _shared_among_ties(grad, a, out, shape, dims, keepdim):
    """amax's and amin's gradient: each reduced slice's gradient split evenly among the
    entries equal to its extremum ``out``."""
    hit = (a == _restored_dims(out, shape, dims, keepdim)).to(a.dtype)
    count = _sum(hit, dims=dims, keepdim=True) if dims is not None else _sum_all(
        hit, dims=None, keepdim=False)
    return (_restored_dims(grad, shape, dims, keepdim) / count) * hit  # PyTorch's order


def _restored_dims(reduced, shape, dims, keepdim):
    """``reduced`` reshaped with size-1 dims where ``dims`` were reduced (PyTorch's
    ``restore_reduced_dims``, a reshape, which amax's and amin's gradient broadcast from)."""
    if keepdim or dims is None:
        return reduced
    kept = list(shape)
    for d in dims:
        kept[d] = 1
    return _reshape(reduced, shape=tuple(kept))


_aminmax = Primitive("aminmax", lambda a, dims, keepdim: (
    np.amin(a, axis=dims, keepdims=keepdim), np.amax(a, axis=dims, keepdims=keepdim)),
    node="AminmaxBackward0", group=REDUCTION, n_outputs=None, saves=("a",))


@_aminmax.vjp
def _(ctx, grads, dims, keepdim):
    """The sum of amin's and amax's gradients, for the outputs that got one."""
    (a,) = ctx.saved
    shape = ctx.input_shapes[0]
    total = None
    for grad, largest in zip(grads, (False, True)):
        if grad is not None:
            out = (_amax if largest else _amin)(a, dims=dims, keepdim=keepdim, largest=largest)
            part = _shared_among_ties(grad, a, out, shape, dims, keepdim)
            total = part if total is None else total + part
    return total


def aminmax_over(input, dims, keepdim):
    """aminmax's two results, over ``dims`` already checked (None: all of them)."""
    return return_types.aminmax(*_aminmax(input, dims=dims, keepdim=keepdim))


def _zero_dim_as_vector(forward):
    """A forward over ``dim`` that also takes a 0-d operand, as the one-element vector PyTorch
    treats it as (``scores.squeeze().max(0)`` or ``softmax(.., 0)`` of a batch of one); its
    results are 0-d again."""
    @functools.wraps(forward)
    def run(a, *args, **kwargs):
        if a.ndim:
            return forward(a, *args, **kwargs)
        out = forward(a.reshape(1), *args, **kwargs)
        return tuple(o.reshape(()) for o in out) if isinstance(out, tuple) else out.reshape(())
    return run


@_zero_dim_as_vector
def _extremum_dim_forward(a, dim, keepdim, largest):
    indices = (np.argmax if largest else np.argmin)(a, axis=dim, keepdims=True)
    values = np.take_along_axis(a, indices, axis=dim)
    if not keepdim:
        values, indices = values.squeeze(dim), indices.squeeze(dim)
    return values, indices.astype(np.int64)


# The indices are saved (output 1), not the input: the input may then change in place, as in
# PyTorch, and a large input is not kept alive for a gradient that goes to one position per row.
_max_dim = Primitive("max_dim", _extremum_dim_forward, node="MaxBackward0", group=REDUCTION,
                     n_outputs=2, saves=("out1",))
_min_dim = Primitive("min_dim", _extremum_dim_forward, node="MinBackward0", group=REDUCTION,
                     n_outputs=2, saves=("out1",))


@_max_dim.vjp
@_min_dim.vjp
def _(ctx, grad, dim, keepdim, largest):
    """PyTorch's value_selecting_reduction_backward: the gradient scattered into zeros at the
    indices the forward chose."""
    (indices,) = ctx.saved
    shape = ctx.input_shapes[0]
    if not shape:  # a 0-d input is its own extremum
        return grad
    if not keepdim:
        grad, indices = grad.unsqueeze(dim), indices.unsqueeze(dim)
    return _scatter(zeros(shape, dtype=grad.dtype), indices, grad, dim=dim)


_EXTREMUM_OVERLOADS = (
    "Tensor input, *, Tensor out = None", "Tensor input, Tensor other, *, Tensor out = None",
    "Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None")


def _extremum(largest, input, dim, keepdim, other):
    if isinstance(dim, Tensor):  # max(a, b) is maximum
        other, dim = dim, None
    if other is not None:
        from .elementwise import maximum, minimum
        return (maximum if largest else minimum)(input, other)
    name = "max" if largest else "min"
    _check_dim_keepdim(name, input, dim, keepdim)
    if dim is None:
        refuse_complex(input, kernel=f"{name}_all")
        _check_reducible(input, None, name)
        return (_max_all if largest else _min_all)(input, dims=None, keepdim=False,
                                                   largest=largest)
    (axis,) = normalize_dims(dim, input._array.ndim) or (0,)
    refuse_complex(input, f"{name}(): does not support complex input")
    _check_reducible(input, (axis,) if input._array.ndim else None, name)
    prim = _max_dim if largest else _min_dim
    values, indices = prim(input, dim=axis, keepdim=keepdim, largest=largest)
    return (return_types.max if largest else return_types.min)(values, indices)


def _check_dim_keepdim(name, input, dim, keepdim):
    """PyTorch's parser takes an integer ``dim`` (not a bool) and a bool ``keepdim`` only."""
    dim_fits = dim is None or (isinstance(dim, (int, np.integer)) and not isinstance(dim, bool))
    if not (dim_fits and isinstance(keepdim, (bool, np.bool_))):
        args = [input] + ([] if dim is None else [dim]) + ([] if keepdim is False else [keepdim])
        raise invalid_combination(name, args, {}, _EXTREMUM_OVERLOADS)


def max(input, dim=None, keepdim=False, *, other=None):
    return _extremum(True, input, dim, keepdim, other)


def min(input, dim=None, keepdim=False, *, other=None):
    return _extremum(False, input, dim, keepdim, other)


def amax(input, dim=(), keepdim=False):
    return _value_extremum(_amax, input, dim, keepdim, kernel="max_values_cpu")


def amin(input, dim=(), keepdim=False):
    return _value_extremum(_amin, input, dim, keepdim, kernel="min_values_cpu")


def _value_extremum(prim, input, dim, keepdim, kernel):
    """amax/amin with PyTorch's order of checks: each dim's range, then the size of the
    dimensions reduced (named as written), then repeated dims, then the dtype."""
    ndim = input._array.ndim
    written = (dim,) if _is_int(dim) else tuple(dim)
    for d in written:
        normalize_dims(d, ndim)
    _check_reducible(input, written if written and ndim else None, prim.name)
    dims = normalize_dims(dim, ndim)
    if input._array.size:  # (no kernel runs on nothing)
        refuse_complex(input, kernel=kernel)
    return prim(input, dims=dims, keepdim=keepdim, largest=prim is _amax)


def argmax(input, dim=None, keepdim=False):
    return _arg_extremum(_argmax, input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return _arg_extremum(_argmin, input, dim, keepdim)


def _arg_extremum(prim, input, dim, keepdim):
    a, name = input._array, prim.name
    if dim is not None and not _is_int(dim):
        raise TypeError(f"{name}(): argument 'dim' must be int, not {type(dim).__name__}")
    if a.dtype == np.bool_:
        raise RuntimeError(f"{name}(): does not support bool input")
    refuse_complex(input, f"{name}(): does not support complex input")
    if dim is None:
        if a.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for "
                             "input.numel() == 0.")
        return prim(input, axis=None, keepdim=keepdim)
    (axis,) = normalize_dims(dim, a.ndim) or (0,)
    if a.ndim:
        _check_reducible(input, (axis,), name)
    return prim(input, axis=axis, keepdim=keepdim)


def _index_primitive(name, find):
    """argmax/argmin as primitives with int64 results (never differentiated): a compiled
    function computes them in its graph (``model(x).argmax(1) == y``) instead of breaking it."""
    def forward(a, axis, keepdim):
        if axis is None:
            found = np.asarray(find(a.reshape(-1)), dtype=np.int64)
            return found.reshape((1,) * a.ndim if keepdim else ())
        return find(a, axis=axis, keepdims=keepdim).astype(np.int64)
    return Primitive(name, forward, node=f"{name.capitalize()}Backward0", group=REDUCTION)


_argmax = _index_primitive("argmax", np.argmax)
_argmin = _index_primitive("argmin", np.argmin)


def _check_reducible(input, dims, name):
    """An extremum of nothing is undefined: PyTorch refuses an empty reduction (numpy's own
    message would name its internal ufunc). ``dims``: as the message names them (amax/amin's
    as written, max/min/argmax's normalized); None for all of them."""
    shape = input._array.shape
    if dims is None:
        if input._array.size == 0:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for "
                               "input.numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
        return
    for d in dims:
        if shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


# ----------------------------------------------------------------------------------- var, std

def _var_forward(a, dims, keepdim, correction):
    n = _count(a.shape, dims)
    if n - correction > 0:
        with np.errstate(invalid="ignore"):  # inf - inf in numpy's Python layer: nan, silently
            return np.var(a, axis=dims, keepdims=keepdim, ddof=correction)
    # No degrees of freedom: PyTorch divides by zero (inf or nan) after one warning, given in
    # _spread; numpy would warn again in its own words (of an empty input, whatever its errstate).
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.divide(np.float64(n), 0.0)
        if n == 0:
            return np.full(np.shape(add_reduce(a, dims, keepdim)), np.nan, a.real.dtype)
        variance = np.var(a, axis=dims, keepdims=keepdim)
        return (variance * scale).astype(variance.dtype)


def _std_forward(a, dims, keepdim, correction):
    return np.sqrt(_var_forward(a, dims, keepdim, correction))


_var = Primitive("var", _var_forward, node="VarBackward0", group=REDUCTION, saves=("a",))
_std = Primitive("std", _std_forward, node="StdBackward0", group=REDUCTION, saves=("a", "out"))


def _centered(a, dims):
    return a - (a.mean() if dims is None else a.mean(dims, keepdim=True))


@_var.vjp
def _(ctx, grad, dims, keepdim, correction):
    (a,) = ctx.saved
    return _var_gradient(grad, a, ctx.input_shapes[0], dims, keepdim, correction)


def _var_gradient(grad, a, shape, dims, keepdim, correction):
    """PyTorch's var_backward, ``(2 / (n - correction) * grad) * (a - mean)``. Along dims an
    infinite or negative scale is taken as it comes; of the whole input without degrees of
    freedom, the scale is infinite and only its sign-free product counts: nan where an
    element equals the mean (``inf * 0``), inf elsewhere, as PyTorch's."""
    if dims is None and _count(shape, dims) - correction <= 0:
        from .elementwise import where  # (elementwise builds on this module)
        return grad * where(a == a.mean(), math.nan, math.inf)
    with np.errstate(divide="ignore"):  # inf at no dof; negative past it, as PyTorch's
        scale = np.divide(2.0, np.float64(_count(shape, dims) - correction))
    return (_unreduce(grad, shape, dims, keepdim) * scale) * _centered(a, dims)


@_std.vjp
def _(ctx, grad, dims, keepdim, correction):
    a, out = ctx.saved
    return _std_gradient(grad, a, out, ctx.input_shapes[0], dims, keepdim, correction)


def _std_gradient(grad, a, out, shape, dims, keepdim, correction):
    """PyTorch's std_backward: var's gradient of ``grad / (2 std)`` (so that under create_graph
    it records the same operations)."""
    from .scatter import masked_fill  # (scatter builds on this module)
    # a constant slice (std 0) gets a zero gradient, not 0/0, as PyTorch's std_backward
    scaled = masked_fill(grad / (out * 2), out == 0, 0.0)
    return _var_gradient(scaled, a, shape, dims, keepdim, correction)


def _correction(unbiased, correction):
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _spread(_var, "var", input, dim, unbiased, keepdim, correction)


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _spread(_std, "std", input, dim, unbiased, keepdim, correction)


def _spread(prim, name, input, dim, unbiased, keepdim, correction):
    if isinstance(dim, bool):  # var(input, unbiased)
        unbiased, dim = dim, None
    if input._array.dtype.kind not in "fc":
        refused = name if name.endswith("_mean") else "std and var"
        raise RuntimeError(f"{refused} only support floating point and complex dtypes")
    dims = normalize_dims(dim, input._array.ndim)
    correction = _correction(unbiased, correction)
    if _count(input._array.shape, dims) - correction <= 0:
        warn_at_caller(f"{name}(): degrees of freedom is <= 0. Correction should be strictly "
                       "less than the reduction factor (input numel divided by output numel).")
    return prim(input, dims=dims, keepdim=keepdim, correction=correction)


def _spread_mean_forward(a, dims, keepdim, correction, take_root):
    spread = (_std_forward if take_root else _var_forward)(a, dims, keepdim, correction)
    return spread, _mean_forward(a, dims, keepdim)


_var_mean = Primitive("var_mean", lambda a, dims, keepdim, correction: _spread_mean_forward(
    a, dims, keepdim, correction, False), node="VarMeanBackward0", group=REDUCTION,
    n_outputs=None, saves=("a",))
_std_mean = Primitive("std_mean", lambda a, dims, keepdim, correction: _spread_mean_forward(
    a, dims, keepdim, correction, True), node="StdMeanBackward0", group=REDUCTION,
    n_outputs=None, saves=("a",))


@_var_mean.vjp
@_std_mean.vjp
def _(ctx, grads, dims, keepdim, correction):
    """The spread's gradient (std's rule recomputes the std) plus the mean's."""
    (a,) = ctx.saved
    shape = ctx.input_shapes[0]
    grad_spread, grad_mean = (tuple(grads) + (None, None))[:2]
    total = None
    if grad_spread is not None:
        if ctx.primitive is _std_mean:
            total = _std_gradient(grad_spread, a, _std(a, dims=dims, keepdim=keepdim,
                                                        correction=correction),
                                  shape, dims, keepdim, correction)
        else:
            total = _var_gradient(grad_spread, a, shape, dims, keepdim, correction)
    if grad_mean is not None:
        mean_part = _unreduce(grad_mean / _count(shape, dims), shape, dims, keepdim)
        total = mean_part if total is None else total + mean_part
    return total


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _spread(_var_mean, "var_mean", input, dim, unbiased, keepdim, correction)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _spread(_std_mean, "std_mean", input, dim, unbiased, keepdim, correction)


# ------------------------------------------------------------------- logsumexp, softmax family

def _stable_max(a, dims):
    """logsumexp's shift: the maximum (of the real parts, for complex numbers), or 0 where it
    is infinite (or the reduction empty)."""
    m = np.amax(a.real, axis=dims, keepdims=True, initial=-np.inf)
    return np.where(np.isfinite(m), m, 0)


def _softmax_shift(a, dim):
    """softmax's shift: the maximum as it is, so an infinite one gives nan, as in PyTorch.
    (``np.amax`` is this reduction behind two Python layers: ~1 µs on a small operand.)"""
    return np.maximum.reduce(a, axis=dim, keepdims=True, initial=-np.inf)


@primitive("logsumexp", node="LogsumexpBackward0", group=REDUCTION, saves=("a", "out"))
@_zero_dim_as_vector
def _logsumexp(a, dims, keepdim):
    m = _stable_max(a, dims)
    shifted = np.subtract(a, m)
    total = np.add.reduce(libm.exp(shifted, out=shifted), axis=dims, keepdims=True)
    with np.errstate(divide="ignore"):  # the log of an empty sum: -inf, as PyTorch gives it
        out = libm.log(total, out=total) + m
    return out if keepdim else out.squeeze(dims)


@_logsumexp.vjp
def _(ctx, grad, dims, keepdim):
    a, out = ctx.saved
    shape = ctx.input_shapes[0]
    return _unreduce(grad, shape, dims, keepdim) * (a - _unreduce(out, shape, dims, keepdim)).exp()


_FLOAT16 = np.dtype(np.float16)


def _accumulated_in_float32(function):
    """PyTorch's CPU softmax kernels (and their backwards) compute float16 operands in float32,
    their accumulate type, and round the result once; numpy in float16 would round every step."""
    @functools.wraps(function)
    def run(*arrays, **params):
        if _FLOAT16 not in [a.dtype for a in arrays]:  # (cheaper than any() of a generator)
            return function(*arrays, **params)
        widened = (a.astype(np.float32) if a.dtype == np.float16 else a for a in arrays)
        return function(*widened, **params).astype(np.float16)
    return run


@primitive("softmax", node="SoftmaxBackward0", group=REDUCTION, saves=("out",))
@_zero_dim_as_vector
def _softmax(a, dim):
    # exp(a - max) over its sum, as ATen's kernels compute it (float16 in float32): along the
    # last dimension times the sum's reciprocal, along another the exps stored in the result's
    # dtype first, then divided by the sum
    work = a.astype(np.float32) if a.dtype == np.float16 else a
    with np.errstate(invalid="ignore"):
        e = np.subtract(work, _softmax_shift(work, dim))
    libm.exp(e, out=e)
    total = np.add.reduce(e, axis=dim, keepdims=True)
    if dim in (-1, a.ndim - 1):
        e *= np.reciprocal(total, out=total)
    else:
        e = np.divide(e.astype(a.dtype, copy=False), total, out=e)
    return e.astype(a.dtype, copy=False)


@_softmax.vjp
def _(ctx, grad, dim):
    (out,) = ctx.saved
    return _softmax_backward(grad, out, dim=dim)


@primitive("log_softmax", node="LogSoftmaxBackward0", group=REDUCTION, saves=("out",))
@_zero_dim_as_vector
def _log_softmax(a, dim):
    if a.dtype == np.float16:
        return _float16_log_softmax(a, dim)
    with np.errstate(invalid="ignore"):
        shifted = a - _softmax_shift(a, dim)
    total = np.add.reduce(libm.exp(shifted), axis=dim, keepdims=True)
    return shifted - libm.log(total, out=total)


def _float16_log_softmax(a, dim):
    """float16 as ATen's kernels compute it: in float32, except that along the last dimension
    the sum of the exps is kept in float16, and so is its log."""
    work = a.astype(np.float32)
    with np.errstate(invalid="ignore"):
        shifted = work - _softmax_shift(work, dim)
    total = np.add.reduce(np.exp(shifted), axis=dim, keepdims=True)
    if dim == a.ndim - 1:
        log_total = np.log(total.astype(np.float16), dtype=np.float32).astype(np.float16)
    else:
        log_total = np.log(total)
    return (shifted - log_total).astype(np.float16)


@_log_softmax.vjp
def _(ctx, grad, dim):
    (out,) = ctx.saved
    return _log_softmax_backward(grad, out, dim=dim)


# PyTorch's _softmax_backward_data and _log_softmax_backward_data: each gradient as one operation
# (two passes over memory into one new array, not four operations and their temporaries), whose
# own rules give the second derivatives and record PyTorch's nodes.

@primitive("softmax_backward", node="SoftmaxBackwardDataBackward0", group=REDUCTION,
           saves=("grad", "output"))
@_accumulated_in_float32
def _softmax_backward(grad, output, dim):
    """``output * (grad - sum(grad * output, dim))``."""
    result = np.multiply(grad, output, out=np.empty(output.shape, output.dtype))
    total = np.add.reduce(result, axis=dim, keepdims=True)
    result -= output * total
    return result


@_softmax_backward.vjp
def _(ctx, grad, dim):
    grad_output, output = ctx.saved
    need_grad_output, need_output = ctx.needs_input_grad
    return (_softmax_backward(grad, output, dim=dim) if need_grad_output else None,
            grad * (grad_output - (grad_output * output).sum(dim, keepdim=True))
            - grad_output * (grad * output).sum(dim, keepdim=True) if need_output else None)


@primitive("log_softmax_backward", node="LogSoftmaxBackwardDataBackward0", group=REDUCTION,
           saves=("grad", "output"))
@_accumulated_in_float32
def _log_softmax_backward(grad, output, dim):
    """``grad - exp(output) * sum(grad, dim)``."""
    result = libm.exp(output, out=np.empty(output.shape, output.dtype))  # (0-d: an array too)
    result *= np.add.reduce(grad, axis=dim, keepdims=True)
    np.subtract(grad, result, out=result)
    return result


@_log_softmax_backward.vjp
def _(ctx, grad, dim):
    grad_output, output = ctx.saved
    need_grad_output, need_output = ctx.needs_input_grad
    probabilities = output.exp()
    return (grad - (grad * probabilities).sum(dim, keepdim=True) if need_grad_output else None,
            -grad * probabilities * grad_output.sum(dim, keepdim=True) if need_output else None)


_NO_DIM = object()  # logsumexp's dim is required, with PyTorch's message when left out


def logsumexp(input, dim=_NO_DIM, keepdim=False):
    dims = normalize_dims(_required_dims("logsumexp", dim), input._array.ndim)
    if dims is None and not keepdim and input._array.ndim:
        # PyTorch reduces everything for ``dim=()`` into a kept-dims result, then fails to
        # write it into the squeezed output
        raise RuntimeError("output with shape [] doesn't match the broadcast shape "
                           f"[{', '.join('1' * input._array.ndim)}]")
    return _logsumexp(input if input.is_complex() else _float(input), dims=dims, keepdim=keepdim)


def _required_dims(function, dim):
    """``dim`` checked as PyTorch's argument parser checks a required ``int[]`` (scipy's and
    numpy's logsumexp default to all axes; PyTorch's does not)."""
    if dim is _NO_DIM:
        raise TypeError(f'{function}() missing 1 required positional arguments: "dim"')
    if not (_is_int(dim) or isinstance(dim, (tuple, list))):
        raise TypeError(f"{function}(): argument 'dim' (position 2) must be tuple of ints, not "
                        f"{type(dim).__name__}")
    return dim


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def softmax(input, dim=None, dtype=None, **_legacy):
    dim = _single_dim(dim, input, "softmax")
    return _softmax(_floating(input, dtype, "softmax", dim), dim=dim)


def log_softmax(input, dim=None, dtype=None, **_legacy):
    dim = _single_dim(dim, input, "log_softmax")
    return _log_softmax(_floating(input, dtype, "log_softmax", dim), dim=dim)


def _floating(input, dtype, kernel, dim):
    """The input of softmax and log_softmax: cast to ``dtype`` if given, else floating point
    already (PyTorch's kernels refuse integers, naming the kernel the dim selects)."""
    if dtype is not None:
        return input.to(dtype)
    a = input._array
    if a.dtype.kind != "f":
        last = "lastdim_" if dim >= a.ndim - 1 else ""
        raise NotImplementedError(f'"{kernel}_{last}kernel_impl" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[a.dtype.name]}'")
    return input


def _single_dim(dim, input, function):
    """softmax's one ``dim``: an int (a tuple is refused as PyTorch refuses it, naming the
    position it has in ``F.softmax`` and the method), or None for the legacy implicit choice."""
    ndim = input._array.ndim
    if type(dim) is int and -ndim <= dim < ndim:
        return dim % ndim  # the common case: what normalize_dims gives, without its layers
    if dim is None:
        dim = 0 if ndim in (0, 1, 3) else 1
    elif not _is_int(dim):
        raise TypeError(f"{function}(): argument 'dim' (position 1) must be int, not "
                        f"{type(dim).__name__}")
    dims = normalize_dims(dim, ndim)
    return dims[0] if dims else 0


def _float(input, dtype=None):
    if dtype is not None:
        return input.to(dtype)
    return input if input._array.dtype.kind == "f" else input.to(dtypes.get_default_dtype())


# ------------------------------------------------------------------------- truth and counts

def all(input, dim=None, keepdim=False):
    return _truth(_all, input, dim, keepdim)


def any(input, dim=None, keepdim=False):
    return _truth(_any, input, dim, keepdim)


def _truth(prim, input, dim, keepdim):
    """all/any over ``dim``: None tests everything, but an empty list of dims tests each entry
    alone (unlike sum's ``dim=()``), as PyTorch's all.dims/any.dims do."""
    if dim is not None and not _is_int(dim) and len(dim) == 0:
        return prim(input, axis=(), keepdim=keepdim)
    return prim(input, axis=normalize_dims(dim, input.ndim), keepdim=keepdim)


def _truth_primitive(name, test):
    """all/any: bool, except uint8 for a uint8 input, as PyTorch keeps it (primitives, like
    argmax, so that compiled functions keep them in the graph)."""
    def forward(a, axis, keepdim):
        out = np.asarray(test(a, axis=axis, keepdims=keepdim))
        return out.astype(np.uint8) if a.dtype == np.uint8 else out
    return Primitive(name, forward, node=f"{name.capitalize()}Backward0", group=REDUCTION)


_all = _truth_primitive("all", np.all)
_any = _truth_primitive("any", np.any)


def count_nonzero(input, dim=None):
    return _count_nonzero(input, axis=normalize_dims(dim, input.ndim))


@primitive("count_nonzero", node="CountNonzeroBackward0", group=REDUCTION)
def _count_nonzero(a, axis):
    return np.asarray(np.count_nonzero(a, axis=axis), dtype=np.int64)


from .creation import zeros  # noqa: E402
from .elementwise import div_scalar  # noqa: E402
from .shape import _reshape, _unsqueeze  # noqa: E402  (shape's rules need reductions in turn)
from .scatter import _masked_fill_tensor, _scatter  # noqa: E402
