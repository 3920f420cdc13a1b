# Seq2seq forecaster with hand-written Bahdanau (additive) attention as in blog tutorials: a
# bidirectional GRU encoder, a GRUCell decoder that attends over encoder outputs each step,
# teacher forcing on even epochs, autoregressive rollout on odd ones and at inference.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, hidden=6):
        super().__init__()
        self.rnn = nn.GRU(1, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, hidden)

    def forward(self, x):
        out, h = self.rnn(x)                      # out: (B, T, 2H), h: (2, B, H)
        h = torch.tanh(self.fc(torch.cat((h[-2], h[-1]), dim=1)))
        return out, h


class Attention(nn.Module):
    def __init__(self, hidden=6):
        super().__init__()
        self.attn = nn.Linear(3 * hidden, hidden)
        self.v = nn.Linear(hidden, 1, bias=False)

    def forward(self, hidden, enc_out):
        T = enc_out.shape[1]
        hidden = hidden.unsqueeze(1).repeat(1, T, 1)
        energy = torch.tanh(self.attn(torch.cat((hidden, enc_out), dim=2)))
        return F.softmax(self.v(energy).squeeze(2), dim=1)


class Decoder(nn.Module):
    def __init__(self, hidden=6):
        super().__init__()
        self.attention = Attention(hidden)
        self.cell = nn.GRUCell(1 + 2 * hidden, hidden)
        self.out = nn.Linear(hidden + 2 * hidden + 1, 1)

    def forward(self, y_prev, hidden, enc_out):
        a = self.attention(hidden, enc_out)
        context = torch.bmm(a.unsqueeze(1), enc_out).squeeze(1)
        hidden = self.cell(torch.cat((y_prev, context), dim=1), hidden)
        return self.out(torch.cat((hidden, context, y_prev), dim=1)), hidden, a


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder, self.decoder = Encoder(), Decoder()

    def forward(self, src, horizon, target=None):
        enc_out, hidden = self.encoder(src)
        y = src[:, -1, :]
        preds, attns = [], []
        for t in range(horizon):
            out, hidden, a = self.decoder(y, hidden, enc_out)
            preds.append(out)
            attns.append(a)
            y = target[:, t, :] if target is not None else out
        return torch.stack(preds, dim=1), torch.stack(attns, dim=1)


model = Seq2Seq()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.25 * torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + 0.5 * i).reshape(p.shape))
print(sum(p.numel() for p in model.parameters()))

t = torch.arange(0, 64, dtype=torch.float32)
series = torch.sin(0.25 * t) * 0.8
in_len, out_len = 10, 4
idx = torch.arange(0, 64 - in_len - out_len, 5)
src = torch.stack([series[i:i + in_len] for i in idx]).unsqueeze(-1)
tgt = torch.stack([series[i + in_len:i + in_len + out_len] for i in idx]).unsqueeze(-1)
print(src.shape, tgt.shape)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(16):
    opt.zero_grad()
    pred, _ = model(src, out_len, target=tgt if epoch % 2 == 0 else None)
    loss = F.mse_loss(pred, tgt)
    loss.backward()
    nn.utils.clip_grad_value_(model.parameters(), 0.5)
    opt.step()
    if epoch % 4 == 0 or epoch == 15:
        print(f"epoch {epoch:2d} {'tf' if epoch % 2 == 0 else 'ar'} loss {loss.item():.5f}")

model.eval()
with torch.no_grad():
    pred, attn = model(src[:2], out_len)
print(pred.squeeze(-1))
print(attn.shape, attn.sum(-1))
print(attn[0, 0])
