# What default_collate builds from the sample types people return in __getitem__: python
# floats/ints/bools, numpy arrays and scalars, dicts, namedtuples, nested lists, strings;
# batch_size=None, drop_last lengths, IterableDataset, and a custom collate_fn.
import collections

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, TensorDataset
from torch.utils.data.dataloader import default_collate

Point = collections.namedtuple("Point", ["x", "label"])


class Mixed(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {
            "f": float(i) / 2,
            "i": i,
            "b": i % 2 == 0,
            "np": np.arange(3, dtype=np.float32) + i,
            "npi": np.int64(i * 10),
            "name": f"s{i}",
            "pair": [i, i + 1],
            "pt": Point(torch.tensor([i, -i]), i),
        }


loader = DataLoader(Mixed(), batch_size=2)
print(len(loader))
for batch in loader:
    for k, v in batch.items():
        if torch.is_tensor(v):
            print(k, v.dtype, tuple(v.shape), v.tolist())
        else:
            print(k, type(v).__name__, v)
    print("---")

print(default_collate([(1.0, 2), (3.0, 4)]))
print(default_collate([np.float64(1.5), np.float64(2.5)]))
print(default_collate([torch.tensor(1), torch.tensor(2)]))
print(default_collate([[1, 2, 3], [4, 5, 6]]))
print(default_collate([np.array([1, 2]), np.array([3, 4])]).dtype)

ds = TensorDataset(torch.arange(10).view(5, 2), torch.arange(5.0))
print(ds[1], len(ds), ds.tensors[1].dtype)
for x, y in DataLoader(ds, batch_size=None):
    print(x, y)
    break
for bs in (1, 2, 3, 5, 6):
    print(bs, len(DataLoader(ds, batch_size=bs)), len(DataLoader(ds, batch_size=bs, drop_last=True)))
print([b[1].tolist() for b in DataLoader(ds, batch_size=2, drop_last=True)])


class Counter(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield torch.tensor([i, i * i]), float(i)


for xb, yb in DataLoader(Counter(5), batch_size=2):
    print(xb.tolist(), yb)
try:
    len(DataLoader(Counter(5), batch_size=2))
except TypeError as e:
    print(type(e).__name__, e)
try:
    DataLoader(Counter(5), batch_size=2, shuffle=True)
except ValueError as e:
    print(type(e).__name__, e)


def collate_sum(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs).sum(0), torch.tensor(ys)


print(list(DataLoader(ds, batch_size=2, collate_fn=collate_sum)))
try:
    DataLoader(ds, batch_size=0)
except ValueError as e:
    print(type(e).__name__, e)
try:
    DataLoader(ds, batch_size=None, drop_last=True)
except ValueError as e:
    print(type(e).__name__, e)
try:
    TensorDataset(torch.zeros(3), torch.zeros(4))
except AssertionError as e:
    print(type(e).__name__, e)
