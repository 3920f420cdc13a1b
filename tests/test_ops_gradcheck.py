"""Every differentiable op's backward rule against finite differences, to first and second order.

``CASES`` is the op table's test table: one row per op application, written against a library
module ``T`` (tapegrad here; ``test_ops_vs_torch`` runs the same rows on PyTorch). A row names its
float inputs' shapes and the domain their values are drawn from, chosen away from the points where
the op is not differentiable (0 for abs/relu, ties for max, clamp boundaries).
"""
import operator
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck


@dataclass(frozen=True)
class OpCase:
    id: str
    fn: Callable  # fn(T, *tensors) -> tensor or tuple of tensors
    shapes: tuple  # one shape per float input
    domains: tuple = ()  # one domain name per input; default "normal"
    eps: float = 1e-6  # finite-difference step (larger where the op rounds, e.g. to float32)
    atol: float = 1e-5


DOMAINS = {
    "normal": lambda rng, shape: rng.standard_normal(shape),
    "positive": lambda rng, shape: rng.uniform(0.5, 2.0, shape),
    # |value| in [0.3, 1.5]: away from 0, where abs, relu, sign-dependent ops have a kink.
    "nonzero": lambda rng, shape: rng.choice([-1.0, 1.0], shape) * rng.uniform(0.3, 1.5, shape),
    # distinct values spread out (no ties within 0.05), for max/min/sort-like ops.
    "distinct": lambda rng, shape: rng.permutation(int(np.prod(shape))).reshape(shape) * 0.1
    + rng.uniform(-0.02, 0.02, shape),
}


def case(id, fn, *shapes, domains=None, **options):
    domains = domains or ("normal",) * len(shapes)
    return OpCase(id, fn, shapes, tuple(domains), **options)


def make_arrays(op_case, seed=0):
    """The case's input values as float64 numpy arrays (deterministic per seed)."""
    rng = np.random.default_rng(seed)
    return [np.asarray(DOMAINS[d](rng, s), dtype=np.float64)
            for s, d in zip(op_case.shapes, op_case.domains)]


# ------------------------------------------------------------------------------------- the table

def _inplace(method, *args, **kwargs):
    """``y = x * 1; y.<method>(w, ...)``: an in-place op applied to a non-leaf."""
    def fn(T, x, *others):
        return getattr(x * 1, method)(*others, *args, **kwargs)
    return fn


def _augmented(op):
    """``y = x * 1; y op= w`` (``+=``, ``-=``, ``*=``, ``/=``)."""
    def fn(T, x, w):
        return op(x * 1, w)
    return fn


def _setitem(key_fn):
    """``y = x * 1; y[key] = v``: gradients flow to both x (outside key) and v."""
    def fn(T, x, v):
        y = x * 1
        y[key_fn(T, x)] = v
        return y
    return fn




