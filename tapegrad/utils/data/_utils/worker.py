"""What a dataset's code sees while a ``DataLoader`` worker fetches for it.

Workers run in the main process here, one after the other (see ``dataloader``); while worker
``i`` fetches, ``get_worker_info()`` describes it, as in a PyTorch worker process, so datasets
that shard themselves by worker id split their stream the same way.
"""
import sys
import traceback
from dataclasses import dataclass

__all__ = ["WorkerInfo", "get_worker_info"]


@dataclass(frozen=True, slots=True)
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


class WorkerError:
    """An exception raised by a worker's code (dataset, collate_fn, worker_init_fn), kept as
    PyTorch's ``ExceptionWrapper`` keeps it to send it to the main process: its type and the
    formatted traceback, raised again by ``reraise`` under the message PyTorch gives it."""

    def __init__(self, worker_id):
        exc_type, exc_value, exc_traceback = sys.exc_info()
        self.exc_type = exc_type
        self.exc_msg = "".join(traceback.format_exception(exc_type, exc_value, exc_traceback))
        self.where = f"in DataLoader worker process {worker_id}"

    def reraise(self):
        """The same type of exception, its message naming the worker and holding the original
        traceback; a RuntimeError if the type cannot be built from one message."""
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = _KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except Exception:  # noqa: BLE001  any failure to rebuild it: PyTorch's fallback
            raise RuntimeError(msg) from None
        raise exception


class _KeyErrorMessage(str):
    """A KeyError's message printed as it is (KeyError would print its repr, escapes and all)."""

    __slots__ = ()

    def __repr__(self):
        return self
