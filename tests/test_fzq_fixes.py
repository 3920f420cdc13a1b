"""Differences found by differential fuzzing of recurrent modules and nn.utils against PyTorch
(fzq): PyTorch's constructor signatures of ``RNNBase`` (``mode`` first, a plain ``mode``
attribute, "Unrecognized RNN mode") and ``RNNCellBase`` (``num_chunks``, which custom cells
pass); its public hooks ``check_input``, ``get_expected_hidden_size`` /
``get_expected_cell_size``, ``check_hidden_size``, ``check_forward_args`` and ``permute_hidden``,
which ``forward`` now goes through (so the input is checked after the state's rank, and packed
GRU/RNN data of the wrong rank is refused); LSTM's state that is not a pair (a tensor, three
parts) for ``nn.LSTM`` and ``nn.LSTMCell``; oneDNN's refusal of an LSTM state of another dtype
than its float32 input; packed LSTM input left unchecked to the kernel's product, as there;
``dropout`` converted by ``float`` before the checks; ``clip_grad_norm_`` converting
``max_norm`` with no gradient to clip; ``pack_padded_sequence``'s check order (empty input
before a missing batch dimension); ``pad_packed_sequence``'s refusal of a non-integer
``total_length``; and the backward of a copy into an empty region (``pad_sequence`` of an empty
sequence on the left)."""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same, outcome

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

_RNG = np.random.default_rng(0)


def _module(lib, kind, *args, **kwargs):
    """``lib.nn.<kind>(*args, **kwargs)`` with the same deterministic weights in either library."""
    module = getattr(lib.nn, kind)(*args, **kwargs)
    with lib.no_grad():
        for index, (_, parameter) in enumerate(module.named_parameters()):
            values = np.cos(np.arange(parameter.numel()) + index).reshape(tuple(parameter.shape))
            parameter.copy_(lib.tensor(0.5 * values))
    return module


def _pair(lib, *shape):
    return lib.zeros(*shape), lib.ones(*shape)


# -- constructor signatures ------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("mode", ["LSTM", "GRU", "RNN_TANH", "RNN_RELU", "FOO"])
def test_rnn_base_takes_the_mode_first(mode):
    assert_same(lambda lib: (repr(lib.nn.RNNBase(mode, 3, 4, num_layers=2)),
                             lib.nn.RNNBase(mode, 3, 4).mode,
                             [tuple(p.shape) for p in lib.nn.RNNBase(mode, 3, 4).parameters()]),
                torch)


@pytest.mark.parametrize("kind, mode", [("LSTM", "LSTM"), ("GRU", "GRU")])
def test_mode_is_an_attribute_of_the_instance(kind, mode):
    module = getattr(tapegrad.nn, kind)(2, 3)
    assert module.__dict__["mode"] == mode


@needs_torch
def test_custom_cells_pass_the_number_of_gates():
    def case(lib):
        class TwoGates(lib.nn.RNNCellBase):
            def __init__(self):
                super().__init__(3, 4, bias=True, num_chunks=2)
        cell = TwoGates()
        return repr(cell), [(n, tuple(p.shape)) for n, p in cell.named_parameters()]
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("kind", ["LSTMCell", "GRUCell"])
def test_cells_refuse_an_unknown_argument_under_their_own_name(kind):
    assert_same(lambda lib: getattr(lib.nn, kind)(3, 4, num_layers=2), torch)


@needs_torch
def test_cell_sizes_must_be_integers():
    assert_same(lambda lib: lib.nn.LSTMCell(3, 4.0), torch)


@needs_torch
@pytest.mark.parametrize("dropout", ["a", None])
def test_dropout_is_converted_before_it_is_checked(dropout):
    assert_same(lambda lib: lib.nn.GRU(3, 4, dropout=dropout), torch)


# -- PyTorch's public checks of RNNBase ------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("kind, options", [("RNN", {}), ("GRU", {"batch_first": True}),
                                           ("LSTM", {"num_layers": 2, "bidirectional": True}),
                                           ("LSTM", {"proj_size": 2})])
def test_expected_state_sizes(kind, options):
    def case(lib):
        module = _module(lib, kind, 3, 4, **options)
        x = lib.ones(2, 5, 3)
        sizes = [module.get_expected_hidden_size(x, None),
                 module.get_expected_hidden_size(x, lib.tensor([3, 2, 1]))]
        if kind == "LSTM":
            sizes.append(module.get_expected_cell_size(x, None))
        return sizes
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("kind", ["GRU", "LSTM"])
@pytest.mark.parametrize("input_shape, batch_sizes, state_shape", [
    ((5, 2, 3), None, (1, 2, 4)), ((5, 2, 2), None, (1, 2, 4)), ((5, 2, 3), None, (1, 3, 4)),
    ((5, 3), [2, 2, 1], (1, 2, 4)), ((5, 2, 3), [2, 2, 1], (1, 2, 4)),
    ((5, 3), [2, 2, 1], (2, 2, 4))])