def _binary_cases():
    """Each binary op on equal shapes, on broadcasting pairs, with Python numbers either side."""
    ops = {
        "add": (lambda T, a, b: a + b, "normal"),
        "sub": (lambda T, a, b: a - b, "normal"),
        "mul": (lambda T, a, b: a * b, "normal"),
        "div": (lambda T, a, b: a / b, "nonzero"),
        "pow": (lambda T, a, b: a ** b, "normal"),
        "maximum": (lambda T, a, b: T.maximum(a, b), "normal"),
        "minimum": (lambda T, a, b: T.minimum(a, b), "normal"),
    }
    pairs = {"same": ((2, 3), (2, 3)), "col_row": ((3, 1), (1, 4)), "3d_vec": ((2, 3, 4), (4,)),
             "vec_3d": ((4,), (2, 3, 4)), "0d_vec": ((), (3,)), "vec_0d": ((3,), ())}
    for name, (fn, second) in ops.items():
        first = "positive" if name == "pow" else "normal"
        for pair, shapes in pairs.items():
            yield case(f"{name}-{pair}", fn, *shapes, domains=(first, second))
    yield case("add-scalar-right", lambda T, a: a + 2.5, (2, 3))
    yield case("add-scalar-left", lambda T, a: 2.5 + a, (2, 3))
    yield case("add-int-scalar", lambda T, a: a + 2, (2, 3))
    yield case("add-alpha", lambda T, a, b: T.add(a, b, alpha=2), (2, 3), (3,))
    yield case("sub-scalar-right", lambda T, a: a - 1.5, (2, 3))
    yield case("sub-scalar-left", lambda T, a: 1.5 - a, (2, 3))
    yield case("sub-alpha", lambda T, a, b: T.sub(a, b, alpha=-3), (2, 3), (2, 1))
    yield case("rsub", lambda T, a: T.rsub(a, 2.0), (2, 3))
    yield case("rsub-tensor", lambda T, a, b: T.rsub(a, b), (2, 3), (3,))
    yield case("mul-scalar-right", lambda T, a: a * 3.0, (2, 3))
    yield case("mul-scalar-left", lambda T, a: -3 * a, (2, 3))
    yield case("div-scalar-right", lambda T, a: a / 4.0, (2, 3))
    yield case("div-scalar-left", lambda T, a: 4.0 / a, (2, 3), domains=("nonzero",))
    yield case("maximum-0d", lambda T, a, b: T.maximum(a, b), (2, 3), ())
    yield case("where", lambda T, c, a, b: T.where(c > 0, a, b), (2, 3), (2, 3), (2, 3),
               domains=("nonzero", "normal", "normal"))
    yield case("where-broadcast", lambda T, c, a, b: T.where(c > 0, a, b), (3, 1), (1, 4), (4,),
               domains=("nonzero", "normal", "normal"))
    yield case("where-scalar", lambda T, a: T.where(a > 0, a, 0.5), (2, 3), domains=("nonzero",))


def _pow_cases():
    for exponent in (2, 3, 0, 1, -1, -2.5, 0.5, 1.5):
        yield case(f"pow-scalar-{exponent}", lambda T, a, e=exponent: a ** e, (2, 3),
                   domains=("positive",))
    yield case("pow-int-negative-base", lambda T, a: a ** 3, (2, 3))
    yield case("pow-function", lambda T, a: T.pow(a, 2.5), (2, 3), domains=("positive",))
    yield case("pow-scalar-base", lambda T, a: 2.0 ** a, (2, 3))
    yield case("pow-tensor-0d-exponent", lambda T, a, b: a ** b, (2, 3), (),
               domains=("positive", "normal"))
    yield case("square", lambda T, a: T.square(a), (2, 3))


def _unary_cases():
    unary = {
        "neg": (lambda T, a: -a, "normal"),
        "neg-fn": (lambda T, a: T.neg(a), "normal"),
        "exp": (lambda T, a: a.exp(), "normal"),
        "log": (lambda T, a: a.log(), "positive"),
        "sqrt": (lambda T, a: a.sqrt(), "positive"),
        "reciprocal": (lambda T, a: a.reciprocal(), "nonzero"),
        "abs": (lambda T, a: a.abs(), "nonzero"),
        "tanh": (lambda T, a: a.tanh(), "normal"),
        "sigmoid": (lambda T, a: a.sigmoid(), "normal"),
        "relu": (lambda T, a: a.relu(), "nonzero"),
        "relu-fn": (lambda T, a: T.relu(a), "nonzero"),
        "sin": (lambda T, a: a.sin(), "normal"),
        "cos": (lambda T, a: a.cos(), "normal"),
        "clamp-min": (lambda T, a: a.clamp(min=-0.2), "normal"),
        "clamp-max": (lambda T, a: a.clamp(max=0.3), "normal"),
        "clamp-both": (lambda T, a: T.clamp(a, -0.2, 0.3), "normal"),
        "clamp_min": (lambda T, a: a.clamp_min(0.1), "normal"),
        "clamp_max": (lambda T, a: a.clamp_max(0.1), "normal"),
        "to-float32": (lambda T, a: a.to(T.float32), "normal"),
        "float-double": (lambda T, a: a.float().double() * 2, "normal"),
        "clone": (lambda T, a: a.clone(), "normal"),
        "clone-fn": (lambda T, a: T.clone(a), "normal"),
    }
    for name, (fn, domain) in unary.items():
        rounds = "float" in name
        for shape_name, shape in (("2d", (2, 3)), ("0d", ())):
            yield case(f"{name}-{shape_name}", fn, shape, domains=(domain,),
                       eps=1e-3 if rounds else 1e-6, atol=1e-3 if rounds else 1e-5)
    yield case("clamp-tensor-min", lambda T, a, lo: a.clamp(min=lo), (3, 4), (4,))
    yield case("clamp-tensor-max", lambda T, a, hi: T.clamp(a, max=hi), (3, 4), (3, 1))
    yield case("clamp-tensor-both", lambda T, a, lo: T.clamp(a, lo, lo + 1.0), (3, 4), (4,))


