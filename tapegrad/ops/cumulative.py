"""Running and whole-dimension products and sums: cumsum, cumprod, logcumsumexp, prod, aminmax,
and diff, the differences that undo a running sum."""

import functools

import numpy as np

from .. import dtypes
from ..autograd import grad_mode
from ..tensor import _LEGACY_TYPE_NAMES
from .creation import eye, ones, zeros_like
from .elementwise import logical_xor, sub, where
from .inplace import apply_inplace
from .layout import _dims_of, _flip, triu
from .operands import CPP_TYPE_NAMES, refuse_complex
from .reduction import (aminmax_over, check_differentiable_dtype, in_dtype, normalize_dims,
                        unsqueeze_reduced)
from .reduction import sum as _reduce_sum
from .signatures import invalid_combination
from .registry import OTHER, REDUCTION, Primitive, primitive
from .shape import _axis, cat, movedim, narrow, reshape, unsqueeze

__all__ = [
    "cumsum", "cumprod", "logcumsumexp", "prod", "aminmax", "diff", "cumsum_", "cumprod_",
]


NO_DIM = object()  # the default of a ``dim`` PyTorch requires: its own message when left out


def required_dim(function, dim):
    """``dim`` checked as PyTorch's argument parser checks a required int."""
    if dim is NO_DIM:
        raise TypeError(f'{function}() missing 1 required positional arguments: "dim"')
    if not isinstance(dim, (int, np.integer)):
        raise TypeError(f"{function}(): argument 'dim' (position 2) must be int, not "
                        f"{type(dim).__name__}")
    return dim


@primitive("cumsum", node="CumsumBackward0", group=OTHER, complex_rule=True)
def _cumsum(a, dim):
    return _scan(np.add, a, dim)


def _scan(ufunc, a, dim):
    """``ufunc``'s running reduction along ``dim``, integers in int64, floats accumulated as
    PyTorch's CPU kernels accumulate them (float32 in float64, float16 in float32: its
    ``acc_type``), then rounded back; a 0-d array is one element. The ufunc, not np.cumsum: see
    the warning filter in elementwise.py. Row-major whatever ``a``'s layout, as PyTorch's."""
    if a.ndim == 0:
        return _scan(ufunc, a.reshape(1), 0).reshape(())
    if a.dtype.kind in "biu":
        return np.ascontiguousarray(ufunc.accumulate(a, axis=dim, dtype=np.int64))
    accumulator = _ACCUMULATORS.get(a.dtype.name, a.dtype)
    return np.ascontiguousarray(ufunc.accumulate(a, axis=dim, dtype=accumulator), dtype=a.dtype)


_ACCUMULATORS = {"float32": np.float64, "float16": np.float32}


@_cumsum.vjp
def _(ctx, grad, dim):
    if grad._array.ndim == 0:
        return grad
    return _reverse_cumsum(grad, dim)  # input i reaches every output from i on


def cumsum(input, dim=NO_DIM, *, dtype=None):
    if dtype is None:
        return _running(_cumsum, input, dim)
    _axis(required_dim("cumsum", dim), input._array.ndim)  # checked first, as PyTorch
    _refuse_bool_accumulator(_cumsum, input, dtype)
    check_differentiable_dtype(input, dtype)
    return in_dtype(_running(_cumsum, input.to(dtype), dim), dtype)


def _refuse_bool_accumulator(prim, input, dtype):
    """PyTorch's running sums and products have no bool kernel to compute a ``dtype=bool`` in
    (a bool input without ``dtype`` is promoted to int64); a 0-d or empty input needs none."""
    if dtypes.as_dtype(dtype) is dtypes.bool and input._array.ndim and input._array.size:
        raise NotImplementedError(f'"{prim.name}_out_cpu" not implemented for \'Bool\'')


