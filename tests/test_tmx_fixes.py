"""Differences found by the data-reorganization programs (tmx_*): index_reduce's argument
checks (shared with index_add: index dtype and rank, source dtype and shape, PyTorch's order and
messages), and histogram / histogramdd rounding as PyTorch's kernel rounds (equal-bin edges from
its linspace, weighted bins summed in the input's dtype, the density normalized in that dtype)."""
import warnings

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _index_reduce(index, source, shape=(3,), dim=0, reduce="prod"):
    def case(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # index_reduce's "in beta" warning
            return lib.zeros(*shape).index_reduce_(dim, index(lib), source(lib), reduce)
    return case


INDEX_REDUCE_CASES = [
    # the index's dtype is checked before the source's
    _index_reduce(lambda lib: lib.tensor([0.0]), lambda lib: lib.ones(1, dtype=lib.float64)),
    _index_reduce(lambda lib: lib.tensor([0], dtype=lib.int16), lambda lib: lib.ones(1)),
    _index_reduce(lambda lib: lib.tensor([True]), lambda lib: lib.ones(1)),
    _index_reduce(lambda lib: lib.tensor([[0]]), lambda lib: lib.ones(1)),
    _index_reduce(lambda lib: lib.tensor([0, 1]), lambda lib: lib.ones(1)),
    _index_reduce(lambda lib: lib.tensor([0]), lambda lib: lib.ones(1, 3), shape=(3, 2)),
    _index_reduce(lambda lib: lib.tensor([0]), lambda lib: lib.ones(3), shape=(3, 2), dim=1),
    _index_reduce(lambda lib: lib.tensor([5]), lambda lib: lib.ones(1, 2), shape=(3, 2)),
    _index_reduce(lambda lib: lib.tensor([-1]), lambda lib: lib.ones(3, 1), shape=(3, 2), dim=1),
    _index_reduce(lambda lib: [0], lambda lib: lib.ones(1)),
    _index_reduce(lambda lib: lib.tensor([0], dtype=lib.int32), lambda lib: lib.ones(1) * 2,
                  reduce="amax"),
]


@needs_torch
@pytest.mark.parametrize("case", INDEX_REDUCE_CASES)
def test_index_reduce_checks_as_torch(case):
    assert_same(case, torch)


def test_index_reduce_refuses_a_float_index_by_dtype():
    with pytest.raises(RuntimeError, match=r"index_reduce_\(\): Expected dtype int32/int64 for "
                                           r"index but got: Float"):
        _index_reduce(lambda lib: lib.tensor([0.0]), lambda lib: lib.ones(1))(tapegrad)


def test_index_add_keeps_its_messages():
    x = tapegrad.zeros(3, 2)
    with pytest.raises(RuntimeError, match="index -1 is out of bounds for dimension 1 with size 2"):
        x.index_add_(1, tapegrad.tensor([-1]), tapegrad.ones(3, 1))
    with pytest.raises(RuntimeError, match=r"index_add_\(\): Expected dtype int32/int64"):
        x.index_add_(0, tapegrad.tensor([0.0]), tapegrad.ones(1, 2))


AGES = [23.0, 35.0, 47.0, 51.0, 62.0, 18.0, 35.0, 70.0, 29.0, 44.0]


def _float32_linspace(low, high, steps):
    """PyTorch's float32 linspace: the step rounded to float32, the first half from the start,
    the second from the end."""
    low, high = np.float32(low), np.float32(high)
    step = np.float32((high - low) / np.float32(steps - 1))
    return np.array([low + step * np.float32(i) if i < steps // 2
                     else high - step * np.float32(steps - 1 - i) for i in range(steps)],
                    np.float32)


def test_histogram_edges_round_as_linspace():
    _, edges = tapegrad.histogram(tapegrad.tensor(AGES), bins=3)
    np.testing.assert_array_equal(edges.numpy(), _float32_linspace(18.0, 70.0, 4))


def test_histogram_density_integrates_to_one_in_float32():
    hist, edges = tapegrad.histogram(tapegrad.tensor(AGES), bins=3, density=True)
    assert (hist * edges.diff()).sum().item() == 1.0
    assert hist.dtype == tapegrad.float32


def test_histogram_weights_sum_in_float32_in_order():
    weights = np.linspace(0.5, 2.0, 10, dtype=np.float32)
    edges = tapegrad.tensor([0.0, 30.0, 45.0, 100.0])
    hist, _ = tapegrad.histogram(tapegrad.tensor(AGES), bins=edges, weight=tapegrad.tensor(weights))
    expected = np.zeros(3, np.float32)
    for age, w in zip(AGES, weights):
        expected[0 if age < 30 else 1 if age < 45 else 2] += w
    np.testing.assert_array_equal(hist.numpy(), expected)


def test_histogramdd_closes_only_the_last_bin():
    points = tapegrad.tensor([[0.0, 0.0], [1.0, 1.0], [0.5, 0.5], [2.0, 0.0], [float("nan"), 0.5]])
    hist, _ = tapegrad.histogramdd(points, bins=[2, 2], range=[0.0, 1.0, 0.0, 1.0])
    np.testing.assert_array_equal(hist.numpy(), [[1.0, 0.0], [0.0, 2.0]])


def _histogram(values, **kwargs):
    def case(lib):
        weight = kwargs.get("weight")
        options = dict(kwargs, weight=None if weight is None else lib.tensor(weight))
        bins = options.pop("bins")
        if isinstance(bins, list):
            bins = lib.tensor(bins)
        hist, edges = lib.histogram(lib.tensor(values), bins=bins, **options)
        return hist, edges
    return case


HISTOGRAM_CASES = [
    _histogram(AGES, bins=3),
    _histogram(AGES, bins=7, density=True),
    _histogram(AGES, bins=[0.0, 30.0, 45.0, 100.0], weight=np.linspace(0.5, 2, 10).tolist()),
    _histogram(AGES, bins=[0.0, 30.0, 45.0, 100.0], weight=np.linspace(0.5, 2, 10).tolist(),
               density=True),
    _histogram([0.1 * i for i in range(100)], bins=13, range=(0.2, 9.1), density=True),
]


@needs_torch
@pytest.mark.parametrize("case", HISTOGRAM_CASES)
def test_histogram_bitwise_as_torch(case):
    ours, theirs = case(tapegrad), case(torch)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


@needs_torch
def test_histogramdd_density_bitwise_as_torch():
    def case(lib):
        points = lib.tensor(AGES).view(5, 2)
        return lib.histogramdd(points, bins=[2, 3], density=True)
    ours, theirs = case(tapegrad), case(torch)
    np.testing.assert_array_equal(ours.hist.numpy(), theirs.hist.numpy())
    for a, b in zip(ours.bin_edges, theirs.bin_edges):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.histogram(lib.tensor([1.0, 2.0]), lib.tensor([0.0, 3.0]), range=(0.0, 1.0)),
    lambda lib: lib.histogramdd(lib.tensor([[1.0, 2.0]]), [lib.tensor([0.0, 3.0])] * 2,
                                range=[0.0, 1.0, 0.0, 1.0]),
])
def test_histogram_range_with_bin_edges_as_torch(case):
    assert_same(case, torch)


