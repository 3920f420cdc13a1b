"""Differences found by differential testing of torch.utils.data against PyTorch (fzu):
StackDataset's batches through its datasets' own ``__getitems__`` (and their size check),
RandomSampler and DistributedSampler over an empty dataset, WeightedRandomSampler without weights
(multinomial of empty distributions, and its check order without replacement), the collation of
mixed numpy scalars (promoted as tensor inputs), of int and float subclasses such as IntEnum
labels, and of ``np.matrix`` samples (numpy array subclasses as their plain data), and
``default_convert`` of a ``np.datetime64``."""
import enum

import numpy as np
import pytest

import tapegrad
from tapegrad.utils.data import (DataLoader, DistributedSampler, RandomSampler, StackDataset,
                                 WeightedRandomSampler, default_collate, default_convert)

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _described(value):
    """A batch as plain Python: tensors as (dtype name, shape, values), containers by type."""
    if hasattr(value, "dtype") and hasattr(value, "tolist"):
        return str(value.dtype).split(".")[-1], tuple(value.shape), value.tolist()
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_described(v) for v in value]
    if isinstance(value, dict):
        return {key: _described(v) for key, v in value.items()}
    return value


def _outcome(lib, case):
    try:
        return _described(case(lib))
    except Exception as error:  # noqa: BLE001  the exception is the outcome being compared
        return type(error).__name__, str(error)


def _assert_same(case):
    assert _outcome(tapegrad, case) == _outcome(torch, case)


class _Doubled:
    """A dataset that fetches a batch at once, answering ``short`` items fewer than asked."""

    def __init__(self, short=0):
        self.short = short

    def __getitem__(self, index):
        return index

    def __getitems__(self, indices):
        return [2 * i for i in indices][:len(indices) - self.short]

    def __len__(self):
        return 5


# -- StackDataset ---------------------------------------------------------------------------------

def test_stack_dataset_batches_through_its_datasets_getitems():
    tuples = StackDataset(_Doubled(), [10, 11, 12, 13, 14])
    assert tuples.__getitems__([1, 3]) == [(2, 11), (6, 13)]
    named = StackDataset(a=_Doubled(), b=[10, 11, 12, 13, 14])
    assert named.__getitems__([4]) == [{"a": 8, "b": 14}]
    loader = DataLoader(tuples, batch_size=2)
    assert [_described(batch) for batch in loader][0] == (
        "list", [("int64", (2,), [0, 2]), ("int64", (2,), [10, 11])])


@pytest.mark.parametrize("make", [lambda: StackDataset(_Doubled(short=1), range(5)),
                                  lambda: StackDataset(x=range(5), y=_Doubled(short=1))])
def test_stack_dataset_refuses_a_short_nested_batch(make):
    with pytest.raises(ValueError, match=r"^Nested dataset's output size mismatch\. Expected 2, "
                                         r"got 1$"):
        make().__getitems__([0, 1])


# -- samplers over nothing ------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: list(lib.utils.data.RandomSampler([], num_samples=3)),
    lambda lib: list(lib.utils.data.RandomSampler([], replacement=True, num_samples=3)),
    lambda lib: list(lib.utils.data.RandomSampler([], replacement=True, num_samples=40)),
    lambda lib: list(lib.utils.data.WeightedRandomSampler([], 1)),
    lambda lib: list(lib.utils.data.WeightedRandomSampler([], 2)),
    lambda lib: list(lib.utils.data.WeightedRandomSampler([], 2, replacement=False)),
    lambda lib: list(lib.utils.data.WeightedRandomSampler([0, 0], 3, replacement=False)),
    lambda lib: lib.multinomial(lib.tensor([-1.0, 1.0]), 3),
    lambda lib: lib.multinomial(lib.zeros(2, 0), 1, True),
    lambda lib: lib.multinomial(lib.zeros(0, 0), 1, True),
])
def test_sampling_from_nothing_as_torch(case):
    _assert_same(case)


def test_random_sampler_over_nothing_fails_at_its_first_index():
    with pytest.raises(ZeroDivisionError):
        next(iter(RandomSampler([], num_samples=3)))
    with pytest.raises(RuntimeError, match="^random_ expects 'from' to be less than 'to', but got "
                                           "from=0 >= to=0$"):
        next(iter(RandomSampler([], replacement=True, num_samples=3)))


def test_random_sampler_still_draws_every_index_once_per_pass():
    sampler = RandomSampler(range(5), num_samples=12, generator=tapegrad.Generator().manual_seed(0))
    drawn = list(sampler)
    assert len(drawn) == 12 and sorted(drawn[:5]) == sorted(drawn[5:10]) == list(range(5))
    assert set(drawn[10:]) <= set(range(5)) and len(set(drawn[10:])) == 2


def test_weighted_random_sampler_without_weights_has_no_distribution():
    with pytest.raises(RuntimeError, match=r"^invalid multinomial distribution \(sum of "
                                           r"probabilities <= 0\)$"):
        list(WeightedRandomSampler([], 2))


def test_distributed_sampler_of_an_empty_dataset_is_empty():
    sampler = DistributedSampler([], num_replicas=2, rank=1)
    assert list(sampler) == [] and len(sampler) == 0


# -- collation ------------------------------------------------------------------------------------

class _Label(enum.IntEnum):
    CAT = 1
    DOG = 2


class _Weight(float):
    pass


@needs_torch
@pytest.mark.parametrize("case", [
    lambda lib: lib.utils.data.default_collate([np.float32(1), 2.5]),
    lambda lib: lib.utils.data.default_collate([np.float16(1), np.int64(2)]),
    lambda lib: lib.utils.data.default_collate([np.bool_(True), 2]),
    lambda lib: lib.utils.data.default_collate([_Label.CAT, _Label.DOG]),
    lambda lib: lib.utils.data.default_collate([(_Label.CAT, _Weight(0.5))] * 2),
    lambda lib: lib.tensor([[_Label.DOG, 1.5]]),
    lambda lib: lib.utils.data.default_collate([np.matrix([[1, 2]]), np.matrix([[3, 4]])]),
    lambda lib: lib.from_numpy(np.matrix([[1.0, 2.0]]))[0],
    lambda lib: lib.utils.data.default_convert(np.datetime64("2020-01-01")),
    lambda lib: lib.tensor([np.datetime64("2020-01-01")]),
])
@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix
def test_collation_as_torch(case):
    _assert_same(case)


def test_mixed_numpy_scalars_promote_as_tensor_inputs():
    batch = default_collate([np.float32(1), 2.5])
    assert batch.dtype == tapegrad.float32 and batch.tolist() == [1.0, 2.5]
    assert default_collate([np.float16(1), np.int64(2)]).dtype == tapegrad.float16


def test_int_enum_labels_collate_as_int64():
    labels = default_collate([_Label.CAT, _Label.DOG, _Label.CAT])
    assert labels.dtype == tapegrad.int64 and labels.tolist() == [1, 2, 1]
    assert tapegrad.tensor(_Weight(0.5)).dtype == tapegrad.float32


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_matrix_samples_keep_their_two_dimensions():
    batch = default_collate([np.matrix([[1, 2]]), np.matrix([[3, 4]])])
    assert batch.shape == (2, 1, 2) and batch[1].tolist() == [[3, 4]]


def test_datetime_is_no_sequence_of_numbers():
    with pytest.raises(TypeError, match="^can't convert np.ndarray of type numpy.datetime64"):
        default_convert(np.datetime64("2020-01-01"))
