# Item-popularity and co-occurrence counters kept in integer tensors (index_add_ with alpha,
# scalar accumulators, bincount vs scatter_add), and time-decayed popularity via gather.
import torch

clicks = torch.tensor([2, 0, 2, 3, 1, 2, 0, 3, 3, 3])
days = torch.tensor([0, 0, 1, 1, 1, 2, 2, 2, 3, 3])
n_items, n_days = 4, 4

pop = torch.zeros(n_items, dtype=torch.long)
pop.index_add_(0, clicks, torch.ones_like(clicks))
print(pop, torch.equal(pop, torch.bincount(clicks, minlength=n_items)))
weighted = torch.zeros(n_items, dtype=torch.long).index_add(0, clicks, torch.ones_like(clicks), alpha=3)
print(weighted)
halved = torch.zeros(n_items, dtype=torch.long).index_add(0, clicks, torch.full_like(clicks, 4), alpha=0.5)
print(halved)
print(torch.zeros(n_items).index_add(0, clicks, torch.ones(len(clicks)), alpha=0.5))

per_day = torch.zeros(n_days, n_items, dtype=torch.long)
per_day.index_put_((days, clicks), torch.ones_like(clicks), accumulate=True)
print(per_day)
decay = 0.5 ** (n_days - 1 - torch.arange(n_days, dtype=torch.float32))
print(decay, (per_day.float() * decay[:, None]).sum(0))

total = torch.tensor(0.0)
for d in range(n_days):
    total.index_add_(0, torch.tensor([0]), per_day[d].sum().float())
print(total, total.shape)
print(torch.tensor(0).index_add(0, torch.tensor(0), torch.tensor(7)))

cooc = torch.zeros(n_items, n_items, dtype=torch.long)
for d in range(n_days):
    items = clicks[days == d].unique()
    pairs = torch.cartesian_prod(items, items)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    flat = pairs[:, 0] * n_items + pairs[:, 1]
    cooc.view(-1).scatter_add_(0, flat, torch.ones_like(flat))
print(cooc)
print(torch.equal(cooc, cooc.T), cooc.sum(1))
nbrs = cooc.argsort(dim=1, descending=True, stable=True)[:, :2]
print(nbrs, torch.gather(cooc, 1, nbrs, sparse_grad=False))
print(torch.gather(cooc.float(), 1, nbrs, sparse_grad=True))


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except (RuntimeError, IndexError) as e:
        print(label, "->", type(e).__name__, e)


attempt("scalar src", lambda: torch.zeros(4).index_add(0, torch.tensor([1, 2]), torch.tensor(1.0)))
attempt("scalar into vector", lambda: torch.zeros(4).index_add(0, torch.tensor([1]), torch.tensor(1.0)))
attempt("dim past src", lambda: torch.zeros(4, 2).index_add(1, torch.tensor([0]), torch.ones(4)))
attempt("count mismatch", lambda: torch.zeros(4, 2).index_add(1, torch.tensor([0, 1]), torch.ones(4, 1)))
attempt("dtype", lambda: pop.index_add(0, clicks, torch.ones(len(clicks))))
attempt("out of range", lambda: pop.index_add(0, torch.tensor([4]), torch.tensor([1])))
attempt("size of scalar", lambda: total.size(0))
