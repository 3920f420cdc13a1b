"""The op table beyond the core (``tapegrad.ops.special``, ``layout``, ``cumulative``, ``sorting``,
``scatter``, ``einsum``, ``sampling``): every primitive against finite differences (first and second
order), and every function against PyTorch (values, gradients, the node it records, its errors).

Rows are written against a module ``T``: ``tapegrad`` or PyTorch itself, so one table serves both
checks.
"""
import importlib
import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck

# nan_to_num's row feeds it log(x) of negative x on purpose, and rows divide floats by zero (pytest
# replaces the filter tapegrad sets for its own modules)
pytestmark = [
    pytest.mark.filterwarnings("ignore:invalid value encountered in log:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:(divide by zero|invalid value) encountered in "
                               "(floor_divide|remainder):RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:The reduce argument of torch.scatter:UserWarning"),
]


@dataclass(frozen=True)
class Row:
    id: str
    fn: Callable  # fn(T, *float_tensors) -> tensor
    shapes: tuple
    domains: tuple
    node: str = ""  # the grad_fn name both libraries record ("" when they differ; see `why`)
    why: str = ""


def row(id, fn, *shapes, domains=None, node="", why=""):
    return Row(id, fn, shapes, tuple(domains or ("normal",) * len(shapes)), node, why)


DOMAINS = {
    "normal": lambda rng, shape: rng.standard_normal(shape),
    "positive": lambda rng, shape: rng.uniform(0.5, 2.0, shape),
    "unit": lambda rng, shape: rng.uniform(-0.9, 0.9, shape),
    "probability": lambda rng, shape: rng.uniform(0.1, 0.9, shape),
    # no ties within 0.05: sorting-like ops are differentiable there
    "distinct": lambda rng, shape: rng.permutation(int(np.prod(shape))).reshape(shape) * 0.1
    + rng.uniform(-0.02, 0.02, shape),
}


def arrays_for(r, seed=0):
    rng = np.random.default_rng(seed)
    return [DOMAINS[d](rng, s) for s, d in zip(r.shapes, r.domains)]


def _index(T, values):
    return T.tensor(values, dtype=T.int64)


def method(T, tensor, name, *args, **kwargs):
    """``tensor.<name>(...)`` in either library."""
    return getattr(tensor, name)(*args, **kwargs)


def _product(a, b):
    return a * b


def _inplace(name, *args):
    """``y = x * 1; y.<name>(...)`` as a function: the in-place op on a non-leaf."""
    def fn(T, x, *others):
        y = x * 1
        method(T, y, name, *[a(T) if callable(a) else a for a in args], *others)
        return y
    return fn


