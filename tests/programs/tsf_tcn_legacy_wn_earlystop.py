# The classic locuslab TCN TemporalBlock with the legacy torch.nn.utils.weight_norm on its convs,
# Chomp1d after symmetric padding, a 1x1 downsample residual, and the training loop of forecasting
# notebooks: train/val split, ReduceLROnPlateau on the val loss, early stopping that keeps a
# copy.deepcopy of the best state_dict, then a torch.save / torch.load round trip in memory.
import copy
import io
import warnings

import torch
import torch.nn as nn
from torch.nn.utils import weight_norm

warnings.filterwarnings("ignore", category=FutureWarning)
torch.set_printoptions(precision=4, sci_mode=False)


class Chomp1d(nn.Module):
    def __init__(self, chomp_size):
        super().__init__()
        self.chomp_size = chomp_size

    def forward(self, x):
        return x[:, :, :-self.chomp_size].contiguous()


class TemporalBlock(nn.Module):
    def __init__(self, n_inputs, n_outputs, kernel_size, stride, dilation, padding, dropout=0.0):
        super().__init__()
        self.conv1 = weight_norm(nn.Conv1d(n_inputs, n_outputs, kernel_size, stride=stride, padding=padding, dilation=dilation))
        self.chomp1 = Chomp1d(padding)
        self.relu1 = nn.ReLU()
        self.dropout1 = nn.Dropout(dropout)
        self.conv2 = weight_norm(nn.Conv1d(n_outputs, n_outputs, kernel_size, stride=stride, padding=padding, dilation=dilation))
        self.chomp2 = Chomp1d(padding)
        self.relu2 = nn.ReLU()
        self.dropout2 = nn.Dropout(dropout)
        self.net = nn.Sequential(self.conv1, self.chomp1, self.relu1, self.dropout1,
                                 self.conv2, self.chomp2, self.relu2, self.dropout2)
        self.downsample = nn.Conv1d(n_inputs, n_outputs, 1) if n_inputs != n_outputs else None
        self.relu = nn.ReLU()

    def forward(self, x):
        out = self.net(x)
        res = x if self.downsample is None else self.downsample(x)
        return self.relu(out + res)


class TCN(nn.Module):
    def __init__(self, num_inputs, num_channels, kernel_size=2):
        super().__init__()
        layers = []
        for i, out_ch in enumerate(num_channels):
            d = 2 ** i
            in_ch = num_inputs if i == 0 else num_channels[i - 1]
            layers += [TemporalBlock(in_ch, out_ch, kernel_size, 1, d, (kernel_size - 1) * d)]
        self.network = nn.Sequential(*layers)
        self.linear = nn.Linear(num_channels[-1], 1)

    def forward(self, x):
        return self.linear(self.network(x)[:, :, -1])


model = TCN(1, [4, 4, 4])
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        base = torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.71 + i).reshape(p.shape) * 0.3
        p.copy_(base.abs() + 0.5 if n.endswith("weight_g") else base)
print([n for n, _ in model.network[0].named_parameters()])
print("weight_g", tuple(model.network[1].conv1.weight_g.shape), "weight", tuple(model.network[1].conv1.weight.shape))

t = torch.arange(140, dtype=torch.float32)
s = torch.sin(t / 6) + 0.3 * torch.sin(t / 2.5)
w = s.unfold(0, 17, 1)
X, Y = w[:, None, :16], w[:, 16:]
Xtr, Ytr, Xva, Yva = X[:90], Y[:90], X[90:], Y[90:]
opt = torch.optim.Adam(model.parameters(), lr=4e-3)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2)
crit = nn.MSELoss()
best, best_state, bad, patience = float("inf"), None, 0, 4
for epoch in range(40):
    model.train()
    for b in range(0, 90, 30):
        opt.zero_grad()
        loss = crit(model(Xtr[b:b + 30]), Ytr[b:b + 30])
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val = crit(model(Xva), Yva).item()
    sched.step(val)
    if val < best - 1e-4:
        best, best_state, bad = val, copy.deepcopy(model.state_dict()), 0
    else:
        bad += 1
    if epoch % 5 == 0:
        print(f"epoch {epoch:2d} train {loss.item():.4f} val {val:.4f} lr {opt.param_groups[0]['lr']:.5f}")
    if bad >= patience:
        print(f"early stop at epoch {epoch}, best val {best:.4f}")
        break

model.load_state_dict(best_state)
print("best keys", list(best_state.keys())[:4])
buf = io.BytesIO()
torch.save(model.state_dict(), buf)
buf.seek(0)
clone = TCN(1, [4, 4, 4])
print(clone.load_state_dict(torch.load(buf)))
with torch.no_grad():
    print("reloaded equal", torch.allclose(clone(Xva), model(Xva)))
    print(model(Xva[:3]).squeeze(1), Yva[:3].squeeze(1))
nn.utils.remove_weight_norm(model.network[0].conv1)
print([n for n, _ in model.network[0].conv1.named_parameters()])
