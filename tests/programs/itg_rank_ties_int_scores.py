# Ranking integer scores with ties (leaderboards, Spearman correlation, NDCG by hand):
# argsort-of-argsort ranks, stable sort order for ties, dense ranks from unique(return_inverse),
# average ranks for ties via scatter_add, mode/median/kthvalue on ints, int8 / uint8 keys.
import torch

scores = torch.tensor([70, 85, 70, 92, 85, 60, 85, 100, 60, 70])
print("scores", scores)
order = torch.argsort(scores, descending=True, stable=True)
print("stable order (desc)", order)
print("sorted", scores[order])
ordinal = torch.empty_like(order)
ordinal[order] = torch.arange(1, len(scores) + 1)
print("ordinal rank", ordinal)
print("argsort twice", torch.argsort(torch.argsort(-scores, stable=True)) + 1)

uniq, inv, counts = torch.unique(scores, sorted=True, return_inverse=True, return_counts=True)
print("unique", uniq, "counts", counts)
dense_desc = len(uniq) - inv
print("dense rank (desc)", dense_desc)
# competition ("1224") rank: 1 + number of strictly greater scores
comp = (scores.unsqueeze(0) > scores.unsqueeze(1)).sum(1) + 1
print("competition rank", comp, comp.dtype)

# average rank for ties (what scipy.stats.rankdata gives)
asc = torch.argsort(scores, stable=True)
pos = torch.empty_like(asc)
pos[asc] = torch.arange(len(scores))
sums = torch.zeros(len(uniq), dtype=torch.long).scatter_add_(0, inv, pos + 1)
avg_rank = sums / counts
print("average rank per value", avg_rank, avg_rank.dtype)
print("average rank", avg_rank[inv])
other = torch.tensor([3, 8, 2, 9, 7, 1, 6, 10, 1, 4])
_, inv2, counts2 = torch.unique(other, return_inverse=True, return_counts=True)
asc2 = torch.argsort(other, stable=True)
pos2 = torch.empty_like(asc2)
pos2[asc2] = torch.arange(len(other))
r2 = (torch.zeros(len(counts2), dtype=torch.long).scatter_add_(0, inv2, pos2 + 1) / counts2)[inv2]
r1 = avg_rank[inv]
rho = torch.corrcoef(torch.stack([r1, r2]))[0, 1]
print("spearman rho", f"{rho.item():.4f}")

# stats on integers
print("mode", torch.mode(scores), "median", torch.median(scores), "nanmedian", torch.nanmedian(scores))
print("kthvalue(3)", torch.kthvalue(scores, 3))
print("topk(4)", torch.topk(scores, 4))
print("topk sorted=False values sorted:", torch.topk(scores, 4, sorted=False).values.sort(descending=True).values)
print("max with ties", scores.max(0), "argmax", scores.argmax(), "argmin", scores.argmin())
print("cummax", torch.cummax(scores, 0))
print("msort 2d", torch.msort(torch.stack([scores[:5], scores[5:]], 1)))
print("unique_consecutive after sort", torch.unique_consecutive(scores.sort().values, return_counts=True))

# small integer dtypes sort the same way
s8 = scores.to(torch.int8) - 80
print("int8 shifted", s8, torch.sort(s8, stable=True))
u8 = (scores * 3).to(torch.uint8)
print("uint8 wrapped", u8, "argsort", torch.argsort(u8, stable=True))
print("uint8 max is", u8.max().item(), "but true max", (scores * 3).max().item())

# NDCG with integer relevance
rel = torch.tensor([3, 2, 3, 0, 1, 2])
ranked = rel[torch.tensor([0, 1, 2, 3, 4, 5])]
gains = (2 ** ranked - 1)
print("gains", gains, gains.dtype)
discounts = torch.log2(torch.arange(2, len(rel) + 2).float())
dcg = (gains / discounts).sum()
ideal = (2 ** rel.sort(descending=True).values - 1) / discounts
print("ndcg", f"{(dcg / ideal.sum()).item():.4f}")
print("2 ** -1 on ints:")
try:
    print(2 ** torch.tensor([-1, 2]) , torch.tensor([2]) ** -1)
except RuntimeError as e:
    print(type(e).__name__, e)
