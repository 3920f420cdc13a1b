# word2vec CBOW with nn.EmbeddingBag(mode="mean") over context windows (flat ids + offsets)
# and negative sampling via bmm + F.logsigmoid, negatives from a fixed unigram^0.75 table.
import torch
import torch.nn as nn
import torch.nn.functional as F
from collections import Counter

text = "we like deep learning and we like nlp and we enjoy flying deep into nlp".split()
counts = Counter(text)
vocab = [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
stoi = {w: i for i, w in enumerate(vocab)}
ids = [stoi[w] for w in text]
print(vocab)

flat, offsets, centers = [], [], []
for i in range(len(ids)):
    ctx = [ids[j] for j in range(max(0, i - 2), min(len(ids), i + 3)) if j != i]
    offsets.append(len(flat))
    flat.extend(ctx)
    centers.append(ids[i])
flat, offsets, centers = torch.tensor(flat), torch.tensor(offsets), torch.tensor(centers)
print(flat.shape, offsets[:6], centers[:6])

freq = torch.tensor([counts[w] for w in vocab], dtype=torch.float)
unigram = freq.pow(0.75)
unigram = unigram / unigram.sum()
print(unigram.round(decimals=4))
K = 3
# deterministic "sampling": the K most likely words, shifted per example
negatives = (torch.arange(len(centers))[:, None] + torch.arange(K)[None, :] * 2) % len(vocab)
print(negatives[:3])


class CBOW(nn.Module):
    def __init__(self, n, d):
        super().__init__()
        self.ctx = nn.EmbeddingBag(n, d, mode="mean")
        self.out = nn.Embedding(n, d)

    def forward(self, flat, offsets, centers, negatives):
        h = self.ctx(flat, offsets).unsqueeze(2)                # B, d, 1
        pos = self.out(centers).unsqueeze(1)                     # B, 1, d
        neg = self.out(negatives)                                # B, K, d
        pos_score = torch.bmm(pos, h).squeeze()                  # B
        neg_score = torch.bmm(neg, h).squeeze(2)                 # B, K
        return -(F.logsigmoid(pos_score) + F.logsigmoid(-neg_score).sum(1)).mean()


n, d = len(vocab), 5
model = CBOW(n, d)
with torch.no_grad():
    model.ctx.weight.copy_(0.2 * torch.sin(torch.arange(n * d, dtype=torch.float32)).view(n, d))
    model.out.weight.copy_(0.2 * torch.cos(torch.arange(n * d, dtype=torch.float32) * 1.3).view(n, d))
print(model)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(25):
    opt.zero_grad()
    loss = model(flat, offsets, centers, negatives)
    loss.backward()
    opt.step()
    if epoch % 6 == 0:
        print(epoch, f"{loss.item():.4f}", model.ctx.weight.grad.norm().item() > 0)

emb = F.normalize(model.ctx.weight.detach(), dim=1)
sims = emb @ emb[stoi["deep"]]
vals, idx = sims.topk(3)
print([vocab[i] for i in idx.tolist()], vals.round(decimals=3))
