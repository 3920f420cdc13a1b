"""``utils.data.dataset``: map-style and iterable datasets, their combinations, and
``random_split``."""
import math
import warnings
from typing import Generic, Iterable, TypeVar

import numpy as np

from ... import ops

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "StackDataset", "ConcatDataset",
           "ChainDataset", "Subset", "random_split"]


T_co = TypeVar("T_co", covariant=True)


class Dataset(Generic[T_co]):
    """A map-style dataset: implement ``__getitem__`` (and ``__len__`` for samplers).
    Generic, as PyTorch's, so annotated subclasses such as ``Dataset[Tuple[Tensor, int]]`` work."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset[T_co], Iterable[T_co]):
    """A stream-style dataset: implement ``__iter__``; it is batched in iteration order.
    ``__iter__`` stays abstract (from ``Iterable``), so a subclass without one cannot be
    instantiated, as in PyTorch."""

    def __add__(self, other):
        """Two streams add up to their chain, as no index can address a stream."""
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Item ``i`` is ``tuple(t[i] for t in tensors)``: the tensors share their first dimension."""

    def __init__(self, *tensors):
        if any(t.size(0) != tensors[0].size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


class Subset(Dataset[T_co]):
    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices):
        """A batch at once, through the dataset's own ``__getitems__`` when it has one."""
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[i] for i in indices])
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset[T_co]):
    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = [int(size) for size in np.cumsum([len(d) for d in self.datasets])]

    def __len__(self):
        return self.cumulative_sizes[-1]

    @property
    def cummulative_sizes(self):
        """The old, misspelt name of ``cumulative_sizes``, still read by older code."""
        warnings.warn("`cummulative_sizes` attribute is renamed to `cumulative_sizes`",
                      FutureWarning, stacklevel=2)
        return self.cumulative_sizes

    def __getitem__(self, index):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        which = int(np.searchsorted(self.cumulative_sizes, index, side="right"))
        start = 0 if which == 0 else int(self.cumulative_sizes[which - 1])
        return self.datasets[which][index - start]


class StackDataset(Dataset[T_co]):
    """Item ``i`` is the tuple (datasets given as arguments) or the dict (given as keywords) of
    item ``i`` of each dataset; the datasets have one length."""

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via "
                             "``kwargs``) like input/output, but both types are given.")
        datasets = args or list(kwargs.values())
        if not datasets:
            raise ValueError("At least one dataset should be passed")
        self._length = len(datasets[0])
        if any(len(d) != self._length for d in datasets):
            raise ValueError("Size mismatch between datasets")
        self.datasets = args or kwargs

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {key: dataset[index] for key, dataset in self.datasets.items()}
        return tuple(dataset[index] for dataset in self.datasets)

    def __getitems__(self, indices):
        """A batch at once: each dataset gives its items through its own ``__getitems__`` when
        it has one, as in PyTorch."""
        keys = list(self.datasets) if isinstance(self.datasets, dict) \
            else range(len(self.datasets))
        rows = zip(*(_items_at(self.datasets[key], indices) for key in keys))
        if isinstance(self.datasets, dict):
            return [dict(zip(keys, row)) for row in rows]
        return [tuple(row) for row in rows]

    def __len__(self):
        return self._length


def _items_at(dataset, indices):
    """``dataset``'s items at ``indices``: through its ``__getitems__``, which must give one item
    per index, when it has one."""
    if not callable(getattr(dataset, "__getitems__", None)):
        return [dataset[i] for i in indices]
    items = dataset.__getitems__(indices)
    if len(items) != len(indices):
        raise ValueError(f"Nested dataset's output size mismatch. Expected {len(indices)}, got "
                         f"{len(items)}")
    return items


class ChainDataset(IterableDataset):
    """The streams of several iterable datasets, one after the other."""

    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for dataset in self.datasets:
            if not isinstance(dataset, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from dataset

    def __len__(self):
        total = 0
        for dataset in self.datasets:
            if not isinstance(dataset, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(dataset)
        return total


def random_split(dataset, lengths, generator=None):
    """Split ``dataset`` into non-overlapping random ``Subset``s of the given lengths (or
    fractions summing to 1)."""
    total = len(dataset)
    lengths = list(lengths)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        for i, fraction in enumerate(lengths):
            if not 0 <= fraction <= 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        counts = [int(math.floor(total * fraction)) for fraction in lengths]
        for i in range(total - sum(counts)):  # spread the remainder round-robin
            counts[i % len(counts)] += 1
        lengths = counts
        for i, length in enumerate(lengths):
            if length == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an "
                              "empty dataset.")
    if sum(lengths) != total:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = ops.randperm(total, generator=generator).tolist()
    subsets, offset = [], 0
    for length in lengths:
        subsets.append(Subset(dataset, order[offset:offset + length]))
        offset += length
    return subsets
