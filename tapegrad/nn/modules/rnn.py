"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` and their single-step cells.

They are composites of recorded ops (``linear``, ``sigmoid``, ``tanh``, ``chunk``, ``stack``), so
backpropagation through time needs nothing of its own. Parameter names, shapes, gate order
(LSTM: input, forget, cell, output; GRU: reset, update, new) and initialisation are PyTorch's, so
state dicts move between the two libraries.

A sequence layer projects the whole input sequence through ``weight_ih`` at once, then steps
through time with the recurrent ``weight_hh`` product only. Over a ``PackedSequence`` each step
runs on the sequences still going only, so every final state is that of its sequence's last
valid step, as in PyTorch.
"""
import math
import numbers

from ... import dtypes, ops
from ...ops import recurrent
from ..._warnings import warn_at_caller
from ...tensor import _warn_once
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module

__all__ = ["RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "RNNBase", "RNN", "LSTM", "GRU"]


# ----------------------------------------------------------------------------- one time step
# Each takes the input already projected (``x W_ih^T + b_ih``) and returns the new state.

def _rnn_step(projected, hidden, w_hh, b_hh, nonlinearity):
    pre_activation = projected + F.linear(hidden, w_hh, b_hh)
    return ops.tanh(pre_activation) if nonlinearity == "tanh" else ops.relu(pre_activation)


def _lstm_step(projected, state, w_hh, b_hh, w_hr=None):
    """``w_hr``: the projection of the hidden state (``proj_size``), if any."""
    hidden, cell = state
    gates = projected + F.linear(hidden, w_hh, b_hh)
    in_gate, forget_gate, cell_gate, out_gate = gates.chunk(4, -1)
    cell = forget_gate.sigmoid() * cell + in_gate.sigmoid() * cell_gate.tanh()
    hidden = out_gate.sigmoid() * cell.tanh()
    return (hidden if w_hr is None else F.linear(hidden, w_hr)), cell


def _gru_step(projected, hidden, w_hh, b_hh):
    input_reset, input_update, input_new = projected.chunk(3, -1)
    hidden_reset, hidden_update, hidden_new = F.linear(hidden, w_hh, b_hh).chunk(3, -1)
    reset = (input_reset + hidden_reset).sigmoid()
    update = (input_update + hidden_update).sigmoid()
    new = (input_new + reset * hidden_new).tanh()
    return (hidden - new) * update + new  # PyTorch's form of (1 - z) n + z h, and its rounding


_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _reset_uniform(module, hidden_size):
    """PyTorch's initialisation for recurrent weights: U(-1/sqrt(hidden), 1/sqrt(hidden))."""
    bound = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0
    for weight in module.parameters():
        init.uniform_(weight, -bound, bound)


# ------------------------------------------------------------------------------------ cells

class RNNCellBase(Module):
    """``num_chunks``: the gates stacked in each weight (PyTorch's signature, which custom
    cells subclassing this call)."""

    _PAIRED_STATE = False  # LSTMCell's: (h, c)

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        gates = num_chunks * hidden_size
        factory = {"device": device, "dtype": dtype}
        self.weight_ih = Parameter(ops.empty((gates, input_size), **factory))
        self.weight_hh = Parameter(ops.empty((gates, hidden_size), **factory))
        if bias:
            self.bias_ih = Parameter(ops.empty(gates, **factory))
            self.bias_hh = Parameter(ops.empty(gates, **factory))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        _reset_uniform(self, self.hidden_size)

    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            text += f", nonlinearity={self.nonlinearity}"
        return text

    def _batched(self, input, state):
        """The input as (N, input_size) and a zero state if none was given; and whether the
        input had no batch dimension."""
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if state is not None:
            named = ((f"hx[{index}]", part) for index, part in enumerate(state)) \
                if self._PAIRED_STATE else (("hidden", state),)
            for what, part in named:
                if part.dim() not in (1, 2):
                    raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got "
                                     f"{part.dim()}D instead")
        unbatched = input.dim() == 1
        if unbatched:
            input = input.unsqueeze(0)
        if state is None:
            zeros = ops.zeros(input.shape[0], self.hidden_size, dtype=input.dtype)
            state = (zeros, zeros) if self._PAIRED_STATE else zeros
        elif unbatched:  # PyTorch rebuilds a pair from the first two parts
            state = (state[0].unsqueeze(0), state[1].unsqueeze(0)) if self._PAIRED_STATE \
                else state.unsqueeze(0)
        self._check_step_shapes(input, state)
        return input, state, unbatched

    def _check_step_shapes(self, input, state):
        """ATen's checks of one cell step, in its order: the state's type and count (of
        LSTMCell's pair), the input's features, then each state part's batch and features."""
        if self._PAIRED_STATE:
            _check_pair(state, "lstm_cell",
                        "lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not {}")
        if input.shape[1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[1]} "
                               f"expected {self.input_size}")
        for index, part in enumerate(state if self._PAIRED_STATE else (state,)):
            if part.shape[0] != input.shape[0]:
                raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match "
                                   f"hidden{index} batch size {part.shape[0]}")
            if part.dim() < 2:  # a 1-D state with a batched input: ATen reads its size(1)
                raise IndexError("Dimension out of range (expected to be in range of [-1, 0], "
                                 "but got 1)")
            if part.shape[1] != self.hidden_size:
                raise RuntimeError(f"hidden{index} has inconsistent hidden_size: got "
                                   f"{part.shape[1]}, expected {self.hidden_size}")


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, hx, unbatched = self._batched(input, hx)
        if self.nonlinearity not in ("tanh", "relu"):  # PyTorch checks it here, not at init
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        hidden = _rnn_step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh,
                           self.bias_hh, self.nonlinearity)
        return hidden.squeeze(0) if unbatched else hidden


