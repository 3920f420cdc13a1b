"""Sequence models against PyTorch: the checks and messages of recurrent layers and cells (input
and hidden shapes, packed input), ``pad_sequence``'s broadcasting copy, the attributes of
``RNNBase`` (``mode``, ``all_weights``), ``MultiheadAttention``'s input checks, warnings and
``add_bias_kv`` / ``add_zero_attn``, and ``TransformerEncoder``'s nested-tensor inference path
(zeros at padded positions)."""
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.nn.utils.rnn import pad_sequence

torch = pytest.importorskip("torch")


def _error(library, build):
    """(type name, message) of what ``build(library)`` raises."""
    with pytest.raises(Exception) as info:
        build(library)
    return type(info.value).__name__, str(info.value)


def _same_error(build):
    assert _error(tapegrad, build) == _error(torch, build)


def _copy_parameters(ours, theirs):
    with torch.no_grad():
        for (name, mine), (_, reference) in zip(ours.named_parameters(),
                                                theirs.named_parameters()):
            reference.copy_(torch.tensor(mine.detach().numpy()))


def _close(ours, theirs, atol=1e-6):
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), atol=atol)


# ------------------------------------------------------------------------- recurrent layers

@pytest.mark.parametrize("build", [
    lambda m: m.nn.utils.rnn.pad_sequence([m.ones(2, 3), m.ones(2, 4)]),
    lambda m: m.nn.utils.rnn.pad_sequence([m.ones(2, 3, 5), m.ones(2, 3, 4)], batch_first=True),
    lambda m: m.nn.utils.rnn.pad_sequence([m.ones(2, 1), m.ones(2, 3)]),
    lambda m: m.nn.utils.rnn.pad_sequence([m.ones(2), m.ones(2, 3)]),
], ids=["features", "batch-first", "broadcast-output", "rank"])
def test_pad_sequence_errors_match_pytorch(build):
    _same_error(build)


def test_pad_sequence_broadcasts_and_backpropagates():
    a = tapegrad.ones(2, 3, requires_grad=True)
    b = tapegrad.full((3, 1), 2.0, requires_grad=True)
    out = pad_sequence([a, b])
    assert out.grad_fn.name() == "torch::autograd::CopySlices"
    np.testing.assert_array_equal(out.detach().numpy()[:, 1], np.full((3, 3), 2.0))
    out.sum().backward()
    np.testing.assert_array_equal(b.grad.numpy(), np.full((3, 1), 3.0))


@pytest.mark.parametrize("build", [
    lambda m: m.nn.RNN(3, 4)(m.ones(2, 3, 4, 5)),
    lambda m: m.nn.GRU(3, 4)(m.ones(2, 3, 4, 5)),
    lambda m: m.nn.LSTM(3, 4)(m.ones(3)),
    lambda m: m.nn.GRU(3, 3, 2, bidirectional=True)(m.ones(5, 2, 3), m.zeros(2, 2, 3)),
    lambda m: m.nn.LSTM(3, 3, 2, bidirectional=True)(
        m.ones(5, 2, 3), (m.zeros(2, 2, 3), m.zeros(4, 2, 3))),
], ids=["rnn-4d", "gru-4d", "lstm-1d", "gru-hidden", "lstm-hidden"])
def test_recurrent_layer_errors_match_pytorch(build):
    _same_error(build)


@pytest.mark.parametrize("build", [
    lambda m: m.nn.LSTM(3, 3, 2, bidirectional=True)(
        m.nn.utils.rnn.pack_sequence([m.ones(4, 3), m.ones(2, 3)]),
        (m.zeros(2, 2, 3), m.zeros(2, 2, 3))),
    lambda m: m.nn.LSTM(3, 3, 2, bidirectional=True)(
        m.nn.utils.rnn.pack_sequence([m.ones(4, 3), m.ones(2, 3)]),
        (m.zeros(6, 2, 3), m.zeros(6, 2, 3))),
    lambda m: m.nn.GRU(3, 3, 2, bidirectional=True)(
        m.nn.utils.rnn.pack_sequence([m.ones(4, 3), m.ones(2, 3)]), m.zeros(4, 3, 3)),
    lambda m: m.nn.RNN(3, 3)(
        m.nn.utils.rnn.pack_sequence([m.ones(4, 3), m.ones(2, 3)]), m.zeros(2, 3)),
], ids=["lstm-fewer-states", "lstm-more-states", "gru-batch", "rnn-rank"])
def test_packed_input_hidden_checks_match_pytorch(build):
    _same_error(build)


