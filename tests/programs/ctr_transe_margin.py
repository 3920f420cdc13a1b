# TransE knowledge-graph embeddings (Bordes et al.) as in popular PyTorch repos: entity/relation
# nn.Embedding (one with max_norm=1 renormalising rows in place on lookup), L1/L2 scores
# torch.norm(h + r - t, p, dim=1), corrupted triples, MarginRankingLoss with target -1, and hits@k.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TransE(nn.Module):
    def __init__(self, n_ent, n_rel, dim, norm=1, margin=1.0):
        super().__init__()
        self.norm = norm
        self.entities = nn.Embedding(n_ent, dim, max_norm=1.0)
        self.relations = nn.Embedding(n_rel, dim)
        self.criterion = nn.MarginRankingLoss(margin=margin, reduction="none")

    def distance(self, triplets):
        h, r, t = triplets[:, 0], triplets[:, 1], triplets[:, 2]
        return (self.entities(h) + self.relations(r) - self.entities(t)).norm(p=self.norm, dim=1)

    def forward(self, positive, negative):
        pd, nd = self.distance(positive), self.distance(negative)
        target = torch.tensor([-1], dtype=torch.long)
        return self.criterion(pd, nd, target), pd, nd


n_ent, n_rel, dim = 6, 2, 4
model = TransE(n_ent, n_rel, dim, norm=1)
with torch.no_grad():
    model.entities.weight.copy_(torch.sin(torch.arange(n_ent * dim, dtype=torch.float32).view(n_ent, dim) * 0.9) * 1.5)
    model.relations.weight.copy_(torch.cos(torch.arange(n_rel * dim, dtype=torch.float32).view(n_rel, dim)) * 0.3)
    # the TransE paper: relation vectors L2-normalised once at init
    model.relations.weight.data[:-1, :].div_(model.relations.weight.data[:-1, :].norm(p=1, dim=1, keepdim=True))
print(model.entities, model.entities.max_norm, model.entities.norm_type)
print(model.entities.weight.norm(dim=1).round(decimals=4))

triples = torch.tensor([[0, 0, 1], [1, 0, 2], [2, 1, 3], [3, 1, 4], [4, 0, 5]])
corrupt = triples.clone()
corrupt[:, 2] = (triples[:, 2] + 2) % n_ent  # deterministic tail corruption
loss, pd, nd = model(triples, corrupt)
print(loss.shape, loss.round(decimals=4), pd.round(decimals=4))
print(model.entities.weight.norm(dim=1).round(decimals=4))  # rows looked up were renormalised
print(F.embedding(torch.tensor([5]), torch.full((6, 4), 2.0), max_norm=1.0, norm_type=1.0))

opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(15):
    opt.zero_grad()
    loss, pd, nd = model(triples, corrupt)
    loss.mean().backward()
    opt.step()
    if epoch % 5 == 0:
        print(epoch, f"{loss.mean().item():.4f}", f"{pd.mean().item():.4f}", f"{nd.mean().item():.4f}")

with torch.no_grad():
    h = model.entities.weight[triples[:, 0]] + model.relations.weight[triples[:, 1]]
    scores = torch.cdist(h, model.entities.weight, p=1)
    ranks = (scores.argsort(dim=1) == triples[:, 2:3]).nonzero()[:, 1] + 1
    print("ranks", ranks, "hits@3", (ranks <= 3).float().mean().item(), "MRR", f"{(1.0 / ranks.float()).mean().item():.4f}")
    print(model.entities.weight.grad is None, model.relations.weight.grad.shape)