def _matmul_cases():
    mm = lambda T, a, b: a @ b  # noqa: E731
    for name, shapes in {
        "1d-1d": ((4,), (4,)), "2d-1d": ((3, 4), (4,)), "1d-2d": ((4,), (4, 2)),
        "2d-2d": ((3, 4), (4, 2)), "3d-3d": ((2, 3, 4), (2, 4, 5)), "3d-2d": ((2, 3, 4), (4, 5)),
        "2d-3d": ((3, 4), (2, 4, 5)), "3d-1d": ((2, 3, 4), (4,)), "1d-3d": ((4,), (2, 4, 5)),
        "4d-3d": ((2, 2, 3, 4), (2, 4, 5)), "3d-3d-broadcast": ((1, 3, 4), (2, 4, 5)),
        "4d-4d-broadcast": ((2, 1, 3, 4), (1, 2, 4, 2)),
    }.items():
        yield case(f"matmul-{name}", mm, *shapes)
    yield case("matmul-fn", lambda T, a, b: T.matmul(a, b), (3, 4), (4, 2))
    yield case("matmul-transposed", lambda T, a, b: a.mT @ b, (2, 4, 3), (4, 2))
    yield case("mm", lambda T, a, b: T.mm(a, b), (3, 4), (4, 2))
    yield case("mm-method", lambda T, a, b: a.mm(b), (3, 4), (4, 2))
    yield case("bmm", lambda T, a, b: T.bmm(a, b), (2, 3, 4), (2, 4, 5))
    yield case("mv", lambda T, a, b: T.mv(a, b), (3, 4), (4,))
    yield case("dot", lambda T, a, b: T.dot(a, b), (4,), (4,))
    yield case("addmm", lambda T, c, a, b: T.addmm(c, a, b), (3, 2), (3, 4), (4, 2))
    yield case("addmm-broadcast-bias", lambda T, c, a, b: T.addmm(c, a, b), (2,), (3, 4), (4, 2))
    yield case("addmm-beta-alpha", lambda T, c, a, b: T.addmm(c, a, b, beta=0.5, alpha=2),
               (2,), (3, 4), (4, 2))