def test_check_forward_args(kind, input_shape, batch_sizes, state_shape):
    def case(lib):
        module = _module(lib, kind, 3, 4)
        state = lib.zeros(state_shape)
        module.check_forward_args(lib.ones(input_shape), (state, state) if kind == "LSTM" else
                                  state, None if batch_sizes is None else lib.tensor(batch_sizes))
        return "accepted"
    assert_same(case, torch)


@needs_torch
def test_check_input_refuses_another_dtype():
    assert_same(lambda lib: _module(lib, "RNN", 3, 4).check_input(
        lib.ones(5, 2, 3, dtype=lib.float64), None), torch)


@needs_torch
@pytest.mark.parametrize("expected, message", [((1, 2, 5), None), ((1, 2, 5), "{} / {}"),
                                               ([1, 2, 4], None)])
def test_check_hidden_size(expected, message):
    def case(lib):
        arguments = () if message is None else (message,)
        _module(lib, "GRU", 3, 4).check_hidden_size(lib.ones(1, 2, 4), expected, *arguments)
        return "accepted"
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("kind", ["GRU", "LSTM"])
def test_permute_hidden(kind):
    def case(lib):
        state = lib.arange(24.0).reshape(2, 3, 4)
        state = (state, 2 * state) if kind == "LSTM" else state
        module = _module(lib, kind, 3, 4)
        return module.permute_hidden(state, lib.tensor([2, 0, 1])), \
            module.permute_hidden(state, None)
    assert_same(case, torch)


def test_forward_goes_through_an_overridden_check():
    class Unchecked(tapegrad.nn.GRU):
        def check_forward_args(self, input, hidden, batch_sizes):
            self.checked = (tuple(input.shape), tuple(hidden.shape), batch_sizes)
    module = Unchecked(3, 4, batch_first=True)
    output, _ = module(tapegrad.ones(5, 3))  # unbatched: checked with a batch of one
    assert module.checked == ((1, 5, 3), (1, 1, 4), None)
    assert tuple(output.shape) == (5, 4)


@needs_torch
def test_packed_input_goes_through_permute_hidden():
    def case(lib):
        seen = []

        class Recording(lib.nn.LSTM):
            def permute_hidden(self, hx, permutation):
                seen.append(None if permutation is None else permutation.tolist())
                return super().permute_hidden(hx, permutation)
        module = _module(lib, "LSTM", 3, 4)
        module.__class__ = Recording
        packed = lib.nn.utils.rnn.pack_sequence([lib.ones(2, 3), lib.ones(3, 3)],
                                                enforce_sorted=False)
        _, state = module(packed, _pair(lib, 1, 2, 4))
        return seen, state
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
def test_the_state_rank_is_checked_before_the_input(kind):
    def case(lib):
        state = lib.zeros(2, 4)
        return _module(lib, kind, 3, 4)(lib.ones(5, 2, 2), (state, state) if kind == "LSTM"
                                        else state)
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("kind", ["RNN", "GRU"])
def test_packed_data_must_be_two_dimensional(kind):
    assert_same(lambda lib: _module(lib, kind, 3, 4)(
        lib.nn.utils.rnn.pack_sequence([lib.ones(3, 1, 3), lib.ones(2, 1, 3)])), torch)


@needs_torch
@pytest.mark.parametrize("data", [lambda lib: lib.ones(3, 3, dtype=lib.float64),
                                  lambda lib: lib.ones(3, 2)])
def test_packed_lstm_input_is_left_to_the_kernel(data):
    assert_same(lambda lib: _module(lib, "LSTM", 3, 4)(
        lib.nn.utils.rnn.pack_sequence([data(lib), data(lib)[:2]])), torch)


# -- LSTM states that are not a pair ---------------------------------------------------------------

def _lstm_case(state, packed):
    def case(lib):
        x = lib.ones(3, 2, 3)
        if packed:
            x = lib.nn.utils.rnn.pack_padded_sequence(x, [3, 2])
        output, final = _module(lib, "LSTM", 3, 4)(x, state(lib))
        return output.data if packed else output, final
    return case


@needs_torch
@pytest.mark.parametrize("state", [lambda lib: _pair(lib, 1, 2, 4) + (lib.zeros(1, 2, 4),),
                                   lambda lib: [lib.zeros(1, 2, 4), lib.ones(1, 2, 4)]])
@pytest.mark.parametrize("packed", [False, True])
def test_lstm_state_must_be_a_pair(state, packed):
    assert_same(_lstm_case(state, packed), torch)


