"""Differences found by differential fuzzing of sorting, scans and set functions against PyTorch
(fzs): the nodes of topk, kthvalue, median, nanmedian and mode of a 0-d tensor; the median of an
empty tensor of any dtype; cummax/cummin of an empty tensor (no dim or dtype check); cumprod's
gradient of a slice of one and past a slice's first zero; the order of quantile's checks; histc's
binning (linear interpolation in the input's dtype), its checks' order and a lone nan;
histogram's and histogramdd's checks' order and histogram's n-d weight; a 0-d clamp bound beside
a number and the bounds' gradient where they are equal; repeat_interleave of a 0-d tensor, its
``dim`` in messages and ``output_size`` with tensor repeats; searchsorted of no values and of a
0-d sorter; roll and split's checks; renorm's checks; an empty combinations' node; cross without
``dim``; meshgrid's checks; the trapezoid rules on 0-d tensors; cdist of empty inputs and its
dtype checks."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _node(t):
    return type(t.grad_fn).__name__


def _described(t):
    """What ``assert_same`` does not compare: the dtype, the shape and the node."""
    return str(t.dtype), tuple(t.shape), _node(t)


def _gradients(lib, function, *values):
    """``function``'s output and the gradients of a weighted sum of it w.r.t. each input."""
    inputs = [lib.tensor(v, requires_grad=True) for v in values]
    out = function(lib, *inputs)
    weights = lib.tensor(np.linspace(0.5, 1.5, out.numel()).reshape(tuple(out.shape)),
                         dtype=out.dtype)
    return (out,) + lib.autograd.grad((out * weights).sum(), inputs)


# -- sorting and selection ------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("call", [
    lambda lib, x: lib.topk(x, 1).values,
    lambda lib, x: lib.kthvalue(x, 1, 0).values,
    lambda lib, x: lib.median(x, 0).values,
    lambda lib, x: lib.nanmedian(x, -1, keepdim=True).values,
    lambda lib, x: lib.mode(x, 0).values,
])
def test_selection_from_a_0d_tensor_records_its_own_node(call):
    assert_same(lambda lib: _described(call(lib, lib.tensor(2.0, requires_grad=True))), torch)


@needs_torch
@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool", "float32"])
@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_of_an_empty_tensor_is_nan_cast_to_its_dtype(name, dtype):
    assert_same(lambda lib: (getattr(lib, name)(lib.zeros(2, 0, dtype=getattr(lib, dtype))),
                             str(getattr(lib, name)(lib.zeros(0, dtype=getattr(lib, dtype))))),
                torch)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.cummax(lib.zeros(0), 5),
    lambda lib: lib.cummin(lib.zeros(2, 0, 3, requires_grad=True), -7).values,
    lambda lib: lib.cummax(lib.zeros(0, dtype=lib.complex64), 0).indices,
    lambda lib: lib.cummax(lib.zeros(2), 5),
])
def test_running_extremum_of_an_empty_tensor_checks_nothing(case):
    assert_same(case, torch)


# -- cumprod's gradient ---------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("values", [[np.nan], [np.inf], [[np.nan], [np.inf]],
                                    [1.0, 2.0, 0.0, np.nan], [0.0, 0.0, np.nan],
                                    [3.0, 0.0, 2.0, 0.0, np.inf]])
def test_cumprod_gradient_reaches_only_the_outputs_it_should(values):
    assert_same(lambda lib: _gradients(lib, lambda lib, x: lib.cumprod(x, -1), values), torch)


def test_cumprod_gradient_before_a_zero_is_finite_differences():
    x = tapegrad.tensor([[1.5, -2.0, 0.0, 3.0], [0.5, 0.0, 2.0, 0.0]], dtype=tapegrad.float64,
                        requires_grad=True)
    assert tapegrad.autograd.gradcheck(lambda t: tapegrad.cumprod(t, 1), (x,))


# -- quantile -------------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.quantile(lib.tensor([1, 2]), 1.5),
    lambda lib: lib.quantile(lib.tensor([1, 2]), 0.5, interpolation="bad"),
    lambda lib: lib.quantile(lib.tensor([], dtype=lib.int64), lib.tensor([[0.5]])),
    lambda lib: lib.quantile(lib.tensor([1]), lib.tensor([[0.5]])),
    lambda lib: lib.quantile(lib.tensor([]), lib.tensor([1.5])),
    lambda lib: lib.quantile(lib.tensor([1.0]), lib.tensor([1.5]), interpolation="bad"),
    lambda lib: lib.quantile(lib.tensor([1.0]), 2.0),
    lambda lib: lib.nanquantile(lib.tensor([1.0]), float("nan")),
    lambda lib: lib.quantile(lib.tensor([1.0]), lib.tensor([float("nan")])),
])
def test_quantile_checks_its_arguments_in_torch_order(case):
    assert_same(case, torch)


