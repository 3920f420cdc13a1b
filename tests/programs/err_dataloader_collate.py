# Forum question: "stack expects each tensor to be equal size, but got [3] at entry 0 and [5] at
# entry 1" from a DataLoader over variable-length samples; collate mistakes and the pad_sequence fix.
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset, TensorDataset, default_collate


def attempt(label, fn):
    try:
        out = fn()
        print(label, "->", out)
    except Exception as e:  # noqa: BLE001
        print(label, "->", type(e).__name__, e)


class Sentences(Dataset):
    def __init__(self):
        self.data = [torch.arange(1, n + 1) for n in (3, 5, 2, 4, 1, 6)]
        self.labels = [0, 1, 0, 1, 1, 0]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i], self.labels[i]


ds = Sentences()
attempt("default collate ragged", lambda: next(iter(DataLoader(ds, batch_size=2))))
attempt("batch_size=1 fine", lambda: next(iter(DataLoader(ds, batch_size=1))))


def pad_collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True), torch.tensor(labels), lengths


for xb, yb, lens in DataLoader(ds, batch_size=4, collate_fn=pad_collate):
    print(xb, yb, lens)


class Images(Dataset):
    def __init__(self):
        self.sizes = [(3, 4, 4), (3, 4, 5), (1, 4, 4)]

    def __len__(self):
        return 3

    def __getitem__(self, i):
        return torch.zeros(self.sizes[i])


attempt("images diff size", lambda: next(iter(DataLoader(Images(), batch_size=2))))
attempt("images diff channels", lambda: default_collate([torch.zeros(3, 4, 4), torch.zeros(1, 4, 4)]))


class ReturnsNone(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        return None


attempt("dataset returns None", lambda: next(iter(DataLoader(ReturnsNone(), batch_size=2))))
attempt("collate strings", lambda: default_collate(["a", "b"]))
attempt("collate dicts", lambda: default_collate([{"x": torch.ones(2), "y": 1}, {"x": torch.zeros(2), "y": 0}]))
attempt("collate dicts missing key", lambda: default_collate([{"x": 1}, {"y": 2}]))
attempt("collate tuple lengths", lambda: default_collate([(1, 2), (3,)]))
attempt("collate floats", lambda: default_collate([1.5, 2.5]))
attempt("collate mixed int/tensor", lambda: default_collate([torch.tensor(1), 2]))
attempt("collate numpy", lambda: default_collate([__import__("numpy").ones(2), __import__("numpy").zeros(2)]))
attempt("collate object", lambda: default_collate([object(), object()]))
attempt("collate lists ragged", lambda: default_collate([[1, 2], [3]]))
attempt("collate lists", lambda: default_collate([[1, 2], [3, 4]]))

# TensorDataset with mismatched first dims
attempt("TensorDataset mismatch", lambda: TensorDataset(torch.zeros(4, 2), torch.zeros(3)))
td = TensorDataset(torch.arange(10.).view(5, 2), torch.arange(5))
attempt("len", lambda: len(td))
attempt("index past end", lambda: td[5])
attempt("batch_size 0", lambda: DataLoader(td, batch_size=0))
attempt("shuffle with sampler", lambda: DataLoader(td, shuffle=True, sampler=[0, 1]))
attempt("batch_sampler + batch_size", lambda: DataLoader(td, batch_size=2, batch_sampler=[[0, 1]]))
attempt("len loader drop_last", lambda: len(DataLoader(td, batch_size=2, drop_last=True)))
attempt("len loader", lambda: len(DataLoader(td, batch_size=2)))
attempt("loader not iterator", lambda: next(DataLoader(td, batch_size=2)))
attempt("loader index", lambda: DataLoader(td, batch_size=2)[0])
for xb, yb in DataLoader(td, batch_size=2):
    print(xb.shape, yb)