class LSTMCell(RNNCellBase):
    _PAIRED_STATE = True

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input, hx=None):
        input, hx, unbatched = self._batched(input, hx)
        hidden, cell = _lstm_step(F.linear(input, self.weight_ih, self.bias_ih), hx,
                                  self.weight_hh, self.bias_hh)
        return (hidden.squeeze(0), cell.squeeze(0)) if unbatched else (hidden, cell)


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input, hx=None):
        input, hx, unbatched = self._batched(input, hx)
        hidden = _gru_step(F.linear(input, self.weight_ih, self.bias_ih), hx, self.weight_hh,
                           self.bias_hh)
        return hidden.squeeze(0) if unbatched else hidden


# --------------------------------------------------------------------------- sequence layers

class RNNBase(Module):
    """Stacked, optionally bidirectional recurrence over (L, N, H_in) — or (N, L, H_in) with
    ``batch_first`` — or unbatched (L, H_in) sequences, or a ``PackedSequence``. Subclasses
    give ``_step``, one time step of one direction of one layer. ``mode``: PyTorch's name of
    the recurrence, 'RNN_TANH', 'RNN_RELU', 'LSTM' or 'GRU'."""

    # How PyTorch words a wrong input rank, and whether its kernel hands a batch_first output
    # back through ``transpose_`` (TransposeBackward1) or ``transpose`` (TransposeBackward0).
    _RANK_ERROR = "{}: Expected input to be 2D or 3D, got {}D instead"
    _TRANSPOSES_OUTPUT_IN_PLACE = True

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)  # before the checks, as in PyTorch
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        _check_options(input_size, hidden_size, num_layers, bias, batch_first, dropout,
                       proj_size)
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        directions = 2 if bidirectional else 1
        gates = _GATES[mode] * hidden_size
        factory = {"device": device, "dtype": dtype}
        output_size = proj_size or hidden_size  # what each step hands on
        # PyTorch's bookkeeping of the weights' names, per (layer, direction) and flat, which
        # initialisation loops and weight-drop wrappers read.
        self._all_weights = []
        self._flat_weights_names = []
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else output_size * directions
            shapes = [("weight_ih", (gates, layer_input)), ("weight_hh", (gates, output_size))]
            if bias:
                shapes += [("bias_ih", (gates,)), ("bias_hh", (gates,))]
            if proj_size:
                shapes += [("weight_hr", (proj_size, hidden_size))]
            for suffix in ("", "_reverse")[:directions]:
                names = [f"{kind}_l{layer}{suffix}" for kind, _ in shapes]
                for name, (_, shape) in zip(names, shapes):
                    setattr(self, name, Parameter(ops.empty(shape, **factory)))
                self._all_weights.append(names)
                self._flat_weights_names.extend(names)
        self._init_flat_weights()
        self.reset_parameters()

    def _init_flat_weights(self):
        """``_flat_weights``: the weights under ``_flat_weights_names`` as they are now (None
        for one deleted), refreshed at each forward as PyTorch does once a parametrization or
        ``functional_call`` has swapped one."""
        self._flat_weights = [getattr(self, name) if hasattr(self, name) else None
                              for name in self._flat_weights_names]

    def __setattr__(self, name, value):
        """Re-assigning a weight (as weight-drop wrappers do) updates ``_flat_weights`` too."""
        names = self.__dict__.get("_flat_weights_names", ())
        if name in names:
            self._flat_weights[names.index(name)] = value
        super().__setattr__(name, value)

    def reset_parameters(self):
        _reset_uniform(self, self.hidden_size)

    @property
    def all_weights(self):
        """The parameters of each (layer, direction), in PyTorch's order: weight_ih,
        weight_hh, then bias_ih, bias_hh (with ``bias``), then weight_hr (with ``proj_size``)."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self):
        """A no-op: PyTorch compacts the weights into one buffer for cuDNN; here each
        parameter is its own array already."""

    def extra_repr(self):
        text = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            text += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if self.batch_first is not False:
            text += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            text += f", bidirectional={self.bidirectional}"
        return text

    def _weights(self, layer, suffix):
        """weight_ih, weight_hh, bias_ih, bias_hh, weight_hr (None where absent)."""
        return tuple(getattr(self, name) if hasattr(self, name) else None
                     for name in _parameter_names(layer, suffix))

    def _run_direction(self, sequence, state, layer, suffix, batch_sizes=None):
        """Run one layer in one direction over (L, N, H_in) — or over packed data (sum of
        lengths, H_in) whose ``batch_sizes`` say how many sequences each step holds; outputs in
        the same layout and the final state (of each sequence's last valid step)."""
        w_ih, w_hh, b_ih, b_hh, w_hr = self._weights(layer, suffix)
        projected = F.linear(sequence, w_ih, b_ih)
        if batch_sizes is None:
            steps = range(sequence.shape[0])
            outputs = [None] * sequence.shape[0]
            projected = projected.unbind(0)
            for t in reversed(steps) if suffix else steps:
                state = self._step(projected[t], state, w_hh, b_hh, w_hr)
                outputs[t] = _hidden(state)
            return ops.stack(outputs), state
        return self._run_packed(projected.split(batch_sizes), state, (w_hh, b_hh, w_hr),
                                reverse=bool(suffix))

    def _run_packed(self, steps, state, weights, reverse):
        """Step through packed time steps, whose batch only shrinks (forward) or grows
        (reverse). Forward: a sequence that ends leaves its rows of the state behind as final.
        Reverse: a sequence starts from its rows of the initial state when it first appears."""
        outputs = [None] * len(steps)
        if reverse:
            initial, state = state, _rows(state, 0, steps[-1].shape[0])
            for t in reversed(range(len(steps))):
                running = _batch(state)
                if steps[t].shape[0] > running:
                    state = _joined(state, _rows(initial, running, steps[t].shape[0]))
                state = self._step(steps[t], state, *weights)
                outputs[t] = _hidden(state)
            return ops.cat(outputs), state
        ended = []
        for t, projected in enumerate(steps):
            running = projected.shape[0]
            if running < _batch(state):
                ended.append(_rows(state, running, _batch(state)))
                state = _rows(state, 0, running)
            state = self._step(projected, state, *weights)
            outputs[t] = _hidden(state)
        for rows in reversed(ended):
            state = _joined(state, rows)
        return ops.cat(outputs), state

    def _initial_state(self, batch, dtype):
        return ops.zeros(self._expected_state_size(batch), dtype=dtype)

    def forward(self, input, hx=None):
        """PyTorch's steps, through the same overridable methods: the ranks, then
        ``check_forward_args`` on the batched input and state, then the kernel's checks."""
        self._init_flat_weights()
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        if input.dim() not in (2, 3):
            raise ValueError(self._RANK_ERROR.format(type(self).__name__, input.dim()))
        unbatched = input.dim() == 2
        if unbatched:
            input = input.unsqueeze(0 if self.batch_first else 1)
        batch = input.shape[0 if self.batch_first else 1]
        hx = self._initial_state(batch, input.dtype) if hx is None else \
            self._batched_state(hx, unbatched)
        self.check_forward_args(input, hx, None)
        states = self._split_state(hx, None)
        sequence = input.transpose(0, 1) if self.batch_first else input
        if sequence.shape[0] == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        sequence, finals = self._layers(sequence, states)
        if unbatched:
            output = sequence.squeeze(1)
        elif self.batch_first and self._TRANSPOSES_OUTPUT_IN_PLACE:
            output = sequence.transpose_(0, 1)
        else:
            output = sequence.transpose(0, 1) if self.batch_first else sequence
        return output, self._join_state(finals, unbatched)

    def _forward_packed(self, packed, hx):
        """A PackedSequence in, a PackedSequence out; the given and the returned states are
        in the caller's batch order (the packed one is by decreasing length)."""
        data, batch_sizes = packed.data, packed.batch_sizes
        hx = self._initial_state(int(batch_sizes[0]), data.dtype) if hx is None else \
            self.permute_hidden(hx, packed.sorted_indices)
        self._check_packed_args(data, hx, batch_sizes)
        states = self._split_state(hx, batch_sizes)
        data, finals = self._layers(data, states, [int(n) for n in batch_sizes.numpy()])
        state = self.permute_hidden(self._join_state(finals, False), packed.unsorted_indices)
        return type(packed)(data, batch_sizes, packed.sorted_indices,
                            packed.unsorted_indices), state

    def _check_packed_args(self, data, hx, batch_sizes):
        """Packed data and the (permuted) state, before the kernel (not so for LSTM)."""
        self.check_forward_args(data, hx, batch_sizes)

    # PyTorch's public checks, which subclasses override to accept other inputs or states.

    def check_input(self, input, batch_sizes):
        """The input's dtype (the weights'), its rank (2 for packed data, with
        ``batch_sizes``, else 3) and its features."""
        self._check_input_dtype(input)
        rank = 2 if batch_sizes is not None else 3
        if input.dim() != rank:
            raise RuntimeError(f"input must have {rank} dimensions, got {input.dim()}")
        self._check_input_size(input)

    def get_expected_hidden_size(self, input, batch_sizes):
        return self._expected_state_size(self._mini_batch(input, batch_sizes))

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if hx.size() != expected_hidden_size:  # a Size: never equal to a list, as in PyTorch
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.shape)))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        """``hx`` with its batch (dim 1) reordered by ``permutation`` (None: as it is)."""
        return hx if permutation is None else hx.index_select(1, permutation)

    def _mini_batch(self, input, batch_sizes):
        if batch_sizes is not None:
            return int(batch_sizes[0])
        return input.shape[0 if self.batch_first else 1]

    def _check_input_dtype(self, input):
        weight = self.weight_ih_l0
        if input.dtype != weight.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype "
                             f"({weight.dtype}). Convert input: input.to({weight.dtype}), or "
                             f"convert model: model.to({input.dtype})")

    def _expected_state_size(self, batch, projected=True):
        directions = 2 if self.bidirectional else 1
        size = (self.proj_size or self.hidden_size) if projected else self.hidden_size
        return (self.num_layers * directions, batch, size)

    def _batched_state(self, hx, unbatched):
        """A given initial state after PyTorch's check of its rank; with a batch dimension
        if the input had none."""
        rank = 2 if unbatched else 3
        if hx.dim() != rank:
            kind = "unbatched 2-D" if unbatched else "batched 3-D"
            raise RuntimeError(f"For {kind} input, hx should also be {rank}-D but got "
                               f"{hx.dim()}-D tensor")
        return hx.unsqueeze(1) if unbatched else hx

    def _check_input_size(self, input):
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")

    def _layers(self, sequence, states, batch_sizes=None):
        """Run every layer, both directions, over ``sequence`` (see ``_run_direction``); the
        last layer's output and the final state of each (layer, direction)."""
        directions = ("", "_reverse") if self.bidirectional else ("",)
        finals = []
        for layer in range(self.num_layers):
            if layer > 0 and self.dropout > 0:
                sequence = F.dropout(sequence, self.dropout, self.training)
            outputs = []
            for index, suffix in enumerate(directions):
                output, final = self._run_direction(
                    sequence, states[layer * len(directions) + index], layer, suffix,
                    batch_sizes)
                outputs.append(output)
                finals.append(final)
            sequence = outputs[0] if len(outputs) == 1 else ops.cat(outputs, -1)
        return sequence, finals

    def _split_state(self, hx, batch_sizes):
        """The initial state of each (layer, direction), after the kernel's own checks of it
        (given ``batch_sizes`` for packed input)."""
        return list(hx.unbind(0))

    def _join_state(self, finals, unbatched):
        h_n = ops.stack(finals)
        return h_n.squeeze(1) if unbatched else h_n


