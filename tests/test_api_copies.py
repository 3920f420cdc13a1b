"""PyTorch's lower-level public functions: ``*_copy``, ``unsafe_*`` splits, fake quantization,
``native_*``, recurrent cells, SparseAdam, ``sym_*`` and process flags.

Independent truths first (gradcheck in float64, analytic values, layouts), then the same cases
against PyTorch where it is installed.
"""
import math
import warnings

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

T = tapegrad


def leaf(*shape, dtype=T.float64):
    values = np.sin(np.arange(int(np.prod(shape)), dtype=np.float64) * 0.7 + 0.3).reshape(shape)
    return T.tensor(values, dtype=dtype, requires_grad=True)


# ------------------------------------------------------------------------------------ copies

COPIES = {
    "diagonal_copy": lambda x: T.diagonal_copy(x, 1),
    "permute_copy": lambda x: T.permute_copy(x, (1, 0)),
    "t_copy": T.t_copy,
    "transpose_copy": lambda x: T.transpose_copy(x, 0, 1),
    "view_copy": lambda x: T.view_copy(x, (4, 3)),
    "unsqueeze_copy": lambda x: T.unsqueeze_copy(x, 1),
    "squeeze_copy": lambda x: T.squeeze_copy(x.unsqueeze(0)),
    "select_copy": lambda x: T.select_copy(x, 1, 2),
    "slice_copy": lambda x: T.slice_copy(x, 1, 1, 4, 2),
    "expand_copy": lambda x: T.expand_copy(x, (2, 3, 4)),
    "alias_copy": T.alias_copy,
    "unfold_copy": lambda x: T.unfold_copy(x, 1, 2, 1),
    "as_strided_copy": lambda x: T.as_strided_copy(x, (2, 2), (1, 2), 1),
    "unbind_copy": lambda x: T.unbind_copy(x, 1),
    "split_copy": lambda x: T.split_copy(x, 2, 1),
    "split_with_sizes_copy": lambda x: T.split_with_sizes_copy(x, [1, 2]),
}


@pytest.mark.parametrize("name", sorted(COPIES))
def test_copies_are_contiguous_new_memory_with_the_views_gradient(name):
    x = leaf(3, 4)
    out = COPIES[name](x)
    pieces = out if isinstance(out, tuple) else (out,)
    for piece in pieces:
        assert piece.is_contiguous() and piece._base is None
        assert not np.shares_memory(piece._array, x._array)
        base_name = type(piece.grad_fn).__name__
        assert base_name.endswith("Backward0_copy"), base_name
    assert T.autograd.gradcheck(lambda t: COPIES[name](t), (x,))


def test_copies_keep_no_history_under_no_grad_and_a_copy_is_independent():
    x = leaf(3, 4)
    with T.no_grad():
        y = T.t_copy(x)
    assert not y.requires_grad and y.grad_fn is None
    z = T.permute_copy(x.detach(), (1, 0))
    z.zero_()
    assert x.abs().sum().item() > 0


def test_detach_copy_refuses_backward():
    x = leaf(2, 3)
    y = T.detach_copy(x)
    assert y.requires_grad and type(y.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::detach_copy is not implemented"):
        y.sum().backward()


def test_unsafe_splits_share_memory_without_view_tracking():
    x = leaf(4, 3)
    for pieces, name in ((T.unsafe_split(x, 3), "UnsafeSplitBackward0"),
                         (x.unsafe_chunk(2, 1), "UnsafeSplitBackward0"),
                         (T.unsafe_split_with_sizes(x, [1, 3]), "UnsafeSplitWithSizesBackward0")):
        assert all(p._base is None and np.shares_memory(p._array, x._array) for p in pieces)
        assert {type(p.grad_fn).__name__ for p in pieces} == {name}
    assert T.autograd.gradcheck(lambda t: T.unsafe_split(t, 3)[1] * 2, (x,))


# ---------------------------------------------------------------------------- fake quantize

def test_fake_quantize_per_tensor_rounds_half_to_even_and_clamps():
    x = T.tensor([-1.0, -0.375, -0.125, 0.125, 0.375, 3.0], requires_grad=True)
    y = T.fake_quantize_per_tensor_affine(x, 0.25, 1, -2, 5)
    # x / 0.25 = -4, -1.5, -0.5, 0.5, 1.5, 12 -> rint -4, -2, -0, 0, 2, 12; +1; clamp to [-2, 5]
    np.testing.assert_allclose(y.detach().numpy(), [-0.75, -0.5, 0.0, 0.0, 0.5, 1.0])
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0, 1, 1, 1, 1, 0])  # straight through
    assert type(y.grad_fn).__name__ == "FakeQuantizePerTensorAffineCachemaskBackward0"


