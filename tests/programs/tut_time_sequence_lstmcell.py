# pytorch/examples time_sequence_prediction, scaled down: sine-wave data in float64, a
# Sequence model of two stacked nn.LSTMCell layers + Linear stepping over the time axis with
# input.split(1, dim=1), predicting `future` extra steps, model.double(), LBFGS with a closure,
# and a no_grad test prediction.
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

T, L, N = 20, 24, 4
x = np.empty((N, L), 'int64')
x[:] = np.array(range(L)) + np.arange(N).reshape(N, 1) * 3
data = np.sin(x / 1.0 / T).astype('float64')
print(data.shape, data.dtype, round(float(data[1, 2]), 6))


class Sequence(nn.Module):
    def __init__(self, hidden=6):
        super().__init__()
        self.hidden = hidden
        self.lstm1 = nn.LSTMCell(1, hidden)
        self.lstm2 = nn.LSTMCell(hidden, hidden)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        c_t = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), self.hidden, dtype=torch.double)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return torch.cat(outputs, dim=1)


input = torch.from_numpy(data[1:, :-1])
target = torch.from_numpy(data[1:, 1:])
test_input = torch.from_numpy(data[:1, :-1])
test_target = torch.from_numpy(data[:1, 1:])
print(input.dtype, input.shape, test_input.is_contiguous())
seq = Sequence()
seq.double()
with torch.no_grad():
    for i, p in enumerate(seq.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.9 + i).view(p.shape) * 0.3)
print(seq, next(seq.parameters()).dtype)
criterion = nn.MSELoss()
optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=5)
for i in range(3):
    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        loss.backward()
        return loss
    loss = optimizer.step(closure)
    print('STEP: ', i, 'loss:', f"{loss.item():.8f}")
    with torch.no_grad():
        future = 5
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future], test_target)
        print('test loss:', f"{loss.item():.8f}", pred.shape, pred.dtype)
y = pred.detach().numpy()
print(type(y).__name__, y.dtype, y.shape, np.round(y[0, -5:], 6))
print(seq.lstm1.weight_hh.grad.dtype, seq.lstm2.bias_ih.grad[:3])
