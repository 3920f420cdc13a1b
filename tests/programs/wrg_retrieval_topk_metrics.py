# Retrieval evaluation: cosine similarity matrix, topk/gather for top-k retrieval,
# recall@k, MRR, NDCG and mAP computed with tensor ops, as in embedding-eval scripts.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4)

n_q, n_db, d = 5, 8, 6
queries = torch.stack([torch.cos(torch.arange(d) * 0.3 * (i + 1)) for i in range(n_q)])
db = torch.stack([torch.sin(torch.arange(d) * 0.25 * (j + 1) + 0.5) for j in range(n_db)])
labels_q = torch.tensor([0, 1, 2, 1, 0])
labels_db = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])

sim = F.normalize(queries, dim=1) @ F.normalize(db, dim=1).T
print("sim", sim)

scores, idx = sim.topk(3, dim=1)
print("top3 scores", scores)
print("top3 idx", idx)
retrieved_labels = labels_db[idx]
print("retrieved labels", retrieved_labels)
hits = retrieved_labels == labels_q.unsqueeze(1)
print("recall@1", hits[:, :1].any(dim=1).float().mean().item())
print("recall@3", hits.any(dim=1).float().mean())

# MRR over full ranking
order = sim.argsort(dim=1, descending=True)
relevant = labels_db[order] == labels_q[:, None]
first_rank = relevant.float().argmax(dim=1) + 1
print("first rank", first_rank)
print("MRR", (1.0 / first_rank.float()).mean())

# NDCG@5 with graded relevance
rel = torch.tensor([[3, 2, 0, 1, 0, 0, 2, 1],
                    [0, 3, 1, 0, 2, 0, 0, 1],
                    [1, 0, 3, 0, 0, 2, 0, 0],
                    [0, 2, 0, 1, 3, 0, 1, 2],
                    [2, 0, 0, 3, 0, 1, 2, 0]], dtype=torch.float32)
k = 5
pred_rel = torch.gather(rel, 1, order[:, :k])
discounts = 1.0 / torch.log2(torch.arange(2, k + 2, dtype=torch.float32))
dcg = ((2 ** pred_rel - 1) * discounts).sum(dim=1)
ideal, _ = rel.sort(dim=1, descending=True)
idcg = ((2 ** ideal[:, :k] - 1) * discounts).sum(dim=1)
print("ndcg", dcg / idcg)

# mean average precision
cum_hits = relevant.float().cumsum(dim=1)
ranks = torch.arange(1, n_db + 1).float()
precision_at = cum_hits / ranks
ap = (precision_at * relevant).sum(1) / relevant.sum(1).clamp(min=1)
print("AP", ap)
print("mAP", f"{ap.mean().item():.4f}")

# topk with largest=False / sorted=True and kthvalue
low_vals, low_idx = torch.topk(sim, 2, dim=1, largest=False)
print("lowest", low_vals, low_idx)
kv = torch.kthvalue(sim, 4, dim=1, keepdim=True)
print("4th smallest", kv.values.squeeze(1), kv.indices.squeeze(1))
print(type(kv).__name__)
top = sim.flatten().topk(4)
print(top)
rows, cols = top.indices // n_db, top.indices % n_db
print("pairs", list(zip(rows.tolist(), cols.tolist())))
print(torch.unravel_index(top.indices, sim.shape))
