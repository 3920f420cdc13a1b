# Perplexity of a tiny LSTM language model on padded batches: cross_entropy with
# ignore_index=pad and reduction='none', masked means, token-level vs sentence-level averaging,
# exp of mean NLL, label smoothing with ignore_index, NLLLoss on log_softmax.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0
sents = [[5, 3, 7, 2], [4, 6, 2], [1, 3, 3, 7, 2], [6, 2]]
L = max(map(len, sents))
x = torch.full((len(sents), L), PAD, dtype=torch.long)
for i, s in enumerate(sents):
    x[i, : len(s)] = torch.tensor(s)
inp, tgt = x[:, :-1], x[:, 1:]
print(inp, tgt, sep="\n")


class LM(nn.Module):
    def __init__(self, V=8, D=6, H=7):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=PAD)
        self.rnn = nn.LSTM(D, H, batch_first=True)
        self.out = nn.Linear(H, V)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


lm = LM()
with torch.no_grad():
    for i, p in enumerate(lm.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + 0.5 * i).reshape(p.shape) * 0.3)

logits = lm(inp)
V = logits.size(-1)
tok_loss = F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1), ignore_index=PAD, reduction="none")
print(tok_loss.view_as(tgt))
mask = tgt != PAD
mean_nll = tok_loss.sum() / mask.sum()
print(f"token nll {mean_nll.item():.5f} ppl {math.exp(mean_nll.item()):.4f}")
builtin = F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1), ignore_index=PAD)
print(f"builtin {builtin.item():.5f} {torch.exp(builtin).item():.4f}")
sent_nll = (tok_loss.view_as(tgt) * mask).sum(1) / mask.sum(1)
print(sent_nll, sent_nll.exp())
print(F.cross_entropy(logits.transpose(1, 2), tgt, ignore_index=PAD, reduction="sum"))
print(F.cross_entropy(logits.transpose(1, 2), tgt, ignore_index=PAD, reduction="none").shape)
print(F.nll_loss(F.log_softmax(logits, -1).reshape(-1, V), tgt.reshape(-1), ignore_index=PAD))
print(F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1), ignore_index=PAD, label_smoothing=0.1))
print(F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1), ignore_index=PAD, label_smoothing=0.1, reduction="none")[:6])
w = torch.linspace(0.5, 1.5, V)
print(F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1), weight=w, ignore_index=PAD, label_smoothing=0.2))
print(F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1), weight=w, ignore_index=PAD, label_smoothing=0.2, reduction="sum"))

opt = torch.optim.Adam(lm.parameters(), lr=0.02)
crit = nn.CrossEntropyLoss(ignore_index=PAD)
for step in range(25):
    opt.zero_grad()
    loss = crit(lm(inp).reshape(-1, V), tgt.reshape(-1))
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step} loss {loss.item():.4f} ppl {loss.exp().item():.3f}")
print(lm.emb.weight.grad[PAD], lm.out.bias.grad)
# all-ignored batch gives nan
print(F.cross_entropy(torch.zeros(2, 3), torch.tensor([PAD, PAD]), ignore_index=PAD))
print(F.cross_entropy(torch.zeros(2, 3), torch.tensor([PAD, PAD]), ignore_index=PAD, reduction="sum"))
