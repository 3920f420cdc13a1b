# An encoder-decoder for sequence reversal written the way many blog posts do it: an nn.LSTM
# encoder (batch_first), a decoder stepping an nn.LSTMCell with dot-product attention over the
# encoder outputs (bmm + masked softmax), teacher forcing on a fixed schedule (every other step
# feeds the prediction instead of the target), loss accumulated per time step, clip_grad_norm_,
# then greedy decoding and the attention matrix.
import torch
import torch.nn as nn
import torch.nn.functional as F

SOS, VOCAB, H = 0, 6, 5


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(VOCAB, 4)
        self.tgt_emb = nn.Embedding(VOCAB, 4)
        self.encoder = nn.LSTM(4, H, batch_first=True)
        self.cell = nn.LSTMCell(4 + H, H)
        self.out = nn.Linear(2 * H, VOCAB)

    def step(self, token, state, context, enc_out, mask):
        h, c = self.cell(torch.cat([self.tgt_emb(token), context], dim=1), state)
        scores = torch.bmm(enc_out, h.unsqueeze(2)).squeeze(2).masked_fill(~mask, float("-inf"))
        attn = F.softmax(scores, dim=1)
        context = torch.bmm(attn.unsqueeze(1), enc_out).squeeze(1)
        return self.out(torch.cat([h, context], dim=1)), (h, c), context, attn

    def forward(self, src, mask, tgt=None, steps=4, teacher=(True, False, True, False)):
        enc_out, (h, c) = self.encoder(self.src_emb(src))
        state, context = (h[0], c[0]), torch.zeros(src.size(0), H)
        token = torch.full((src.size(0),), SOS)
        logits, attns = [], []
        for t in range(steps):
            logit, state, context, attn = self.step(token, state, context, enc_out, mask)
            logits.append(logit)
            attns.append(attn)
            token = tgt[:, t] if (tgt is not None and teacher[t]) else logit.argmax(1)
        return torch.stack(logits, 1), torch.stack(attns, 1), enc_out


model = Seq2Seq()
with torch.no_grad():
    for i, (n, p) in enumerate(model.named_parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape).roll(3 * i) * (1 + 0.05 * i))
src = torch.tensor([[1, 2, 3, 4], [5, 3, 1, 1]])
mask = torch.tensor([[True, True, True, True], [True, True, True, False]])
tgt = torch.tensor([[4, 3, 2, 1], [1, 3, 5, 1]])

opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
for epoch in range(5):
    opt.zero_grad()
    logits, attns, enc_out = model(src, mask, tgt)
    loss = sum(F.cross_entropy(logits[:, t], tgt[:, t]) for t in range(4)) / 4
    loss.backward()
    total = nn.utils.clip_grad_norm_(model.parameters(), 2.0)
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f} grad norm {total.item():.4f}")
print(logits.shape, attns.shape, logits.grad_fn.name(), loss.grad_fn.name())
print(enc_out.grad_fn.name(), model.out(enc_out.repeat(1, 1, 2)).grad_fn.name())
print(model.cell.weight_hh.grad.norm(), model.src_emb.weight.grad[1])

model.eval()
with torch.no_grad():
    logits, attns, _ = model(src, mask)
print(logits.argmax(-1))
print(attns[1])
print(attns.sum(-1).round(decimals=4))  # rows of a softmax: 1 up to float noise
