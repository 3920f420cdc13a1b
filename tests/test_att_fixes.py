"""Differences found by the transformer-internals programs (att_*): ``torch.nn.attention.bias``
(``causal_upper_left`` / ``causal_lower_right`` / ``CausalBias``) passed as the ``attn_mask`` of
``F.scaled_dot_product_attention``, its materialised masks, repr, warning and errors; and
``nn.MultiheadAttention.merge_masks``; the helpers code copying PyTorch's layers calls:
``F._canonical_mask`` / ``F._none_or_dtype`` and ``torch.nn.modules.transformer``'s
``_get_seq_len``, ``_detect_is_causal_mask``, ``_generate_square_subsequent_mask``."""
import importlib
import warnings

import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as F
from tapegrad.nn.attention.bias import (CausalBias, CausalVariant, causal_lower_right,
                                        causal_upper_left)
from same_as_torch import assert_same

try:
    import torch
    import torch.nn.attention.bias  # noqa: F401  (a submodule torch does not import itself)
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _bias_module(lib):
    return importlib.import_module(f"{lib.__name__}.nn.attention.bias")


def _qkv(lib, lq, lk, dtype=None):
    dtype = dtype or lib.float32
    q = lib.sin(lib.arange(2 * 2 * lq * 4, dtype=dtype) * 0.7).reshape(2, 2, lq, 4)
    k = lib.cos(lib.arange(2 * 2 * lk * 4, dtype=dtype) * 0.3).reshape(2, 2, lk, 4)
    v = lib.sin(lib.arange(2 * 2 * lk * 4, dtype=dtype) * 0.2 + 1).reshape(2, 2, lk, 4)
    return q, k, v


def _attend(lib, factory, lq, lk):
    q, k, v = _qkv(lib, lq, lk)
    q.requires_grad_(True)
    bias = getattr(_bias_module(lib), factory)(lq, lk)
    out = lib.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=bias)
    out.pow(2).sum().backward()
    return out, q.grad


@needs_torch
@pytest.mark.parametrize("factory", ["causal_lower_right", "causal_upper_left"])
@pytest.mark.parametrize("lq,lk", [(2, 5), (4, 4), (1, 3)])
def test_causal_bias_attention_matches_torch(factory, lq, lk):
    assert_same(lambda lib: _attend(lib, factory, lq, lk), torch)


@needs_torch
@pytest.mark.parametrize("factory", ["causal_lower_right", "causal_upper_left"])
def test_materialized_mask_and_repr_match_torch(factory):
    ours = getattr(_bias_module(tapegrad), factory)(3, 5)
    theirs = getattr(_bias_module(torch), factory)(3, 5)
    np.testing.assert_array_equal(ours._materialize().numpy(), theirs._materialize().numpy())
    assert repr(ours) == repr(theirs) and str(ours) == str(theirs)
    assert (ours.variant, ours.seq_len_q, ours.seq_len_kv) == \
        (theirs.variant, theirs.seq_len_q, theirs.seq_len_kv)
    assert repr(ours.variant) == repr(theirs.variant)


@needs_torch
@pytest.mark.parametrize("make", [
    lambda lib: lib.nn.functional.scaled_dot_product_attention(
        *_qkv(lib, 2, 3), attn_mask=_bias_module(lib).causal_lower_right(2, 3), is_causal=True),
    lambda lib: _bias_module(lib).CausalBias(1, 2, 3),
    lambda lib: _bias_module(lib).causal_upper_left(3),
    lambda lib: _bias_module(lib).causal_lower_right(1, 2, 3),
])
def test_errors_match_torch(make):
    assert_same(make, torch)


def test_lower_right_is_the_bottom_right_triangle():
    mask = causal_lower_right(2, 4)._materialize()
    assert mask.tolist() == [[True, True, True, False], [True, True, True, True]]
    assert causal_upper_left(2, 4)._materialize().tolist() == \
        [[True, False, False, False], [True, True, False, False]]


