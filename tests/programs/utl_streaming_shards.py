# Streaming training data as IterableDatasets (WebDataset / HF streaming style): one dataset per shard,
# shards combined with `+`, a windowing transform, worker-aware splitting that falls back to the full
# stream when num_workers=0, batching with a DataLoader, and the map-style-only APIs that reject streams.
import math

import torch
from torch.utils.data import ChainDataset, ConcatDataset, DataLoader, IterableDataset, get_worker_info


class Shard(IterableDataset):
    def __init__(self, shard_id, n):
        super().__init__()
        self.shard_id, self.n = shard_id, n

    def __iter__(self):
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        for i in range(start, self.n, step):
            t = self.shard_id * 10 + i
            yield {"x": torch.tensor([math.sin(t), math.cos(t)]), "y": t % 2, "key": f"s{self.shard_id}-{i}"}


class Windowed(IterableDataset):
    def __init__(self, source, size):
        super().__init__()
        self.source, self.size = source, size

    def __iter__(self):
        window = []
        for sample in self.source:
            window.append(sample["x"])
            if len(window) == self.size:
                yield torch.stack(window).flatten(), sample["y"]
                window = []


shard0, shard1, shard2 = Shard(0, 3), Shard(1, 4), Shard(2, 2)
stream = shard0 + shard1
print(type(stream).__name__)
stream = stream + shard2
print(type(stream).__name__, [s["key"] for s in stream])

chained = ChainDataset([shard0, shard1, shard2])
loader = DataLoader(chained, batch_size=4)
for batch in loader:
    print(batch["x"].shape, batch["y"], batch["key"])

win = Windowed(ChainDataset([shard1, shard2]), size=2)
for xb, yb in DataLoader(win, batch_size=2):
    print(xb.round(decimals=3), yb)

model = torch.nn.Linear(2, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.3], [0.2, 0.1]]))
    model.bias.zero_()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(3):
    total, count = 0.0, 0
    for batch in DataLoader(shard0 + shard1 + shard2, batch_size=3, drop_last=True):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(batch["x"]), batch["y"])
        loss.backward()
        opt.step()
        total += loss.item() * len(batch["y"])
        count += len(batch["y"])
    print(f"epoch {epoch} samples {count} loss {total / count:.4f}")

try:
    ConcatDataset([range(3), shard0])
except AssertionError as e:
    print(type(e).__name__, e)
try:
    len(DataLoader(shard0, batch_size=2))
except TypeError as e:
    print(type(e).__name__, e)
try:
    DataLoader(shard0, sampler=range(3))
except ValueError as e:
    print(type(e).__name__, e)
try:
    DataLoader(shard0, batch_sampler=[[0, 1]])
except ValueError as e:
    print(type(e).__name__, e)