ROWS = [
    # math
    row("log1p", lambda T, x: T.log1p(x), (3, 4), domains=["positive"], node="Log1PBackward0"),
    row("expm1", lambda T, x: T.expm1(x), (3, 4), node="Expm1Backward0"),
    row("sinh", lambda T, x: T.sinh(x), (3, 4), node="SinhBackward0"),
    row("cosh", lambda T, x: T.cosh(x), (3, 4), node="CoshBackward0"),
    row("tan", lambda T, x: T.tan(x), (3, 4), domains=["unit"], node="TanBackward0"),
    row("atan", lambda T, x: T.atan(x), (3, 4), node="AtanBackward0"),
    row("asin", lambda T, x: T.asin(x), (3, 4), domains=["unit"], node="AsinBackward0"),
    row("acos", lambda T, x: T.acos(x), (3, 4), domains=["unit"], node="AcosBackward0"),
    row("erf", lambda T, x: T.erf(x), (3, 4), node="ErfBackward0"),
    row("rsqrt", lambda T, x: T.rsqrt(x), (3, 4), domains=["positive"], node="RsqrtBackward0"),
    row("log2", lambda T, x: T.log2(x), (3, 4), domains=["positive"], node="Log2Backward0"),
    row("log10", lambda T, x: T.log10(x), (3, 4), domains=["positive"], node="Log10Backward0"),
    row("exp2", lambda T, x: T.exp2(x), (3, 4), node="Exp2Backward0"),
    row("frac", lambda T, x: T.frac(x * 3), (3, 4), domains=["unit"], node="FracBackward0"),
    row("atan2", lambda T, a, b: T.atan2(a, b), (3, 4), (4,), node="Atan2Backward0"),
    row("hypot", lambda T, a, b: T.hypot(a, b), (3, 4), (3, 1), node="HypotBackward0"),
    row("lerp_scalar", lambda T, a, b: T.lerp(a, b, 0.3), (3, 4), (4,), node="LerpBackward0"),
    row("lerp_tensor", lambda T, a, b, w: T.lerp(a, b, w), (3, 4), (3, 4), (4,),
        node="LerpBackward1"),
    row("logit", lambda T, p: T.logit(p), (3, 4), domains=["probability"], node="LogitBackward0"),
    row("logit_eps", lambda T, p: T.logit(p, eps=0.2), (3, 4), domains=["probability"],
        node="LogitBackward0"),
    row("nan_to_num", lambda T, x: T.nan_to_num(T.log(x)), (3, 4), node="NanToNumBackward0"),
    # flips, rolls, triangles, repeats
    row("flip", lambda T, x: T.flip(x, (0, 2)), (2, 3, 4), node="FlipBackward0"),
    row("fliplr", lambda T, x: T.fliplr(x), (2, 3, 4), node="FlipBackward0"),
    row("flipud_method", lambda T, x: method(T, x, "flipud"), (3,), node="FlipBackward0"),
    row("meshgrid_xy", lambda T, x, y: _product(*T.meshgrid(x, y, indexing="xy")), (2,), (3,),
        node="MulBackward0"),
    row("meshgrid_ij_list", lambda T, x, y: _product(*T.meshgrid([x, y], indexing="ij")), (2,),
        (3,), node="MulBackward0"),
    row("einsum_broadcasts_size_one", lambda T, a, b: T.einsum("ij,jk->ik", a, b), (3, 1),
        (2, 2), node="ViewBackward0"),
    row("diff_twice", lambda T, x: T.diff(x, n=2, dim=0), (4, 3), node="SubBackward0"),
    row("diff_prepend_append", lambda T, x, p, a: T.diff(x, prepend=p, append=a), (3, 4), (3, 1),
        (3, 2), node="SubBackward0"),
    row("tensor_split_sections", lambda T, x: T.tensor_split(x, 3, dim=1)[1], (2, 7),
        node="SliceBackward0"),
    row("tensor_split_indices", lambda T, x: method(T, x, "tensor_split", [6, 2, 9])[2], (7,),
        node="SliceBackward0"),
    row("roll_dims", lambda T, x: T.roll(x, (1, -2), (0, 1)), (3, 4), node="RollBackward0"),
    row("roll_flat", lambda T, x: T.roll(x, 5), (3, 4), node="RollBackward0"),
    row("tril", lambda T, x: T.tril(x), (2, 3, 4), node="TrilBackward0"),
    row("triu_offset", lambda T, x: T.triu(x, -1), (4, 3), node="TriuBackward0"),
    row("repeat", lambda T, x: method(T, x, "repeat", 2, 1, 3), (3, 2), node="RepeatBackward0"),
    row("tile", lambda T, x: T.tile(x, (2,)), (3, 2), node="RepeatBackward0"),
    row("tile_method_ints", lambda T, x: method(T, x, "tile", 2), (3, 2), node="RepeatBackward0"),
    row("repeat_interleave", lambda T, x: T.repeat_interleave(x, 2, dim=1), (3, 2),
        node="ViewBackward0"),
    row("repeat_interleave_counts",
        lambda T, x: T.repeat_interleave(x, _index(T, [2, 0, 1]), dim=0), (3, 2),
        node="IndexSelectBackward0"),
    row("hstack", lambda T, a, b: T.hstack([a, b]), (3, 2), (3, 1), node="CatBackward0"),
    row("vstack", lambda T, a, b: T.vstack([a, b]), (3,), (2, 3), node="CatBackward0"),
    row("masked_select", lambda T, x: T.masked_select(x, x > 0), (3, 4),
        why="a composition: x[mask] records IndexBackward0, PyTorch MaskedSelectBackward0"),
    # diagonals and products
    row("diagonal", lambda T, x: T.diagonal(x, 1, 0, 2), (3, 2, 4), node="DiagonalBackward0"),
    row("diag_matrix", lambda T, x: T.diag(x, -1), (3, 4), node="DiagonalBackward0_copy"),
    row("diag_vector", lambda T, v: T.diag(v, 1), (3,), node="DiagEmbedBackward0"),
    row("diag_embed", lambda T, v: T.diag_embed(v), (2, 3), node="DiagEmbedBackward0"),
    row("trace", lambda T, x: T.trace(x), (3, 4), node="TraceBackward0"),
    row("baddbmm", lambda T, i, a, b: T.baddbmm(i, a, b, beta=0.5, alpha=2), (3, 1), (2, 3, 4),
        (2, 4, 1), node="BaddbmmBackward0"),
    row("einsum_matmul", lambda T, a, b: T.einsum("ij,jk->ik", a, b), (2, 3), (3, 4),
        node="ViewBackward0"),
    row("einsum_batched", lambda T, a, b: T.einsum("bqd,bkd->bqk", a, b), (2, 3, 4), (2, 5, 4),
        why="PyTorch's einsum ends in a view of a bmm; tapegrad's matmul of the same shapes "
            "records its own steps"),
    row("einsum_implicit_outer", lambda T, a, b: T.einsum("i,j", a, b), (3,), (4,),
        why="PyTorch's einsum takes other intermediate views"),
    row("einsum_trace_and_diagonal", lambda T, x: T.einsum("ii->i", x) * T.einsum("jj", x),
        (3, 3), node="MulBackward0"),
    row("einsum_three_operands", lambda T, a, b, c: T.einsum("ij,jk,kl->il", a, b, c), (2, 3),
        (3, 4), (4, 2), why="PyTorch contracts three operands in another order"),
    row("einsum_ellipsis", lambda T, a, b: T.einsum("...ij,...jk->...ik", a, b), (2, 3, 4),
        (2, 4, 1), why="PyTorch's einsum ends in a view of a bmm"),
    row("einsum_sum_out", lambda T, x: T.einsum("ijk->j", x), (2, 3, 4), node="SumBackward1"),
    row("cumsum", lambda T, x: T.cumsum(x, 1), (3, 4), node="CumsumBackward0"),
    row("cumprod", lambda T, x: T.cumprod(x, 0), (4, 3), node="CumprodBackward0"),
    row("prod_all", lambda T, x: T.prod(x), (2, 3), node="ProdBackward0"),
    row("prod_dim", lambda T, x: T.prod(x, 1, keepdim=True), (2, 3), node="ProdBackward1"),
    row("prod_dim_squeezed", lambda T, x: T.prod(x, -1), (2, 3), node="ProdBackward1"),
    row("aminmax", lambda T, x: T.aminmax(x, dim=1)[1], (3, 4), domains=["distinct"],
        why="a composition: amin and amax record AminBackward0/AmaxBackward0"),
    # sorting
    row("sort", lambda T, x: T.sort(x, 1, descending=True)[0], (3, 4), domains=["distinct"],
        node="SortBackward0"),
    row("topk", lambda T, x: T.topk(x, 2, dim=0, largest=False).values, (3, 4),
        domains=["distinct"], node="TopkBackward0"),
    row("kthvalue", lambda T, x: T.kthvalue(x, 2, 1).values, (3, 4), domains=["distinct"],
        node="KthvalueBackward0"),
    row("median_all", lambda T, x: T.median(x), (3, 4), domains=["distinct"],
        node="MedianBackward0"),
    row("median_dim", lambda T, x: T.median(x, 0, keepdim=True).values, (3, 4),
        domains=["distinct"], node="MedianBackward1"),
    row("cummax", lambda T, x: T.cummax(x, 1).values, (3, 4), domains=["distinct"],
        node="CummaxBackward0"),
    # scatters and index updates
    row("scatter", lambda T, x, s: T.scatter(x, 0, _index(T, [[1, 0, 2], [0, 2, 1]]), s),
        (3, 3), (2, 3), node="ScatterBackward0"),
    row("scatter_value", lambda T, x: T.scatter(x, 1, _index(T, [[1], [0], [2]]), 2.5), (3, 3),
        node="ScatterBackward1"),
    row("scatter_add", lambda T, x, s: T.scatter_add(x, 1, _index(T, [[0, 0], [2, 1]]), s),
        (2, 3), (2, 2), node="ScatterAddBackward0"),
    row("index_add", lambda T, x, s: T.index_add(x, 0, _index(T, [2, 0, 2]), s, alpha=2),
        (3, 2), (3, 2), node="IndexAddBackward0"),
    row("index_put_accumulate",
        lambda T, x, v: T.index_put(x, (_index(T, [0, 2, 0]),), v, accumulate=True), (3, 2),
        (2,), node="IndexPutBackward0"),
    row("scatter_inplace", _inplace("scatter_", 1, lambda T: _index(T, [[2], [0]])), (2, 3),
        (2, 1), node="ScatterBackward0"),
    row("scatter_add_inplace", _inplace("scatter_add_", 0, lambda T: _index(T, [[1, 1, 0]])),
        (2, 3), (1, 3), node="ScatterAddBackward0"),
    row("index_add_inplace", _inplace("index_add_", 1, lambda T: _index(T, [0, 0])), (2, 3),
        (2, 2), node="IndexAddBackward0"),
    row("fill_diagonal_inplace", _inplace("fill_diagonal_", 0.5), (3, 3), node="CopySlices"),
    row("masked_fill", lambda T, x: T.masked_fill(x, x > 0.5, -1.0), (3, 4),
        node="MaskedFillBackward0"),
    row("masked_fill_broadcast_mask", lambda T, x, m: x.masked_fill(m > 0, 2.0), (3, 4), (4,),
        node="MaskedFillBackward0"),
    row("masked_fill_tensor_value", lambda T, x, v: x.masked_fill(x > 0, v), (3, 4), (),
        node="MaskedFillBackward1"),
    row("masked_fill_inplace", lambda T, x, v: (x * 1).masked_fill_(x < 0, v), (3, 4), (),
        node="MaskedFillBackward1"),
    row("index_fill", lambda T, x: x.index_fill(1, _index(T, [0, 2, 0]), -1.0), (3, 4),
        node="IndexFillBackward0"),
    row("index_fill_tensor_value", lambda T, x, v: x.index_fill(0, _index(T, [1, 1]), v), (3, 4),
        (), node="IndexFillBackward1"),
    row("index_fill_inplace", _inplace("index_fill_", 0, lambda T: _index(T, [2]), 0.5), (3, 2),
        node="IndexFillBackward0"),
    row("masked_scatter", lambda T, x, s: x.masked_scatter(x > 0, s), (3, 4), (13,),
        node="MaskedScatterBackward0"),
    row("masked_scatter_broadcast", lambda T, x, s: x.masked_scatter(T.tensor([True, False]), s),
        (3, 2), (2, 2), node="MaskedScatterBackward0"),
    # small integer powers are computed by multiplying
    *[row(f"pow_{e}", lambda T, x, e=e: x ** e, (3, 4), node="PowBackward0")
      for e in (3, 4, -2, -3, -4)],
    row("pow_3_float", lambda T, x: T.pow(x, 3.0), (3, 4), node="PowBackward0"),
]
ROW_IDS = [r.id for r in ROWS]


