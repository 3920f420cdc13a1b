"""Attention and transformer details that programs written for PyTorch see: which
scaled-dot-product-attention kernel runs (its node, its errors under ``sdpa_kernel``), the flash
kernel's gradients, the blocks subclasses override, causal-mask detection, ``unpad_sequence``,
scatter's rank checks, label smoothing's range and the C++ functions of ``nn.functional``.
Compared with PyTorch where it is installed; analytic and finite-difference truths without."""
import copy
import pickle
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck
from tapegrad.nn import functional as F
from tapegrad.nn.attention import SDPBackend, sdpa_kernel

from same_as_torch import assert_same


def _leaf(library, shape, seed, dtype=None):
    values = np.random.default_rng(seed).standard_normal(shape)
    return library.tensor(values, dtype=dtype or library.float64, requires_grad=True)


def _qkv(library, query_heads=2, key_heads=2, length=3, source_length=4):
    return (_leaf(library, (2, query_heads, length, 5), 0),
            _leaf(library, (2, key_heads, source_length, 5), 1),
            _leaf(library, (2, key_heads, source_length, 5), 2))


# ------------------------------------------------------------------ the kernel PyTorch picks

KERNEL_CASES = {
    "4-d": lambda m, q, k, v: m.nn.functional.scaled_dot_product_attention(q, k, v),
    "3-d": lambda m, q, k, v: m.nn.functional.scaled_dot_product_attention(q[0], k[0], v[0]),
    "dropout": lambda m, q, k, v: m.nn.functional.scaled_dot_product_attention(
        q, k, v, dropout_p=0.5),
    "2-d mask": lambda m, q, k, v: m.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=m.zeros(3, 4)),
    "3-d mask": lambda m, q, k, v: m.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=m.zeros(2, 3, 4)),
    "mask needing grad": lambda m, q, k, v: m.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=m.zeros(3, 4, requires_grad=True)),
    "mask and causal": lambda m, q, k, v: m.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=m.zeros(1, 1, 3, 4), is_causal=True),
    "head sizes differ": lambda m, q, k, v: m.nn.functional.scaled_dot_product_attention(
        q, k, v[..., :2]),
    "transposed rows": lambda m, q, k, v: m.nn.functional.scaled_dot_product_attention(
        q.detach().transpose(-1, -2).contiguous().transpose(-1, -2), k, v),
    "batches differ": lambda m, q, k, v: m.nn.functional.scaled_dot_product_attention(
        q, k[:1], v[:1]),
}


@pytest.mark.parametrize("name", sorted(KERNEL_CASES))
def test_the_kernel_and_its_node_are_pytorchs(name):
    torch = pytest.importorskip("torch")

    def node(m):
        return KERNEL_CASES[name](m, *_qkv(m)).grad_fn.name()
    assert node(tapegrad) == node(torch)


def test_flash_node_has_an_edge_per_input_and_none_for_one_without_grad():
    q, k, v = _qkv(tapegrad)
    out = F.scaled_dot_product_attention(q.detach(), k, v)
    assert type(out.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
    edges = out.grad_fn.next_functions
    assert edges[0] == (None, 0) and len(edges) == 3
    assert all(type(f).__name__ == "AccumulateGrad" for f, _ in edges[1:])


# name: (the backends allowed, by name, and the arguments from q, k, v)
SELECTION_CASES = {
    "efficient only": (["EFFICIENT_ATTENTION"], lambda q, k, v: (q, k, v, {})),
    "cudnn only": (["CUDNN_ATTENTION"], lambda q, k, v: (q, k, v, {})),
    "flash only, 3-d": (["FLASH_ATTENTION"], lambda q, k, v: (q[0], k[0], v[0], {})),
    "flash only, dropout": (["FLASH_ATTENTION"], lambda q, k, v: (q, k, v, {"dropout_p": 0.1})),
    "flash only, heads": (["FLASH_ATTENTION"], lambda q, k, v: (q, k[:, :1], v[:, :1], {})),
    "flash only, gqa": (["FLASH_ATTENTION"],
                        lambda q, k, v: (q, k[:, :1], v[:, :1], {"enable_gqa": True})),
    "math only, mask and causal": (["MATH"], lambda q, k, v: (
        q, k, v, {"attn_mask": q.new_zeros(3, 4), "is_causal": True})),
    "flash only, 3-d mask": (["FLASH_ATTENTION"], lambda q, k, v: (
        q, k, v, {"attn_mask": q.new_zeros(1, 3, 4)})),
    "flash and math, 3-d": (["FLASH_ATTENTION", "MATH"], lambda q, k, v: (q[0], k[0], v[0], {})),
}


@pytest.mark.parametrize("name", sorted(SELECTION_CASES))
def test_sdpa_kernel_choice_errors_and_warnings_are_pytorchs(name):
    torch = pytest.importorskip("torch")
    backends, arguments = SELECTION_CASES[name]

    def run(m):
        q, k, v, options = arguments(*_qkv(m))
        allowed = [getattr(m.nn.attention.SDPBackend, name) for name in backends]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with m.nn.attention.sdpa_kernel(allowed):
                try:
                    outcome = m.nn.functional.scaled_dot_product_attention(
                        q, k, v, **options).grad_fn.name()
                except RuntimeError as error:
                    outcome = str(error)
        return outcome, [str(w.message).split(" (Triggered internally")[0] for w in caught]
    assert run(tapegrad) == run(torch)


def test_no_viable_backend_without_pytorch():
    q, k, v = _qkv(tapegrad)
    with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION), pytest.raises(
            RuntimeError, match="No viable backend for scaled_dot_product_attention"):
        F.scaled_dot_product_attention(q, k, v)
    assert F.scaled_dot_product_attention(q, k, v).grad_fn is not None  # flags restored