def test_fake_quantize_per_channel_uses_each_channels_grid():
    w = T.tensor([[0.26, 0.74], [0.26, 0.74]], requires_grad=True)
    y = T.fake_quantize_per_channel_affine(w, T.tensor([0.5, 0.25]),
                                           T.tensor([0, 0], dtype=T.int32), 1, -128, 127)
    np.testing.assert_allclose(y.detach().numpy(), [[0.5, 0.75], [0.5, 0.75]])
    with pytest.raises(RuntimeError, match="Zero-point must be Int32, Float or Half, found Long"):
        T.fake_quantize_per_channel_affine(w, T.tensor([0.5, 0.25]), T.tensor([0, 0]), 1, 0, 9)


# ---------------------------------------------------------------------------------- natives

def test_native_layer_norm_statistics():
    x = leaf(3, 4)
    out, mean, rstd = T.native_layer_norm(x, [4], None, None, 1e-5)
    data = x.detach().numpy()
    np.testing.assert_allclose(mean.numpy()[:, 0], data.mean(1))
    np.testing.assert_allclose(rstd.numpy()[:, 0], 1 / np.sqrt(data.var(1) + 1e-5))
    assert type(out.grad_fn).__name__ == "NativeLayerNormBackward0" and not mean.requires_grad


def test_native_batch_norm_updates_running_stats_and_returns_batch_ones():
    x = leaf(2, 3, 4)
    running_mean, running_var = T.zeros(3, dtype=T.float64), T.ones(3, dtype=T.float64)
    out, mean, invstd = T.native_batch_norm(x, None, None, running_mean, running_var, True, 0.1,
                                            1e-5)
    data = x.detach().numpy()
    np.testing.assert_allclose(mean.numpy(), data.mean((0, 2)))
    np.testing.assert_allclose(invstd.numpy(), 1 / np.sqrt(data.var((0, 2)) + 1e-5))
    np.testing.assert_allclose(running_mean.numpy(), 0.1 * data.mean((0, 2)))
    _, empty_mean, _ = T.native_batch_norm(x, None, None, running_mean, running_var, False, 0.1,
                                           1e-5)
    assert empty_mean.shape == (0,)


def test_native_group_norm_statistics_share_the_outputs_node_but_pass_no_gradient():
    x = leaf(2, 3, 4)
    out, mean, rstd = T.native_group_norm(x, None, None, 2, 3, 4, 3, 1e-5)
    assert mean.grad_fn is out.grad_fn is rstd.grad_fn
    assert (mean.output_nr, rstd.output_nr) == (1, 2)
    np.testing.assert_allclose(mean.detach().numpy()[:, 0], x.detach().numpy()[:, 0].mean(1))
    (mean.sum() + rstd.sum()).backward(retain_graph=True)
    assert x.grad is None
    out.pow(2).sum().backward()
    assert x.grad is not None


def test_native_dropout_keeps_everything_outside_training():
    x = leaf(2, 3)
    out, mask = T.native_dropout(x, 0.5, False)
    assert mask.dtype == T.bool and bool(mask.all())
    assert type(out.grad_fn).__name__ == "NativeDropoutBackward0"
    out, mask = T.native_dropout(x, 1.0, True)
    assert not bool(mask.any()) and out.abs().sum().item() == 0


def test_frobenius_and_nuclear_norms():
    x = leaf(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fro = T.frobenius_norm(x, (0, 1))
        nuc = T.nuclear_norm(x)
    data = x.detach().numpy()
    assert fro.item() == pytest.approx(np.linalg.norm(data))
    assert nuc.item() == pytest.approx(np.linalg.svd(data, compute_uv=False).sum())
    assert type(fro.grad_fn).__name__ == "NormBackward1"
    with pytest.raises(RuntimeError, match="Expected at most 2 dimensions"):
        T.frobenius_norm(x, (0, 1, 1))


def test_cells_match_the_modules():
    cell = T.nn.LSTMCell(3, 2)
    x, h, c = leaf(4, 3), leaf(4, 2), leaf(4, 2)
    cell = cell.double()
    expected = cell(x, (h, c))
    got = T.lstm_cell(x, (h, c), cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)
    for a, b in zip(got, expected):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy())
    gru = T.nn.GRUCell(3, 2).double()
    np.testing.assert_allclose(
        T.gru_cell(x, h, gru.weight_ih, gru.weight_hh, gru.bias_ih, gru.bias_hh).detach().numpy(),
        gru(x, h).detach().numpy())
    assert T.autograd.gradcheck(lambda a, b: T.rnn_tanh_cell(a, b, T.ones(2, 3, dtype=T.float64),
                                                             T.ones(2, 2, dtype=T.float64)),
                                (x, h))


