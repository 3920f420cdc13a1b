"""Differences found by differential fuzzing of tensor functions against PyTorch (fzz): the order
in which PyTorch checks arguments (``dim`` before dtypes and values), dims of 0-d tensors (only
-1 and 0), empty sequences and empty tensors, the layout of ``nonzero``, node names of
``squeeze(dims)``, and binary floating-point functions of integer tensors of mixed dtypes."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _index(lib, values, dtype="int64"):
    return lib.tensor(values, dtype=getattr(lib, dtype))


# -- empty sequences ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, reported", [("hstack", "hstack"), ("vstack", "vstack"),
                                            ("dstack", "dstack"), ("row_stack", "vstack"),
                                            ("column_stack", "column_stack")])
def test_stacking_nothing_is_refused_naming_the_function(name, reported):
    with pytest.raises(RuntimeError, match=f"^{reported} expects a non-empty TensorList$"):
        getattr(tapegrad, name)([])


@needs_torch
@pytest.mark.parametrize("name", ["hstack", "vstack", "dstack", "row_stack", "column_stack"])
def test_stacking_nothing_as_torch(name):
    assert_same(lambda lib: getattr(lib, name)(()), torch)


# -- dims of 0-d tensors: -1 and 0 only, checked before anything else -----------------------------

ZERO_D_DIM_CASES = {
    "sort": lambda lib, x: x.sort(dim=1),
    "argsort": lambda lib, x: x.argsort(dim=-2),
    "topk": lambda lib, x: x.topk(1, dim=1),
    "kthvalue": lambda lib, x: x.kthvalue(1, dim=1),
    "mode": lambda lib, x: x.mode(1),
    "median": lambda lib, x: x.median(1),
    "nanmedian": lambda lib, x: x.nanmedian(-2),
    "transpose": lambda lib, x: x.transpose(1, 0),
    "swapaxes": lambda lib, x: x.swapaxes(-2, 1),
    "unflatten": lambda lib, x: x.unflatten(-2, (1,)),
    "logcumsumexp_int": lambda lib, x: x.long().logcumsumexp(1),
    "scatter": lambda lib, x: x.scatter(2, _index(lib, 0), 1.0),
}


@pytest.mark.parametrize("name", sorted(ZERO_D_DIM_CASES))
def test_a_0d_tensor_has_dims_minus_one_and_zero_only(name):
    with pytest.raises(IndexError, match=r"^Dimension out of range \(expected to be in range of "
                                         r"\[-1, 0\], but got -?[12]\)$"):
        ZERO_D_DIM_CASES[name](tapegrad, tapegrad.tensor(3.0))


@needs_torch
@pytest.mark.parametrize("name", sorted(ZERO_D_DIM_CASES))
def test_a_0d_tensor_dims_as_torch(name):
    assert_same(lambda lib: ZERO_D_DIM_CASES[name](lib, lib.tensor(3.0)), torch)


DIM_FIRST_CASES = {  # PyTorch checks dim before the dtype that would also be refused
    "logcumsumexp": lambda lib: lib.tensor([1, 2]).logcumsumexp(1),
    "kthvalue_bool": lambda lib: lib.tensor([True]).kthvalue(1, dim=2),
    "kthvalue_k_before_bool": lambda lib: lib.tensor([[True], [False]]).kthvalue(5, dim=1),
    "topk_bool": lambda lib: lib.tensor([True]).topk(1, dim=2),
    "topk_k_before_bool": lambda lib: lib.zeros(0, dtype=lib.bool).topk(5),
    "median_bool": lambda lib: lib.tensor([True]).median(dim=2),
    "median_empty_bool": lambda lib: lib.zeros(2, 0, dtype=lib.bool).median(-1),
    "gather_float_index": lambda lib: lib.zeros(3, 1).gather(-3, lib.zeros(2, 1)),
    "index_select_float_index": lambda lib: lib.zeros(3).index_select(5, lib.zeros(1, 2)),
    "index_select_matrix_index": lambda lib: lib.zeros(3).index_select(0, lib.zeros(1, 2)),
    "cumsum_bool": lambda lib: lib.ones(3, 1).cumsum(2, dtype=lib.bool),
    "index_fill_int32_index": lambda lib: lib.tensor(3).index_fill(5, _index(lib, [0], "int32"),
                                                                   7),
    "scatter_reduce_bad_reduce": lambda lib: lib.zeros(3).scatter_reduce(
        0, _index(lib, [0], "int32"), lib.zeros(1, dtype=lib.float64), "bad"),
    "scatter_bad_reduce": lambda lib: lib.zeros(3).scatter(
        0, _index(lib, [0]), lib.zeros(1, dtype=lib.float64), reduce="bad"),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(DIM_FIRST_CASES))
def test_arguments_are_checked_in_torchs_order(name):
    assert_same(DIM_FIRST_CASES[name], torch)


def test_kthvalue_of_a_0d_bool_tensor_is_its_value():
    values, indices = tapegrad.tensor(True).kthvalue(1)
    assert values.item() is True and indices.item() == 0


def test_mode_refuses_a_tuple_dim():
    with pytest.raises(TypeError, match=r"^mode\(\): argument 'dim' \(position 2\) must be int, "
                                        r"not tuple$"):
        tapegrad.mode(tapegrad.ones(3), (0,))


# -- 0-d and empty tensors ------------------------------------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda x: x.split(1), "split expects at least a 1-dimensional tensor"),
    (lambda x: x.split([1], dim=5), "split expects at least a 1-dimensional tensor"),
    (lambda x: x.chunk(2), "chunk expects at least a 1-dimensional tensor"),
    (lambda x: x.narrow(0, 0, 1), r"narrow\(\) cannot be applied to a 0-dim tensor."),
])
def test_splitting_a_0d_tensor_is_refused(call, message):
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        call(tapegrad.tensor(3.0))


def test_split_with_sizes_names_the_dim_as_given():
    with pytest.raises(RuntimeError, match=r"size at dimension -1\), but got split_sizes=\[1, 1\]"):
        tapegrad.zeros(2, 3).split([1, 1], dim=-1)


@pytest.mark.parametrize("shape, chunks, dim", [((0,), 2, 0), ((2, 0), 3, -1)])
def test_chunks_of_an_empty_dim_are_that_many_empty_pieces(shape, chunks, dim):
    pieces = tapegrad.zeros(shape).chunk(chunks, dim)
    assert [tuple(p.shape) for p in pieces] == [shape] * chunks


def test_unflatten_checks_its_dim():
    with pytest.raises(IndexError, match=r"range of \[-2, 1\], but got -3\)$"):
        tapegrad.zeros(2, 3).unflatten(-3, (1, -1))
    assert tuple(tapegrad.zeros(2, 3).unflatten(-2, (2, 1)).shape) == (2, 1, 3)


@pytest.mark.parametrize("call, expected", [
    (lambda lib, x: x.scatter(0, _index(lib, 0), lib.tensor(1.0)), 1.0),
    (lambda lib, x: x.scatter(0, _index(lib, 0), 5.0), 5.0),
    (lambda lib, x: x.scatter_add(0, _index(lib, 0), lib.tensor(1.0)), 4.0),
    (lambda lib, x: x.scatter_reduce(0, _index(lib, 0), lib.tensor(2.0), "sum"), 5.0),
    (lambda lib, x: x.index_fill(0, _index(lib, [0, 0]), 7), 7.0),
    (lambda lib, x: x.gather(0, _index(lib, 0)), 3.0),
])
def test_indexing_functions_take_0d_tensors(call, expected):
    assert call(tapegrad, tapegrad.tensor(3.0)).item() == expected


@needs_torch
@pytest.mark.parametrize("index", [0, 1, -1])
def test_gather_and_index_fill_of_0d_tensors_as_torch(index):
    assert_same(lambda lib: lib.tensor(3.0).gather(0, _index(lib, index)), torch)
    assert_same(lambda lib: lib.tensor(3).index_fill(0, _index(lib, [0, index]), 7), torch)


def test_gather_from_a_0d_tensor_is_differentiable():
    x = tapegrad.tensor(2.0, dtype=tapegrad.float64, requires_grad=True)
    y = x.gather(0, tapegrad.tensor(0))
    assert type(y.grad_fn).__name__ == "GatherBackward0"
    assert tapegrad.autograd.gradcheck(lambda t: t.gather(0, tapegrad.tensor(0)) * 3, (x,))


def test_an_empty_index_gathers_nothing_whatever_its_dtype_and_rank():
    x = tapegrad.zeros(3, 2, requires_grad=True)
    y = x.gather(0, tapegrad.zeros(5, 0, 1))
    assert tuple(y.shape) == (5, 0, 1) and type(y.grad_fn).__name__ == "GatherBackward0"
    assert tuple(tapegrad.zeros(3).scatter_add(0, tapegrad.zeros(0), tapegrad.zeros(0)).shape) \
        == (3,)


@pytest.mark.parametrize("name, position", [("scatter_add", 4), ("scatter_reduce", 4)])
def test_scatter_sources_must_be_tensors(name, position):
    extra = ("sum",) if name == "scatter_reduce" else ()
    with pytest.raises(TypeError, match=f"^{name}\\(\\): argument 'src' \\(position {position}\\) "
                                        "must be Tensor, not int$"):
        getattr(tapegrad, name)(tapegrad.zeros(3), 0, tapegrad.tensor([0]), 3, *extra)


def test_take_and_put_refuse_an_empty_tensor_only_when_indexed():
    empty, index = tapegrad.zeros(0), tapegrad.tensor([0])
    with pytest.raises(IndexError, match=r"^take\(\): tried to take from an empty tensor$"):
        empty.take(index)
    with pytest.raises(IndexError, match=r"^put_\(\): Tried to put elements into an empty tensor$"):
        empty.put(index, tapegrad.tensor([1.0]))
    assert tuple(empty.take(tapegrad.zeros(0, dtype=tapegrad.int64)).shape) == (0,)


@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_factories_need_a_size(name):
    with pytest.raises(TypeError, match=f'^{name}\\(\\) missing 1 required positional arguments: '
                                        '"size"$'):
        getattr(tapegrad, name)(dtype=tapegrad.float32)
    assert getattr(tapegrad, name)(()).shape == ()


@pytest.mark.parametrize("name", ["linspace", "logspace"])
def test_bool_ramps_of_more_than_one_step_are_refused(name):
    with pytest.raises(NotImplementedError, match=f"^\"{name}_cpu\" not implemented for 'Bool'$"):
        getattr(tapegrad, name)(-1, 3, 5, dtype=tapegrad.bool)


@needs_torch
@pytest.mark.parametrize("name", ["linspace", "logspace"])
@pytest.mark.parametrize("steps", [0, 1, 2])
def test_bool_ramps_as_torch(name, steps):
    assert_same(lambda lib: getattr(lib, name)(-1, 1, steps, dtype=lib.bool), torch)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("shape", [(), (0,), (2, 0)])
def test_running_reductions_into_bool_of_nothing_to_accumulate(name, shape):
    result = getattr(tapegrad.ones(shape), name)(0, dtype=tapegrad.bool)
    assert result.dtype == tapegrad.bool and tuple(result.shape) == shape


# -- layout and node names ------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(2, 2), (3,), (2, 3, 4)])
def test_nonzero_is_laid_out_column_by_column(shape):
    rows = tapegrad.nonzero(tapegrad.ones(shape))
    count = int(np.prod(shape))
    assert rows.stride() == (1, count)
    assert rows.is_contiguous() == (len(shape) == 1)


@needs_torch
def test_nonzero_layout_as_torch():
    assert_same(lambda lib: lib.nonzero(lib.ones(2, 2)).view(-1), torch)
    ours = tapegrad.argwhere(tapegrad.ones(2, 3)).stride()
    assert ours == torch.argwhere(torch.ones(2, 3)).stride()


@pytest.mark.parametrize("dim, node", [(None, "SqueezeBackward0"), (1, "SqueezeBackward1"),
                                       ((1, 2), "SqueezeBackward2"), ([0], "SqueezeBackward2")])
def test_squeeze_nodes_follow_the_overload(dim, node):
    x = tapegrad.zeros(2, 1, 1, requires_grad=True)
    y = x.squeeze() if dim is None else x.squeeze(dim)
    assert type(y.grad_fn).__name__ == node


# -- binary floating-point functions of integer tensors -------------------------------------------

FLOATING_BINARY = {
    "atan2": lambda lib, a, b: lib.atan2(a, b),
    "xlogy": lambda lib, a, b: lib.xlogy(a, b),
    "xlog1py": lambda lib, a, b: lib.special.xlog1py(a, b),
    "copysign": lambda lib, a, b: lib.copysign(b, a),
    "ldexp": lambda lib, a, b: lib.ldexp(b, a),
}


@pytest.mark.parametrize("name", sorted(FLOATING_BINARY))
def test_integer_operands_go_straight_to_floating_point(name):
    """A 0-d int64 -3 beside a uint8 tensor: -3, never the uint8 253."""
    a = tapegrad.tensor(-3)
    b = tapegrad.tensor([1, 2, 3], dtype=tapegrad.uint8)
    expected = {"atan2": np.arctan2(-3.0, [1.0, 2.0, 3.0]),
                "xlogy": -3.0 * np.log([1.0, 2.0, 3.0]),
                "xlog1py": -3.0 * np.log1p([1.0, 2.0, 3.0]),
                "copysign": [-1.0, -2.0, -3.0],
                "ldexp": np.array([1.0, 2.0, 3.0]) / 8}[name]
    result = FLOATING_BINARY[name](tapegrad, a, b)
    assert result.dtype == tapegrad.float32
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-6)


@needs_torch
@pytest.mark.parametrize("name", sorted(FLOATING_BINARY))
def test_integer_operands_as_torch(name):
    def case(lib):
        a, b = lib.tensor(-3), lib.tensor([1, 2, 3], dtype=lib.uint8)
        return FLOATING_BINARY[name](lib, a, b), FLOATING_BINARY[name](lib, b, a)
    assert_same(case, torch)


# -- more dims and keys of 0-d tensors ------------------------------------------------------------

ZERO_D_MORE_CASES = {
    "getitem_slice": lambda lib, x: x[::2],
    "getitem_full_slice": lambda lib, x: x[:],
    "getitem_minus_one": lambda lib, x: x[-1],
    "getitem_five": lambda lib, x: x[5],
    "diagonal": lambda lib, x: x.diagonal(0, -1, -2),
    "diagonal_same_dim": lambda lib, x: x.diagonal(0, 0, -1),
    "unbind": lambda lib, x: x.unbind(-1),
    "unique_consecutive": lambda lib, x: x.unique_consecutive(dim=3),
    "take_along_dim": lambda lib, x: lib.take_along_dim(x, _index(lib, 0), -1),
    "chunk_before_chunks": lambda lib, x: x.chunk(0),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(ZERO_D_MORE_CASES))
def test_more_0d_cases_as_torch(name):
    assert_same(lambda lib: ZERO_D_MORE_CASES[name](lib, lib.tensor(3.0)), torch)


def test_a_0d_tensor_has_no_dimension_to_unbind():
    with pytest.raises(IndexError, match="^Dimension specified as 0 but tensor has no "
                                         "dimensions$"):
        tapegrad.tensor(3.0).unbind(-1)
    with pytest.raises(IndexError, match=r"^slice\(\) cannot be applied to a 0-dim tensor.$"):
        tapegrad.tensor(3.0)[1:]


@pytest.mark.parametrize("name", ["new_zeros", "new_ones", "new_empty"])
def test_new_factories_report_their_own_names(name):
    x = tapegrad.ones(2, dtype=tapegrad.int32)
    with pytest.raises(TypeError, match=f'^{name}\\(\\) missing 1 required positional arguments: '
                                        '"size"$'):
        getattr(x, name)()
    with pytest.raises(RuntimeError, match=r"^Trying to create tensor with negative dimension -1: "
                                           r"\[2, -1\]$"):
        getattr(x, name)((2, -1))
    made = getattr(x, name)(2, 3)
    assert made.dtype == tapegrad.int32 and tuple(made.shape) == (2, 3)


@needs_torch
@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor"])
def test_bitwise_functions_check_shapes_before_dtypes(name):
    assert_same(lambda lib: getattr(lib, name)(lib.zeros(3), lib.zeros(2, 1, 4)), torch)
    assert_same(lambda lib: getattr(lib, name)(lib.zeros(3), lib.zeros(3)), torch)


def test_where_of_a_condition_gives_contiguous_index_vectors():
    rows, cols, depth = tapegrad.where(tapegrad.ones(1, 3, 1) > 0)
    assert rows.stride() == cols.stride() == depth.stride() == (1,)
    assert cols.tolist() == [0, 1, 2]
