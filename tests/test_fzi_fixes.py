"""Differences found by differential fuzzing of indexing, scatter/gather and shape ops against
PyTorch (fzi): ``x[key]`` and ``x[key] = value`` with ints, slices, None, Ellipsis, bools, index
lists and tensors and masks on tensors of 0 to 4 dims (gradients included); index_select,
index_add/copy/fill/reduce, index_put, masked_fill/scatter/select, gather, scatter (add,
reduce), take, take_along_dim, narrow and the splitting, repeating and reordering ops.

Found: the order of PyTorch's checks of an indexing key (masks against the whole view, empty
dimensions, then the index values last: after the value's shape and dtype when assigning), the
masked fill PyTorch uses for a one-element value through a lone mask (no dtype check), a lone
bool key of an assignment, 0-d tensors in gather, scatter, index_copy and index_reduce, and the
messages of index_add, index_copy, index_reduce and narrow."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _assign(x, key, value):
    x[key] = value
    return x


def _grads(lib, call, *shapes):
    """``call``'s result and the gradients of its float64 inputs of ``shapes``."""
    leaves = [lib.tensor(np.arange(1.0, 1.0 + np.prod(s)).reshape(s), requires_grad=True)
              for s in shapes]
    result = call(lib, *leaves)
    (result * lib.arange(1.0, 1.0 + result.numel(), dtype=lib.float64).reshape(
        result.shape)).sum().backward()
    return (result, *(leaf.grad for leaf in leaves))


# -- the order of an indexing key's checks --------------------------------------------------------

