# Simulating data-parallel ranks with DistributedSampler(num_replicas, rank) without
# initialising a process group: per-rank indices, padding, drop_last, set_epoch and lengths.
import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

ds = TensorDataset(torch.arange(10).float())
for world in (2, 3, 4):
    for drop_last in (False, True):
        per_rank = []
        for rank in range(world):
            s = DistributedSampler(ds, num_replicas=world, rank=rank, shuffle=False, drop_last=drop_last)
            per_rank.append(list(s))
        print(world, drop_last, len(s), s.num_samples, s.total_size, per_rank)

s = DistributedSampler(ds, num_replicas=3, rank=1, shuffle=True, seed=0)
s.set_epoch(3)
print(s.epoch, len(list(s)), s.shuffle, s.seed)
loader = DataLoader(ds, batch_size=2, sampler=s)
print(len(loader), sum(b[0].numel() for b in loader))
for bad in (dict(num_replicas=2, rank=2), dict(num_replicas=2, rank=-1)):
    try:
        DistributedSampler(ds, **bad)
    except ValueError as e:
        print("ValueError", e)
try:
    DistributedSampler(ds)
except (RuntimeError, ValueError) as e:
    print(type(e).__name__, e)
loader = DataLoader(ds, batch_size=3,
                    sampler=DistributedSampler(ds, num_replicas=2, rank=0, shuffle=False))
for epoch in range(2):
    loader.sampler.set_epoch(epoch)
    print(epoch, [b[0].tolist() for b in loader])
