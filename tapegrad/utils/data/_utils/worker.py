"""What a dataset's code sees while a ``DataLoader`` worker fetches for it.

Workers run in the main process here, one after the other (see ``dataloader``); while worker
``i`` fetches, ``get_worker_info()`` describes it, as in a PyTorch worker process, so datasets
that shard themselves by worker id split their stream the same way.
"""
from dataclasses import dataclass

__all__ = ["WorkerInfo", "get_worker_info"]


@dataclass(frozen=True)
class WorkerInfo:
    id: int
    num_workers: int
    seed: int
    dataset: object


_current = None


def get_worker_info():
    """The ``WorkerInfo`` of the worker fetching now; None in the main process."""
    return _current


def _set_worker_info(info):
    """Make ``info`` (or None) what ``get_worker_info`` returns; gives back the previous one."""
    global _current
    previous, _current = _current, info
    return previous