@pytest.mark.parametrize("build", [
    lambda m: m.nn.LSTMCell(3, 2)(m.ones(2, 4)),
    lambda m: m.nn.GRUCell(3, 2)(m.ones(4)),
    lambda m: m.nn.RNNCell(3, 2)(m.ones(2, 3), m.zeros(2, 5)),
    lambda m: m.nn.LSTMCell(3, 2)(m.ones(2, 3), (m.zeros(2, 2), m.zeros(2, 5))),
    lambda m: m.nn.GRUCell(3, 2)(m.ones(2, 3), m.zeros(3, 2)),
    lambda m: m.nn.RNNCell(3, 2)(m.ones(2, 3), m.zeros(1, 2, 2)),
    lambda m: m.nn.LSTMCell(3, 2)(m.ones(2, 3), (m.zeros(2, 2), m.zeros(1, 2, 2))),
], ids=["input", "unbatched-input", "hidden", "cell-state", "batch", "hidden-3d", "hx-3d"])
def test_cell_errors_match_pytorch(build):
    _same_error(build)


@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("options", [{}, {"bias": False, "num_layers": 2, "bidirectional": True}])
def test_mode_all_weights_and_batch_first_output_match_pytorch(kind, options):
    ours = getattr(nn, kind)(3, 4, batch_first=True, **options)
    theirs = getattr(torch.nn, kind)(3, 4, batch_first=True, **options)
    assert ours.mode == theirs.mode
    assert [[tuple(w.shape) for w in ws] for ws in ours.all_weights] == \
        [[tuple(w.shape) for w in ws] for ws in theirs.all_weights]
    assert ours.all_weights[0][0] is ours.weight_ih_l0
    ours.flatten_parameters()
    _copy_parameters(ours, theirs)
    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 4, 3)
    out, _ = ours(tapegrad.tensor(x))
    expected, _ = theirs(torch.tensor(x))
    _close(out, expected)
    assert out.grad_fn.name() == expected.grad_fn.name()
    assert out.stride() == expected.stride()


def test_rnn_relu_mode():
    assert nn.RNN(1, 1, nonlinearity="relu").mode == "RNN_RELU"


# ----------------------------------------------------------------------- multi-head attention

def _mha(m, **options):
    m.manual_seed(0)
    return m.nn.MultiheadAttention(4, 2, **options)


@pytest.mark.parametrize("build", [
    lambda m: _mha(m)(m.ones(3, 2, 4), m.ones(3, 2, 4), m.ones(3, 2, 4),
                      attn_mask=m.zeros(2, 2)),
    lambda m: _mha(m)(m.ones(3, 2, 4), m.ones(3, 2, 4), m.ones(3, 2, 4),
                      attn_mask=m.zeros(2, 3, 3)),
    lambda m: _mha(m)(m.ones(3, 2, 4), m.ones(3, 2, 4), m.ones(3, 2, 4),
                      key_padding_mask=m.zeros(2, 3, dtype=m.long)),
    lambda m: _mha(m)(m.ones(1, 3, 2, 4), m.ones(3, 2, 4), m.ones(3, 2, 4)),
    lambda m: _mha(m)(m.ones(3, 2, 4), m.ones(3, 2, 4), m.ones(2, 2, 4)),
    lambda m: _mha(m)(m.ones(3, 2, 5), m.ones(3, 2, 5), m.ones(3, 2, 5)),
    lambda m: _mha(m)(m.ones(3, 2, 4), m.ones(3, 2, 4), m.ones(3, 2, 4),
                      key_padding_mask=m.zeros(2, 4, dtype=m.bool)),
    lambda m: _mha(m)(m.ones(3, 4), m.ones(3, 4), m.ones(3, 4), attn_mask=m.zeros(3, 3, 3)),
    lambda m: _mha(m)(m.ones(3, 2, 4), m.ones(3, 4), m.ones(3, 4)),
    lambda m: _mha(m, kdim=3, vdim=5)(m.ones(3, 2, 4), m.ones(3, 2, 3), m.ones(2, 2, 5)),
    lambda m: m.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0)(
        m.ones(3, 2, 4), src_key_padding_mask=m.zeros(2, 4, dtype=m.bool)),
], ids=["mask-2d", "mask-3d", "long-padding", "query-4d", "key-value", "embed-dim",
        "padding-length", "unbatched-mask-3d", "key-rank", "separate-key-value", "encoder-layer"])
def test_attention_errors_match_pytorch(build):
    _same_error(build)


def _warnings_of(library, build):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        build(library)
    return [str(w.message) for w in caught]


