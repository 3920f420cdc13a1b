"""Shared-memory tensors and ``tapegrad.multiprocessing``: what one process writes, another
reads; workers' errors reach the parent."""
import multiprocessing as stdlib_multiprocessing
import pickle
import sys

import numpy as np
import pytest

import tapegrad
import tapegrad.multiprocessing as mp
from tapegrad import nn

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fork and descriptor passing")


# -- workers (top level: a spawned process imports them by name) ---------------------------------
def _add_in_place(tensor, amount):
    tensor.add_(amount)


def _train_line(model, steps):
    optimizer = tapegrad.optim.SGD(model.parameters(), lr=0.1)
    x = tapegrad.linspace(-1, 1, 16).view(-1, 1)
    for _ in range(steps):
        optimizer.zero_grad()
        ((model(x) - (3 * x + 1)) ** 2).mean().backward()
        optimizer.step()


def _take_and_add(queue, reply):
    tensor = queue.get()
    reply.put((type(tensor).__name__, tensor.requires_grad, tensor.is_shared()))
    with tapegrad.no_grad():
        tensor.add_(100)
    reply.put("done")


def _raise_in_second(index, message):
    if index == 1:
        raise ValueError(message)


def _exit_with(index, code):
    sys.exit(code)


def _record_index(index, tensor):
    tensor[index] = index + 1


# -- share_memory_ -----------------------------------------------------------------------------
def test_share_memory_moves_the_storage_and_keeps_the_values():
    t = tapegrad.arange(6.0).view(2, 3)
    assert not t.is_shared()
    assert t.share_memory_() is t
    assert t.is_shared()
    assert t.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    address = t.data_ptr()
    t.share_memory_()  # already shared: nothing moves
    assert t.data_ptr() == address


def test_sharing_a_view_moves_its_base_and_keeps_them_aliased():
    base = tapegrad.arange(6.0)
    view = base[2:5]
    view.share_memory_()
    assert base.is_shared() and view.is_shared()
    view[0] = 40.0
    base[4] = 60.0
    assert base.tolist() == [0.0, 1.0, 40.0, 3.0, 60.0, 5.0]
    assert view.tolist() == [40.0, 3.0, 60.0]


def test_module_share_memory_shares_parameters_and_buffers():
    model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    assert model.share_memory() is model
    assert all(p.is_shared() for p in model.parameters())
    assert all(b.is_shared() for b in model.buffers())


def test_a_forked_child_trains_the_parents_shared_weights():
    model = nn.Linear(1, 1)
    with tapegrad.no_grad():
        model.weight.zero_()
        model.bias.zero_()
    model.share_memory()
    context = stdlib_multiprocessing.get_context("fork")
    workers = [context.Process(target=_train_line, args=(model, 60)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert [w.exitcode for w in workers] == [0, 0]
    np.testing.assert_allclose([model.weight.item(), model.bias.item()], [3.0, 1.0], atol=0.02)


def test_without_sharing_a_forked_child_writes_its_own_copy():
    t = tapegrad.zeros(3)
    worker = stdlib_multiprocessing.get_context("fork").Process(target=_add_in_place,
                                                                 args=(t, 1.0))
    worker.start()
    worker.join()
    assert t.tolist() == [0.0, 0.0, 0.0]


# -- tensors sent to other processes -----------------------------------------------------------
def test_a_tensor_sent_through_a_queue_is_shared_with_the_receiver():
    context = mp.get_context("spawn")
    queue, reply = context.Queue(), context.Queue()
    weight = nn.Parameter(tapegrad.arange(4.0))
    worker = context.Process(target=_take_and_add, args=(queue, reply))
    worker.start()
    queue.put(weight)
    assert reply.get(timeout=60) == ("Parameter", True, True)
    assert reply.get(timeout=60) == "done"
    worker.join()
    assert weight.is_shared()  # sending it moved it
    assert weight.tolist() == [100.0, 101.0, 102.0, 103.0]


def test_a_tensor_passed_to_a_spawned_process_is_shared():
    t = tapegrad.zeros(2)
    mp.spawn(_record_index, args=(t,), nprocs=2)
    assert t.tolist() == [1.0, 2.0]


def test_a_non_leaf_that_requires_grad_is_refused():
    from multiprocessing.reduction import ForkingPickler
    with pytest.raises(RuntimeError, match="Cowardly refusing to serialize non-leaf tensor"):
        ForkingPickler.dumps(tapegrad.ones(2, requires_grad=True) * 2)


def test_ordinary_pickling_still_copies():
    t = tapegrad.arange(3.0).share_memory_()
    copy = pickle.loads(pickle.dumps(t))
    assert copy.tolist() == [0.0, 1.0, 2.0] and not copy.is_shared()


# -- spawn -------------------------------------------------------------------------------------
def test_spawn_raises_a_workers_exception_with_its_traceback():
    with pytest.raises(mp.ProcessRaisedException) as info:
        mp.spawn(_raise_in_second, args=("bad worker",), nprocs=2)
    lines = str(info.value).splitlines()
    assert lines[2] == "-- Process 1 terminated with the following error:"
    assert lines[3] == "Traceback (most recent call last):"
    assert lines[-1] == "ValueError: bad worker"
    assert info.value.error_index == 1


def test_spawn_reports_an_exit_code():
    with pytest.raises(mp.ProcessExitedException, match="process 0 terminated with exit code 3"):
        mp.spawn(_exit_with, args=(3,), nprocs=1)


def test_start_processes_without_join_returns_the_context():
    context = mp.start_processes(_exit_with, args=(0,), nprocs=2, join=False,
                                 start_method="fork")
    assert len(context.pids()) == 2
    while not context.join():
        pass
    assert context.join()


def test_sharing_strategies():
    assert mp.get_sharing_strategy() in mp.get_all_sharing_strategies()
    with pytest.raises(AssertionError, match="invalid sharing strategy 'mmap'"):
        mp.set_sharing_strategy("mmap")


def test_pin_memory_is_refused_as_in_a_cpu_only_build():
    with pytest.raises(RuntimeError, match="Cannot access accelerator device when none is "
                                           "available."):
        tapegrad.ones(2).pin_memory()
    assert not tapegrad.ones(2).is_pinned()


def test_same_behaviour_as_pytorch():
    torch = pytest.importorskip("torch")
    for lib in (torch, tapegrad):
        t = lib.arange(3.0)
        assert not t.is_shared()
        assert t.share_memory_().is_shared()
    assert sorted(torch.multiprocessing.get_all_sharing_strategies()) == \
        sorted(mp.get_all_sharing_strategies())
    assert set(torch.multiprocessing.__all__) <= set(mp.__all__) | {
        "SpawnContext", "ENV_VAR_PARALLEL_START"}