FLASH_OPTIONS = {
    "plain": {},
    "causal": {"is_causal": True},
    "bool mask": {"attn_mask": "bool"},
    "float mask and causal": {"attn_mask": "float", "is_causal": True, "scale": 0.7},
    "grouped heads": {"enable_gqa": True},
}


def _flash_case(name):
    options = dict(FLASH_OPTIONS[name])

    def case(m):
        q, k, v = _qkv(m, key_heads=1 if options.get("enable_gqa") else 2)
        arguments = dict(options)
        if arguments.get("attn_mask") == "bool":
            arguments["attn_mask"] = m.tensor([[True, False, True, True], [False] * 4,
                                               [True, True, True, False]])
        elif arguments.get("attn_mask") == "float":
            values = np.random.default_rng(5).standard_normal((2, 1, 1, 4))
            arguments["attn_mask"] = m.tensor(values)
        out = m.nn.functional.scaled_dot_product_attention(q, k, v, **arguments)
        weights = m.tensor(np.random.default_rng(6).standard_normal(tuple(out.shape)))
        return (out, *m.autograd.grad((out * weights).sum(), (q, k, v)))
    return case


@pytest.mark.parametrize("name", sorted(FLASH_OPTIONS))
def test_flash_values_and_gradients_are_pytorchs(name):
    assert_same(_flash_case(name), pytest.importorskip("torch"))


