"""Differences found by the course-homework programs (edu_*): einsum's sublist form and its
equation errors, index_put's checks with ``accumulate=True``, scatter_reduce's "max"/"min",
and the strides of results (cat, stack, roll, repeat, sort, topk, cummax, index_select,
masked_fill, index_fill, unsqueeze) that decide whether a later ``.view`` works."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


# -- einsum: the sublist form ------------------------------------------------------------------

def test_einsum_sublist_form_is_the_equation_it_spells():
    a = tapegrad.arange(6.0).reshape(2, 3)
    b = tapegrad.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(tapegrad.einsum(a, [0, 1], b, [1, 2], [0, 2]).numpy(),
                                  (a @ b).numpy())
    np.testing.assert_array_equal(tapegrad.einsum(a, [1, 0]).numpy(), a.numpy().T)  # implicit
    # 0-25 are A-Z and 26-51 a-z, so [27, 0] is 'bA', whose implicit output 'Ab' transposes
    np.testing.assert_array_equal(tapegrad.einsum(a, [27, 0]).numpy(), a.numpy().T)
    batch = tapegrad.arange(24.0).reshape(2, 3, 4)
    out = tapegrad.einsum(batch, [Ellipsis, 0, 1], b.T, [Ellipsis, 1, 0], [Ellipsis])
    np.testing.assert_allclose(out.numpy(), np.einsum("...ij,...ji->...", batch.numpy(),
                                                      b.numpy().T))


def test_einsum_sublist_gradient():
    x = tapegrad.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=tapegrad.float64, requires_grad=True)
    tapegrad.einsum(x, [0, 0]).backward()  # the trace
    np.testing.assert_array_equal(x.grad.numpy(), np.eye(2))


EINSUM_CASES = {
    "sublist": lambda T: T.einsum(T.ones(2, 3), [0, 1], T.ones(3), [1]),
    "sublist-output": lambda T: T.einsum(T.ones(2, 3), [0, 1], T.ones(3), [1], [Ellipsis, 0]),
    "sublist-range": lambda T: T.einsum(T.ones(2, 2), [0, 52]),
    "sublist-negative": lambda T: T.einsum(T.ones(2, 2), [0, -1]),
    "no-operand": lambda T: T.einsum("ij"),
    "nothing": lambda T: T.einsum(),
    "equation-not-str": lambda T: T.einsum([T.ones(2, 2)], [0, 1]),
    "repeated-output": lambda T: T.einsum("i->ii", T.ones(2)),
    "repeated-output-2": lambda T: T.einsum("ij,jk->ikk", T.ones(2, 2), T.ones(2, 2)),
    "output-not-in-input": lambda T: T.einsum("ij->iki", T.ones(2, 3)),
    "stray-dot": lambda T: T.einsum("i.j", T.ones(2, 2)),
    "stray-dot-second": lambda T: T.einsum("ij,j.", T.ones(2, 2), T.ones(2, 2)),
    "two-ellipses": lambda T: T.einsum("i...j...", T.ones(2, 2)),
    "output-stray-dot": lambda T: T.einsum("ij->i.", T.ones(2, 2)),
    "output-two-ellipses": lambda T: T.einsum("ij->......", T.ones(2, 2)),
    "invalid-subscript": lambda T: T.einsum("i1", T.ones(2, 2)),
    "invalid-before-count": lambda T: T.einsum("i1,jk", T.ones(2, 2)),
    "invalid-in-output": lambda T: T.einsum("i j -> j 1", T.ones(2, 3)),
    "second-arrow": lambda T: T.einsum("ij->ij->j", T.ones(2, 2)),
    "lone-dash": lambda T: T.einsum("ij- >", T.ones(2, 3)),
    "ellipsis-too-many": lambda T: T.einsum("ijk...", T.ones(2, 2)),
    "fewer-operands": lambda T: T.einsum("ij,jk", T.ones(2, 2)),
    "more-operands": lambda T: T.einsum("ij", T.ones(2, 2), T.ones(2)),
    "spaces": lambda T: T.einsum(" b i j , b j k -> b i k ", T.ones(2, 2, 3), T.ones(2, 3, 1)),
    "empty-subscripts": lambda T: T.einsum(",", T.tensor(2.0), T.tensor(3.0)),
}


@needs_torch
@pytest.mark.parametrize("name", EINSUM_CASES)
def test_einsum_as_torch(name):
    assert_same(EINSUM_CASES[name], torch)


def test_einsum_errors_without_torch():
    with pytest.raises(RuntimeError, match="output subscript i appears more than once"):
        tapegrad.einsum("i->ii", tapegrad.ones(2))
    with pytest.raises(RuntimeError, match="found '.' for operand 0 that is not part of any "
                                           "ellipsis$"):
        tapegrad.einsum("i.j", tapegrad.ones(2, 2))
    with pytest.raises(RuntimeError, match="invalid subscript given at index 9 in the equation"):
        tapegrad.einsum("i j -> j 1", tapegrad.ones(2, 3))
    with pytest.raises(ValueError, match="within the valid range"):
        tapegrad.einsum(tapegrad.ones(2), [52])


EINSUM_NODES = {
    "ij->ij": ((2, 3),), "ij": ((2, 3),), "ii->i": ((2, 2),), "bii->bi": ((3, 2, 2),),
    "ijk->ki": ((2, 3, 4),), "ii": ((2, 2),), "i,j->ij": ((2,), (3,)), "i,i->i": ((2,), (2,)),
    "ij,ij->ji": ((2, 3), (2, 3)), "i,j,k->ijk": ((2,), (3,), (4,)),
    "ij,kl->ijkl": ((2, 1), (1, 3)), "ij,jk->ik": ((2, 3), (3, 4)),
    "bij,bjk->bik": ((5, 2, 3), (5, 3, 4)), "i,ij,j->": ((2,), (2, 3), (3,)),
}


@needs_torch
@pytest.mark.parametrize("equation", EINSUM_NODES)
def test_einsum_records_torchs_last_node(equation):
    def last_node(T):
        operands = [T.arange(float(np.prod(s))).reshape(s).requires_grad_()
                    for s in EINSUM_NODES[equation]]
        out = T.einsum(equation, *operands)
        out.sum().backward()
        return type(out.grad_fn).__name__, out.tolist(), [o.grad.tolist() for o in operands]
    assert last_node(tapegrad) == last_node(torch)


def test_einsum_of_one_operand_is_a_new_view():
    x = tapegrad.arange(6.0).reshape(2, 3).requires_grad_()
    same = tapegrad.einsum("ij->ij", x)
    assert same is not x and type(same.grad_fn).__name__ == "PermuteBackward0"
    outer = tapegrad.einsum("i,j->ij", x[0], x[1])
    assert type(outer.grad_fn).__name__ == "MulBackward0"
    np.testing.assert_array_equal(outer.detach().numpy(), np.outer([0, 1, 2], [3, 4, 5]))
    assert tapegrad.autograd.gradcheck(
        lambda a, b: tapegrad.einsum("ij,ij->ji", a, b),
        (tapegrad.rand(2, 3, dtype=tapegrad.float64, requires_grad=True),
         tapegrad.rand(2, 3, dtype=tapegrad.float64, requires_grad=True)))


# -- index_put with accumulate, scatter_reduce's names -----------------------------------------

INDEX_PUT_CASES = {
    "out-of-range": lambda T: T.zeros(3).index_put_((T.tensor([5]),), T.tensor(1.0),
                                                    accumulate=True),
    "negative-out-of-range": lambda T: T.zeros(3).index_put_((T.tensor([-4]),), T.tensor(1.0),
                                                             accumulate=True),
    "second-dim": lambda T: T.zeros(2, 3).index_put_((T.tensor([0]), T.tensor([3])),
                                                     T.tensor(1.0), accumulate=True),
    "index-shapes": lambda T: T.zeros(2, 3).index_put_((T.tensor([0, 1]), T.tensor([1, 2, 0])),
                                                       T.tensor(1.0), accumulate=True),
    "value-shape": lambda T: T.zeros(3).index_put_((T.tensor([0, 0]),), T.tensor([1.0, 2, 3]),
                                                   accumulate=True),
    "value-leading-one": lambda T: T.zeros(3).index_put_((T.tensor([0, 0]),),
                                                         T.tensor([[1.0, 2.0]])),
    "row-value-shape": lambda T: T.zeros(2, 3).index_put_((T.tensor([0, 1]),),
                                                          T.tensor([1.0, 2.0]), accumulate=True),
    "too-many": lambda T: T.zeros(2, 3).index_put_((T.tensor([0]),) * 3, T.tensor(1.0),
                                                   accumulate=True),
    "too-many-plain": lambda T: T.zeros(2, 3).index_put((T.tensor([0]),) * 3, T.tensor(1.0)),
    "mask-shape": lambda T: T.zeros(2, 3).index_put_((T.tensor([True, False, True]),),
                                                     T.tensor(1.0), accumulate=True),
    "float-index": lambda T: T.zeros(3).index_put_((T.tensor([0.0]),), T.tensor([1.0]),
                                                   accumulate=True),
    "tensor-not-tuple": lambda T: T.zeros(3).index_put_(T.tensor([1]), T.tensor(1.0)),
    "tensor-not-tuple-out-of-place": lambda T: T.zeros(3).index_put(T.tensor([1]), T.tensor(1.0)),
    "values-not-tensor": lambda T: T.zeros(3).index_put_((T.tensor([0]),), 1.0),
    "none-index": lambda T: T.zeros(2, 3).index_put_((T.tensor([0]), None), T.tensor(1.0)),
    "list-index": lambda T: T.zeros(2, 3).index_put_(([0],), T.tensor(1.0)),
    "duplicates": lambda T: T.zeros(4).index_put_((T.tensor([0, 1, 1, 3]),), T.ones(4),
                                                  accumulate=True),
    "pairs": lambda T: T.zeros(2, 3).index_put_((T.tensor([0, 0, 1]), T.tensor([1, 1, 2])),
                                                T.tensor(2.0), accumulate=True),
    "mask": lambda T: T.zeros(2, 3).index_put_((T.tensor([[True, False, True],
                                                          [False, False, True]]),),
                                               T.tensor([1.0, 2.0, 3.0]), accumulate=True),
    "scalar-index": lambda T: T.zeros(2, 3).index_put((T.tensor(1),), T.tensor([1.0, 2, 3]),
                                                      accumulate=True),
}


@needs_torch
@pytest.mark.parametrize("name", INDEX_PUT_CASES)
def test_index_put_as_torch(name):
    assert_same(INDEX_PUT_CASES[name], torch)


def test_index_put_accumulate_checks_bounds_in_torch_words():
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 1 with size 3"):
        tapegrad.zeros(2, 3).index_put_((tapegrad.tensor([0]), tapegrad.tensor([3])),
                                        tapegrad.tensor(1.0), accumulate=True)
    with pytest.raises(RuntimeError, match=r"value tensor of shape \[3\] cannot be broadcast "
                                           r"to indexing result of shape \[2\]"):
        tapegrad.zeros(3).index_put_((tapegrad.tensor([0, 0]),), tapegrad.ones(3),
                                     accumulate=True)


def test_index_put_accumulate_gradients():
    base = tapegrad.zeros(4, dtype=tapegrad.float64, requires_grad=True)
    values = tapegrad.tensor([1.0, 2.0, 3.0], dtype=tapegrad.float64, requires_grad=True)
    out = base.index_put((tapegrad.tensor([0, 0, 2]),), values, accumulate=True)
    np.testing.assert_array_equal(out.detach().numpy(), [3.0, 0.0, 3.0, 0.0])
    (out * tapegrad.tensor([1.0, 10.0, 100.0, 1000.0], dtype=tapegrad.float64)).sum().backward()
    np.testing.assert_array_equal(base.grad.numpy(), [1.0, 10.0, 100.0, 1000.0])
    np.testing.assert_array_equal(values.grad.numpy(), [1.0, 1.0, 100.0])
    assert tapegrad.autograd.gradcheck(
        lambda b, v: b.index_put((tapegrad.tensor([1, 1, 0]),), v, accumulate=True),
        (tapegrad.zeros(3, dtype=tapegrad.float64, requires_grad=True),
         tapegrad.ones(3, dtype=tapegrad.float64, requires_grad=True)))


@pytest.mark.parametrize("alias,name", [("max", "amax"), ("min", "amin")])
def test_scatter_reduce_takes_max_and_min(alias, name):
    index = tapegrad.tensor([0, 0, 1, 1, 2])
    src = tapegrad.tensor([3.0, -1.0, 4.0, 1.0, -9.0])
    for include_self in (True, False):
        got = tapegrad.zeros(3).scatter_reduce(0, index, src, alias, include_self=include_self)
        want = tapegrad.zeros(3).scatter_reduce(0, index, src, name, include_self=include_self)
        np.testing.assert_array_equal(got.numpy(), want.numpy())
    with pytest.raises(RuntimeError, match="must be either sum, prod, mean, amax or amin, got "
                                           "median"):
        tapegrad.zeros(3).scatter_reduce(0, index, src, "median")


# -- layouts of results ------------------------------------------------------------------------

def _transposed(T):
    return T.arange(12.0).reshape(4, 3).t()


LAYOUT_CASES = {
    "cat": lambda T: T.cat([_transposed(T), _transposed(T)]),
    "cat-dim1": lambda T: T.cat([_transposed(T), _transposed(T)], 1),
    "cat-one": lambda T: T.cat([_transposed(T)]),
    "cat-mixed": lambda T: T.cat([T.ones(3, 1), _transposed(T)], 1),
    "cat-channels-last": lambda T: T.cat([T.ones(2, 3, 4, 5).to(
        memory_format=T.channels_last)] * 2),
    "cat-channels-last-and-not": lambda T: T.cat([T.ones(2, 3, 4, 5).to(
        memory_format=T.channels_last), T.ones(2, 3, 4, 5)]),
    "cat-legacy-empty": lambda T: T.cat([T.tensor([]), T.ones(2, 3, 4, 5).to(
        memory_format=T.channels_last)]),
    "cat-strided-channels-last": lambda T: T.cat([T.ones(2, 3, 4, 5).to(
        memory_format=T.channels_last)[:, :, ::2]] * 2),
    "stack": lambda T: T.stack([_transposed(T), _transposed(T)]),
    "stack-last": lambda T: T.stack([_transposed(T), _transposed(T)], -1),
    "roll": lambda T: _transposed(T).roll(1, 0),
    "roll-flat": lambda T: _transposed(T).roll(2),
    "roll-channels-last": lambda T: T.ones(2, 3, 4, 5).to(memory_format=T.channels_last)
    .roll(1, 2),
    "roll-channels-last-flat": lambda T: T.ones(2, 3, 4, 5).to(memory_format=T.channels_last)
    .roll(1),
    "repeat": lambda T: _transposed(T).repeat(1, 1),
    "tile": lambda T: _transposed(T).tile((1,)),
    "sort-values": lambda T: _transposed(T).sort(0).values,
    "sort-indices": lambda T: _transposed(T).sort(1, descending=True).indices,
    "argsort": lambda T: _transposed(T).argsort(1),
    "msort": lambda T: _transposed(T).msort(),
    "sort-strided": lambda T: T.ones(4, 3)[:, ::2].sort(1).values,
    "sort-channels-last": lambda T: T.ones(2, 3, 4, 5).to(memory_format=T.channels_last)
    .sort(1).values,
    "topk-values": lambda T: _transposed(T).topk(2, 0).values,
    "topk-indices": lambda T: _transposed(T).topk(2, 0).indices,
    "cummax-values": lambda T: _transposed(T).cummax(0).values,
    "cummin-indices": lambda T: _transposed(T).cummin(1).indices,
    "index-select": lambda T: _transposed(T).index_select(1, T.tensor([0, 1])),
    "masked-fill": lambda T: _transposed(T).masked_fill(T.tensor(True), 2.0),
    "index-fill": lambda T: _transposed(T).index_fill(0, T.tensor([0]), 2.0),
    "unsqueeze-end": lambda T: _transposed(T).unsqueeze(2),
    "unsqueeze-middle": lambda T: _transposed(T).unsqueeze(1),
    "unsqueeze-front": lambda T: _transposed(T).unsqueeze(0),
    "none-last": lambda T: _transposed(T)[..., None],
    "column-unsqueeze": lambda T: T.ones(4, 4)[:, 1].unsqueeze(1),
    "strided-unsqueeze": lambda T: T.ones(5)[::2].unsqueeze(1),
    "scalar-unsqueeze": lambda T: T.tensor(1.0).unsqueeze(0),
}


def _layout(result):
    try:
        viewed = tuple(result.view(-1).shape)
    except RuntimeError as error:
        viewed = str(error)
    return result.stride(), result.is_contiguous(), viewed, result.tolist()


@needs_torch
@pytest.mark.parametrize("name", LAYOUT_CASES)
def test_layout_as_torch(name):
    assert _layout(LAYOUT_CASES[name](tapegrad)) == _layout(LAYOUT_CASES[name](torch))


def test_cat_of_transposed_tensors_is_row_major_and_views():
    t = tapegrad.arange(6.0).reshape(2, 3).t()
    merged = tapegrad.cat([t, t])
    assert merged.stride() == (2, 1) and merged.is_contiguous()
    np.testing.assert_array_equal(merged.view(-1).numpy(), np.concatenate([t.numpy()] * 2).ravel())
    assert tapegrad.stack([t, t]).is_contiguous()
    assert t.roll(1, 0).is_contiguous() and t.repeat(1, 1).is_contiguous()


def test_sort_keeps_the_input_layout_and_gradients_flow():
    x = tapegrad.tensor([[3.0, 1.0], [0.0, 2.0], [5.0, -1.0]], dtype=tapegrad.float64)
    xt = x.t().requires_grad_()
    values, indices = xt.sort(1)
    assert values.stride() == xt.stride() == indices.stride()
    np.testing.assert_array_equal(values.detach().numpy(), np.sort(xt.detach().numpy(), 1))
    (values * tapegrad.arange(3.0, dtype=tapegrad.float64)).sum().backward()
    np.testing.assert_array_equal(xt.grad.numpy(), [[1.0, 0.0, 2.0], [1.0, 2.0, 0.0]])


def test_unsqueeze_strides_follow_torch_rule():
    column = tapegrad.ones(4, 4)[:, 1]
    assert column.unsqueeze(1).stride() == (4, 1)
    assert column.unsqueeze(0).stride() == (16, 4)
    t = tapegrad.ones(2, 3).t()
    assert t.unsqueeze(2).stride() == (1, 3, 1)
    assert t[:, None].stride() == (1, 6, 3)  # the new dim spans the one after it
    x = tapegrad.arange(6.0).reshape(2, 3).t().requires_grad_()
    y = x.unsqueeze(-1)
    y.sum().backward()  # still a view with UnsqueezeBackward0
    assert type(y.grad_fn).__name__ == "UnsqueezeBackward0"
    assert y._base is not None and y.data_ptr() == x.data_ptr()
    np.testing.assert_array_equal(x.grad.numpy(), np.ones((3, 2)))


# -- view(dtype) -------------------------------------------------------------------------------

VIEW_DTYPE_CASES = {
    "float-bits": lambda T: T.tensor([1.0, -2.0, 0.5]).view(T.int32),
    "back": lambda T: T.tensor([1.0, -2.0]).view(T.int32).view(T.float32),
    "halves": lambda T: T.arange(3).view(T.int32),
    "pairs": lambda T: T.arange(4, dtype=T.int32).reshape(2, 2).view(T.int64),
    "keyword": lambda T: T.arange(4, dtype=T.int16).reshape(2, 2).view(dtype=T.int8),
    "python-types": lambda T: (T.arange(4).view(float), T.arange(2.0).view(int)),
    "bool": lambda T: T.tensor([1, 0], dtype=T.uint8).view(T.bool),
    "scalar-same-size": lambda T: T.tensor(1.0).view(T.int32),
    "odd-last": lambda T: T.arange(3, dtype=T.int32).view(T.int64),
    "transposed": lambda T: T.arange(6, dtype=T.int32).reshape(2, 3).t().view(T.int16),
    "strided-last": lambda T: T.arange(12, dtype=T.int32).reshape(4, 3)[:, ::2].view(T.int16),
    "scalar": lambda T: T.tensor(1.0).view(T.float64),
    "offset": lambda T: T.arange(8, dtype=T.int32)[1:5].view(T.int64),
    "row-stride": lambda T: T.arange(12, dtype=T.int32).reshape(4, 3)[:, :2].view(T.int64),
    "column-slice": lambda T: T.arange(8, dtype=T.int32).reshape(2, 4)[:, :2].view(T.int64),
}


@needs_torch
@pytest.mark.parametrize("name", VIEW_DTYPE_CASES)
def test_view_dtype_as_torch(name):
    assert_same(VIEW_DTYPE_CASES[name], torch)


@needs_torch
def test_view_dtype_geometry_as_torch():
    def geometry(T):
        t = T.arange(12, dtype=T.int32).reshape(3, 4)
        return [(v.shape, v.stride(), v.storage_offset()) for v in (
            t[::2].view(T.int64), t[:, 2:].view(T.int16), t.view(T.int8), t.view(T.float32))]
    assert [(tuple(s), st, o) for s, st, o in geometry(tapegrad)] == \
        [(tuple(s), st, o) for s, st, o in geometry(torch)]


def test_view_dtype_shares_memory_and_is_not_differentiable():
    x = tapegrad.tensor([1.0, 2.0], requires_grad=True)
    bits = x.view(tapegrad.int32)
    assert bits.dtype == tapegrad.int32 and not bits.requires_grad and bits.grad_fn is None
    assert bits.tolist() == np.array([1.0, 2.0], np.float32).view(np.int32).tolist()
    same = x.view(tapegrad.float32)
    assert not same.requires_grad and same._base is x
    plain = tapegrad.zeros(2)
    raw = plain.view(tapegrad.int32)
    raw[0] = int(np.array(1.5, np.float32).view(np.int32))  # writes through to ``plain``
    assert plain.tolist() == [1.5, 0.0] and plain._version == raw._version == 1
    with pytest.raises(RuntimeError, match=r"self.size\(-1\) must be divisible by 2 to view Int "
                                           r"as Long \(different element sizes\), but got 3"):
        tapegrad.arange(3, dtype=tapegrad.int32).view(tapegrad.int64)


# -- smaller gaps: nonzero_static, unbind/squeeze/cartesian_prod checks ------------------------

SMALL_CASES = {
    "nonzero-static-pad": lambda T: T.tensor([[0, 1], [1, 1]]).nonzero_static(size=5),
    "nonzero-static-cut": lambda T: T.nonzero_static(T.tensor([0.0, 1.0, 2.0]), size=1),
    "nonzero-static-fill": lambda T: T.nonzero_static(T.tensor([0, 1]), size=3, fill_value=9),
    "nonzero-static-scalar": lambda T: T.nonzero_static(T.tensor(3), size=2),
    "nonzero-static-negative": lambda T: T.nonzero_static(T.tensor([0, 1]), size=-1),
    "squeeze-repeated": lambda T: T.ones(2, 1).squeeze((1, -1)),
    "squeeze-tuple": lambda T: T.ones(1, 2, 1).squeeze((0, 2)),
    "unbind-scalar": lambda T: T.tensor(3).unbind(-1),
    "unbind-scalar-range": lambda T: T.tensor(3).unbind(1),
    "cartesian-prod-nothing": lambda T: T.cartesian_prod(),
}


@needs_torch
@pytest.mark.parametrize("name", SMALL_CASES)
def test_small_gaps_as_torch(name):
    assert_same(SMALL_CASES[name], torch)


def test_nonzero_static_pads_with_fill_value():
    out = tapegrad.nonzero_static(tapegrad.tensor([[0, 1], [1, 0]]), size=3, fill_value=-7)
    assert out.dtype == tapegrad.int64 and out.tolist() == [[0, 1], [1, 0], [-7, -7]]
    assert tapegrad.tensor([5, 0, 6]).nonzero_static(size=1).tolist() == [[0]]
