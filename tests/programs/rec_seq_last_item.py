# Sequential recommendation (GRU4Rec / SASRec style): padded item histories with padding_idx=0,
# gather of the last valid position via lengths, masked mean pooling, next-item cross_entropy
# with ignore_index, and scores over the catalogue with the history masked out.
import torch
import torch.nn as nn
import torch.nn.functional as F

histories = [[3, 5, 2], [1, 4], [6, 2, 5, 1], [7]]
n_items, d = 8, 4
lengths = torch.tensor([len(h) for h in histories])
seqs = torch.zeros(len(histories), lengths.max(), dtype=torch.long)
for row, h in enumerate(histories):
    seqs[row, : len(h)] = torch.tensor(h)
print(seqs, lengths)
inputs, targets = seqs[:, :-1], seqs[:, 1:]
print(targets)

emb = nn.Embedding(n_items, d, padding_idx=0)
gru = nn.GRU(d, d, batch_first=True)
with torch.no_grad():
    emb.weight.copy_(torch.sin(torch.arange(n_items * d, dtype=torch.float32) * 0.3).view(n_items, d))
    emb.weight[0].zero_()
    for k, p in enumerate(gru.parameters()):
        p.copy_(0.2 * torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.11 + k).view_as(p))
print(emb, emb.weight[0])
x = emb(inputs)
mask = (inputs != 0).unsqueeze(-1).float()
pooled = (x * mask).sum(1) / mask.sum(1).clamp(min=1)
print(pooled.round(decimals=4))
out, h = gru(x)
print(out.shape, h.shape)
last_idx = (lengths - 2).clamp(min=0)
last = out.gather(1, last_idx.view(-1, 1, 1).expand(-1, 1, d)).squeeze(1)
print(last.round(decimals=4))
print(torch.equal(last, out[torch.arange(len(histories)), last_idx]))
logits = out @ emb.weight.T
loss = F.cross_entropy(logits.reshape(-1, n_items), targets.reshape(-1), ignore_index=0)
print(f"loss {loss.item():.4f}", logits.shape)
per_tok = F.cross_entropy(logits.transpose(1, 2), targets, ignore_index=0, reduction="none")
print(per_tok.round(decimals=3))
loss.backward()
print(emb.weight.grad[0], emb.weight.grad.abs().sum(1).gt(0).nonzero().flatten())

opt = torch.optim.Adam([*emb.parameters(), *gru.parameters()], lr=0.05)
for step in range(15):
    out, _ = gru(emb(inputs))
    loss = F.cross_entropy((out @ emb.weight.T).reshape(-1, n_items), targets.reshape(-1), ignore_index=0)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 4:
        print(f"step {step + 1} loss {loss.item():.4f}")
with torch.no_grad():
    out, _ = gru(emb(seqs))
    user_vec = out[torch.arange(len(histories)), lengths - 1]
    scores = user_vec @ emb.weight.T
    scores[:, 0] = float("-inf")
    scores.scatter_(1, seqs, float("-inf"))
    print(scores.isinf().sum(1))
    print(scores.topk(2, dim=1).indices)
