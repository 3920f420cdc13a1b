# Label-encoding tables for interaction logs: torch.unique over (user, item) rows with
# return_inverse/return_counts, dedup of repeated interactions, index_select to gather the
# encoded columns, and the edge cases of empty logs.
import torch

log = torch.tensor([[10, 7], [42, 7], [10, 3], [10, 7], [99, 3], [42, 8], [10, 3]])
raw_users, user_idx = torch.unique(log[:, 0], return_inverse=True)
raw_items, item_idx, item_cnt = torch.unique(log[:, 1], return_inverse=True, return_counts=True)
print(raw_users, user_idx)
print(raw_items, item_idx, item_cnt)
pairs, pair_inv, pair_cnt = torch.unique(log, dim=0, return_inverse=True, return_counts=True)
print(pairs)
print(pair_inv, pair_cnt)
print(torch.unique(log, dim=1).shape, torch.unique(log.T, dim=1, sorted=True).T[:2])
first_seen = torch.full((len(pairs),), len(log), dtype=torch.long).scatter_reduce(0, pair_inv, torch.arange(len(log)), reduce="amin")
print(first_seen, log.index_select(0, first_seen.sort().values))
encoded = torch.stack([user_idx, item_idx], dim=1)
print(encoded.index_select(1, torch.tensor([1, 0]))[:3])
print(encoded.index_select(0, torch.tensor([-0, 2])))
cols = log.index_select(1, torch.tensor([0]))
print(cols.flatten().tolist())
print(torch.tensor(5).index_select(0, torch.tensor([0])), torch.tensor([5.0]).index_select(0, torch.tensor(0)))
print(torch.unique_consecutive(log[:, 0]), torch.unique_consecutive(log, dim=0, return_counts=True)[1])
popularity = torch.bincount(item_idx)
print(popularity, popularity.argsort(descending=True, stable=True))
decode = {i: int(v) for i, v in enumerate(raw_items)}
print(decode)


def attempt(label, fn):
    try:
        print(label, "->", fn())
    except (RuntimeError, IndexError) as e:
        print(label, "->", type(e).__name__, e)


attempt("bad col", lambda: log.index_select(1, torch.tensor([2])))
attempt("neg col", lambda: log.index_select(1, torch.tensor([-1])))
attempt("bad row", lambda: log.index_select(0, torch.tensor([7])))
attempt("neg row", lambda: log.index_select(0, torch.tensor([0, -1])))
attempt("float idx", lambda: log.index_select(0, torch.tensor([0.0])))
attempt("2d idx", lambda: log.index_select(0, torch.tensor([[0]])))
attempt("scalar big", lambda: torch.tensor(5).index_select(0, torch.tensor([1])))
empty = torch.zeros(0, 2, dtype=torch.long)
attempt("empty rows", lambda: torch.unique(empty, dim=0, return_counts=True))
attempt("empty cols", lambda: torch.unique(empty, dim=1))
attempt("empty 1d", lambda: torch.unique(torch.tensor([], dtype=torch.long), return_inverse=True))
attempt("bad dim", lambda: torch.unique(log, dim=2))
attempt("consecutive empty", lambda: torch.unique_consecutive(torch.zeros(2, 0), dim=0))
