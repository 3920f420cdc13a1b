"""Sampling from distributions given by a tensor: multinomial and bernoulli, and the in-place
fills with random draws (bernoulli_, random_, exponential_, geometric_, log_normal_, cauchy_).

An in-place fill is recorded like PyTorch's (``ExponentialBackward0`` …): the values drawn do not
depend on the old ones, so the gradient that reaches the tensor before the fill is zero.
"""

import numpy as np

from .. import random
from ..tensor import _LEGACY_TYPE_NAMES, Tensor
from .elementwise import lt, to_dtype
from .creation import check_random_range
from .inplace import apply_inplace
from .operands import CPP_TYPE_NAMES
from .registry import OTHER, Primitive

__all__ = [
    "multinomial", "bernoulli", "bernoulli_", "random_", "exponential_", "geometric_",
    "log_normal_", "cauchy_",
]


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Draw category indices with probabilities proportional to each row of ``input``."""
    if input._array.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if input._array.dtype.kind != "f":
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: "
                           f"{_LEGACY_TYPE_NAMES[input._array.dtype.name]}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > input._array.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    weights = input._array.astype(np.float64)
    rows = np.atleast_2d(weights)
    if len(rows) and not rows.shape[1] and num_samples == 1:
        # ATen's kernel for one sample checks the range with aminmax, which refuses no categories
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    if (rows < 0).any() or not np.isfinite(rows).all():
        if replacement and num_samples > 1:  # ATen's other kernel: its check per element
            first = rows.reshape(-1)[np.flatnonzero(~(np.isfinite(rows) & (rows >= 0)))[0]]
            raise RuntimeError("invalid multinomial distribution (encountering probability "
                               f"entry {'< 0' if not first >= 0 else '= infinity or NaN'})")
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (rows.sum(axis=1) == 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    source = random.source(generator)
    if replacement and num_samples > 1:
        draws = _with_replacement(source, input._array.reshape(rows.shape), num_samples)
    else:
        # PyTorch's race: the largest weight / exponential(1) win (zero weights last)
        dtype = np.float32 if input._array.dtype == np.float16 else input._array.dtype
        races = source.exponential(rows.shape).astype(dtype)
        with np.errstate(divide="ignore", invalid="ignore"):
            keys = rows.astype(dtype) / races
        draws = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    return Tensor._make(draws.astype(np.int64).reshape(weights.shape[:-1] + (num_samples,)))


def _with_replacement(source, rows, num_samples):
    """For each row in turn, ``num_samples`` float64 uniforms located in the row's cumulative
    sums (accumulated in the row's dtype, float32 for float16, then divided by their total)."""
    dtype = np.float32 if rows.dtype == np.float16 else rows.dtype
    cumulative = np.cumsum(rows, axis=1, dtype=dtype)
    cumulative /= cumulative[:, -1:]
    cumulative[:, -1] = 1
    return np.array([np.searchsorted(row.astype(np.float64), source.uniform((num_samples,),
                                                                           np.float64))
                     for row in cumulative]).reshape(len(rows), num_samples)


def bernoulli(input, p=None, *, generator=None):
    """Ones with probability ``input`` (or ``p``), zeros otherwise, in ``input``'s dtype."""
    _refuse_kinds(input, "c", "bernoulli_tensor_cpu_self_" if p is None
                  else "bernoulli_scalar_cpu_")
    if p is None and input._array.dtype.kind != "f":
        raise NotImplementedError('"bernoulli_tensor_cpu_p_" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[input._array.dtype.name]}'")
    if p is None:
        probabilities = input._array
        if not ((probabilities >= 0) & (probabilities <= 1)).all():  # NaN too
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  "
                               "(Could this error message be improved?  If so, please report an "
                               "enhancement request to PyTorch.)")
    elif not isinstance(p, Tensor) and not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    shape = input._array.shape
    kind = _uniform_kind(input if p is None else p)
    uniform = Tensor._make(random.drawn(lambda: random.source(generator).uniform(shape, kind)))
    # tensor operations, not numpy on the arrays: a compiled call compares its fresh draws
    return to_dtype(lt(uniform, input if p is None else p), input.dtype)


def _fill_primitive(name, node, fill=lambda values, *others: values):
    """A primitive that writes ``fill(values, *others)`` over its first input, ``values`` being
    numbers drawn beforehand (bernoulli_'s probability tensor is the one other input); every
    input's gradient is zero."""
    def forward(a, *others, values):
        return np.asarray(fill(values, *others)).astype(a.dtype)

    def inplace(out, *others, values):
        out[...] = fill(values, *others)

    prim = Primitive(name, forward, node=node, group=OTHER)
    prim.inplace = inplace
    prim.vjp(lambda ctx, grad, values: tuple(grad * 0 if needed else None
                                             for needed in ctx.needs_input_grad))
    return prim


# bernoulli_: the draws are uniform numbers, compared with p inside the op
_bernoulli_tensor = _fill_primitive("bernoulli_tensor_", "BernoulliBackward1",
                                    lambda uniform, p: uniform < p)
_bernoulli_scalar = _fill_primitive("bernoulli_", "BernoulliBackward2")
_random_range = _fill_primitive("random_from_to_", "RandomBackward0")
_random_to = _fill_primitive("random_to_", "RandomBackward1")
_random_full = _fill_primitive("random_", "RandomBackward2")
_exponential = _fill_primitive("exponential_", "ExponentialBackward0")
_geometric = _fill_primitive("geometric_", "GeometricBackward0")
_log_normal = _fill_primitive("log_normal_", "LogNormalBackward0")
_cauchy = _fill_primitive("cauchy_", "CauchyBackward0")


def _fill(prim, input, values, others=()):
    return apply_inplace(prim, input, others, {"values": values})


def bernoulli_(input, p=0.5, *, generator=None):
    """Ones with probability ``p`` (a number, or a tensor broadcast to ``input``), zeros
    otherwise."""
    shape = input._array.shape
    _refuse_kinds(input, "c", "bernoulli_tensor_cpu_self_" if isinstance(p, Tensor)
                  else "bernoulli_scalar_cpu_")
    if isinstance(p, Tensor):
        if ((p._array < 0) | (p._array > 1)).any():
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  "
                               "(Could this error message be improved?  If so, please report an "
                               "enhancement request to PyTorch.)")
        kind = _uniform_kind(p)
        uniform = random.drawn(lambda: random.source(generator).uniform(shape, kind))
        return _fill(_bernoulli_tensor, input, uniform, (p,))
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    # as 0/1 bytes: a boolean array among a primitive's parameters reads as a mask to the tracer
    return _fill(_bernoulli_scalar, input, random.drawn(
        lambda: random.source(generator).bernoulli(shape, p).view(np.uint8)))