def _leaves(module, arrays, dtype):
    return [module.tensor(a, dtype=dtype, requires_grad=True) for a in arrays]


# ---------------------------------------------------------------------- against finite differences

@pytest.mark.parametrize("r", ROWS, ids=ROW_IDS)
def test_gradients_match_finite_differences(r):
    inputs = _leaves(tapegrad, arrays_for(r), tapegrad.float64)
    assert gradcheck(lambda *xs: r.fn(tapegrad, *xs), inputs)


@pytest.mark.parametrize("r", ROWS, ids=ROW_IDS)
def test_second_derivatives_match_finite_differences(r):
    inputs = _leaves(tapegrad, arrays_for(r), tapegrad.float64)
    assert gradgradcheck(lambda *xs: r.fn(tapegrad, *xs), inputs)


# ------------------------------------------------------------------------------ against PyTorch

def _numpy(t):
    return t.detach().numpy(force=True) if hasattr(t, "numpy") else t


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
@pytest.mark.parametrize("r", ROWS, ids=ROW_IDS)
def test_values_gradients_and_node_match_torch(r, dtype_name):
    torch = pytest.importorskip("torch")
    arrays = arrays_for(r, seed=5)
    tol = dict(rtol=2e-5, atol=2e-5) if dtype_name == "float32" else dict(rtol=1e-10, atol=1e-12)
    ours_in = _leaves(tapegrad, arrays, getattr(tapegrad, dtype_name))
    theirs_in = _leaves(torch, arrays, getattr(torch, dtype_name))
    ours, theirs = r.fn(tapegrad, *ours_in), r.fn(torch, *theirs_in)
    assert tuple(ours.shape) == tuple(theirs.shape) and str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(ours.detach().numpy(), _numpy(theirs), **tol)
    if r.node:
        assert ours.grad_fn.name() == theirs.grad_fn.name()
        assert type(ours.grad_fn).__name__ == type(theirs.grad_fn).__name__ == r.node
    cotangent = np.random.default_rng(1).standard_normal(tuple(theirs.shape))
    ours_grads = tapegrad.autograd.grad(ours, ours_in, tapegrad.tensor(cotangent, dtype=ours.dtype),
                                        allow_unused=True)
    theirs_grads = torch.autograd.grad(theirs, theirs_in, torch.tensor(cotangent,
                                                                       dtype=theirs.dtype),
                                       allow_unused=True)
    for a, b in zip(ours_grads, theirs_grads):
        if a is None or b is None:
            assert not np.any(_numpy(a if b is None else b))  # an explicit zero gradient
        else:
            np.testing.assert_allclose(_numpy(a), _numpy(b), **tol)


# ------------------------------------------------------------ zeros in products, ties in sorts

