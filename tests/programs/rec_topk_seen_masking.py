# Top-k recommendation: score all items, mask already-seen items with -inf via masked_fill /
# index_put, then topk; recall@k, NDCG@k and hit rate computed by hand.
import math
import torch

n_users, n_items = 4, 8
U = torch.sin(torch.arange(n_users * 3, dtype=torch.float32)).view(n_users, 3)
V = torch.cos(torch.arange(n_items * 3, dtype=torch.float32) * 0.5).view(n_items, 3)
scores = U @ V.T
print(scores.round(decimals=3))

train = torch.tensor([[0, 1], [0, 3], [1, 0], [2, 2], [2, 5], [2, 6], [3, 7]])
test = {0: [2, 4], 1: [1, 6, 7], 2: [0], 3: [3, 5]}
seen = torch.zeros_like(scores, dtype=torch.bool)
seen[train[:, 0], train[:, 1]] = True
masked = scores.masked_fill(seen, float("-inf"))
print(masked[2])
alt = scores.clone()
alt.index_put_((train[:, 0], train[:, 1]), torch.tensor(-float("inf")))
print(torch.equal(alt, masked))
k = 3
top_scores, top_items = torch.topk(masked, k, dim=1)
print(top_items)
print(top_scores.round(decimals=3))
print(torch.topk(masked, k, dim=1, largest=False).indices)
print(masked.argsort(dim=1, descending=True)[:, :k])
print(masked.sort(dim=1, descending=True, stable=True).indices[:, :k])

hits = torch.zeros(n_users, k)
for u, items in test.items():
    hits[u] = torch.isin(top_items[u], torch.tensor(items)).float()
print(hits)
n_rel = torch.tensor([len(test[u]) for u in range(n_users)], dtype=torch.float32)
recall = hits.sum(1) / n_rel.clamp(max=k)
print("recall@3", recall, f"{recall.mean().item():.4f}")
discount = 1.0 / torch.log2(torch.arange(2, k + 2, dtype=torch.float32))
dcg = (hits * discount).sum(1)
ideal = torch.stack([discount[: int(min(n, k))].sum() for n in n_rel.tolist()])
ndcg = dcg / ideal
print("ndcg@3", ndcg.round(decimals=4), f"{ndcg.mean().item():.4f}")
print("hit@3", (hits.sum(1) > 0).float().mean().item())
print(f"{1 / math.log2(3):.6f}", discount)

# leave-one-out evaluation: rank of the held-out item among 1 positive + sampled negatives
cand = torch.tensor([[2, 0, 5, 7], [6, 2, 3, 4], [0, 1, 3, 4], [5, 0, 1, 2]])
cand_scores = torch.gather(scores, 1, cand)
rank = (cand_scores > cand_scores[:, :1]).sum(1)
print(rank, (rank < 2).float().mean())
mrr = (1.0 / (rank + 1).float()).mean()
print(f"MRR {mrr:.4f}")
inf_row = torch.full((3,), float("-inf"))
print(torch.topk(inf_row, 2), torch.softmax(masked[3], 0).round(decimals=3))
print(torch.topk(masked, k, dim=1, sorted=True).values.isfinite().all())
try:
    torch.topk(masked, 9, dim=1)
except RuntimeError as e:
    print(type(e).__name__, e)
