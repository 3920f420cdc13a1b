# The classic train/validation split from course notebooks: shuffle indices by hand (here a
# fixed permutation), SubsetRandomSampler / SequentialSampler imported from
# torch.utils.data.sampler, Dataset imported from torch.utils.data.dataset, and a loop that
# counts samples per loader and checks that the splits do not overlap.
import torch
from torch.utils.data.dataset import Dataset
from torch.utils.data.sampler import SequentialSampler, SubsetRandomSampler
from torch.utils.data import DataLoader


class Points(Dataset):
    def __init__(self, n):
        self.x = torch.linspace(-1, 1, n).unsqueeze(1)
        self.y = (self.x > 0).long().squeeze(1)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i], i


data = Points(20)
valid_size = 0.2
num = len(data)
indices = [(7 * i + 3) % num for i in range(num)]   # a fixed "shuffle"
split = int(valid_size * num)
train_idx, valid_idx = indices[split:], indices[:split]
print(split, valid_idx, len(train_idx))

train_sampler = SubsetRandomSampler(train_idx)
valid_sampler = SequentialSampler(valid_idx)
print(len(train_sampler), len(valid_sampler), list(valid_sampler))
train_loader = DataLoader(data, batch_size=5, sampler=train_sampler)
valid_loader = DataLoader(data, batch_size=5, sampler=SubsetRandomSampler(valid_idx))
print(len(train_loader), len(valid_loader), len(train_loader.dataset))

seen_train, seen_valid = [], []
for xb, yb, ib in train_loader:
    seen_train += ib.tolist()
    assert xb.shape[1] == 1
for xb, yb, ib in valid_loader:
    seen_valid += ib.tolist()
print(sorted(seen_train) == sorted(train_idx), sorted(seen_valid) == sorted(valid_idx))
print(set(seen_train) & set(seen_valid), len(seen_train) + len(seen_valid))
print(sorted(seen_valid), data[valid_idx[0]])