@pytest.mark.parametrize("values", [[2.0, 0.0, 3.0, 0.5], [0.0, 2.0, 0.0, 3.0],
                                    [1.5, 2.0, 3.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
def test_products_with_zeros_have_torchs_first_derivatives(values):
    torch = pytest.importorskip("torch")
    for name, call in [("prod", lambda T, x: T.prod(x)),
                       ("cumprod", lambda T, x: T.cumprod(x, 0))]:
        ours_x = tapegrad.tensor(values, dtype=tapegrad.float64, requires_grad=True)
        theirs_x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
        weights = [1.0, -2.0, 0.5, 3.0][:1 if name == "prod" else 4]
        ours_out, theirs_out = call(tapegrad, ours_x), call(torch, theirs_x)
        (ours_grad,) = tapegrad.autograd.grad(ours_out, ours_x, tapegrad.tensor(
            weights if ours_out.ndim else weights[0], dtype=tapegrad.float64))
        (theirs_grad,) = torch.autograd.grad(theirs_out, theirs_x, torch.tensor(
            weights if theirs_out.ndim else weights[0], dtype=torch.float64))
        np.testing.assert_allclose(ours_grad.numpy(), theirs_grad.numpy(), err_msg=name)


def test_cumprod_second_derivative_at_a_zero_matches_torch():
    torch = pytest.importorskip("torch")

    def hessian_row(T):
        x = T.tensor([1.5, 0.0, 2.0, 0.5], dtype=T.float64, requires_grad=True)
        (g,) = T.autograd.grad(T.cumprod(x, 0).sum(), x, create_graph=True)
        return T.autograd.grad(g[0], x)[0]

    np.testing.assert_allclose(hessian_row(tapegrad).numpy(), hessian_row(torch).numpy())


def _atan2_derivatives(T):
    """atan2(y, x) at the origin, on the y axis and on the x axis: first and second derivatives."""
    y = T.tensor([0.0, 1.0, 0.0], dtype=T.float64, requires_grad=True)
    x = T.tensor([0.0, 0.0, 2.0], dtype=T.float64, requires_grad=True)
    grad_y, grad_x = T.autograd.grad(T.atan2(y, x).sum(), (y, x), create_graph=True)
    return [g.detach().numpy() for g in (grad_y, grad_x, *T.autograd.grad(grad_y.sum(), (y, x)))]


def test_atan2_derivatives_at_the_origin_are_torchs():
    torch = pytest.importorskip("torch")
    ours, theirs = _atan2_derivatives(tapegrad), _atan2_derivatives(torch)
    np.testing.assert_array_equal(ours[0], [0.0, 0.0, 0.5])
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_sorting_orders_ties_and_nans_as_torch_does():
    """Stable order among ties (PyTorch's topk/kthvalue/median pick among ties as their
    selection algorithm happens to, so only tie-free cases of those are compared elsewhere)."""
    torch = pytest.importorskip("torch")
    data = [[3.0, 1.0, 3.0, float("nan"), 2.0, 1.0], [0.5, 0.5, -1.0, 0.5, 2.0, 2.0]]
    for call in [lambda T, x: T.sort(x, 1), lambda T, x: T.sort(x, 1, descending=True),
                 lambda T, x: T.topk(x[0:1, :3], 2),
                 lambda T, x: (T.argsort(x, 1), T.argsort(x, 1, descending=True)),
                 lambda T, x: T.cummax(x[1:], 1)]:
        ours, theirs = call(tapegrad, tapegrad.tensor(data)), call(torch, torch.tensor(data))
        for a, b in zip(ours, theirs):
            np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_named_results_print_as_torchs():
    torch = pytest.importorskip("torch")
    data = [[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]]
    for call in [lambda T, x: T.sort(x), lambda T, x: T.topk(x, 1), lambda T, x: T.kthvalue(x, 2),
                 lambda T, x: T.median(x, 1), lambda T, x: T.cummax(x, 0),
                 lambda T, x: T.aminmax(x)]:
        assert repr(call(tapegrad, tapegrad.tensor(data))) == repr(call(torch, torch.tensor(data)))


# ------------------------------------------------------------------ no gradients: values, dtypes

NON_DIFFERENTIABLE = {
    "unique": lambda T: T.unique(T.tensor([3, 1, 3, 2, 1]), return_inverse=True,
                                 return_counts=True),
    "unique_float": lambda T: T.unique(T.tensor([[1.5, 0.5], [1.5, 2.0]])),
    "bincount": lambda T: T.bincount(T.tensor([0, 2, 2, 5]), minlength=7),
    "bincount_weights": lambda T: T.bincount(T.tensor([0, 2, 2]), T.tensor([0.5, 1.0, 2.0])),
    "histc": lambda T: T.histc(T.tensor([1.0, 2.0, 1.0, 4.0, 9.0]), bins=4, min=0, max=4),
    "histc_data_range": lambda T: T.histc(T.tensor([1.0, 2.0, 1.0, 4.0]), bins=3),
    "nonzero": lambda T: T.nonzero(T.tensor([[0, 1], [2, 0]])),
    "nonzero_tuple": lambda T: T.nonzero(T.tensor([[0, 1], [2, 0]]), as_tuple=True),
    "nonzero_0d": lambda T: T.tensor(3.0).nonzero(),
    "nonzero_0d_zero": lambda T: T.tensor(0.0).nonzero(),
    "nonzero_0d_tuple": lambda T: T.tensor(3.0).nonzero(as_tuple=True),
    "where_0d_condition": lambda T: T.where(T.tensor(True)),
    "argwhere": lambda T: T.argwhere(T.tensor([[0.0, 1.5], [-2.0, 0.0]])),
    "trunc_ints": lambda T: T.trunc(T.tensor([-2, 3])),
    "trunc_floats": lambda T: T.trunc(T.tensor([-2.5, 3.7])),
    "cumsum_ints": lambda T: T.cumsum(T.tensor([1, 2, 3], dtype=T.int32), 0),
    "cumsum_bools": lambda T: T.cumsum(T.tensor([True, False, True]), 0),
    "cumsum_0d": lambda T: T.cumsum(T.tensor(2.5), 0),
    "cumprod_ints": lambda T: T.cumprod(T.tensor([1, 2, 3]), 0),
    "prod_ints": lambda T: T.prod(T.tensor([[1, 2], [3, 4]], dtype=T.int32), 1),
    "prod_dtype": lambda T: T.prod(T.tensor([1, 2, 3]), dtype=T.float64),
    "log_of_ints": lambda T: T.log1p(T.tensor([0, 1, 3])),
    "log10_exact": lambda T: T.log10(T.tensor([1.0, 10.0, 100.0, 1000.0, 0.01])),
    "repeat_interleave_counts_only": lambda T: T.repeat_interleave(T.tensor([2, 0, 3])),
    "repeat_interleave_flat": lambda T: T.repeat_interleave(T.tensor([[1, 2], [3, 4]]), 2),
    "broadcast_tensors": lambda T: T.broadcast_tensors(T.zeros(2, 1), T.ones(3)),
    "broadcast_shapes": lambda T: T.broadcast_shapes((2, 1), (1, 3), 3),
    "flip_method_style": lambda T: method(T, T.arange(6).view(2, 3), "flip", 0, 1),
    "roll_negative": lambda T: T.roll(T.arange(5), -2),
    "diag_offset": lambda T: T.diag(T.tensor([1, 2]), -1),
    "hstack_vectors": lambda T: T.hstack([T.tensor([1, 2]), T.tensor([3])]),
    "vstack_scalars": lambda T: T.vstack([T.tensor(1.0), T.tensor(2.0)]),
    "fill_diagonal_wrap": lambda T: method(T, T.zeros(7, 3), "fill_diagonal_", 1.0, wrap=True),
    "fill_diagonal_cube": lambda T: method(T, T.zeros(2, 2, 2), "fill_diagonal_", 3.0),
    "scatter_int32_index": lambda T: T.scatter(T.zeros(3), 0, T.tensor([2], dtype=T.int32), 1.0),
    "multinomial_zero_weights_last": lambda T: T.multinomial(T.tensor([0.0, 2.0, 0.0]), 3),
    "scatter_value_int": lambda T: method(T, T.zeros(2, 3), "scatter_", 1, T.tensor([[0], [2]]),
                                          1),
    "index_put_accumulate_ints": lambda T: method(T, T.zeros(3, dtype=T.int64), "index_put_",
                                                  (T.tensor([0, 0, 2]),), T.tensor(1),
                                                  accumulate=True),
    "index_put_assign": lambda T: method(T, T.zeros(3), "index_put_", (T.tensor([1]),),
                                         T.tensor(4.0)),
    "baddbmm_beta_zero_ignores_nan": lambda T: T.baddbmm(T.full((1, 1, 1), float("nan")),
                                                         T.ones(1, 1, 2), T.ones(1, 2, 1),
                                                         beta=0),
    "einsum_list_operands": lambda T: T.einsum("i,i->", [T.tensor([1.0, 2.0]),
                                                          T.tensor([3.0, 4.0])]),
    "logsumexp_of_nothing": lambda T: T.zeros(2, 0).logsumexp(-1),
    "clamp_ints_at_float_tensor": lambda T: T.tensor([1, 2, 3]).clamp(max=T.tensor(2.5)),
    "clamp_ints_at_float": lambda T: T.tensor([1, 2, 3]).clamp(min=1.5),
    "clamp_ints_at_int_and_float": lambda T: T.clamp(T.tensor([1, 2, 3]), min=1.5, max=2),
    "clamp_min_ints_at_float": lambda T: T.tensor([1, 2, 3]).clamp_min(1.5),
    "clamp_max_ints_at_float": lambda T: T.tensor([1, 2, 3]).clamp_max(2.5),
    "clamp_int8_at_0d_long": lambda T: T.tensor([1, 2, 3], dtype=T.int8).clamp(max=T.tensor(2)),
    "clamp_int8_at_long": lambda T: T.tensor([1, 2, 3], dtype=T.int8).clamp(max=T.tensor([2])),
    "floordiv_empty_ints_by_zero": lambda T: T.zeros(0, dtype=T.int64) // 0,
    "floordiv_floats_by_zero": lambda T: T.tensor([1.0, -1.0, 0.0]) // 0,
    "remainder_floats_by_zero": lambda T: T.tensor([1.0, -1.0]) % 0,
    "movedim_tuples": lambda T: T.zeros(2, 3, 4).movedim((0, 1), (2, 0)).shape,
    "moveaxis_negative": lambda T: T.moveaxis(T.zeros(2, 3, 4), (-1, 0), (0, -1)).shape,
    "tile_method_ints": lambda T: method(T, T.tensor([[1, 2], [3, 4]]), "tile", 2),
    "tile_method_more_ints": lambda T: method(T, T.tensor([[1, 2], [3, 4]]), "tile", 2, 1, 1),
    "scatter_reduce_add": lambda T: method(T, T.ones(3), "scatter_", 0, T.tensor([0, 0]),
                                           T.tensor([2.0, 3.0]), reduce="add"),
    "scatter_reduce_multiply": lambda T: T.ones(2, 3).scatter(
        1, T.tensor([[0, 0], [2, 2]]), T.arange(1.0, 7.0).view(2, 3), reduce="multiply"),
    "scatter_reduce_value_into_ints": lambda T: method(T, T.ones(3, dtype=T.int64), "scatter_", 0,
                                                       T.tensor([0, 0]), 2.5, reduce="add"),
    "diff_bools": lambda T: T.diff(T.tensor([True, False, False])),
    "diff_ints_prepended": lambda T: T.diff(T.tensor([1, 4]), prepend=T.tensor([0])),
    "diff_order_zero": lambda T: T.diff(T.tensor([1.0, 4.0]), n=0),
    "diff_past_the_length": lambda T: T.diff(T.tensor([1.0, 4.0, 9.0]), n=5),
    "tensor_split_0d_tensor_sections": lambda T: T.tensor_split(T.arange(7), T.tensor(2)),
    "tensor_split_tensor_indices": lambda T: T.tensor_split(T.arange(7), T.tensor([1, 3])),
    "tensor_split_more_sections_than_elements": lambda T: T.tensor_split(T.arange(2), 4),
    "searchsorted": lambda T: T.searchsorted(T.tensor([1, 3, 5, 7, 9]),
                                             T.tensor([[3, 6, 9], [0, 5, 10]])),
    "searchsorted_right": lambda T: T.searchsorted(T.tensor([1, 3, 5]), T.tensor([3, 5]),
                                                   right=True),
    "searchsorted_side_int32": lambda T: T.searchsorted(T.tensor([1.0, 3.0]), T.tensor([3.0]),
                                                        side="right", out_int32=True),
    "searchsorted_number": lambda T: T.searchsorted(T.tensor([1, 3, 5]), 3),
    "searchsorted_rows": lambda T: T.searchsorted(T.tensor([[1, 3], [2, 4]]),
                                                  T.tensor([[2], [3]])),
    "searchsorted_sorter": lambda T: T.searchsorted(T.tensor([3, 1, 2]), T.tensor([2]),
                                                    sorter=T.tensor([1, 2, 0])),
    "bucketize": lambda T: T.bucketize(T.tensor([[3, 6, 9], [0, 5, 10]]), T.tensor([1, 3, 5, 9])),
    "bucketize_right_int32": lambda T: T.bucketize(T.tensor([3.0, 5.5]), T.tensor([1.0, 3.0]),
                                                   right=True, out_int32=True),
    "logspace": lambda T: T.logspace(-2, 2, 5),
    "logspace_base_two_doubles": lambda T: T.logspace(0, 3, 4, base=2, dtype=T.float64),
    "logspace_ints_truncate": lambda T: T.logspace(0, 1, 3, dtype=T.int64),
    "meshgrid_ij": lambda T: T.meshgrid(T.tensor([1, 2]), T.tensor([3, 4, 5]), indexing="ij"),
    "meshgrid_xy_three": lambda T: T.meshgrid(T.tensor([1, 2]), T.tensor([3, 4, 5]),
                                              T.tensor(6), indexing="xy"),
    "clamp_floats_at_double": lambda T: T.ones(3).clamp(min=T.tensor([1.5], dtype=T.float64)),
}


def _as_list(result):
    return list(result) if isinstance(result, tuple) else [result]


@pytest.mark.parametrize("name", sorted(NON_DIFFERENTIABLE))
def test_non_differentiable_results_match_torch(name):
    torch = pytest.importorskip("torch")
    ours, theirs = NON_DIFFERENTIABLE[name](tapegrad), NON_DIFFERENTIABLE[name](torch)
    if isinstance(theirs, torch.Size):
        assert repr(ours) == repr(theirs)
        return
    for a, b in zip(_as_list(ours), _as_list(theirs), strict=True):
        assert repr(a) == repr(b)


FACTORIES = {
    "new_zeros": lambda T, x: method(T, x, "new_zeros", 2, 3),
    "new_ones": lambda T, x: method(T, x, "new_ones", (2,)),
    "new_full": lambda T, x: method(T, x, "new_full", (2,), 7),
    "new_empty": lambda T, x: method(T, x, "new_empty", 3).zero_(),
    "new_tensor": lambda T, x: method(T, x, "new_tensor", [1, 2]),
    "new_tensor_dtype": lambda T, x: method(T, x, "new_tensor", [1, 2], dtype=T.int32),
    "type_as": lambda T, x: method(T, T.tensor([1, 2]), "type_as", x),
}


@pytest.mark.parametrize("name", sorted(FACTORIES))
@pytest.mark.parametrize("dtype_name", ["float64", "int64"])
def test_factory_methods_keep_the_tensors_dtype_as_torch(name, dtype_name):
    torch = pytest.importorskip("torch")
    ours = FACTORIES[name](tapegrad, tapegrad.ones(1, dtype=getattr(tapegrad, dtype_name)))
    theirs = FACTORIES[name](torch, torch.ones(1, dtype=getattr(torch, dtype_name)))
    assert repr(ours) == repr(theirs) and ours.requires_grad is False


def test_scatter_from_a_larger_source_has_gradients_where_the_index_reads():
    x = tapegrad.zeros(3, 3, dtype=tapegrad.float64, requires_grad=True)
    src = tapegrad.arange(8.0, dtype=tapegrad.float64).view(2, 4).requires_grad_()
    index = tapegrad.tensor([[1, 0, 2], [0, 2, 1]])
    assert gradcheck(lambda a, s: tapegrad.scatter(a, 0, index, s), (x, src))
    assert gradgradcheck(lambda a, s: tapegrad.scatter(a, 0, index, s), (x, src))


def test_scatter_with_reduce_warns_torchs_deprecation_once():
    importlib.import_module("tapegrad.ops.scatter")._warn_reduce_is_deprecated.cache_clear()
    with pytest.warns(UserWarning) as caught:
        for reduce in ("add", "multiply"):
            tapegrad.ones(3).scatter(0, tapegrad.tensor([0]), tapegrad.ones(1), reduce=reduce)
    assert [str(w.message) for w in caught] == [
        "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed "
        "in a future PyTorch release. Use torch.scatter_reduce instead for more reduction "
        "options."]
    assert caught[0].filename == __file__


def test_meshgrid_without_indexing_is_ij_and_warns_torchs_deprecation_once():
    tapegrad.ops.layout._warn_meshgrid_needs_indexing.cache_clear()
    with pytest.warns(UserWarning) as caught:
        grids = [tapegrad.meshgrid(tapegrad.arange(2), tapegrad.arange(3)) for _ in range(2)]
    assert [str(w.message) for w in caught] == [
        "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
        "argument."]
    assert [tuple(g.shape) for g in grids[0]] == [(2, 3), (2, 3)]


def test_random_draws_respect_their_distributions():
    tapegrad.manual_seed(0)
    picks = tapegrad.multinomial(tapegrad.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 3.0]]), 1)
    assert picks.dtype == tapegrad.int64 and picks.shape == (2, 1)
    assert picks[0].item() == 1 and picks[1].item() in (0, 2)
    unique_rows = tapegrad.multinomial(tapegrad.ones(4), 4)
    assert sorted(unique_rows.tolist()) == [0, 1, 2, 3]
    certain = tapegrad.multinomial(tapegrad.tensor([0.0, 1.0]), 5, replacement=True)
    assert certain.tolist() == [1] * 5
    coins = tapegrad.bernoulli(tapegrad.tensor([0.0, 1.0, 0.0, 1.0], dtype=tapegrad.float64))
    assert coins.tolist() == [0.0, 1.0, 0.0, 1.0] and coins.dtype == tapegrad.float64
    generator = tapegrad.Generator().manual_seed(7)
    first = tapegrad.bernoulli(tapegrad.full((50,), 0.5), generator=generator)
    generator.manual_seed(7)
    assert tapegrad.equal(first, tapegrad.bernoulli(tapegrad.full((50,), 0.5), generator=generator))


