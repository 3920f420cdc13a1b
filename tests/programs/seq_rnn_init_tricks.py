# Recurrent-layer initialisation and weight-surgery idioms from blog posts and forum answers:
# forget-gate bias set to 1 through .data slicing (gate order i, f, g, o), copying nn.GRU layer
# weights into an nn.GRUCell and checking the unrolled cell matches, weight_norm and a custom
# parametrization on weight_hh_l0, loading a 1-layer state_dict into a 2-layer LSTM (strict and
# not), and a hand-built PackedSequence.
import torch
import torch.nn as nn
from torch.nn.utils import parametrize
from torch.nn.utils.rnn import PackedSequence, pad_packed_sequence


def init(m, scale=0.3):
    with torch.no_grad():
        for i, (n, p) in enumerate(m.named_parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * scale * (1 + 0.1 * i))


H = 3
lstm = nn.LSTM(2, H)
init(lstm)
for name, p in lstm.named_parameters():
    if "bias" in name:
        p.data[H:2 * H].fill_(1.0)
print(lstm.bias_ih_l0)
print([tuple(g.shape) for g in lstm.weight_ih_l0.chunk(4, 0)])
x = torch.linspace(-1, 1, 8).reshape(4, 1, 2)
out, (h, c) = lstm(x)
print(h, c, sep="\n")

layer = nn.GRU(2, H)
init(layer)
cell = nn.GRUCell(2, H)
with torch.no_grad():
    cell.weight_ih.copy_(layer.weight_ih_l0)
    cell.weight_hh.copy_(layer.weight_hh_l0)
    cell.bias_ih.copy_(layer.bias_ih_l0)
    cell.bias_hh.copy_(layer.bias_hh_l0)
hx = torch.zeros(1, H)
for t in range(4):
    hx = cell(x[t], hx)
print(torch.allclose(hx, layer(x)[1][0]), hx)

wn = nn.utils.parametrizations.weight_norm(nn.LSTM(2, H), name="weight_hh_l0")
init(wn)
print([n for n, _ in wn.named_parameters()])
print(wn)
out, _ = wn(x)
out.sum().backward()
print(out[-1], wn.parametrizations.weight_hh_l0.original0.grad.flatten())


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


rnn = nn.RNN(3, 3)
init(rnn)
parametrize.register_parametrization(rnn, "weight_hh_l0", Symmetric())
print(rnn.weight_hh_l0)
print(rnn(torch.ones(2, 3))[1], parametrize.is_parametrized(rnn, "weight_hh_l0"))

state = lstm.state_dict()
print(list(state.keys()))
deep = nn.LSTM(2, H, num_layers=2)
print(deep.load_state_dict(state, strict=False))
print(torch.equal(deep.bias_hh_l0, lstm.bias_hh_l0))
try:
    deep.load_state_dict(state)
except RuntimeError as e:
    print(type(e).__name__, e)

packed = PackedSequence(torch.arange(10.).reshape(5, 2), torch.tensor([2, 2, 1]))
print(packed)
print(pad_packed_sequence(packed))
out, h = lstm(packed)
print(out.data.shape, h[0].shape)
