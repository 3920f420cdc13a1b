"""Shape, layout, assembly and elementwise ops against PyTorch: the legacy empty tensor in cat,
where/trunc/roll/split/isclose/clamp/diag_embed/rot90/heaviside/atleast_nd/diff/meshgrid/vander
(values, dtypes, nodes and PyTorch's checks word for word), and the outputs of split/chunk/unbind
once their base is modified in place.

Each case is written against a module ``T`` (tapegrad or PyTorch) and must give the same result,
or raise the same exception with the same message, with both.
"""
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck
from same_as_torch import assert_same

torch = pytest.importorskip("torch")


def _outcome(T, case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = case(T)
        except Exception as error:  # noqa: BLE001 — the exception is what is compared
            return type(error).__name__, str(error)
    return "value", _plain(result)


def _plain(result):
    """A result as comparable Python data: values, dtype and node name of each tensor."""
    if isinstance(result, (tuple, list)):
        return [_plain(r) for r in result]
    if isinstance(result, (tapegrad.Tensor, torch.Tensor)):
        values = result.detach().numpy()
        node = None if result.grad_fn is None else type(result.grad_fn).__name__
        return values.tolist(), values.shape, str(result.dtype).split(".")[-1], node
    return result


def _grad(T):
    return T.tensor([1.0, -2.0, 3.0], requires_grad=True)


CASES = {
    "tril_indices-missing-col": lambda T: T.tril_indices(3),
    "triu_indices-missing-both": lambda T: T.triu_indices(),
    "tril_indices-float-col": lambda T: T.tril_indices(3, 2.5),
    "triu_indices-bool-offset": lambda T: T.triu_indices(3, 3, True),
    "tril_indices-offset": lambda T: T.tril_indices(3, 4, -1),
    # cat skips 1-d tensors with no elements (the ``torch.tensor([])`` accumulator)
    "cat_empty_first": lambda T: T.cat([T.tensor([]), T.tensor([[1, 2]])], dim=1),
    "cat_empty_dim0": lambda T: T.cat((T.empty(0), T.ones(2, 3)), dim=0),
    "cat_empty_last": lambda T: T.cat([T.ones(2, 3), T.tensor([])], dim=-1),
    "cat_empty_middle": lambda T: T.cat([T.zeros(2, 3), T.zeros(0), T.zeros(2, 4)], dim=1),
    "cat_only_empties": lambda T: T.cat([T.zeros(0), T.zeros(0)], dim=5),
    "cat_empty_promotes": lambda T: T.cat([T.zeros(0, dtype=T.float64), T.tensor([[1, 2]])]),
    "cat_empty_dim_range": lambda T: T.cat([T.tensor([]), T.tensor([[1, 2]])], dim=2),
    "cat_empty_ndim_mismatch": lambda T: T.cat([T.zeros(0), T.zeros(2, 3), T.zeros(3)]),
    "cat_empty_size_mismatch": lambda T: T.cat([T.zeros(0), T.zeros(2, 3), T.zeros(2, 4)]),
    "cat_empty_zero_dim": lambda T: T.cat([T.zeros(0), T.tensor(1.)]),
    "cat_empty_2d_not_skipped": lambda T: T.cat([T.zeros(0, 2), T.tensor([[1., 2.]])], dim=1),
    "stack_empty_not_skipped": lambda T: T.stack([T.tensor([]), T.tensor([[1, 2]])]),
    # where
    "where_long_condition": lambda T: T.where(T.tensor([1, 0, 1]), T.ones(3), T.zeros(3)),
    "where_float_condition": lambda T: T.where(T.tensor([1., 0, 1]), T.ones(3), 0.),
    "where_uint8_condition": lambda T: T.where(T.tensor([1, 0, 1], dtype=T.uint8), 1., 0.),
    "where_method_long": lambda T: T.ones(3).where(T.tensor([1, 0, 1]), 0.),
    "where_single_long": lambda T: T.where(T.tensor([1, 0, 2])),
    "where_two_arguments": lambda T: T.where(T.tensor([True]), T.ones(1)),
    "where_python_condition": lambda T: T.where(True, T.ones(1), T.ones(1)),
    "where_python_condition_alone": lambda T: T.where(True),
    # rounding refuses booleans
    "trunc_bool": lambda T: T.trunc(T.tensor([True, False])),
    "fix_bool": lambda T: T.fix(T.tensor([True])),
    "trunc_int": lambda T: T.trunc(T.tensor([3, -2])),
    "frac_int": lambda T: T.frac(T.tensor([3])),
    # roll
    "roll_tuple_without_dims": lambda T: T.roll(T.arange(6), (1, 2)),
    "roll_one_tuple_without_dims": lambda T: T.roll(T.arange(6), (2,)),
    "roll_tensor_shift": lambda T: T.roll(T.arange(6), T.tensor(2)),
    "roll_method_tensor_shift": lambda T: T.arange(6).roll(shifts=T.tensor(-1)),
    "roll_float_shift": lambda T: T.roll(T.arange(6), 1.5),
    # split, tensor_split, chunk, split_with_sizes, narrow_copy
    "split_negative": lambda T: T.split(T.arange(3), -1),
    "split_zero": lambda T: T.split(T.arange(3), 0),
    "split_zero_of_empty": lambda T: T.split(T.zeros(0), 0),
    "split_tensor_size": lambda T: T.arange(3).split(T.tensor(2)),
    "split_negative_sizes": lambda T: T.arange(3).split([5, -2]),
    "split_float_size": lambda T: T.arange(3).split((1, 2.0)),
    "tensor_split_float": lambda T: T.tensor_split(T.arange(3), 2.5),
    "tensor_split_float_index": lambda T: T.tensor_split(T.arange(3), [1, 2.5]),
    "chunk_float": lambda T: T.chunk(T.arange(3), 1.5),
    "split_with_sizes": lambda T: T.split_with_sizes(_grad(T), [1, 2]),
    "split_with_sizes_method": lambda T: T.arange(3).split_with_sizes([2, 1]),
    "split_with_sizes_int": lambda T: T.split_with_sizes(T.arange(3), 2),
    "split_with_sizes_sum": lambda T: T.arange(3).split_with_sizes([1, 1]),
    "narrow_copy": lambda T: T.narrow_copy(_grad(T), 0, 1, 2),
    "narrow_copy_method": lambda T: _grad(T).narrow_copy(0, -1, 1),
    "narrow_copy_too_long": lambda T: T.arange(3).narrow_copy(0, 2, 2),
    # isclose and clamp
    "isclose_rtol": lambda T: T.isclose(T.ones(2), T.ones(2), rtol=-1),
    "isclose_atol": lambda T: T.isclose(T.ones(2), T.ones(2), atol=-1e-3),
    "allclose_atol": lambda T: T.allclose(T.ones(2), T.ones(2), atol=-1.0),
    "isclose_dtype_first": lambda T: T.isclose(T.ones(2), T.ones(2).double(), rtol=-1),
    "clamp_tensor_and_number": lambda T: T.clamp(T.tensor([1, 5, 9]), min=T.tensor([2, 2, 2]),
                                                  max=6),
    "clamp_0d_tensor_and_number": lambda T: T.clamp(T.tensor([1, 5, 9]), min=T.tensor(2), max=6),
    "clip_tensor_and_number": lambda T: T.clip(T.tensor([1., 5.]), min=T.ones(2), max=4.),
    "clamp__tensor_and_number": lambda T: T.tensor([1, 5]).clamp_(min=T.tensor([2, 2]), max=6),
    # diag_embed, rot90
    "diag_embed_dims": lambda T: T.diag_embed(T.arange(6.).view(2, 3), 1, 0, 2),
    "diag_embed_swapped_dims": lambda T: T.diag_embed(T.tensor([1., 2.]), offset=-1, dim1=1,
                                                      dim2=0),
    "diag_embed_negative_dims": lambda T: T.diag_embed(T.ones(2, 3), dim1=-3, dim2=-1),
    "diag_embed_grad": lambda T: T.diag_embed(_grad(T), 0, 1, 0),
    "diag_embed_scalar": lambda T: T.diag_embed(T.tensor(5.)),
    "diag_embed_same_dims": lambda T: T.diag_embed(T.ones(2, 3), dim1=1, dim2=1),
    "diag_embed_dim_range": lambda T: T.diag_embed(T.ones(2, 3), dim1=0, dim2=3),
    "rot90_dim_range": lambda T: T.rot90(T.ones(2, 3), 1, [0, 2]),
    "rot90_same_dims": lambda T: T.rot90(T.ones(2, 3), 1, [1, -1]),
    # heaviside, atleast_nd
    "heaviside_float_values": lambda T: T.heaviside(T.tensor([-1., 0., 2.]), 0.5),
    "heaviside_": lambda T: T.tensor([-1., 0., 2.]).heaviside_(T.tensor(0.5)),
    "heaviside__float": lambda T: T.tensor([-1., 0.]).heaviside_(0.5),
    "heaviside__dtypes": lambda T: T.tensor([-1., 0.]).heaviside_(T.tensor(1)),
    "atleast_1d_tuple": lambda T: T.atleast_1d((T.tensor(1),)),
    "atleast_2d_list": lambda T: T.atleast_2d([T.tensor(1)]),
    "atleast_3d_two": lambda T: T.atleast_3d(T.tensor(1), T.ones(2)),
    "atleast_2d_int": lambda T: T.atleast_2d(5),
    "atleast_1d_int_element": lambda T: T.atleast_1d((T.tensor(1), 5)),
    # diff, meshgrid, vander
    "diff_append_rows": lambda T: T.diff(T.ones(2, 3), append=T.ones(3, 1)),
    "diff_prepend_columns": lambda T: T.diff(T.ones(2, 3), dim=0, prepend=T.ones(1, 4)),
    "meshgrid_column": lambda T: T.meshgrid(T.arange(3).view(3, 1), T.arange(2), indexing="ij"),
    "meshgrid_matrix": lambda T: T.meshgrid(T.tensor([[1.5, 2], [3, 4]]), T.ones(2),
                                            indexing="ij"),
    "meshgrid_scaled": lambda T: T.meshgrid(T.tensor([[0.01, 0.02]]), T.ones(2), indexing="ij"),
    "meshgrid_wide_range": lambda T: T.meshgrid(T.tensor([[1e-3, 1e3]]), T.ones(2),
                                                indexing="ij"),
    "meshgrid_3d": lambda T: T.meshgrid(T.zeros(2, 2, 2), T.ones(2), indexing="ij"),
    "vander_float_N": lambda T: T.vander(T.ones(2), N=2.5),
    "vander_increasing": lambda T: T.vander(_grad(T), N=3, increasing=True),
    "vander_decreasing": lambda T: T.vander(_grad(T)),
    "vander_one_column": lambda T: T.vander(_grad(T), N=1),
    "vander_bool": lambda T: T.vander(T.tensor([True, False]), 3),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pytorch(name):
    assert _outcome(tapegrad, CASES[name]) == _outcome(torch, CASES[name])


def _multi_view_use(T, use):
    h = T.arange(6., requires_grad=True).clone()
    first, second = h.chunk(2)
    rows = h.view(2, 3).unbind(0)
    piece = h.split([2, 4])[0]
    h.mul_(2)
    return use(first, second, rows, piece)


@pytest.mark.parametrize("use", [
    lambda first, second, rows, piece: first + 1,
    lambda first, second, rows, piece: second.sum(),
    lambda first, second, rows, piece: piece * 1,
    lambda first, second, rows, piece: rows[0].grad_fn,
    lambda first, second, rows, piece: first.is_leaf,
    lambda first, second, rows, piece: repr(rows[1]),
    lambda first, second, rows, piece: first.detach(),
])
def test_outputs_of_multi_view_ops_after_their_base_is_modified(use):
    assert _outcome(tapegrad, lambda T: _multi_view_use(T, use)) == \
        _outcome(torch, lambda T: _multi_view_use(T, use))


def test_cat_gradient_of_a_skipped_empty_input():
    grads = []
    for T in (tapegrad, torch):
        empty, x = T.zeros(0, requires_grad=True), T.ones(2, 3, requires_grad=True)
        (T.cat([x, empty, x], 1) * T.arange(12.).view(2, 6)).sum().backward()
        grads.append((empty.grad.shape, x.grad.numpy().tolist()))
    assert grads[0] == (tapegrad.Size([0]), grads[1][1]) and grads[1][0] == torch.Size([0])


def test_compiled_cat_skips_an_empty_input_as_eager():
    function = tapegrad.compile(lambda e, x: (tapegrad.cat([e, x, e], 1) * 2).sum())
    results = []
    for run in (function, lambda e, x: (tapegrad.cat([e, x, e], 1) * 2).sum()):
        empty, x = tapegrad.zeros(0, requires_grad=True), tapegrad.ones(2, 3, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no fallback to eager
            out = run(empty, x)
        out.backward()
        results.append((out.item(), empty.grad.shape, x.grad.numpy().tolist()))
    assert results[0] == results[1]


def test_uint8_condition_of_where_warns_as_pytorch():
    with pytest.warns(UserWarning, match="where received a uint8 condition tensor"):
        tapegrad.where(tapegrad.tensor([1, 0], dtype=tapegrad.uint8), 1., 0.)


def _double(*shape):
    return tapegrad.tensor(np.random.default_rng(0).normal(size=shape), dtype=tapegrad.float64,
                           requires_grad=True)


def test_narrow_copy_gradcheck():
    assert gradcheck(lambda a: tapegrad.narrow_copy(a, 1, 1, 2), (_double(3, 4),))


@pytest.mark.parametrize("offset, dim1, dim2", [(0, -2, -1), (1, 0, 2), (-1, 2, 0)])
def test_diag_embed_gradcheck(offset, dim1, dim2):
    assert gradcheck(lambda a: tapegrad.diag_embed(a, offset, dim1, dim2), (_double(2, 3),))


TENSOR_SPLIT_CALLS = {
    "indices=": lambda lib, x: lib.tensor_split(x, indices=[1], dim=1),
    "sections=": lambda lib, x: lib.tensor_split(x, sections=2, dim=1),
    "tensor_indices_or_sections=": lambda lib, x: lib.tensor_split(
        x, tensor_indices_or_sections=lib.tensor(2), dim=1),
    "method, indices=": lambda lib, x: x.tensor_split(indices=[1]),
    "positional dim": lambda lib, x: lib.tensor_split(x, 2, 1),
    "dim=": lambda lib, x: lib.tensor_split(x, [1, 2], dim=1),
    "indices_or_sections= (no such keyword)": lambda lib, x: lib.tensor_split(
        x, indices_or_sections=2),
    "sections= a list": lambda lib, x: lib.tensor_split(x, sections=[1]),
    "nothing to split by": lambda lib, x: lib.tensor_split(x),
}


@pytest.mark.parametrize("case", TENSOR_SPLIT_CALLS)
def test_tensor_split_takes_pytorchs_keywords(case):
    """Each overload's own keyword (``indices=``, ``sections=``,
    ``tensor_indices_or_sections=``) or the positional argument; anything else is PyTorch's
    invalid-combination error."""
    assert_same(lambda lib: TENSOR_SPLIT_CALLS[case](lib, lib.arange(6).view(2, 3)), torch)


EXPANDS = {
    "new leading size-1 dim": (lambda lib: lib.arange(16), (1, -1), (16, 1)),
    "new dims around kept ones": (lambda lib: lib.ones(3, 1), (1, 2, 1, 3, 1), (0, 0, 3, 1, 1)),
    "0-d to (1, 1)": (lambda lib: lib.tensor(5.0), (1, 1), (0, 0)),
    "transposed": (lambda lib: lib.ones(2, 3).t(), (1, 3, 2), (3, 1, 3)),
    "size-1 dim kept": (lambda lib: lib.ones(2, 1, 3), (2, 4, 3), (3, 0, 1)),
}


@pytest.mark.parametrize("case", EXPANDS)
def test_expand_gives_atens_strides(case):
    """ATen's strides for size-1 dims (numpy's broadcast gives them 0): what ``.stride()`` and
    ``is_contiguous()`` read."""
    make, sizes, strides = EXPANDS[case]
    expanded = make(tapegrad).expand(*sizes)
    assert expanded.stride() == strides
    assert_same(lambda lib: (make(lib).expand(*sizes).stride(),
                             make(lib).expand(*sizes).is_contiguous()), torch)