def test_fill_gives_the_value_its_gradient_sum():
    x, value = leaf(2, 3), T.tensor(2.5, dtype=T.float64, requires_grad=True)
    out = T.fill(x, value)
    assert type(out.grad_fn).__name__ == "FillBackward1"
    out.sum().backward()
    assert value.grad.item() == 6 and x.grad.abs().sum().item() == 0
    assert type(T.fill(x, 1).grad_fn).__name__ == "FillBackward0"


def test_as_strided_scatter_gradients():
    base, src = leaf(6), leaf(2, 2)
    out = T.as_strided_scatter(base, src, (2, 2), (1, 2), 1)
    np.testing.assert_allclose(out.detach().numpy()[[1, 3, 2, 4]], src.detach().numpy().ravel())
    assert T.autograd.gradcheck(lambda a, b: T.as_strided_scatter(a, b, (2, 2), (1, 2), 1),
                                (base, src))


def test_empty_permuted_lays_dimensions_out_in_the_given_order():
    assert T.empty_permuted((2, 3, 4), (2, 0, 1)).stride() == (3, 1, 6)
    with pytest.raises(RuntimeError, match="Duplicate dim not allowed"):
        T.empty_permuted((2, 3), (0, 0))


def test_resize_and_as_strided_in_place():
    x = T.arange(6.0)
    with pytest.warns(UserWarning, match="non-inplace resize is deprecated"):
        y = x.resize(2, 3)
    assert y.shape == (2, 3) and np.shares_memory(y._array, x._array)
    h = T.arange(6.0, requires_grad=True) * 1
    with pytest.warns(UserWarning):
        r = h.resize(3, 2)
    r.sum().backward()
    z = T.arange(6.0) * 1
    assert z.as_strided_((2, 2), (1, 2)) is z and z.tolist() == [[0.0, 2.0], [1.0, 3.0]]


# ------------------------------------------------------------------------------ SparseAdam

def test_sparse_adam_updates_only_the_stored_rows():
    weight = T.nn.Parameter(T.zeros(4, 2))
    optimizer = T.optim.SparseAdam([weight], lr=0.1)
    weight._grad = T.sparse_coo_tensor(T.tensor([[1, 3, 1]]), T.ones(3, 2), (4, 2))
    optimizer.step()
    # first step of Adam: every stored row moves by -lr (row 1's two entries coalesced into one)
    np.testing.assert_allclose(weight.detach().numpy(),
                               [[0, 0], [-0.1, -0.1], [0, 0], [-0.1, -0.1]], rtol=1e-6)
    assert optimizer.state[weight]["step"] == 1
    weight.grad = T.ones(4, 2)
    with pytest.raises(RuntimeError, match="SparseAdam does not support dense gradients"):
        optimizer.step()
    with pytest.raises(ValueError, match="Invalid learning rate: 0.0"):
        T.optim.SparseAdam([weight], lr=0.0)


# --------------------------------------------------------------------------- sym_* and flags

def test_sym_functions_on_numbers():
    assert T.sym_int(-3.7) == -3 and T.sym_float(2) == 2.0
    assert T.sym_max(2, 3.0) == 3.0 and isinstance(T.sym_max(2, 3.0), float)
    assert T.sym_min(2, 3) == 2 and isinstance(T.sym_min(2, 3), int)
    assert T.sym_ite(False, 1, 2) == 2 and T.sym_not(True) is False
    assert T.sym_sum([1, 2, 3]) == 6 and T.sym_sqrt(9) == 3.0
    with pytest.raises(AssertionError, match="expected SymBool or bool"):
        T.sym_ite(1, 1, 2)


def test_deterministic_debug_mode_round_trips():
    try:
        T.set_deterministic_debug_mode("warn")
        assert T.get_deterministic_debug_mode() == 1
        assert T.is_deterministic_algorithms_warn_only_enabled()
        T.set_deterministic_debug_mode(2)
        assert T.are_deterministic_algorithms_enabled()
        with pytest.raises(RuntimeError, match="expected 0, 1, or 2, but got 5"):
            T.set_deterministic_debug_mode(5)
    finally:
        T.set_deterministic_debug_mode(0)
    assert T.get_deterministic_debug_mode() == 0


