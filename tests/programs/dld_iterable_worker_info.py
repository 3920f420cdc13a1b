# IterableDataset streaming with get_worker_info() (None in the main process), batching,
# drop_last, batch_size=None, iterating twice and options not allowed with iterables.
import math
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info


class RangeStream(IterableDataset):
    def __init__(self, start, end):
        super().__init__()
        self.start, self.end = start, end

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            lo, hi = self.start, self.end
        else:
            per = int(math.ceil((self.end - self.start) / float(info.num_workers)))
            lo = self.start + info.id * per
            hi = min(lo + per, self.end)
        for i in range(lo, hi):
            yield {"x": torch.tensor([float(i), float(i) ** 2]), "idx": i}


print("worker info in main:", get_worker_info())
ds = RangeStream(3, 10)
loader = DataLoader(ds, batch_size=3, num_workers=0)
for epoch in range(2):
    for b in loader:
        print(epoch, b["idx"].tolist(), b["x"].shape, b["x"].dtype)

dl = DataLoader(ds, batch_size=3, drop_last=True)
print([b["idx"].tolist() for b in dl])
try:
    print(len(dl))
except TypeError as e:
    print("TypeError", e)

unbatched = DataLoader(ds, batch_size=None)
first = next(iter(unbatched))
print(first["x"], first["idx"])


class WithLen(RangeStream):
    def __len__(self):
        return self.end - self.start


print(len(DataLoader(WithLen(0, 10), batch_size=4)))
print(len(DataLoader(WithLen(0, 10), batch_size=4, drop_last=True)))

for kwargs in [dict(shuffle=True), dict(sampler=[0, 1]), dict(batch_sampler=[[0, 1]])]:
    try:
        DataLoader(ds, **kwargs)
        print(kwargs, "ok")
    except ValueError as e:
        print(list(kwargs), "ValueError", e)


def gen_stream(n):
    for i in range(n):
        yield torch.full((2,), float(i)), torch.tensor(i % 2)


class GenDS(IterableDataset):
    def __iter__(self):
        return gen_stream(5)


for xb, yb in DataLoader(GenDS(), batch_size=2):
    print(xb.tolist(), yb.tolist())