def _reduction_cases():
    x = (2, 3, 4)
    for name in ("sum", "mean"):
        yield case(f"{name}-all", lambda T, a, n=name: getattr(a, n)(), x)
        yield case(f"{name}-dim", lambda T, a, n=name: getattr(a, n)(1), x)
        yield case(f"{name}-neg-dim", lambda T, a, n=name: getattr(a, n)(-1), x)
        yield case(f"{name}-dims", lambda T, a, n=name: getattr(a, n)((0, 2)), x)
        yield case(f"{name}-keepdim", lambda T, a, n=name: getattr(a, n)(1, keepdim=True), x)
        yield case(f"{name}-dims-keepdim",
                   lambda T, a, n=name: getattr(T, n)(a, dim=(0, -1), keepdim=True), x)
        yield case(f"{name}-0d", lambda T, a, n=name: getattr(a, n)(), ())
    for name in ("max", "min"):
        yield case(f"{name}-all", lambda T, a, n=name: getattr(a, n)(), x, domains=("distinct",))
        yield case(f"{name}-dim", lambda T, a, n=name: getattr(a, n)(1), x, domains=("distinct",))
        yield case(f"{name}-dim-values", lambda T, a, n=name: getattr(T, n)(a, dim=-1).values, x,
                   domains=("distinct",))
        yield case(f"{name}-dim-keepdim", lambda T, a, n=name: getattr(a, n)(0, keepdim=True), x,
                   domains=("distinct",))
        yield case(f"{name}-binary", lambda T, a, b, n=name: getattr(T, n)(a, b), (3, 4), (4,))
    for name in ("amax", "amin"):
        yield case(f"{name}-all", lambda T, a, n=name: getattr(a, n)(), x, domains=("distinct",))
        yield case(f"{name}-dim", lambda T, a, n=name: getattr(a, n)(1), x, domains=("distinct",))
        yield case(f"{name}-dims-keepdim",
                   lambda T, a, n=name: getattr(T, n)(a, (0, 2), keepdim=True), x,
                   domains=("distinct",))
    for name in ("var", "std"):
        yield case(f"{name}-all", lambda T, a, n=name: getattr(a, n)(), x)
        yield case(f"{name}-dim", lambda T, a, n=name: getattr(a, n)(1), x)
        yield case(f"{name}-dims", lambda T, a, n=name: getattr(a, n)((0, 2)), x)
        yield case(f"{name}-correction0", lambda T, a, n=name: getattr(a, n)(1, correction=0), x)
        yield case(f"{name}-correction2", lambda T, a, n=name: getattr(a, n)(-1, correction=2), x)
        yield case(f"{name}-unbiased-false",
                   lambda T, a, n=name: getattr(T, n)(a, 1, unbiased=False), x)
        yield case(f"{name}-keepdim", lambda T, a, n=name: getattr(a, n)(1, keepdim=True), x)
    yield case("logsumexp-dim", lambda T, a: a.logsumexp(1), x)
    yield case("logsumexp-dims-keepdim", lambda T, a: T.logsumexp(a, (0, 2), keepdim=True), x)
    yield case("logsumexp-large", lambda T, a: (a * 100).logsumexp(-1), (3, 4))
    for name in ("softmax", "log_softmax"):
        yield case(f"{name}-dim1", lambda T, a, n=name: getattr(a, n)(1), x)
        yield case(f"{name}-neg-dim", lambda T, a, n=name: getattr(T, n)(a, dim=-1), x)
        yield case(f"{name}-dim0", lambda T, a, n=name: getattr(a, n)(0), (3, 4))


def _shape_cases():
    x = (2, 3, 4)
    yield case("reshape", lambda T, a: a.reshape(6, -1), x)
    yield case("reshape-tuple", lambda T, a: T.reshape(a, (4, 6)), x)
    yield case("reshape-noncontiguous", lambda T, a: a.mT.reshape(-1), x)
    yield case("view", lambda T, a: a.view(3, 8), x)
    yield case("view-0d", lambda T, a: a.view(1, 1), ())
    yield case("flatten", lambda T, a: a.flatten(), x)
    yield case("flatten-range", lambda T, a: T.flatten(a, 1), x)
    yield case("unflatten", lambda T, a: a.unflatten(2, (2, 2)), x)
    yield case("transpose", lambda T, a: a.transpose(0, 2), x)
    yield case("transpose-neg", lambda T, a: T.transpose(a, -1, 1), x)
    yield case("permute", lambda T, a: a.permute(2, 0, 1), x)
    yield case("permute-fn", lambda T, a: T.permute(a, (1, 2, 0)), x)
    yield case("movedim", lambda T, a: a.movedim(0, -1), x)
    yield case("movedim-tuples", lambda T, a: T.movedim(a, (0, 1), (2, 0)), x)
    yield case("t", lambda T, a: a.t(), (3, 4))
    yield case("t-1d", lambda T, a: a.t(), (3,))
    yield case("T", lambda T, a: a.T, (3, 4))
    yield case("mT", lambda T, a: a.mT, x)
    yield case("squeeze-all", lambda T, a: a.squeeze(), (2, 1, 3, 1))
    yield case("squeeze-dim", lambda T, a: a.squeeze(1), (2, 1, 3))
    yield case("squeeze-noop", lambda T, a: a.squeeze(0), (2, 1, 3))
    yield case("unsqueeze", lambda T, a: a.unsqueeze(0), (2, 3))
    yield case("unsqueeze-neg", lambda T, a: T.unsqueeze(a, -1), (2, 3))
    yield case("expand", lambda T, a: a.expand(2, 3, 4), (3, 1))
    yield case("expand-minus-one", lambda T, a: a.expand(2, -1, 4), (3, 1))
    yield case("broadcast_to", lambda T, a: T.broadcast_to(a, (2, 3, 4)), (4,))
    yield case("expand_as", lambda T, a, b: a.expand_as(b) * b, (3, 1), (3, 4))
    # views by index and by explicit strides (overlapping windows add their gradients up)
    yield case("select", lambda T, a: a.select(1, -2), x)
    yield case("select-fn", lambda T, a: T.select(a, 2, 0), x)
    yield case("unfold", lambda T, a: a.unfold(2, 2, 1), x)
    yield case("unfold-step", lambda T, a: a.unfold(1, 2, 2), x)
    yield case("unfold-of-transpose", lambda T, a: a.mT.unfold(0, 3, 1), (3, 4))
    yield case("unfold-0d", lambda T, a: a.unfold(0, 1, 1), ())
    yield case("as_strided", lambda T, a: a.as_strided((3, 3), (2, 1), 1), (3, 4))
    yield case("as_strided-fn-of-transpose", lambda T, a: T.as_strided(a.t(), (2, 3), (1, 2)),
               (3, 4))
    yield case("as_strided-of-view", lambda T, a: a[1:].as_strided((2, 2), (1, 3), 5), (3, 4))
    yield case("as_strided-of-expanded", lambda T, a: a.expand(3, 4).as_strided((3, 2), (1, 0)),
               (3, 1))