def _uniform_kind(p):
    """The uniforms PyTorch compares with probabilities ``p``: float64 ones for a float64 tensor
    or a number, float32 ones for another tensor."""
    return np.float64 if not isinstance(p, Tensor) or p._array.dtype == np.float64 else \
        np.float32


def _refuse_kinds(input, kinds, kernel):
    """PyTorch's refusal by the CPU ``kernel`` of a tensor whose numpy kind is in ``kinds``."""
    if input._array.dtype.kind in kinds:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[input._array.dtype.name]}'")


def _random_bound(dtype):
    """One past the largest value random_() draws: every integer the dtype holds exactly."""
    if dtype.kind == "f":
        return 2 ** (np.finfo(dtype).nmant + 1) + 1
    if dtype.kind == "b":
        return 2
    return int(np.iinfo(dtype).max) + 1


def random_(input, from_=None, to=None, *, generator=None):
    """Integers uniform in [from, to), [0, to) with one bound, or every integer the dtype holds
    exactly (from 0) with none."""
    dtype = input._array.dtype
    if from_ is None and to is None:
        _refuse_kinds(input, "c", "random_kernel_cpu")
        low, high, prim = 0, _random_bound(dtype), _random_full
    else:
        low, high, prim = (0, from_, _random_to) if to is None else (from_, to, _random_range)
        check_random_range(dtype, low, high)
    shape = input._array.shape
    return _fill(prim, input, random.drawn(
        lambda: random.source(generator).integers(shape, low, high)))


def _continuous(input, distribution, type_names):
    """PyTorch's refusal of an integer tensor (its kernels spell the dtype differently)."""
    if input._array.dtype.kind != "f":
        raise RuntimeError(f"{distribution} distribution is a continuous probability "
                           "distribution. dtype must be a floating point but you specified "
                           f"{type_names[input._array.dtype.name]}")


def exponential_(input, lambd=1.0, *, generator=None):
    if not lambd > 0:  # a NaN lambda too
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    _continuous(input, "Exponential", _LEGACY_TYPE_NAMES)
    shape = input._array.shape
    return _fill(_exponential, input, random.drawn(
        lambda: random.source(generator).exponential(shape, lambd)))


def geometric_(input, p, *, generator=None):
    """The number of Bernoulli(p) trials up to the first success (1, 2, …)."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    _refuse_kinds(input, "bc", "geometric_cpu")
    shape = input._array.shape
    return _fill(_geometric, input, random.drawn(
        lambda: random.source(generator).geometric(shape, p)))


def log_normal_(input, mean=1.0, std=2.0, *, generator=None):
    if not std > 0:  # a NaN std too
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    if input._array.dtype.kind != "f":
        raise NotImplementedError('"log_normal_cpu" not implemented for '
                                  f"'{_LEGACY_TYPE_NAMES[input._array.dtype.name]}'")
    shape = input._array.shape
    return _fill(_log_normal, input, random.drawn(
        lambda: random.source(generator).log_normal(shape, mean, std)))


def cauchy_(input, median=0.0, sigma=1.0, *, generator=None):
    if not sigma > 0:  # a NaN sigma too
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    _continuous(input, "Cauchy", CPP_TYPE_NAMES)
    shape = input._array.shape
    return _fill(_cauchy, input, random.drawn(
        lambda: random.source(generator).cauchy(shape, median, sigma)))
