"""``nn.utils``: packed sequences (and the recurrent layers over them), pruning,
parametrizations and weight / spectral norm, against PyTorch — values, gradients, reprs,
parameter / buffer / state dict names, error messages — and gradcheck of the new primitives."""
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad import nn
from tapegrad.autograd import gradcheck, gradgradcheck
from tapegrad.nn.utils import parametrizations, parametrize, prune
from tapegrad.nn.utils import rnn as rnn_utils
from tapegrad.nn.utils.weight_norm import _weight_norm_interface
from tapegrad.ops import norm_except_dim


def _fill(lib, module, k=0.7):
    """The same deterministic parameters in either library."""
    with lib.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(lib.sin(lib.arange(p.numel(), dtype=p.dtype) * k + i).view(p.shape) * 0.5)
    return module


def _np(t):
    return t.detach().numpy()


def _raises_like(ours, theirs):
    """Both raise, the same exception type with the same message."""
    with pytest.raises(Exception) as mine:
        ours()
    with pytest.raises(Exception) as their:
        theirs()
    assert type(mine.value).__name__ == type(their.value).__name__
    assert str(mine.value).replace("tapegrad.", "torch.") == str(their.value)


# ------------------------------------------------------------------------------ packed sequences

def _padded(lib):
    return lib.arange(24, dtype=lib.float64).view(4, 3, 2).requires_grad_()


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("enforce_sorted", [False, True])
def test_pack_and_pad_equal_pytorchs(batch_first, enforce_sorted):
    torch = pytest.importorskip("torch")
    lengths = [4, 2, 1] if enforce_sorted else [2, 4, 1]
    results = []
    for lib, utils in ((tapegrad, rnn_utils), (torch, torch.nn.utils.rnn)):
        x = _padded(lib)
        source = x.transpose(0, 1) if batch_first else x
        packed = utils.pack_padded_sequence(source, lib.tensor(lengths), batch_first,
                                            enforce_sorted)
        padded, out_lengths = utils.pad_packed_sequence(packed, batch_first, -1.0, 6)
        (padded * lib.arange(padded.numel(), dtype=lib.float64).view(padded.shape)).sum()\
            .backward()
        results.append((repr(packed), packed.data.grad_fn.name(), padded.grad_fn.name(),
                        _np(padded), out_lengths.tolist(), _np(x.grad)))
    ours, theirs = results
    assert ours[:3] == theirs[:3]
    np.testing.assert_array_equal(ours[3], theirs[3])
    assert ours[4] == theirs[4]
    np.testing.assert_array_equal(ours[5], theirs[5])


def test_pack_sequence_and_unpack_equal_pytorchs():
    torch = pytest.importorskip("torch")
    outputs = []
    for lib, utils in ((tapegrad, rnn_utils), (torch, torch.nn.utils.rnn)):
        seqs = [lib.ones(2, 1), lib.arange(3.).view(3, 1), lib.full((1, 1), 5.)]
        packed = utils.pack_sequence(seqs, enforce_sorted=False)
        outputs.append((repr(packed), [s.tolist() for s in utils.unpack_sequence(packed)],
                        packed.to(lib.float64).data.dtype == lib.float64, packed.is_cuda))
    assert outputs[0] == outputs[1]


def test_packing_errors_are_pytorchs():
    torch = pytest.importorskip("torch")
    cases = [
        lambda lib, utils: utils.pack_padded_sequence(_padded(lib), [1, 3, 2]),
        lambda lib, utils: utils.pack_padded_sequence(_padded(lib), [3, 2, 0]),
        lambda lib, utils: utils.pack_padded_sequence(_padded(lib), [3]),
        lambda lib, utils: utils.pad_packed_sequence(
            utils.pack_padded_sequence(_padded(lib), [3, 2, 1]), total_length=2),
    ]
    for case in cases:
        _raises_like(lambda case=case: case(tapegrad, rnn_utils),
                     lambda case=case: case(torch, torch.nn.utils.rnn))


def test_pack_gradcheck():
    x = tapegrad.randn(4, 3, 2, dtype=tapegrad.float64, requires_grad=True)

    def pack(t):
        return rnn_utils.pack_padded_sequence(t, [4, 2, 1]).data

    def unpack(t):
        return rnn_utils.pad_packed_sequence(rnn_utils.pack_padded_sequence(t, [4, 3, 1]))[0]

    assert gradcheck(pack, (x,))
    assert gradcheck(unpack, (x,))
    assert gradgradcheck(unpack, (x,))