# ------------------------------------------------------------------------------------- errors

ERRORS = {
    "tril_vector": lambda T: T.tril(T.ones(3)),
    "repeat_too_few_dims": lambda T: method(T, T.ones(2, 2), "repeat", 2),
    "roll_misaligned": lambda T: T.roll(T.ones(2, 2), (1, 1), 0),
    "topk_too_many": lambda T: T.topk(T.ones(3), 4),
    "kthvalue_out_of_range": lambda T: T.kthvalue(T.ones(3), 0),
    "scatter_float_index": lambda T: T.scatter(T.zeros(3), 0, T.tensor([0.0]), 1.0),
    "scatter_add_float_index": lambda T: T.scatter_add(T.zeros(3), 0, T.tensor([0.0]), T.ones(1)),
    "scatter_index_out_of_bounds": lambda T: T.scatter(T.zeros(3), 0, T.tensor([5]), 1.0),
    "scatter_src_dtype": lambda T: T.scatter(T.zeros(3), 0, T.tensor([1]), T.ones(1).double()),
    "scatter_rank": lambda T: T.scatter(T.zeros(3, 2), 0, T.tensor([1]), 1.0),
    "index_add_count": lambda T: T.index_add(T.zeros(3, 2), 0, T.tensor([1]), T.ones(2, 2)),
    "index_fill_float_index": lambda T: T.zeros(3).index_fill(0, T.tensor([0.0]), 1.0),
    "index_put_dtypes": lambda T: T.zeros(2, 3).index_put_((T.tensor([0]),), T.tensor([1, 2, 3])),
    "setitem_index_tensor_dtypes": lambda T: T.zeros(3).__setitem__(T.tensor([0]), T.tensor(5)),
    "masked_fill_shapes": lambda T: T.zeros(2, 3).masked_fill(T.tensor([True, False]), 1.0),
    "masked_fill__shapes": lambda T: T.zeros(2, 3).masked_fill_(T.tensor([True, False]), 1.0),
    "index_fill_out_of_bounds": lambda T: T.zeros(3, 2).index_fill(1, T.tensor([0, 5]), 1.0),
    "index_fill_2d_index": lambda T: T.zeros(3).index_fill(0, T.tensor([[0]]), 1.0),
    "index_fill_vector_value": lambda T: T.zeros(3).index_fill(0, T.tensor([0]), T.ones(2)),
    "masked_scatter_short_source": lambda T: T.zeros(3).masked_scatter(
        T.tensor([True, True, False]), T.ones(1)),
    "index_add_shape": lambda T: T.index_add(T.zeros(3, 2), 0, T.tensor([1]), T.ones(1, 3)),
    "bincount_negative": lambda T: T.bincount(T.tensor([-1, 2])),
    "einsum_operand_count": lambda T: T.einsum("ij,jk->ik", T.ones(2, 2)),
    "einsum_subscripts": lambda T: T.einsum("ijk->i", T.ones(2, 2)),
    "einsum_unknown_output": lambda T: T.einsum("ij->k", T.ones(2, 2)),
    "baddbmm_sizes": lambda T: T.baddbmm(T.zeros(2, 2, 2), T.ones(2, 2, 3), T.ones(2, 2, 2)),
    "trace_of_vector": lambda T: T.trace(T.ones(3)),
    "fill_diagonal_unequal_cube": lambda T: method(T, T.zeros(2, 3, 2), "fill_diagonal_", 1.0),
    "multinomial_negative": lambda T: T.multinomial(T.tensor([-1.0, 2.0]), 1),
    "multinomial_too_many": lambda T: T.multinomial(T.tensor([1.0, 2.0]), 3),
    "diff_negative_order": lambda T: T.diff(T.ones(3), n=-1),
    "diff_0d": lambda T: T.diff(T.tensor(1.0)),
    "diff_prepend_dims": lambda T: T.diff(T.ones(2, 3), prepend=T.ones(3)),
    "fliplr_vector": lambda T: T.fliplr(T.ones(3)),
    "flipud_0d": lambda T: T.flipud(T.tensor(1.0)),
    "tensor_split_no_sections": lambda T: T.tensor_split(T.ones(3), 0),
    "tensor_split_0d": lambda T: T.tensor_split(T.tensor(1.0), 2),
    "tensor_split_2d_indices": lambda T: T.tensor_split(T.ones(3), T.tensor([[1]])),
    "tensor_split_float_indices": lambda T: T.tensor_split(T.ones(3), T.tensor([1.0])),
    "searchsorted_opposite_sides": lambda T: T.searchsorted(T.ones(3), T.ones(1), side="left",
                                                            right=True),
    "searchsorted_unknown_side": lambda T: T.searchsorted(T.ones(3), T.ones(1), side="middle"),
    "searchsorted_rows_mismatch": lambda T: T.searchsorted(T.ones(2, 2), T.ones(3, 1)),
    "bucketize_2d_boundaries": lambda T: T.bucketize(T.ones(3), T.ones(1, 2)),
    "meshgrid_dtypes": lambda T: T.meshgrid(T.ones(2), T.ones(2, dtype=T.int64), indexing="ij"),
    "meshgrid_indexing": lambda T: T.meshgrid(T.ones(2), indexing="ab"),
    "meshgrid_nothing": lambda T: T.meshgrid(indexing="ij"),
    "logspace_negative_steps": lambda T: T.logspace(0, 1, -1),
    "scatter_reduce_unknown": lambda T: T.scatter(T.zeros(3), 0, T.tensor([0]), T.ones(1),
                                                  reduce="mean"),
    "scatter_reduce_backward": lambda T: T.scatter(T.zeros(3, requires_grad=True), 0,
                                                   T.tensor([0]), T.ones(1),
                                                   reduce="add").sum().backward(),
    "scatter_reduce_inplace_backward": lambda T: method(
        T, T.zeros(3, requires_grad=True) * 1, "scatter_", 0, T.tensor([0]), 2.0,
        reduce="multiply").sum().backward(),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_are_torchs(name):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        ERRORS[name](torch)
    with pytest.raises(type(theirs.value)) as ours:
        ERRORS[name](tapegrad)
    assert str(ours.value) == str(theirs.value)


def test_failed_inplace_scatter_leaves_the_tensor_unchanged():
    x = tapegrad.arange(6.0).view(2, 3)
    with pytest.raises(RuntimeError):
        x.scatter_( 1, tapegrad.tensor([[0], [7]]), 9.0)
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and x._version == 0


# ------------------------------------------------------------- where as a method, scalar conversion

WHERE_METHOD_CALLS = {  # fn(T, y) for y = [-1., 0., 2.]: y.where(condition, other)
    "tensor-other": lambda T, y: y.where(y > 0, T.tensor(9.0)),
    "number-other": lambda T, y: y.where(y > 0, 9),
    "float-number-into-ints": lambda T, y: y.long().where(y > 0, 0.5),
    "keywords": lambda T, y: y.where(condition=y < 1, other=-y),
}


@pytest.mark.parametrize("name", sorted(WHERE_METHOD_CALLS))
def test_where_method_keeps_self_where_the_condition_holds(name):
    torch = pytest.importorskip("torch")
    ours = WHERE_METHOD_CALLS[name](tapegrad, tapegrad.tensor([-1.0, 0.0, 2.0]))
    theirs = WHERE_METHOD_CALLS[name](torch, torch.tensor([-1.0, 0.0, 2.0]))
    assert ours.tolist() == theirs.tolist() and str(ours.dtype) == str(theirs.dtype)


def test_where_method_sends_gradients_to_self_and_other():
    x = tapegrad.tensor([-1.0, 2.0], requires_grad=True)
    other = tapegrad.tensor([5.0, 6.0], requires_grad=True)
    x.where(x > 0, other).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0] and other.grad.tolist() == [1.0, 0.0]


