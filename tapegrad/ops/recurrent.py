"""One LSTM layer in one direction as a single primitive (MkldnnRnnLayerBackward0).

PyTorch runs a float32 LSTM on the CPU through oneDNN, which records one node per layer and
direction with outputs (output, h_n, c_n) instead of a node per gate operation; ``nn.LSTM``
uses this primitive where PyTorch takes that path, so graphs and printed tensors name the same
node. The backward rule is backpropagation through time written with tapegrad operations, so
that it is itself differentiable, as PyTorch's is.
"""
import numpy as np

from .elementwise import _sigmoid
from .registry import OTHER, primitive
from .shape import cat, stack


def _gate_arrays(gates):
    """Input, forget, cell and output gates, activated, from the (N, 4H) pre-activations."""
    i, f, g, o = np.split(gates, 4, axis=-1)
    return _sigmoid.forward(i), _sigmoid.forward(f), np.tanh(g), _sigmoid.forward(o)


def _time_steps(length, reverse):
    return range(length - 1, -1, -1) if reverse else range(length)


@primitive("mkldnn_rnn_layer", node="MkldnnRnnLayerBackward0", group=OTHER, n_outputs=None,
           saves=("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_"))
def mkldnn_rnn_layer(input, weight0, weight1, weight2, weight3, hx_, cx_, *, reverse):
    """LSTM over (L, N, H_in) with weight_ih, weight_hh, bias_ih, bias_hh = weight0..3 and the
    initial (N, H) states; (output (L, N, H), h_n, c_n). PyTorch's argument names, so that
    ``grad_fn._saved_input`` and the like read as there."""
    projected = input @ weight0.T + weight2
    hidden, cell = hx_, cx_
    output = np.empty(input.shape[:2] + hx_.shape[-1:], dtype=input.dtype)
    for t in _time_steps(input.shape[0], reverse):
        i, f, g, o = _gate_arrays(projected[t] + (weight3 + hidden @ weight1.T))
        cell = f * cell + i * g
        hidden = o * np.tanh(cell)
        output[t] = hidden
    return output, hidden, cell


def _replay(input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse):
    """The forward again with tapegrad operations: per step (in time order), the previous
    hidden and cell states, the activated gates and the new cell state."""
    projected = input.matmul(w_ih.t()) + b_ih
    hidden, cell, steps = hx, cx, {}
    for t in _time_steps(input.shape[0], reverse):
        gates = projected[t] + (b_hh + hidden.matmul(w_hh.t()))
        i, f, g, o = gates.chunk(4, -1)
        i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
        new_cell = f * cell + i * g
        steps[t] = (hidden, cell, (i, f, g, o), new_cell)
        hidden, cell = o * new_cell.tanh(), new_cell
    return [steps[t] for t in range(input.shape[0])]


@mkldnn_rnn_layer.vjp
def _(ctx, grads, reverse):
    input, w_ih, w_hh, b_ih, b_hh, hx, cx = ctx.saved
    grad_output, grad_hy, grad_cy = (tuple(grads) + (None, None, None))[:3]
    steps = _replay(input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse)
    grad_hidden = hx.new_zeros(hx.shape) if grad_hy is None else grad_hy
    grad_cell = cx.new_zeros(cx.shape) if grad_cy is None else grad_cy
    grad_gates = [None] * len(steps)
    for t in reversed(_time_steps(len(steps), reverse)):
        _, previous_cell, (i, f, g, o), cell = steps[t]
        if grad_output is not None:
            grad_hidden = grad_hidden + grad_output[t]
        tanh_cell = cell.tanh()
        grad_cell = grad_cell + grad_hidden * o * (1 - tanh_cell * tanh_cell)
        grad_gates[t] = cat([grad_cell * g * i * (1 - i),
                             grad_cell * previous_cell * f * (1 - f),
                             grad_cell * i * (1 - g * g),
                             grad_hidden * tanh_cell * o * (1 - o)], -1)
        grad_cell = grad_cell * f
        grad_hidden = grad_gates[t].matmul(w_hh)
    grad_gates = stack(grad_gates)                         # (L, N, 4H)
    flat_gates = grad_gates.reshape(-1, grad_gates.shape[-1])
    previous_hidden = stack([step[0] for step in steps])
    grad_bias = flat_gates.sum(0)
    return (grad_gates.matmul(w_ih),
            flat_gates.t().matmul(input.reshape(-1, input.shape[-1])),
            flat_gates.t().matmul(previous_hidden.reshape(-1, previous_hidden.shape[-1])),
            grad_bias, grad_bias, grad_hidden, grad_cell)