def test_set_anomaly_enabled():
    try:
        T.set_anomaly_enabled(True, False)
        assert T.is_anomaly_enabled() and not T.is_anomaly_check_nan_enabled()
    finally:
        T.set_anomaly_enabled(False)


def test_compiled_copies_and_statistics_follow_new_inputs():
    """Made by recorded operations while a compiler traces, the copies and the statistics are
    not constants of the trace: a second call with other values gives eager's results."""
    def fn(a):
        out = T.t_copy(a) * 2 + T.unsafe_chunk(a, 2, 1)[0].sum()
        mean = T.native_layer_norm(a, [4], None, None, 1e-5)[1]
        return out.sum() + T.diagonal_copy(a).pow(2).sum() + mean.sum() + T.fill(a, 2.0).sum()

    compiled = T.compile(fn)
    for scale in (1.0, 3.0):
        x, y = leaf(3, 4, dtype=T.float32), leaf(3, 4, dtype=T.float32)
        got, want = compiled(x * scale), fn(y * scale)
        got.backward()
        want.backward()
        assert got.item() == pytest.approx(want.item(), rel=1e-5)
        np.testing.assert_allclose(x.grad.numpy(), y.grad.numpy(), rtol=1e-5)


# --------------------------------------------------------------------------- against PyTorch

torch = pytest.importorskip("torch")


def _int_data(lib):
    return lib.arange(12.0).reshape(3, 4).sin()


AGAINST_TORCH = {
    "diagonal_copy": lambda lib: lib.diagonal_copy(_int_data(lib), -1),
    "slice_copy": lambda lib: lib.slice_copy(_int_data(lib), 1, -3, None, 2),
    "split_copy": lambda lib: lib.split_copy(_int_data(lib), 3, 1),
    "fake_quantize_per_tensor": lambda lib: lib.fake_quantize_per_tensor_affine(
        _int_data(lib), 0.1, 3, -5, 8),
    "fake_quantize_bad_range": lambda lib: lib.fake_quantize_per_tensor_affine(
        _int_data(lib), 0.1, 3, 5, 4),
    "fake_quantize_zero_point_outside": lambda lib: lib.fake_quantize_per_tensor_affine(
        _int_data(lib), 0.1, 30, 0, 15),
    "fake_quantize_per_channel": lambda lib: lib.fake_quantize_per_channel_affine(
        _int_data(lib), lib.tensor([0.1, 0.2, 0.3, 0.4]), lib.tensor([0, 1, -1, 2],
                                                                      dtype=lib.int32),
        1, -4, 4),
    "fake_quantize_bad_channels": lambda lib: lib.fake_quantize_per_channel_affine(
        _int_data(lib), lib.tensor([0.1, 0.2]), lib.tensor([0, 1], dtype=lib.int32), 1, -4, 4),
    "native_layer_norm": lambda lib: lib.native_layer_norm(_int_data(lib), [4], None, None,
                                                           1e-5),
    "native_group_norm": lambda lib: lib.native_group_norm(_int_data(lib).reshape(1, 3, 4),
                                                           None, None, 1, 3, 4, 3, 1e-5),
    "nuclear_norm_keepdim": lambda lib: lib.nuclear_norm(_int_data(lib), True),
    "fill": lambda lib: lib.fill(_int_data(lib), lib.tensor(2.0)),
    "fill_bad_value": lambda lib: lib.fill(_int_data(lib), lib.ones(2)),
    "constant_pad_nd": lambda lib: lib.constant_pad_nd(_int_data(lib), (1, -1, 2, 0), 7.0),
    "constant_pad_nd_odd": lambda lib: lib.constant_pad_nd(_int_data(lib), (1, 1, 1)),
    "as_strided_scatter_out_of_bounds": lambda lib: lib.as_strided_scatter(
        lib.zeros(4), lib.ones(2, 2), (2, 2), (1, 2), 3),
    "as_strided_scatter_2d": lambda lib: lib.as_strided_scatter(lib.zeros(2, 3), lib.ones(2),
                                                                (2,), (4,)),
    "unsafe_split_sizes_refused": lambda lib: lib.unsafe_split(lib.ones(4), [1, 3]),
    "unsafe_chunk_float_refused": lambda lib: lib.unsafe_chunk(lib.ones(4), 1.5),
    "empty_permuted_bad": lambda lib: lib.empty_permuted((2, 3), (0,)),
    "max_pool1d_with_indices": lambda lib: lib.max_pool1d_with_indices(
        _int_data(lib).reshape(1, 3, 4), 2),
    "gru_cell": lambda lib: lib.gru_cell(_int_data(lib)[:, :3], _int_data(lib)[:, 1:3],
                                         _int_data(lib)[:, :3].repeat(2, 1),
                                         _int_data(lib)[:, :2].repeat(2, 1)),
    "lstm_cell": lambda lib: lib.lstm_cell(_int_data(lib)[:2, :3],
                                           (_int_data(lib)[:2, :2], _int_data(lib)[1:, :2]),
                                           _int_data(lib)[:, :3].repeat(3, 1)[:8],
                                           _int_data(lib)[:, :2].repeat(3, 1)[:8],
                                           _int_data(lib).reshape(-1)[:8]),
    "lstm_cell_bad_weight": lambda lib: lib.lstm_cell(
        _int_data(lib)[:2, :3], (_int_data(lib)[:2, :2], _int_data(lib)[1:, :2]),
        _int_data(lib)[:, :3].repeat(2, 1), _int_data(lib)[:, :2].repeat(3, 1)[:8]),
    "gru_cell_bad_hidden": lambda lib: lib.gru_cell(_int_data(lib)[:, :3], _int_data(lib),
                                                    _int_data(lib)[:, :3].repeat(2, 1),
                                                    _int_data(lib)[:, :2].repeat(2, 1)),
    "rnn_cell_bad_batch": lambda lib: lib.rnn_relu_cell(_int_data(lib)[:, :3],
                                                        _int_data(lib)[:2, :2],
                                                        _int_data(lib)[:2, :3],
                                                        _int_data(lib)[:2, :2]),
    "sparse_adam_bad_beta": lambda lib: lib.optim.SparseAdam([lib.zeros(2, requires_grad=True)],
                                                             betas=(0.9, 1.0)),
    "deterministic_mode_type": lambda lib: lib.set_deterministic_debug_mode(1.5),
}


