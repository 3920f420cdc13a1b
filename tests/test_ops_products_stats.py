"""Products (kron, tensordot, addmv, addr, addbmm, …), distances (dist, cdist, pdist) and
statistics (mode, quantile, histogram, nan-reductions, median and kthvalue ties, cummin,
logcumsumexp), compared against PyTorch: values, indices, gradients, node names, messages."""
import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck

torch = pytest.importorskip("torch")

_rng = np.random.default_rng(7)


def _pair(array, requires_grad=False):
    array = np.asarray(array)
    ours = tapegrad.tensor(array, requires_grad=requires_grad)
    theirs = torch.tensor(array, requires_grad=requires_grad)
    return ours, theirs


def _close(ours, theirs, **kw):
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-5,
                               atol=1e-6, equal_nan=True, **kw)


def _compare(fn_ours, fn_theirs, *arrays, grad=True):
    """Forward values, gradients of (out * weights).sum() and the node name agree."""
    pairs = [_pair(a, grad) for a in arrays]
    out_ours = fn_ours(*[p[0] for p in pairs])
    out_theirs = fn_theirs(*[p[1] for p in pairs])
    _close(out_ours, out_theirs)
    if grad:
        assert out_ours.grad_fn.name() == out_theirs.grad_fn.name()
        weights = _rng.uniform(0.5, 2, out_theirs.shape)
        (out_ours * tapegrad.tensor(weights)).sum().backward()
        (out_theirs * torch.tensor(weights)).sum().backward()
        for ours, theirs in pairs:
            _close(ours.grad, theirs.grad)


def _data(*shape):
    return _rng.uniform(-2, 2, shape)


PRODUCTS = [
    ("kron", lambda t: lambda a, b: t.kron(a, b), (_data(2, 3), _data(3, 2))),
    ("kron_vec", lambda t: lambda a, b: t.kron(a, b), (_data(3), _data(2, 2))),
    ("vdot", lambda t: lambda a, b: t.vdot(a, b), (_data(4), _data(4))),
    ("ger", lambda t: lambda a, b: t.ger(a, b), (_data(3), _data(2))),
    ("inner_nd", lambda t: lambda a, b: t.inner(a, b), (_data(2, 3), _data(4, 3))),
    ("inner_1d", lambda t: lambda a, b: t.inner(a, b), (_data(3), _data(3))),
    ("tensordot_int", lambda t: lambda a, b: t.tensordot(a, b, dims=1), (_data(2, 3), _data(3, 4))),
    ("tensordot_lists", lambda t: lambda a, b: t.tensordot(a, b, dims=([1, 2], [2, 1])),
     (_data(2, 3, 4), _data(4, 4, 3))),
    ("addmv", lambda t: lambda i, m, v: t.addmv(i, m, v, beta=0.5, alpha=2),
     (_data(2), _data(2, 3), _data(3))),
    ("addr", lambda t: lambda i, a, b: t.addr(i, a, b, beta=2, alpha=3),
     (_data(3, 1), _data(3), _data(4))),
    ("addbmm", lambda t: lambda i, a, b: t.addbmm(i, a, b, alpha=0.5),
     (_data(3), _data(2, 2, 4), _data(2, 4, 3))),
    ("multi_dot", lambda t: lambda a, b, c: t.linalg.multi_dot([a, b, c]),
     (_data(3), _data(3, 4), _data(4))),
]


@pytest.mark.parametrize("name,make,arrays", PRODUCTS, ids=[p[0] for p in PRODUCTS])
def test_products_match_pytorch(name, make, arrays):
    _compare(make(tapegrad), make(torch), *arrays)


def test_in_place_products_record_their_nodes():
    for method, shapes in (("addmm_", [(2, 3), (2, 4), (4, 3)]), ("addmv_", [(2,), (2, 3), (3,)]),
                           ("baddbmm_", [(2, 2, 3), (2, 2, 4), (2, 4, 3)])):
        arrays = [_data(*s) for s in shapes]

        def run(lib, *ts):
            target = ts[0] * 1
            return getattr(target, method)(*ts[1:], beta=0.5, alpha=2)
        _compare(lambda *ts: run(tapegrad, *ts), lambda *ts: run(torch, *ts), *arrays)