@needs_torch
@pytest.mark.parametrize("packed", [False, True])
def test_lstm_state_must_be_a_tuple(packed):
    """The first line of the argument parser's error: the rest lists its overloads."""
    case = _lstm_case(lambda lib: lib.zeros(2, 1, 2, 4), packed)
    ours, theirs = (outcome(lib, case) for lib in (tapegrad, torch))
    assert ours[0] == theirs[0] == "TypeError"
    assert ours[1] == theirs[1].splitlines()[0]


@needs_torch
def test_unbatched_lstm_state_is_rebuilt_from_its_first_two_parts():
    assert_same(lambda lib: _module(lib, "LSTM", 3, 4)(lib.ones(5, 3),
                                                        _pair(lib, 1, 4) + (lib.zeros(1, 4),)),
                torch)


@needs_torch
@pytest.mark.parametrize("input_shape, state", [
    ((2, 3), lambda lib: lib.zeros(2, 4)),
    ((2, 3), lambda lib: (lib.zeros(2, 4),)),
    ((2, 3), lambda lib: _pair(lib, 2, 4) + (lib.zeros(2, 4),)),
    ((2, 3), lambda lib: list(_pair(lib, 2, 4))),
    ((3,), lambda lib: lib.arange(8.0).reshape(2, 4)),
    ((3,), lambda lib: _pair(lib, 4) + (lib.zeros(4),))])
def test_lstm_cell_state_must_be_a_pair(input_shape, state):
    assert_same(lambda lib: _module(lib, "LSTMCell", 3, 4)(lib.ones(input_shape), state(lib)),
                torch)


@needs_torch
def test_gru_cell_state_must_be_a_tensor():
    assert_same(lambda lib: _module(lib, "GRUCell", 3, 4)(lib.ones(2, 3), (lib.zeros(2, 4),)),
                torch)


@needs_torch
@pytest.mark.parametrize("dtype", ["float64", "float16", "int8", "int64"])
@pytest.mark.parametrize("part", [0, 1])
def test_onednn_lstm_refuses_a_state_of_another_dtype(dtype, part):
    def case(lib):
        state = list(_pair(lib, 1, 2, 4))
        state[part] = state[part].to(getattr(lib, dtype))
        return _module(lib, "LSTM", 3, 4)(lib.ones(5, 2, 3), tuple(state))
    assert_same(case, torch)


# -- nn.utils --------------------------------------------------------------------------------------

@needs_torch
def test_clip_grad_norm_converts_max_norm_with_nothing_to_clip():
    assert_same(lambda lib: lib.nn.utils.clip_grad_norm_([lib.nn.Parameter(lib.ones(3))], "a"),
                torch)


@needs_torch
@pytest.mark.parametrize("input, lengths", [
    (lambda lib: lib.ones(3), [3]), (lambda lib: lib.ones(0), [3]),
    (lambda lib: lib.ones(0, 2, 1), lambda lib: lib.tensor([[3, 2]])),
    (lambda lib: lib.ones(3), lambda lib: lib.tensor([[3]]))])
@pytest.mark.parametrize("batch_first", [False, True])
def test_pack_padded_sequence_checks_in_pytorchs_order(input, lengths, batch_first):
    assert_same(lambda lib: lib.nn.utils.rnn.pack_padded_sequence(
        input(lib), lengths(lib) if callable(lengths) else lengths, batch_first), torch)


@needs_torch
@pytest.mark.parametrize("total_length", [4.0, np.int64(4)])
def test_pad_packed_sequence_wants_an_integer_total_length(total_length):
    assert_same(lambda lib: lib.nn.utils.rnn.pad_packed_sequence(
        lib.nn.utils.rnn.pack_sequence([lib.ones(3), lib.ones(2)]), total_length=total_length),
        torch)


@pytest.mark.parametrize("padding_side", ["left", "right"])
def test_pad_sequence_of_empty_sequences_backpropagates(padding_side):
    sequences = [tapegrad.zeros(0, 2, dtype=tapegrad.float64, requires_grad=True),
                 tapegrad.tensor(_RNG.standard_normal((0, 2)), requires_grad=True)]
    padded = tapegrad.nn.utils.rnn.pad_sequence(sequences, padding_side=padding_side)
    grads = tapegrad.autograd.grad((padded * padded).sum(), sequences)
    assert [tuple(g.shape) for g in grads] == [(0, 2), (0, 2)]


def test_copy_into_an_empty_view_backpropagates():
    source = tapegrad.ones(0, 2, requires_grad=True)
    base = tapegrad.zeros(0, 3)
    base[:, 1:].copy_(source)  # a region of no element, whose strides numpy leaves at 0
    (grad,) = tapegrad.autograd.grad(base.sum(), source)
    assert tuple(grad.shape) == (0, 2)
