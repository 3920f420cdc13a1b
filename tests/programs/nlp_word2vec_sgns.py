# Word2vec skip-gram with negative sampling as in course assignments: vocab from Counter,
# (center, context) pairs from a window, fixed "negative" samples, embedding dot products
# with F.logsigmoid, SGD steps, then cosine-similarity nearest neighbours via F.normalize + topk.
from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F

corpus = "the quick brown fox jumps over the lazy dog the dog sleeps the fox runs".split()
counts = Counter(corpus)
vocab = sorted(counts, key=lambda w: (-counts[w], w))
w2i = {w: i for i, w in enumerate(vocab)}
print(len(vocab), vocab[:5], counts.most_common(3))
ids = torch.tensor([w2i[w] for w in corpus])

window = 2
pairs = []
for i in range(len(corpus)):
    for j in range(max(0, i - window), min(len(corpus), i + window + 1)):
        if i != j:
            pairs.append((ids[i].item(), ids[j].item()))
pairs = torch.tensor(pairs)
print(pairs.shape, pairs[:4].tolist())

K = 3
negatives = (pairs[:, :1] * 3 + torch.arange(1, K + 1) * 5) % len(vocab)
print(negatives.shape, negatives[:2])


class SkipGram(nn.Module):
    def __init__(self, V, D):
        super().__init__()
        self.in_embed = nn.Embedding(V, D)
        self.out_embed = nn.Embedding(V, D)

    def forward(self, center, context, neg):
        v = self.in_embed(center)                       # (B, D)
        u = self.out_embed(context)                     # (B, D)
        un = self.out_embed(neg)                        # (B, K, D)
        pos = F.logsigmoid((v * u).sum(-1))
        negs = F.logsigmoid(-torch.bmm(un, v.unsqueeze(2)).squeeze(2)).sum(1)
        return -(pos + negs).mean()


model = SkipGram(len(vocab), 6)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * (0.7 + 0.3 * i)).reshape(p.shape) * 0.5)

opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(30):
    opt.zero_grad()
    loss = model(pairs[:, 0], pairs[:, 1], negatives)
    loss.backward()
    opt.step()
    if step % 6 == 0:
        print(f"step {step:2d} loss {loss.item():.4f}")
print(loss.grad_fn, model.in_embed.weight.grad.shape)
print(model.out_embed.weight.grad[:2])

emb = F.normalize(model.in_embed.weight.detach(), dim=1)
sims = emb @ emb.T
print(sims.diagonal())
vals, idx = sims.topk(3, dim=1)
for w in ["the", "fox", "dog"]:
    r = w2i[w]
    print(w, [vocab[j] for j in idx[r, 1:].tolist()], [round(v, 3) for v in vals[r, 1:].tolist()])
cs = F.cosine_similarity(emb[w2i["fox"]], emb, dim=-1)
print(cs.argsort(descending=True)[:4], cs.shape)