def test_lower_right_equals_explicit_mask_and_incremental_decoding():
    """A KV-cache step (one query against all keys so far) equals the full causal pass."""
    q, k, v = _qkv(tapegrad, 5, 5, tapegrad.float64)
    full = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    steps = [F.scaled_dot_product_attention(q[:, :, t:t + 1], k[:, :, :t + 1], v[:, :, :t + 1],
                                            attn_mask=causal_lower_right(1, t + 1))
             for t in range(5)]
    np.testing.assert_allclose(tapegrad.cat(steps, 2).numpy(), full.numpy(), atol=1e-12)
    explicit = tapegrad.ones(2, 5, dtype=tapegrad.bool).tril(diagonal=3)
    last_two = q[:, :, 3:]
    np.testing.assert_allclose(
        F.scaled_dot_product_attention(last_two, k, v, attn_mask=causal_lower_right(2, 5)).numpy(),
        F.scaled_dot_product_attention(last_two, k, v, attn_mask=explicit).numpy(), atol=1e-12)


def test_gradcheck_through_lower_right_bias():
    q, k, v = (t.requires_grad_(True) for t in _qkv(tapegrad, 2, 4, tapegrad.float64))
    bias = causal_lower_right(2, 4)
    assert tapegrad.autograd.gradcheck(
        lambda a, b, c: F.scaled_dot_product_attention(a, b, c, attn_mask=bias), (q, k, v))


def test_lower_right_with_more_queries_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bias = causal_lower_right(4, 2)
    assert [str(w.message) for w in caught] == [
        "Lower right causal bias will produce NaNs in the output when seq_len_q > seq_len_kv!"]
    assert isinstance(bias, CausalBias) and bias.variant == CausalVariant.LOWER_RIGHT


def _merge(lib, attn, pad, float_masks=False):
    mha = lib.nn.MultiheadAttention(8, 2, batch_first=True)
    query = lib.zeros(2, 3, 8)
    causal = lib.triu(lib.ones(3, 3, dtype=lib.bool), diagonal=1)
    padding = lib.tensor([[False, False, True], [False, False, False]])
    if float_masks:
        causal = lib.zeros(3, 3).masked_fill(causal, float("-inf"))
        padding = lib.zeros(2, 3).masked_fill(padding, float("-inf"))
    if attn == "3d":
        causal = causal.expand(4, 3, 3)
    merged, kind = mha.merge_masks(causal if attn else None, padding if pad else None, query)
    return (None if merged is None else merged.float()), kind


@needs_torch
@pytest.mark.parametrize("attn", [None, "2d", "3d"])
@pytest.mark.parametrize("pad", [False, True])
@pytest.mark.parametrize("float_masks", [False, True])
def test_merge_masks_matches_torch(attn, pad, float_masks):
    assert_same(lambda lib: _merge(lib, attn, pad, float_masks), torch)


def test_merge_masks_is_a_logical_or_of_both_masks():
    merged, kind = _merge(tapegrad, "2d", True)
    assert kind == 2 and merged.shape == (2, 2, 3, 3)
    assert merged[0, 1].tolist() == [[0, 1, 1], [0, 0, 1], [0, 0, 1]]
    assert merged[1, 0].tolist() == [[0, 1, 1], [0, 0, 1], [0, 0, 0]]
    assert _merge(tapegrad, None, False) == (None, None)


def _canonical(lib, dtype_name, other, check_other=True):
    mask = lib.tensor([[False, True], [True, True]])
    if dtype_name != "bool":
        mask = mask.to(getattr(lib, dtype_name))
    return lib.nn.functional._canonical_mask(
        mask=mask, mask_name="src_mask", other_type=other and getattr(lib, other),
        other_name="key_padding_mask", target_type=lib.float64, check_other=check_other)


@needs_torch
@pytest.mark.parametrize("dtype_name", ["bool", "float32", "int64"])
@pytest.mark.parametrize("other", [None, "bool", "float64"])
def test_canonical_mask_matches_torch(dtype_name, other):
    assert_same(lambda lib: _canonical(lib, dtype_name, other), torch)


def test_canonical_mask_warns_on_mismatch_unless_told_not_to_check():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _canonical(tapegrad, "bool", "float32")
        _canonical(tapegrad, "bool", "float32", check_other=False)
    assert [str(w.message) for w in caught] == [
        "Support for mismatched src_mask and key_padding_mask is deprecated. Use same type for "
        "both instead."]
    assert _canonical(tapegrad, "bool", None).tolist() == [[0, float("-inf")]] + \
        [[float("-inf"), float("-inf")]]


