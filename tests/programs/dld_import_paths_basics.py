# Import paths seen in the wild for data utilities, base-class defaults, ConcatDataset's old
# property name, Subset/StackDataset batched fetching, and looping patterns (zip, enumerate).
import itertools
import warnings
import torch
from torch.utils.data.dataloader import DataLoader, default_collate
from torch.utils.data.dataset import ConcatDataset, Dataset, StackDataset, Subset, TensorDataset
from torch.utils.data.sampler import BatchSampler, SequentialSampler
from torch.utils.data._utils.collate import default_convert
from torch.utils.data import _utils

print(default_collate is torch.utils.data.default_collate, callable(default_convert))
print(_utils.collate.default_collate([1, 2]))

try:
    Dataset()[0]
except NotImplementedError as e:
    print("NotImplementedError", e)
try:
    len(Dataset())
except TypeError as e:
    print("TypeError", e)
try:
    class NoIter(torch.utils.data.IterableDataset):
        pass
    NoIter()
except TypeError as e:
    print("TypeError", e)
try:
    iter(torch.utils.data.Sampler())
except NotImplementedError as e:
    print("NotImplementedError", repr(e))


class Logged(Dataset):
    def __init__(self, n):
        self.n, self.log = n, []

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        self.log.append(i)
        return i * 10

    def __getitems__(self, idxs):
        self.log.append(tuple(idxs))
        return [i * 10 for i in idxs]


base = Logged(6)
sub = Subset(base, [5, 1, 3])
print(sub.__getitems__([0, 2]), base.log)
print([b.tolist() for b in DataLoader(sub, batch_size=2)], base.log)
st = StackDataset(a=Logged(3), b=TensorDataset(torch.arange(3)))
print(st.__getitems__([2, 0]))
print(DataLoader(st, batch_size=3).__iter__().__next__())
tup = StackDataset(Logged(2), Logged(2))
print(tup.__getitems__([1]), tup[0])

cat = ConcatDataset([Logged(2), Logged(3)])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(cat.cummulative_sizes)
print([str(x.message) for x in w], [x.category.__name__ for x in w])

a = DataLoader(TensorDataset(torch.arange(5)), batch_size=2)
b = DataLoader(TensorDataset(torch.arange(10, 16)), batch_size=2)
for step, ((x,), (y,)) in enumerate(zip(a, b), 1):
    print(step, x.tolist(), y.tolist())
print([t[0].tolist() for t in itertools.islice(itertools.cycle(a), 5)])
print(list(BatchSampler(SequentialSampler(range(5)), 2, False)))
explicit = DataLoader([{"k": i} for i in range(3)], batch_size=2, collate_fn=default_collate)
print(list(explicit))