def _check_options(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size):
    """PyTorch's checks of a sequence layer's options, in its order."""
    if isinstance(dropout, bool) or not isinstance(dropout, numbers.Number) or \
            not 0 <= dropout <= 1:
        raise ValueError("dropout should be a number in range [0, 1] representing the "
                         "probability of an element being zeroed")
    if dropout > 0 and num_layers == 1:
        warn_at_caller("dropout option adds dropout after all but last recurrent layer, so "
                       "non-zero dropout expects num_layers greater than 1, but got "
                       f"dropout={dropout} and num_layers={num_layers}")
    for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                              ("input_size", input_size, int)):
        if not isinstance(value, kind):
            raise TypeError(f"{name} should be of type {kind.__name__}, got: "
                            f"{type(value).__name__}")
    if input_size <= 0:
        raise ValueError("input_size must be greater than zero")
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


def _refuse_projections(proj_size):
    """RNN and GRU refuse a ``proj_size`` argument whatever its value, as PyTorch does."""
    if proj_size is not None:
        raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")


def _check_pair(state, op, wrong_type):
    """ATen's checks of an LSTM state: a tuple (or list) of two tensors. ``wrong_type``: the
    error of ``op``'s argument parser for anything else, given its type's name."""
    if not isinstance(state, (tuple, list)):
        raise TypeError(wrong_type.format(type(state).__name__))
    if len(state) != 2:
        raise RuntimeError(f"{op} expects two hidden states")


