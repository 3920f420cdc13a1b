# Pairwise losses from torch.nn for similarity learning: CosineEmbeddingLoss (margin, reductions, 1-d inputs),
# MarginRankingLoss for learning-to-rank scores, HingeEmbeddingLoss on distances, F.cosine_similarity
# with broadcasting, dim and eps, and the gradients of each.
import torch
import torch.nn as nn
import torch.nn.functional as F

x1 = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0], [0.0, 0.0, 0.0], [2.0, 2.0, -1.0]])
x2 = torch.tensor([[1.0, 2.5, 2.0], [-0.5, 1.0, 0.2], [1.0, 0.0, 0.0], [2.0, 1.0, 1.0]])
y = torch.tensor([1, -1, 1, -1])

print(F.cosine_similarity(x1, x2))
print(F.cosine_similarity(x1, x2, dim=0))
print(F.cosine_similarity(x1[:, None, :], x2[None, :, :], dim=-1))
print(F.cosine_similarity(x1, x2[1]), F.cosine_similarity(x1[0], x2[0], dim=0))
print(nn.CosineSimilarity(dim=1, eps=1e-6)(x1, x2))

for kw in [{}, {"margin": 0.2}, {"margin": -0.5, "reduction": "none"}, {"reduction": "sum"}]:
    crit = nn.CosineEmbeddingLoss(**kw)
    print(crit, crit(x1, x2, y))
print(F.cosine_embedding_loss(x1[0], x2[0], torch.tensor(1)))
print(F.cosine_embedding_loss(x1, x2, y.float(), margin=0.1, reduction="none"))

a = x1.clone().requires_grad_()
b = x2.clone().requires_grad_()
nn.CosineEmbeddingLoss(margin=0.1)(a, b, y).backward()
print(a.grad)
print(b.grad)

a = x1.clone().requires_grad_()
F.cosine_similarity(a, x2).sum().backward()
print(a.grad)

# learning to rank: score(doc_i) should exceed score(doc_j) when y == 1
scorer = nn.Linear(3, 1)
with torch.no_grad():
    scorer.weight.copy_(torch.tensor([[0.3, -0.2, 0.5]]))
    scorer.bias.fill_(0.1)
s1, s2 = scorer(x1).squeeze(-1), scorer(x2).squeeze(-1)
rank = nn.MarginRankingLoss(margin=0.5)
print(rank, rank(s1, s2, y.float()))
print(F.margin_ranking_loss(s1, s2, y.float(), reduction="none"))
opt = torch.optim.SGD(scorer.parameters(), lr=0.1)
for step in range(10):
    opt.zero_grad()
    loss = rank(scorer(x1).squeeze(-1), scorer(x2).squeeze(-1), y.float())
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.4f}", scorer.weight.grad)

dist = F.pairwise_distance(x1, x2)
print(dist)
for kw in [{}, {"margin": 3.0}, {"margin": 0.5, "reduction": "none"}]:
    crit = nn.HingeEmbeddingLoss(**kw)
    print(crit, crit(dist, y.float()))
d = dist.clone().requires_grad_()
F.hinge_embedding_loss(d, y.float(), margin=3.0).backward()
print(d.grad)
print(F.hinge_embedding_loss(torch.tensor([0.5, 2.0]), torch.tensor([1.0, 0.0])))

for bad in [lambda: nn.CosineEmbeddingLoss()(x1, x2, y[:3]),
            lambda: nn.CosineEmbeddingLoss()(x1, x2[:, :2], y),
            lambda: nn.CosineEmbeddingLoss()(x1.unsqueeze(0), x2.unsqueeze(0), y),
            lambda: nn.MarginRankingLoss()(s1, s2[:2], y.float()),
            lambda: F.cosine_similarity(x1, x2[:3])]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
