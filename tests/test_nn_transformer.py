"""Transformer decoder layers, decoders and the full ``nn.Transformer`` against PyTorch's with
PyTorch's parameters copied in (outputs, input and parameter gradients, state_dict keys, reprs,
error messages); clone independence and finite-difference gradients without PyTorch."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck

D_MODEL, T, S, N = 8, 3, 4, 2  # features, target length, source length, batch


def _mask(kind, library, shape):
    """The same mask in ``library`` (tapegrad or PyTorch); in a boolean mask True marks a
    position that may not be attended to."""
    if kind == "causal":
        return library.ones(*shape, dtype=library.bool).triu(1)
    if kind == "subsequent":
        return library.nn.Transformer.generate_square_subsequent_mask(shape[0],
                                                                      dtype=library.float64)
    if kind == "float":
        return library.tensor(np.random.default_rng(3).standard_normal(shape))
    if kind == "padding":  # (N, length): some positions of each sample padded, never all
        return library.tensor(np.arange(shape[0] * shape[1]).reshape(shape) % 3 == 2)
    raise ValueError(kind)


def _decoder_layer(m, **options):
    return m.TransformerDecoderLayer(D_MODEL, 2, 16, dropout=0.0, **options)


# name: (constructor, (first input shape, second input shape), forward masks: name -> (kind, shape))
CASES = {
    "layer-post-norm": (lambda m: _decoder_layer(m), ((T, N, D_MODEL), (S, N, D_MODEL)), {}),
    "layer-all-masks": (lambda m: _decoder_layer(m), ((T, N, D_MODEL), (S, N, D_MODEL)),
                        {"tgt_mask": ("causal", (T, T)), "memory_mask": ("float", (T, S)),
                         "tgt_key_padding_mask": ("padding", (N, T)),
                         "memory_key_padding_mask": ("padding", (N, S))}),
    "layer-norm-first-gelu-batch-first": (
        lambda m: _decoder_layer(m, norm_first=True, activation="gelu", batch_first=True),
        ((N, T, D_MODEL), (N, S, D_MODEL)),
        {"tgt_mask": ("subsequent", (T, T)), "memory_key_padding_mask": ("padding", (N, S))}),
    "layer-no-bias-unbatched": (lambda m: _decoder_layer(m, bias=False, layer_norm_eps=1e-3),
                                ((T, D_MODEL), (S, D_MODEL)), {"tgt_mask": ("causal", (T, T))}),
    "layer-default-dropout-eval": (lambda m: m.TransformerDecoderLayer(D_MODEL, 4, 8).eval(),
                                   ((T, N, D_MODEL), (S, N, D_MODEL)), {}),
    "decoder-2-layers-norm": (
        lambda m: m.TransformerDecoder(_decoder_layer(m, batch_first=True), 2,
                                       norm=m.LayerNorm(D_MODEL)),
        ((N, T, D_MODEL), (N, S, D_MODEL)),
        {"tgt_mask": ("subsequent", (T, T)), "tgt_key_padding_mask": ("padding", (N, T))}),
    "transformer": (lambda m: m.Transformer(D_MODEL, 2, 2, 2, 16, dropout=0.0),
                    ((S, N, D_MODEL), (T, N, D_MODEL)),
                    {"tgt_mask": ("subsequent", (T, T)), "src_mask": ("float", (S, S)),
                     "src_key_padding_mask": ("padding", (N, S)),
                     "memory_key_padding_mask": ("padding", (N, S))}),
    "transformer-norm-first-batch-first-eval": (
        lambda m: m.Transformer(D_MODEL, 4, 1, 2, 16, norm_first=True, batch_first=True,
                                activation="gelu").eval(),
        ((N, S, D_MODEL), (N, T, D_MODEL)),
        {"tgt_mask": ("subsequent", (T, T)), "memory_mask": ("causal", (T, S))}),
    "transformer-custom-decoder": (
        lambda m: m.Transformer(D_MODEL, 2, 1, dim_feedforward=16, dropout=0.0,
                                custom_decoder=m.TransformerDecoder(_decoder_layer(m), 1)),
        ((S, N, D_MODEL), (T, N, D_MODEL)), {"tgt_mask": ("subsequent", (T, T))}),
}


def _copy_from_pytorch(ours, theirs):
    ours.load_state_dict({k: tapegrad.tensor(v.detach().numpy()) for k, v in
                          theirs.state_dict().items()})


def _run(library, module, arrays, masks):
    """Output and gradients (inputs, then parameters by name) of ``sum(output * weights)``."""
    inputs = [library.tensor(a, requires_grad=True) for a in arrays]
    options = {name: _mask(kind, library, shape) for name, (kind, shape) in masks.items()}
    output = module(*inputs, **options)
    weights = np.cos(np.arange(output.numel())).reshape(tuple(output.shape))
    (output * library.tensor(weights)).sum().backward()
    return (output.detach().numpy(), [x.grad.numpy() for x in inputs],
            {name: p.grad.numpy() for name, p in module.named_parameters()})


@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True")
@pytest.mark.filterwarnings("ignore:Support for mismatched")  # PyTorch: bool and float masks mixed
@pytest.mark.parametrize("name", CASES)
def test_transformer_module_equals_pytorchs(name):
    torch = pytest.importorskip("torch")
    make, shapes, masks = CASES[name]
    torch.manual_seed(0)
    theirs, ours = make(torch.nn).double(), make(nn).double()
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)
    _copy_from_pytorch(ours, theirs)
    rng = np.random.default_rng(4)
    arrays = [rng.standard_normal(s) for s in shapes]
    out, grads, param_grads = _run(tapegrad, ours, arrays, masks)
    t_out, t_grads, t_param_grads = _run(torch, theirs, arrays, masks)
    assert out.shape == t_out.shape
    np.testing.assert_allclose(out, t_out, rtol=1e-9, atol=1e-11)
    for grad, t_grad in zip(grads, t_grads):
        np.testing.assert_allclose(grad, t_grad, rtol=1e-8, atol=1e-10)
    assert list(param_grads) == list(t_param_grads)
    for pname, grad in param_grads.items():
        np.testing.assert_allclose(grad, t_param_grads[pname], rtol=1e-8, atol=1e-10,
                                   err_msg=pname)


def test_generate_square_subsequent_mask_equals_pytorchs():
    torch = pytest.importorskip("torch")
    ours = nn.Transformer.generate_square_subsequent_mask(4)
    theirs = torch.nn.Transformer.generate_square_subsequent_mask(4)
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    assert str(nn.Transformer.generate_square_subsequent_mask(2, dtype=tapegrad.float64)) == str(
        torch.nn.Transformer.generate_square_subsequent_mask(2, dtype=torch.float64))


@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True")
@pytest.mark.parametrize("batch_first, src_shape, tgt_shape", [
    (False, (S, N, D_MODEL), (T, N + 1, D_MODEL)),
    (True, (N, S, D_MODEL), (N + 1, T, D_MODEL)),
    (False, (S, N, D_MODEL), (T, N, D_MODEL + 2)),
    (True, (S, D_MODEL + 2), (T, D_MODEL)),
])
def test_transformer_input_errors_equal_pytorchs(batch_first, src_shape, tgt_shape):
    torch = pytest.importorskip("torch")
    messages = []
    for library in (tapegrad, torch):
        model = library.nn.Transformer(D_MODEL, 2, 1, 1, 16, batch_first=batch_first)
        with pytest.raises(RuntimeError) as error:
            model(library.zeros(*src_shape), library.zeros(*tgt_shape))
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("the ")


def test_unknown_activation_error_equals_pytorchs():
    torch = pytest.importorskip("torch")
    messages = []
    for library in (tapegrad, torch):
        with pytest.raises(RuntimeError) as error:
            library.nn.TransformerDecoderLayer(D_MODEL, 2, activation="tanh")
        messages.append(str(error.value))
    assert messages[0] == messages[1] == "activation should be relu/gelu, not tanh"


def test_is_causal_without_a_mask_is_refused_as_in_pytorch():
    """``is_causal`` is only a hint about the mask given; without one PyTorch refuses."""
    torch = pytest.importorskip("torch")
    messages = []
    for library in (tapegrad, torch):
        layer = library.nn.TransformerDecoderLayer(D_MODEL, 2, 16)
        with pytest.raises(RuntimeError) as error:
            layer(library.zeros(T, N, D_MODEL), library.zeros(S, N, D_MODEL), tgt_is_causal=True)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("Need attn_mask if specifying the is_causal hint")


def test_decoder_layers_are_independent_copies():
    tapegrad.manual_seed(0)
    prototype = nn.TransformerDecoderLayer(D_MODEL, 2, 16, dropout=0.0)
    decoder = nn.TransformerDecoder(prototype, 3)
    prototype_ids = {id(p) for p in prototype.parameters()}
    per_layer = [list(layer.parameters()) for layer in decoder.layers]
    all_ids = [id(p) for params in per_layer for p in params]
    assert len(set(all_ids)) == len(all_ids) == 3 * len(prototype_ids)
    assert prototype_ids.isdisjoint(all_ids)
    for first, second in zip(per_layer[0], per_layer[1]):  # same start, separate storage
        np.testing.assert_array_equal(first.detach().numpy(), second.detach().numpy())
    with tapegrad.no_grad():
        decoder.layers[0].linear1.weight.add_(1.0)
    assert not np.allclose(decoder.layers[0].linear1.weight.detach().numpy(),
                           decoder.layers[1].linear1.weight.detach().numpy())
    np.testing.assert_array_equal(decoder.layers[1].linear1.weight.detach().numpy(),
                                  prototype.linear1.weight.detach().numpy())
    tgt, memory = tapegrad.randn(T, N, D_MODEL), tapegrad.randn(S, N, D_MODEL)
    decoder(tgt, memory).sum().backward()
    assert all(p.grad is not None for params in per_layer for p in params)
    assert all(p.grad is None for p in prototype.parameters())


def test_transformer_reinitialises_every_weight_matrix_xavier_uniform():
    tapegrad.manual_seed(0)
    model = nn.Transformer(D_MODEL, 2, 2, 2, 32)
    first, second = (model.encoder.layers[i].linear1.weight for i in (0, 1))
    assert not np.array_equal(first.detach().numpy(), second.detach().numpy())
    bound = np.sqrt(6 / (D_MODEL + 32))
    assert np.abs(first.detach().numpy()).max() <= bound
    assert np.abs(first.detach().numpy()).max() > 0.8 * bound


def test_decoder_layer_gradients_match_finite_differences():
    tapegrad.manual_seed(0)
    layer = nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0, norm_first=True).double()
    rng = np.random.default_rng(6)
    tgt = tapegrad.tensor(rng.standard_normal((3, 2, 4)), requires_grad=True)
    memory = tapegrad.tensor(rng.standard_normal((2, 2, 4)), requires_grad=True)
    mask = nn.Transformer.generate_square_subsequent_mask(3, dtype=tapegrad.float64)
    assert gradcheck(lambda t, m: layer(t, m, tgt_mask=mask), (tgt, memory))
