"""``torch.profiler``: where the time of a forward and backward pass goes, operation by operation.

While a ``profile`` records, every primitive call of the op table is an event named as PyTorch
names it (``aten::addmm``), every node the backward engine evaluates is one
(``autograd::engine::evaluate_function: AddmmBackward0``, with the operations of its rule inside),
and so is every ``record_function`` range and every compiled kernel launch (``CompiledFunction``).
``key_averages().table()`` prints PyTorch's summary. Only the CPU is profiled; ``with_stack``,
``with_flops`` and ``with_modules`` are accepted and record nothing more.
"""

import enum
import gzip
import os
import socket
import time
import warnings

from .. import _profiling
from ._events import EventList, FunctionEvent, FunctionEventAvg
from ._recorder import Recorder

__all__ = ["ProfilerAction", "ProfilerActivity", "profile", "record_function", "schedule",
           "supported_activities", "tensorboard_trace_handler", "EventList", "FunctionEvent",
           "FunctionEventAvg"]


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 2
    XPU = 3
    MTIA = 4
    HPU = 5
    PrivateUse1 = 6

    def __repr__(self):
        return f"<ProfilerActivity.{self.name}: {self.value}>"


def supported_activities():
    """What can be profiled here: the CPU."""
    return {ProfilerActivity.CPU}


class ProfilerAction(enum.Enum):
    """What a ``schedule`` asks of the profiler at a step."""
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    """Steps to skip, then cycles of ``wait`` idle, ``warmup`` recorded-and-discarded and
    ``active`` recorded steps; the last active step of a cycle hands the trace to
    ``on_trace_ready``. ``repeat=0``: cycles without end."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup={warmup} "
            f"(need >= 0), active={active} (need > 0), repeat={repeat} (need >= 0), "
            f"skip_first={skip_first} (need >= 0).")
    if warmup == 0:
        warnings.warn("Profiler won't be using warmup, this can skew profiler results",
                      stacklevel=2)

    def action(step):
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait:  # the first cycle starts without its wait
            step += wait
        cycle = wait + warmup + active
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        position = step % cycle
        if position < wait:
            return ProfilerAction.NONE
        if position < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if position < cycle - 1 else ProfilerAction.RECORD_AND_SAVE
    return action


def _always_record(step):
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False,
                              use_python_export=False):
    """An ``on_trace_ready`` that writes each trace to ``dir_name`` as
    ``<worker>.<milliseconds>.pt.trace.json`` (``.gz`` with ``use_gzip``), for TensorBoard's
    profiler plugin."""
    def handler(prof):
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        path = os.path.join(dir_name, f"{worker}.{time.time_ns() // 1_000_000}.pt.trace.json")
        prof.export_chrome_trace(path)
        if not use_gzip:
            return
        with open(path, "rb") as plain, gzip.open(path + ".gz", "wb") as packed:
            packed.write(plain.read())
        os.remove(path)
    return handler


class profile:
    """Record what runs while it is active (``with profile(...) as prof:``, or ``start``/``stop``),
    following ``schedule`` over ``step()`` calls when one is given."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes=False, profile_memory=False, with_stack=False, with_flops=False,
                 with_modules=False, experimental_config=None, execution_trace_observer=None,
                 acc_events=False, use_cuda=None, custom_trace_id_callback=None):
        self.activities = set(activities) if activities else supported_activities()
        self.schedule = schedule or _always_record
        self.on_trace_ready = on_trace_ready
        self.record_shapes, self.profile_memory = record_shapes, profile_memory
        self.with_stack, self.with_flops, self.with_modules = with_stack, with_flops, with_modules
        self.acc_events = acc_events
        self.step_num = 0
        self.current_action = None
        self._recorder = None
        self._step_range = None
        self._events = None
        self._metadata = {}

    # -- the context manager and the schedule ----------------------------------------------------
    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc_info):
        self.stop()

    def start(self):
        self.step_num = 0
        self.current_action = self.schedule(0)
        if self._records(self.current_action):
            self._begin()

    def stop(self):
        if self._recorder is not None:
            self._end(save=self.current_action is not ProfilerAction.WARMUP)
        self.current_action = None

    def step(self):
        """The end of a training step: move along the schedule."""
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        if previous is ProfilerAction.WARMUP and self._records(self.current_action) and \
                self.current_action is not ProfilerAction.WARMUP:
            self._end(save=False)  # the warm-up's events are discarded
            self._begin()
        elif previous is ProfilerAction.RECORD_AND_SAVE or (
                previous in (ProfilerAction.RECORD, ProfilerAction.WARMUP)
                and self.current_action is ProfilerAction.NONE):
            if previous is not ProfilerAction.RECORD_AND_SAVE:
                warnings.warn(f"Incorrect schedule: {previous.name} followed by NONE",
                              stacklevel=2)
            self._end(save=previous is not ProfilerAction.WARMUP)
            if self._records(self.current_action):
                self._begin()
        elif previous is ProfilerAction.NONE and self._records(self.current_action):
            self._begin()
        elif self._recorder is not None:
            self._mark_step()

    @staticmethod
    def _records(action):
        return action is not None and action is not ProfilerAction.NONE

    def _begin(self):
        if self._events is not None and not self.acc_events:
            warnings.warn("Warning: Profiler clears events at the end of each cycle. Only events "
                          "from the current cycle will be reported. To keep events across "
                          "cycles, set acc_events=True.", stacklevel=3)
        self._recorder = Recorder(self.record_shapes, self.profile_memory)
        self._recorder.start()
        self._mark_step()

    def _mark_step(self):
        """While recording, each step is a range ``ProfilerStep*``, as when PyTorch follows a
        schedule."""
        if self.schedule is _always_record and self.step_num == 0:
            return  # no step() calls expected: no step ranges, as in PyTorch
        if self._step_range is not None:
            self._step_range.__exit__(None, None, None)
        self._step_range = _profiling.Range("ProfilerStep*").__enter__()

    def _end(self, save):
        recorder, self._recorder = self._recorder, None
        self._step_range = None
        recorder.stop()
        if save:
            events = recorder.result()
            if self.acc_events and self._events is not None:
                events = EventList([*self._events, *events], self.profile_memory)
            self._events = events
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)

    # -- results -------------------------------------------------------------------------------
    def events(self):
        """The events of the last saved recording, in the order they started."""
        if self._events is None:
            raise AssertionError("Expected profiling results")  # PyTorch's assertion
        return self._events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False):
        if group_by_input_shape and not self.record_shapes:
            raise AssertionError("Expected record_shapes to be True in profiler for input shape "
                                 "grouping")
        return self.events().key_averages(group_by_input_shape, group_by_stack_n,
                                          group_by_overload_name)

    def export_chrome_trace(self, path):
        self.events().export_chrome_trace(path)

    def add_metadata(self, key, value):
        self._metadata[key] = value

    def add_metadata_json(self, key, value):
        self._metadata[key] = value


class record_function:
    """A named range of the profile: ``with record_function("forward"): ...`` or as a decorator.
    Costs nothing while no profiler records."""

    def __init__(self, name, args=None):
        self.name, self.args = name, args
        self._range = None

    def __enter__(self):
        self._range = _profiling.Range(self.name).__enter__()
        return self

    def __exit__(self, *exc_info):
        self._range.__exit__(*exc_info)
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            with record_function(self.name, self.args):
                return fn(*args, **kwargs)
        return wrapped
