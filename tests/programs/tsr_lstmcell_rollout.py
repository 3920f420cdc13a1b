# LSTMCell forecaster with an explicit time loop (the "PyTorch sine wave" example): stacked
# LSTMCells with h/c initialised by torch.zeros, teacher-forced training with LBFGS-like care
# replaced by Adam + StepLR, then a `future` argument that continues autoregressively.
import torch
import torch.nn as nn


class Sequence(nn.Module):
    def __init__(self, hidden=10):
        super().__init__()
        self.hidden = hidden
        self.lstm1 = nn.LSTMCell(1, hidden)
        self.lstm2 = nn.LSTMCell(hidden, hidden)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), self.hidden, dtype=input.dtype)
        c_t = torch.zeros(input.size(0), self.hidden, dtype=input.dtype)
        h_t2 = torch.zeros(input.size(0), self.hidden, dtype=input.dtype)
        c_t2 = torch.zeros(input.size(0), self.hidden, dtype=input.dtype)
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


T, L, N = 20, 40, 6
x = torch.arange(L).reshape(1, L) + 4 * torch.arange(N).reshape(N, 1)
data = torch.sin(x / 1.0 / T).double()
print(data.dtype, data.shape)
input, target = data[:4, :-1], data[:4, 1:]
test_input, test_target = data[4:, :-1], data[4:, 1:]
seq = Sequence().double()
with torch.no_grad():
    for i, p in enumerate(seq.parameters()):
        p.copy_(0.2 * torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.37 + i).reshape(p.shape))
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(seq.parameters(), lr=0.02)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.5)
for i in range(15):
    optimizer.zero_grad()
    out = seq(input)
    loss = criterion(out, target)
    loss.backward()
    optimizer.step()
    scheduler.step()
    if i % 3 == 0:
        print(f"step {i} loss {loss.item():.6f} lr {scheduler.get_last_lr()[0]:.4f}")
print(out.grad_fn.name(), out.dtype)
with torch.no_grad():
    future = 5
    pred = seq(test_input, future=future)
    loss = criterion(pred[:, :-future], test_target)
    print(f"test loss {loss.item():.6f}")
    y = pred.detach()
print(y.shape)
print(y[:, -future:].numpy().round(4))

# unbatched LSTMCell and GRUCell usage, default (None) state
cell = nn.LSTMCell(1, 3).double()
h, c = cell(torch.tensor([0.5], dtype=torch.float64))
print(h.shape, c.shape)
g = nn.GRUCell(2, 3)
hx = None
for step in torch.linspace(0, 1, 4).reshape(2, 2):
    hx = g(step, hx)
print(hx.shape, hx.grad_fn.name())
