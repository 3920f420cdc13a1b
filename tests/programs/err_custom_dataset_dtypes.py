# Forum question: a custom Dataset built from numpy/pandas-like rows — batches come out float64
# ("mat1 and mat2 must have the same dtype"), lists get transposed by default_collate, labels
# come out as the wrong dtype for CrossEntropyLoss; the fixes in __getitem__ and collate_fn.
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


features = np.linspace(0.0, 1.0, 24).reshape(8, 3)            # float64, like pandas .values
labels = np.array([0, 1, 2, 1, 0, 2, 1, 0])                   # int64
float_labels = labels.astype(np.float32)


class NumpyRows(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


xb, yb = next(iter(DataLoader(NumpyRows(features, labels), batch_size=4)))
print("numpy rows ->", xb.dtype, xb.shape, yb.dtype, yb)
model = nn.Linear(3, 3)
crit = nn.CrossEntropyLoss()
attempt("float64 batch into Linear", lambda: model(xb))
attempt("fixed .float()", lambda: model(xb.float()).shape)

xb, yb = next(iter(DataLoader(NumpyRows(features.astype(np.float32), float_labels), batch_size=4)))
print("float labels ->", yb.dtype, yb)
attempt("CE with float32 labels", lambda: crit(model(xb), yb))
attempt("CE fixed", lambda: crit(model(xb), yb.long()).dtype)


class ListRows(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return [float(i), float(i) * 2, float(i) * 3], i % 2


xb, yb = next(iter(DataLoader(ListRows(), batch_size=2)))
print("list rows ->", type(xb).__name__, len(xb), xb, yb)
attempt("Linear on list batch", lambda: model(xb))
attempt("stack fix", lambda: torch.stack(xb, dim=1))


class TensorRowsFixed(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.tensor([float(i), float(i) * 2, float(i) * 3]), torch.tensor(i % 2)


xb, yb = next(iter(DataLoader(TensorRowsFixed(), batch_size=2)))
print("tensor rows ->", xb, yb)


class ScalarTypes(Dataset):
    def __len__(self):
        return 3

    def __getitem__(self, i):
        return {"f32": np.float32(i) / 2, "i32": np.int32(i), "b": bool(i % 2), "s": f"id{i}",
                "arr": np.arange(2, dtype=np.int16) + i, "none_ok": (i, i + 1)}


batch = next(iter(DataLoader(ScalarTypes(), batch_size=3)))
for key, value in batch.items():
    if isinstance(value, torch.Tensor):
        print(key, value.dtype, value.tolist())
    else:
        print(key, type(value).__name__, value)


class Mixed(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        return np.ones(2) if i == 0 else torch.ones(2)


attempt("numpy and tensor mixed", lambda: next(iter(DataLoader(Mixed(), batch_size=2))))


class ObjectArray(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        return np.array(["a", "b"])


attempt("string numpy array", lambda: next(iter(DataLoader(ObjectArray(), batch_size=2))))
attempt("int8 sums overflow?", lambda: next(iter(DataLoader([np.int8(100), np.int8(100)], batch_size=2))).sum())
attempt("python ints", lambda: next(iter(DataLoader([1, 2, 3], batch_size=3))).dtype)
attempt("python floats", lambda: next(iter(DataLoader([1.0, 2.5], batch_size=2))).dtype)
attempt("python bools", lambda: next(iter(DataLoader([True, False], batch_size=2))))
attempt("complex", lambda: next(iter(DataLoader([1j, 2j], batch_size=2))))