def _indexing_cases():
    x = (4, 5)
    keys = {
        "int": lambda T, a: 1,
        "neg-int": lambda T, a: -1,
        "two-ints": lambda T, a: (1, -2),
        "slice": lambda T, a: slice(1, 3),
        "slice-step": lambda T, a: (slice(None, None, 2), slice(1, None, 3)),
        "int-slice": lambda T, a: (slice(1, None), 2),
        "none": lambda T, a: (None, slice(1, 3)),
        "ellipsis": lambda T, a: (Ellipsis, 1),
        "ellipsis-none": lambda T, a: (Ellipsis, None),
        "int-array": lambda T, a: T.tensor([0, 2]),
        "int-array-repeated": lambda T, a: T.tensor([0, 3, 0, 0]),
        "list": lambda T, a: [1, 1, 2],
        "two-arrays": lambda T, a: (T.tensor([0, 1, 3]), T.tensor([4, 4, 0])),
        "bool-mask": lambda T, a: a > 0,
        "row-mask": lambda T, a: T.tensor([True, False, True, True]),
        "slice-array": lambda T, a: (slice(1, None), T.tensor([0, 0, 2])),
        "array-int": lambda T, a: (T.tensor([2, 0]), 1),
        "none-slice-int": lambda T, a: (slice(None), None, slice(1, 4)),
    }
    for name, key_fn in keys.items():
        yield case(f"getitem-{name}", lambda T, a, k=key_fn: a[k(T, a)], x)
    yield case("getitem-3d-int-array-split", lambda T, a: a[1, :, T.tensor([0, 2])], (2, 3, 4))
    yield case("getitem-chained", lambda T, a: a[1][2:], x)

    values = {  # key -> shape of the value assigned
        "int": (lambda T, a: 1, (5,)),
        "slice-broadcast": (lambda T, a: (slice(None), slice(1, 3)), (2,)),
        "int-array": (lambda T, a: T.tensor([0, 2]), (2, 5)),
        "bool-mask": (lambda T, a: a > 0, ()),
        "mixed": (lambda T, a: (slice(1, None), T.tensor([0, 2])), (3, 2)),
        "0d-value": (lambda T, a: (0, 1), ()),
    }
    for name, (key_fn, value_shape) in values.items():
        yield case(f"setitem-{name}", _setitem(key_fn), x, value_shape,
                   domains=("nonzero", "normal"))


