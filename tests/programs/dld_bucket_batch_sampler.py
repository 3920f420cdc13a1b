# A custom length-bucketing batch sampler (Sampler subclass yielding index lists) passed as
# batch_sampler=, with a padding collate_fn; plus numpy-backed samples and memory sharing.
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, Sampler, default_collate, default_convert
from torch.nn.utils.rnn import pad_sequence


class VarLenDataset(Dataset):
    def __init__(self, lengths):
        self.items = [np.arange(n, dtype=np.int64) + 10 * i for i, n in enumerate(lengths)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]


class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size):
        self.order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
        self.batch_size = batch_size

    def __iter__(self):
        for start in range(0, len(self.order), self.batch_size):
            yield self.order[start:start + self.batch_size]

    def __len__(self):
        return (len(self.order) + self.batch_size - 1) // self.batch_size


lengths = [5, 2, 7, 3, 2, 6, 1]
ds = VarLenDataset(lengths)


def pad_collate(batch):
    seqs = [torch.from_numpy(b) for b in batch]
    return pad_sequence(seqs, batch_first=True), torch.tensor([len(s) for s in seqs])


loader = DataLoader(ds, batch_sampler=BucketBatchSampler(lengths, 3), collate_fn=pad_collate)
print(len(loader))
for padded, lens in loader:
    print(padded.shape, lens.tolist())
    print(padded)

same = DataLoader(VarLenDataset([4, 4, 4]), batch_size=3)
b = next(iter(same))
print(b.dtype, b.shape, b)

arr = np.zeros(3, dtype=np.float32)
t = default_convert(arr)
arr[0] = 5.0
print(t, t.dtype)
batch = default_collate([arr, arr])
arr[1] = 7.0
print(batch)

for dt in (np.int32, np.float16, np.bool_, np.uint8, np.complex64):
    out = default_collate([np.ones(2, dtype=dt), np.zeros(2, dtype=dt)])
    print(np.dtype(dt).name, out.dtype, out.shape)

print(default_collate([np.array(3.5), np.array(1.5)]))
print(default_collate([np.int64(3), np.int64(4)]).dtype)
print(default_collate([np.bool_(True), np.bool_(False)]))
try:
    default_collate([np.array([object()]), np.array([object()])])
except TypeError as e:
    print("TypeError", e)
