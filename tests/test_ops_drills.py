"""Cumulative, sorting and scatter operations against PyTorch: logcumsumexp's derivatives,
cummax/cummin with nans, take_along_dim's wrapped indices, topk's tie order, unique's nodes,
``out=`` (one tensor or a (values, indices) tuple) and ``torch.return_types``.

Each check runs the same code with ``T`` as tapegrad and as PyTorch and compares what comes out.
"""
import pickle
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")

# logcumsumexp's backward works with the dtype's lowest number, as PyTorch's: sums may overflow
pytestmark = pytest.mark.filterwarnings("ignore:(overflow|invalid value) encountered in add")

NAN, INF = float("nan"), float("inf")


def outcome(function, T):
    """What ``function(T)`` gives: nested values as numpy (or (type, message) of an error)."""
    try:
        return _plain(function(T))
    except Exception as error:  # noqa: BLE001  the error is the outcome compared
        return type(error).__name__, str(error)


def _plain(value):
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, (tapegrad.Tensor, torch.Tensor)):
        return (str(value.dtype).replace("torch.", ""), value.detach().numpy().tolist())
    return value


def same(function):
    ours, theirs = outcome(function, tapegrad), outcome(function, torch)
    _assert_close(ours, theirs)


def _assert_close(ours, theirs):
    """Equal structure, names and integers; floats within 1e-12 relative, since the last bits of
    a float64 result depend on the machine's libm and BLAS."""
    if isinstance(ours, (list, tuple)) and isinstance(theirs, (list, tuple)):
        assert len(ours) == len(theirs), (ours, theirs)
        for a, b in zip(ours, theirs):
            _assert_close(a, b)
    elif isinstance(ours, float) and isinstance(theirs, float):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=0)  # (nan equals nan)
    else:
        assert ours == theirs


def node_name(tensor):
    return None if tensor.grad_fn is None else tensor.grad_fn.name()


# ---------------------------------------------------------------------------------- logcumsumexp

def test_logcumsumexp_second_derivative_is_that_of_pytorch():
    def second(T):
        z = T.tensor([1., 2., 4.], dtype=T.float64, requires_grad=True)
        g, = T.autograd.grad(T.logcumsumexp(z, 0).sum(), z, create_graph=True)
        return node_name(g), g, T.autograd.grad((g * g.detach().flip(0)).sum(), z)[0]
    same(second)


@pytest.mark.parametrize("shape, dim", [((5,), 0), ((3, 4), 1), ((3, 4), 0), ((2, 3, 4), -2)])
def test_logcumsumexp_gradients_twice_in_float64(shape, dim):
    x = tapegrad.tensor(np.random.default_rng(0).normal(size=shape) * 3, dtype=tapegrad.float64,
                        requires_grad=True)
    assert gradcheck(lambda t: tapegrad.logcumsumexp(t, dim), (x,))
    assert gradgradcheck(lambda t: tapegrad.logcumsumexp(t, dim), (x,))


def test_logcumsumexp_with_infinite_inputs():
    def run(T):
        z = T.tensor([[1., -INF, 4.], [-INF, -INF, 1.]], dtype=T.float64, requires_grad=True)
        y = T.logcumsumexp(z, 1)
        g, = T.autograd.grad(y, z, T.tensor([[1., -2, 3], [0.5, 1, -1]], dtype=T.float64),
                             create_graph=True)
        return y, g, T.autograd.grad((g * g).sum(), z)[0]
    same(run)