def test_histogram_refuses_a_range_with_bin_edges():
    with pytest.raises(TypeError, match=r"histogram\(\) received an invalid combination of "
                                        r"arguments - got \(Tensor, Tensor, range=tuple\)"):
        tapegrad.histogram(tapegrad.tensor([1.0]), tapegrad.tensor([0.0, 3.0]), range=(0.0, 1.0))


def test_histogramdd_ignores_the_range_of_given_edges():
    hist, _ = tapegrad.histogramdd(tapegrad.tensor([[1.0, 2.0]]), [tapegrad.tensor([0.0, 3.0])] * 2,
                                   range=[0.0, 0.5, 0.0, 0.5])
    assert hist.tolist() == [[1.0]]


@needs_torch
@pytest.mark.parametrize("mask_dtype, self_dtype, source_dtype", [
    ("int32", "float32", "float32"), ("uint8", "float32", "float32"),
    ("float32", "float32", "float32"),
    ("bool", "float16", "float32"), ("bool", "bool", "int64"), ("bool", "float32", "float64"),
])
def test_masked_scatter_dtype_messages_as_torch(mask_dtype, self_dtype, source_dtype):
    def case(lib):
        mask = lib.tensor([1, 1]).to(getattr(lib, mask_dtype))
        source = lib.arange(2).to(getattr(lib, source_dtype))
        return lib.zeros(2, dtype=getattr(lib, self_dtype)).masked_scatter(mask, source)
    assert_same(case, torch)