# -- histograms -----------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.histc(lib.tensor([1, 2]), 0),
    lambda lib: lib.histc(lib.tensor([1, 2]), 3, 2, 1),
    lambda lib: lib.histc(lib.tensor([True]), 4, 0, 3),
    lambda lib: lib.histc(lib.tensor([], dtype=lib.complex64), 3),
    lambda lib: lib.histc(lib.tensor([float("nan")]), 3),
    lambda lib: lib.histc(lib.tensor([float("nan"), 1.0]), 3),
    lambda lib: lib.histogram(lib.tensor([1, 2]), 0),
    lambda lib: lib.histogram(lib.tensor([1, 2]), 2, range=(3.0, 1.0)),
    lambda lib: lib.histogram(lib.tensor([1, 2]), 4, range=(0.0, 3.0)),
    lambda lib: lib.histogram(lib.tensor([1, 2]), lib.tensor([0.0, 1, 2])),
    lambda lib: lib.histogram(lib.tensor([True]), lib.tensor([True, False])),
    lambda lib: lib.histogram(lib.tensor([True]), 3, range=(0.0, 1.0)),
    lambda lib: lib.histogram(lib.tensor([1.0, 2], dtype=lib.float16), 3),
    lambda lib: lib.histogram(lib.tensor([1, 2]), 3, weight=lib.tensor([1.0, 2])),
    lambda lib: lib.histogramdd(lib.tensor([1, 2]), 3),
    lambda lib: lib.histogramdd(lib.rand(3, 2), [-1, 3]),
    lambda lib: lib.histogramdd(lib.rand(3, 2), [-2, 3]),
    lambda lib: lib.histogramdd(lib.rand(3, 2), [0, 3], [1.0, 0.0, 0.0, 1.0]),
    lambda lib: lib.histogramdd(lib.tensor([[True, False]]), [3, 3], range=[0.0, 1, 0, 1]),
])
def test_histogram_checks_in_torch_order(case):
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_histc_bins_by_linear_interpolation_in_the_input_dtype(dtype):
    values = np.random.default_rng(0).standard_normal(2000).astype(dtype)
    values = np.concatenate([values, np.round(values * 4) / 4])  # many on the edges
    for bins in (3, 7, 10):
        assert_same(lambda lib: lib.histc(lib.tensor(values), bins), torch)
    for value in values[:50]:  # one value: the middle of its range [value - 1, value + 1]
        assert_same(lambda lib: lib.histc(lib.tensor(value), 4), torch)


@needs_torch
def test_histc_position_overflowing_float16_lands_in_the_first_bin():
    values = np.array([-1525.0, 2308.0, 2000.0, 1187.0, 1500.0, 1800.0], np.float16)
    assert_same(lambda lib: lib.histc(lib.tensor(values), 18), torch)


@needs_torch
def test_histogram_takes_a_weight_of_the_input_shape():
    assert_same(lambda lib: lib.histogram(lib.arange(6.0).view(2, 3), 3,
                                          weight=lib.arange(6.0).view(3, 2)), torch)


# -- clamp ----------------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.clamp(lib.tensor([1, 5]), lib.tensor(2.5, dtype=lib.float64), 4),
    lambda lib: lib.tensor([1, 5]).clamp(lib.tensor(2, dtype=lib.int64), 4.5),
    lambda lib: lib.clamp(lib.tensor([True, False]), lib.tensor(2.5, dtype=lib.float64), 4),
    lambda lib: lib.tensor([1, 5]).clamp_(lib.tensor(2.5, dtype=lib.float64), 4),
])
def test_0d_clamp_bound_beside_a_number_is_a_number(case):
    assert_same(lambda lib: (case(lib), str(case(lib).dtype)), torch)


@needs_torch
def test_clamp_between_equal_bounds_gives_their_gradient_to_neither():
    x, low, high = [-1.0, 2.0, 3.0, 5.0], [2.0, 2.0, 4.0, 2.0], [2.0, 2.0, 1.0, 2.0]
    assert_same(lambda lib: _gradients(lib, lambda lib, *t: lib.clamp(*t), x, low, high), torch)


# -- repeats, rolls and splits --------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.repeat_interleave(lib.tensor(1.0), 2, 0),
    lambda lib: lib.repeat_interleave(lib.tensor(1.0), -2, 0),
    lambda lib: lib.repeat_interleave(lib.tensor(1.0), lib.tensor([2]), 0),
    lambda lib: lib.repeat_interleave(lib.tensor(1.0), lib.tensor([2]), -2),
    lambda lib: lib.repeat_interleave(lib.ones(2, 3), lib.tensor([1, 1, 1]), -2),
    lambda lib: lib.repeat_interleave(lib.zeros(0, 3), lib.tensor([2]), 0, output_size=5),
    lambda lib: lib.repeat_interleave(lib.tensor([2, 1]), output_size=-1),
    lambda lib: lib.repeat_interleave(lib.tensor([], dtype=lib.int64), output_size=3),
    lambda lib: lib.roll(lib.zeros(0, 3, requires_grad=True), (1, 2), (0, 9)),
    lambda lib: lib.split(lib.ones(3), -1, 1),
])
def test_repeats_rolls_and_splits_check_as_torch(case):
    assert_same(lambda lib: (lambda out: (out, _node(out)) if isinstance(out, lib.Tensor)
                             else out)(case(lib)), torch)


