# What people inspect on nn.RNN / nn.LSTM / nn.GRU modules: reprs for non-default options,
# attributes (mode, hidden_size, proj_size ...), all_weights, flatten_parameters() (called in
# many repos before forward), the dropout-with-one-layer warning, unbatched 2-D input,
# grad_fn of outputs, and the error messages for wrong input / hidden shapes.
import warnings

import torch
import torch.nn as nn


def init(m, scale=0.1):
    with torch.no_grad():
        for i, (n, p) in enumerate(m.named_parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * scale * (1 + 0.1 * i))


r = nn.RNN(3, 4, num_layers=2, nonlinearity="relu", bias=False)
print(r, [n for n, _ in r.named_parameters()])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    lstm = nn.LSTM(3, 4, dropout=0.5)
    print([str(x.message) for x in w])
print(lstm)
print(nn.GRU(3, 4, 2, batch_first=True, bidirectional=True, dropout=0.1))
print(nn.LSTM(3, 5, proj_size=2, num_layers=2))
print(lstm.input_size, lstm.hidden_size, lstm.proj_size, lstm.bidirectional, lstm.batch_first, lstm.dropout)
print(r.mode, lstm.mode, nn.GRU(1, 1).mode, nn.RNN(1, 1).mode)

init(r)
o, h = r(torch.linspace(-1, 1, 12).reshape(4, 3))  # unbatched (L, H_in)
print(o.shape, h.shape)
print(o, h, sep="\n")
print(o.grad_fn.name())

gru = nn.GRU(3, 3, batch_first=True)
init(gru)
o, h = gru(torch.linspace(0, 1, 24).reshape(2, 4, 3))
print(o.is_contiguous(), o.stride(), o.grad_fn.name(), h.grad_fn.name())
print(o[:, -1], h[0], sep="\n")

print(type(r.all_weights).__name__, len(r.all_weights), [len(x) for x in r.all_weights])
print([tuple(w.shape) for w in r.all_weights[1]])
r.flatten_parameters()
lstm.flatten_parameters()
print(r(torch.ones(2, 1, 3))[1].shape)

for name, fn in [
    ("input size", lambda: r(torch.ones(4, 2, 5))),
    ("hidden layers", lambda: r(torch.ones(4, 2, 3), torch.zeros(1, 2, 4))),
    ("lstm hx shape", lambda: lstm(torch.ones(4, 2, 3), (torch.zeros(1, 2, 4), torch.zeros(1, 3, 4)))),
    ("unbatched hx", lambda: lstm(torch.ones(4, 3), (torch.zeros(1, 2, 4), torch.zeros(1, 2, 4)))),
    ("4-D input", lambda: r(torch.ones(2, 3, 4, 5))),
    ("nonlinearity", lambda: nn.RNN(3, 4, nonlinearity="sigmoid")),
    ("dtype", lambda: gru(torch.ones(1, 2, 3, dtype=torch.float64))),
]:
    try:
        fn()
    except Exception as e:
        print(name, type(e).__name__, e)

cell = nn.LSTMCell(3, 2)
print(cell, nn.GRUCell(3, 2, bias=False), nn.RNNCell(3, 2, nonlinearity="relu"))
init(cell)
h, c = cell(torch.ones(3))
print(h, c, h.grad_fn.name())
for name, fn in [
    ("cell input", lambda: cell(torch.ones(2, 4))),
    ("cell batch", lambda: cell(torch.ones(2, 3), (torch.zeros(3, 2), torch.zeros(3, 2)))),
    ("cell 3-D", lambda: cell(torch.ones(1, 2, 3))),
]:
    try:
        fn()
    except Exception as e:
        print(name, type(e).__name__, e)
