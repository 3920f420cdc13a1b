# Data pipeline of a sequence-classification script: custom Dataset returning dicts, bucketing
# batch sampler, padding collate_fn with pad_sequence, BatchSampler/SequentialSampler, Subset,
# ConcatDataset, default_collate on namedtuples and batch_size=None.
import collections

import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, Sampler,
                              SequentialSampler, Subset, TensorDataset, default_collate)


class Seqs(Dataset):
    def __init__(self, n):
        self.items = [torch.arange(1, 2 + (i * 3) % 5) * (i + 1) for i in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return {"ids": self.items[i], "label": i % 2, "len": len(self.items[i])}


def pad_collate(batch):
    ids = pad_sequence([b["ids"] for b in batch], batch_first=True, padding_value=0)
    return {"ids": ids, "mask": ids != 0, "label": torch.tensor([b["label"] for b in batch]),
            "len": torch.tensor([b["len"] for b in batch])}


class BucketSampler(Sampler):
    def __init__(self, data, batch_size):
        self.order = sorted(range(len(data)), key=lambda i: (len(data.items[i]), i))
        self.batch_size = batch_size

    def __iter__(self):
        for i in range(0, len(self.order), self.batch_size):
            yield self.order[i:i + self.batch_size]

    def __len__(self):
        return (len(self.order) + self.batch_size - 1) // self.batch_size


ds = Seqs(10)
loader = DataLoader(ds, batch_sampler=BucketSampler(ds, 4), collate_fn=pad_collate)
print(len(loader))
for batch in loader:
    print(batch["ids"].tolist(), batch["mask"].sum(1).tolist(), batch["label"].tolist(), batch["ids"].dtype)

plain = DataLoader(ds, batch_size=3, collate_fn=pad_collate, drop_last=True)
print(len(plain), [b["ids"].shape for b in plain])
try:
    next(iter(DataLoader(ds, batch_size=3)))
except RuntimeError as e:
    print("RuntimeError", e)

print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(7), batch_size=3, drop_last=True)), len(BatchSampler(range(7), 3, True)))

Point = collections.namedtuple("Point", ["x", "y"])
batch = default_collate([Point(torch.tensor([1.0, 2.0]), 1), Point(torch.tensor([3.0, 4.0]), 2)])
print(type(batch).__name__, batch.x, batch.y)
print(default_collate([(1.5, "a", True), (2.5, "b", False)]))
print(default_collate([{"a": [1, 2]}, {"a": [3, 4]}]))

tds = TensorDataset(torch.arange(12).view(6, 2), torch.arange(6) * 10)
sub = Subset(tds, [5, 0, 3])
both = ConcatDataset([tds, sub])
print(len(both), both[7], both.cumulative_sizes)
for xb, yb in DataLoader(both, batch_size=4, shuffle=False):
    print(xb.tolist(), yb.tolist())
print([s for s in DataLoader(sub, batch_size=None)])
print(next(iter(DataLoader(tds, batch_size=2, sampler=[4, 1, 2], drop_last=False))))
try:
    DataLoader(tds, batch_size=2, shuffle=True, sampler=SequentialSampler(tds))
except ValueError as e:
    print("ValueError", e)
try:
    DataLoader(tds, batch_sampler=BatchSampler(range(6), 2, False), batch_size=3)
except ValueError as e:
    print("ValueError", e)
try:
    tds[7]
except IndexError as e:
    print("IndexError", e)