GETITEM_ERROR_CASES = {
    # the first bad element of the broadcast indices, each index tensor in turn
    "first_bad_element": (lambda lib: lib.zeros(3, 4)[[0, 5], [9, 1]],
                          "index 9 is out of bounds for dimension 1 with size 4"),
    # a mask counts once per dimension in the bounds message
    "after_a_mask": (lambda lib: lib.zeros(3, 4, 5)[lib.ones(3, 4, dtype=lib.bool), [7]],
                     "index 7 is out of bounds for dimension 2 with size 5"),
    "empty_dim": (lambda lib: lib.zeros(3, 0)[[5], [1]],
                  "index is out of bounds for dimension with size 0"),
    "broadcast_before_empty_dim": (
        lambda lib: lib.zeros(3, 0)[[1, 2], [1, 2, 3]],
        r"shape mismatch: indexing tensors could not be broadcast together with shapes \[2\], "
        r"\[3\]"),
    # a mask is checked against the view that the whole key builds (None appended here)
    "mask_against_the_whole_view": (
        lambda lib: lib.zeros(2)[lib.tensor([False, False, False]), None],
        r"The shape of the mask \[3\] at index 0 does not match the shape of the indexed tensor "
        r"\[2, 1\] at index 0"),
    "int_before_index_tensor": (lambda lib: lib.zeros(1, 2, 3)[[1], None, 3],
                                "index 3 is out of bounds for dimension 2 with size 2"),
    # a 0-d tensor takes an int or a slice only alone, not in a tuple
    "0d_tuple_int": (lambda lib: lib.zeros(())[(0,)], "too many indices for tensor of dimension 0"),
    "0d_tuple_slice": (lambda lib: lib.zeros(())[(slice(None),)],
                       "too many indices for tensor of dimension 0"),
    "0d_index_tensor": (lambda lib: lib.zeros(())[lib.tensor(0)],
                        "too many indices for tensor of dimension 0"),
    "0d_lone_slice_step": (lambda lib: lib.zeros(())[::-1], "step must be greater than zero"),
    "0d_lone_negative": (lambda lib: lib.zeros(())[-3],
                         "index -3 is out of bounds for dimension 0 with size 0"),
    # a list mask counts as one dimension before it is read (a mask tensor as its rank)
    "list_mask_after_ellipsis": (
        lambda lib: lib.zeros(2, 4, 2)[..., [[False, True], [True, False], [False, False],
                                             [True, False]]],
        r"The shape of the mask \[4, 2\] at index 0 does not match the shape of the indexed "
        r"tensor \[2, 4, 2\] at index 2"),
    "list_mask_past_the_end": (
        lambda lib: lib.zeros(4, 4)[..., [[True] * 4] * 4],
        r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"),
    "two_ellipses": (lambda lib: lib.zeros(2, 2, 2, 2)[..., ..., [1]],
                     r"too many indices for tensor of dimension 4 \(got 7\)"),
    "broadcast_before_too_many": (
        lambda lib: lib.zeros(4, 4)[[[True] * 4] * 4, lib.tensor([1, 1])],
        r"shape mismatch: indexing tensors could not be broadcast together with shapes \[16\], "
        r"\[16\], \[2\]"),
}


GETITEM_CASES = {
    "list_mask_then_slice": lambda lib: lib.arange(24.0).reshape(4, 2, 3)[
        [[False, True], [True, False], [False, False], [True, False]], None],
    # an empty result reads no index value
    "empty_result_out_of_bounds": lambda lib: lib.zeros(4, 3, 0, 3)[[[4, -5]], :1],
    "empty_result_gradient": lambda lib: _grads(lib, lambda lib, x: x[[[4, -4]], :1],
                                                (4, 3, 0, 3)),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(GETITEM_CASES))
def test_indexing_as_torch(name):
    assert_same(GETITEM_CASES[name], torch)


def test_an_empty_result_reads_no_index():
    assert tuple(tapegrad.zeros(4, 3, 0)[[7]].shape) == (1, 3, 0)


@pytest.mark.parametrize("key, error, message", [
    (slice(None, None, -1), ValueError, "step must be greater than zero"),
    (slice(None, None, 0), ValueError, "slice step cannot be zero"),
    (slice(None, None, 2), IndexError, r"slice\(\) cannot be applied to a 0-dim tensor\."),
])
def test_a_slice_of_a_0d_tensor_checks_its_step_first(key, error, message):
    with pytest.raises(error, match=f"^{message}$"):
        tapegrad.zeros(())[key]


@pytest.mark.parametrize("name", sorted(GETITEM_ERROR_CASES))
def test_indexing_errors(name):
    call, message = GETITEM_ERROR_CASES[name]
    with pytest.raises((IndexError, ValueError), match=f"^{message}$"):
        call(tapegrad)


@pytest.mark.parametrize("shape, key, error, message", [
    ((3, 4), "a", TypeError, "new\\(\\): invalid data type 'str'"),
    ((3, 4), (0, 2 ** 63), ValueError, "Overflow when unpacking long long"),
    ((), 2 ** 70, ValueError, "Overflow when unpacking long long"),
])
def test_keys_pytorch_cannot_read(shape, key, error, message):
    for lib in (tapegrad, torch) if torch else (tapegrad,):
        with pytest.raises(error, match=f"^{message}$"):
            lib.zeros(shape)[key]


@needs_torch
@pytest.mark.parametrize("name", sorted(GETITEM_ERROR_CASES))
def test_indexing_errors_as_torch(name):
    assert_same(GETITEM_ERROR_CASES[name][0], torch)


SETITEM_CASES = {
    # the value's shape, then its dtype, then the index values
    "shape_before_bounds": lambda lib: _assign(lib.zeros(3, 4), ([7],), lib.zeros(5)),
    "dtype_before_bounds": lambda lib: _assign(lib.zeros(3, 4), ([7],),
                                               lib.zeros(4, dtype=lib.int64)),
    "empty_dim_first": lambda lib: _assign(lib.zeros(3, 0), (slice(None), [1]), lib.zeros(5)),
    # a one-element value through a lone mask is a masked fill: cast, not refused
    "mask_fill_casts": lambda lib: _assign(lib.zeros(3, 4), [True, False, True],
                                           lib.full((1, 1), 7, dtype=lib.int64)),
    "mask_after_select_fills": lambda lib: _assign(lib.zeros(3, 4), (lib.tensor([True, False,
                                                                                  True]), 0),
                                                   lib.tensor(7)),
    "mask_and_bool_is_no_fill": lambda lib: _assign(lib.zeros(3, 4), (lib.tensor([True, False,
                                                                                   True]), True),
                                                    lib.tensor(7)),
    # a lone False writes nothing, a lone True is None
    "false_writes_nothing": lambda lib: _assign(lib.zeros(3, 4), False, lib.ones(7)),
    "true_is_none": lambda lib: _assign(lib.zeros(3, 4), True, lib.arange(4.0)),
    "true_is_none_mismatch": lambda lib: _assign(lib.zeros(3, 4), True, lib.zeros(7)),
    "false_in_a_tuple": lambda lib: _assign(lib.zeros(3, 4), (False,), lib.zeros(7)),
    # a byte mask is filled through (and refused) only alone: a bool is an index too
    "byte_mask_and_bool": lambda lib: _assign(lib.zeros(3, 4), (True, lib.tensor([1, 0, 1],
                                                                               dtype=lib.uint8)),
                                              5.0),
    # the value keeps its dtype until it is broadcast (the expand's message names it)
    "expand_message_names_value_dtype": lambda lib: _assign(lib.zeros(3), 0,
                                                            lib.zeros(2, 1, dtype=lib.int64)),
    "empty_expanded_target": lambda lib: _assign(lib.zeros(1, 3, 0).expand(2, 3, 0), 0, 1.0),
    "slice_step_zero": lambda lib: _assign(lib.zeros(3, 3), (slice(None, None, 0), 5), 1.0),
    "0d_tuple_int": lambda lib: _assign(lib.zeros(()), (0,), 1.0),
    "0d_index_tensor": lambda lib: _assign(lib.zeros(()), lib.tensor(0), 1.0),
    # a value must be a number or a tensor
    "list_value": lambda lib: _assign(lib.zeros(3, 4), 0, [1.0, 2.0, 3.0, 4.0]),
    "str_value_after_false": lambda lib: _assign(lib.zeros(3, 4), False, "a"),
    "numpy_value": lambda lib: _assign(lib.zeros(3, dtype=lib.int32), [0], np.ones(1)),
    # index_put_ reads its values' shape and dtype as given, before the index values
    "index_put_leading_ones": lambda lib: lib.zeros(3).index_put_((lib.tensor([0, 0]),),
                                                                  lib.tensor([[1.0, 2.0]])),
    "index_put_dtype_before_bounds": lambda lib: lib.zeros(3).index_put_(
        (lib.tensor([7]),), lib.tensor(1)),
    "index_put_0d_index_dtype": lambda lib: lib.zeros(1).index_put_((lib.tensor(0),),
                                                                    lib.tensor(-1)),
    "index_put_mask_fill_casts": lambda lib: lib.zeros(3).index_put(
        (lib.tensor([True, False, True]),), lib.tensor(1)),
    "index_put_accumulate_shape_first": lambda lib: lib.zeros(3).index_put(
        (lib.tensor([7, 2]),), lib.tensor([[1.0, 2.0, 3.0]]), accumulate=True),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(SETITEM_CASES))
def test_assignments_as_torch(name):
    assert_same(SETITEM_CASES[name], torch)


def test_a_lone_false_key_writes_nothing_and_a_true_one_broadcasts():
    x = tapegrad.zeros(2, 3)
    x[False] = tapegrad.ones(7)
    assert not x.any()
    x[True] = tapegrad.arange(3.0)
    assert x.tolist() == [[0.0, 1.0, 2.0]] * 2


def test_a_one_element_value_through_a_mask_is_cast():
    x = tapegrad.zeros(3)
    x[tapegrad.tensor([True, False, True])] = tapegrad.tensor([2])  # int64 into float32
    assert x.tolist() == [2.0, 0.0, 2.0]


def test_a_value_through_index_tensors_is_checked_before_the_indices():
    with pytest.raises(RuntimeError, match=r"^Index put requires the source and destination "
                                           r"dtypes match, got Float for the destination and "
                                           r"Long for the source\.$"):
        tapegrad.zeros(3, 4)[[7]] = tapegrad.zeros(4, dtype=tapegrad.int64)


def test_a_list_is_no_value():
    with pytest.raises(TypeError, match=r"^can't assign a list to a torch\.FloatTensor$"):
        tapegrad.zeros(3)[0] = [1.0]


@needs_torch
def test_gradients_through_a_mask_fill_as_torch():
    def call(lib, x, v):
        y = x * 1
        y[lib.tensor([True, False, True])] = v
        return y
    assert_same(lambda lib: _grads(lib, call, (3,), (1,)), torch)


# -- 0-d tensors in gather, scatter, index_copy, index_reduce -------------------------------------

ZERO_D_CASES = {
    "gather_0d_index_of_vector": lambda lib: lib.arange(3.0).gather(0, lib.tensor(2)),
    "gather_vector_index_of_0d": lambda lib: lib.tensor(5.0).gather(0, lib.tensor([0, 0])),
    "gather_vector_index_of_0d_bad": lambda lib: lib.tensor(5.0).gather(0, lib.tensor([0, 1])),
    "scatter_add_0d_index": lambda lib: lib.tensor([0, -1]).scatter_add(-1, lib.tensor(0),
                                                                        lib.tensor(2)),
    "scatter_0d_index": lambda lib: lib.tensor([0.0, -1.0]).scatter(0, lib.tensor(1), 5.0),
    "scatter_reduce_0d_index": lambda lib: lib.tensor([1.0, 3.0]).scatter_reduce(
        0, lib.tensor(1), lib.tensor(2.0), "prod"),
    "scatter_add_into_0d": lambda lib: lib.tensor(3.0).scatter_add(0, lib.tensor([0, 0]),
                                                                   lib.tensor([2.0, 5.0])),
    "scatter_reduce_into_0d": lambda lib: lib.tensor(3.0).scatter_reduce(
        0, lib.tensor([0, 0]), lib.tensor([2.0, 5.0]), "mean"),
    "scatter_empty_index_of_lower_rank": lambda lib: lib.ones(1, 3, 4).scatter_add(
        0, lib.tensor([], dtype=lib.int32), lib.tensor([])),
    "scatter_value_empty_index": lambda lib: lib.ones(1, 3).scatter(
        0, lib.tensor([], dtype=lib.int64), 2.0),
    "index_copy_0d": lambda lib: lib.zeros(()).index_copy(0, lib.tensor([0]), lib.tensor(5.0)),
    "index_copy_0d_from_vector": lambda lib: lib.zeros(()).index_copy(-1, lib.tensor(0),
                                                                      lib.ones(1)),
    "index_copy_0d_out_of_bounds": lambda lib: lib.zeros(()).index_copy(0, lib.tensor([1]),
                                                                        lib.tensor(5.0)),
    "index_copy_0d_source_many_indices": lambda lib: lib.zeros(2, 3).index_copy(
        1, lib.tensor([0, 1]), lib.tensor(5.0)),
    "index_reduce_0d": lambda lib: lib.full((), 3.0).index_reduce(-1, lib.tensor([0]),
                                                                  lib.tensor(2.0), "amin"),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(ZERO_D_CASES))
def test_0d_tensors_as_torch(name):
    assert_same(ZERO_D_CASES[name], torch)


def test_a_0d_index_scatters_one_element_of_a_vector():
    result = tapegrad.tensor([0, -1]).scatter_add(0, tapegrad.tensor(0), tapegrad.tensor(2))
    assert result.tolist() == [2, -1]


def test_index_copy_into_a_0d_tensor_in_place_returns_it():
    x = tapegrad.zeros(())
    assert x.index_copy_(0, tapegrad.tensor([0]), tapegrad.tensor(5.0)) is x
    assert x.item() == 5.0


ZERO_D_GRAD_CASES = {
    "scatter_add": (lambda lib, x, v: x.scatter_add(0, lib.tensor(1), v.sum()), (2,), (1,)),
    "scatter_reduce": (lambda lib, x, v: x.scatter_reduce(0, lib.tensor([0, 0]), v, "prod"),
                       (), (2,)),
    "index_copy": (lambda lib, x, v: x.index_copy(0, lib.tensor([1]), v.sum()), (3,), (1,)),
    "index_reduce": (lambda lib, x, v: x.index_reduce(0, lib.tensor([0]), v.sum(), "prod"),
                     (), (1,)),
    "gather": (lambda lib, x, v: (x.sum() * v).gather(0, lib.tensor([0, 0])), (2,), ()),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(ZERO_D_GRAD_CASES))
def test_0d_gradients_as_torch(name):
    call, *shapes = ZERO_D_GRAD_CASES[name]
    assert_same(lambda lib: _grads(lib, call, *shapes), torch)


# -- index_add, index_copy, index_fill, index_reduce: checks and messages -------------------------

INDEX_OP_CASES = {
    # index_add adds through scatter_add (its message) with alpha 1 along the first or last dim
    "index_add_first_dim": lambda lib: lib.zeros(2, 2).index_add(0, lib.tensor([2, 0]),
                                                                 lib.ones(2, 2)),
    "index_add_alpha": lambda lib: lib.zeros(2, 2).index_add(0, lib.tensor([2, 0]),
                                                             lib.ones(2, 2), alpha=0.5),
    "index_add_middle_dim": lambda lib: lib.zeros(2, 3, 2).index_add(1, lib.tensor([3]),
                                                                     lib.ones(2, 1, 2)),
    "index_add_empty_matrix": lambda lib: lib.zeros(4, 0).index_add(1, lib.tensor([0]),
                                                                    lib.ones(4, 1)),
    "index_add_int32_index": lambda lib: lib.zeros(3, 2).index_add(
        0, lib.tensor([4, 2], dtype=lib.int32), lib.ones(2, 2)),
    "index_put_0d_index_shape_first": lambda lib: lib.zeros(4).index_put(
        (lib.tensor(4),), lib.tensor([2.0]), accumulate=True),
    "index_put_0d_index_gradients": lambda lib: _grads(
        lib, lambda lib, x, v: x.index_put((lib.tensor(2),), v), (4, 2), (2,)),
    "index_put_integer_with_grad": lambda lib: lib.zeros(2, dtype=lib.int64).index_put(
        (lib.tensor([True, True]),), lib.tensor([-1.5], requires_grad=True)),
    "index_copy_rank": lambda lib: lib.zeros(2, 3, 4).index_copy(1, lib.tensor([0]),
                                                                 lib.zeros(5, 1)),
    "index_copy_slices": lambda lib: lib.zeros(2, 3, 4).index_copy(0, lib.tensor([0]),
                                                                   lib.zeros(1, 3, 5)),
    "index_copy_index_rank_first": lambda lib: lib.zeros(2, 3).index_copy(
        1, lib.tensor([[0]]), lib.zeros((2, 1), dtype=lib.int64)),
    "index_copy_dim_first": lambda lib: lib.zeros(2, 3).index_copy(
        5, lib.tensor([[0]]), lib.zeros((2, 1), dtype=lib.int64)),
    "index_reduce_without_self_fills_first": lambda lib: lib.zeros(3, 2).index_reduce(
        0, lib.tensor([0, 7]), lib.ones(2, 2), "prod", include_self=False),
    "index_reduce_without_self_int32": lambda lib: lib.zeros(3, 2).index_reduce(
        0, lib.tensor([0], dtype=lib.int32), lib.ones(1, 2), "amax", include_self=False),
    "index_reduce_without_self_int32_grad": lambda lib: _grads(
        lib, lambda lib, x, v: x.index_reduce(0, lib.tensor([0], dtype=lib.int32), v, "amax",
                                              include_self=False), (3, 2), (1, 2)),
    "index_fill_integer_with_grad": lambda lib: lib.zeros(3, dtype=lib.int64).index_fill(
        0, lib.tensor([1]), lib.tensor(1.5, requires_grad=True)),
    "masked_fill_integer_with_grad": lambda lib: lib.zeros(3, dtype=lib.bool).masked_fill(
        lib.tensor([True, False, True]), lib.tensor(1.5, requires_grad=True)),
    "index_fill_value_grad_negative_index": lambda lib: _grads(
        lib, lambda lib, x, v: x.index_fill(0, lib.tensor([-1]), v.sum()), (3,), (1,)),
    "masked_fill_broadcasts_first": lambda lib: lib.zeros(3).masked_fill(
        lib.ones(7, dtype=lib.uint8), 1.0),
    "masked_fill_value_rank_before_mask_dtype": lambda lib: lib.zeros(3).masked_fill(
        lib.ones(3, dtype=lib.uint8), lib.ones(2)),
    "take_along_dim_broadcast_message": lambda lib: lib.zeros(3, 4).take_along_dim(
        lib.zeros(4, 2, dtype=lib.int64), 1),
    "take_along_dim_broadcasts": lambda lib: lib.arange(12.0).reshape(3, 4).take_along_dim(
        lib.tensor([[1], [-1], [5]]), 1),
    "movedim_wraps_every_dim_first": lambda lib: lib.zeros(2, 3, 4, 5).movedim([-3, 1, -1],
                                                                               [1, 0, 4]),
    "index_fill_value_grad_of_0d_without_index": lambda lib: _grads(
        lib, lambda lib, x, v: x.sum().index_fill(0, lib.tensor([], dtype=lib.int64), v.sum()),
        (2,), (1,)),
    "index_fill_value_grad_repeated_index": lambda lib: _grads(
        lib, lambda lib, x, v: x.index_fill(1, lib.tensor([1, 1, 3]), v.sum()), (3, 4), (1,)),
    "narrow_length_first": lambda lib: lib.zeros(3, 4).narrow(5, 5, -1),
    "narrow_copy_start_first": lambda lib: lib.zeros(3, 4).narrow_copy(0, 5, -1),
    "narrow_tensor_start": lambda lib: lib.zeros(3, 4).narrow(0, lib.tensor([1]), 1),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(INDEX_OP_CASES))
def test_index_ops_as_torch(name):
    assert_same(INDEX_OP_CASES[name], torch)


def test_index_add_messages_follow_the_kernel():
    with pytest.raises(RuntimeError,
                       match="^index 2 is out of bounds for dimension 0 with size 2$"):
        tapegrad.zeros(2, 2).index_add(0, tapegrad.tensor([2]), tapegrad.ones(1, 2))
    with pytest.raises(IndexError, match="^index out of range in self$"):
        tapegrad.zeros(2, 2).index_add(0, tapegrad.tensor([2]), tapegrad.ones(1, 2), alpha=2)


def test_an_integer_fill_cannot_record_a_gradient():
    with pytest.raises(RuntimeError, match="^Autograd not support dtype: Long$"):
        tapegrad.zeros(3, dtype=tapegrad.int64).masked_fill(
            tapegrad.tensor([True, False, True]), tapegrad.tensor(1.5, requires_grad=True))


def test_index_copy_prints_slice_shapes_as_aten():
    with pytest.raises(RuntimeError, match=r"Destination slice shape: 3 4 at dimension 0 and "
                                           r"source slice shape: 3 5 at dimension 0\.$"):
        tapegrad.zeros(2, 3, 4).index_copy(0, tapegrad.tensor([0]), tapegrad.zeros(1, 3, 5))
