"""``torch.distributed``: tapegrad has no process groups and no collective communication.

The module exists so that training scripts whose distributed code sits behind ``if ddp:`` import
and run single-process. ``is_available()`` answers False (honestly: nothing here can communicate),
``is_initialized()`` False; ``init_process_group`` raises; the functions that need a process group
raise PyTorch's "not initialized" errors.
"""
import enum

__all__ = ["is_available", "is_initialized", "is_torchelastic_launched", "is_nccl_available",
           "is_gloo_available", "is_mpi_available", "init_process_group",
           "destroy_process_group", "get_rank", "get_world_size", "get_backend", "barrier",
           "all_reduce", "reduce", "broadcast", "all_gather", "gather", "scatter",
           "reduce_scatter", "ReduceOp"]

_UNAVAILABLE = ("tapegrad has no distributed support (no process groups, no collective "
                "communication): run a single process")
_NOT_INITIALIZED = ("Default process group has not been initialized, please make sure to call "
                    "init_process_group.")


class ReduceOp(enum.IntEnum):
    """The reductions of the collectives (``dist.ReduceOp.SUM`` …)."""

    SUM = 0
    AVG = 1
    PRODUCT = 2
    MIN = 3
    MAX = 4
    BAND = 5
    BOR = 6
    BXOR = 7
    PREMUL_SUM = 8
    UNUSED = 9

    def __repr__(self):
        return f"<RedOpType.{self.name}: {self.value}>"


def is_available():
    return False


def is_initialized():
    return False


def is_torchelastic_launched():
    return False


def is_nccl_available():
    return False


def is_gloo_available():
    return False


def is_mpi_available():
    return False


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name="", pg_options=None, device_id=None):
    raise RuntimeError(_UNAVAILABLE)


def destroy_process_group(group=None):
    raise AssertionError("Process group cannot be None")


def _needs_group(*args, **kwargs):
    raise ValueError(_NOT_INITIALIZED)


get_rank = get_world_size = get_backend = barrier = _needs_group
all_reduce = reduce = broadcast = all_gather = gather = scatter = reduce_scatter = _needs_group
