# Samplers driven by tensors: SubsetRandomSampler over a tensor of indices (as produced by
# torch.where on labels for class-balanced splits), tensor samplers, numpy lengths.
import numpy as np
import torch
from torch.utils.data import (BatchSampler, DataLoader, Dataset, SubsetRandomSampler,
                              TensorDataset, WeightedRandomSampler)

labels = torch.tensor([0, 1, 1, 0, 2, 1, 0, 2])
ds = TensorDataset(torch.arange(8.).unsqueeze(1), labels)
idx = torch.where(labels == 1)[0]
sub = SubsetRandomSampler(idx)
drawn = list(sub)
print(len(sub), type(drawn[0]).__name__, sorted(int(i) for i in drawn))
loader = DataLoader(ds, batch_size=2, sampler=sub)
print(len(loader), sorted(torch.cat([y for _, y in loader]).tolist()))

bs = BatchSampler(SubsetRandomSampler(torch.tensor([4, 7])), batch_size=2, drop_last=False)
batch = next(iter(bs))
print(len(batch), [type(b).__name__ for b in batch], sorted(int(b) for b in batch))
print(list(DataLoader(ds, sampler=torch.tensor([2, 0]), batch_size=2)))

counts = torch.bincount(labels)
class_w = 1.0 / counts.float()
sample_w = class_w[labels]
print(counts, sample_w)
ws = WeightedRandomSampler(sample_w, num_samples=len(sample_w), replacement=True)
draws = list(ws)
print(len(ws), type(draws[0]).__name__, all(0 <= d < 8 for d in draws))
ws2 = WeightedRandomSampler(np.array([1.0, 2.0, 3.0]), num_samples=2)
print(ws2.weights, ws2.num_samples)


class NpLen(Dataset):
    def __init__(self):
        self.arr = np.arange(10)

    def __len__(self):
        return self.arr.shape[0] // np.int64(2)

    def __getitem__(self, i):
        return self.arr[2 * i], np.float32(i) / 2


dl = DataLoader(NpLen(), batch_size=3)
print(len(dl))
for a, b in dl:
    print(a, b)

py_list = ["x", "y", "z", "w"]
print(list(DataLoader(py_list, sampler=torch.tensor([3, 1]), batch_size=None)))
