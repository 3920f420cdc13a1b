"""Recurrent layers, multi-head attention and transformer encoders against PyTorch's, with
PyTorch's parameters copied in: outputs, states, gradients, parameter names and reprs; gradcheck
without PyTorch."""
import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck

# name: (constructor, input shape, whether the layer takes/returns an (h, c) pair)
RECURRENT = {
    "RNNCell": (lambda m: m.RNNCell(3, 4), (2, 3)),
    "RNNCell-relu-unbatched": (lambda m: m.RNNCell(3, 4, nonlinearity="relu"), (3,)),
    "LSTMCell": (lambda m: m.LSTMCell(3, 4), (2, 3)),
    "GRUCell": (lambda m: m.GRUCell(3, 4, bias=False), (2, 3)),
    "RNN": (lambda m: m.RNN(3, 4), (5, 2, 3)),
    "RNN-relu-2-layers": (lambda m: m.RNN(3, 4, num_layers=2, nonlinearity="relu"), (5, 2, 3)),
    "LSTM-batch-first": (lambda m: m.LSTM(3, 4, num_layers=2, batch_first=True), (2, 5, 3)),
    "LSTM-bidirectional": (lambda m: m.LSTM(3, 4, bidirectional=True, num_layers=2), (5, 2, 3)),
    "LSTM-unbatched": (lambda m: m.LSTM(3, 2), (4, 3)),
    "LSTM-projected": (lambda m: m.LSTM(3, 5, num_layers=2, proj_size=2, bidirectional=True,
                                        batch_first=True), (2, 4, 3)),
    "LSTM-projected-unbatched": (lambda m: m.LSTM(3, 4, proj_size=3), (4, 3)),
    "GRU": (lambda m: m.GRU(3, 4, bidirectional=True), (5, 2, 3)),
    "GRU-nobias": (lambda m: m.GRU(3, 4, bias=False, batch_first=True), (2, 5, 3)),
}


def _flat(output):
    """Every tensor of a (possibly nested) tuple output, in order."""
    if isinstance(output, tuple):
        return [t for item in output for t in _flat(item)]
    return [output]


def _copy_from_pytorch(ours, theirs):
    ours.load_state_dict({k: tapegrad.tensor(v.detach().numpy()) for k, v in
                          theirs.state_dict().items()})


@pytest.mark.parametrize("name", RECURRENT)
def test_recurrent_layer_equals_pytorchs(name):
    torch = pytest.importorskip("torch")
    make, shape = RECURRENT[name]
    torch.manual_seed(0)
    theirs = make(torch.nn).double()
    ours = make(nn).double()
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)
    _copy_from_pytorch(ours, theirs)
    data = np.random.default_rng(0).standard_normal(shape)
    x, tx = tapegrad.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)
    outputs, their_outputs = _flat(ours(x)), _flat(theirs(tx))
    assert [tuple(o.shape) for o in outputs] == [tuple(o.shape) for o in their_outputs]
    for out, their_out in zip(outputs, their_outputs):
        np.testing.assert_allclose(out.detach().numpy(), their_out.detach().numpy(), rtol=1e-10,
                                   atol=1e-12)
    seeds = [np.random.default_rng(i).standard_normal(tuple(o.shape)) for i, o in
             enumerate(outputs)]
    sum((o * tapegrad.tensor(s)).sum() for o, s in zip(outputs, seeds)).backward()
    sum((o * torch.tensor(s)).sum() for o, s in zip(their_outputs, seeds)).backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-9, atol=1e-12)
    their_params = dict(theirs.named_parameters())
    for pname, p in ours.named_parameters():
        np.testing.assert_allclose(p.grad.numpy(), their_params[pname].grad.numpy(), rtol=1e-9,
                                   atol=1e-12, err_msg=pname)


def test_recurrent_layers_take_an_initial_state():
    torch = pytest.importorskip("torch")
    theirs = torch.nn.LSTM(3, 4, num_layers=2).double()
    ours = nn.LSTM(3, 4, num_layers=2).double()
    _copy_from_pytorch(ours, theirs)
    rng = np.random.default_rng(1)
    data, h0, c0 = (rng.standard_normal(s) for s in ((5, 2, 3), (2, 2, 4), (2, 2, 4)))
    out, (h, c) = ours(tapegrad.tensor(data), (tapegrad.tensor(h0), tapegrad.tensor(c0)))
    t_out, (t_h, t_c) = theirs(torch.tensor(data), (torch.tensor(h0), torch.tensor(c0)))
    for a, b in ((out, t_out), (h, t_h), (c, t_c)):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-10)


def test_recurrent_initialisation_bound():
    tapegrad.manual_seed(0)
    layer = nn.GRU(10, 25)
    values = np.concatenate([p.detach().numpy().ravel() for p in layer.parameters()])
    assert np.abs(values).max() <= 1 / 5 and values.std() == pytest.approx(0.2 / np.sqrt(3),
                                                                            rel=0.05)


@pytest.mark.parametrize("name", ["LSTMCell", "GRU", "RNN-relu-2-layers"])
def test_recurrent_gradients_match_finite_differences(name):
    make, shape = RECURRENT[name]
    tapegrad.manual_seed(0)
    layer = make(nn).double()
    x = tapegrad.tensor(np.random.default_rng(2).standard_normal(shape), requires_grad=True)
    assert gradcheck(lambda x: _flat(layer(x))[0], (x,))


