# Combining datasets: StackDataset (tuple and dict forms), ConcatDataset indexing and
# cumulative sizes, ChainDataset over IterableDatasets, Subset of a concat.
import torch
from torch.utils.data import (ChainDataset, ConcatDataset, DataLoader, IterableDataset,
                              StackDataset, Subset, TensorDataset)

images = TensorDataset(torch.arange(12.).reshape(6, 2))
labels = TensorDataset(torch.arange(6))

stacked = StackDataset(images, labels)
print(len(stacked), stacked[2])
named = StackDataset(img=images, lbl=labels)
print(len(named), named[5])
loader = DataLoader(named, batch_size=4)
for b in loader:
    print(sorted(b.keys()), b["img"][0].shape, b["lbl"][0])

try:
    StackDataset(images, TensorDataset(torch.arange(5)))
except ValueError as e:
    print("ValueError", e)
try:
    StackDataset(images, lbl=labels)
except ValueError as e:
    print("ValueError", e)
try:
    StackDataset()
except ValueError as e:
    print("ValueError", e)

a = TensorDataset(torch.arange(3))
b = TensorDataset(torch.arange(10, 15))
c = TensorDataset(torch.arange(100, 102))
cat = ConcatDataset([a, b, c])
print(len(cat), cat.cumulative_sizes)
print([cat[i][0].item() for i in range(len(cat))])
print(cat[-1], cat[-10])
try:
    cat[-11]
except ValueError as e:
    print("ValueError", e)
try:
    ConcatDataset([])
except AssertionError as e:
    print("AssertionError", e)
sub = Subset(cat, [0, 4, 9])
print(len(sub), [sub[i][0].item() for i in range(len(sub))], sub.indices)
print([x[0].tolist() for x in DataLoader(sub, batch_size=2)])
both = a + b
print(type(both).__name__, len(both))


class Count(IterableDataset):
    def __init__(self, start, stop):
        self.start, self.stop = start, stop

    def __iter__(self):
        return iter(range(self.start, self.stop))


chain = ChainDataset([Count(0, 3), Count(10, 12)])
print(list(chain))
print([b.tolist() for b in DataLoader(chain, batch_size=2)])
try:
    print(len(chain))
except TypeError as e:
    print("TypeError", e)
joined = Count(0, 2) + Count(5, 7)
print(type(joined).__name__, list(joined))
try:
    ConcatDataset([Count(0, 2)])
except AssertionError as e:
    print("AssertionError", e)
