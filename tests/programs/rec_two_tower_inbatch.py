# Two-tower retrieval with in-batch negatives: query/item towers over hashed id embeddings,
# similarity matrix / temperature, cross_entropy against arange labels, logQ correction from
# item frequencies (bincount), recall@k with a diagonal mask.
import torch
import torch.nn as nn
import torch.nn.functional as F

n_users, n_items, d = 6, 10, 4
users = torch.tensor([0, 1, 2, 3, 4, 5, 0, 2])
items = torch.tensor([3, 1, 4, 1, 5, 9, 2, 6])


class Tower(nn.Module):
    def __init__(self, n, d, buckets=7):
        super().__init__()
        self.id_emb = nn.Embedding(n, d)
        self.hash_emb = nn.Embedding(buckets, d)
        self.buckets = buckets
        self.proj = nn.Linear(2 * d, d, bias=False)

    def forward(self, ids):
        h = torch.remainder(ids * 2654435761, self.buckets)
        x = torch.cat([self.id_emb(ids), self.hash_emb(h)], dim=-1)
        return F.normalize(self.proj(x), dim=-1)


q_tower, i_tower = Tower(n_users, d), Tower(n_items, d)
with torch.no_grad():
    for k, p in enumerate([*q_tower.parameters(), *i_tower.parameters()]):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + k).view_as(p) * 0.5)
print(torch.remainder(items * 2654435761, 7))
freq = torch.bincount(items, minlength=n_items).float()
logq = torch.log(freq[items] / freq.sum())
print(freq, logq.round(decimals=3))
temperature = 0.2
opt = torch.optim.Adam([*q_tower.parameters(), *i_tower.parameters()], lr=0.05)
labels = torch.arange(len(users))
same_item = items.unsqueeze(0) == items.unsqueeze(1)
print(same_item.sum().item(), same_item.fill_diagonal_(False).nonzero().tolist())
for step in range(20):
    q, v = q_tower(users), i_tower(items)
    logits = q @ v.T / temperature - logq.unsqueeze(0)
    logits = logits.masked_fill(same_item, float("-inf"))
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        acc = (logits.argmax(1) == labels).float().mean()
        print(f"step {step} loss {loss.item():.4f} acc {acc.item():.3f}")
print(logits.isinf().sum().item(), logits.grad_fn.name())
with torch.no_grad():
    all_items = i_tower(torch.arange(n_items))
    scores = q_tower(torch.arange(n_users)) @ all_items.T
    print(scores.shape, all_items.norm(dim=1).round(decimals=4))
    top = scores.topk(3, dim=1).indices
    truth = torch.zeros(n_users, n_items, dtype=torch.bool)
    truth[users, items] = True
    hit = truth.gather(1, top)
    print(hit.int())
    recall = hit.sum(1).float() / truth.sum(1).float()
    print("recall@3", recall.round(decimals=3), f"{recall.mean():.3f}")
    print(F.cosine_similarity(all_items[:1], all_items, dim=1).round(decimals=3))