@pytest.mark.parametrize("name", sorted(AGAINST_TORCH))
def test_same_as_torch(name):
    assert_same(AGAINST_TORCH[name], torch)


def _names_of_nodes(lib, case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = case(lib)
    return [type(t.grad_fn).__name__ for t in (out if isinstance(out, tuple) else (out,))]


NODE_CASES = {
    "copies": lambda lib: tuple(f(lib.arange(12.0, requires_grad=True).reshape(3, 4)) for f in (
        lib.t_copy, lambda x: lib.select_copy(x, 0, 1), lambda x: lib.view_copy(x, (12,)),
        lambda x: lib.expand_copy(x[:1], (2, 4)), lambda x: lib.unfold_copy(x, 0, 2, 1))),
    "unsafe": lambda lib: lib.unsafe_chunk(lib.arange(4.0, requires_grad=True) * 1, 2),
    "quantize_tensor_qparams": lambda lib: lib.fake_quantize_per_tensor_affine(
        lib.ones(3, requires_grad=True), lib.tensor(0.5), lib.tensor(0), 0, 9),
    "native_dropout": lambda lib: lib.native_dropout(lib.ones(3, requires_grad=True), 0.2,
                                                     False)[0],
    "native_group_norm": lambda lib: lib.native_group_norm(
        lib.ones(2, 2, 3, requires_grad=True), None, None, 2, 2, 3, 1, 1e-5),
    "as_strided_": lambda lib: (lib.arange(6.0, requires_grad=True) * 1).as_strided_((2,), (2,)),
    "prelu_hardshrink": lambda lib: (lib.ones(2, 2, requires_grad=True).prelu(lib.ones(1)),
                                     lib.ones(2, requires_grad=True).hardshrink()),
}


@pytest.mark.parametrize("name", sorted(NODE_CASES))
def test_node_names_as_torch(name):
    assert _names_of_nodes(tapegrad, NODE_CASES[name]) == _names_of_nodes(torch, NODE_CASES[name])


def test_sym_functions_as_torch():
    for args in ((3, 2.5), (2, 3), (True, 2), (-1.5, -1)):
        for fn in ("sym_max", "sym_min"):
            ours, theirs = getattr(T, fn)(*args), getattr(torch, fn)(*args)
            assert ours == theirs and type(ours) is type(theirs)
    assert T.sym_int(7.9) == torch.sym_int(7.9) and T.sym_sum([]) == torch.sym_sum([])
    assert math.isclose(T.sym_sqrt(2), torch.sym_sqrt(2))