def _masked_scatter(shape, mask, source, inplace):
    def case(lib):
        target = lib.zeros(*shape)
        args = (lib.tensor(mask), lib.tensor(source))
        return target.masked_scatter_(*args) if inplace else target.masked_scatter(*args)
    return case


MASKED_SCATTER_ORDER_CASES = [
    # out of place: the mask broadcasts with the input first (it may be the larger one)
    _masked_scatter((2, 3), [[True] * 4] * 2, list(range(8)), inplace=False),
    _masked_scatter((3,), [[True, False, True], [False, True, True]], [1.0, 2.0, 3.0, 4.0],
                    inplace=False),
    # in place: the dtypes first, then the mask expanding to the input, then the mask's dtype
    _masked_scatter((2, 3), [[True] * 4] * 2, list(range(8)), inplace=True),
    _masked_scatter((2, 3), [[True] * 4] * 2, [float(i) for i in range(8)], inplace=True),
    _masked_scatter((2, 3), [[[1, 1, 1]]] * 2, [float(i) for i in range(6)], inplace=True),
    _masked_scatter((2, 3), [[1, 0, 1]] * 2, [float(i) for i in range(6)], inplace=True),
    _masked_scatter((2, 3), [True, False, True], [float(i) for i in range(6)], inplace=True),
]


@needs_torch
@pytest.mark.parametrize("case", MASKED_SCATTER_ORDER_CASES)
def test_masked_scatter_check_order_as_torch(case):
    assert_same(case, torch)


def test_masked_scatter_broadcast_input_gradient_sums_back():
    x = tapegrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    mask = tapegrad.tensor([[True, False, True], [False, False, True]])
    y = x.masked_scatter(mask, tapegrad.arange(10.0, 16.0))
    assert y.tolist() == [[10.0, 2.0, 11.0], [1.0, 2.0, 12.0]]
    (y * tapegrad.arange(6.0).view(2, 3)).sum().backward()
    assert x.grad.tolist() == [3.0, 5.0, 0.0]  # the unmasked weights, summed over the rows


@needs_torch
@pytest.mark.parametrize("bins", [2.0, True, [2], (0.0, 1.0), None, "edges_long"])
def test_histogram_bins_type_as_torch(bins):
    def case(lib):
        edges = lib.tensor([0, 6]) if bins == "edges_long" else bins
        return lib.histogram(lib.tensor([5.0, 6.0]), edges)
    assert_same(case, torch)


def test_histogram_refuses_a_list_of_edges():
    with pytest.raises(TypeError, match=r"got \(Tensor, list\), but expected one of"):
        tapegrad.histogram(tapegrad.tensor([5.0]), [0.0, 6.0])


