# DataLoader options people copy from tutorials and the errors they hit on a CPU-only,
# num_workers=0 setup: prefetch_factor, persistent_workers, timeout, pin_memory, worker info,
# random_split with fractions, sampler lengths, and collate of numpy string arrays.
import numpy as np
import torch
from torch.utils.data import (BatchSampler, DataLoader, RandomSampler, SequentialSampler,
                              SubsetRandomSampler, TensorDataset, get_worker_info, random_split)

ds = TensorDataset(torch.arange(20.0).view(10, 2), torch.arange(10))


def attempt(label, make):
    try:
        out = make()
        print(label, "->", "ok" if isinstance(out, DataLoader) else out)
    except (ValueError, TypeError, RuntimeError) as e:
        print(label, "->", type(e).__name__, e)


attempt("pin_memory", lambda: DataLoader(ds, batch_size=4, pin_memory=False))
attempt("workers=0", lambda: DataLoader(ds, batch_size=4, num_workers=0))
attempt("workers<0", lambda: DataLoader(ds, batch_size=4, num_workers=-1))
attempt("timeout<0", lambda: DataLoader(ds, batch_size=4, timeout=-1))
attempt("persistent", lambda: DataLoader(ds, batch_size=4, persistent_workers=True))
attempt("prefetch", lambda: DataLoader(ds, batch_size=4, prefetch_factor=2))
attempt("prefetch None", lambda: DataLoader(ds, batch_size=4, prefetch_factor=None))
attempt("batch 2.5", lambda: DataLoader(ds, batch_size=2.5))
attempt("batch -1", lambda: DataLoader(ds, batch_size=-1))
attempt("BatchSampler bad", lambda: BatchSampler(SequentialSampler(ds), batch_size=3, drop_last="no"))

print(get_worker_info())
lens = [len(s) for s in random_split(ds, [0.5, 0.3, 0.2])]
print(lens, sum(lens))
lens = [len(s) for s in random_split(range(7), [0.5, 0.5])]
print(lens)
attempt("split bad", lambda: random_split(ds, [4, 4]))
attempt("split frac bad", lambda: random_split(ds, [0.5, 0.6]))
train, val = random_split(ds, [8, 2], generator=torch.Generator().manual_seed(0))
print(type(train).__name__, len(train), len(val), len(DataLoader(train, batch_size=3)))
print(sorted(train.indices + val.indices) == list(range(10)))

print(len(RandomSampler(ds)), len(RandomSampler(ds, replacement=True, num_samples=25)))
print(len(DataLoader(ds, sampler=RandomSampler(ds, replacement=True, num_samples=25), batch_size=4)))
attempt("RandomSampler bad", lambda: RandomSampler(ds, num_samples=0))
sub = SubsetRandomSampler([1, 3, 5])
print(len(sub), sorted(sub), len(DataLoader(ds, sampler=sub, batch_size=2)))
print(list(BatchSampler(range(5), batch_size=2, drop_last=True)), len(BatchSampler(range(5), 2, False)))

names = [np.array(["cat"]), np.array(["dog"])]
attempt("np str", lambda: next(iter(DataLoader(names, batch_size=2))))
attempt("np obj", lambda: next(iter(DataLoader([np.array([1, None]), np.array([2, 3])], batch_size=2))))
attempt("np bool", lambda: next(iter(DataLoader([np.array([True]), np.array([False])], batch_size=2))))
attempt("np u8", lambda: next(iter(DataLoader([np.array([1], dtype=np.uint8)] * 2, batch_size=2))))
attempt("np f16->f64", lambda: next(iter(DataLoader([np.float64(1.0), np.float64(2.0)], batch_size=2))))
attempt("np i32", lambda: next(iter(DataLoader([np.int32(1), np.int32(2)], batch_size=2))))
attempt("np f32 scalar", lambda: next(iter(DataLoader([np.float32(0.5), np.float32(1.5)], batch_size=2))))
