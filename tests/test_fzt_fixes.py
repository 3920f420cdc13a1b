"""Differences found by differential fuzzing of attention, transformers and embeddings against
PyTorch (fzt): random ``F.scaled_dot_product_attention`` calls (3-d/4-d, bool/float/broadcast
masks, causal, scale, grouped-query, fully masked rows), ``nn.MultiheadAttention`` (kdim/vdim,
biases, extra key/value steps, both masks, weights, eval and train, with and without
gradients), transformer layers, stacks and ``nn.Transformer`` (norm_first, activations, masks,
nested-tensor inference), ``nn.Embedding`` and ``nn.EmbeddingBag`` / ``F.embedding_bag``
(padding, max_norm, frequency scaling, per-sample weights, offsets), and their bad arguments;
compared by values, gradients, shapes, dtypes and errors.

Found: the math kernel of scaled_dot_product_attention adds the mask in place (a mask that
would grow the scores fails with the in-place message), and the CPU flash kernel expands its
mask to the *value's* length; ``MultiheadAttention``'s fast path (``_native_multi_head_attention``
in batch-first eval-mode self-attention without gradients and without float masks) and
``TransformerEncoderLayer``'s (``_transformer_encoder_layer_fwd``, any masks) read the merged
mask as boolean with a plain softmax — nan for a query that may attend to nothing — and ignore
``is_causal``; the fast path merges the masks (with their errors) even without a bias, and wants a merged
mask of the scores' shape; keys that are the values are projected in one product (its error
for keys of the wrong size); the
nested-tensor path of ``TransformerEncoder`` refuses a batch that is all padding; a copied or
unpickled ``TransformerDecoderLayer`` whose activation is a module applies relu (PyTorch's
``__setstate__``), and ``TransformerEncoderLayer`` gets its ``__setstate__``; ``embedding_renorm_`` names bool
indices "CPUBoolType"; ``include_last_offset`` with no offsets; separate q/k/v projection
weights checked against the inputs' sizes (``_in_projection``'s messages).
"""
import copy
import pickle

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same, outcome

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _values(*shape):
    return np.cos(np.arange(int(np.prod(shape)))).reshape(shape)


def _with_weights(lib, module):
    """``module`` with the same deterministic parameters in either library."""
    with lib.no_grad():
        for index, parameter in enumerate(module.parameters()):
            values = np.cos(np.arange(parameter.numel()) * 0.7 + index)
            parameter.copy_(lib.tensor(0.5 * values.reshape(tuple(parameter.shape))))
    return module


def _same_with_nan(case):
    """Like ``assert_same``, nan where PyTorch has nan."""
    ours, theirs = outcome(tapegrad, case), outcome(torch, case)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        if isinstance(b, np.ndarray):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True)
        else:
            assert a == b


# -- scaled_dot_product_attention ------------------------------------------------------------------

def _sdpa(lib, query_shape, key_shape, value_shape, mask_shape, mask_dtype="float64"):
    dtype = lib.float64
    mask = lib.tensor(_values(*mask_shape) > 0) if mask_dtype == "bool" else \
        lib.tensor(_values(*mask_shape), dtype=dtype)
    return lib.nn.functional.scaled_dot_product_attention(
        lib.tensor(_values(*query_shape), dtype=dtype), lib.tensor(_values(*key_shape),
                                                                   dtype=dtype),
        lib.tensor(_values(*value_shape), dtype=dtype), attn_mask=mask)


@pytest.mark.parametrize("query, key, mask", [
    ((1, 4, 1), (1, 1, 1), (4, 2)), ((2, 3, 3, 2), (2, 3, 1, 2), (2, 3, 3, 2)),
    ((2, 3), (2, 3), (2, 2, 2))])
def test_sdpa_mask_may_not_grow_the_scores(query, key, mask):
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        _sdpa(tapegrad, query, key, key, mask)


@needs_torch
@pytest.mark.parametrize("query, key, mask", [
    ((1, 4, 1), (1, 1, 1), (4, 2)), ((2, 3, 3, 2), (2, 3, 1, 2), (2, 3, 3, 2)),
    ((2, 3), (2, 3), (2, 2, 2)), ((2, 1, 3, 2), (2, 1, 4, 2), (3, 1))])
def test_sdpa_mask_broadcasting(query, key, mask):
    assert_same(lambda lib: _sdpa(lib, query, key, key, mask), torch)


@needs_torch
@pytest.mark.parametrize("mask, mask_dtype", [((1, 3, 1, 2), "bool"), ((1, 2), "float64"),
                                              ((2, 3, 1, 2), "float64")])
def test_sdpa_flash_mask_expands_to_the_values_length(mask, mask_dtype):
    assert_same(lambda lib: _sdpa(lib, (2, 3, 1, 1), (2, 3, 2, 1), (2, 3, 3, 1), mask,
                                  mask_dtype), torch)


