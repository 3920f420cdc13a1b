"""``utils.data``: datasets, samplers, and the ``DataLoader`` that batches them.

The submodules mirror PyTorch's (``dataset``, ``sampler``, ``dataloader``, ``distributed``,
``_utils.collate``), so both ``from torch.utils.data import X`` and the deeper imports work.
"""
from . import _utils as _utils  # torch.utils.data._utils.collate, ...
from .dataset import (ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset,
                      Subset, TensorDataset, random_split)
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler,
                      SubsetRandomSampler, WeightedRandomSampler)
from .dataloader import DataLoader, default_collate, default_convert, get_worker_info
from .distributed import DistributedSampler

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset",
           "StackDataset", "ChainDataset", "Sampler", "SequentialSampler", "RandomSampler",
           "SubsetRandomSampler", "WeightedRandomSampler", "BatchSampler", "DistributedSampler",
           "DataLoader", "default_collate", "default_convert", "random_split",
           "get_worker_info"]
