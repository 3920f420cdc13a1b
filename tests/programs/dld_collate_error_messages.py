# Full error messages of default_collate on malformed batches (mixed element types, dicts with
# different keys, tuples of different lengths, sets, tensors of different shapes).
import collections
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, default_collate

Sample = collections.namedtuple("Sample", "x y")
cases = {
    "mixed int/str": [1, "a"],
    "mixed tensor/int": [torch.tensor(1), 2],
    "missing dict key": [{"a": 1, "b": 2}, {"a": 3}],
    "tuple lengths": [(1, 2), (3, 4, 5)],
    "sets": [{1, 2}, {3, 4}],
    "shapes": [torch.zeros(2, 3), torch.zeros(3, 2)],
    "np shapes": [np.zeros((2,)), np.zeros((3,))],
    "namedtuple": [Sample(1, 2.0), Sample(3, 4.0)],
    "empty": [],
    "float and int": [1.0, 2],
    "int and float": [1, 2.5],
    "none in dict": [{"a": None}, {"a": None}],
    "nested ragged": [{"a": [1, 2]}, {"a": [1]}],
}
for name, batch in cases.items():
    try:
        out = default_collate(batch)
        print(name, "->", out)
    except Exception as e:
        print(name, "->", type(e).__name__ + ":", e)


class Bad(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.zeros(i + 1)


try:
    for b in DataLoader(Bad(), batch_size=2):
        print(b)
except RuntimeError as e:
    print("RuntimeError:", e)