def test_single_elements_convert_to_python_numbers():
    assert int(tapegrad.tensor([[2.7]])) == 2 and float(tapegrad.tensor([3])) == 3.0
    assert bool(tapegrad.tensor([0.0])) is False and tapegrad.tensor([1.5]).item() == 1.5


# ------------------------------------------------------------------ views by strides, and memory

STRIDED_VIEWS = {  # fn(T, b) for b = arange(8.): a view of b
    "select": lambda T, b: b.view(2, 4).select(1, 3),
    "select-function": lambda T, b: T.select(b.view(2, 4), 0, -1),
    "unfold": lambda T, b: b.unfold(0, 4, 2),
    "unfold-last-dim": lambda T, b: b.view(2, 4).unfold(1, 2, 1),
    "unfold-of-transpose": lambda T, b: b.view(2, 4).t().unfold(0, 3, 1),
    "as_strided": lambda T, b: b.as_strided((3, 4), (2, 1)),
    "as_strided-offset": lambda T, b: T.as_strided(b, (2, 2), (1, 2), 3),
    "as_strided-of-view": lambda T, b: b[2:].as_strided((2, 2), (1, 1)),
    "as_strided-reaching-before-view": lambda T, b: b[2:].as_strided((2, 2), (1, 2), 0),
    "as_strided-of-as_strided": lambda T, b: b.as_strided((2,), (1,), 1).as_strided((4,), (2,)),
    "as_strided-of-window": lambda T, b: b.unfold(0, 2, 2)[1].as_strided((3,), (2,), 1),
}


