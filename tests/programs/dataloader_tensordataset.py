# DataLoader over a TensorDataset: batches, lengths, drop_last, random_split sizes, a custom Dataset.
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset, random_split

features = torch.arange(50, dtype=torch.float32).view(25, 2)
targets = torch.arange(25) % 3
dataset = TensorDataset(features, targets)
print(len(dataset), dataset[3])

loader = DataLoader(dataset, batch_size=8, shuffle=False)
print(len(loader))
for batch_idx, (xb, yb) in enumerate(loader):
    print(batch_idx, xb.shape, yb.tolist())

loader = DataLoader(dataset, batch_size=8, drop_last=True)
print(len(loader), [xb.shape[0] for xb, _ in loader])

xb, yb = next(iter(DataLoader(dataset, batch_size=4)))
print(xb, yb, xb.dtype, yb.dtype)

generator = torch.Generator().manual_seed(42)
train_set, val_set = random_split(dataset, [20, 5], generator=generator)
print(len(train_set), len(val_set), type(train_set).__name__)

shuffled = DataLoader(dataset, batch_size=5, shuffle=True)
seen = torch.cat([yb for _, yb in shuffled])
print(seen.shape, sorted(seen.tolist()) == sorted(targets.tolist()))


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        return {"x": torch.tensor([float(idx)]), "y": idx * idx}


batch = next(iter(DataLoader(Squares(10), batch_size=4)))
print(batch)
print([b["y"].tolist() for b in DataLoader(Squares(10), batch_size=4)])
