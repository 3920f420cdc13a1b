"""``utils.data.sampler``: the orders in which a ``DataLoader`` visits a dataset's indices."""
from typing import Generic, TypeVar

from ... import dtypes, ops, random

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
           "WeightedRandomSampler", "BatchSampler"]


T_co = TypeVar("T_co", covariant=True)


class Sampler(Generic[T_co]):
    """Yields dataset indices (generic, as PyTorch's: ``Sampler[int]``, ``Sampler[List[int]]``).
    No ``__init__``: PyTorch 2.13 dropped the ``data_source`` argument, so
    ``super().__init__(data_source)`` fails there as here."""

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


_CHUNK = 32  # indices drawn at a time with replacement


class RandomSampler(Sampler):
    """A fresh random order every epoch, drawn from ``generator`` (or from a seed taken from the
    default generator, so ``manual_seed`` makes it reproducible, as in PyTorch)."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got "
                            f"replacement={replacement}")
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        """Draws lazily, as PyTorch does (the seed at the first index, then 32 indices or one
        permutation at a time), so a huge ``num_samples`` costs nothing up front, and an empty
        ``data_source`` fails as there."""
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            seed = int(ops.empty((), dtype=dtypes.int64).random_().item())
            generator = random.Generator().manual_seed(seed)
        if self.replacement:
            for _ in range(self.num_samples // _CHUNK):
                yield from ops.randint(high=n, size=(_CHUNK,), generator=generator).tolist()
            yield from ops.randint(high=n, size=(self.num_samples % _CHUNK,),
                                   generator=generator).tolist()
        else:
            for _ in range(self.num_samples // n):
                yield from ops.randperm(n, generator=generator).tolist()
            yield from ops.randperm(n, generator=generator).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a fresh random order every epoch."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for position in ops.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[position]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights``."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got "
                             f"replacement={replacement}")
        weights = ops.as_tensor(weights, dtype=dtypes.float64)
        if weights.ndim != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights.shape)}")
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        draws = ops.multinomial(self.weights, self.num_samples, self.replacement,
                                generator=self.generator)
        return iter(draws.tolist())

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Groups the indices of ``sampler`` into lists of ``batch_size``."""

    def __init__(self, sampler, batch_size, drop_last):
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        batch = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return -(-len(self.sampler) // self.batch_size)