# -- MultiheadAttention's fast path ----------------------------------------------------------------

def _mha(lib, key_padding_mask=None, attn_mask=None, need_weights=True, bias=True,
         is_causal=False, heads=2, grad=False, batch_first=True, float_masks=False):
    module = _with_weights(lib, lib.nn.MultiheadAttention(4, heads, bias=bias,
                                                          batch_first=batch_first,
                                                          dtype=lib.float64)).eval()
    x = lib.tensor(_values(2, 3, 4) if batch_first else _values(2, 3, 4).transpose(1, 0, 2),
                   requires_grad=grad)

    def mask(values):
        if values is None:
            return None
        values = lib.tensor(np.array(values, dtype=bool))
        return values.double().masked_fill(values, float("-inf")) if float_masks else values
    with lib.enable_grad() if grad else lib.no_grad():
        output, weights = module(x, x, x, key_padding_mask=mask(key_padding_mask),
                                 attn_mask=mask(attn_mask), need_weights=need_weights,
                                 is_causal=is_causal)
    return output, (weights if weights is not None else "no weights")


_PADDING = [[False, False, True], [True, True, True]]
_ATTN = [[False, True, True], [True, True, True], [False, False, True]]


@pytest.mark.parametrize("need_weights", [False, True])
def test_mha_fast_path_gives_nan_to_a_query_that_attends_to_nothing(need_weights):
    output, _ = _mha(tapegrad, _PADDING, need_weights=need_weights)
    assert np.isnan(output[1].numpy()).all() and not np.isnan(output[0].numpy()).any()


def test_mha_slow_path_gives_zero_attention_to_such_a_query():
    for options in ({"grad": True}, {"float_masks": True}, {"heads": 1}, {"batch_first": False}):
        output, _ = _mha(tapegrad, _PADDING, need_weights=False, **options)
        assert not np.isnan(output.detach().numpy()).any()


@needs_torch
@pytest.mark.parametrize("masks", [(_PADDING, None), (None, _ATTN), (_PADDING, _ATTN),
                                   (None, [_ATTN] * 4)])
@pytest.mark.parametrize("need_weights", [False, True])
@pytest.mark.parametrize("options", [{}, {"grad": True}, {"float_masks": True}, {"heads": 1},
                                     {"batch_first": False}])
def test_mha_fully_masked_queries(masks, need_weights, options):
    _same_with_nan(lambda lib: _mha(lib, *masks, need_weights=need_weights, **options))


@needs_torch
def test_mha_fast_path_ignores_is_causal():
    assert_same(lambda lib: _mha(lib, is_causal=True), torch)
    assert_same(lambda lib: _mha(lib, is_causal=True, grad=True), torch)  # refused there


@needs_torch
@pytest.mark.parametrize("bias", [True, False])
def test_mha_fast_path_merges_the_masks_even_without_a_bias(bias):
    assert_same(lambda lib: _mha(lib, attn_mask=[[False, True]] * 2, bias=bias), torch)
    assert_same(lambda lib: _mha(lib, attn_mask=[_ATTN] * 2, bias=bias), torch)


@needs_torch
@pytest.mark.parametrize("kdim, key_size", [(3, 4), (None, 3), (3, 3)])
def test_mha_separate_projections_are_checked_against_the_inputs(kdim, key_size):
    def case(lib):
        module = _with_weights(lib, lib.nn.MultiheadAttention(4, 2, kdim=kdim, vdim=kdim))
        key = lib.tensor(_values(5, 2, key_size), dtype=lib.float32)
        return module(lib.ones(3, 2, 4), key, key)[0]
    assert_same(case, torch)


# -- transformers ----------------------------------------------------------------------------------

def _encoder_layer(lib, float_masks, norm_first=False, grad=False, activation="relu"):
    layer = _with_weights(lib, lib.nn.TransformerEncoderLayer(
        4, 2, 6, dropout=0.0, batch_first=True, norm_first=norm_first, activation=activation,
        dtype=lib.float64)).eval()
    src = lib.tensor(_values(2, 3, 4), requires_grad=grad)
    attn = lib.tensor(np.array(_ATTN))
    padding = lib.tensor(np.array(_PADDING))
    if float_masks:
        attn, padding = (m.double().masked_fill(m, float("-inf")) for m in (attn, padding))
    with lib.enable_grad() if grad else lib.no_grad():
        return (layer(src, src_mask=attn, src_key_padding_mask=padding),)


def test_encoder_layer_fast_path_gives_nan_to_a_query_that_attends_to_nothing():
    output = _encoder_layer(tapegrad, float_masks=True)[0].numpy()
    assert np.isnan(output[1]).all() and np.isnan(output[0, 1]).all()
    assert not np.isnan(output[0, 0]).any()


