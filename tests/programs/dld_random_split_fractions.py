# Train/val/test splitting with random_split using fractional lengths (only lengths printed,
# since the permutation depends on the RNG), plus Subset bookkeeping and error messages.
import torch
from torch.utils.data import DataLoader, Subset, TensorDataset, random_split

ds = TensorDataset(torch.arange(10).float().unsqueeze(1), torch.arange(10))
g = torch.Generator().manual_seed(42)
train, val = random_split(ds, [0.8, 0.2], generator=g)
print(type(train).__name__, len(train), len(val))
print(sorted(train.indices + val.indices) == list(range(10)))
print(type(train.indices).__name__)

for fr in ([0.33, 0.33, 0.34], [0.5, 0.5], [0.7, 0.2, 0.1], [0.25, 0.25, 0.25, 0.25], [1.0, 0.0]):
    parts = random_split(ds, fr, generator=torch.Generator().manual_seed(0))
    print(fr, [len(p) for p in parts])

odd = TensorDataset(torch.arange(7))
print([len(p) for p in random_split(odd, [0.3, 0.3, 0.4])])
print([len(p) for p in random_split(odd, [2, 5])])
print([len(p) for p in random_split(range(11), [0.1] * 10)])

for bad in ([0.5, 0.6], [3, 3], [-0.5, 1.5], [0.5, 0.5, 0.1]):
    try:
        random_split(ds, bad)
        print(bad, "ok")
    except ValueError as e:
        print("ValueError", e)

loader = DataLoader(train, batch_size=3, drop_last=False)
print(len(loader), [tuple(b[0].shape) for b in loader])
sub = Subset(ds, [9, 0, 5])
x, y = sub[0]
print(x, y, len(sub))
print(sub[[0, 2]] if hasattr(sub, "__getitems__") else None)
print(sub.__getitems__([1, 2]))
