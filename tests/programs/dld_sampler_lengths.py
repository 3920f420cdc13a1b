# Samplers as users configure them: lengths of Sequential/SubsetRandom/Batch/Weighted samplers,
# batch_sampler= in DataLoader, and the errors from invalid sampler arguments.
import torch
from torch.utils.data import (BatchSampler, DataLoader, RandomSampler, SequentialSampler,
                              SubsetRandomSampler, TensorDataset, WeightedRandomSampler)

ds = TensorDataset(torch.arange(10).float(), torch.arange(10) % 3)
seq = SequentialSampler(ds)
print(len(seq), list(seq))
bs = BatchSampler(seq, batch_size=4, drop_last=False)
print(len(bs), list(bs))
bs2 = BatchSampler(seq, batch_size=4, drop_last=True)
print(len(bs2), list(bs2))
print(list(BatchSampler(range(5), 2, False)))

sub = SubsetRandomSampler([1, 3, 5, 7])
print(len(sub), sorted(sub))
loader = DataLoader(ds, batch_size=3, sampler=sub)
print(len(loader), sorted(torch.cat([b[0] for b in loader]).tolist()))

weights = torch.tensor([0.1, 0.9, 0.4, 0.0])
w = WeightedRandomSampler(weights, num_samples=7, replacement=True)
print(len(w), len(list(w)), all(i in (0, 1, 2) for i in w))
w2 = WeightedRandomSampler([1.0, 2.0, 3.0], 3, replacement=False)
print(len(w2), sorted(w2))
print(w.num_samples, w.replacement, w.weights.dtype)

for args in [dict(weights=[1.0, 2.0], num_samples=0), dict(weights=[1.0, 2.0], num_samples=-1),
             dict(weights=[1.0, 2.0], num_samples=2.0), dict(weights=[1.0], num_samples=1, replacement=1),
             dict(weights=[[1.0, 2.0]], num_samples=1)]:
    try:
        WeightedRandomSampler(**args)
        print(args, "ok")
    except Exception as e:
        print(type(e).__name__, e)

for args in [dict(batch_size=0, drop_last=False), dict(batch_size=2, drop_last=1),
             dict(batch_size=True, drop_last=False)]:
    try:
        BatchSampler(seq, **args)
        print(args, "ok")
    except ValueError as e:
        print("ValueError", e)

rs = RandomSampler(ds, replacement=True, num_samples=25)
print(len(rs), len(list(rs)))
print(len(RandomSampler(ds)))
for args in [dict(num_samples=0), dict(replacement="yes"), dict(num_samples=5)]:
    try:
        r = RandomSampler(ds, **args)
        print(args, "ok", len(r))
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)

bl = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 3, drop_last=True))
print(len(bl), [b[1].tolist() for b in bl])
for kwargs in [dict(batch_size=2), dict(shuffle=True), dict(drop_last=True), dict(sampler=seq)]:
    try:
        DataLoader(ds, batch_sampler=bs, **kwargs)
        print(kwargs, "ok")
    except ValueError as e:
        print("ValueError", e)
try:
    DataLoader(ds, sampler=seq, shuffle=True)
except ValueError as e:
    print("ValueError", e)
