# Seq2seq forecaster for variable-length histories: a GRU encoder over a PackedSequence
# (enforce_sorted=False), pad_packed_sequence back to a padded memory, Luong "general" attention
# with bmm, masked_fill(~mask, float('-inf')) over padded steps and softmax, an LSTMCell decoder
# with input feeding, teacher forcing on a fixed schedule, autoregressive rollout with torch.cat.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.set_printoptions(precision=4, sci_mode=False)


class Seq2Seq(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.hidden = hidden
        self.encoder = nn.GRU(1, hidden, batch_first=True)
        self.bridge = nn.Linear(hidden, 2 * hidden)
        self.decoder = nn.LSTMCell(1 + hidden, hidden)
        self.W_a = nn.Linear(hidden, hidden, bias=False)
        self.combine = nn.Linear(2 * hidden, hidden)
        self.out = nn.Linear(hidden, 1)

    def encode(self, x, lengths):
        packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        memory, h_n = self.encoder(packed)
        memory, _ = pad_packed_sequence(memory, batch_first=True)
        mask = torch.arange(memory.size(1))[None, :] < lengths[:, None]
        h0, c0 = torch.tanh(self.bridge(h_n[-1])).chunk(2, dim=-1)
        return memory, mask, (h0, c0)

    def attend(self, h, memory, mask):
        scores = torch.bmm(memory, self.W_a(h).unsqueeze(2)).squeeze(2)
        scores = scores.masked_fill(~mask, float("-inf"))
        weights = F.softmax(scores, dim=1)
        context = torch.bmm(weights.unsqueeze(1), memory).squeeze(1)
        return context, weights

    def forward(self, x, lengths, horizon, targets=None, teacher=()):
        memory, mask, (h, c) = self.encode(x, lengths)
        last = x[torch.arange(x.size(0)), lengths - 1]
        attn_tilde = torch.zeros(x.size(0), self.hidden)
        preds, all_w = [], []
        for t in range(horizon):
            h, c = self.decoder(torch.cat([last, attn_tilde], dim=-1), (h, c))
            context, w = self.attend(h, memory, mask)
            attn_tilde = torch.tanh(self.combine(torch.cat([context, h], dim=-1)))
            y = self.out(attn_tilde)
            preds.append(y)
            all_w.append(w)
            last = targets[:, t] if (targets is not None and t in teacher) else y
        return torch.cat(preds, dim=1), torch.stack(all_w, dim=1)


lens = [12, 7, 10, 5]
seqs = [torch.sin(torch.arange(n + 4, dtype=torch.float32) * 0.5 + k).unsqueeze(-1) for k, n in enumerate(lens)]
x = pad_sequence([s[:n] for s, n in zip(seqs, lens)], batch_first=True)
y = torch.stack([s[n:n + 4] for s, n in zip(seqs, lens)])
lengths = torch.tensor(lens)
print("x", tuple(x.shape), "y", tuple(y.shape))

model = Seq2Seq()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.39 + i).reshape(p.shape) * 0.3)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(30):
    teacher = {0, 1, 2} if epoch < 10 else ({0} if epoch < 20 else set())
    opt.zero_grad()
    pred, w = model(x, lengths, 4, y, teacher)
    loss = F.mse_loss(pred, y.squeeze(-1))
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0, norm_type=2.0)
    opt.step()
    if epoch % 5 == 0 or epoch == 29:
        print(f"epoch {epoch:2d} tf={sorted(teacher)} loss {loss.item():.5f}")

model.eval()
with torch.no_grad():
    pred, w = model(x, lengths, 6)
print("forecast", pred)
print("attention of series 3 (len 5), step 0:", w[3, 0])
print("padded weights zero", bool((w[3, :, 5:] == 0).all()), "rows sum to 1", torch.allclose(w.sum(-1), torch.ones(4, 6)))