def _running_inplace(prim, function):
    """``cumsum_`` / ``cumprod_``: the running reduction along ``dim`` written into ``input``,
    in ``input``'s own dtype (integers wrap as it does); ``dtype``, if given, must be that one."""
    name = function.__name__ + "_"

    def running_(input, dim=NO_DIM, *, dtype=None):
        dim = required_dim(name, dim)
        _check_inplace_dtype(input, dtype)
        if input._array.dtype == np.bool_:
            raise NotImplementedError(f'"{prim.name}_out_cpu" not implemented for \'Bool\'')
        return apply_inplace(prim, input, (), {
            "dim": (_dims_of(dim, input._array.ndim) or (0,))[0]})
    running_.__name__ = running_.__qualname__ = name
    prim.inplace = functools.partial(_scan_into, prim.forward)
    return running_


def _check_inplace_dtype(input, dtype):
    """PyTorch computes an in-place running reduction into ``input`` itself: a ``dtype`` other
    than ``input``'s is refused."""
    if dtype is not None and dtype.numpy != input._array.dtype:
        raise RuntimeError(
            f"Bad in-place call: input tensor dtype {CPP_TYPE_NAMES[input._array.dtype.name]} "
            f"and output tensor dtype {CPP_TYPE_NAMES[dtype.numpy.name]} should match")


def _scan_into(forward, out, dim):
    """``forward``'s running reduction of ``out`` written back into it; integer results (in
    int64) wrap to ``out``'s dtype, as PyTorch's kernel accumulating in that dtype does."""
    np.copyto(out, forward(out, dim=dim), casting="unsafe")


def _running(prim, input, dim):
    """A running reduction along ``dim`` (a 0-d tensor counts as one element)."""
    dim = required_dim(prim.name, dim)
    return prim(input, dim=(_dims_of(dim, input._array.ndim) or (0,))[0])



@primitive("cumprod", node="CumprodBackward0", group=OTHER, saves=("a", "out"))
def _cumprod(a, dim):
    return _scan(np.multiply, a, dim)


@_cumprod.vjp
def _(ctx, grad, dim):
    """Input i reaches output k >= i as the product of the others up to k. Before the first zero
    of a slice that is ``out_k / a_i``; at the first zero, the running product with that zero
    taken as one; after it, nothing reaches (every path multiplies by that zero). That shortcut's
    own derivative is not cumprod's second one, so under ``create_graph`` a slice holding a zero
    takes the quadratic route, differentiable again (as PyTorch does). Each case sums only the
    outputs it reaches, so a nan or inf beyond them stays out; a slice of one passes ``grad``
    through, whatever its value."""
    if grad._array.ndim == 0 or grad._array.shape[dim] == 1:
        return grad
    a, out = ctx.saved
    is_zero = a == 0
    if not is_zero._array.any():  # PyTorch's shortcut (its DivBackward0 under create_graph)
        return _reverse_cumsum(grad * out, dim) / a
    if grad_mode.is_grad_enabled():
        return _cumprod_vjp_differentiable(grad, a, dim)
    zeros_so_far = _cumsum(is_zero, dim=dim)
    first_zero = is_zero & (zeros_so_far == 1)
    before_zeros = _reverse_cumsum(where(zeros_so_far == 0, grad * out, 0.0), dim) / where(
        is_zero, 1.0, a)
    zero_as_one = _cumprod(where(first_zero, 1.0, a), dim=dim)
    at_first_zero = _reduce_sum(where(zeros_so_far == 1, grad * zero_as_one, 0.0), (dim,),
                                keepdim=True)
    return where(zeros_so_far == 0, before_zeros, where(first_zero, at_first_zero, 0.0))


def _cumprod_vjp_differentiable(grad, a, dim):
    """cumprod's vector-Jacobian product as tapegrad ops, without dividing: row i of an n x n
    matrix holds ``a`` with its i-th entry replaced by one, so that row's running product at k
    is d out_k / d a_i for k >= i."""
    n = a.shape[dim]
    a_last, grad_last = movedim(a, dim, -1), movedim(grad, dim, -1)
    diagonal = eye(n, dtype=dtypes.bool)
    others = _cumprod(where(diagonal, 1.0, unsqueeze(a_last, -2)), dim=a_last.ndim)
    reaches = triu(ones(n, n, dtype=dtypes.bool))  # output k depends on input i for k >= i
    products = where(reaches, others * unsqueeze(grad_last, -2), 0.0)
    return movedim(_reduce_sum(products, (a_last.ndim,), keepdim=False), -1, dim)