def test_bincount_sums_float32_weights_in_float32_in_order():
    values = np.arange(1000) % 3
    weights = (np.sin(np.arange(1000.0)) * 0.1 + 0.3).astype(np.float32)
    expected = np.zeros(3, np.float32)
    for v, w in zip(values, weights):
        expected[v] += w
    got = tapegrad.bincount(tapegrad.tensor(values), weights=tapegrad.tensor(weights))
    assert got.dtype == tapegrad.float32
    np.testing.assert_array_equal(got.numpy(), expected)


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "bool"])
def test_bincount_weights_bitwise_as_torch(dtype):
    def case(lib):
        values = lib.arange(1000) % 3
        weights = lib.tensor(np.sin(np.arange(1000.0)) * 0.1 + 0.3).to(getattr(lib, dtype))
        return lib.bincount(values, weights=weights, minlength=5)
    ours, theirs = case(tapegrad), case(torch)
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.tensor([True, True]).cumprod(0, dtype=lib.bool),
    lambda lib: lib.tensor([1, 2]).cumsum(0, dtype=lib.bool),
    lambda lib: lib.tensor([1.0, 2.0]).cumprod(0, dtype=lib.bool),
    lambda lib: lib.tensor([True, False]).cumsum(0),  # promoted to int64 without a dtype
    lambda lib: lib.tensor([True]).cumsum_(0, dtype=lib.bool),
])
def test_running_reductions_refuse_a_bool_accumulator_as_torch(case):
    assert_same(case, torch)


def test_cumsum_refuses_dtype_bool():
    with pytest.raises(NotImplementedError, match="\"cumsum_out_cpu\" not implemented for 'Bool'"):
        tapegrad.tensor([1, 2]).cumsum(0, dtype=tapegrad.bool)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.aminmax(lib.zeros(0, 3)),
    lambda lib: lib.aminmax(lib.zeros(0, 3), dim=0),
    lambda lib: lib.aminmax(lib.zeros(0, 3), dim=-2),
    lambda lib: lib.aminmax(lib.zeros(0, 3), dim=1),
    lambda lib: lib.aminmax(lib.zeros(3, 0), dim=1, keepdim=True),
    lambda lib: lib.aminmax(lib.zeros(2), dim=(0,)),
    lambda lib: lib.aminmax(lib.zeros(2), dim=True),
    lambda lib: lib.aminmax(lib.arange(6.0).view(2, 3), dim=lib.tensor(1)),
])
def test_aminmax_checks_as_torch(case):
    assert_same(case, torch)


def test_aminmax_names_itself_for_an_empty_reduction():
    with pytest.raises(IndexError, match="aminmax: Expected reduction dim 0 to have non-zero"):
        tapegrad.aminmax(tapegrad.zeros(0, 3), dim=-2)


_SCORES = [[1.0, 5.0, 2.0], [4.0, 3.0, 6.0]]


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.topk(lib.tensor(_SCORES), 1.0),
    lambda lib: lib.kthvalue(lib.tensor(_SCORES), True),
    lambda lib: lib.kthvalue(lib.tensor(_SCORES), 1, 1.0),
    lambda lib: lib.tensor(_SCORES).kthvalue(lib.tensor(2)),
    lambda lib: lib.tensor(_SCORES).topk(lib.tensor(2)),
    lambda lib: lib.median(lib.tensor(_SCORES), None),
    lambda lib: lib.nanmedian(lib.tensor(_SCORES), keepdim=True),
    lambda lib: lib.tensor(_SCORES).median(keepdim=False),
    lambda lib: lib.median(lib.tensor(_SCORES), 1, True),
    lambda lib: lib.median(lib.tensor(_SCORES)),
    lambda lib: lib.histc(lib.tensor([1.0]), bins=2, max=lib.tensor(3.0)),
    lambda lib: lib.histc(lib.tensor([1.0]), bins=2, min=lib.tensor([0.0])),
    lambda lib: lib.histc(lib.tensor([1.0]), bins=2, min=lib.tensor(0), max=lib.tensor(True)),
    lambda lib: lib.histc(lib.tensor([1.0]), bins=lib.tensor(2)),
    lambda lib: lib.histc(lib.tensor([1.0]), bins=lib.tensor(2.0)),
])
def test_selection_argument_parsing_as_torch(case):
    assert_same(case, torch)


def test_median_keepdim_without_dim_asks_for_dim():
    with pytest.raises(TypeError, match=r'median\(\) missing 1 required positional arguments'):
        tapegrad.median(tapegrad.tensor(_SCORES), keepdim=True)
    assert tapegrad.median(tapegrad.tensor(_SCORES)).item() == 3.0
