# Errors users hit while iterating a DataLoader at num_workers=0: out-of-range sampler indices,
# dataset exceptions, samplers without __len__, dicts of ragged lists, weighted sampling limits.
from typing import Tuple
import torch
from torch import Tensor
from torch.utils.data import (DataLoader, Dataset, RandomSampler, Sampler, TensorDataset,
                              WeightedRandomSampler, BatchSampler)

ds = TensorDataset(torch.arange(10).float())
try:
    list(DataLoader(ds, sampler=[0, 3, 12], batch_size=2))
except IndexError as e:
    print("IndexError", e)


class Flaky(Dataset[Tuple[Tensor, int]]):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            raise KeyError(f"missing record {i}")
        return torch.tensor([float(i)]), i


try:
    for x, y in DataLoader(Flaky(), batch_size=1):
        print("got", x.tolist(), y.tolist())
except KeyError as e:
    print("KeyError", e)


class Endless(Sampler):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))


loader = DataLoader(ds, sampler=Endless(4), batch_size=3)
print([b[0].tolist() for b in loader])
try:
    len(loader)
except TypeError as e:
    print("TypeError", e)


class Tok(Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return {"input_ids": self.rows[i], "label": len(self.rows[i]) % 2}


same_len = DataLoader(Tok([[1, 2, 3], [4, 5, 6]]), batch_size=2)
b = next(iter(same_len))
print(type(b["input_ids"]).__name__, len(b["input_ids"]), b["input_ids"], b["label"])
try:
    next(iter(DataLoader(Tok([[1, 2, 3], [4, 5]]), batch_size=2)))
except RuntimeError as e:
    print("RuntimeError", e)

ws = WeightedRandomSampler([0.2, 0.3, 0.5], num_samples=5, replacement=False)
try:
    list(ws)
except RuntimeError as e:
    print("RuntimeError", e)
zero = WeightedRandomSampler([0.0, 0.0], num_samples=1)
try:
    list(zero)
except RuntimeError as e:
    print("RuntimeError", e)
neg = WeightedRandomSampler([1.0, -1.0], num_samples=1)
try:
    list(neg)
except RuntimeError as e:
    print("RuntimeError", e)

bs = BatchSampler(RandomSampler(ds, generator=torch.Generator().manual_seed(1)), 4, False)
print(len(bs), sorted(sum(list(bs), [])))
try:
    len(BatchSampler(Endless(3), 2, False))
except TypeError as e:
    print("TypeError", e)
try:
    DataLoader(ds, batch_size=2, sampler=object()).__iter__()
except TypeError as e:
    print("TypeError", e)
try:
    ds[10]
except IndexError as e:
    print("IndexError", e)
try:
    TensorDataset()
except (AssertionError, IndexError) as e:
    print(type(e).__name__, e)
