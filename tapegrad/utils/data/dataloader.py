"""``DataLoader``: batches of a dataset, through an iterator object as PyTorch's.

A ``DataLoader`` asks its index sampler (the batch sampler, or the sampler when batching is off)
for indices, has a fetcher get those items from the dataset and collates them. Shuffling draws
from a tapegrad ``Generator``: given the same seed the batches are the same every run.

``num_workers > 0`` keeps PyTorch's semantics without processes: worker ``i`` (0 … n-1) takes
every n-th batch, as PyTorch hands them out; it runs in the main process, one batch at a time,
with ``get_worker_info()`` describing it, its own random generators (tapegrad's and Python's
seeded ``base_seed + i``, NumPy's global one seeded from it, as PyTorch seeds a worker process's;
the main process's streams are left where they were), its own fetcher (so an
``IterableDataset`` yields one stream per worker, interleaved batch by batch, as in PyTorch) and ``worker_init_fn(i)`` called once before its first batch. Each worker holds
its own copy of the dataset, as a forked or spawned PyTorch worker does.
"""
import copy
import multiprocessing
import os
import random as _python_random
import warnings
from typing import Generic, TypeVar

import numpy as np

from ... import dtypes, ops, random
from ._utils import fetch as _fetch, worker as _worker
from ._utils.collate import default_collate, default_convert
from ._utils.worker import get_worker_info
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ["DataLoader", "default_collate", "default_convert", "get_worker_info"]

# The attributes fixed once a DataLoader is built (changing them would desync its samplers).
_FROZEN_ATTRIBUTES = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                      "persistent_workers")


class _DatasetKind:
    Map = 0
    Iterable = 1

    @staticmethod
    def create_fetcher(kind, dataset, auto_collation, collate_fn, drop_last):
        fetcher = _fetch._MapDatasetFetcher if kind == _DatasetKind.Map \
            else _fetch._IterableDatasetFetcher
        return fetcher(dataset, auto_collation, collate_fn, drop_last)


class _InfiniteConstantSampler(Sampler):
    """The sampler of an ``IterableDataset``: None forever (the stream decides when to stop)."""

    def __iter__(self):
        while True:
            yield None


T_co = TypeVar("T_co", covariant=True)


class DataLoader(Generic[T_co]):
    """Iterates over ``dataset`` in batches of ``batch_size`` (``None``: one sample at a time,
    converted but not collated). Generic, as PyTorch's (``DataLoader[Batch]`` annotations)."""

    _initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="",
                 in_order=True):
        _check_options(num_workers, timeout, prefetch_factor, persistent_workers,
                       multiprocessing_context)
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            if shuffle not in (False, None):
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler "
                                 f"option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None:
            if self._dataset_kind == _DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._IterableDataset_len_called = None
        self._iterator = None
        self.check_worker_number_rationality()
        self._initialized = True

    def __setattr__(self, name, value):
        if self._initialized and name in _FROZEN_ATTRIBUTES:
            raise ValueError(f"{name} attribute should not be set after "
                             f"{type(self).__name__} is initialized")
        super().__setattr__(name, value)

    @property
    def multiprocessing_context(self):
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context):
        self._multiprocessing_context = _start_context(context, self.num_workers)

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()  # again at each start of workers, as PyTorch
        return _MultiProcessingDataLoaderIter(self)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self):
        if self._dataset_kind == _DatasetKind.Iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last \
                    else -(-length // self.batch_size)
            return length
        return len(self._index_sampler)

    def check_worker_number_rationality(self):
        """Warn, with PyTorch's message, when asked for more workers than this machine has
        CPUs."""
        if not self.num_workers:
            return
        cpuset_checked = hasattr(os, "sched_getaffinity")
        suggested = len(os.sched_getaffinity(0)) if cpuset_checked else os.cpu_count()
        if suggested is not None and self.num_workers <= suggested:
            return
        if suggested is None:
            advice = ("DataLoader is not able to compute a suggested max number of worker in "
                      "current system.")
        else:
            advice = (f"Our suggested max number of worker in current system is {suggested}"
                      f"{'' if cpuset_checked else ' (`cpuset` is not taken into account)'}, "
                      "which is smaller than what this DataLoader is going to create.")
        warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in "
                      f"total. {advice} Please be aware that excessive worker creation might get "
                      "DataLoader running slow or even freeze, lower the worker number to avoid "
                      "potential slowness/freeze if necessary.", stacklevel=3)


