# DataLoader with explicit samplers: SequentialSampler, BatchSampler, a custom Sampler, dict batches.
import torch
from torch.utils.data import BatchSampler, DataLoader, Dataset, Sampler, SequentialSampler, TensorDataset


class Reverse(Sampler):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n - 1, -1, -1))

    def __len__(self):
        return self.n


ds = TensorDataset(torch.arange(14.0).view(7, 2), torch.arange(7) * 10)
print(list(SequentialSampler(ds)))
print(list(BatchSampler(SequentialSampler(ds), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(7), batch_size=3, drop_last=True)), len(BatchSampler(range(7), 3, False)))

loader = DataLoader(ds, batch_size=3, sampler=Reverse(7))
print(len(loader))
for xb, yb in loader:
    print(xb.tolist(), yb.tolist())

loader = DataLoader(ds, batch_sampler=BatchSampler(Reverse(7), batch_size=4, drop_last=False))
print(len(loader), [yb.tolist() for _, yb in loader])

loader = DataLoader(ds, batch_size=None)
x0, y0 = next(iter(loader))
print(x0, y0, len(loader))


class Records(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"id": i, "feat": torch.tensor([i, i * 2.0]), "name": f"r{i}", "pair": (i, float(i) / 2)}


for batch in DataLoader(Records(), batch_size=2):
    print(batch)

print(type(next(iter(DataLoader(ds, batch_size=2)))).__name__)
