# Informer-style input embedding (TokenEmbedding = Conv1d with circular padding, a fixed sinusoidal
# PositionalEmbedding buffer, temporal embeddings of hour/weekday with nn.Embedding) feeding a
# CNN-LSTM forecaster (Conv1d -> ReLU -> MaxPool1d -> bidirectional LSTM), with shapes, buffers,
# state_dict keys and a few training steps with early stopping on a validation split.
import copy
import math

import torch
import torch.nn as nn


class PositionalEmbedding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        pe = torch.zeros(max_len, d_model).float()
        pe.requires_grad = False
        position = torch.arange(0, max_len).float().unsqueeze(1)
        div_term = (torch.arange(0, d_model, 2).float() * -(math.log(10000.0) / d_model)).exp()
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return self.pe[:, :x.size(1)]


class TokenEmbedding(nn.Module):
    def __init__(self, c_in, d_model):
        super().__init__()
        self.tokenConv = nn.Conv1d(c_in, d_model, kernel_size=3, padding=1, padding_mode="circular", bias=False)

    def forward(self, x):
        return self.tokenConv(x.permute(0, 2, 1)).transpose(1, 2)


class DataEmbedding(nn.Module):
    def __init__(self, c_in, d_model):
        super().__init__()
        self.value = TokenEmbedding(c_in, d_model)
        self.position = PositionalEmbedding(d_model)
        self.hour = nn.Embedding(24, d_model)
        self.weekday = nn.Embedding(7, d_model)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x, marks):
        return self.dropout(self.value(x) + self.position(x) + self.hour(marks[..., 0]) + self.weekday(marks[..., 1]))


class CNNLSTM(nn.Module):
    def __init__(self, c_in=2, d_model=6, hidden=5):
        super().__init__()
        self.embed = DataEmbedding(c_in, d_model)
        self.conv = nn.Sequential(nn.Conv1d(d_model, 8, 3, padding=1), nn.ReLU(), nn.MaxPool1d(2))
        self.lstm = nn.LSTM(8, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, 1)

    def forward(self, x, marks):
        e = self.embed(x, marks)
        z = self.conv(e.transpose(1, 2)).transpose(1, 2)
        o, (h, c) = self.lstm(z)
        return self.out(torch.cat([h[-2], h[-1]], dim=-1)).squeeze(-1)


model = CNNLSTM()
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.91 + i).reshape(p.shape))
print([k for k in model.state_dict().keys() if "embed" in k])
print(model.embed.position.pe.shape, model.embed.position.pe.requires_grad, model.embed.position.pe[0, 1, :4])
print(model.embed.value.tokenConv)

hours = torch.arange(200) % 24
T = torch.arange(200, dtype=torch.float32)
values = torch.stack([torch.sin(2 * math.pi * T / 24), 0.5 * torch.cos(2 * math.pi * T / 12)], -1)
marks = torch.stack([hours, (torch.arange(200) // 24) % 7], -1)
L = 16
starts = torch.arange(0, 200 - L - 1, 7)
X = torch.stack([values[s:s + L] for s in starts])
M = torch.stack([marks[s:s + L] for s in starts])
Y = torch.stack([values[s + L, 0] for s in starts])
print(X.shape, M.shape, M.dtype, Y.shape)
n_train = 20
model.eval()  # deterministic: embedding dropout off
with torch.no_grad():
    e = model.embed(X[:2], M[:2])
    print(e.shape, model.conv(e.transpose(1, 2)).shape)

opt = torch.optim.Adam(model.parameters(), lr=0.01)
best, best_state, patience, bad = float("inf"), None, 3, 0
for epoch in range(15):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X[:n_train], M[:n_train]), Y[:n_train])
    loss.backward()
    opt.step()
    with torch.no_grad():
        val = nn.functional.mse_loss(model(X[n_train:], M[n_train:]), Y[n_train:]).item()
    if val < best - 1e-4:
        best, best_state, bad = val, copy.deepcopy(model.state_dict()), 0
    else:
        bad += 1
    if epoch % 3 == 0:
        print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f}")
    if bad >= patience:
        print("early stop at", epoch)
        break
model.load_state_dict(best_state)
print(f"best val {best:.4f}", len(best_state))