def _check_options(num_workers, timeout, prefetch_factor, persistent_workers,
                   multiprocessing_context):
    """PyTorch's checks of the multiprocessing options, with its messages."""
    if num_workers < 0:
        raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                         "disable multiprocessing.")
    if timeout < 0:
        raise ValueError("timeout option should be non-negative")
    if num_workers == 0 and prefetch_factor is not None:
        raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                         "let num_workers > 0 to enable multiprocessing, otherwise set "
                         "prefetch_factor to None.")
    if prefetch_factor is not None and prefetch_factor < 0:
        raise ValueError("prefetch_factor option should be non-negative")
    if persistent_workers and num_workers == 0:
        raise ValueError("persistent_workers option needs num_workers > 0")
    _start_context(multiprocessing_context, num_workers)


def _start_context(context, num_workers):
    """The workers' start context as PyTorch keeps it, checked with its messages: a start
    method's name becomes its ``multiprocessing`` context object (tapegrad's simulated workers
    start no process, but the attribute and its checks are PyTorch's)."""
    if context is None:
        return None
    if num_workers == 0:
        raise ValueError("multiprocessing_context can only be used with multi-process loading "
                         f"(num_workers > 0), but got num_workers={num_workers}")
    if isinstance(context, str):
        methods = multiprocessing.get_all_start_methods()
        if context not in methods:
            raise ValueError("multiprocessing_context option should specify a valid start "
                             f"method in {methods!r}, but got multiprocessing_context={context!r}")
        context = multiprocessing.get_context(context)
    if not isinstance(context, multiprocessing.context.BaseContext):
        raise TypeError("multiprocessing_context option should be a valid context object or a "
                        "string specifying the start method, but got "
                        f"multiprocessing_context={context}")
    return context


_UNSHARDED_REPLICAS_HINT = (
    "For multiprocessing data-loading, this could be caused by not properly configuring the "
    "IterableDataset replica at each worker. Please see "
    "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset for examples.")


class _BaseDataLoaderIter:
    """What ``iter(loader)`` returns: ``next`` gives the next batch, ``len`` the loader's."""

    def __init__(self, loader):
        self._dataset = loader.dataset
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be used "
                          f"as the device,ignore pin_memory_device='{loader.pin_memory_device}'.",
                          stacklevel=3)
        if loader.pin_memory:  # tapegrad has no accelerator
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=3)
        self._pin_memory = False
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = int(ops.empty((), dtype=dtypes.int64).random_(
            generator=loader.generator).item())  # PyTorch's draw: it comes before the sampler's
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)  # may raise StopIteration

    def _next_data(self):
        raise NotImplementedError

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        if (self._dataset_kind == _DatasetKind.Iterable
                and self._IterableDataset_len_called is not None
                and self._num_yielded > self._IterableDataset_len_called):
            message = (f"Length of IterableDataset {self._dataset} was reported to be "
                       f"{self._IterableDataset_len_called}(when accessing len(dataloader)), "
                       f"but {self._num_yielded} samples have been fetched. ")
            if self._num_workers > 0:
                message += _UNSHARDED_REPLICAS_HINT
            warnings.warn(message, stacklevel=2)
        return data

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", type(self).__name__)

    def _create_fetcher(self, dataset):
        return _DatasetKind.create_fetcher(self._dataset_kind, dataset,
                                           self._auto_collation, self._collate_fn,
                                           self._drop_last)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    """Loads every batch in the calling process, when it is asked for."""

    def __init__(self, loader):
        super().__init__(loader)
        if self._timeout != 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        if self._num_workers != 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires num_workers == 0")
        self._dataset_fetcher = self._create_fetcher(self._dataset)

    def _next_data(self):
        index = self._next_index()  # may raise StopIteration
        return self._dataset_fetcher.fetch(index)  # may raise StopIteration


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """PyTorch's worker schedule, run in this process (see the module docstring): batch ``k`` is
    worker ``k mod n``'s; a worker whose stream ended is skipped from then on."""

    def __init__(self, loader):
        super().__init__(loader)
        self._worker_init_fn = loader.worker_init_fn
        self._workers = [_Worker(i, self._num_workers, self._base_seed + i,
                                 _worker_dataset(self._dataset))
                         for i in range(self._num_workers)]
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        for worker in self._workers:
            worker.start(self._create_fetcher, self._worker_init_fn if first_iter else None)
        self._next_worker = 0

    def _next_data(self):
        while any(worker.active for worker in self._workers):
            index = self._next_index()  # may raise StopIteration
            worker = self._take_worker()
            try:
                return worker.fetch(index)
            except StopIteration:
                worker.active = False  # its stream ended: the other workers carry on
        raise StopIteration

    def _take_worker(self):
        """The next active worker in round-robin order."""
        while True:
            worker = self._workers[self._next_worker]
            self._next_worker = (self._next_worker + 1) % len(self._workers)
            if worker.active:
                return worker