@needs_torch
@pytest.mark.parametrize("value", [None, "tensor", [1]])
def test_none_or_dtype_matches_torch(value):
    assert_same(lambda lib: str(lib.nn.functional._none_or_dtype(
        lib.zeros(1, dtype=lib.float16) if value == "tensor" else value)), torch)


def _transformer_helpers(lib):
    helpers = importlib.import_module(f"{lib.__name__}.nn.modules.transformer")
    mask = helpers._generate_square_subsequent_mask(4, dtype=lib.float64)
    batch = lib.zeros(2, 5, 3)
    return (mask, helpers._get_seq_len(batch, True), helpers._get_seq_len(batch, False),
            helpers._get_seq_len(lib.zeros(5, 3), True),
            helpers._detect_is_causal_mask(mask), helpers._detect_is_causal_mask(mask, size=3),
            helpers._detect_is_causal_mask(mask.float()),
            helpers._detect_is_causal_mask(lib.zeros_like(mask)),
            helpers._detect_is_causal_mask(None), helpers._detect_is_causal_mask(None, True),
            helpers._detect_is_causal_mask(mask, False))


@needs_torch
def test_transformer_helpers_match_torch():
    assert_same(_transformer_helpers, torch)


def test_detect_is_causal_mask_reads_the_mask_when_no_hint():
    outcome = _transformer_helpers(tapegrad)
    assert outcome[4:] == (True, False, True, False, False, True, False)


def test_nested_tensor_warning_points_at_the_encoders_caller():
    """Inside ``nn.Transformer`` the caller is the library, so building two warns once under
    the default filter, as in PyTorch; a user building the encoder sees their own line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tapegrad.nn.Transformer(4, 2, 1, 1, 8, 0.0)
        tapegrad.nn.TransformerEncoder(tapegrad.nn.TransformerEncoderLayer(4, 2, 8, 0.0), 1)
    assert [w.filename.endswith("transformer.py") for w in caught] == [True, False]
    assert caught[1].filename == __file__


@needs_torch
def test_constants_match_torch():
    for name in ("MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer",
                 "TransformerEncoder", "TransformerDecoder"):
        assert getattr(tapegrad.nn, name).__constants__ == getattr(torch.nn, name).__constants__


def _linear_on_transposed(lib, weight_dtype, bias_dtype, weight_grad):
    """F.linear on a (L, N, E) view of batch-first data, as MultiheadAttention projects it."""
    x = lib.ones(2, 3, 8).transpose(0, 1)
    weight = lib.ones(4, 8, dtype=getattr(lib, weight_dtype), requires_grad=weight_grad)
    bias = lib.ones(4, dtype=getattr(lib, bias_dtype))
    out = lib.nn.functional.linear(x, weight, bias)
    return out, str(out.dtype)


@needs_torch
@pytest.mark.parametrize("weight_dtype,bias_dtype", [("float16", "float16"),
                                                     ("float32", "float64"),
                                                     ("float32", "float16")])
@pytest.mark.parametrize("weight_grad", [False, True])
def test_linear_on_non_contiguous_input_matches_torch(weight_dtype, bias_dtype, weight_grad):
    """matmul's dtype message (not addmm's), and the bias added in place (product's dtype)."""
    assert_same(lambda lib: _linear_on_transposed(lib, weight_dtype, bias_dtype, weight_grad),
                torch)


@needs_torch
def test_mha_with_query_of_another_dtype_matches_torch():
    def case(lib):
        mha = lib.nn.MultiheadAttention(8, 2, batch_first=True, dtype=lib.float16)
        x = lib.zeros(2, 3, 8, dtype=lib.float16)
        return mha(x.float(), x, x)
    assert_same(case, torch)


@needs_torch
def test_layer_attributes_in_torchs_order():
    for name in ("TransformerEncoderLayer", "TransformerDecoderLayer"):
        ours, theirs = (getattr(lib.nn, name)(4, 2, 8, 0.0) for lib in (tapegrad, torch))
        assert [k for k in vars(ours) if not k.startswith("_")] == \
            [k for k in vars(theirs) if not k.startswith("_")]
