# Dataset splitting and samplers with an explicit generator, printing only what does not
# depend on the random stream: lengths, types, index coverage and reproducibility.
import torch
from torch.utils.data import (BatchSampler, DataLoader, RandomSampler, SequentialSampler,
                              Subset, SubsetRandomSampler, TensorDataset, WeightedRandomSampler,
                              random_split, ConcatDataset)

ds = TensorDataset(torch.arange(10.).view(10, 1), torch.arange(10) % 3)
g = torch.Generator().manual_seed(42)
train, val = random_split(ds, [8, 2], generator=g)
print(len(train), len(val), type(train).__name__, type(train.dataset).__name__)
print(sorted(train.indices + val.indices) == list(range(10)), type(train.indices).__name__)
a, b, c = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(0))
print(len(a), len(b), len(c))
parts = random_split(range(7), [0.5, 0.5], generator=torch.Generator().manual_seed(0))
print([len(p) for p in parts])
s1 = random_split(range(10), [5, 5], generator=torch.Generator().manual_seed(7))[0].indices
s2 = random_split(range(10), [5, 5], generator=torch.Generator().manual_seed(7))[0].indices
print(s1 == s2)
try:
    random_split(ds, [5, 6])
except ValueError as e:
    print(type(e).__name__, e)
try:
    random_split(ds, [0.5, 0.6])
except ValueError as e:
    print(type(e).__name__, e)

sub = Subset(ds, [1, 3, 5])
print(len(sub), sub[1], sub[-1][0])
print(list(SequentialSampler(sub)), len(RandomSampler(ds)))
rs = RandomSampler(ds, generator=torch.Generator().manual_seed(1))
print(sorted(iter(rs)) == list(range(10)), type(next(iter(rs))).__name__)
rs2 = RandomSampler(ds, replacement=True, num_samples=25)
print(len(list(rs2)), len(rs2), rs2.num_samples)
try:
    RandomSampler(ds, num_samples=0)
except ValueError as e:
    print(type(e).__name__, e)
bs = BatchSampler(SequentialSampler(range(10)), batch_size=4, drop_last=False)
print(list(bs), len(bs), len(BatchSampler(range(10), 4, True)))
srs = SubsetRandomSampler([2, 4, 6], generator=torch.Generator().manual_seed(3))
print(sorted(srs), len(srs))
w = WeightedRandomSampler([0.0, 0.0, 1.0, 0.0], num_samples=5, replacement=True)
print(list(w), len(w))
try:
    WeightedRandomSampler([1.0, 2.0], num_samples=3, replacement=False)
except RuntimeError as e:
    print(type(e).__name__, e)

loader = DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
shapes = [(xb.shape, yb.shape) for xb, yb in loader]
print(shapes, len(loader))
seen = torch.cat([xb.view(-1) for xb, _ in loader])
print(seen.sort().values.long().tolist())
dl = DataLoader(train, batch_size=3, drop_last=True)
print(len(dl), [len(yb) for _, yb in dl])
cat = ConcatDataset([ds, sub])
print(len(cat), cat.cumulative_sizes, cat[11][0])
dl2 = DataLoader(range(5), batch_size=2, sampler=SequentialSampler(range(5)))
print([b.tolist() for b in dl2], next(iter(dl2)).dtype)
try:
    DataLoader(ds, shuffle=True, sampler=SequentialSampler(ds))
except ValueError as e:
    print(type(e).__name__, e)

# saving and restoring the generator state for resumable shuffling
g = torch.Generator().manual_seed(5)
print(g.initial_seed(), type(g.get_state()).__name__, g.get_state().dtype, g.get_state().dim())
state = g.get_state()
first = list(RandomSampler(range(6), generator=g))
g.set_state(state)
print(first == list(RandomSampler(range(6), generator=g)), sorted(first))
