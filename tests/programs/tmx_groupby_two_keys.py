# A pandas-style groupby on two key columns done in tensors: composite keys with unique(dim=0,
# return_inverse), sum/mean/max/count per group via index_add_/index_reduce/bincount, cumcount and
# rank within group via stable sorts, and a transform back to rows with the inverse index.
import warnings

import torch

store = torch.tensor([1, 0, 1, 2, 0, 1, 2, 0, 1, 0])
item = torch.tensor([3, 3, 3, 1, 3, 2, 1, 1, 2, 3])
sales = torch.tensor([5.0, 2.0, 7.0, 1.0, 4.0, 3.0, 6.0, 8.0, 3.0, 2.0])

keys = torch.stack([store, item], dim=1)
groups, inv, counts = torch.unique(keys, dim=0, return_inverse=True, return_counts=True)
G = groups.shape[0]
print(groups.tolist())
print(inv, counts)

total = torch.zeros(G).index_add_(0, inv, sales)
mean = total / counts
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    gmax = torch.zeros(G).index_reduce_(0, inv, sales, "amax", include_self=False)
    gmean = torch.zeros(G).index_reduce(0, inv, sales, "mean", include_self=False)
print(total, mean)
print(gmax, torch.allclose(gmean, mean))
print(torch.equal(torch.bincount(inv, minlength=G), counts), torch.bincount(inv, weights=sales))

# transform: each row's share of its group total, and the row minus its group mean
share = sales / total[inv]
print(share)
print(sales - mean[inv])

# cumcount within group (order of appearance): stable sort by group, position minus group start
order = torch.argsort(inv, stable=True)
starts = torch.cumsum(counts, 0) - counts
cumcount = torch.empty_like(inv)
cumcount[order] = torch.arange(len(inv)) - starts[inv[order]]
print(cumcount)

# rank of sales within group (descending, ties by first appearance): lexsort via two stable sorts
o1 = torch.argsort(sales, descending=True, stable=True)
o2 = o1[torch.argsort(inv[o1], stable=True)]
rank = torch.empty_like(inv)
rank[o2] = torch.arange(len(inv)) - starts[inv[o2]] + 1
print(rank)

# top group per store by total sales
best = torch.full((3,), -1.0).scatter_reduce(0, groups[:, 0], total, "amax")
is_best = total == best[groups[:, 0]]
print(best, groups[is_best].tolist())

# groups sorted by total, descending; keys of the top two
top_tot, top_idx = total.topk(2)
print(top_tot, groups[top_idx].tolist())
print(torch.sort(total, descending=True, stable=True).indices)

# differentiable aggregation: gradient of the sum of group means w.r.t. each sale
s = sales.clone().requires_grad_(True)
gm = torch.zeros(G).index_add(0, inv, s) / counts
gm.sum().backward()
print(s.grad)
