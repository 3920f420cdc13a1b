# LightningDataModule-style setup(): random_split with fractional lengths and a seeded Generator,
# class-balancing WeightedRandomSampler(replacement=False, generator), SubsetRandomSampler for a
# validation subset, BatchSampler(drop_last) and the DataLoader lengths each stage reports.
import torch
from torch.utils.data import (BatchSampler, DataLoader, SequentialSampler, Subset,
                              SubsetRandomSampler, TensorDataset, WeightedRandomSampler, random_split)


class DataModule:
    def __init__(self, n=23, batch_size=4):
        self.n, self.batch_size = n, batch_size

    def setup(self, stage=None):
        x = torch.stack([torch.arange(self.n, dtype=torch.float32), torch.sin(torch.arange(self.n) * 0.5)], 1)
        y = (torch.arange(self.n) % 5 == 0).long()
        self.full = TensorDataset(x, y)
        g = torch.Generator().manual_seed(42)
        self.train, self.val, self.test = random_split(self.full, [0.6, 0.25, 0.15], generator=g)

    def train_dataloader(self):
        labels = torch.stack([self.full[i][1] for i in self.train.indices])
        counts = torch.bincount(labels, minlength=2).float()
        weights = (1.0 / counts)[labels]
        sampler = WeightedRandomSampler(weights, num_samples=len(weights), replacement=False,
                                        generator=torch.Generator().manual_seed(0))
        return DataLoader(self.train, batch_size=self.batch_size, sampler=sampler, drop_last=True)

    def val_dataloader(self):
        idx = list(range(0, len(self.val), 2))
        return DataLoader(self.val, batch_size=2, sampler=SubsetRandomSampler(idx, generator=torch.Generator().manual_seed(1)))

    def test_dataloader(self):
        return DataLoader(self.test, batch_sampler=BatchSampler(SequentialSampler(self.test), 2, drop_last=False))


dm = DataModule()
dm.setup("fit")
print("split sizes:", len(dm.train), len(dm.val), len(dm.test))
print("types:", type(dm.train).__name__, type(dm.train.dataset).__name__)
print("indices disjoint & complete:",
      sorted(dm.train.indices + dm.val.indices + dm.test.indices) == list(range(dm.n)))

tl = dm.train_dataloader()
print("train batches:", len(tl), "sampler len:", len(tl.sampler), "drop_last:", tl.drop_last)
seen = []
for xb, yb in tl:
    seen += xb[:, 0].long().tolist()
    print("  batch", tuple(xb.shape), yb.dtype)
print("no repeats without replacement:", len(seen) == len(set(seen)))
print("all from train split:", set(seen) <= set(dm.train.indices))
again = [int(v) for xb, _ in dm.train_dataloader() for v in xb[:, 0]]
print("reproducible with seeded generator:", again == seen)

vl = dm.val_dataloader()
vals = sorted(int(v) for xb, _ in vl for v in xb[:, 0])
print("val batches:", len(vl), "covers subset:", vals == sorted(int(dm.val[i][0][0]) for i in range(0, len(dm.val), 2)))

te = dm.test_dataloader()
print("test batches:", len(te), [tuple(xb.shape) for xb, _ in te])
print("batch_size attr:", te.batch_size, "batch_sampler:", type(te.batch_sampler).__name__)
print("sequential sampler:", list(SequentialSampler(range(4))))
print("batch sampler:", list(BatchSampler(range(7), 3, drop_last=True)), list(BatchSampler(range(7), 3, False)))

sub = Subset(dm.full, [3, 1, 4])
print("subset item:", sub[0][0].tolist(), sub[2][1].item(), len(sub))
print("random_split ints:", [len(s) for s in random_split(range(10), [7, 3], generator=torch.Generator().manual_seed(0))])
print("random_split fractions remainder:", [len(s) for s in random_split(range(10), [0.33, 0.33, 0.34])])

for bad in [lambda: random_split(range(10), [5, 4]),
            lambda: random_split(range(10), [0.5, 0.6]),
            lambda: WeightedRandomSampler([1.0, 2.0], num_samples=5, replacement=False, generator=None).__iter__().__next__(),
            lambda: WeightedRandomSampler([1.0, 2.0], num_samples=0),
            lambda: WeightedRandomSampler([1.0, 2.0], num_samples=2, replacement=1),
            lambda: BatchSampler(range(4), 0, False),
            lambda: DataLoader(dm.test, batch_sampler=BatchSampler(range(4), 2, False), batch_size=2),
            lambda: DataLoader(dm.test, sampler=SequentialSampler(dm.test), shuffle=True)]:
    try:
        bad()
        print("no error")
    except (ValueError, RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
