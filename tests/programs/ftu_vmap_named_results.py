# Per-query retrieval written one query at a time and batched with vmap, as in torch.func demos:
# the function returns torch.return_types results (topk, max(dim), sort, min) which vmap stacks
# field by field, plus a jacrev through the top-k values for a soft retrieval score.
import torch
import torch.nn.functional as F
from torch.func import jacrev, vmap

keys = torch.stack([torch.cos(torch.arange(4.0) * (k + 1) * 0.5) for k in range(6)])
queries = torch.stack([torch.sin(torch.arange(4.0) * (q + 1) * 0.3 + q) for q in range(3)])


def retrieve(q, k=2):
    scores = F.cosine_similarity(keys, q.unsqueeze(0), dim=-1)
    return scores.topk(k)


res = vmap(retrieve)(queries)
print(type(res).__name__)
print(res.values.round(decimals=4))
print(res.indices)
values, indices = res
print("unpacks:", tuple(values.shape), indices.dtype)

best = vmap(lambda q: (keys @ q).max(dim=0))(queries)
print(best)

ranked = vmap(lambda q: torch.sort(keys @ q, descending=True))(queries)
print(ranked.indices)
print(vmap(lambda q: (keys - q).norm(dim=-1).min(0))(queries).indices)

# out_dims=1 puts the query dimension second in every field
res_t = vmap(retrieve, out_dims=1)(queries)
print(tuple(res_t.values.shape), torch.equal(res_t.indices, res.indices.T))

# a per-query soft score of the top-k, differentiated w.r.t. the query
def soft_top2(q):
    return retrieve(q).values.logsumexp(0)


g = vmap(jacrev(soft_top2))(queries)
print("d score / d query:", tuple(g.shape))
print(g.round(decimals=4))