def _reverse_cumsum(t, dim):
    return _flip(_cumsum(_flip(t, dims=(dim,)), dim=dim), dims=(dim,))


def cumprod(input, dim=NO_DIM, *, dtype=None):
    if dtype is None:
        return _running(_cumprod, input, dim)
    _axis(required_dim("cumprod", dim), input._array.ndim)
    _refuse_bool_accumulator(_cumprod, input, dtype)
    check_differentiable_dtype(input, dtype)
    return in_dtype(_running(_cumprod, input.to(dtype), dim), dtype)


cumsum_ = _running_inplace(_cumsum, cumsum)
cumprod_ = _running_inplace(_cumprod, cumprod)


@primitive("logcumsumexp", node="LogcumsumexpBackward0", group=OTHER, saves=("a", "out"))
def _logcumsumexp(a, dim):
    """``log(cumsum(exp(a)))`` as running ``logaddexp``: stable whatever the values' range."""
    if a.dtype.kind == "c":
        return _complex_logcumsumexp(a, dim)
    return _scan(np.logaddexp, a, dim)


def _complex_logcumsumexp(a, dim):
    """The complex running log-sum-exp, accumulated in complex128 as PyTorch's kernel adds: the
    term of larger real part plus ``log1p(exp(other - it))``, so imaginary parts are not wrapped
    into (-pi, pi]; a nan real part gives nan, two -inf real parts keep the running one, two
    +inf real parts go through ``log(exp + exp)``."""
    if a.ndim == 0:
        return a.copy()
    terms = np.moveaxis(a.astype(np.complex128), dim, 0)
    out = np.empty_like(terms)
    out[0] = running = terms[0]
    with np.errstate(all="ignore"):
        for i in range(1, len(terms)):
            running = out[i] = _complex_logaddexp(running, terms[i])
    return np.ascontiguousarray(np.moveaxis(out, 0, dim), dtype=a.dtype)


def _complex_logaddexp(x, y):
    larger, smaller = np.where(x.real < y.real, y, x), np.where(x.real < y.real, x, y)
    result = larger + np.log1p(np.exp(smaller - larger))
    both_infinite = np.isinf(x.real) & (x.real == y.real)
    result = np.where(both_infinite & (x.real < 0), x, result)
    result = np.where(both_infinite & (x.real > 0), np.log(np.exp(x) + np.exp(y)), result)
    return np.where(np.isnan(x.real) | np.isnan(y.real), complex(np.nan, np.nan), result)


@_logcumsumexp.vjp
def _(ctx, grad, dim):
    """Input i reaches output k >= i with weight ``exp(a_i - out_k)``: the gradient is
    ``exp(a_i) Σ_{k>=i} grad_k exp(-out_k)``, summed in log space by a reversed logcumsumexp,
    which no large ``out`` overflows — a real gradient as its positive and negative parts, a
    complex one (which has a logarithm) whole."""
    if grad._array.ndim == 0:
        return grad
    a, out = ctx.saved
    if a._array.dtype.kind == "c":
        return _complex_log_space_sum(grad, a, out, dim)
    return _log_space_sum(grad, a, out, dim=dim, reverse=True)


def _log_space_sum(g, p, q, *, dim, reverse):
    """``exp(p_i) Σ g_k exp(-q_k)`` over the k after i (``reverse``) or before it, both
    included: linear in ``g``, the difference of its parts of each sign."""
    return sub(_log_space_part(g, p, q, dim=dim, reverse=reverse, negative=False),
               _log_space_part(g, p, q, dim=dim, reverse=reverse, negative=True))


@primitive("log_space_cumsum_part", node="LogSpaceCumsumPartBackward0", group=OTHER,
           saves=("g", "p", "q", "out"))
