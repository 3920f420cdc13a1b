"""Recurrent layers as time-series code uses them, against PyTorch where installed: the float32
LSTM's oneDNN node (MkldnnRnnLayerBackward0) with its values and gradients, the weight-name
bookkeeping (_flat_weights_names, _all_weights, _flat_weights) that initialisation loops and
weight-drop wrappers read, and constructor / forward errors; gradcheck of the LSTM layer
primitive in float64 without PyTorch."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck, gradgradcheck
from tapegrad.ops.recurrent import mkldnn_rnn_layer

from same_as_torch import assert_same

LSTMS = {
    "one-layer": (dict(), (5, 2, 3)),
    "two-layers-batch-first": (dict(num_layers=2, batch_first=True), (2, 5, 3)),
    "bidirectional-no-bias": (dict(bidirectional=True, bias=False), (5, 2, 3)),
    "unbatched": (dict(num_layers=2, bidirectional=True), (4, 3)),
}


def _fill(module, lib):
    with lib.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(0.4 * lib.sin(lib.arange(p.numel(), dtype=p.dtype) * 0.7 + i).reshape(p.shape))
    return module


def _lstm_run(lib, kwargs, shape, with_state):
    """Outputs, state and every gradient of a float32 LSTM on fixed data."""
    lstm = _fill(lib.nn.LSTM(3, 4, **kwargs), lib)
    x = lib.cos(lib.arange(int(np.prod(shape)), dtype=lib.float32) * 0.3).reshape(shape)
    x.requires_grad_()
    state = None
    if with_state:
        layers = lstm.num_layers * (2 if lstm.bidirectional else 1)
        state_shape = (layers, 4) if len(shape) == 2 else (layers, shape[0 if lstm.batch_first
                                                                         else 1], 4)
        h0 = lib.full(state_shape, 0.1, requires_grad=True)
        c0 = lib.full(state_shape, -0.2, requires_grad=True)
        state = (h0, c0)
    out, (h, c) = lstm(x, state)
    weights = lib.linspace(-1, 1, out.numel()).reshape(out.shape)
    ((out * weights).sum() + h.pow(2).sum() + c.sum()).backward()
    grads = [x.grad] + [p.grad for p in lstm.parameters()]
    if with_state:
        grads += [state[0].grad, state[1].grad]
    return (out, h, c, *grads)


@pytest.mark.parametrize("name", LSTMS)
@pytest.mark.parametrize("with_state", [False, True])
def test_float32_lstm_values_and_gradients_equal_pytorchs(name, with_state):
    torch = pytest.importorskip("torch")
    kwargs, shape = LSTMS[name]
    assert_same(lambda lib: _lstm_run(lib, kwargs, shape, with_state), torch)


def _graph(lib, kwargs, shape):
    """Node names of the output, h_n and c_n, and of the first layer node's inputs."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lstm = lib.nn.LSTM(3, 4, **kwargs)
        out, (h, c) = lstm(lib.ones(shape))
    layer_node = h.grad_fn.next_functions[0][0] if h.dim() == 3 else None
    inputs = None if layer_node is None else [
        None if fn is None else fn.name() for fn, _ in layer_node.next_functions]
    return (out.grad_fn.name(), h.grad_fn.name(), c.grad_fn.name(),
            [nr for _, nr in h.grad_fn.next_functions], inputs,
            None if layer_node is None else layer_node.name())


@pytest.mark.parametrize("kwargs", [dict(), dict(num_layers=2, bidirectional=True),
                                    dict(batch_first=True, bias=False), dict(proj_size=2)])
def test_lstm_graph_names_equal_pytorchs(kwargs):
    torch = pytest.importorskip("torch")
    for shape in ((5, 2, 3), (5, 3)):
        assert _graph(tapegrad, kwargs, shape) == _graph(torch, kwargs, shape)
    assert _graph(tapegrad, {}, (5, 2, 3))[0] == "MkldnnRnnLayerBackward0"


def test_lstm_node_is_per_layer_and_direction_without_pytorch():
    out, (h, c) = nn.LSTM(3, 4, num_layers=2, bidirectional=True)(tapegrad.ones(5, 2, 3))
    assert out.grad_fn.name() == "CatBackward0"
    assert [fn.name() for fn, _ in h.grad_fn.next_functions] == ["MkldnnRnnLayerBackward0"] * 4
    assert [nr for _, nr in c.grad_fn.next_functions] == [2] * 4
    assert out.grad_fn.next_functions[0][0]._saved_reverse is False
    assert out.grad_fn.next_functions[1][0]._saved_reverse is True
    double, _ = nn.LSTM(3, 4).double()(tapegrad.ones(5, 2, 3, dtype=tapegrad.float64))
    assert double.grad_fn.name() == "StackBackward0"  # PyTorch's default kernel off oneDNN


