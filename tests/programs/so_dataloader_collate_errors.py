# StackOverflow: DataLoader errors — variable-length samples in default_collate, numpy/str/None
# samples, len() of an iterable, and the custom collate_fn / padding fixes people apply.
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__ + ":", str(e).splitlines()[0])


class Ragged(Dataset):
    def __init__(self):
        self.seqs = [torch.arange(n, dtype=torch.float32) for n in (3, 1, 2, 3)]

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        return self.seqs[i], i % 2


attempt("ragged default collate", lambda: next(iter(DataLoader(Ragged(), batch_size=2))))


def pad_collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1.0)
    return padded, lengths, torch.tensor(labels)


for batch in DataLoader(Ragged(), batch_size=2, collate_fn=pad_collate):
    print(batch)
print(next(iter(DataLoader(Ragged(), batch_size=3, collate_fn=lambda b: b)))[1])


class Mixed(Dataset):
    def __init__(self, kind):
        self.kind = kind

    def __len__(self):
        return 4

    def __getitem__(self, i):
        if self.kind == "numpy":
            return np.array([i, i + 0.5]), np.int64(i)
        if self.kind == "dict":
            return {"x": torch.tensor([float(i)]), "name": f"item{i}", "n": i}
        if self.kind == "none":
            return torch.tensor([float(i)]), None
        if self.kind == "object":
            return object()
        return torch.tensor([float(i)])


attempt("numpy samples", lambda: next(iter(DataLoader(Mixed("numpy"), batch_size=2))))
attempt("dict samples", lambda: next(iter(DataLoader(Mixed("dict"), batch_size=2))))
attempt("None in sample", lambda: next(iter(DataLoader(Mixed("none"), batch_size=2))))
attempt("object sample", lambda: next(iter(DataLoader(Mixed("object"), batch_size=2))))
attempt("drop_last len", lambda: len(DataLoader(Mixed("plain"), batch_size=3, drop_last=True)))
attempt("len", lambda: len(DataLoader(Mixed("plain"), batch_size=3)))
attempt("batch_size 0", lambda: DataLoader(Mixed("plain"), batch_size=0))
attempt("shuffle + sampler", lambda: DataLoader(Mixed("plain"), shuffle=True, sampler=[0, 1]))
attempt("batch_size None", lambda: [b for b in DataLoader(Mixed("plain"), batch_size=None)][:2])

# TensorDataset pitfalls
attempt("size mismatch", lambda: TensorDataset(torch.ones(4, 2), torch.ones(3)))
attempt("list not tensor", lambda: TensorDataset([1, 2, 3]))
ds = TensorDataset(torch.arange(10.).view(5, 2), torch.tensor([0, 1, 0, 1, 1]))
attempt("index", lambda: ds[1])
attempt("index out", lambda: ds[5])
attempt("slice", lambda: ds[1:3])
attempt("len", lambda: len(ds))
for xb, yb in DataLoader(ds, batch_size=2):
    print(xb.shape, yb.tolist())
attempt("random_split lengths", lambda: torch.utils.data.random_split(ds, [3, 3]))
attempt("Subset", lambda: torch.utils.data.Subset(ds, [4, 0])[0])


class NoLen(Dataset):
    def __getitem__(self, i):
        return i


attempt("no __len__", lambda: len(DataLoader(NoLen(), batch_size=2)))
