"""utils.data: datasets, samplers, DataLoader batching and determinism, random_split."""
from collections import namedtuple

import numpy as np
import pytest

import tapegrad
from tapegrad.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset,
                                 IterableDataset, RandomSampler, Subset, TensorDataset,
                                 default_collate, random_split)


def _dataset(n=10):
    return TensorDataset(tapegrad.arange(n * 2).reshape(n, 2).float(), tapegrad.arange(n))


def _labels(loader):
    return [batch[1].tolist() for batch in loader]


def test_tensor_dataset_items_and_length():
    data = _dataset()
    x, y = data[3]
    assert x.tolist() == [6.0, 7.0] and y.item() == 3 and len(data) == 10
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(tapegrad.zeros(3), tapegrad.zeros(4))


def test_sequential_batches_with_and_without_drop_last():
    loader = DataLoader(_dataset(), batch_size=4)
    batches = list(loader)
    assert len(loader) == 3 and _labels(loader) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    x, y = batches[0]
    assert x.shape == (4, 2) and x.dtype == tapegrad.float32 and y.dtype == tapegrad.int64
    dropping = DataLoader(_dataset(), batch_size=4, drop_last=True)
    assert len(dropping) == 2 and _labels(dropping) == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_shuffle_is_a_permutation_reproducible_with_a_seeded_generator():
    def epochs(seed):
        loader = DataLoader(_dataset(), batch_size=3, shuffle=True,
                            generator=tapegrad.Generator().manual_seed(seed))
        return [sum(_labels(loader), []) for _ in range(2)]

    first, again, other = epochs(7), epochs(7), epochs(8)
    assert first == again and first != other
    assert sorted(first[0]) == list(range(10))
    assert first[0] != first[1]  # a new order each epoch


def test_shuffle_without_generator_follows_manual_seed():
    loader = DataLoader(_dataset(), batch_size=10, shuffle=True)
    tapegrad.manual_seed(3)
    first = _labels(loader)
    tapegrad.manual_seed(3)
    assert _labels(loader) == first


def test_default_collate_handles_nested_samples():
    Pair = namedtuple("Pair", "a b")
    batch = default_collate([{"x": np.ones(2), "n": 1, "f": 0.5, "s": "u", "p": Pair(1, 2.0)},
                             {"x": np.zeros(2), "n": 2, "f": 1.5, "s": "v", "p": Pair(3, 4.0)}])
    assert batch["x"].shape == (2, 2) and batch["n"].tolist() == [1, 2]
    assert batch["f"].dtype == tapegrad.float64 and batch["s"] == ["u", "v"]
    assert isinstance(batch["p"], Pair) and batch["p"].a.tolist() == [1, 3]


def test_tuple_samples_collate_into_lists_as_torch():
    batch = default_collate([(1, 2.0), (3, 4.0)])
    assert type(batch) is list and [field.tolist() for field in batch] == [[1, 3], [2.0, 4.0]]
    nested = default_collate([{"p": (1, 2)}, {"p": (3, 4)}])
    assert type(nested["p"]) is list


def test_concat_dataset_sizes_are_python_ints():
    data = ConcatDataset([_dataset(2), _dataset(3)])
    assert data.cumulative_sizes == [2, 5] and all(type(n) is int for n in data.cumulative_sizes)
    assert len(data) == 5


def test_custom_collate_batch_size_none_and_batch_sampler():
    data = _dataset(5)
    assert list(DataLoader(data, batch_size=2, collate_fn=len)) == [2, 2, 1]
    single = list(DataLoader(data, batch_size=None))
    assert len(single) == 5 and single[0][1].item() == 0
    sampler = BatchSampler(RandomSampler(data, generator=tapegrad.Generator().manual_seed(0)),
                           batch_size=2, drop_last=True)
    loader = DataLoader(data, batch_sampler=sampler)
    assert len(loader) == 2 and all(len(b) == 2 for b in _labels(loader))


def test_iterable_dataset_is_batched_in_order():
    class Stream(IterableDataset):
        def __iter__(self):
            return iter(range(7))

    assert [b.tolist() for b in DataLoader(Stream(), batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(Stream(), shuffle=True)


def test_random_split_partitions_deterministically():
    data = _dataset(10)
    parts = random_split(data, [7, 3], generator=tapegrad.Generator().manual_seed(0))
    assert [len(p) for p in parts] == [7, 3]
    assert sorted(parts[0].indices + parts[1].indices) == list(range(10))
    again = random_split(data, [7, 3], generator=tapegrad.Generator().manual_seed(0))
    assert again[0].indices == parts[0].indices
    assert [len(p) for p in random_split(data, [0.5, 0.3, 0.2])] == [5, 3, 2]
    assert [len(p) for p in random_split(_dataset(11), [0.5, 0.5])] == [6, 5]
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(data, [4, 4])


def test_subset_and_concat():
    data = _dataset(4)
    assert Subset(data, [3, 1])[0][1].item() == 3
    both = data + _dataset(2)
    assert isinstance(both, ConcatDataset) and len(both) == 6
    assert both[4][1].item() == 0 and both[-1][1].item() == 1


def test_bad_loader_arguments():
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        DataLoader(_dataset(), batch_size=0)
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        DataLoader(_dataset(), sampler=[0, 1], shuffle=True)
    with pytest.raises(NotImplementedError):
        Dataset()[0]