@needs_torch
@pytest.mark.parametrize("float_masks", [False, True])
@pytest.mark.parametrize("options", [{}, {"norm_first": True}, {"grad": True},
                                     {"activation": "gelu"}, {"activation": np.tanh}])
def test_encoder_layer_fully_masked_queries(float_masks, options):
    if options.get("activation") is np.tanh:
        options = {"activation": None}

    def case(lib):
        activation = options.get("activation", "relu") or lib.tanh
        return _encoder_layer(lib, float_masks, **{**options, "activation": activation})
    _same_with_nan(case)


def _nested_encoder(lib, padding):
    layer = lib.nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, batch_first=True)
    encoder = _with_weights(lib, lib.nn.TransformerEncoder(layer, 2)).eval()
    with lib.no_grad():
        return encoder(lib.tensor(_values(2, 3, 4), dtype=lib.float32),
                       src_key_padding_mask=lib.tensor(np.array(padding)))


def test_nested_encoder_refuses_a_batch_of_padding_only():
    with pytest.raises(RuntimeError, match="at least one constituent tensor"):
        _nested_encoder(tapegrad, [[True] * 3] * 2)


@needs_torch
@pytest.mark.parametrize("padding", [[[True] * 3] * 2, [[False, True, True], [True] * 3]])
def test_nested_encoder_padding(padding):
    assert_same(lambda lib: _nested_encoder(lib, padding), torch)


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda m: pickle.loads(pickle.dumps(m))])
def test_a_copied_decoder_layer_with_an_activation_module_applies_relu(clone):
    layer = clone(tapegrad.nn.TransformerDecoderLayer(4, 2, 6, activation=tapegrad.nn.GELU()))
    assert layer.activation is tapegrad.nn.functional.relu
    assert isinstance(layer._modules["activation"], tapegrad.nn.GELU)
    encoder_layer = tapegrad.nn.TransformerEncoderLayer(4, 2, 6, activation=tapegrad.nn.GELU())
    assert isinstance(clone(encoder_layer).activation, tapegrad.nn.GELU)


@needs_torch
def test_decoder_of_layers_with_an_activation_module():
    def case(lib):
        layer = lib.nn.TransformerDecoderLayer(2, 2, 3, dropout=0.0, activation=lib.nn.GELU(),
                                               dtype=lib.float64)
        decoder = _with_weights(lib, lib.nn.TransformerDecoder(layer, 2))
        tgt = lib.tensor(_values(4, 1, 2), requires_grad=True)
        output = decoder(tgt, lib.tensor([[[0.3, -0.2]]], dtype=lib.float64))
        output.sum().backward()
        return output, tgt.grad
    assert_same(case, torch)


# -- embeddings ------------------------------------------------------------------------------------

def _bag_gradient(lib, indices, offsets, mode, per_sample_weights=False):
    weight = lib.tensor(_values(6, 2), requires_grad=True)
    samples = lib.tensor(_values(len(indices)) + 2) if per_sample_weights else None
    out = lib.nn.functional.embedding_bag(lib.tensor(indices), weight, lib.tensor(offsets),
                                          mode=mode, scale_grad_by_freq=True,
                                          per_sample_weights=samples)
    out.backward(lib.ones_like(out))
    return out, weight.grad


def test_embedding_bag_frequency_scale_divides_each_row_by_its_own_count():
    """Not PyTorch's numbers, on purpose: its dense sum/mean kernel divides the positions of the
    k-th distinct index by the count of the k-th sorted index (an indexing slip); tapegrad divides
    each row by its own count, as ``embedding`` does in both libraries."""
    grad = _bag_gradient(tapegrad, [1, 1, 2], [0], "sum")[1].numpy()
    np.testing.assert_allclose(grad[:, 0], [0, 1, 1, 0, 0, 0])


@needs_torch
def test_embedding_renorm_names_bool_indices_by_their_backend_type():
    def case(lib):
        return lib.nn.Embedding(4, 2, max_norm=1.0)(lib.tensor([True]))
    assert_same(case, torch)
    assert_same(lambda lib: lib.embedding_renorm_(lib.ones(4, 2), lib.tensor([True]), 1.0, 2.0),
                torch)


def test_include_last_offset_needs_an_offset():
    with pytest.raises(RuntimeError, match="number of offset should be at least 1"):
        tapegrad.nn.functional.embedding_bag(tapegrad.tensor([1, 2]), tapegrad.ones(4, 2),
                                             tapegrad.tensor([], dtype=tapegrad.int64),
                                             include_last_offset=True)


@needs_torch
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_include_last_offset_without_offsets(mode):
    assert_same(lambda lib: lib.nn.functional.embedding_bag(
        lib.tensor([1, 2]), lib.ones(4, 2), lib.tensor([], dtype=lib.int64), mode=mode,
        include_last_offset=True), torch)
