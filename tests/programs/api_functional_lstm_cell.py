# A hand-unrolled LSTM/GRU written against the ATen-level cell functions (torch.lstm_cell,
# torch.gru_cell, torch.rnn_tanh_cell), as code ported from TorchScript RNN examples does; checked
# against nn.LSTMCell / nn.GRUCell, then a short BPTT fit and the cells' shape checks.
import torch
import torch.nn as nn

torch.manual_seed(0)
in_dim, hid, T, B = 3, 4, 6, 2
lstm = nn.LSTMCell(in_dim, hid)
gru = nn.GRUCell(in_dim, hid)
with torch.no_grad():
    for k, p in enumerate(list(lstm.parameters()) + list(gru.parameters())):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p).roll(k) * 0.8)

xs = torch.stack([torch.linspace(0, 2, T * in_dim).view(T, in_dim).sin() * (b + 1)
                  for b in range(B)], 1)
print(xs.shape)


def run_lstm(xs):
    h = torch.zeros(B, hid)
    c = torch.zeros(B, hid)
    outs = []
    for x in xs:
        h, c = torch.lstm_cell(x, (h, c), lstm.weight_ih, lstm.weight_hh, lstm.bias_ih,
                               lstm.bias_hh)
        outs.append(h)
    return torch.stack(outs), c


out, c = run_lstm(xs)
ref_h, ref_c = torch.zeros(B, hid), torch.zeros(B, hid)
for x in xs:
    ref_h, ref_c = lstm(x, (ref_h, ref_c))
print(torch.allclose(out[-1], ref_h), torch.allclose(c, ref_c))
print(out[-1])

h = ref = torch.zeros(B, hid)
for x in xs:
    h = torch.gru_cell(x, h, gru.weight_ih, gru.weight_hh, gru.bias_ih, gru.bias_hh)
    ref = gru(x, ref)
print(torch.allclose(h, ref), h.grad_fn.name())
print(h)

w_ih = nn.Parameter(torch.linspace(-0.3, 0.3, hid * in_dim).view(hid, in_dim))
w_hh = nn.Parameter(torch.eye(hid) * 0.5)
h = torch.zeros(B, hid)
for x in xs:
    h = torch.rnn_tanh_cell(x, h, w_ih, w_hh)
print(h.grad_fn.name())

head = nn.Linear(hid, 1)
with torch.no_grad():
    head.weight.fill_(0.3)
    head.bias.zero_()
target = xs[..., :1].cumsum(0) * 0.1
params = list(lstm.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=0.05)
for step in range(20):
    out, _ = run_lstm(xs)
    loss = ((head(out) - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 4 == 0:
        print(f"step {step} loss {loss.item():.5f}")
print(lstm.weight_hh.grad.shape, lstm.bias_ih.grad.abs().sum() > 0)

zeros = torch.zeros(B, hid)
for x, state, w_ih in [(xs[0], (zeros, zeros), lstm.weight_ih[:12]),
                       (xs[0], (torch.zeros(B + 1, hid), zeros), lstm.weight_ih),
                       (xs[0][:, :2], (zeros, zeros), lstm.weight_ih)]:
    try:
        torch.lstm_cell(x, state, w_ih, lstm.weight_hh)
    except RuntimeError as e:
        print("RuntimeError:", e)