@pytest.mark.parametrize("kind", ["GRU", "LSTM", "RNN"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_recurrent_layers_over_packed_sequences_equal_pytorchs(kind, bidirectional):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (tapegrad, torch):
        layer = _fill(lib, getattr(lib.nn, kind)(3, 4, num_layers=2,
                                                 bidirectional=bidirectional).double())
        x = lib.cos(lib.arange(45, dtype=lib.float64)).view(5, 3, 3).requires_grad_()
        packed = lib.nn.utils.rnn.pack_padded_sequence(x, lib.tensor([2, 5, 3]),
                                                       enforce_sorted=False)
        directions = 2 if bidirectional else 1
        h0 = lib.sin(lib.arange(2 * directions * 12, dtype=lib.float64)).view(
            2 * directions, 3, 4)
        out, state = layer(packed, (h0, h0 * 0.5) if kind == "LSTM" else h0)
        assert type(out).__name__ == "PackedSequence"
        padded, _ = lib.nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
        states = state if isinstance(state, tuple) else (state,)
        (padded.pow(2).sum() + sum(s.pow(2).sum() for s in states)).backward()
        no_state_out, _ = layer(packed)
        results.append([_np(padded), *map(_np, states), _np(x.grad), _np(no_state_out.data),
                        *(_np(p.grad) for p in layer.parameters())])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_packed_input_size_is_checked():
    layer = nn.GRU(3, 4)
    packed = rnn_utils.pack_sequence([tapegrad.ones(2, 5)])
    with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size"):
        layer(packed)


# ------------------------------------------------------------------------------------- pruning

class _Net:
    """A small conv + linear model in either library, with the same parameters."""

    def __new__(cls, lib):
        model = lib.nn.Sequential(lib.nn.Conv2d(1, 3, 3), lib.nn.Flatten(),
                                  lib.nn.Linear(48, 5), lib.nn.Linear(5, 2))
        return _fill(lib, model, 1.37)


def _pruning_story(lib, prune_module):
    model = _Net(lib)
    conv, fc = model[0], model[2]
    prune_module.l1_unstructured(conv, "weight", amount=0.3)
    names = ([n for n, _ in conv.named_parameters()], [n for n, _ in conv.named_buffers()])
    prune_module.ln_structured(conv, "weight", amount=1, n=2, dim=0)
    hook = next(h for h in conv._forward_pre_hooks.values() if h._tensor_name == "weight")
    history = (type(hook).__name__, [type(h).__name__ for h in hook])
    prune_module.custom_from_mask(fc, "bias", lib.tensor([1., 0., 1., 0., 1.]))
    prune_module.identity(model[3], "bias")
    keys = list(model.state_dict().keys())
    x = lib.cos(lib.arange(2 * 36, dtype=lib.float32) * 0.1).view(2, 1, 6, 6)
    out = model(x)
    out.sum().backward()
    grads = (_np(conv.weight_orig.grad), _np(fc.bias_orig.grad))
    pruned = prune_module.is_pruned(model)
    prune_module.remove(conv, "weight")
    after_remove = ([n for n, _ in conv.named_parameters()], [n for n, _ in conv.named_buffers()],
                    type(conv.weight).__name__)
    prune_module.global_unstructured([(fc, "weight"), (model[3], "weight")],
                                     pruning_method=prune_module.L1Unstructured, amount=20)
    zeros = [int((m.weight == 0).sum()) for m in (fc, model[3])]
    facts = (names, history, keys, pruned, after_remove, zeros, out.grad_fn.name(),
             conv.weight.grad_fn)
    return facts, (_np(out), *grads, _np(model(x)))


def test_pruning_equals_pytorchs():
    torch = pytest.importorskip("torch")
    import torch.nn.utils.prune as torch_prune
    (facts, values), (their_facts, their_values) = (
        _pruning_story(tapegrad, prune), _pruning_story(torch, torch_prune))
    assert facts == their_facts
    for mine, their in zip(values, their_values):
        np.testing.assert_allclose(mine, their, rtol=1e-5, atol=1e-6)


def test_random_pruning_keeps_the_counts():
    tapegrad.manual_seed(0)
    layer = nn.Linear(4, 6)
    prune.random_unstructured(layer, "weight", amount=0.25)
    assert int((layer.weight_mask == 0).sum()) == 6
    prune.random_structured(layer, "weight", amount=2, dim=0)
    assert int((layer.weight_mask.sum(1) == 0).sum()) == 2
    assert [type(m).__name__ for m in layer._forward_pre_hooks[next(iter(
        layer._forward_pre_hooks))]] == ["RandomUnstructured", "RandomStructured"]


def test_pruning_errors_are_pytorchs():
    torch = pytest.importorskip("torch")
    import torch.nn.utils.prune as torch_prune
    cases = [
        lambda lib, p: p.l1_unstructured(lib.nn.Linear(2, 2), "weight", amount=1.5),
        lambda lib, p: p.l1_unstructured(lib.nn.Linear(2, 2), "weight", amount=-1),
        lambda lib, p: p.l1_unstructured(lib.nn.Linear(2, 2), "weight", amount="a"),
        lambda lib, p: p.l1_unstructured(lib.nn.Linear(2, 2), "weight", amount=5),
        lambda lib, p: p.ln_structured(lib.nn.Linear(2, 2), "bias", amount=1, n=1, dim=0),
        lambda lib, p: p.ln_structured(lib.nn.Linear(2, 2), "weight", amount=1, n=1, dim=2),
        lambda lib, p: p.global_unstructured([(lib.nn.Linear(2, 2), "weight")],
                                             pruning_method=p.LnStructured, amount=1, n=1),
    ]
    for case in cases:
        _raises_like(lambda case=case: case(tapegrad, prune),
                     lambda case=case: case(torch, torch_prune))
    layer = nn.Linear(2, 2)
    with pytest.raises(ValueError, match="Parameter 'weight' of module Linear.* has to be "
                                         "pruned before pruning can be removed"):
        prune.remove(layer, "weight")
    with pytest.raises(ValueError):
        prune.l1_unstructured(layer, "weight", amount=5)
    # a failed pruning leaves the parameter in place (re-registered last, as in PyTorch)
    assert [n for n, _ in layer.named_parameters()] == ["bias", "weight"]
    assert not layer._buffers
    assert not prune.is_pruned(layer)


# ----------------------------------------------------------------------------- parametrizations

def _symmetric(lib):
    class Symmetric(lib.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)
    return Symmetric()


def _scale(lib, s):
    class Scale(lib.nn.Module):
        def forward(self, X):
            return X * s

        def right_inverse(self, A):
            return A / s
    return Scale()


def _parametrize_story(lib, P):
    layer = _fill(lib, lib.nn.Linear(3, 3))
    P.register_parametrization(layer, "weight", _symmetric(lib))
    P.register_parametrization(layer, "weight", _scale(lib, 2.0))
    facts = [repr(layer), type(layer).__name__, layer.weight.grad_fn.name(),
             P.is_parametrized(layer), P.is_parametrized(layer, "bias"),
             list(layer.state_dict().keys()), [n for n, _ in layer.named_parameters()],
             P.type_before_parametrizations(layer).__name__]
    x = lib.linspace(-1, 1, 6).view(2, 3)
    layer(x).pow(2).sum().backward()
    values = [_np(layer.weight), _np(layer.parametrizations.weight.original.grad)]
    with P.cached():
        facts.append(layer.weight is layer.weight)
    facts.append(layer.weight is layer.weight)
    scaled = lib.nn.Linear(2, 2, bias=False)
    P.register_parametrization(scaled, "weight", _scale(lib, 4.0))
    original = scaled.parametrizations.weight.original
    scaled.weight = lib.tensor([[1.0, 2.0], [3.0, 4.0]])
    values += [_np(scaled.weight), _np(original)]
    facts.append(original is scaled.parametrizations.weight.original)
    loaded = lib.nn.Linear(2, 2, bias=False)
    P.register_parametrization(loaded, "weight", _scale(lib, 4.0))
    loaded.load_state_dict(scaled.state_dict())
    values.append(_np(loaded.weight))
    P.remove_parametrizations(layer, "weight", leave_parametrized=True)
    values.append(_np(layer.weight))
    P.remove_parametrizations(scaled, "weight", leave_parametrized=False)
    values.append(_np(scaled.weight))
    facts += [repr(layer), type(layer).__name__, type(layer.weight).__name__,
              layer.weight.requires_grad, P.is_parametrized(layer),
              list(layer.state_dict().keys()), hasattr(layer, "parametrizations")]
    return facts, values


def test_parametrize_equals_pytorchs():
    torch = pytest.importorskip("torch")
    import torch.nn.utils.parametrize as torch_parametrize
    (facts, values), (their_facts, their_values) = (
        _parametrize_story(tapegrad, parametrize), _parametrize_story(torch, torch_parametrize))
    assert facts == their_facts
    for ours, theirs in zip(values, their_values):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_parametrize_errors_are_pytorchs():
    torch = pytest.importorskip("torch")
    import torch.nn.utils.parametrize as torch_parametrize

    def shape_changer(lib):
        class Row(lib.nn.Module):
            def forward(self, X):
                return X[0]
        return Row()

    def no_inverse(lib, P):
        layer = lib.nn.Linear(2, 2)
        P.register_parametrization(layer, "weight", _symmetric(lib))
        with lib.no_grad():
            layer.weight = lib.ones(2, 2)

    cases = [
        lambda lib, P: P.register_parametrization(lib.nn.Linear(2, 2), "weight",
                                                  shape_changer(lib)),
        lambda lib, P: P.register_parametrization(lib.nn.Linear(2, 2), "nothing",
                                                  _symmetric(lib)),
        lambda lib, P: P.remove_parametrizations(lib.nn.Linear(2, 2), "weight"),
        no_inverse,
    ]
    for case in cases:
        _raises_like(lambda case=case: case(tapegrad, parametrize),
                     lambda case=case: case(torch, torch_parametrize))


def test_unsafe_parametrization_may_change_the_shape():
    layer = nn.Linear(3, 2)

    class FirstRow(nn.Module):
        def forward(self, X):
            return X[:1]

    parametrize.register_parametrization(layer, "weight", FirstRow(), unsafe=True)
    assert layer.weight.shape == (1, 3)
    assert parametrize.is_parametrized(layer, "weight")


def test_parametrizing_a_buffer_and_a_sequence_of_originals():
    layer = nn.BatchNorm1d(2)

    class Split(nn.Module):
        def forward(self, a, b):
            return a + b

        def right_inverse(self, X):
            return X / 2, X / 2

    parametrize.register_parametrization(layer, "running_var", Split())
    assert [n for n, _ in layer.named_buffers()][-2:] == [
        "parametrizations.running_var.original0", "parametrizations.running_var.original1"]
    np.testing.assert_allclose(_np(layer.running_var), [1.0, 1.0])
    with pytest.raises(ValueError, match="Cannot leave unparametrized"):
        parametrize.remove_parametrizations(layer, "running_var", leave_parametrized=False)
    parametrize.remove_parametrizations(layer, "running_var")
    assert "running_var" in dict(layer.named_buffers())
    assert type(layer).__name__ == "BatchNorm1d"


# ------------------------------------------------------------------------ weight / spectral norm

@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm_equals_pytorchs(dim):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (tapegrad, torch):
        new = _fill(lib, lib.nn.Conv1d(2, 3, 2).double())
        lib.nn.utils.parametrizations.weight_norm(new, dim=dim)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            old = lib.nn.utils.weight_norm(_fill(lib, lib.nn.Conv1d(2, 3, 2).double()), dim=dim)
        x = lib.cos(lib.arange(12, dtype=lib.float64)).view(2, 2, 3)
        (new(x).pow(2).sum() + old(x).pow(2).sum()).backward()
        results.append([
            [n for n, _ in new.named_parameters()], [n for n, _ in old.named_parameters()],
            new.weight.grad_fn.name(), old.weight.grad_fn.name(), str(caught[0].message),
            _np(new.weight), _np(old.weight), _np(new.parametrizations.weight.original0.grad),
            _np(new.parametrizations.weight.original1.grad), _np(old.weight_g.grad),
            _np(old.weight_v.grad)])
        lib.nn.utils.remove_weight_norm(old)
        results[-1].append([n for n, _ in old.named_parameters()])
    ours, theirs = results
    assert ours[:5] == theirs[:5] and ours[-1] == theirs[-1]
    for mine, their in zip(ours[5:-1], theirs[5:-1]):
        np.testing.assert_allclose(mine, their, rtol=1e-10)


def test_weight_norm_gradcheck():
    v = tapegrad.randn(3, 4, 2, dtype=tapegrad.float64, requires_grad=True)
    for dim in (0, 1, 2, -1):  # the primitive is used for 0 and 2 only; it handles all
        g = norm_except_dim(v.detach() * 1.5, 2, dim).clone().requires_grad_()
        assert gradcheck(lambda v, g, dim=dim: _weight_norm_interface(v, g, dim=dim), (v, g))


def test_spectral_norm_equals_pytorchs():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (tapegrad, torch):
        layer = lib.nn.utils.parametrizations.spectral_norm(
            _fill(lib, lib.nn.Linear(4, 3).double()))
        norm = layer.parametrizations.weight[0]
        with lib.no_grad():  # the same start for the power iteration in both
            norm._u.copy_(lib.tensor([0.6, 0.0, 0.8], dtype=lib.float64))
            norm._v.copy_(lib.tensor([0.5, 0.5, 0.5, 0.5], dtype=lib.float64))
        x = lib.cos(lib.arange(8, dtype=lib.float64)).view(2, 4)
        layer(x).pow(2).sum().backward()
        layer.eval()
        results.append([[n for n, _ in layer.named_buffers()], layer.weight.grad_fn.name(),
                        _np(layer(x)), _np(norm._u),
                        _np(layer.parametrizations.weight.original.grad)])
    ours, theirs = results
    assert ours[:2] == theirs[:2]
    for mine, their in zip(ours[2:], theirs[2:]):
        np.testing.assert_allclose(mine, their, rtol=1e-8)
    with pytest.raises(IndexError, match="Dimension out of range"):
        parametrizations.spectral_norm(nn.Linear(2, 2), dim=3)


@pytest.mark.parametrize("shape, orthogonal_map, use_trivialization", [
    ((3, 3), None, True), ((4, 4), "cayley", True), ((2, 3, 3), "matrix_exp", True),
    ((5, 3), "householder", False), ((3, 5), "householder", False), ((3, 3), "householder", True),
])
def test_orthogonal_equals_pytorchs(shape, orthogonal_map, use_trivialization):
    torch = pytest.importorskip("torch")
    start = np.random.default_rng(0).standard_normal(shape)
    results = []
    for lib in (tapegrad, torch):
        module = lib.nn.Module()
        module.weight = lib.nn.Parameter(lib.tensor(start))
        lib.nn.utils.parametrizations.orthogonal(module, orthogonal_map=orthogonal_map,
                                                 use_trivialization=use_trivialization)
        weight = module.weight
        (weight * lib.arange(weight.numel(), dtype=lib.float64).view(weight.shape)).sum()\
            .backward()
        original = module.parametrizations.weight.original
        results.append((_np(weight), _np(original), _np(original.grad)))
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, atol=1e-10)


def test_orthogonal_keeps_a_rectangular_weight_orthogonal_while_training():
    tapegrad.manual_seed(0)
    layer = parametrizations.orthogonal(nn.Linear(3, 5))
    optimizer = tapegrad.optim.SGD(layer.parameters(), lr=0.5)
    for _ in range(3):
        optimizer.zero_grad()
        layer(tapegrad.ones(2, 3)).sum().backward()
        optimizer.step()
    weight = layer.weight.detach()
    np.testing.assert_allclose(_np(weight.T @ weight), np.eye(3), atol=1e-5)
    with pytest.raises(ValueError, match="Expected a matrix or batch of matrices. Got a tensor"):
        parametrizations.orthogonal(nn.Linear(3, 5), "bias")
    with pytest.raises(ValueError, match='orthogonal_map has to be one of "matrix_exp"'):
        parametrizations.orthogonal(nn.Linear(3, 5), orthogonal_map="qr")


def test_hook_based_spectral_norm_equals_pytorchs():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (tapegrad, torch):
        layer = lib.nn.utils.spectral_norm(_fill(lib, lib.nn.Conv1d(2, 3, 2).double()))
        with lib.no_grad():
            layer.weight_u.copy_(lib.tensor([0.6, 0.0, 0.8], dtype=lib.float64))
            layer.weight_v.copy_(lib.full((4,), 0.5, dtype=lib.float64))
        x = lib.cos(lib.arange(12, dtype=lib.float64)).view(2, 2, 3)
        out = layer(x)
        out.pow(2).sum().backward()
        facts = [[n for n, _ in layer.named_parameters()], [n for n, _ in layer.named_buffers()],
                 list(layer.state_dict()), layer.weight.grad_fn.name()]
        values = [_np(out), _np(layer.weight_u), _np(layer.weight_orig.grad)]
        lib.nn.utils.remove_spectral_norm(layer)
        facts.append([n for n, _ in layer.named_parameters()])
        values.append(_np(layer.weight))
        results.append((facts, values))
    (facts, values), (their_facts, their_values) = results
    assert facts == their_facts
    for ours, theirs in zip(values, their_values):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10)
    with pytest.raises(ValueError, match="spectral_norm of 'weight' not found in Linear"):
        nn.utils.remove_spectral_norm(nn.Linear(2, 2))