def _hidden(state):
    """What a step hands on as output: h (of LSTM's pair (h, c))."""
    return state[0] if isinstance(state, tuple) else state


def _batch(state):
    return _hidden(state).shape[0]


def _rows(state, start, stop):
    """Rows ``start:stop`` (sequences of the batch) of a state, or of each part of a pair."""
    if isinstance(state, tuple):
        return tuple(part[start:stop] for part in state)
    return state[start:stop]


def _joined(state, rows):
    """``rows`` appended to the batch of ``state``."""
    if isinstance(state, tuple):
        return tuple(ops.cat([part, more]) for part, more in zip(state, rows))
    return ops.cat([state, rows])


def _parameter_names(layer, suffix):
    return tuple(f"{kind}_l{layer}{suffix}" for kind in
                 ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr"))


class RNN(RNNBase):
    _RANK_ERROR = "{}: Expected input to be 2D or 3D, got {}D tensor instead"

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True,
                 batch_first=False, dropout=0.0, bidirectional=False, proj_size=None, device=None,
                 dtype=None):
        _refuse_projections(proj_size)
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(mode, input_size, hidden_size, num_layers, bias, batch_first, dropout,
                         bidirectional, 0, device, dtype)
        self.nonlinearity = nonlinearity

    def _step(self, projected, state, w_hh, b_hh, w_hr):
        return _rnn_step(projected, state, w_hh, b_hh, self.nonlinearity)