@pytest.mark.parametrize("build", [
    lambda m: _mha(m)(m.ones(3, 2, 4), m.ones(3, 2, 4), m.ones(3, 2, 4),
                      key_padding_mask=m.zeros(2, 3, dtype=m.bool), attn_mask=m.zeros(3, 3)),
    lambda m: m.nn.TransformerEncoder(m.nn.TransformerEncoderLayer(4, 2, 8), 2),
    lambda m: m.nn.TransformerEncoder(
        m.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True, norm_first=True), 2),
    lambda m: m.nn.TransformerEncoder(
        m.nn.TransformerEncoderLayer(4, 1, 8, batch_first=True), 2),
    lambda m: m.nn.TransformerEncoder(
        m.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True, activation=m.tanh), 2),
    lambda m: m.nn.TransformerEncoder(m.nn.TransformerEncoderLayer(4, 2, 8), 2,
                                      enable_nested_tensor=False),
], ids=["mismatched-masks", "not-batch-first", "norm-first", "odd-heads", "activation",
        "disabled"])
def test_warnings_match_pytorch(build):
    assert _warnings_of(tapegrad, build) == _warnings_of(torch, build)


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("masks", [False, True])
def test_bias_kv_and_zero_attention_match_pytorch(need_weights, masks):
    ours = nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True, batch_first=True)
    theirs = torch.nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True,
                                         batch_first=True)
    assert [(n, tuple(p.shape)) for n, p in ours.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    _copy_parameters(ours, theirs)
    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4)
    kwargs = {}
    if masks:
        kwargs = {"attn_mask": np.triu(np.ones((3, 3), bool), 1),
                  "key_padding_mask": np.array([[False, False, True], [False] * 3])}
    ours_x, theirs_x = tapegrad.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    out, weights = ours(ours_x, ours_x, ours_x, need_weights=need_weights,
                        **{k: tapegrad.tensor(v) for k, v in kwargs.items()})
    expected, expected_weights = theirs(theirs_x, theirs_x, theirs_x, need_weights=need_weights,
                                        **{k: torch.tensor(v) for k, v in kwargs.items()})
    _close(out, expected)
    if need_weights:
        _close(weights, expected_weights)
        assert weights.shape == expected_weights.shape == (2, 3, 5)
    out.sum().backward()
    expected.sum().backward()
    _close(ours_x.grad, theirs_x.grad, atol=1e-5)
    _close(ours.bias_k.grad, theirs.bias_k.grad, atol=1e-5)


def test_bias_kv_initialisation_is_xavier_normal():
    tapegrad.manual_seed(0)
    attention = nn.MultiheadAttention(64, 4, add_bias_kv=True)
    std = attention.bias_k.detach().numpy().std()
    assert 0.1 < std < 0.25  # xavier normal of (1, 1, 64): sqrt(2 / (64 + 64)) = 0.125


# --------------------------------------------------------------- the nested-tensor inference path

def _encoder(m, nested=True):
    layer = m.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True)
    encoder = m.nn.TransformerEncoder(layer, 2, enable_nested_tensor=nested)
    with m.no_grad():
        for i, p in enumerate(encoder.parameters()):
            p.copy_(m.linspace(-0.5, 0.5, p.numel()).reshape(p.shape).roll(i))
    return encoder.eval()


@pytest.mark.parametrize("grad", [False, True])
@pytest.mark.parametrize("nested", [False, True])
@pytest.mark.parametrize("padding", [[[False, False, False, True, True], [False] * 5],
                                     [[False, True, False, False, False], [False] * 5]],
                         ids=["left-aligned", "not-left-aligned"])
def test_encoder_inference_zeros_padded_positions_as_pytorch(grad, nested, padding):
    x = np.linspace(-1, 1, 40, dtype=np.float32).reshape(2, 5, 4)
    outputs = []
    for m in (tapegrad, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with m.set_grad_enabled(grad):
                outputs.append(_encoder(m, nested)(m.tensor(x),
                                                   src_key_padding_mask=m.tensor(padding)))
    ours, theirs = outputs
    _close(ours, theirs.to_padded_tensor(0.0) if theirs.is_nested else theirs, atol=1e-5)
    assert not ours.is_nested


def test_encoder_fast_path_switch():
    x, padding = tapegrad.ones(1, 2, 4), tapegrad.tensor([[False, True]])
    encoder = _encoder(tapegrad)
    with tapegrad.no_grad():
        assert encoder(x, src_key_padding_mask=padding)[0, 1].abs().sum().item() == 0
        tapegrad.backends.mha.set_fastpath_enabled(False)
        try:
            assert encoder(x, src_key_padding_mask=padding)[0, 1].abs().sum().item() > 0
        finally:
            tapegrad.backends.mha.set_fastpath_enabled(True)
