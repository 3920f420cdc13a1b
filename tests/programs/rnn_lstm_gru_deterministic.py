# RNN, LSTM and GRU with deterministic weights: outputs, h_n, batch_first, bidirectional, stacks.
import torch
import torch.nn as nn


def fill(module, scale=0.1):
    with torch.no_grad():
        for i, (name, p) in enumerate(module.named_parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.5 + i).view(p.shape) * scale)
    return module


x = torch.cos(torch.arange(2 * 4 * 3, dtype=torch.float32) * 0.3).view(4, 2, 3)  # (seq, batch, feat)

rnn = fill(nn.RNN(3, 2), 0.5)
out, h = rnn(x)
print(out.shape, h.shape)
print(out[-1], h)
print(torch.allclose(out[-1], h[0]))

rnn_relu = nn.RNN(3, 2, nonlinearity="relu", bias=False)
with torch.no_grad():
    rnn_relu.weight_ih_l0.fill_(0.2)
    rnn_relu.weight_hh_l0.fill_(-0.1)
out, h = rnn_relu(x, torch.ones(1, 2, 2))
print(out[:, 0])

lstm = fill(nn.LSTM(3, 4, num_layers=2, batch_first=True), 0.3)
xb = x.transpose(0, 1)  # (batch, seq, feat)
out, (h, c) = lstm(xb)
print(out.shape, h.shape, c.shape)
print(h)
print(c[-1])
print(torch.allclose(out[:, -1], h[-1]))

bi = fill(nn.LSTM(3, 2, bidirectional=True), 0.4)
out, (h, c) = bi(x)
print(out.shape, h.shape)
print(out[0], out[-1])
print(torch.allclose(out[-1, :, :2], h[0]), torch.allclose(out[0, :, 2:], h[1]))

gru = fill(nn.GRU(3, 3, batch_first=True, bidirectional=True, num_layers=2), 0.25)
out, h = gru(xb, torch.zeros(4, 2, 3))
print(out.shape, h.shape)
print(h[-2:])
out.mean().backward()
print(gru.weight_hh_l1_reverse.grad.shape, f"{gru.bias_ih_l0.grad.abs().sum().item():.5f}")

single = x[:, 0]  # unbatched (seq, feat)
out, h = fill(nn.GRU(3, 2), 0.5)(single)
print(out.shape, h.shape, h)
