# DataLoader objects as training scripts inspect them: dataset/batch_size/drop_last/sampler
# attributes, the iterator protocol (next, StopIteration), enumerate with a start, a Dataset
# returning (features, label, index), a map-style dataset without __len__, and len() math.
import torch
from torch.utils import data
from torch.utils.data import DataLoader, Dataset, TensorDataset


class Squares(Dataset):
    def __init__(self, n):
        self.x = torch.arange(n, dtype=torch.float32).unsqueeze(1)
        self.y = (self.x ** 2).squeeze(1).long()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx], idx


ds = Squares(7)
loader = DataLoader(ds, batch_size=3, shuffle=False)
print(loader.batch_size, loader.drop_last, loader.num_workers, type(loader.sampler).__name__,
      type(loader.batch_sampler).__name__, loader.dataset is ds, len(loader))
print(list(loader.sampler), list(loader.batch_sampler))
it = iter(loader)
print(type(it).__name__)
xb, yb, ib = next(it)
print(xb.shape, xb.dtype, yb, yb.dtype, ib)
print(next(it)[2], next(it)[2])
try:
    next(it)
except StopIteration:
    print("StopIteration")

for step, (xb, yb, ib) in enumerate(loader, start=1):
    print(step, xb.view(-1).tolist(), yb.tolist(), ib.tolist())

print(ds[2], ds[-1][1])
print(ds[torch.tensor(3)][0])
sub = data.Subset(ds, [6, 0, 3])
print(len(sub), [sub[i][2] for i in range(len(sub))], sub.indices)
print([b[2].tolist() for b in DataLoader(sub, batch_size=2)])

cat = data.ConcatDataset([TensorDataset(torch.arange(3.0)), TensorDataset(torch.arange(10.0, 12.0))])
print(len(cat), cat.cumulative_sizes, cat[3], cat[-1])
print([b[0].tolist() for b in DataLoader(cat, batch_size=2)])


class NoLen(Dataset):
    def __getitem__(self, i):
        return torch.tensor(i)


try:
    print(len(DataLoader(NoLen(), batch_size=2)))
except TypeError as e:
    print(type(e).__name__, e)

td = TensorDataset(torch.arange(12).view(6, 2), torch.arange(6) % 2)
print(td[1:4])
print(td[[0, 5]])
xs, ys = zip(*[td[i] for i in range(3)])
print(torch.stack(xs), torch.stack(ys))
loader = DataLoader(td, batch_size=4, drop_last=True)
print(len(loader), [x.shape for x, _ in loader])
total = 0
correct = 0
for xb, yb in DataLoader(td, batch_size=4):
    pred = (xb.sum(1) % 4 == 1).long()
    correct += (pred == yb).sum().item()
    total += yb.size(0)
print(correct, total, f"{100 * correct / total:.1f}%")
try:
    DataLoader(td, batch_size=2, sampler=[0, 1], shuffle=True)
except ValueError as e:
    print(type(e).__name__, e)
try:
    DataLoader(td, batch_size=2, batch_sampler=[[0, 1]])
except ValueError as e:
    print(type(e).__name__, e)
print(list(DataLoader(td, batch_sampler=[[0, 1], [5]])))