def test_projected_float32_lstm_warns_once_per_process():
    script = ("import warnings, tapegrad\n"
              "warnings.simplefilter('always')\n"
              "lstm = tapegrad.nn.LSTM(3, 4, proj_size=2)\n"
              "for _ in range(2):\n"
              "    with warnings.catch_warnings(record=True) as caught:\n"
              "        lstm(tapegrad.ones(2, 1, 3))\n"
              "    print([str(w.message) for w in caught])\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=os.path.dirname(os.path.dirname(__file__)))
    assert result.stdout.splitlines() == [
        "['LSTM with projections is not supported with oneDNN. Using default implementation.']",
        "[]"]


def _layer_inputs(reverse):
    rng = np.random.default_rng(3 + reverse)
    shapes = [(4, 2, 3), (8, 3), (8, 2), (8,), (8,), (2, 2), (2, 2)]
    return [tapegrad.tensor(0.5 * rng.standard_normal(s), dtype=tapegrad.float64,
                            requires_grad=True) for s in shapes]


@pytest.mark.parametrize("reverse", [False, True])
def test_lstm_layer_primitive_gradcheck(reverse):
    inputs = _layer_inputs(reverse)

    def layer(*args):
        return mkldnn_rnn_layer(*args, reverse=reverse)
    assert gradcheck(layer, inputs)
    assert gradgradcheck(layer, inputs)


def test_lstm_layer_primitive_is_the_recurrence():
    """Independent truth: the primitive's last output is h_n, and one step by hand matches."""
    x, w_ih, w_hh, b_ih, b_hh, h0, c0 = _layer_inputs(False)
    out, h, c = mkldnn_rnn_layer(x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse=False)
    np.testing.assert_allclose(out[-1].detach().numpy(), h.detach().numpy())
    i, f, g, o = (x[0] @ w_ih.t() + b_ih + h0 @ w_hh.t() + b_hh).chunk(4, -1)
    c1 = f.sigmoid() * c0 + i.sigmoid() * g.tanh()
    np.testing.assert_allclose(out[0].detach().numpy(),
                               (o.sigmoid() * c1.tanh()).detach().numpy(), rtol=1e-12)


def _gru_update_nodes(lib):
    """The nodes of a GRU step's last operations: PyTorch writes (1 - z) n + z h as
    (h - n) z + n."""
    h = lib.nn.GRUCell(2, 3)(lib.ones(1, 2), lib.zeros(1, 3))
    below = [fn.name() for fn, _ in h.grad_fn.next_functions]
    return h.grad_fn.name(), below, [fn.name() for fn, _ in
                                     h.grad_fn.next_functions[0][0].next_functions]


def test_gru_update_is_written_as_pytorchs():
    torch = pytest.importorskip("torch")
    assert _gru_update_nodes(tapegrad) == _gru_update_nodes(torch)


# ------------------------------------------------------------------ weight-name bookkeeping

NAMED_LAYERS = [lambda m: m.LSTM(2, 4, num_layers=2, bidirectional=True, proj_size=2),
                lambda m: m.GRU(2, 3, bias=False, bidirectional=True),
                lambda m: m.RNN(2, 3, num_layers=2, nonlinearity="relu"),
                lambda m: m.LSTM(2, 4, proj_size=1, bias=False)]


@pytest.mark.parametrize("make", NAMED_LAYERS)
def test_weight_names_equal_pytorchs(make):
    torch = pytest.importorskip("torch")
    ours, theirs = make(nn), make(torch.nn)
    assert ours._flat_weights_names == theirs._flat_weights_names
    assert ours._all_weights == theirs._all_weights
    assert [tuple(w.shape) for w in ours._flat_weights] == \
        [tuple(w.shape) for w in theirs._flat_weights]


def test_weight_names_and_flat_weights_follow_assignment():
    lstm = nn.LSTM(2, 3, bias=False)
    assert lstm._all_weights == [["weight_ih_l0", "weight_hh_l0"]]
    assert all(w is getattr(lstm, n) for w, n in zip(lstm._flat_weights,
                                                       lstm._flat_weights_names))
    raw = lstm.weight_hh_l0
    del lstm.weight_hh_l0
    replacement = raw.detach() * 2  # a weight-drop wrapper's plain tensor
    lstm.weight_hh_l0 = replacement
    assert lstm._flat_weights[1] is replacement and lstm.all_weights[0][1] is replacement
    lstm.double()
    assert lstm._flat_weights[0].dtype == tapegrad.float64


def test_flat_weights_refresh_at_forward_after_a_parametrization():
    lstm = nn.utils.parametrizations.weight_norm(nn.LSTM(2, 3), "weight_hh_l0")
    assert type(lstm._flat_weights[1]) is nn.Parameter  # the weight before parametrizing
    lstm(tapegrad.ones(4, 1, 2))
    assert type(lstm._flat_weights[1]) is tapegrad.Tensor
    np.testing.assert_allclose(lstm._flat_weights[1].detach().numpy(),
                               lstm.weight_hh_l0.detach().numpy())


# ------------------------------------------------------------------------------- errors

ERRORS = [
    lambda m: m.RNN(3, 4)(m.ones(0, 2, 3)),
    lambda m: m.LSTM(3, 4, batch_first=True)(m.ones(2, 0, 3)),
    lambda m: m.GRU(3, 4)(m.ones(0, 3)),
    lambda m: m.LSTM(3, 4, batch_first=True)(m.ones(0, 2, 3))[0].shape,
    lambda m: m.LSTM(0, 3),
    lambda m: m.GRU(3.0, 3),
    lambda m: m.GRU(3, 4, bias=1),
    lambda m: m.LSTM(3, 4, batch_first=None),
    lambda m: m.RNN(3, 4.5),
    lambda m: m.LSTM(3, 4, dropout=True),
    lambda m: m.GRU(3, 4, proj_size=0),
    lambda m: m.RNN(3, 4, proj_size=2),
    lambda m: repr(m.RNNCell(3, 4, nonlinearity="gelu")),
    lambda m: m.RNNCell(3, 4, nonlinearity="gelu")(m.ones(2, 3)),
    lambda m: m.GRUCell(3, 4)(m.ones(2, 3), m.zeros(4)),
    lambda m: m.GRUCell(3, 2)(m.ones(2, 3), m.zeros(2)),
    lambda m: m.LSTMCell(3, 4)(m.ones(3), (m.zeros(2, 4), m.zeros(2, 4))),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_equal_pytorchs(index):
    torch = pytest.importorskip("torch")
    case = ERRORS[index]
    assert_same(lambda lib: case(_Namespace(lib)), torch)


class _Namespace:
    """``torch.nn`` classes and ``torch`` factories under one name, for the one-line cases."""

    def __init__(self, lib):
        self._lib = lib

    def __getattr__(self, name):
        return getattr(self._lib.nn if hasattr(self._lib.nn, name) else self._lib, name)


def test_errors_without_pytorch():
    with pytest.raises(RuntimeError, match="Expected sequence length to be larger than 0"):
        nn.LSTM(3, 4)(tapegrad.ones(0, 2, 3))
    with pytest.raises(ValueError, match="input_size must be greater than zero"):
        nn.GRU(0, 4)
    with pytest.raises(ValueError, match="only supported for LSTM"):
        nn.GRU(3, 4, proj_size=0)
    cell = nn.RNNCell(3, 4, nonlinearity="gelu")  # accepted until used, as in PyTorch
    with pytest.raises(RuntimeError, match="Unknown nonlinearity: gelu"):
        cell(tapegrad.ones(2, 3))


def test_a_compiled_lstm_fuses_the_cell_instead_of_the_onednn_node():
    """The oneDNN layer is one node with no kernel lowering: a traced LSTM takes the cell's
    operations, which compile (no numpy fallback), and gives eager's loss and gradients."""
    lstm, head = tapegrad.nn.LSTM(3, 4, batch_first=True), tapegrad.nn.Linear(4, 2)
    x = tapegrad.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(2, 2, 3))
    y = tapegrad.tensor([0, 1])

    def loss_fn(x, y):
        out, _ = lstm(x)
        return tapegrad.nn.functional.cross_entropy(head(out[:, -1]), y)
    eager = loss_fn(x, y)
    eager.backward()
    expected = lstm.weight_ih_l0.grad.numpy().copy()
    lstm.zero_grad()
    compiled = tapegrad.compile(loss_fn)
    loss = compiled(x, y)  # traced (eagerly) and compiled
    lstm.zero_grad()
    loss = compiled(x, y)
    loss.backward()
    assert "without a lowering" not in str(compiled.explain())
    np.testing.assert_allclose(loss.item(), eager.item(), rtol=1e-6)
    np.testing.assert_allclose(lstm.weight_ih_l0.grad.numpy(), expected, rtol=1e-5, atol=1e-7)
