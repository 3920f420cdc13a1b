# Recurrent cells unrolled by hand vs the full layers, initial states, proj_size and a sequence classifier.
import torch
import torch.nn as nn


def fill(module, scale):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.4 + i).view(p.shape) * scale)
    return module


x = torch.sin(torch.arange(5 * 2 * 3, dtype=torch.float32) * 0.25).view(5, 2, 3)

gru = fill(nn.GRU(3, 4), 0.3)
cell = nn.GRUCell(3, 4)
cell.load_state_dict({k[:-3]: v for k, v in gru.state_dict().items()})
h = torch.full((2, 4), 0.1)
for t in range(5):
    h = cell(x[t], h)
out, hn = gru(x, torch.full((1, 2, 4), 0.1))
print(h)
print(torch.allclose(h, hn[0], atol=1e-6), out.shape)

lstm = fill(nn.LSTM(3, 4), 0.3)
lcell = nn.LSTMCell(3, 4)
lcell.load_state_dict({k[:-3]: v for k, v in lstm.state_dict().items()})
hx, cx = torch.zeros(2, 4), torch.ones(2, 4)
for t in range(5):
    hx, cx = lcell(x[t], (hx, cx))
out, (hn, cn) = lstm(x, (torch.zeros(1, 2, 4), torch.ones(1, 2, 4)))
print(cx)
print(torch.allclose(hx, hn[0], atol=1e-6), torch.allclose(cx, cn[0], atol=1e-6))

rcell = fill(nn.RNNCell(3, 2, nonlinearity="relu"), 0.5)
print(rcell(x[0]), rcell(x[0]).shape)

class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(3, 4, batch_first=True, bidirectional=True)
        self.head = nn.Linear(8, 3)

    def forward(self, x):
        _, h = self.rnn(x)
        return self.head(torch.cat([h[0], h[1]], dim=1))


clf = fill(Classifier(), 0.3)
opt = torch.optim.Adam(clf.parameters(), lr=0.05)
target = torch.tensor([0, 2])
for step in range(4):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(clf(x.transpose(0, 1)), target)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}")
print(clf.head.bias)

# an LSTM with projections (proj_size)
proj = fill(nn.LSTM(3, 5, proj_size=2, batch_first=True), 0.2)
print([(n, tuple(p.shape)) for n, p in proj.named_parameters()])
out, (hn, cn) = proj(x.transpose(0, 1))
print(out.shape, hn.shape, cn.shape)
print(hn)