# -- searchsorted ---------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.searchsorted(lib.tensor([True, True]), lib.tensor([], dtype=lib.bool)),
    lambda lib: lib.bucketize(lib.zeros(0, 3, dtype=lib.bool), lib.tensor([True]),
                              out_int32=True),
    lambda lib: lib.searchsorted(lib.tensor([1j, 2j]), lib.tensor([])),
    lambda lib: lib.searchsorted(lib.tensor(1.0), lib.tensor(1.0), sorter=lib.tensor(0)),
])
def test_searchsorted_edge_cases_as_torch(case):
    assert_same(lambda lib: (lambda out: (out, str(out.dtype)))(case(lib)), torch)


# -- renorm, combinations, cross, meshgrid --------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.renorm(lib.ones(3), -1, 0, 1.0),
    lambda lib: lib.renorm(lib.ones(3), 2, 0, -1.0),
    lambda lib: lib.renorm(lib.ones(3, 2), 2, 0, -1e20),
    lambda lib: lib.renorm(lib.ones(3, 2, dtype=lib.int64), 2, 5, 1.0),
    lambda lib: lib.renorm(lib.zeros(3, 0, 2), float("inf"), 0, 1.0),
    lambda lib: lib.renorm(lib.zeros(0, 3), float("inf"), 0, 1.0),
])
def test_renorm_checks_in_torch_order(case):
    assert_same(case, torch)


@needs_torch
def test_combinations_of_too_few_elements_is_still_stacked():
    assert_same(lambda lib: _described(lib.combinations(lib.tensor([1.5], requires_grad=True), 3)),
                torch)


@needs_torch
@pytest.mark.parametrize("shapes", [((3, 2), (2, 3)), ((2, 3), (3, 2)), ((4, 2), (4, 2)),
                                    ((4, 2), (4,)), ((3,), (2, 3))])
def test_cross_without_dim_takes_input_dim_of_size_3_before_checking_other(shapes):
    assert_same(lambda lib: lib.cross(lib.ones(shapes[0]), lib.ones(shapes[1])), torch)


@needs_torch
@pytest.mark.parametrize("tensors, indexing", [
    (lambda lib: (lib.ones(2, 2), lib.zeros(3, 1)), "xy"),
    (lambda lib: (lib.ones(2), lib.zeros(3, dtype=lib.int64)), "bad"),
])
def test_meshgrid_checks_in_torch_order(tensors, indexing):
    assert_same(lambda lib: lib.meshgrid(*tensors(lib), indexing=indexing), torch)


# -- integration ----------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.cumulative_trapezoid(lib.tensor(1.0)),
    lambda lib: lib.cumulative_trapezoid(lib.tensor(1.0), dim=-2),
    lambda lib: lib.cumulative_trapezoid(lib.tensor([True]), dim=-2),
    lambda lib: lib.cumulative_trapezoid(lib.tensor(1.0), lib.tensor(2.0)),
    lambda lib: lib.cumulative_trapezoid(lib.tensor(1.0), lib.tensor([2.0])),
    lambda lib: lib.cumulative_trapezoid(lib.tensor([True]), lib.tensor([2.0]), dim=1),
    lambda lib: lib.trapezoid(lib.tensor(True)),
    lambda lib: lib.trapezoid(lib.tensor(1.0), lib.tensor([2.0])),
])
def test_trapezoid_rules_check_as_torch(case):
    assert_same(case, torch)


# -- cdist ----------------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("x1, x2, mode", [
    (((0, 2), "float32"), ((4, 2), "float64"), "use_mm_for_euclid_dist_if_necessary"),
    (((3, 0), "float32"), ((4, 0), "float64"), "donot_use_mm_for_euclid_dist"),
    (((3, 0), "float16"), ((4, 0), "float16"), "use_mm_for_euclid_dist_if_necessary"),
    (((2, 0, 2), "float32"), ((3, 4, 2), "float64"), "use_mm_for_euclid_dist_if_necessary"),
    (((30, 2), "float32"), ((4, 2), "float64"), "use_mm_for_euclid_dist_if_necessary"),
    (((30, 2), "float16"), ((4, 2), "float16"), "use_mm_for_euclid_dist_if_necessary"),
    (((3, 2), "float16"), ((4, 2), "float16"), "use_mm_for_euclid_dist_if_necessary"),
])
def test_cdist_checks_dtypes_only_where_a_kernel_runs(x1, x2, mode):
    arrays = [np.random.default_rng(0).random(shape).astype(dtype) for shape, dtype in (x1, x2)]

    def case(lib):
        out = lib.cdist(*(lib.tensor(a, requires_grad=True) for a in arrays), compute_mode=mode)
        return (out.float(),) + _described(out)
    assert_same(case, torch)