def test_product_errors_match_pytorch():
    for fn in (lambda t: t.tensordot(t.ones(2, 3), t.ones(2, 2), dims=([1], [0])),
               lambda t: t.inner(t.ones(2, 3), t.ones(2)),
               lambda t: t.linalg.multi_dot([t.ones(2, 3)]),
               lambda t: t.addmv(t.ones(2), t.ones(2, 3), t.ones(2)),
               lambda t: t.cdist(t.ones(2, 3), t.ones(2, 2))):
        with pytest.raises(RuntimeError) as theirs:
            fn(torch)
        with pytest.raises(RuntimeError, match=None) as ours:
            fn(tapegrad)
        assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("p", [0, 1, 2, 3, float("inf")])
def test_distances_match_pytorch(p):
    a, b = _data(4, 3), _data(5, 3)
    b[1] = a[2]  # a zero distance: zero gradient there, as PyTorch
    _compare(lambda x, y: tapegrad.cdist(x, y, p=p), lambda x, y: torch.cdist(x, y, p=p), a, b,
             grad=p != 0)  # PyTorch has no p=0 gradient for these
    _compare(lambda x, y: tapegrad.dist(x, y, p), lambda x, y: torch.dist(x, y, p), a, b[:4],
             grad=p != 0)
    rows = np.concatenate([a, a[:1]])
    ours, theirs = _pair(rows, True)
    _close(tapegrad.pdist(ours, p), torch.pdist(theirs, p))
    if p == 0:
        return
    tapegrad.pdist(ours, p).sum().backward()
    torch.pdist(theirs, p).sum().backward()
    _close(ours.grad, theirs.grad)


def test_new_primitives_pass_gradcheck():
    def leaf(*shape):
        return tapegrad.tensor(_data(*shape), requires_grad=True)
    cases = [
        (lambda i, m, v: tapegrad.addmv(i, m, v, beta=0.5, alpha=2), (leaf(2), leaf(2, 3), leaf(3))),
        (lambda i, a, b: tapegrad.addr(i, a, b, alpha=3), (leaf(3, 4), leaf(3), leaf(4))),
        (lambda i, a, b: tapegrad.addbmm(i, a, b), (leaf(2, 3), leaf(2, 2, 4), leaf(2, 4, 3))),
        (lambda a, b: tapegrad.vdot(a, b), (leaf(3), leaf(3))),
        (lambda a, b: tapegrad.dist(a, b, 3), (leaf(2, 3), leaf(3))),
        (lambda a, b: tapegrad.cdist(a, b), (leaf(3, 2), leaf(4, 2))),
        (lambda a: tapegrad.logcumsumexp(a, 1), (leaf(2, 4),)),
        (lambda a: a.cummin(1).values, (leaf(2, 4),)),
        (lambda a: a.mode(1).values, (leaf(2, 4),)),
        (lambda a: a.nanmedian(), (leaf(2, 4),)),
        (lambda a: a.nanmedian(0).values, (leaf(3, 4),)),
        (lambda a: a.median(), (leaf(2, 4),)),
        (lambda a: a.nansum(1), (leaf(2, 4),)),
        (lambda a: sum(tapegrad.var_mean(a, 1)), (leaf(2, 4),)),
        (lambda a: sum(tapegrad.std_mean(a)), (leaf(2, 4),)),
    ]
    for fn, inputs in cases:
        assert gradcheck(fn, inputs)


def test_mode_median_kthvalue_ties_and_nan():
    cases = [
        ("mode", lambda t, x: t.mode(x[[0, 1, 3]], 1)),  # (PyTorch's mode of a nan is erratic)
        ("median dim", lambda t, x: t.median(x, 1)),
        ("nanmedian dim", lambda t, x: t.nanmedian(x, 1)),
        ("kthvalue", lambda t, x: t.kthvalue(x, 2, 1)),
        ("kthvalue 1", lambda t, x: t.kthvalue(x, 1, 1)),
    ]
    x = np.array([[3., 1, 4, 1, 5, 9, 2, 6], [2, 1, 2, 1, 2, 2, 1, 1], [1, np.nan, 3, 2, 2, 1, 0, 0],
                  [1, 1, 1, 1, 1, 1, 1, 1]])
    for name, fn in cases:
        ours, theirs = fn(tapegrad, tapegrad.tensor(x)), fn(torch, torch.tensor(x))
        _close(ours.values, theirs.values)
        if name != "median dim":  # PyTorch's nth_element picks among equal medians
            np.testing.assert_array_equal(ours.indices.numpy(), theirs.indices.numpy(), name)
    for values in ([2., 1, 2, 1, 2], [1., np.nan, 3, 2], [1., 1, 1, 1]):
        for fn in (tapegrad.median, tapegrad.nanmedian):
            ours, theirs = _pair(values, True)
            out_ours, out_theirs = fn(ours), getattr(torch, fn.__name__)(theirs)
            _close(out_ours, out_theirs)
            out_ours.backward()
            out_theirs.backward()
            _close(ours.grad, theirs.grad)
            assert out_ours.grad_fn.name() == out_theirs.grad_fn.name()


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_matches_pytorch(interpolation):
    x = _data(3, 6)
    x_nan = x.copy()
    x_nan[1, 2] = np.nan
    for q in (0.3, [0.0, 0.25, 0.5, 1.0]):
        for dim, keepdim in ((None, False), (1, False), (0, True), (None, True)):
            for name, data in (("quantile", x), ("nanquantile", x_nan), ("quantile", x_nan)):
                ours, theirs = _pair(data, True)
                q_ours, q_theirs = ((tapegrad.tensor(np.array(q)), torch.tensor(np.array(q)))
                                    if isinstance(q, list)
                                    else (q, q))
                out_ours = getattr(tapegrad, name)(ours, q_ours, dim, keepdim,
                                                   interpolation=interpolation)
                out_theirs = getattr(torch, name)(theirs, q_theirs, dim, keepdim,
                                                  interpolation=interpolation)
                _close(out_ours, out_theirs)
                if not np.isnan(out_theirs.detach().numpy()).any():
                    out_ours.sum().backward()
                    out_theirs.sum().backward()
                    _close(ours.grad, theirs.grad)


