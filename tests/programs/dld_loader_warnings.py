# Warnings a data pipeline emits, captured with warnings.catch_warnings(record=True) as users do
# in tests: pin_memory without accelerator, IterableDataset __len__ too small, random_split
# producing an empty split, Sampler given a data_source.
import warnings
import torch
from torch.utils.data import DataLoader, IterableDataset, Sampler, TensorDataset, random_split


def show(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    for w in caught:
        print(w.category.__name__, "|", str(w.message))
    return result


ds = TensorDataset(torch.arange(4.))
show(lambda: [b[0].tolist() for b in DataLoader(ds, batch_size=2, pin_memory=True)])


class Lying(IterableDataset):
    def __iter__(self):
        return iter(range(5))

    def __len__(self):
        return 3


loader = DataLoader(Lying(), batch_size=None)
print(len(loader))
print(show(lambda: [int(x) for x in loader]))
bl = DataLoader(Lying(), batch_size=2)
print(len(bl))
print(show(lambda: [x.tolist() for x in bl]))

parts = show(lambda: random_split(range(3), [0.9, 0.05, 0.05]))
print([len(p) for p in parts])


class MySampler(Sampler):
    def __init__(self, data_source):
        try:
            super().__init__(data_source)
        except TypeError as e:
            print("TypeError", e)
        self.n = len(data_source)

    def __iter__(self):
        return iter(reversed(range(self.n)))

    def __len__(self):
        return self.n


s = show(lambda: MySampler(ds))
print(list(DataLoader(ds, sampler=s, batch_size=3)))
show(lambda: DataLoader(ds, batch_size=2, shuffle=False, drop_last=False, pin_memory_device="cuda"))
