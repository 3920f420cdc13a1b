"""Differences found by the integer / quantization / sparse-routing programs (qnt_*): the graph
node of ``sort(stable=...)`` (PyTorch's ``sort.stable`` overload records SortBackward1, also for a
0-d input), and in-place running sums/products (``cumsum_`` / ``cumprod_``) with ``dtype``, with
a missing ``dim``, on unsigned and bool tensors, and on 0-d tensors that require grad."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


# -- sort: the stable overload's node -----------------------------------------------------------

@pytest.mark.parametrize("kwargs, node", [
    ({}, "SortBackward0"), ({"descending": True}, "SortBackward0"),
    ({"stable": True}, "SortBackward1"), ({"stable": False}, "SortBackward1"),
    ({"stable": None, "dim": 0}, "SortBackward1")])
@pytest.mark.parametrize("shape", [(), (5,), (2, 3)])
def test_sort_records_the_overload_it_was_called_with(kwargs, node, shape):
    x = tapegrad.arange(float(np.prod(shape))).reshape(shape).requires_grad_()
    assert tapegrad.sort(x, **kwargs).values.grad_fn.name() == node
    assert x.sort(**kwargs).values.grad_fn.name() == node


def test_sort_of_a_0d_tensor_is_itself_at_index_0_and_passes_the_gradient():
    x = tapegrad.tensor(2.5, requires_grad=True)
    values, indices = tapegrad.sort(x, stable=True)
    assert values.item() == 2.5 and indices.item() == 0 and indices.dtype == tapegrad.int64
    values.backward()
    assert x.grad.item() == 1.0


def test_stable_sort_keeps_ties_in_order_and_scatters_gradients_back():
    x = tapegrad.tensor([1.0, 0.0, 1.0, 0.0, 1.0], requires_grad=True)
    values, indices = x.sort(descending=True, stable=True)
    assert indices.tolist() == [0, 2, 4, 1, 3]
    (values * tapegrad.arange(5.0)).sum().backward()
    assert x.grad.tolist() == [0.0, 3.0, 1.0, 4.0, 2.0]


@needs_torch
@pytest.mark.parametrize("stable", [True, False, None])
def test_sort_node_same_as_torch(stable):
    def case(lib):
        x = lib.tensor([[3.0, 1.0, 3.0], [0.0, 2.0, 0.0]], requires_grad=True)
        out = lib.sort(x, dim=1, descending=True, stable=stable)
        return out.values, out.indices, out.values.grad_fn.name()
    assert_same(case, torch)


# -- cumsum_ / cumprod_ -------------------------------------------------------------------------

def test_inplace_cumsum_wraps_in_its_own_unsigned_dtype():
    u = tapegrad.tensor([[200, 100], [100, 100]], dtype=tapegrad.uint8)
    assert u.cumsum_(1) is u
    assert u.tolist() == [[200, 44], [100, 200]] and u.dtype == tapegrad.uint8


def test_inplace_cumprod_wraps_in_int32():
    x = tapegrad.tensor([2 ** 20, 2 ** 20, 3], dtype=tapegrad.int32).cumprod_(0)
    assert x.tolist() == [2 ** 20, 0, 0] and x.dtype == tapegrad.int32


def test_inplace_cumsum_accepts_its_own_dtype_and_refuses_another():
    x = tapegrad.tensor([1.0, 2.0, 3.0])
    assert x.cumsum_(0, dtype=tapegrad.float32).tolist() == [1.0, 3.0, 6.0]
    with pytest.raises(RuntimeError, match="input tensor dtype float and output tensor dtype "
                                           "double should match"):
        x.cumsum_(0, dtype=tapegrad.float64)
    with pytest.raises(RuntimeError, match="signed char and output tensor dtype long int"):
        tapegrad.tensor([1], dtype=tapegrad.int8).cumprod_(0, dtype=tapegrad.int64)


def test_inplace_running_reductions_refuse_bool_and_a_missing_dim():
    with pytest.raises(NotImplementedError, match="\"cumsum_out_cpu\" not implemented for 'Bool'"):
        tapegrad.tensor([True, True]).cumsum_(0)
    with pytest.raises(TypeError, match='cumprod_\\(\\) missing 1 required positional arguments: '
                                        '"dim"'):
        tapegrad.tensor([1, 2]).cumprod_()


def test_inplace_cumsum_of_a_0d_tensor_is_recorded_as_cumsum():
    x = tapegrad.tensor(3.0, requires_grad=True)
    y = x.clone().cumsum_(0)
    assert y.grad_fn.name() == "CumsumBackward0"
    y.backward()
    assert x.grad.item() == 1.0


def test_inplace_cumprod_gradient_matches_finite_differences():
    base = np.array([[0.7, -1.3, 2.1], [1.5, 0.4, -0.9]])
    x = tapegrad.tensor(base, dtype=tapegrad.float64, requires_grad=True)
    weights = np.array([[1.0, 2.0, -1.0], [0.5, -2.0, 3.0]])
    (x.clone().cumprod_(1) * tapegrad.tensor(weights)).sum().backward()
    eps, numeric = 1e-6, np.zeros_like(base)
    for index in np.ndindex(base.shape):
        shifted = [base.copy(), base.copy()]
        shifted[0][index] += eps
        shifted[1][index] -= eps
        up, down = ((np.cumprod(s, axis=1) * weights).sum() for s in shifted)
        numeric[index] = (up - down) / (2 * eps)
    np.testing.assert_allclose(x.grad.numpy(), numeric, rtol=1e-6, atol=1e-8)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.tensor([200, 100, 7], dtype=lib.uint8).cumsum_(0),
    lambda lib: lib.tensor([100, 100], dtype=lib.int8).cumsum_(0, dtype=lib.int8),
    lambda lib: lib.tensor([100, 100], dtype=lib.int8).cumsum_(0, dtype=lib.int64),
    lambda lib: lib.tensor([1.0, 2.0], dtype=lib.float16).cumsum_(0, dtype=lib.float32),
    lambda lib: lib.tensor([True]).cumsum_(0, dtype=lib.int64),
    lambda lib: lib.tensor([True]).cumprod_(0),
    lambda lib: lib.tensor([[1, 2], [3, 4]]).cumprod_(dim=-2, dtype=lib.int64),
    lambda lib: lib.tensor(3.0).cumsum_(-1, dtype=lib.float32),
    lambda lib: lib.tensor(3.0).cumsum_(1),
    lambda lib: lib.tensor([3, 4]).cumsum_(),
])
def test_inplace_running_reductions_same_as_torch(case):
    assert_same(case, torch)


# -- bitwise: out=, and shifts of bools ---------------------------------------------------------

def test_bitwise_functions_write_into_out():
    packed = tapegrad.tensor([0x12, 0xF0, 0x0F], dtype=tapegrad.uint8)
    out = tapegrad.empty(3, dtype=tapegrad.uint8)
    assert tapegrad.bitwise_and(packed, 0x0F, out=out) is out and out.tolist() == [2, 0, 15]
    wide = tapegrad.empty(3, dtype=tapegrad.int64)  # a wider integer out takes the result
    tapegrad.bitwise_left_shift(packed, 4, out=wide)
    assert wide.tolist() == [0x20, 0, 0xF0] and wide.dtype == tapegrad.int64
    tapegrad.bitwise_right_shift(packed, 4, out=out)
    assert out.tolist() == [1, 15, 0]
    for function in (tapegrad.bitwise_or, tapegrad.bitwise_xor):
        assert function(packed, 1, out=out).tolist() == function(packed, 1).tolist()


def test_bitwise_out_refuses_what_the_result_cannot_become():
    packed = tapegrad.tensor([1, 2], dtype=tapegrad.uint8)
    with pytest.raises(RuntimeError, match="result type Byte can't be cast to the desired "
                                           "output type Bool"):
        tapegrad.bitwise_or(packed, 1, out=tapegrad.empty(2, dtype=tapegrad.bool))
    with pytest.raises(RuntimeError, match="Found dtype Char but expected Byte"):
        tapegrad.bitwise_not(packed, out=tapegrad.empty(2, dtype=tapegrad.int8))


def test_shifting_a_bool_by_a_bool_is_refused_but_by_a_number_shifts_in_int64():
    flags = tapegrad.tensor([True, False])
    with pytest.raises(NotImplementedError, match="\"lshift_cpu\" not implemented for 'Bool'"):
        flags << tapegrad.tensor([True, True])
    with pytest.raises(NotImplementedError, match="\"rshift_cpu\" not implemented for 'Bool'"):
        flags.bitwise_right_shift_(True)
    shifted = flags << 3
    assert shifted.tolist() == [8, 0] and shifted.dtype == tapegrad.int64


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.bitwise_and(lib.tensor([3, 1, 2], dtype=lib.uint8), 1,
                                out=lib.empty(3, dtype=lib.int64)),
    lambda lib: lib.bitwise_xor(lib.tensor([3, 1, 2]), 1, out=lib.empty(3)),
    lambda lib: lib.bitwise_not(lib.tensor([3, 1], dtype=lib.uint8),
                                out=lib.empty(2, dtype=lib.uint8)),
    lambda lib: lib.bitwise_not(lib.tensor([True]), out=lib.empty(1, dtype=lib.uint8)),
    lambda lib: lib.bitwise_left_shift(lib.tensor([3], dtype=lib.uint8), 1,
                                       out=lib.empty(1, dtype=lib.bool)),
    lambda lib: lib.tensor([True]) >> lib.tensor([True]),
    lambda lib: lib.tensor([True, False]) << 1,
    lambda lib: True << lib.tensor([True]),
])
def test_bitwise_same_as_torch(case):
    assert_same(case, torch)


# -- scatter_reduce / index_reduce on bool ------------------------------------------------------

def test_scatter_amax_amin_without_self_start_from_the_bool_identities():
    flags = tapegrad.tensor([True, False, True, False])
    index = tapegrad.tensor([0, 0, 2, 2])
    ones = tapegrad.ones(3, dtype=tapegrad.bool)
    assert ones.scatter_reduce(0, index, flags, "amax", include_self=False).tolist() == \
        [True, True, True]
    assert ones.scatter_reduce(0, index, flags, "amin", include_self=False).tolist() == \
        [False, True, False]
    zeros = tapegrad.zeros(3, dtype=tapegrad.bool)
    assert zeros.scatter_reduce_(0, index, flags, "amin", include_self=False).tolist() == \
        [False, False, False]


def test_scatter_mean_of_bools_is_refused_before_the_index_is_checked():
    flags = tapegrad.zeros(3, dtype=tapegrad.bool)
    for index in (tapegrad.tensor([1]), tapegrad.tensor([5])):
        with pytest.raises(NotImplementedError, match="\"scatter_gather_tensor_cpu_reduce_mean\" "
                                                      "not implemented for 'Bool'"):
            flags.scatter_reduce(0, index, tapegrad.tensor([True]), "mean")
    with pytest.raises(RuntimeError, match="index 5 is out of bounds"):  # without self: after
        flags.scatter_reduce(0, tapegrad.tensor([5]), tapegrad.tensor([True]), "mean",
                             include_self=False)


@pytest.mark.filterwarnings("ignore:index_reduce")
@pytest.mark.parametrize("include_self, kernel", [
    (True, "index_func_"), (False, "index_reduce_func_exclude_input_init")])
@pytest.mark.parametrize("dtype", ["bool", "complex64"])
def test_index_reduce_refuses_bool_and_complex_in_the_kernel_that_runs_first(
        include_self, kernel, dtype):
    input = tapegrad.zeros(3, dtype=getattr(tapegrad, dtype))
    with pytest.raises(NotImplementedError, match=f'"{kernel}" not implemented'):
        input.index_reduce(0, tapegrad.tensor([1]), tapegrad.ones(1, dtype=input.dtype), "amax",
                           include_self=include_self)


@needs_torch
@pytest.mark.filterwarnings("ignore:index_reduce")
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_bool_scatter_reduce_same_as_torch(reduce, include_self):
    def case(lib):
        index = lib.tensor([0, 2, 0, 1, 2, 0, 4])
        flags = lib.tensor([-7, 3, 5, -2, 8, 1, 9]) > 0
        out = lib.tensor([True, False, True, False, True, False])
        return out.scatter_reduce(0, index, flags, reduce, include_self=include_self)
    assert_same(case, torch)


# -- a Python number written into an integer tensor: PyTorch's range check ----------------------

@pytest.mark.parametrize("write", [
    lambda t, v: t.scatter(0, tapegrad.tensor([1]), v),
    lambda t, v: t.scatter_(0, tapegrad.tensor([1]), v, reduce="add"),
    lambda t, v: t.index_fill(0, tapegrad.tensor([1]), v),
    lambda t, v: t.__setitem__(1, v) or t,
    lambda t, v: t.__setitem__(tapegrad.tensor([False, True, False]), v) or t,
])
def test_numbers_written_into_uint8_wrap_from_minus_max_and_refuse_past_max(write):
    assert write(tapegrad.zeros(3, dtype=tapegrad.uint8), -3).tolist() == [0, 253, 0]
    with pytest.raises(RuntimeError, match="value cannot be converted to type uint8_t without "
                                           "overflow"):
        write(tapegrad.zeros(3, dtype=tapegrad.uint8), 256)
    with pytest.raises(RuntimeError, match="type int8_t without overflow"):
        write(tapegrad.zeros(3, dtype=tapegrad.int8), float("nan"))


def test_setitem_of_a_float_number_into_int8_truncates_within_range_only():
    t = tapegrad.zeros(3, dtype=tapegrad.int8)
    t[0] = -128
    t[1] = 126.9
    assert t.tolist() == [-128, 126, 0]
    with pytest.raises(RuntimeError, match="int8_t without overflow"):
        t[2] = 127.5


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.zeros(3, dtype=lib.uint8).scatter(0, lib.tensor([0]), 300),
    lambda lib: lib.zeros(3, dtype=lib.uint8).scatter(0, lib.tensor([0]), -255),
    lambda lib: lib.zeros(3, dtype=lib.int8).scatter(0, lib.tensor([0]), 2.5),
    lambda lib: lib.zeros(3, dtype=lib.bool).scatter(0, lib.tensor([0]), 2),
    lambda lib: lib.zeros(3, dtype=lib.int32).index_fill(0, lib.tensor([0]), 2 ** 40),
    lambda lib: lib.zeros(3, dtype=lib.float16).index_fill(0, lib.tensor([0]), 1e6),
    lambda lib: lib.zeros(3).scatter(0, lib.tensor([0]), 1j),
])
def test_scattered_numbers_same_as_torch(case):
    assert_same(case, torch)


# -- index dtypes -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["int8", "int16", "uint16", "uint32"])
def test_indexing_with_a_narrow_integer_tensor_is_refused(dtype):
    table = tapegrad.arange(12.0).view(4, 3)
    index = tapegrad.tensor([1, 2], dtype=getattr(tapegrad, dtype))
    message = "tensors used as indices must be long, int, byte or bool tensors"
    for use in (lambda: table[index], lambda: table[index, 0],
                lambda: table.__setitem__(index, 0.0),
                lambda: table.index_put((index,), tapegrad.tensor(1.0), accumulate=True)):
        with pytest.raises(IndexError, match=message):
            use()
    assert table[index[0]].tolist() == [3.0, 4.0, 5.0]  # a 0-d one is a number


@pytest.mark.parametrize("dtype", ["int8", "int16", "uint8"])
def test_gather_takes_int32_and_int64_indices_only(dtype):
    table = tapegrad.arange(6.0).view(2, 3)
    assert tapegrad.gather(table, 1, tapegrad.tensor([[2], [0]], dtype=tapegrad.int32)).tolist() \
        == [[2.0], [3.0]]
    with pytest.raises(RuntimeError, match="gather\\(\\): Expected dtype int32/int64 for index"):
        tapegrad.gather(table, 1, tapegrad.tensor([[2], [0]], dtype=getattr(tapegrad, dtype)))


def test_repeat_interleave_of_int32_counts_gives_int32_positions():
    counts = tapegrad.tensor([1, 0, 2], dtype=tapegrad.int32)
    positions = tapegrad.repeat_interleave(counts)
    assert positions.tolist() == [0, 2, 2] and positions.dtype == tapegrad.int32
    values = tapegrad.tensor([5, 6, 7]).repeat_interleave(counts)
    assert values.tolist() == [5, 7, 7] and values.dtype == tapegrad.int64


# -- hash_tensor --------------------------------------------------------------------------------

def _xor_of_patterns(values, kind):
    """The reference: Python's xor over each number's 64-bit pattern."""
    out = 0
    for v in values:
        out ^= np.array(v, np.float64 if kind == "f" else np.int64).view(np.uint64).item()
    return out


def test_hash_tensor_xors_the_64_bit_patterns():
    floats = [-1.5, 0.25, 3.0, -0.0]
    assert tapegrad.hash_tensor(tapegrad.tensor(floats)).item() == _xor_of_patterns(floats, "f")
    ints = [-2, 1, 7]
    h = tapegrad.tensor(ints, dtype=tapegrad.int8).hash_tensor()
    assert h.item() == _xor_of_patterns(ints, "i") and h.dtype == tapegrad.uint64
    assert tapegrad.hash_tensor(tapegrad.tensor([True, True, True])).item() == 1


def test_hash_tensor_over_dims_and_its_refusals():
    x = tapegrad.arange(24.0).view(2, 3, 4) - 5
    rows = tapegrad.hash_tensor(x, (0, 2), keepdim=True)
    assert rows.shape == (1, 3, 1)
    expected = [_xor_of_patterns(x[:, j].flatten().tolist(), "f") for j in range(3)]
    assert rows.flatten().tolist() == expected
    assert tapegrad.hash_tensor(x, dim=()).item() == tapegrad.hash_tensor(x).item()
    with pytest.raises(RuntimeError, match="Unknown hash_tensor mode: 1"):
        tapegrad.hash_tensor(x, mode=1)
    with pytest.raises(IndexError, match="hash_tensor: Expected reduction dim 0 to have non-zero"):
        tapegrad.hash_tensor(tapegrad.zeros(0, 3), 0)
    with pytest.raises(NotImplementedError, match="\"xor_sum_cpu\" not implemented for "
                                                  "'ComplexFloat'"):
        tapegrad.hash_tensor(tapegrad.tensor([1j]))


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.hash_tensor(lib.arange(24.0).view(2, 3, 4) - 5, 1),
    lambda lib: lib.hash_tensor(lib.tensor([-1.5, 3], dtype=lib.float16)),
    lambda lib: lib.hash_tensor(lib.tensor([[-1, 3], [4, 255]], dtype=lib.uint8), -1, keepdim=True),
    lambda lib: lib.hash_tensor(lib.tensor([float("nan"), -0.0])),
    lambda lib: lib.hash_tensor(lib.tensor(2.5), 0),
    lambda lib: lib.hash_tensor(lib.tensor([])),
    lambda lib: lib.hash_tensor(lib.tensor([5], dtype=lib.uint64)),
    lambda lib: lib.hash_tensor(lib.arange(6.0), out=lib.empty((), dtype=lib.uint64)),
])
def test_hash_tensor_same_as_torch(case):
    assert_same(case, torch)


# -- graph edges: an index is no input of the node ----------------------------------------------

def _edges(tensor):
    return [None if node is None else node.name() for node, _ in tensor.grad_fn.next_functions]


LEAF = "torch::autograd::AccumulateGrad"


@pytest.mark.parametrize("make", [
    lambda a, s, i: a.index_add(0, i, s),
    lambda a, s, i: a.scatter_add(0, i, s),
    lambda a, s, i: a.scatter(0, i[:3], s),
    lambda a, s, i: a.index_put((i,), s, accumulate=True),
    lambda a, s, i: a.index_put((i,), s),
    lambda a, s, i: tapegrad.index_put(a, (i,), s, accumulate=True),
])
def test_nodes_of_index_writes_have_edges_to_the_input_and_source_only(make):
    a = tapegrad.zeros(3, requires_grad=True)
    s = tapegrad.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = make(a, s, tapegrad.tensor([0, 1, 0, 2]))
    assert _edges(y) == [LEAF, LEAF]


@pytest.mark.parametrize("make", [
    lambda s: s.sort(stable=True).values, lambda s: s.topk(2).values,
    lambda s: s.cummax(0).values, lambda s: s.scatter(0, tapegrad.tensor([1]), 0.5),
    lambda s: s.repeat_interleave(tapegrad.tensor([1, 2, 0, 1])),
])
def test_nodes_reading_through_indices_have_one_edge(make):
    s = tapegrad.tensor([3.0, 1.0, 2.0, 1.0], requires_grad=True)
    assert _edges(make(s)) == [LEAF]


def test_out_of_place_index_put_gradients():
    a = tapegrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    s = tapegrad.tensor([10.0, 20.0, 30.0], requires_grad=True)
    index = tapegrad.tensor([0, 2, 0])
    weights = tapegrad.tensor([1.0, 2.0, 3.0])
    (a.index_put((index,), s, accumulate=True) * weights).sum().backward()
    assert a.grad.tolist() == [1.0, 2.0, 3.0] and s.grad.tolist() == [1.0, 3.0, 1.0]
    a.grad = s.grad = None
    out = a.index_put((index[:2],), s[:2])
    assert out.tolist() == [10.0, 2.0, 20.0]
    (out * weights).sum().backward()
    assert a.grad.tolist() == [0.0, 2.0, 0.0] and s.grad.tolist() == [1.0, 3.0, 0.0]


@needs_torch
def test_index_write_edges_same_as_torch():
    def case(lib):
        a = lib.zeros(3, requires_grad=True)
        s = lib.ones(4, requires_grad=True)
        index = lib.tensor([0, 2, 0, 1])
        made = [a.index_add(0, index, s), a.scatter_add(0, index, s),
                lib.index_put(a, (index,), s, accumulate=True), lib.index_put(a.detach(), (index,), s),
                a.clone().index_add_(0, index, s), s.sort(stable=True).values, s.topk(2).values]
        return [_edges(t) for t in made]
    assert case(tapegrad) == case(torch)


# -- fake quantization: non-finite values, floating zero points, PyTorch's checks ---------------

def test_per_tensor_fake_quant_sends_nan_to_quant_min_and_saturates_infinities():
    x = tapegrad.tensor([float("nan"), float("inf"), -float("inf"), 1e30, 0.3],
                        requires_grad=True)
    out = tapegrad.fake_quantize_per_tensor_affine(x, 0.1, 0, -8, 7)
    np.testing.assert_allclose(out.detach().numpy(), [-0.8, 0.7, -0.8, 0.7, 0.3], rtol=1e-6)
    out.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0, 0.0, 1.0]


def test_per_channel_fake_quant_sends_every_non_finite_value_to_quant_min():
    # the per-channel kernel converts to int64 first: NaN, inf and huge values become its minimum
    x = tapegrad.tensor([[float("nan"), float("inf"), 1e30, 0.3]])
    out = tapegrad.fake_quantize_per_channel_affine(
        x, tapegrad.full((4,), 0.1), tapegrad.zeros(4, dtype=tapegrad.int32), 1, -8, 7)
    np.testing.assert_allclose(out.numpy(), [[-0.8, -0.8, -0.8, 0.3]], rtol=1e-6)


def test_a_floating_zero_point_is_added_before_rounding():
    x = tapegrad.linspace(-1, 1, 7).requires_grad_()
    out = tapegrad.fake_quantize_per_channel_affine(
        x.view(1, 7), tapegrad.full((7,), 0.3), tapegrad.full((7,), 0.6), 1, -2, 2)
    positions = np.clip(np.rint(np.linspace(-1, 1, 7, dtype=np.float32) / np.float32(0.3) + 0.6),
                        -2, 2)
    np.testing.assert_allclose(out.detach().numpy()[0], (positions - 0.6) * 0.3, rtol=1e-5)
    out.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]


@pytest.mark.parametrize("call, error, message", [
    (lambda T, x: T.fake_quantize_per_channel_affine(x, T.ones(1, 3), T.zeros(3, dtype=T.int32),
                                                     1, -8, 7), RuntimeError,
     "scale should be a 1-D tensor"),
    (lambda T, x: T.fake_quantize_per_channel_affine(x, T.ones(3), T.zeros(2, dtype=T.int32), 1,
                                                     -8, 7), RuntimeError,
     "scale and zero-point need to have the same dimensions"),
    (lambda T, x: T.fake_quantize_per_channel_affine(x, T.ones(3), T.full((3,), 9, dtype=T.int32),
                                                     -1, -8, 7), RuntimeError,
     "`zero_point` must be between `quant_min` and `quant_max`."),
    (lambda T, x: T.fake_quantize_per_channel_affine(x, T.ones(3), T.zeros(3, dtype=T.int32), -1,
                                                     -8, 7), RuntimeError,
     "`axis` must be between 0 and number of dimensions of input"),
    (lambda T, x: T.fake_quantize_per_channel_affine(T.tensor(0.5), T.ones(1),
                                                     T.zeros(1, dtype=T.int32), 0, -8, 7),
     IndexError, "Dimension specified as 0 but tensor has no dimensions"),
    (lambda T, x: T.fake_quantize_per_channel_affine(x.long(), T.ones(3), T.zeros(3, dtype=T.int32),
                                                     1, -8, 7), NotImplementedError,
     "\"fake_quantize_channel_cachemask_cpu_type_handling\" not implemented for 'Long'"),
    (lambda T, x: T.fake_quantize_per_tensor_affine(x.long(), 0.1, 0, -8, 7), NotImplementedError,
     "\"fake_quantize_tensor_cachemask_kernel_type_handling\" not implemented for 'Long'"),
    (lambda T, x: T.fake_quantize_per_channel_affine(x, T.ones(3, requires_grad=True),
                                                     T.zeros(3, dtype=T.int32), 9, -8, 7),
     RuntimeError, "The function 'fake_quantize_per_channel_affine_cachemask' is not "
                   "differentiable with respect to argument 'scale'"),
    (lambda T, x: T.fake_quantize_per_tensor_affine(x, T.tensor(0.1), T.tensor(0.0,
                                                    requires_grad=True), -8, 7),
     RuntimeError, "The function '_fake_quantize_per_tensor_affine_cachemask_tensor_qparams' is "
                   "not differentiable with respect to argument 'zero_point'"),
])
def test_fake_quant_checks(call, error, message):
    with pytest.raises(error) as caught:
        call(tapegrad, tapegrad.linspace(-1, 1, 6).view(2, 3))
    assert message in str(caught.value)


def test_quantization_parameters_that_require_grad_are_fine_without_grad_mode():
    with tapegrad.no_grad():
        out = tapegrad.fake_quantize_per_tensor_affine(
            tapegrad.tensor([0.26]), tapegrad.tensor(0.1, requires_grad=True),
            tapegrad.tensor(0, dtype=tapegrad.int32), -8, 7)
    np.testing.assert_allclose(out.numpy(), [0.3], rtol=1e-6)


@needs_torch
@pytest.mark.parametrize("case", [
    lambda T: T.fake_quantize_per_tensor_affine(
        T.tensor([float("nan"), float("inf"), -1e30, 0.26], dtype=T.float64), 0.1, 1, -8, 7),
    lambda T: T.fake_quantize_per_tensor_affine(
        T.tensor([float("nan"), 0.26]), T.tensor(0.1), T.tensor(1, dtype=T.int32), -8, 7),
    lambda T: T.fake_quantize_per_channel_affine(
        T.tensor([[float("nan"), float("inf")], [1e30, 0.2]]), T.tensor([0.1, 0.3]),
        T.tensor([0, 2], dtype=T.int32), 0, -8, 7),
    lambda T: T.fake_quantize_per_channel_affine(
        T.linspace(-1, 1, 12).view(3, 4), T.full((4,), 0.3), T.tensor([0.6, -0.4, 1.5, 7.6]), 1,
        -8, 7),
    lambda T: T.fake_quantize_per_channel_affine(
        T.linspace(-1, 1, 12).view(3, 4), T.full((4,), 0.3),
        T.tensor([0.6, -0.4, 1.5, 9.0], dtype=T.float16), 1, -8, 7),
    lambda T: T.fake_quantize_per_channel_affine(
        T.linspace(-1, 1, 12).view(3, 4), T.zeros(3), T.zeros(3, dtype=T.int32), 0, -8, 7),
    lambda T: T.fake_quantize_per_channel_affine(
        T.ones(3, 4), T.ones(4), T.zeros(4, dtype=T.int32), 2, -8, 7),
])
def test_fake_quant_same_as_torch(case):
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("make_index", [
    lambda T: (T.tensor(1), T.tensor([0, 2])),
    lambda T: (T.tensor([[True, False, True], [False, False, False]]),),
    lambda T: (T.tensor([1, 0]), T.tensor([0, 2])),
])
def test_out_of_place_index_put_same_as_torch(accumulate, make_index):
    def case(lib):
        a = lib.zeros(2, 3, requires_grad=True)
        v = lib.tensor([1.0, 2.0], requires_grad=True)
        out = lib.index_put(a, make_index(lib), v, accumulate=accumulate)
        (out * lib.arange(6.0).view(2, 3)).sum().backward()
        return out, a.grad, v.grad, str(_edges(out))
    assert_same(case, torch)
