"""``DistributedSampler``: each of ``num_replicas`` processes reads its own share of a dataset.

tapegrad has no process groups, so ``num_replicas`` and ``rank`` must be given (PyTorch takes
them from the default process group otherwise, and says it has not been initialized).
"""
import math
from typing import TypeVar

from ... import distributed, ops, random
from .sampler import Sampler

__all__ = ["DistributedSampler"]

T_co = TypeVar("T_co", covariant=True)


class DistributedSampler(Sampler[T_co]):
    """Replica ``rank`` gets every ``num_replicas``-th index (of a per-epoch shuffle seeded
    ``seed + epoch``), padded by repeating indices — or cut, with ``drop_last`` — so that every
    replica gets as many."""

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0,
                 drop_last=False):
        if num_replicas is None:
            num_replicas = distributed.get_world_size()  # PyTorch's error: no process group
        if rank is None:
            rank = distributed.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval "
                             f"[0, {num_replicas - 1}]")
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        if drop_last and len(dataset) % num_replicas != 0:
            self.num_samples = math.ceil((len(dataset) - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(len(dataset) / num_replicas)
        self.total_size = self.num_samples * num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            generator = random.Generator().manual_seed(self.seed + self.epoch)
            indices = ops.randperm(n, generator=generator).tolist()
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            padding = self.total_size - len(indices)
            if padding:  # none for an empty dataset, which has no index to repeat
                indices += (indices * math.ceil(padding / len(indices)))[:padding]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """Shuffle differently in the next pass (call it before each epoch)."""
        self.epoch = epoch