def _log_space_part(g, p, q, *, dim, reverse, negative):
    """``exp(p_i) Σ max(±g_k, 0) exp(-q_k)`` (``-g`` when ``negative``) by a running
    logcumsumexp. PyTorch's rule: the log of a zero entry is the dtype's lowest finite number,
    not -inf, which would make ``-inf - -inf`` a nan in the second derivative. A primitive so
    that its derivative in ``g`` is the whole linear map even where ``g`` is zero (the
    double-vjp trick of forward-mode differentiates there), not the zero a ``where`` on the
    sign would give."""
    steps = _log_steps(np.log, np.where, g, q, negative)
    if reverse:
        return np.exp(np.flip(_scan(np.logaddexp, np.flip(steps, dim), dim), dim) + p)
    return np.exp(_scan(np.logaddexp, steps, dim) + p)


def _log_steps(log, where, g, q, negative):
    """``log(max(±g, 0)) - q``, the lowest finite number for the log of zero; on arrays or
    tensors, given their ``log`` and ``where``."""
    signed = -g if negative else g
    chosen = signed > 0
    lowest = float(np.finfo(g.dtype if isinstance(g, np.ndarray) else g._array.dtype).min)
    with np.errstate(divide="ignore"):
        return where(chosen, log(where(chosen, signed, 1)), lowest) - q


@_log_space_part.vjp
def _(ctx, grad, dim, reverse, negative):
    """The part is ``exp(p + R)`` with ``R`` the running logcumsumexp of ``steps = log(±g) -
    q``: PyTorch differentiates these ops one by one, so ``p`` takes ``grad * out``, ``steps``
    the logcumsumexp rule's sum of ``grad * out`` (the other way), ``q`` minus that, and ``g``
    that over ``g`` — the same roundings. Where ``g`` is zero, that quotient is 0/0 (nan in
    PyTorch); the part that owns zero (the positive one) takes the linear map's derivative there
    instead, the transposed sum of ``grad``, so the difference of the parts is linear in ``g``
    everywhere."""
    g, p, q, out = ctx.saved
    need_g, need_p, need_q = ctx.needs_input_grad
    grad_g = grad_q = None
    if need_g or need_q:
        steps = _log_steps(lambda t: t.log(), where, g, q, negative)
        running = (_flip(_logcumsumexp(_flip(steps, dims=(dim,)), dim=dim), dims=(dim,))
                   if reverse else _logcumsumexp(steps, dim=dim))
        grad_steps = _log_space_sum(grad * out, steps, running, dim=dim, reverse=not reverse)
        if need_q:
            grad_q = -grad_steps
        if need_g:
            chosen = (-g if negative else g) > 0
            grad_g = where(chosen, grad_steps, 0.0) / g.abs() * g.sgn()
            at_zero = (_log_space_sum(grad, -q, -p, dim=dim, reverse=not reverse)
                       if not negative else 0.0)
            grad_g = where(g == 0, at_zero, grad_g)
    return grad_g, grad * out if need_p else None, grad_q


def _complex_log_space_sum(grad, a, out, dim):
    """The complex gradient in log space, whole: zero entries of ``grad`` take the lowest
    finite number as their log, as real ones do."""
    nonzero = grad != 0
    logs = where(nonzero, where(nonzero, grad, 1.0).log(), float(np.finfo(a._array.dtype).min))
    reached = _flip(_logcumsumexp(_flip(logs - out, dims=(dim,)), dim=dim), dims=(dim,))
    return (reached + a).exp()


def logcumsumexp(input, dim=NO_DIM):
    _axis(required_dim("logcumsumexp", dim), input._array.ndim)  # checked first, as PyTorch
    if input._array.dtype.kind not in "fc":
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[input._array.dtype.name]}'")
    return _running(_logcumsumexp, input, dim)


def _prod_forward(a, dims, keepdim):
    return np.multiply.reduce(a, axis=dims, keepdims=keepdim,
                              dtype=np.int64 if a.dtype.kind in "biu" else None)


_prod_all = Primitive("prod_all", _prod_forward, node="ProdBackward0", group=REDUCTION,
                      saves=("a", "out"))
_prod = Primitive("prod", _prod_forward, node="ProdBackward1", group=REDUCTION,
                  saves=("a", "out"))