def test_histogram_and_nan_reductions():
    x = _data(20)
    for kwargs in ({}, {"bins": 4}, {"bins": 3, "range": (-1.0, 1.0), "density": True},
                   {"bins": 5, "weight": np.abs(_data(20))}):
        ours_kw = {k: tapegrad.tensor(v) if isinstance(v, np.ndarray) else v
                   for k, v in kwargs.items()}
        theirs_kw = {k: torch.tensor(v) if isinstance(v, np.ndarray) else v
                     for k, v in kwargs.items()}
        ours = tapegrad.histogram(tapegrad.tensor(x), **ours_kw)
        theirs = torch.histogram(torch.tensor(x), **theirs_kw)
        _close(ours.hist, theirs.hist)
        _close(ours.bin_edges, theirs.bin_edges)
    edges = np.array([-2.0, 0.0, 0.5, 2.0])
    _close(tapegrad.histogram(tapegrad.tensor(x), tapegrad.tensor(edges)).hist,
           torch.histogram(torch.tensor(x), torch.tensor(edges)).hist)
    data = _data(3, 4)
    data[0, 1] = data[2, 3] = np.nan
    for fn in (lambda t, a: t.nansum(a), lambda t, a: a.nansum(1, keepdim=True),
               lambda t, a: t.nanmean(a), lambda t, a: a.nanmean(0)):
        _compare(lambda a: fn(tapegrad, a), lambda a: fn(torch, a), data)


def test_cumulative_min_and_logcumsumexp():
    x = np.array([[3., 1, 1, 2, 0], [-1, 5, -2, -2, 4]])
    _compare(lambda a: a.cummin(1).values, lambda a: a.cummin(1).values, x)
    np.testing.assert_array_equal(tapegrad.tensor(x).cummin(1).indices.numpy(),
                                  torch.tensor(x).cummin(1).indices.numpy())
    _compare(lambda a: tapegrad.logcumsumexp(a, 1), lambda a: torch.logcumsumexp(a, 1),
             np.array([[0., -1000., 3, 2, 800], [1, 1, 1, 1, 1]]))


def test_reduction_fixes():
    ours, theirs = _pair([1., 2., 4., 7.], True)
    for lib, t in ((tapegrad, ours), (torch, theirs)):
        var, mean = lib.var_mean(t, correction=0)
        assert var.grad_fn is mean.grad_fn and var.grad_fn.name() == "VarMeanBackward0"
        (var + mean).backward()
        std, _ = lib.std_mean(t)
        assert std.grad_fn.name() == "StdMeanBackward0"
    _close(ours.grad, theirs.grad)
    with pytest.raises(RuntimeError, match="std and var only support floating point"):
        tapegrad.tensor([1, 2]).std()
    assert tapegrad.tensor([1, 2], dtype=tapegrad.uint8).all().dtype == tapegrad.uint8
    assert tapegrad.tensor([0, 2], dtype=tapegrad.uint8).any(0).dtype == tapegrad.uint8
    assert tapegrad.kthvalue(tapegrad.tensor([3., 1, 4, 1, 5, 9, 2, 6]), 1).indices.item() == 3
