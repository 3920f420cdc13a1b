"""Differences found by the object-detection programs (det_*): ``topk(0)`` on empty slices, and
the position ``mode`` reports, which is where ATen's std::sort of (value, position) pairs leaves
the last of the longest run: not the last occurrence once a slice is longer than 16, and with
NaN (which ``<`` leaves unordered and ``!=`` keeps apart) neither the smallest value."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
NAN = float("nan")


def _votes(lib, frames=40, tracks=5, classes=4):
    """Class labels with many ties along dim 0, as a per-track vote over frames."""
    t = lib.arange(frames * tracks).view(frames, tracks)
    return (t * 7 + t // 11) % classes


# -- topk of zero elements ----------------------------------------------------------------------

@pytest.mark.parametrize("shape, dim", [((0,), 0), ((3, 0), 1), ((2, 0, 3), 1)])
def test_topk_of_zero_elements_along_an_empty_dim_keeps_the_other_dims(shape, dim):
    values, indices = tapegrad.zeros(shape).topk(0, dim=dim)
    assert tuple(values.shape) == shape and tuple(indices.shape) == shape
    assert indices.dtype == tapegrad.int64


@needs_torch
@pytest.mark.parametrize("sorted_", [True, False])
def test_topk_of_zero_elements_same_as_torch(sorted_):
    assert_same(lambda lib: lib.zeros(3, 0).topk(0, sorted=sorted_), torch)
    assert_same(lambda lib: lib.tensor([]).topk(0, largest=False, sorted=sorted_), torch)


# -- mode ---------------------------------------------------------------------------------------

def test_mode_of_a_short_slice_is_the_smallest_most_frequent_at_its_last_position():
    # up to 16 elements std::sort is an insertion sort: stable, so the run ends at the last one
    values, indices = tapegrad.tensor([[2, 2, 1, 1, 3], [5, 4, 4, 5, 5]]).mode(dim=1)
    assert values.tolist() == [1, 5] and indices.tolist() == [3, 4]


def test_mode_of_a_long_slice_reports_a_position_holding_a_most_frequent_value():
    votes = _votes(tapegrad)
    values, indices = votes.mode(dim=0)
    for track in range(votes.shape[1]):
        column = votes[:, track].tolist()
        counts = {v: column.count(v) for v in column}
        assert values[track].item() == min(v for v in counts if counts[v] == max(counts.values()))
        assert column[indices[track].item()] == values[track].item()


def test_mode_with_nan_counts_each_nan_apart_and_compares_it_with_nothing():
    # sorted with `<`: [3, nan, 1, 3] -> [1, 3, nan, 3]: four runs of one, the first is 1
    assert tapegrad.tensor([3.0, NAN, 1.0, 3.0]).mode().indices.item() == 2
    # no run longer than one: the first element, a nan
    values, indices = tapegrad.tensor([NAN, NAN, NAN, 1.0]).mode()
    assert np.isnan(values.item()) and indices.item() == 0


def test_mode_values_gradient_goes_to_the_reported_position():
    x = tapegrad.tensor(_votes(tapegrad).double().numpy(), requires_grad=True)
    values, indices = x.mode(dim=0)
    values.sum().backward()
    expected = np.zeros(tuple(x.shape))
    expected[indices.numpy(), np.arange(x.shape[1])] = 1
    np.testing.assert_array_equal(x.grad.numpy(), expected)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: _votes(lib).mode(dim=0),
    lambda lib: _votes(lib).T.mode(dim=1, keepdim=True),
    lambda lib: _votes(lib).view(-1).mode(),
    lambda lib: (_votes(lib) % 2 == 0).mode(dim=0),
    lambda lib: _votes(lib).to(lib.float16).mode(dim=0),
    lambda lib: lib.tensor([1.0, NAN, NAN, 2.0, 2.0]).mode(),
    lambda lib: lib.tensor([NAN, 1.0, 1.0, NAN, NAN]).mode(),
    lambda lib: lib.where(_votes(lib) == 3, NAN, _votes(lib).float()).mode(dim=0),
])
def test_mode_same_as_torch(case):
    assert_same(case, torch)