@_prod_all.vjp
@_prod.vjp
def _(ctx, grad, dims, keepdim):
    """d prod / d a_i is the product of the others: ``out / a_i`` when no input is zero, else
    the running products from either side, which divide by nothing and differentiate again
    exactly (PyTorch's two routes, whole-tensor products through a flattened view)."""
    a, out = ctx.saved
    shape = ctx.input_shapes[0]
    if not shape:
        return grad
    if not keepdim:  # (PyTorch's prod_backward: unsqueezed, a whole product broadcast)
        grad, out = unsqueeze_reduced(grad, shape, dims), unsqueeze_reduced(out, shape, dims)
    if not (a == 0)._array.any():
        return grad * (out / a)
    if dims is None:
        return reshape(grad * _product_of_others(reshape(a, (-1,)), 0), shape)
    return grad * _product_of_others(a, dims[0])


def _product_of_others(a, dim):
    """Along ``dim``, each entry's product of all the other entries: the running product of
    those before it times the running product of those after it."""
    n = a.shape[dim]
    one = ones(tuple(1 if d == dim else s for d, s in enumerate(a.shape)), dtype=a.dtype)
    before = _cumprod(cat([one, narrow(a, dim, 0, n - 1)], dim), dim=dim)
    after = _flip(_cumprod(cat([one, _flip(narrow(a, dim, 1, n - 1), dims=(dim,))], dim),
                           dim=dim), dims=(dim,))
    return before * after


_PROD_OVERLOADS = (
    "Tensor input, *, torch.dtype dtype = None",
    "Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None")


def prod(input, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        check_differentiable_dtype(input, dtype)
        return in_dtype(prod(input.to(dtype), dim, keepdim), dtype)
    if dim is None:
        return _prod_all(input, dims=None, keepdim=False)
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise invalid_combination("prod", [input, dim], {}, _PROD_OVERLOADS)
    return _prod(input, dims=_dims_of(dim, input._array.ndim) or None, keepdim=keepdim)

def aminmax(input, *, dim=None, keepdim=False):
    refuse_complex(input, kernel="aminmax_cpu")
    dims = _aminmax_dim(input, dim)
    return aminmax_over(input, normalize_dims(dims, input._array.ndim), keepdim)


def _aminmax_dim(input, dim):
    """aminmax's one ``dim`` as an int (``()``: all of them), with aminmax's own messages for
    a wrong type and for nothing to reduce (amin's and amax's would name themselves)."""
    shape = input._array.shape
    if dim is not None and (isinstance(dim, bool) or not hasattr(dim, "__index__")):
        raise TypeError(f"aminmax(): argument 'dim' must be int, not {type(dim).__name__}")
    if dim is None:
        if input._array.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                               "operation has no identity.")
        return ()
    dim = dim.__index__()
    axis = _dims_of(dim, max(len(shape), 1))[0]
    if shape and shape[axis] == 0:
        raise IndexError(f"aminmax: Expected reduction dim {axis} to have non-zero size.")
    return dim


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward differences along ``dim``, each a subtraction of two shifted slices
    (SubBackward0, as PyTorch records it); booleans differ by xor."""
    ndim = input._array.ndim
    if ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    dim = _axis(dim, ndim)
    ends = [t for t in (prepend, append) if t is not None]
    if any(t._array.ndim != ndim for t in ends):
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for t in ends:
        for d, (expected, got) in enumerate(zip(input._array.shape, t._array.shape)):
            if d != dim and expected != got:
                raise RuntimeError(
                    "diff expects the shape of tensor to prepend or append to match that of "
                    f"input except along the differencing dimension; input.size({d}) = "
                    f"{expected}, but got tensor.size({d}) = {got}")
    if ends:
        input = cat([t for t in (prepend, input, append) if t is not None], dim)
    if n == 0:  # a copy into a new tensor, as PyTorch makes it (CopyBackwards)
        return zeros_like(input).copy_(input)
    for _ in range(n):
        length = input._array.shape[dim]
        if length == 0:
            break
        later, earlier = narrow(input, dim, 1, length - 1), narrow(input, dim, 0, length - 1)
        subtract = logical_xor if input._array.dtype == np.bool_ else sub
        input = subtract(later, earlier)
    return input