@pytest.mark.parametrize("name", sorted(FLASH_OPTIONS))
def test_flash_gradients_match_finite_differences(name):
    options = FLASH_OPTIONS[name]
    q, k, v = _qkv(tapegrad, key_heads=1 if options.get("enable_gqa") else 2)
    mask = {"bool": tapegrad.ones(3, 4, dtype=tapegrad.bool).tril(1),
            "float": tapegrad.zeros(2, 1, 1, 4, dtype=tapegrad.float64) - 0.5}.get(
        options.get("attn_mask"))
    arguments = {**options, "attn_mask": mask}

    def attention(q, k, v):
        out = F.scaled_dot_product_attention(q, k, v, **arguments)
        assert type(out.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
        return out
    assert gradcheck(attention, (q, k, v))


def test_flash_matches_the_math_kernel_and_rows_masked_entirely_are_zero():
    q, k, v = _qkv(tapegrad)
    mask = tapegrad.tensor([[True, True, False, False], [False] * 4, [True] * 4])
    flash = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    with sdpa_kernel(SDPBackend.MATH):
        math_path = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert type(math_path.grad_fn).__name__ != type(flash.grad_fn).__name__
    np.testing.assert_allclose(flash.detach().numpy(), math_path.detach().numpy(), atol=1e-12)
    assert not flash.detach().numpy()[:, :, 1].any()


def test_flash_gradient_is_not_differentiable_again_as_in_pytorch():
    q, k, v = _qkv(tapegrad)
    out = F.scaled_dot_product_attention(q, k, v)
    (grad_q,) = tapegrad.autograd.grad(out.sum(), q, create_graph=True)
    with pytest.raises(RuntimeError, match="derivative for aten::_scaled_dot_product_flash_"
                                           "attention_for_cpu_backward is not implemented"):
        grad_q.sum().backward()


def test_empty_attention_is_zeros_connected_to_the_inputs():
    def case(m):
        q, k, v = _qkv(m, source_length=0)
        out = m.nn.functional.scaled_dot_product_attention(q, k[:, :, :0], v[:, :, :0])
        return (out, *m.autograd.grad(out.sum(), (q, k, v)), out.grad_fn.name())
    torch = pytest.importorskip("torch")
    assert_same(case, torch)


# ------------------------------------------------------------------ multi-head attention

@pytest.mark.parametrize("mask_dtype", ["float64", "float16"])
def test_mha_weights_refuse_a_mask_of_another_dtype(mask_dtype):
    def case(m):
        m.manual_seed(0)
        attention = m.nn.MultiheadAttention(4, 2)
        x = m.ones(3, 2, 4)
        return attention(x, x, x, attn_mask=m.zeros(3, 3, dtype=getattr(m, mask_dtype)))[0]
    assert_same(case, pytest.importorskip("torch"))


def test_multi_head_attention_forward_is_in_functional():
    assert F.multi_head_attention_forward is nn.modules.attention.multi_head_attention_forward
    assert "multi_head_attention_forward" in F.__all__


# ------------------------------------------------------------------ transformer layers

class _RecordingEncoderLayer(nn.TransformerEncoderLayer):
    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        self.seen = (attn_mask is not None, key_padding_mask is not None, is_causal)
        return super()._sa_block(x, attn_mask, key_padding_mask, is_causal)

    def _ff_block(self, x):
        return super()._ff_block(x) * 0


class _ZeroCrossAttentionDecoderLayer(nn.TransformerDecoderLayer):
    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        return x * 0


def test_overridden_blocks_take_effect_and_see_the_detected_causal_mask():
    encoder = nn.TransformerEncoder(_RecordingEncoderLayer(4, 2, 8, dropout=0.0), 2,
                                    enable_nested_tensor=False)
    x = tapegrad.randn(3, 2, 4)
    encoder(x, mask=nn.Transformer.generate_square_subsequent_mask(3))
    assert [layer.seen for layer in encoder.layers] == [(True, False, True)] * 2
    encoder(x, mask=nn.Transformer.generate_square_subsequent_mask(3), is_causal=False)
    assert encoder.layers[0].seen == (True, False, False)
    encoder(x, mask=tapegrad.zeros(3, 3))
    assert encoder.layers[0].seen == (True, False, False)
    decoder_layer = _ZeroCrossAttentionDecoderLayer(4, 2, 8, dropout=0.0)
    memory = tapegrad.randn(5, 2, 4)
    out = decoder_layer(x, memory)
    assert decoder_layer(x, memory * 100).allclose(out)  # the memory no longer matters


def test_layer_blocks_are_pytorchs_names_on_each_class():
    assert {"_sa_block", "_ff_block"} <= set(vars(nn.TransformerEncoderLayer))
    assert {"_sa_block", "_mha_block", "_ff_block"} <= set(vars(nn.TransformerDecoderLayer))


def test_encoder_reads_the_first_layers_self_attention():
    class NoSelfAttention(nn.Module):
        def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
            return src

    encoder = nn.TransformerEncoder(NoSelfAttention(), 1, enable_nested_tensor=False)
    with pytest.raises(AttributeError, match="'NoSelfAttention' object has no attribute "
                                             "'self_attn'"):
        encoder(tapegrad.ones(1, 2, 3))


def test_nested_tensor_prototype_warning_once_on_the_fast_path():
    layer = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True)
    encoder = nn.TransformerEncoder(layer, 1).eval()
    padding = tapegrad.tensor([[False, False, True], [False, False, False]])
    with warnings.catch_warnings(record=True) as caught, tapegrad.no_grad():
        warnings.simplefilter("always")
        out = encoder(tapegrad.randn(2, 3, 4), src_key_padding_mask=padding)
        encoder(tapegrad.randn(2, 3, 4), src_key_padding_mask=padding)
    messages = [str(w.message) for w in caught if "nested tensors" in str(w.message)]
    assert len(messages) <= 1  # once per process (an earlier test may have had it)
    assert not out[0, 2].any()


def test_activation_prints_as_pytorchs_and_only_encoder_layers_record_it():
    encoder_layer = nn.TransformerEncoderLayer(4, 2, activation="gelu")
    decoder_layer = nn.TransformerDecoderLayer(4, 2, activation="gelu")
    assert repr(encoder_layer.activation) == "<built-in function gelu>"
    assert encoder_layer.activation_relu_or_gelu == 2
    assert not hasattr(decoder_layer, "activation_relu_or_gelu")
    assert copy.deepcopy(encoder_layer).activation is F.gelu


