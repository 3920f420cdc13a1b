# Built-in recurrent layers: nn.RNN, nn.LSTM, nn.GRU, nn.LSTMCell, output shapes and parameter names.
import torch
import torch.nn as nn

lstm = nn.LSTM(input_size=5, hidden_size=7, num_layers=2, batch_first=True)
print(lstm, [n for n, _ in lstm.named_parameters()])
with torch.no_grad():
    for i, p in enumerate(lstm.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.3 + i).view(p.shape) * 0.2)
x = torch.cos(torch.arange(3 * 4 * 5, dtype=torch.float32) * 0.1).view(3, 4, 5)
output, (hn, cn) = lstm(x)
print(output.shape, hn.shape, cn.shape)
print(output[0, -1], torch.allclose(output[:, -1], hn[-1]))
output.sum().backward()
print(lstm.weight_ih_l0.grad.shape)

gru = nn.GRU(5, 6)
out, h = gru(x.transpose(0, 1))
print(out.shape, h.shape)
rnn = nn.RNN(5, 4, nonlinearity="tanh", bidirectional=True)
out, h = rnn(x.transpose(0, 1))
print(out.shape, h.shape)
cell = nn.LSTMCell(5, 3)
hx, cx = cell(x[:, 0])
print(hx.shape, cx.shape)
