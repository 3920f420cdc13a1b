"""Matrix products. ``matmul`` dispatches on the operands' ranks to the primitive PyTorch would
record (``DotBackward0``, ``MvBackward0``, ``MmBackward0``, ``BmmBackward0``); ``addmm`` is the fused
``bias + x @ W.T`` that ``nn.Linear`` records as ``AddmmBackward0``."""
import numpy as np

from .broadcast import sum_to
from .operands import promote
from .registry import OTHER, primitive

__all__ = ["matmul", "mm", "bmm", "mv", "dot", "addmm", "outer", "inner"]


def _mm_error(inputs, params):
    a, b = (t._array.shape for t in inputs[-2:])
    return f"mat1 and mat2 shapes cannot be multiplied ({a[0]}x{a[1]} and {b[0]}x{b[1]})"


def _dot_error(inputs, params):
    a, b = (t._array.shape for t in inputs)
    return (f"inconsistent tensor size, expected tensor [{a[0]}] and src [{b[0]}] to have the same "
            f"number of elements, but got {a[0]} and {b[0]} elements respectively")


def _mv_error(inputs, params):
    a, b = (t._array.shape for t in inputs)
    return f"size mismatch, got input ({a[0]}), mat ({a[0]}x{a[1]}), vec ({b[0]})"


def _batched_error(inputs, params):
    a, b = (t._array.shape for t in inputs)
    return (f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a[0] if len(a) > 2 else 1}, {a[-1]}] but got: [{b[0] if len(b) > 2 else 1}, "
            f"{b[-2]}].")


def _product(a, b):
    return a @ b


_mm = primitive("mm", node="MmBackward0", group=OTHER, saves=("a", "b"),
                error=_mm_error)(_product)
_bmm = primitive("bmm", node="BmmBackward0", group=OTHER, saves=("a", "b"),
                 error=_batched_error)(_product)


@_mm.vjp
@_bmm.vjp
def _(ctx, grad):
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    return (sum_to(grad @ b.mT, ctx.input_shapes[0]) if need_a else None,
            sum_to(a.mT @ grad, ctx.input_shapes[1]) if need_b else None)


@primitive("dot", node="DotBackward0", group=OTHER, saves=("a", "b"), error=_dot_error)
def _dot(a, b):
    return np.dot(a, b)


@_dot.vjp
def _(ctx, grad):
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    return (grad * b if need_a else None, grad * a if need_b else None)


@primitive("mv", node="MvBackward0", group=OTHER, saves=("a", "b"), error=_mv_error)
def _mv(a, b):
    return a @ b


@_mv.vjp
def _(ctx, grad):
    a, b = ctx.saved
    need_a, need_b = ctx.needs_input_grad
    return (grad.unsqueeze(1) * b if need_a else None,
            _mv(a.t(), grad) if need_b else None)


@primitive("addmm", node="AddmmBackward0", group=OTHER, saves=("a", "b"), error=_mm_error)
def _addmm(bias, a, b):
    return bias + a @ b


@_addmm.vjp
def _(ctx, grad):
    a, b = ctx.saved
    need_bias, need_a, need_b = ctx.needs_input_grad
    return (sum_to(grad, ctx.input_shapes[0]) if need_bias else None,
            _mm(grad, b.t()) if need_a else None,
            _mm(a.t(), grad) if need_b else None)


def matmul(input, other):
    a, b = promote(input, other)
    ranks = (a._array.ndim, b._array.ndim)
    if 0 in ranks:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{ranks[0]}D and {ranks[1]}D")
    if ranks == (1, 1):
        return _dot(a, b)
    if ranks == (2, 1):
        return _mv(a, b)
    if ranks == (2, 2):
        return _mm(a, b)
    if ranks[0] == 1:  # a vector on the left acts as a row
        return _bmm(a.unsqueeze(0), b).squeeze(-2)
    if ranks[1] == 1:
        return _bmm(a, b.unsqueeze(1)).squeeze(-1)
    return _bmm(a, b)


def mm(input, mat2):
    if input._array.ndim != 2 or mat2._array.ndim != 2:
        raise RuntimeError("self must be a matrix" if input._array.ndim != 2 else
                           "mat2 must be a matrix")
    return _mm(*promote(input, mat2))


def bmm(input, mat2):
    if input._array.ndim != 3 or mat2._array.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if input._array.ndim != 3 else
                           "batch2 must be a 3D tensor")
    return _bmm(*promote(input, mat2))


def mv(input, vec):
    return _mv(*promote(input, vec))


def dot(input, other):
    return _dot(*promote(input, other))


inner = dot


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    if beta != 1 or alpha != 1:
        return input * beta + matmul(mat1, mat2) * alpha
    return _addmm(input, mat1, mat2)


def outer(input, vec2):
    return input.unsqueeze(1) * vec2.unsqueeze(0)
