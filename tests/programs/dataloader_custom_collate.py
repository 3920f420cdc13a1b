# DataLoader over a custom Dataset: collate_fn, drop_last, len, iterating twice, Subset, ConcatDataset.
import torch
from torch.utils.data import ConcatDataset, DataLoader, Dataset, Subset, TensorDataset


class Sequences(Dataset):
    """Item i is a 1-D tensor of length i % 4 + 1 and a label."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.arange(i % 4 + 1, dtype=torch.float32) + i, i % 2


def pad_collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = torch.zeros(len(seqs), int(lengths.max()))
    for j, s in enumerate(seqs):
        padded[j, :len(s)] = s
    return padded, lengths, torch.tensor(labels)


ds = Sequences(10)
print(len(ds), ds[5])
loader = DataLoader(ds, batch_size=3, collate_fn=pad_collate)
print(len(loader))
for epoch in range(2):
    for padded, lengths, labels in loader:
        print(epoch, tuple(padded.shape), lengths.tolist(), labels.tolist())
print(padded)

loader = DataLoader(ds, batch_size=3, drop_last=True, collate_fn=pad_collate)
print(len(loader), [p.shape[0] for p, _, _ in loader])

# default collate on tuples of (tensor, int)
fixed = DataLoader(Subset(ds, [0, 4, 8]), batch_size=2)
for xb, yb in fixed:
    print(xb, yb, yb.dtype)

sub = Subset(ds, [9, 1, 3])
print(len(sub), sub[0], sub.indices)

a = TensorDataset(torch.arange(4.0).view(2, 2), torch.tensor([0, 1]))
b = TensorDataset(torch.arange(4.0, 10.0).view(3, 2), torch.tensor([2, 3, 4]))
cat = ConcatDataset([a, b])
print(len(cat), cat[1], cat[2], cat[-1])
loader = DataLoader(cat, batch_size=2)
print(len(loader))
for xb, yb in loader:
    print(xb.tolist(), yb.tolist())
print(sum(len(yb) for _, yb in DataLoader(cat, batch_size=4, drop_last=False)))

dict_loader = DataLoader(cat, batch_size=5, collate_fn=lambda items: {"n": len(items), "y": [int(t) for _, t in items]})
print(list(dict_loader))
print(cat.cumulative_sizes)