def _joining_cases():
    yield case("cat", lambda T, a, b: T.cat([a, b]), (2, 3), (1, 3))
    yield case("cat-neg-dim", lambda T, a, b, c: T.cat((a, b, c), dim=-1), (2, 3), (2, 1), (2, 2))
    yield case("cat-one", lambda T, a: T.cat([a]), (2, 3))
    yield case("stack", lambda T, a, b: T.stack([a, b]), (2, 3), (2, 3))
    yield case("stack-dim1", lambda T, a, b: T.stack((a, b), dim=1), (2, 3), (2, 3))
    yield case("stack-neg-dim", lambda T, a, b: T.stack((a, b), -1), (2, 3), (2, 3))
    yield case("split", lambda T, a: a.split(2), (5, 3))
    yield case("split-sizes", lambda T, a: T.split(a, [1, 2], dim=1), (2, 3))
    yield case("chunk", lambda T, a: a.chunk(2, dim=1), (2, 5))
    yield case("unbind", lambda T, a: a.unbind(1), (2, 3))
    yield case("unbind-first-only", lambda T, a: a.unbind()[0], (2, 3))
    yield case("gather", lambda T, a: a.gather(1, T.tensor([[0, 0], [2, 1], [1, 2]])), (3, 3))
    yield case("gather-dim0", lambda T, a: T.gather(a, 0, T.tensor([[0, 1, 1]])), (2, 3))
    yield case("index_select", lambda T, a: a.index_select(0, T.tensor([2, 0, 2])), (3, 4))
    yield case("index_select-dim1", lambda T, a: T.index_select(a, -1, T.tensor([1])), (3, 4))
    yield case("narrow", lambda T, a: a.narrow(1, 1, 2), (3, 4))
    yield case("narrow-fn", lambda T, a: T.narrow(a, 0, 0, 1), (3, 4))


def _inplace_cases():
    yield case("add_", _inplace("add_"), (3, 4), (4,))
    yield case("add_-alpha", _inplace("add_", alpha=2), (3, 4), (3, 4))
    yield case("add_-scalar", _inplace("add_", 1.5), (3, 4))
    yield case("sub_", _inplace("sub_"), (3, 4), (3, 1))
    yield case("mul_", _inplace("mul_"), (3, 4), (4,))
    yield case("mul_-scalar", _inplace("mul_", 2.0), (3, 4))
    yield case("div_", _inplace("div_"), (3, 4), (3, 4), domains=("normal", "nonzero"))
    yield case("div_-scalar", _inplace("div_", 4.0), (3, 4))
    yield case("clamp_", _inplace("clamp_", -0.2, 0.3), (3, 4))
    yield case("clamp_-min", _inplace("clamp_", min=0.1), (3, 4))
    yield case("pow_", _inplace("pow_", 2), (3, 4))
    yield case("pow_-tensor", _inplace("pow_"), (3, 4), (4,), domains=("positive", "normal"))
    yield case("zero_", _inplace("zero_"), (3, 4))
    yield case("fill_", _inplace("fill_", 2.0), (3, 4))
    yield case("fill_-tensor", _inplace("fill_"), (3, 4), ())
    yield case("copy_", _inplace("copy_"), (3, 4), (4,))
    yield case("copy_-same-shape", _inplace("copy_"), (3, 4), (3, 4))
    yield case("iadd", _augmented(operator.iadd), (3, 4), (4,))
    yield case("isub", _augmented(operator.isub), (3, 4), (3, 4))
    yield case("imul", _augmented(operator.imul), (3, 4), (1, 4))
    yield case("itruediv", _augmented(operator.itruediv), (3, 4), (3, 4),
               domains=("normal", "nonzero"))
    yield case("iadd-scalar", lambda T, a: operator.iadd(a * 1, 3), (3, 4))
    yield case("inplace-chain", lambda T, a, w: (a * 1).mul_(w).add_(w).div_(2.0), (3, 4), (4,))
    yield case("view-mul_", _on_view(lambda y, w: y[:, 1].mul_(w)), (3, 4), (3,))
    yield case("view-iadd", _on_view(lambda y, v: operator.setitem(y, 0, operator.iadd(y[0], v))),
               (3, 4), (4,))
    yield case("view-setitem", _on_view(lambda y, v: operator.setitem(y[1], slice(1, None), v)),
               (3, 4), (3,))
    yield case("view-of-transpose-clamp_", _on_view(lambda y, w: y.t()[1:].clamp_(-0.5, 0.5)),
               (3, 4), ())
    yield case("view-of-untracked-base", _into_zeros(lambda z, w: z[1:, ::2].add_(w)), (2,))


def _on_view(write):
    """``y = x * 1; write(y, w)``: an in-place op through a view of a non-leaf."""
    def fn(T, x, w):
        y = x * 1
        write(y, w)
        return y
    return fn