@pytest.mark.parametrize("case", [
    lambda T: T.logcumsumexp(T.tensor([1, 2]), 0),
    lambda T: T.logcumsumexp(T.tensor([True]), 0),
    lambda T: T.logcumsumexp(T.ones(3)),
    lambda T: T.logcumsumexp(T.ones(3), None),
    lambda T: T.ones(3).cumsum(),
    lambda T: T.cummin(T.ones(3)),
    lambda T: T.logcumsumexp(T.zeros(0, 3), 0),
    lambda T: T.logcumsumexp(T.tensor([1., 2.], dtype=T.float16), 0),
], ids=["long", "bool", "no-dim", "dim-none", "method-no-dim", "cummin-no-dim", "empty", "half"])
def test_logcumsumexp_inputs(case):
    same(case)


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "logcumsumexp", "cummax", "cummin"])
def test_running_ops_of_a_scalar_record_their_own_node(name):
    def run(T):
        x = T.tensor(2., requires_grad=True)
        result = getattr(T, name)(x, -1)
        values = result if isinstance(result, (T.Tensor,)) else result[0]
        values.backward()
        return node_name(values), result, x.grad
    same(run)


# --------------------------------------------------------------------------------- cummax, cummin

@pytest.mark.parametrize("name", ["cummax", "cummin"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cummax_cummin_with_nans_values_indices_and_gradients(name, dim):
    def run(T):
        x = T.tensor([[1., 3, 3, NAN, 2, NAN, 0], [5, 4, 5, 1, NAN, 7, 7]], requires_grad=True)
        values, indices = getattr(T, name)(x, dim)
        values.backward(T.arange(values.numel()).reshape(values.shape).float())
        return node_name(values), values, indices, x.grad
    same(run)


@pytest.mark.parametrize("case", [
    lambda T: T.cummin(T.tensor([0.9, 0.7, NAN, 0.5, NAN, 0.4]), 0),
    lambda T: T.cummax(T.tensor([1, NAN, 2, NAN, 0]), 0),
    lambda T: T.cummax(T.tensor(5.), 0),
    lambda T: T.cummax(T.tensor(5.), 1),
    lambda T: T.cummin(T.tensor(5.), -2),
    lambda T: T.cummax(T.tensor([1, 3, 2, 3]), 0),
    lambda T: T.cummin(T.tensor([True, False, True]), 0),
    lambda T: T.cummax(T.zeros(0, 2), 0),
])
def test_cummax_cummin_cases(case):
    same(case)


# -------------------------------------------------------------------------------- take_along_dim

@pytest.mark.parametrize("case", [
    lambda T, a: T.take_along_dim(a, T.tensor([[-1], [-1]]), dim=1),
    lambda T, a: T.take_along_dim(a, T.tensor([[-7, 100], [5, -3]]), dim=1),
    lambda T, a: T.take_along_dim(a, T.tensor([[-1, 3, 2]]), dim=0),
    lambda T, a: a.take_along_dim(T.tensor([[-1]]), -1),
    lambda T, a: T.take_along_dim(a, T.tensor([5, 0])),
    lambda T, a: T.take_along_dim(a, T.tensor([-1])),
    lambda T, a: T.take_along_dim(a, T.tensor([[1.]]), dim=1),
    lambda T, a: T.take_along_dim(a, T.tensor([[1]], dtype=T.int32), dim=1),
    lambda T, a: T.take_along_dim(a, T.tensor([1.])),
    lambda T, a: T.take_along_dim(a, T.tensor([1], dtype=T.int32)),
    lambda T, a: T.take_along_dim(a, T.tensor([1]), dim=1),
    lambda T, a: T.take_along_dim(T.zeros(2, 0), T.tensor([[1]]), dim=1),
])
def test_take_along_dim(case):
    def run(T):
        a = T.tensor([[.1, .7, .2], [.5, .3, .9]], requires_grad=True)
        out = case(T, a)
        out.sum().backward()
        return out, a.grad
    same(run)


# ------------------------------------------------------------------------------------------- topk

def test_topk_ties_in_pytorchs_order():
    same(lambda T: [T.topk(T.tensor([[1., 3., 3., 0., 3., 1.]]), 2).indices,
                    T.topk(T.zeros(1, 8), 3).indices, T.topk(T.zeros(1, 8), 6).indices])


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("sorted", [True, False])
def test_topk_on_many_ties_matches_pytorch(largest, sorted):
    rng = np.random.default_rng(7)
    for n, k, levels in [(7, 3, 2), (40, 17, 3), (300, 4, 5), (300, 60, 4), (1000, 15, 2),
                         (33, 33, 3), (20, 0, 2)]:
        data = rng.integers(0, levels, (3, n)).astype(np.float32)
        data[0, ::5] = np.nan
        for dtype in ("float32", "int64"):
            array = data if dtype == "float32" else np.nan_to_num(data).astype(np.int64)
            same(lambda T, array=array, k=k: T.topk(T.tensor(array), k, largest=largest,
                                                     sorted=sorted))


def test_topk_without_ties_gradient_and_dims():
    def run(T):
        x = T.tensor(np.random.default_rng(0).integers(0, 3, (3, 4, 5)).astype(np.float32),
                     requires_grad=True)
        values, indices = T.topk(x, 2, dim=1)
        values.sum().backward()
        return values, indices, x.grad, T.topk(T.tensor([3., 1, NAN, 5]), 2, largest=False)
    same(run)


# ----------------------------------------------------------------------------------------- unique

@pytest.mark.parametrize("inverse", [False, True])
@pytest.mark.parametrize("counts", [False, True])
def test_unique_records_pytorchs_nodes_and_refuses_backward(inverse, counts):
    def run(T):
        x = T.tensor([1., 1, 2, 3, 3], requires_grad=True)
        m = T.tensor([[1., 2], [1, 2], [3, 4]], requires_grad=True)
        results = [T.unique(x, return_inverse=inverse, return_counts=counts),
                   T.unique(m, sorted=False, return_inverse=inverse, return_counts=counts, dim=0),
                   T.unique_consecutive(x, return_inverse=inverse, return_counts=counts),
                   T.unique_consecutive(m, return_inverse=inverse, return_counts=counts, dim=0)]
        names = [[node_name(t) for t in (r if isinstance(r, tuple) else (r,))] for r in results]
        errors = []
        for result in results:
            try:
                (result[0] if isinstance(result, tuple) else result).sum().backward()
            except NotImplementedError as error:
                errors.append(str(error))
        return names, errors
    same(run)


def test_unique_without_grad():
    def run(T):
        x = T.tensor([2., 1, 2], requires_grad=True)
        with T.no_grad():
            y = T.unique(x)
        return node_name(y), y.requires_grad, node_name(T.unique(T.tensor([1, 1])))
    same(run)


# -------------------------------------------------------------------------------------- out=

@pytest.mark.parametrize("name, call", [
    ("cummax", lambda T, x, o: T.cummax(x, 0, out=o)),
    ("cummin", lambda T, x, o: T.cummin(x, 0, out=o)),
    ("sort", lambda T, x, o: T.sort(x, out=o)),
    ("topk", lambda T, x, o: T.topk(x, 2, out=o)),
    ("kthvalue", lambda T, x, o: T.kthvalue(x, 2, out=o)),
    ("mode", lambda T, x, o: T.mode(x, out=o)),
])
def test_tuple_out(name, call):
    def run(T):
        x = T.tensor([3., 1, 2])
        values, indices = T.empty(0), T.empty(0, dtype=T.long)
        result = call(T, x, [values, indices])
        outcomes = [type(result).__name__, result, result.values is values,
                    result.indices is indices]
        for bad in [(T.empty(0), T.empty(0)), (T.empty(0, dtype=T.long),) * 2,
                    (T.empty(0, dtype=T.float64), T.empty(0, dtype=T.long)),
                    (T.empty(0), T.empty(0, dtype=T.int32)), (T.empty(0),),
                    (T.empty(0), 1)]:
            outcomes.append(outcome(lambda T, bad=bad: call(T, x, bad), T))
        outcomes.append(outcome(lambda T: call(T, x.requires_grad_(), (values, indices)), T))
        return outcomes
    same(run)


@pytest.mark.parametrize("name, call, dtype", [
    ("logcumsumexp", lambda T, y, o: T.logcumsumexp(y, 0, out=o), "float32"),
    ("diff", lambda T, y, o: T.diff(y, out=o), "float32"),
    ("isin", lambda T, y, o: T.isin(y, T.tensor([2.]), out=o), "bool"),
    ("bucketize", lambda T, y, o: T.bucketize(y, T.tensor([2.]), out=o), "int64"),
    ("take", lambda T, y, o: T.take(y, T.tensor([0, 2]), out=o), "float32"),
    ("kron", lambda T, y, o: T.kron(y, y, out=o), "float32"),
    ("nansum", lambda T, y, o: T.nansum(y, out=o), "float32"),
    ("nanmean", lambda T, y, o: T.nanmean(y, out=o), "float32"),
])
def test_out(name, call, dtype):
    def run(T):
        y = T.tensor([1., NAN if name.startswith("nan") else 2, 4])
        out = T.empty(0, dtype=getattr(T, dtype))
        result = call(T, y, out)
        wrong = [] if name.startswith("nan") else [
            outcome(lambda T: call(T, y, T.empty(0, dtype=T.int32)), T)]
        return result, result is out, wrong
    same(run)


# ---------------------------------------------------------------------------------- return_types

def test_return_types_are_pytorchs_structseqs():
    def run(T):
        r = T.max(T.tensor([[1., 2]]), 1)
        constructed = [outcome(lambda T, args=args: T.return_types.max(*args), T)
                       for args in ([[1, 2]], [[1]], [[1, 2, 3]])]
        return (repr(type(r)), repr(r), r.n_fields, r.n_sequence_fields, r.n_unnamed_fields,
                hasattr(r, "_fields"), hasattr(r, "_asdict"), r == (r[0], r[1]), r[0:1], len(r),
                repr(pickle.loads(pickle.dumps(r))), constructed,
                [type(f(T)).__name__ for f in (
                    lambda T: T.cummax(T.ones(2), 0), lambda T: T.sort(T.ones(2)),
                    lambda T: T.aminmax(T.ones(2)), lambda T: T.frexp(T.ones(2)),
                    lambda T: T.linalg.qr(T.eye(2)), lambda T: T.linalg.slogdet(T.eye(2)),
                    lambda T: T.linalg.eigh(T.eye(2)), lambda T: T.svd(T.eye(2)))])
    same(run)


def test_return_type_fields_are_read_only():
    r = tapegrad.sort(tapegrad.tensor([2., 1.]))
    with pytest.raises(AttributeError):
        r.values = None
    values, indices = r
    assert values is r.values and indices is r[1]


# -------------------------------------------------------------------------------------- messages

@pytest.mark.parametrize("case", [
    lambda T: T.histc(T.tensor([1., 2.]), bins=2.5),
    lambda T: T.histc(T.tensor([1., 2.]), bins=True),
    lambda T: T.histc(T.tensor([1., 2.]), bins=3, min="a"),
    lambda T: T.isin(1, 2),
    lambda T: T.isin(T.tensor([1, 2]), [1]),
    lambda T: T.isin(1, T.tensor([1, 2])),
    lambda T: T.isin(T.tensor([1, 2]), 2.0),
    lambda T: T.isin(T.tensor([True, False]), T.tensor([1, 2])),
    lambda T: T.isin(T.tensor([1, 2]), T.tensor([True])),
    lambda T: T.isin(True, T.tensor([1])),
])
def test_messages(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(case)


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "logcumsumexp"])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_running_reductions_accumulate_as_pytorch(name, dtype):
    """PyTorch's CPU scans add float32 in float64 (float16 in float32): last bits agree."""
    values = np.random.default_rng(3).random(2000) * (0.9 if name != "cumprod" else 0.1) + (
        0.0 if name != "cumprod" else 0.96)
    values = values.astype(dtype)
    same(lambda T: getattr(T, name)(T.tensor(values), 0))
