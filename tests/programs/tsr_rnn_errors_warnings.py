# Forum questions about recurrent-layer shape errors: wrong input_size, wrong h0/c0 shapes,
# unbatched inputs, proj_size constraints, the dropout-with-one-layer warning, wrong dtypes,
# 2-D cell inputs, and the messages PyTorch prints for each.
import warnings

import torch
import torch.nn as nn


def attempt(name, fn):
    try:
        out = fn()
        if isinstance(out, tuple):
            print(name, "ok", [tuple(o.shape) if isinstance(o, torch.Tensor) else [tuple(i.shape) for i in o] for o in out])
        else:
            print(name, "ok", tuple(out.shape))
    except Exception as e:
        print(name, type(e).__name__, e)


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    nn.LSTM(3, 4, num_layers=1, dropout=0.5)
    nn.GRU(3, 4, num_layers=2, dropout=0.3)
print([str(c.message) for c in caught])
attempt("dropout>1", lambda: nn.LSTM(3, 4, dropout=1.5))
attempt("proj>=hidden", lambda: nn.LSTM(3, 4, proj_size=4))
attempt("proj on GRU", lambda: nn.GRU(3, 4, proj_size=2))
attempt("proj negative", lambda: nn.LSTM(3, 4, proj_size=-1))
attempt("hidden 0", lambda: nn.RNN(3, 0))
attempt("bad nonlinearity", lambda: nn.RNN(3, 4, nonlinearity="sigmoid"))
attempt("float layers", lambda: nn.LSTM(3, 4, num_layers=1.0))

lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True)
gru = nn.GRU(3, 4, bidirectional=True)
rnn = nn.RNN(3, 4, nonlinearity="relu")
x = torch.ones(2, 5, 3)
attempt("lstm ok", lambda: lstm(x))
attempt("lstm input size", lambda: lstm(torch.ones(2, 5, 2)))
attempt("lstm unbatched", lambda: lstm(torch.ones(5, 3)))
attempt("lstm h0 only", lambda: lstm(x, torch.zeros(2, 2, 4)))
attempt("lstm h0 shape", lambda: lstm(x, (torch.zeros(2, 5, 4), torch.zeros(2, 2, 4))))
attempt("lstm c0 shape", lambda: lstm(x, (torch.zeros(2, 2, 4), torch.zeros(1, 2, 4))))
attempt("lstm unbatched h0 3d", lambda: lstm(torch.ones(5, 3), (torch.zeros(2, 1, 4), torch.zeros(2, 1, 4))))
attempt("lstm 4-D", lambda: lstm(torch.ones(1, 2, 5, 3)))
attempt("gru h0 layers", lambda: gru(torch.ones(5, 2, 3), torch.zeros(1, 2, 4)))
attempt("gru tuple h0", lambda: gru(torch.ones(5, 2, 3), (torch.zeros(2, 2, 4),)))
attempt("gru unbatched", lambda: gru(torch.ones(5, 3), torch.zeros(2, 4)))
attempt("rnn double", lambda: rnn(torch.ones(5, 2, 3, dtype=torch.float64)))
attempt("rnn int", lambda: rnn(torch.ones(5, 2, 3, dtype=torch.long)))
attempt("rnn h0 dtype", lambda: rnn(torch.ones(5, 2, 3), torch.zeros(1, 2, 4, dtype=torch.float64)))
attempt("rnn empty seq", lambda: rnn(torch.ones(0, 2, 3)))

cell = nn.LSTMCell(3, 4)
gcell = nn.GRUCell(3, 4)
attempt("cell ok", lambda: cell(torch.ones(2, 3)))
attempt("cell unbatched", lambda: cell(torch.ones(3)))
attempt("cell 3d", lambda: cell(torch.ones(1, 2, 3)))
attempt("cell input size", lambda: cell(torch.ones(2, 5)))
attempt("cell h batch", lambda: cell(torch.ones(2, 3), (torch.zeros(3, 4), torch.zeros(3, 4))))
attempt("gcell h size", lambda: gcell(torch.ones(2, 3), torch.zeros(2, 5)))
attempt("gcell h 1d with 2d input", lambda: gcell(torch.ones(2, 3), torch.zeros(4)))
attempt("rnncell relu", lambda: nn.RNNCell(3, 4, nonlinearity="relu")(torch.ones(2, 3)))
attempt("rnncell bad", lambda: nn.RNNCell(3, 4, nonlinearity="gelu"))
print(nn.RNNCell(3, 4, bias=False, nonlinearity="relu"), nn.GRUCell(3, 4, bias=False))
print(nn.RNN(3, 4, 2, nonlinearity="relu", bias=False, batch_first=True, dropout=0.1, bidirectional=True))
print(nn.LSTM(3, 4, proj_size=2))
