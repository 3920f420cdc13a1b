"""Helpers shared by the distributions: broadcasting parameters, probabilities ↔ logits, and
lazily computed attributes."""
import numbers

import numpy as np

from .. import dtypes, ops, random
from ..autograd import grad_mode
from ..ops.factorizations import solve_triangular
from ..ops.matrix import cholesky
from ..tensor import Tensor

__all__ = ["broadcast_all", "probs_to_logits", "logits_to_probs", "clamp_probs", "lazy_property",
           "tril_matrix_to_vec", "vec_to_tril_matrix", "format_value", "sum_rightmost", "finfo",
           "clipped_sigmoid", "draw", "fill_masked_"]


euler_constant = 0.57721566490153286060  # the Euler–Mascheroni constant γ


def format_value(value):
    """A value as PyTorch shows it in messages: a 0-d tensor as its Python number."""
    return value.item() if isinstance(value, Tensor) and value.dim() == 0 else value


def broadcast_all(*values):
    """Tensors (numbers become tensors of the tensors' dtype, or the default dtype) broadcast to
    one shape."""
    if not all(isinstance(v, (Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor "
                         "or objects implementing __torch_function__.")
    if all(isinstance(v, numbers.Number) for v in values):
        dtype = dtypes.get_default_dtype()
    else:
        dtype = next(v.dtype for v in values if isinstance(v, Tensor))
    tensors = [v if isinstance(v, Tensor) else ops.tensor(v, dtype=dtype) for v in values]
    return tuple(ops.broadcast_tensors(*tensors))


def clamp_probs(probs):
    """Probabilities kept inside (0, 1) by the dtype's machine epsilon, so logs stay finite."""
    eps = float(finfo(probs.dtype).eps)
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    clamped = clamp_probs(probs)
    if is_binary:
        return clamped.log() - (-clamped).log1p()
    return clamped.log()


def logits_to_probs(logits, is_binary=False):
    return logits.sigmoid() if is_binary else logits.softmax(dim=-1)


def _tril_mask(n, diag):
    """The (n, n) boolean mask of the entries on or below diagonal ``diag``."""
    rows = ops.arange(n).view(-1, 1)
    return ops.arange(n) < rows + (diag + 1)


def tril_matrix_to_vec(mat, diag=0):
    """The entries of (a batch of) square matrices on or below diagonal ``diag``, in row order,
    as the last dimension."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    return mat[..., _tril_mask(n, diag)]


def vec_to_tril_matrix(vec, diag=0):
    """The inverse of ``tril_matrix_to_vec``: the last dimension, read in row order, filled into
    the entries of a square matrix on or below diagonal ``diag`` (zeros elsewhere)."""
    length = vec.shape[-1]
    # n solves n² + (1 + 2·diag)·n − |diag|·(diag + 1) − 2·length = 0 (the entries counted).
    b = 1 + 2 * diag
    n = (-b + (b * b + 8 * length + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > float(finfo(vec.dtype).eps):
        raise ValueError(f"The size of last dimension is {length} which cannot be expressed as "
                         "the lower triangular part of a square D x D matrix.")
    n = round(n)
    mat = vec.new_zeros(tuple(vec.shape[:-1]) + (n, n))
    mat[..., _tril_mask(n, diag)] = vec
    return mat


class lazy_property:
    """Computed on first access (with grad enabled, so it stays differentiable) and then stored
    on the instance, as PyTorch's ``lazy_property``: ``probs`` from ``logits`` or the reverse."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with grad_mode.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def sum_rightmost(value, dim):
    """``value`` summed over its last ``dim`` dimensions."""
    if dim == 0:
        return value
    return value.reshape(tuple(value.shape[:value.dim() - dim]) + (-1,)).sum(-1)


def finfo(dtype):
    """numpy's finfo of a floating dtype; PyTorch's TypeError for any other."""
    dtypes.finfo(dtype)
    return np.finfo(dtype.numpy)


def clipped_sigmoid(x):
    """sigmoid(x) kept inside (0, 1), so its log and the log of its complement stay finite."""
    info = finfo(x.dtype)
    return x.sigmoid().clamp(min=float(info.tiny), max=1.0 - float(info.eps))


def draw(sampler, shape, dtype):
    """``sampler(generator, shape)``, drawn from tapegrad's default generator (whose methods
    draw as PyTorch's fills do, see ``random.Generator``), as a tensor.

    The sampler must depend on the shape alone (standard noise a distribution then moves and
    scales with tensor operations): a compiled function then draws it anew on every call
    (``random.drawn``), so ``rsample`` compiles. Draws shaped by tensor values (Poisson rates,
    binomial counts, gamma concentrations) are ops of their own."""
    shape = tuple(shape)
    return Tensor._make(random.drawn(
        lambda: np.asarray(sampler(random.source(), shape)).astype(dtype.numpy)))


def fill_masked_(tensor, mask, value):
    """``tensor[mask] = value`` in place, as PyTorch's distributions write it: the entries picked
    get ``value`` and no gradient, the graph records IndexPutBackward0. ``tensor`` is a fresh
    result of the caller's, never a parameter."""
    tensor[mask.expand_as(tensor)] = value
    return tensor


def the_one_matrix(error, scale_tril, covariance_matrix, precision_matrix):
    """``(name, matrix)`` of the one matrix parameter given to a multivariate distribution;
    ``error`` (PyTorch raises a ValueError or an AssertionError, by distribution) otherwise."""
    given = [(name, matrix) for name, matrix in (("scale_tril", scale_tril),
                                                 ("covariance_matrix", covariance_matrix),
                                                 ("precision_matrix", precision_matrix))
             if matrix is not None]
    if len(given) != 1:
        raise error("Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                    "specified.")
    return given[0]


def solve_lower(L, B):
    """``L⁻¹ B`` for a lower-triangular ``L`` (a Cholesky factor): a triangular solve reads only
    that triangle, so the upper one gets no gradient, as in PyTorch."""
    return solve_triangular(L, B, upper=False)


def precision_to_scale_tril(P):
    """The lower Cholesky factor of ``P⁻¹`` without inverting ``P``: with J the exchange matrix,
    J P J = Lf Lfᵀ gives P⁻¹ = (J Lf J)⁻ᵀ (J Lf J)⁻¹, and ``(J Lf J)ᵀ`` is lower triangular
    (PyTorch's route, so its values and their rounding are PyTorch's)."""
    flipped = cholesky(ops.flip(P, (-2, -1)))
    inverse_factor = ops.flip(flipped, (-2, -1)).mT
    return solve_lower(inverse_factor, ops.eye(P.shape[-1], dtype=P.dtype))
