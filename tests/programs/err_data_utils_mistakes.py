# Forum question: torch.utils.data mistakes — random_split lengths that don't add up, Subset
# indices out of range, samplers with bad arguments, IterableDataset with shuffle/len, and fixes.
import torch
from torch.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, IterableDataset,
                              RandomSampler, SequentialSampler, Subset, TensorDataset,
                              WeightedRandomSampler, random_split)


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


ds = TensorDataset(torch.arange(20.).view(10, 2), torch.arange(10))
attempt("random_split wrong total", lambda: random_split(ds, [6, 3]))
attempt("random_split too many", lambda: random_split(ds, [6, 6]))
attempt("random_split fractions", lambda: [len(s) for s in random_split(ds, [0.7, 0.3])])
attempt("random_split fractions uneven", lambda: [len(s) for s in random_split(ds, [0.33, 0.33, 0.34])])
attempt("random_split bad fractions", lambda: random_split(ds, [0.5, 0.6]))
attempt("random_split negative", lambda: [len(s) for s in random_split(ds, [11, -1])])
attempt("random_split generator", lambda: [len(s) for s in random_split(ds, [5, 5], generator=torch.Generator().manual_seed(0))])

sub = Subset(ds, [0, 2, 12])
attempt("Subset len", lambda: len(sub))
attempt("Subset ok item", lambda: sub[1])
attempt("Subset oob item", lambda: sub[2])
attempt("Subset negative", lambda: sub[-1])
attempt("Subset list index", lambda: sub[[0, 1]])
cat = ConcatDataset([ds, Subset(ds, [1, 3])])
attempt("Concat len", lambda: len(cat))
attempt("Concat last", lambda: cat[11])
attempt("Concat oob", lambda: cat[12])
attempt("Concat negative oob", lambda: cat[-13])
attempt("Concat empty", lambda: ConcatDataset([]))
attempt("ds + ds", lambda: len(ds + ds))

attempt("RandomSampler num_samples 0", lambda: RandomSampler(ds, num_samples=0))
attempt("RandomSampler replacement str", lambda: RandomSampler(ds, replacement="yes"))
attempt("RandomSampler len", lambda: len(RandomSampler(ds, replacement=True, num_samples=25)))
attempt("BatchSampler bad size", lambda: BatchSampler(SequentialSampler(ds), 0, False))
attempt("BatchSampler drop_last str", lambda: BatchSampler(SequentialSampler(ds), 3, "no"))
attempt("BatchSampler list", lambda: list(BatchSampler(SequentialSampler(range(7)), 3, False)))
attempt("BatchSampler len drop", lambda: len(BatchSampler(range(7), 3, True)))
attempt("Weighted negative", lambda: type(WeightedRandomSampler([0.5, -1.0], 2)).__name__)
attempt("Weighted bad num", lambda: WeightedRandomSampler([0.5, 1.0], 0))
attempt("Weighted 2-D", lambda: WeightedRandomSampler([[0.5, 1.0]], 2))
attempt("Weighted len", lambda: len(WeightedRandomSampler(torch.ones(4), 7)))
attempt("Weighted no replacement too many", lambda: list(WeightedRandomSampler([1.0, 1.0], 3, replacement=False)))


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(torch.arange(self.n).tolist())


attempt("iterable shuffle", lambda: DataLoader(Stream(5), shuffle=True))
attempt("iterable sampler", lambda: DataLoader(Stream(5), sampler=[0, 1]))
attempt("iterable batch_sampler", lambda: DataLoader(Stream(5), batch_sampler=[[0, 1]]))
attempt("iterable len", lambda: len(DataLoader(Stream(5), batch_size=2)))
attempt("iterable batches", lambda: [b.tolist() for b in DataLoader(Stream(5), batch_size=2)])
attempt("iterable index", lambda: Stream(5)[0])


class NoLen(Dataset):
    def __getitem__(self, i):
        return i


attempt("no __len__ loader", lambda: type(DataLoader(NoLen(), batch_size=2)).__name__)
attempt("no __len__ iterate", lambda: next(iter(DataLoader(NoLen(), batch_size=2))))
attempt("abstract getitem", lambda: Dataset()[0])
attempt("num_workers negative", lambda: DataLoader(ds, num_workers=-1))
attempt("prefetch without workers", lambda: DataLoader(ds, prefetch_factor=2))
attempt("persistent without workers", lambda: DataLoader(ds, persistent_workers=True))
attempt("timeout negative", lambda: DataLoader(ds, timeout=-1))
attempt("batch_size None", lambda: [x for x in DataLoader(ds, batch_size=None)][0])
attempt("batch_size None drop_last", lambda: DataLoader(ds, batch_size=None, drop_last=True))
attempt("collate_fn not callable", lambda: next(iter(DataLoader(ds, batch_size=2, collate_fn=3))))
attempt("sampler len wrong", lambda: [b[1].tolist() for b in DataLoader(ds, batch_size=4, sampler=[9, 0, 3, 3, 1])])
attempt("sampler oob index", lambda: next(iter(DataLoader(ds, batch_size=2, sampler=[10, 0]))))
loader = DataLoader(ds, batch_size=3)
attempt("change batch_size after init", lambda: setattr(loader, "batch_size", 4))
attempt("dataset attr after init", lambda: setattr(loader, "dataset", ds))
