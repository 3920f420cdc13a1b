# DataLoader construction as users inspect/misconfigure it: attributes, iterator behaviour,
# exhausted iterators, and option validation at num_workers=0.
import torch
from torch.utils.data import DataLoader, Dataset, SequentialSampler, TensorDataset

ds = TensorDataset(torch.arange(7).float(), torch.arange(7) * 10)
loader = DataLoader(ds, batch_size=3)
print(loader.batch_size, loader.drop_last, loader.num_workers, loader.pin_memory)
print(type(loader.sampler).__name__, type(loader.batch_sampler).__name__)
print(loader.collate_fn.__name__, loader.dataset is ds, loader.timeout)
print(len(loader), len(DataLoader(ds, batch_size=3, drop_last=True)))
it = iter(loader)
print(type(it).__name__, len(it))
print(next(it)[0], next(it)[1], next(it))
try:
    next(it)
except StopIteration:
    print("StopIteration")

shuffled = DataLoader(ds, batch_size=3, shuffle=True)
print(type(shuffled.sampler).__name__)
print(sorted(torch.cat([x for x, _ in shuffled]).tolist()))

nb = DataLoader(ds, batch_size=None)
print(nb.batch_size, nb.batch_sampler, len(nb))
print(next(iter(nb)))

for kwargs in [dict(num_workers=-1), dict(timeout=-1), dict(prefetch_factor=2),
               dict(persistent_workers=True), dict(batch_size=0), dict(batch_size=None, drop_last=True)]:
    try:
        DataLoader(ds, **kwargs)
        print(kwargs, "ok")
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)

try:
    TensorDataset(torch.zeros(3), torch.zeros(4))
except AssertionError as e:
    print("AssertionError", e)


class ListDS(Dataset):
    def __init__(self):
        self.rows = [(i, float(i) / 2, [i, -i]) for i in range(5)]

    def __getitem__(self, i):
        return self.rows[i]

    def __len__(self):
        return len(self.rows)


for a, b, c in DataLoader(ListDS(), batch_size=2):
    print(a, b, c)

plain = DataLoader([1.5, 2.5, 3.5], batch_size=2)
print([b for b in plain])
print(list(DataLoader(["a", "b", "c"], batch_size=2)))
print(list(DataLoader(range(5), sampler=[4, 0, 2], batch_size=2)))
print(list(DataLoader(range(6), sampler=SequentialSampler(range(6)), batch_size=4, drop_last=True)))

try:
    loader.batch_size = 2
except ValueError as e:
    print("ValueError", e)