def _strided_view_facts(T, name):
    """The view's values and layout, then its base after a write through the view and another
    through the base (what each sees of the other), and the version counters."""
    b = T.arange(8.0)
    v = STRIDED_VIEWS[name](T, b)
    facts = [v.tolist(), tuple(v.shape), v.stride(), v.storage_offset(), v._base is b]
    v.fill_(-1.0)
    b.add_(10.0)
    return facts + [v.tolist(), b.tolist(), b._version, v._version]


@pytest.mark.parametrize("name", sorted(STRIDED_VIEWS))
def test_strided_views_share_memory_and_versions_as_torchs(name):
    torch = pytest.importorskip("torch")
    assert _strided_view_facts(tapegrad, name) == _strided_view_facts(torch, name)


def test_strided_views_record_their_nodes():
    b = tapegrad.arange(8.0, requires_grad=True)
    names = [b.view(2, 4).select(1, 3).grad_fn.name(), b.unfold(0, 4, 2).grad_fn.name(),
             b.as_strided((3, 4), (2, 1)).grad_fn.name()]
    assert names == ["SelectBackward0", "UnfoldBackward0", "AsStridedBackward0"]


MEMORY_VIEWS = {  # fn(T) -> (base, view)
    "fresh": lambda T: (lambda b: (b, b))(T.arange(8.0)),
    "slice": lambda T: (lambda b: (b, b[2:]))(T.arange(8.0)),
    "row": lambda T: (lambda b: (b, b.view(2, 4)[1]))(T.arange(8.0)),
    "column": lambda T: (lambda b: (b, b.view(2, 4)[:, 1]))(T.arange(8.0)),
    "rows-of-transpose": lambda T: (lambda b: (b, b.view(2, 4).t()[1:]))(T.arange(8.0)),
    "diagonal": lambda T: (lambda b: (b, b.view(2, 4).diagonal(1)))(T.arange(8.0)),
    "unbind": lambda T: (lambda b: (b, b.view(2, 4).unbind(1)[3]))(T.arange(8.0)),
    "detached-view": lambda T: (lambda b: (b, b[3:].detach()))(T.arange(8.0)),
    "window": lambda T: (lambda b: (b, b.unfold(0, 3, 2)[2]))(T.arange(8.0)),
    "expand": lambda T: (lambda b: (b, b.expand(3, 4)))(T.ones(3, 1)),
    "int16": lambda T: (lambda b: (b, b[5:]))(T.arange(8, dtype=T.int16)),
}


def _memory_facts(T, name):
    base, view = MEMORY_VIEWS[name](T)
    storage = view.untyped_storage()
    return (view.data_ptr() - base.data_ptr(), view.storage_offset(),
            storage.data_ptr() - base.data_ptr(), storage.nbytes(), len(storage))


@pytest.mark.parametrize("name", sorted(MEMORY_VIEWS))
def test_addresses_and_storage_offsets_match_torchs(name):
    torch = pytest.importorskip("torch")
    assert _memory_facts(tapegrad, name) == _memory_facts(torch, name)


def test_data_ptr_is_the_first_elements_address():
    b = tapegrad.arange(8.0)
    assert b.data_ptr() == b.numpy().ctypes.data and b[2:].data_ptr() - b.data_ptr() == 8
    assert b.clone().data_ptr() != b.data_ptr() and tapegrad.ones(0).data_ptr() == 0


# ------------------------------------------------------------------------------------- out=

OUT_CALLS = {  # fn(T, a, out) for a = arange(4.).view(2, 2); out made by OUT_TENSORS
    "mul": lambda T, a, out: T.mul(a, a, out=out),
    "multiply": lambda T, a, out: T.multiply(a, 3, out=out),
    "add-alpha": lambda T, a, out: T.add(a, a, alpha=2, out=out),
    "neg": lambda T, a, out: T.neg(a, out=out),
    "matmul": lambda T, a, out: T.matmul(a, a.T, out=out),
    "mm": lambda T, a, out: T.mm(a, a, out=out),
    "clamp": lambda T, a, out: T.clamp(a, 0.5, 2.0, out=out),
    "where": lambda T, a, out: T.where(a > 1, a, -a, out=out),
    "eq-into-floats": lambda T, a, out: T.eq(a, 1, out=out),
    "ints-into-floats": lambda T, a, out: T.add(T.arange(4).view(2, 2), 1, out=out),
    "doubles-into-floats": lambda T, a, out: T.mul(a.double(), 1 / 3, out=out),
    "requires-grad-under-no-grad": lambda T, a, out: _sigmoid_without_grad(T, a, out),
}
OUT_TENSORS = {  # the out tensor of a (2, 2) result
    "same-shape": lambda T: T.empty(2, 2),
    "empty": lambda T: T.empty(0),
    "resized": lambda T: T.full((3,), 7.0),
    "same-size": lambda T: T.zeros(1, 4),
}


def _sigmoid_without_grad(T, a, out):
    with T.no_grad():
        return T.sigmoid(a.requires_grad_(), out=out)


def _out_facts(T, call, out_name):
    a = T.arange(4.0).view(2, 2)
    out = OUT_TENSORS[out_name](T)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = OUT_CALLS[call](T, a, out)
    messages = [str(w.message).split(" (Triggered internally")[0] for w in caught
                if w.category is UserWarning]
    return [result is out, out.tolist(), str(out.dtype), out._version, out.requires_grad,
            messages]


# PyTorch resizes a temporary as well when it also casts, and so warns twice: not followed.
_CASTING_CALLS = ("ints-into-floats", "doubles-into-floats")
OUT_CASES = [(call, out_name) for call in sorted(OUT_CALLS) for out_name in sorted(OUT_TENSORS)
             if not (call in _CASTING_CALLS and out_name in ("resized", "same-size"))]


@pytest.mark.parametrize("call, out_name", OUT_CASES)
def test_out_writes_the_result_into_out_as_torch(call, out_name):
    torch = pytest.importorskip("torch")
    assert _out_facts(tapegrad, call, out_name) == _out_facts(torch, call, out_name)


def test_out_writes_through_a_view_into_its_base():
    base = tapegrad.zeros(2, 4)
    out = base[:, 1:3]
    tapegrad.add(tapegrad.ones(2, 2), 1, out=out)
    assert base.tolist() == [[0.0, 2.0, 2.0, 0.0], [0.0, 2.0, 2.0, 0.0]] and base._version == 1