def test_builtin_functions_print_copy_and_pickle_as_pytorchs():
    torch = pytest.importorskip("torch")
    for name in ("gelu", "linear", "logsigmoid", "softplus", "relu", "softmax", "one_hot"):
        assert str(getattr(F, name)).split(" at ")[0] == \
            str(getattr(torch.nn.functional, name)).split(" at ")[0]
    assert pickle.loads(pickle.dumps(F.linear)) is F.linear
    assert F.linear(tapegrad.ones(1, 2), tapegrad.ones(3, 2)).shape == (1, 3)


# ------------------------------------------------------------------ sequences, scatter, loss

def test_unpad_sequence_masks_and_transposes_the_callers_tensor():
    def case(m):
        padded = m.tensor(np.arange(24.0).reshape(4, 2, 3), requires_grad=True) * 1
        pieces = m.nn.utils.rnn.unpad_sequence(padded, m.tensor([4, 2]))
        return (tuple(padded.shape), [p.grad_fn.name() for p in pieces], *pieces)
    assert_same(case, pytest.importorskip("torch"))


def test_unpad_sequence_without_pytorch():
    padded = tapegrad.arange(8.0).reshape(4, 2)
    first, second = nn.utils.rnn.unpad_sequence(padded, tapegrad.tensor([3, 1]))
    assert padded.shape == (2, 4)
    assert first.tolist() == [0.0, 2.0, 4.0] and second.tolist() == [1.0]


PACK_CASES = {
    "2-d lengths": ((4, 2, 3), [[4, 2]], {}),
    "0-d lengths": ((4, 2, 3), 3, {}),
    "empty input": ((0, 2, 3), [[2, 1]], {}),
    "batch before order": ((4, 3, 3), [2, 4], {}),
    "order": ((4, 2, 3), [0, 4], {}),
    "positive": ((4, 2, 3), [4, 0], {}),
}


@pytest.mark.parametrize("name", sorted(PACK_CASES))
def test_pack_padded_sequence_checks_are_pytorchs(name):
    shape, lengths, options = PACK_CASES[name]

    def case(m):
        lengths_tensor = m.tensor(lengths)
        return m.nn.utils.rnn.pack_padded_sequence(m.ones(*shape), lengths_tensor,
                                                   **options).data
    assert_same(case, pytest.importorskip("torch"))


SCATTER_CASES = {
    "src of lower rank": ((2, 1), (2,), 1),
    "0-d src": ((2, 1), (), 0),
    "src of higher rank": ((1, 1), (1, 1, 1), 0),
    "src reading past its rank": ((1, 1), (5,), 1),
    "larger index, 0-d src on 1-d": ((2,), (), 0),
    "empty index": ((0, 1), (2,), 0),
}


@pytest.mark.parametrize("name", sorted(SCATTER_CASES))
@pytest.mark.parametrize("op", ["scatter_", "scatter_add", "scatter_reduce"])
def test_scatter_rank_checks_are_pytorchs(name, op):
    index_shape, src_shape, dim = SCATTER_CASES[name]

    def case(m):
        target = m.zeros(3, 4) if len(index_shape) == 2 else m.zeros(3)
        index = m.zeros(*index_shape, dtype=m.int64)
        src = m.ones(src_shape)
        extra = ("sum",) if op == "scatter_reduce" else ()
        return getattr(target, op)(dim, index, src, *extra)
    assert_same(case, pytest.importorskip("torch"))


def test_scatter_src_rank_message_without_pytorch():
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of "
                                           "dimensions as src tensor"):
        tapegrad.zeros(3, 4).scatter_(1, tapegrad.zeros(2, 1, dtype=tapegrad.int64),
                                      tapegrad.tensor(1.0))


@pytest.mark.parametrize("smoothing", [-0.5, 1.5, float("nan"), 1.0000001, 2.5e10])
@pytest.mark.parametrize("target", ["indices", "probabilities"])
def test_label_smoothing_range_is_pytorchs(smoothing, target):
    def case(m):
        logits = m.tensor(np.random.default_rng(0).standard_normal((3, 4)))
        labels = m.tensor([0, 1, 3]) if target == "indices" else \
            m.tensor(np.full((3, 4), 0.25))
        return m.nn.functional.cross_entropy(logits, labels, label_smoothing=smoothing)
    assert_same(case, pytest.importorskip("torch"))


def test_negative_label_smoothing_is_no_smoothing():
    logits = tapegrad.tensor([[1.0, 2.0, 0.5]])
    target = tapegrad.tensor([1])
    expected = -tapegrad.log_softmax(logits, 1)[0, 1]
    assert F.cross_entropy(logits, target, label_smoothing=-0.3).item() == \
        pytest.approx(expected.item())
    with pytest.raises(RuntimeError, match=r"Got: 1.5$"):
        F.cross_entropy(logits, target, label_smoothing=1.5)
