"""utils.data fixes found by the data-loading programs: generic Dataset/Sampler/DataLoader
classes, and DataLoader workers each holding their own copy of the dataset."""
import collections.abc
import functools
import math
import multiprocessing
import os
import warnings
from typing import List, Tuple

import pytest

import tapegrad
from tapegrad.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, IterableDataset,
                                 Sampler, SequentialSampler, TensorDataset, get_worker_info)


def test_dataset_classes_are_generic_as_in_pytorch():
    class Pairs(Dataset[Tuple[tapegrad.Tensor, int]]):
        def __len__(self):
            return 3

        def __getitem__(self, i):
            return tapegrad.tensor([float(i)]), i

    class Evens(Sampler[int]):
        def __iter__(self):
            return iter([0, 2])

    class Stream(IterableDataset[int]):
        def __iter__(self):
            return iter(range(3))

    batch = next(iter(DataLoader(Pairs(), batch_size=2, sampler=Evens())))
    assert batch[1].tolist() == [0, 2]
    assert list(DataLoader(Stream(), batch_size=None)) == [0, 1, 2]
    assert DataLoader[List[int]] is not None and Sampler[List[int]] is not None
    with pytest.raises(TypeError, match="is not a generic class"):  # as in PyTorch
        BatchSampler[List[int]]
    assert isinstance(Stream(), collections.abc.Iterable)
    assert not isinstance(Pairs(), collections.abc.Iterable)


def _shards(lib, start, end):
    """An IterableDataset of ``lib`` streaming ``range(start, end)``."""
    class Shards(lib.utils.data.IterableDataset):
        def __init__(self):
            self.start, self.end = start, end

        def __iter__(self):
            return iter(range(self.start, self.end))
    return Shards()


def _narrow_to_worker_shard(worker_id, get_info=get_worker_info):
    """The PyTorch docs' worker_init_fn: each worker narrows its own copy of the dataset."""
    info = get_info()
    ds = info.dataset
    per_worker = math.ceil((ds.end - ds.start) / info.num_workers)
    ds.start = ds.start + worker_id * per_worker
    ds.end = min(ds.start + per_worker, ds.end)


@pytest.mark.parametrize("persistent", [False, True])
def test_worker_init_fn_changes_only_its_workers_copy(persistent):
    ds = _shards(tapegrad, 3, 7)
    loader = DataLoader(ds, num_workers=2, worker_init_fn=_narrow_to_worker_shard,
                        persistent_workers=persistent)
    for _ in range(2):  # a second epoch re-shards fresh copies, or keeps the persistent ones
        assert [t.item() for t in loader] == [3, 5, 4, 6]
    assert (ds.start, ds.end) == (3, 7)  # the main process's dataset is untouched


def test_each_worker_caches_in_its_own_copy():
    class Caching(Dataset):
        def __init__(self):
            self.seen = []

        def __len__(self):
            return 4

        def __getitem__(self, i):
            self.seen.append(i)
            return tapegrad.tensor(len(self.seen))

    ds = Caching()
    counts = [t.item() for t in DataLoader(ds, num_workers=2)]
    assert counts == [1, 1, 2, 2] and ds.seen == []
    assert [t.item() for t in DataLoader(ds)] == [1, 2, 3, 4]


def test_uncopyable_dataset_is_shared_by_workers():
    class FromGenerator(IterableDataset):
        def __init__(self):
            self.source = (i for i in range(4))  # generators cannot be deep-copied

        def __iter__(self):
            return self.source

    assert sorted(t.item() for t in DataLoader(FromGenerator(), num_workers=2)) == [0, 1, 2, 3]


def test_worker_copy_keeps_tensor_data():
    ds = TensorDataset(tapegrad.arange(6.).reshape(3, 2))
    batches = [b[0].tolist() for b in DataLoader(ds, batch_size=2, num_workers=2,
                                                 sampler=SequentialSampler(ds))]
    assert batches == [[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0]]]


def test_same_as_torch_worker_sharding():
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401  the submodule, for _shards
    ds = _shards(torch, 3, 7)
    theirs = [t.item() for t in torch.utils.data.DataLoader(
        ds, num_workers=2, worker_init_fn=functools.partial(
            _narrow_to_worker_shard, get_info=torch.utils.data.get_worker_info))]
    assert theirs == [3, 5, 4, 6] and (ds.start, ds.end) == (3, 7)
    assert issubclass(torch.utils.data.IterableDataset, collections.abc.Iterable)


def test_sampler_has_no_data_source_argument_as_in_pytorch_2_13():
    class Reversed(Sampler):
        def __init__(self, data_source):
            super().__init__(data_source)

    with pytest.raises(TypeError, match="takes exactly one argument"):
        Reversed([1, 2])
    assert "__init__" not in Sampler.__dict__


def test_iterable_dataset_without_iter_cannot_be_instantiated():
    class NoIter(IterableDataset):
        pass

    with pytest.raises(TypeError, match="abstract method __iter__"):
        NoIter()


def test_concat_dataset_old_cummulative_sizes_name_warns():
    cat = ConcatDataset([[1, 2], [3]])
    with pytest.warns(FutureWarning, match="renamed to `cumulative_sizes`"):
        assert cat.cummulative_sizes == [2, 3]


def test_too_many_workers_warns_at_construction_and_each_iteration():
    workers = len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") \
        else os.cpu_count() + 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loader = DataLoader([1, 2], num_workers=workers)
        list(loader)
        list(loader)
    assert sum("worker processes in total" in str(w.message) for w in caught) == 3


def test_multiprocessing_context_is_checked_and_kept_as_a_context_object():
    loader = DataLoader([1], num_workers=1, multiprocessing_context="spawn")
    assert isinstance(loader.multiprocessing_context, multiprocessing.context.SpawnContext)
    with pytest.raises(ValueError, match="should specify a valid start method in"):
        DataLoader([1], num_workers=1, multiprocessing_context="bogus")
    with pytest.raises(TypeError, match="valid context object or a string"):
        DataLoader([1], num_workers=1, multiprocessing_context=3)
    with pytest.raises(ValueError, match="can only be used with multi-process loading"):
        DataLoader([1]).multiprocessing_context = "fork"
    assert [t.item() for t in loader] == [1]


def test_worker_info_is_frozen_and_slotted_as_in_pytorch():
    class Infos(Dataset):
        def __len__(self):
            return 1

        def __getitem__(self, i):
            return get_worker_info()

    info = next(iter(DataLoader(Infos(), batch_size=None, num_workers=1)))
    assert not hasattr(info, "__dict__") and info.id == 0 and info.num_workers == 1
    with pytest.raises(AttributeError, match="cannot assign to field 'id'"):
        info.id = 3


@pytest.mark.parametrize("workers, hint", [(0, False), (2, True)])
def test_iterable_length_warning_hints_at_worker_replicas(workers, hint):
    class Lying(IterableDataset):
        def __iter__(self):
            return iter(range(3))

        def __len__(self):
            return 2

    loader = DataLoader(Lying(), batch_size=None, num_workers=workers)
    len(loader)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        list(loader)
    messages = [str(w.message) for w in caught if "samples have been fetched" in str(w.message)]
    assert len(messages) == (4 if workers else 1)  # each worker replica streams all 3
    assert all(("IterableDataset replica at each worker" in m) == hint for m in messages)