def test_out_keeps_other_functions_and_methods_as_they_are():
    x = tapegrad.ones(2)
    with pytest.raises(TypeError):
        x.add(1, out=tapegrad.empty(2))  # PyTorch's methods take no out= either
    assert tapegrad.add(x, 1, out=None).tolist() == [2.0, 2.0]
    assert tapegrad.cat([x, x], 0, out=tapegrad.empty(4)).tolist() == [1.0] * 4
    assert tapegrad.sum(tapegrad.ones(2, 3), 1, out=tapegrad.empty(2)).tolist() == [3.0, 3.0]


def test_div__with_a_rounding_mode_matches_torch():
    torch = pytest.importorskip("torch")

    def program(lib):
        ints, floats = lib.tensor([1, 2, 3]), lib.tensor([1.0, -2.5, 3.0])
        results = [ints.clone().div_(2, rounding_mode="floor").tolist(),
                   floats.clone().div_(2, rounding_mode="trunc").tolist()]
        for bad in (lambda: ints.clone().div_(2.5, rounding_mode="floor"),
                    lambda: floats.clone().div_(2, rounding_mode="round")):
            try:
                bad()
            except RuntimeError as error:
                results.append(str(error))
        return results

    assert program(tapegrad) == program(torch)


def _layouts(T):
    t = T.arange(6.0).view(2, 3).t()
    x = T.arange(24.0).view(1, 2, 3, 4)
    cl = x.to(memory_format=T.channels_last)
    return [t.clone().stride(), t.clone(memory_format=T.contiguous_format).stride(),
            T.zeros_like(t).stride(), T.empty_like(t).is_contiguous(), cl.stride(),
            cl.is_contiguous(), cl.is_contiguous(memory_format=T.channels_last),
            x.contiguous(memory_format=T.channels_last).stride(), cl.clone().stride(),
            cl.contiguous().stride(), (cl + 1).stride(), T.zeros_like(cl).stride(),
            T.empty(1, 2, 3, 4, memory_format=T.channels_last).stride(),
            x.clone(memory_format=T.channels_last).stride(), repr(T.channels_last),
            bool((cl == x).all())]


def test_memory_formats_lay_tensors_out_as_torchs():
    torch = pytest.importorskip("torch")
    assert _layouts(tapegrad) == _layouts(torch)
    for T in (tapegrad, torch):
        with pytest.raises(RuntimeError, match="preserve memory format is unsupported"):
            T.ones(2, 3).t().contiguous(memory_format=T.preserve_format)
        with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last"):
            T.ones(2, 3).to(memory_format=T.channels_last)
    y = tapegrad.ones(1, 2, 2, 2, requires_grad=True)
    moved = y.to(memory_format=tapegrad.channels_last)
    (moved * tapegrad.arange(8.0).view(1, 2, 2, 2)).sum().backward()
    assert moved.grad_fn.name() == "ToCopyBackward0"
    assert y.grad.view(-1).tolist() == list(range(8))


def _remainders(T):
    a = T.tensor([5.5, -3.2, 7.25], dtype=T.float64, requires_grad=True)
    b = T.tensor([2.0, 1.5, -2.0], dtype=T.float64, requires_grad=True)
    y, z = a % b, a % 2.5
    (y * T.tensor([1.0, 2.0, 3.0], dtype=T.float64) + z).sum().backward()
    return y.tolist(), z.tolist(), y.grad_fn.name(), z.grad_fn.name(), a.grad.tolist(), \
        b.grad.tolist(), (7 % T.tensor([2.0, 3.0])).tolist()


def test_remainder_has_pytorchs_gradients():
    torch = pytest.importorskip("torch")
    assert _remainders(tapegrad) == _remainders(torch)


@pytest.mark.parametrize("shapes", [((1, 3), (2, 1), (5, 3)), ("Size", [3]), ((2,), (-3,))])
def test_broadcast_shapes_reports_a_mismatch_as_pytorch(shapes):
    torch = pytest.importorskip("torch")
    from same_as_torch import assert_same
    assert_same(lambda lib: lib.broadcast_shapes(
        *[lib.Size([2]) if s == "Size" else s for s in shapes]), torch)


@pytest.mark.parametrize("name", ["exp", "log", "sin", "cos", "tanh"])
@pytest.mark.parametrize("size", [0, 1, 1000, 70_000])  # 0-d, small (rounded once) and large
def test_in_place_transcendentals_round_as_their_out_of_place_forms(name, size):
    """PyTorch's x.exp_() equals x.exp() bit for bit; tapegrad's in-place forms wrote numpy's
    float32 ufunc, 1 ulp away in a few percent of elements."""
    values = np.array(np.random.default_rng(0).uniform(0.1, 3.0, size or None), np.float32)
    expected = getattr(tapegrad.from_numpy(values.copy()), name)()
    written = tapegrad.from_numpy(values.copy())
    assert getattr(written, name + "_")() is written
    np.testing.assert_array_equal(written.numpy(), expected.numpy())


@pytest.mark.parametrize("name", ["erf", "erfc", "erfinv", "gelu", "ndtr", "dropout",
                                  "alpha_dropout"])
def test_channels_last_input_gives_channels_last_result(name):
    """PyTorch's elementwise kernels (and dropout's mask, empty_like(input)) keep the input's
    layout; a convolutional block in channels_last stays channels_last through them."""
    functions = {"erf": tapegrad.erf, "erfc": tapegrad.erfc,
                 "erfinv": lambda t: tapegrad.erfinv(t.clamp(-0.5, 0.5)),
                 "gelu": tapegrad.nn.functional.gelu, "ndtr": tapegrad.special.ndtr,
                 "dropout": lambda t: tapegrad.nn.functional.dropout(t, 0.5),
                 "alpha_dropout": lambda t: tapegrad.nn.functional.alpha_dropout(t, 0.5, True)}
    x = tapegrad.randn(2, 3, 4, 5).to(memory_format=tapegrad.channels_last)
    tapegrad.manual_seed(0)
    result = functions[name](x)
    assert result.is_contiguous(memory_format=tapegrad.channels_last)
    tapegrad.manual_seed(0)
    np.testing.assert_array_equal(result.numpy(), functions[name](x.contiguous()).numpy())


def test_random_like_factories_take_a_generator():
    x = tapegrad.zeros(2, 3)
    for factory, args in ((tapegrad.randn_like, ()), (tapegrad.rand_like, ()),
                          (tapegrad.randint_like, (10,))):
        generator = tapegrad.Generator().manual_seed(3)
        first = factory(x, *args, generator=generator)
        generator.manual_seed(3)
        np.testing.assert_array_equal(first.numpy(), factory(x, *args, generator=generator).numpy())
        assert first.shape == x.shape and first.dtype == x.dtype


@pytest.mark.parametrize("call, message", [
    (lambda: tapegrad.bernoulli(tapegrad.tensor([1.5])), "Expected p_in >= 0 && p_in <= 1"),
    (lambda: tapegrad.bernoulli(tapegrad.tensor([float("nan")])), "Expected p_in >= 0"),
    (lambda: tapegrad.bernoulli(tapegrad.zeros(2), p=1.5),
     r"bernoulli_ expects p to be in \[0, 1\], but got p=1.5"),
    (lambda: tapegrad.normal(tapegrad.zeros(2), -tapegrad.ones(2)),
     "normal expects all elements of std >= 0.0"),
    (lambda: tapegrad.normal(tapegrad.zeros(2), -1.0),
     "normal expects std >= 0.0, but found std -1"),
    (lambda: tapegrad.normal(0.0, -1.0, (2,)), "normal expects std >= 0.0, but found std -1"),
])
def test_sampling_refuses_probabilities_and_deviations_out_of_range(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()