class GRU(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=None, device=None, dtype=None):
        _refuse_projections(proj_size)
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout,
                         bidirectional, 0, device, dtype)

    def _step(self, projected, state, w_hh, b_hh, w_hr):
        return _gru_step(projected, state, w_hh, b_hh)


# How ATen's ``lstm`` refuses a state that is not a tuple: given the types of its arguments.
_LSTM_TYPE_ERROR = "lstm() received an invalid combination of arguments - got ({}), but " \
    "expected one of:"
# oneDNN's errors for an LSTM state of another dtype than its float32 input, by that dtype (any
# other: "get_mkldnn_dtype: unsupported data type").
_NO_PRIMITIVE = ("could not create a primitive descriptor for the LSTM forward propagation "
                 "primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get "
                 "additional diagnostic information.")
_NOT_FLOATING = "itensor_view_from_dense expects float, bfloat16 or half tensor input"
_ONEDNN_STATE_ERRORS = {dtypes.float16: _NO_PRIMITIVE, dtypes.bfloat16: _NO_PRIMITIVE,
                        dtypes.int8: _NOT_FLOATING, dtypes.uint8: _NOT_FLOATING}


class LSTM(RNNBase):
    """Its state is a pair ``(h, c)``, given and returned as such."""

    _TRANSPOSES_OUTPUT_IN_PLACE = False

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def _step(self, projected, state, w_hh, b_hh, w_hr):
        return _lstm_step(projected, state, w_hh, b_hh, w_hr)

    def _run_direction(self, sequence, state, layer, suffix, batch_sizes=None):
        """Where PyTorch's CPU kernel is oneDNN's, one MkldnnRnnLayerBackward0 node per layer
        and direction, as there."""
        if not self._on_onednn(sequence, batch_sizes):
            return super()._run_direction(sequence, state, layer, suffix, batch_sizes)
        w_ih, w_hh, b_ih, b_hh, _ = self._weights(layer, suffix)
        if b_ih is None:  # oneDNN takes zero biases, which need no gradient
            b_ih = b_hh = ops.zeros(w_ih.shape[0], dtype=w_ih.dtype)
        for part in state:
            if part.dtype != sequence.dtype:
                raise RuntimeError(_ONEDNN_STATE_ERRORS.get(
                    part.dtype, "get_mkldnn_dtype: unsupported data type"))
        output, hidden, cell = recurrent.mkldnn_rnn_layer(sequence, w_ih, w_hh, b_ih, b_hh,
                                                          *state, reverse=bool(suffix))
        return output, (hidden, cell)

    def _on_onednn(self, sequence, batch_sizes):
        """Whether PyTorch runs this on oneDNN: float32, not packed, not empty, and without
        projections (which it refuses with a warning, once per process). Not while a compiled
        function is traced: its kernels fuse the cell's operations, which the oneDNN layer's
        single node would hide from them."""
        from ... import compiler
        if batch_sizes is not None or sequence.dtype != dtypes.float32 or sequence.numel() == 0 \
                or compiler.is_compiling():
            return False
        if self.proj_size:
            _warn_once("LSTM with projections is not supported with oneDNN. Using default "
                       "implementation.")
            return False
        return True

    def get_expected_cell_size(self, input, batch_sizes):
        return self._expected_state_size(self._mini_batch(input, batch_sizes), projected=False)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def _check_packed_args(self, data, hx, batch_sizes):
        """None: PyTorch's LSTM leaves packed input to its kernel (see ``_split_state``), whose
        product refuses a wrong dtype or size of the data."""

    def _batched_state(self, hx, unbatched):
        rank = 2 if unbatched else 3
        if hx[0].dim() != rank or hx[1].dim() != rank:
            kind = "unbatched 2-D" if unbatched else "batched 3-D"
            raise RuntimeError(f"For {kind} input, hx and cx should also be {rank}-D but got "
                               f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
        return (hx[0].unsqueeze(1), hx[1].unsqueeze(1)) if unbatched else hx

    def _initial_state(self, batch, dtype):
        """With proj_size, h has the projected size and c the hidden one."""
        return (ops.zeros(self._expected_state_size(batch), dtype=dtype),
                ops.zeros(self._expected_state_size(batch, projected=False), dtype=dtype))

    def _split_state(self, hx, batch_sizes):
        """The kernel's checks: a pair (its argument parser's error lists the arguments, which
        differ for packed input); over packed input, the count of states per layer and
        direction, then (tapegrad's own) their sizes."""
        arguments = "Tensor, {}, list, bool, int, float, bool, bool, bool" if batch_sizes is None \
            else "Tensor, Tensor, {}, list, bool, int, float, bool, bool"
        _check_pair(hx, "lstm", _LSTM_TYPE_ERROR.format(arguments))
        if batch_sizes is not None:
            batch = int(batch_sizes[0])
            if any(part.dim() and part.shape[0] != self._expected_state_size(batch)[0]
                   for part in hx):
                raise RuntimeError("Expected more hidden states in stacked_rnn")
            for index, part in enumerate(hx):
                self.check_hidden_size(part, self._expected_state_size(batch, index == 0),
                                       f"Expected hidden[{index}] size {{}}, got {{}}")
        return list(zip(hx[0].unbind(0), hx[1].unbind(0)))

    def _join_state(self, finals, unbatched):
        h_n = ops.stack([h for h, _ in finals])
        c_n = ops.stack([c for _, c in finals])
        return (h_n.squeeze(1), c_n.squeeze(1)) if unbatched else (h_n, c_n)
