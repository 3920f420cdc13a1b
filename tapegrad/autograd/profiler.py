"""``torch.autograd.profiler``: the older interface to the same recorder as ``torch.profiler``
(``with profile() as prof: ...``, then ``prof.key_averages().table()``)."""

from ..profiler import EventList, FunctionEvent, FunctionEventAvg, record_function
from ..profiler._recorder import Recorder

__all__ = ["profile", "record_function", "EventList", "FunctionEvent", "FunctionEventAvg"]


class profile:
    """Record every operation and backward node run inside the ``with`` block (``enabled=False``:
    record nothing)."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False,
                 with_flops=False, profile_memory=False, with_stack=False, with_modules=False,
                 use_kineto=False, use_cpu=True, experimental_config=None, acc_events=False,
                 custom_trace_id_callback=None):
        self.enabled = enabled
        self.record_shapes, self.profile_memory = record_shapes, profile_memory
        self.function_events = None
        self._recorder = None

    def __enter__(self):
        if self.enabled:
            if self._recorder is not None:
                raise RuntimeError("Profiler context manager is not reentrant")
            self._recorder = Recorder(self.record_shapes, self.profile_memory)
            self._recorder.start()
        return self

    def __exit__(self, *exc_info):
        if self._recorder is not None:
            self._recorder.stop()
            self.function_events = self._recorder.result()
            self._recorder = None
        return False

    def _events(self):
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")
        return self.function_events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False):
        return self._events().key_averages(group_by_input_shape, group_by_stack_n,
                                           group_by_overload_name)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False):
        return self._events().table(sort_by, row_limit, max_src_column_width,
                                    max_name_column_width, max_shapes_column_width, header,
                                    top_level_events_only)

    def export_chrome_trace(self, path):
        self._events().export_chrome_trace(path)

    def total_average(self):
        return self._events().total_average()

    @property
    def self_cpu_time_total(self):
        return self._events().self_cpu_time_total

    def __str__(self):
        return self.table()