# ------------------------------------------------------------------------------- attention

def _mask(kind, library, shape):
    """The same mask in ``library`` (tapegrad or PyTorch): a boolean one marks positions that may
    not be attended to."""
    if kind == "causal":
        return library.ones(*shape, dtype=library.bool).triu(1)
    if kind == "float":
        return library.tensor(np.random.default_rng(3).standard_normal(shape))
    if kind == "padding":
        return library.tensor([[False, False, False, True], [False, True, False, False]])
    raise ValueError(kind)


# name: (constructor, input shapes (query, key, value), forward keyword arguments)
ATTENTION = {
    "batch-first-causal": (lambda m: m.MultiheadAttention(8, 2, batch_first=True),
                           ((2, 4, 8),) * 3, {"attn_mask": ("causal", (4, 4))}),
    "seq-first-float-mask": (lambda m: m.MultiheadAttention(6, 3), ((4, 2, 6),) * 3,
                             {"attn_mask": ("float", (4, 4)), "average_attn_weights": False}),
    "key-padding": (lambda m: m.MultiheadAttention(4, 1, batch_first=True), ((2, 3, 4),
                                                                             (2, 4, 4),
                                                                             (2, 4, 4)),
                    {"key_padding_mask": ("padding", None)}),
    "kdim-vdim": (lambda m: m.MultiheadAttention(4, 2, kdim=3, vdim=5), ((3, 2, 4), (5, 2, 3),
                                                                       (5, 2, 5)), {}),
    "unbatched-no-weights": (lambda m: m.MultiheadAttention(4, 2, bias=False), ((3, 4),) * 3,
                             {"need_weights": False}),
}


@pytest.mark.parametrize("name", ATTENTION)
def test_multihead_attention_equals_pytorchs(name):
    torch = pytest.importorskip("torch")
    make, shapes, kwargs = ATTENTION[name]
    torch.manual_seed(0)
    theirs, ours = make(torch.nn).double(), make(nn).double()
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)
    _copy_from_pytorch(ours, theirs)
    rng = np.random.default_rng(4)
    arrays = [rng.standard_normal(s) for s in shapes]
    results = []
    for library, module in ((tapegrad, ours), (torch, theirs)):
        inputs = [library.tensor(a, requires_grad=True) for a in arrays]
        options = {k: (_mask(v[0], library, v[1]) if isinstance(v, tuple) else v)
                   for k, v in kwargs.items()}
        output, weights = module(*inputs, **options)
        (output * library.tensor(np.cos(np.arange(output.numel())).reshape(
            tuple(output.shape)))).sum().backward()
        results.append((output, weights, [t.grad for t in inputs],
                        [p.grad for p in module.parameters()]))
    (out, weights, grads, param_grads), (t_out, t_weights, t_grads, t_param_grads) = results
    np.testing.assert_allclose(out.detach().numpy(), t_out.detach().numpy(), rtol=1e-10,
                               atol=1e-12)
    assert (weights is None) == (t_weights is None)
    if weights is not None:
        np.testing.assert_allclose(weights.detach().numpy(), t_weights.detach().numpy(),
                                   rtol=1e-10, atol=1e-12)
    for a, b in zip(grads + param_grads, t_grads + t_param_grads):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-9, atol=1e-12)


ENCODERS = {
    "post-norm-relu": (lambda m: m.TransformerEncoderLayer(8, 2, 16, dropout=0.0,
                                                           batch_first=True), {}),
    "pre-norm-gelu": (lambda m: m.TransformerEncoderLayer(8, 2, 16, dropout=0.0,
                                                          activation="gelu", norm_first=True,
                                                          batch_first=True),
                      {"src_key_padding_mask": "padding"}),
    "encoder-2-layers-norm": (lambda m: m.TransformerEncoder(
        m.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 2,
        norm=m.LayerNorm(8)), {"mask": "causal"}),
}


@pytest.mark.filterwarnings("ignore:enable_nested_tensor is True")
@pytest.mark.parametrize("name", ENCODERS)
def test_transformer_encoder_equals_pytorchs(name):
    torch = pytest.importorskip("torch")
    make, kwargs = ENCODERS[name]
    torch.manual_seed(0)
    theirs, ours = make(torch.nn).double(), make(nn).double()
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)
    _copy_from_pytorch(ours, theirs)
    data = np.random.default_rng(5).standard_normal((2, 4, 8))
    outputs = []
    for library, module in ((tapegrad, ours), (torch, theirs)):
        x = library.tensor(data, requires_grad=True)
        options = {k: _mask(v, library, (4, 4)) for k, v in kwargs.items()}
        out = module(x, **options)
        out.pow(2).sum().backward()
        outputs.append((out.detach().numpy(), x.grad.numpy()))
    for a, b in zip(*outputs):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("make", [lambda m: m.LSTM(3, 5, proj_size=-1),
                                  lambda m: m.LSTM(3, 5, proj_size=5),
                                  lambda m: m.GRU(3, 5, proj_size=2),
                                  lambda m: m.RNN(3, 5, proj_size=2)])
def test_bad_proj_size_is_refused_as_torch(make):
    torch = pytest.importorskip("torch")
    with pytest.raises(ValueError) as theirs:
        make(torch.nn)
    with pytest.raises(ValueError) as ours:
        make(nn)
    assert str(ours.value) == str(theirs.value)