def _worker_dataset(dataset):
    """The dataset as a PyTorch worker process holds it: a copy, so that what one worker changes
    (``worker_init_fn`` narrowing its shard, a cache) is seen neither by the other workers nor by
    the main process. A dataset that cannot be copied (an open file, a lock, a generator) is
    shared, as the closest this single process can come."""
    try:
        return copy.deepcopy(dataset)
    except Exception:  # noqa: BLE001  whatever deepcopy raises for an uncopyable member
        return dataset


class _Worker:
    """One simulated worker: its ``WorkerInfo``, its random generator state and its fetcher.
    What its code raises (bar the end of an iterable dataset's stream) reaches the caller as
    from a PyTorch worker process: "Caught ValueError in DataLoader worker process 1." and the
    original traceback; a failing ``worker_init_fn`` is reported at the worker's first batch."""

    def __init__(self, worker_id, num_workers, seed, dataset):
        self.info = _worker.WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed,
                                       dataset=dataset)
        self.rng_states = _WorkerRandomStates.seeded(seed)
        self.fetcher = None
        self.init_error = None
        self.active = True

    def start(self, create_fetcher, worker_init_fn):
        """A new epoch: a fresh fetcher (a new pass over an iterable dataset), ``init`` first."""
        self.active = True
        self.init_error = None
        try:
            if worker_init_fn is not None:
                self._run(worker_init_fn, self.info.id)
            self.fetcher = self._run(create_fetcher, self.info.dataset)
        except Exception:  # noqa: BLE001  reported with the first batch, as PyTorch does
            self.init_error = _worker.WorkerError(self.info.id)

    def fetch(self, index):
        error, self.init_error = self.init_error, None
        if error is None:
            try:
                return self._run(self.fetcher.fetch, index)
            except StopIteration:
                raise
            except Exception:  # noqa: BLE001  every other error goes back wrapped
                error = _worker.WorkerError(self.info.id)
        error.reraise()

    def _run(self, function, *args):
        """Call ``function`` as this worker: its worker info and random states in place."""
        main_states = _WorkerRandomStates.current()
        previous = _worker._set_worker_info(self.info)
        self.rng_states.restore()
        try:
            return function(*args)
        finally:
            self.rng_states = _WorkerRandomStates.current()
            main_states.restore()
            _worker._set_worker_info(previous)


class _WorkerRandomStates:
    """The global random streams a worker process has its own copies of: tapegrad's default
    generator, Python's ``random`` and NumPy's legacy global generator (what ``seed_worker``
    recipes reseed), so that drawing or reseeding in a worker never moves the main process's."""

    def __init__(self, tapegrad_state, python_state, numpy_state):
        self.tapegrad_state, self.python_state = tapegrad_state, python_state
        self.numpy_state = numpy_state

    @classmethod
    def seeded(cls, seed):
        """A fresh worker's streams, seeded from ``base_seed + worker_id`` as PyTorch seeds them
        (NumPy's from a 128-bit state derived from that seed)."""
        numpy_seed = np.random.SeedSequence(seed).generate_state(4)
        return cls(random.Generator().manual_seed(seed).get_state(),
                   _python_random.Random(seed).getstate(),
                   np.random.RandomState(numpy_seed).get_state())

    @classmethod
    def current(cls):
        return cls(random.get_rng_state(), _python_random.getstate(), np.random.get_state())

    def restore(self):
        random.set_rng_state(self.tapegrad_state)
        _python_random.setstate(self.python_state)
        np.random.set_state(self.numpy_state)