def _into_zeros(write):
    """An in-place op through a view of a tensor that needs no grad, with an operand that does."""
    def fn(T, w):
        z = T.zeros(3, 4, dtype=w.dtype)
        write(z, w)
        return z
    return fn


CASES = [
    *_binary_cases(), *_pow_cases(), *_unary_cases(), *_matmul_cases(), *_reduction_cases(),
    *_shape_cases(), *_indexing_cases(), *_joining_cases(), *_inplace_cases(),
]
CASE_IDS = [c.id for c in CASES]
assert len(set(CASE_IDS)) == len(CASE_IDS), "case ids must be unique"


# ------------------------------------------------------------------------------------- the tests

def _inputs(op_case):
    return [tapegrad.tensor(a, dtype=tapegrad.float64, requires_grad=True)
            for a in make_arrays(op_case)]


@pytest.mark.parametrize("op_case", CASES, ids=CASE_IDS)
def test_gradcheck(op_case):
    inputs = _inputs(op_case)
    assert gradcheck(lambda *xs: op_case.fn(tapegrad, *xs), inputs, eps=op_case.eps,
                     atol=op_case.atol)


@pytest.mark.parametrize("op_case", CASES, ids=CASE_IDS)
def test_gradgradcheck(op_case):
    inputs = _inputs(op_case)
    assert gradgradcheck(lambda *xs: op_case.fn(tapegrad, *xs), inputs, eps=op_case.eps,
                         atol=op_case.atol)


@pytest.mark.parametrize("op_case", CASES, ids=CASE_IDS)
def test_output_records_a_graph(op_case):
    """Every row's outputs are differentiable: they carry a grad_fn reaching all inputs."""
    inputs = _inputs(op_case)
    outputs = op_case.fn(tapegrad, *inputs)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    float_outputs = [o for o in outputs if o.is_floating_point()]
    assert float_outputs and all(o.grad_fn is not None for o in float_outputs)
    total = sum(o.sum() for o in float_outputs)
    grads = tapegrad.autograd.grad(total, inputs, allow_unused=True)
    assert all(g is None or g.shape == x.shape for g, x in zip(grads, inputs))


def test_gradcheck_catches_a_wrong_rule():
    """The harness itself can fail: a Function with a deliberately wrong backward is rejected."""
    class WrongSquare(tapegrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x  # should be 2 * x

    x = tapegrad.tensor([0.5, 1.5], dtype=tapegrad.float64, requires_grad=True)
    assert not gradcheck(WrongSquare.apply, (x,), raise_exception=False)


def test_gradient_of_broadcast_input_is_summed_to_its_shape():
    a = tapegrad.ones(3, 1, dtype=tapegrad.float64, requires_grad=True)
    b = tapegrad.ones(1, 4, dtype=tapegrad.float64, requires_grad=True)
    (a * b * 2).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), np.full((3, 1), 8.0))
    np.testing.assert_array_equal(b.grad.numpy(), np.full((1, 4), 6.0))


def test_max_tie_splits_gradient_evenly():
    """At a tie, PyTorch gives each maximal element an equal share (amax and full max)."""
    for reduce in (lambda a: a.max(), lambda a: a.amax()):
        a = tapegrad.tensor([1.0, 3.0, 3.0], requires_grad=True)
        reduce(a).backward()
        np.testing.assert_array_equal(a.grad.numpy(), [0.0, 0.5, 0.5])


def test_repeated_index_gradient_accumulates():
    a = tapegrad.zeros(3, requires_grad=True)
    a[tapegrad.tensor([0, 0, 2, 0])].sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [3.0, 0.0, 1.0])


def test_setitem_gradient_flows_to_original_and_value():
    x = tapegrad.ones(2, 3, requires_grad=True)
    v = tapegrad.tensor(5.0, requires_grad=True)
    y = x * 2
    y[0, 1:] = v
    (y * tapegrad.arange(6.0).view(2, 3)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 0.0, 0.0], [6.0, 8.0, 10.0]])
    assert v.grad.item() == 3.0


def test_pow_zero_exponent_gradient_is_zero_even_at_zero_base():
    x = tapegrad.tensor([0.0, 2.0], requires_grad=True)
    (x ** 0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0])
