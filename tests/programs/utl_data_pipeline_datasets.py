# torch.utils.data building blocks as used in data-pipeline code: map-style and IterableDataset,
# ChainDataset / ConcatDataset / StackDataset / Subset, random_split lengths with a seeded generator,
# a custom padding collate_fn, drop_last, a hand-written batch_sampler, and len() errors.
import torch
from torch.utils.data import (BatchSampler, ChainDataset, ConcatDataset, DataLoader, Dataset,
                              IterableDataset, SequentialSampler, StackDataset, Subset, TensorDataset,
                              random_split)


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return torch.tensor([float(i), float(i * i)]), i % 3


class Stream(IterableDataset):
    def __init__(self, start, end):
        super().__init__()
        self.start, self.end = start, end

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        print("worker info:", info)
        for i in range(self.start, self.end):
            yield torch.arange(i % 3 + 1)


def pad_collate(batch):
    lengths = torch.tensor([len(x) for x in batch])
    out = torch.zeros(len(batch), int(lengths.max()), dtype=batch[0].dtype)
    for row, x in enumerate(batch):
        out[row, :len(x)] = x
    return out, lengths


sq = Squares(10)
cat = ConcatDataset([sq, Squares(5)])
print(len(cat), cat.cumulative_sizes, cat[10], cat[-1])
sub = Subset(cat, [0, 11, 14])
print(len(sub), [sub[i][1] for i in range(len(sub))])
try:
    ConcatDataset([])
except AssertionError as e:
    print(type(e).__name__, e)

stack = StackDataset(sq, TensorDataset(torch.arange(10.0) * 10))
print(len(stack), stack[3])
named = StackDataset(x=sq, y=TensorDataset(torch.arange(10) * 2))
print(named[2])
try:
    StackDataset(sq, Squares(4))
except ValueError as e:
    print(type(e).__name__, e)

g = torch.Generator().manual_seed(42)
parts = random_split(range(10), [0.7, 0.2, 0.1], generator=g)
print([len(p) for p in parts], type(parts[0]).__name__)
parts = random_split(sq, [3, 7], generator=torch.Generator().manual_seed(0))
print([len(p) for p in parts], sorted(parts[0].indices + parts[1].indices) == list(range(10)))
try:
    random_split(sq, [3, 3])
except ValueError as e:
    print(type(e).__name__, e)

loader = DataLoader(sq, batch_size=4, drop_last=True)
print(len(loader), [b[0].shape for b in loader], [b[1].tolist() for b in loader])
loader = DataLoader(sq, batch_size=4, drop_last=False)
print(len(loader), [tuple(b[0].shape) for b in loader])

chain = ChainDataset([Stream(0, 3), Stream(3, 5)])
for padded, lengths in DataLoader(chain, batch_size=2, collate_fn=pad_collate):
    print(padded.tolist(), lengths)
try:
    len(chain)
except TypeError as e:
    print(type(e).__name__, e)
it_loader = DataLoader(Stream(0, 4), batch_size=None)
print([t.tolist() for t in it_loader])
try:
    DataLoader(Stream(0, 4), shuffle=True)
except ValueError as e:
    print(type(e).__name__, e)


class EvenOddBatches:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        yield list(range(0, self.n, 2))[:3]
        yield list(range(1, self.n, 2))

    def __len__(self):
        return 2


loader = DataLoader(sq, batch_sampler=EvenOddBatches(10))
for xb, yb in loader:
    print(xb[:, 0].tolist(), yb)
print(len(loader))
bs = BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)
print(list(bs), len(bs))
try:
    DataLoader(sq, batch_sampler=bs, batch_size=2)
except ValueError as e:
    print(type(e).__name__, e)
