"""Collecting events: the recorder sits in the op table's interceptor slot (every primitive call
passes through it) and is told by the backward engine which node it evaluates."""

import threading
import time

from .. import _profiling
from ..ops import registry
from ..tensor import Tensor
from ._events import EventList, FunctionEvent

# tapegrad's primitives that are variants of one ATen operation, named by what they add
_VARIANT_SUFFIXES = ("_scalar_base", "_scalar_other", "_scalar_self", "_scalar", "_tensor",
                     "_alpha", "_all", "_dim", "_accumulate")
_RENAMED = {"sum_to": "sum", "copy": "copy_"}


def op_name(primitive, inplace=False):
    """The ``aten::`` name PyTorch's profiler shows for a primitive (its in-place form:
    ``aten::add_``)."""
    name = _RENAMED.get(primitive.name, primitive.name)
    for suffix in _VARIANT_SUFFIXES:
        if name.endswith(suffix) and name != suffix.lstrip("_"):
            name = name[:-len(suffix)]
            break
    return "aten::" + name + ("_" if inplace and not name.endswith("_") else "")


def _node_name(node):
    name = type(node).__name__
    return "torch::autograd::AccumulateGrad" if name == "AccumulateGrad" else name


def _shape(value):
    return list(value.shape) if isinstance(value, Tensor) else []


def _new_bytes(result, inputs):
    """Bytes of the arrays an operation made (views of its inputs made none)."""
    results = result if isinstance(result, (tuple, list)) else (result,)
    return sum(r._array.nbytes for r in results
               if isinstance(r, Tensor) and r._base is None
               and not any(r._array is t._array for t in inputs if isinstance(t, Tensor)))


class Recorder:
    """The events of one recording: opened and closed in nested order, per thread."""

    def __init__(self, record_shapes=False, profile_memory=False):
        self.record_shapes, self.profile_memory = record_shapes, profile_memory
        self.events = []
        self._open = threading.local()
        self._outer = None  # (interceptor, recorder) in place when this one started

    # -- switching on and off ------------------------------------------------------------------
    def start(self):
        self._outer = (registry.set_interceptor(self), _profiling.active)
        _profiling.active = self
        registry.inplace_observers.append(self.observe_inplace)

    def stop(self):
        for event in reversed(getattr(self._open, "stack", ())):
            self.close(event)
        interceptor, outer = self._outer
        registry.set_interceptor(interceptor)
        _profiling.active = outer
        registry.inplace_observers.remove(self.observe_inplace)

    def result(self):
        """The finished events, in the order they started."""
        return EventList(sorted((e for e in self.events if e.end_ns is not None),
                                key=lambda e: (e.start_ns, e.id)), self.profile_memory)

    # -- events --------------------------------------------------------------------------------
    def open(self, name, input_shapes):
        stack = self._open.__dict__.setdefault("stack", [])
        parent = stack[-1] if stack else None
        event = FunctionEvent(self, len(self.events), name, threading.get_ident(),
                              time.perf_counter_ns(), input_shapes or [], parent)
        if parent is not None:
            parent.cpu_children.append(event)
        self.events.append(event)
        stack.append(event)
        return event

    def close(self, event):
        event.end_ns = time.perf_counter_ns()
        stack = self._open.stack
        while stack and stack.pop() is not event:  # (an inner range left open by an error)
            pass

    # -- what reports to it ----------------------------------------------------------------------
    def observe_inplace(self, primitive, target, others, params):
        """An in-place write (it bypasses the op table) is one event: ``aten::add_``."""
        return _profiling.Range(op_name(primitive, inplace=True), self)

    def __call__(self, primitive, inputs, params):
        """The interceptor: time one primitive call (the outer interceptor, if any, runs it)."""
        shapes = [_shape(t) for t in inputs] if self.record_shapes else None
        event = self.open(op_name(primitive), shapes)
        try:
            outer = self._outer[0]
            result = (outer(primitive, inputs, params) if outer is not None
                      else primitive.apply(inputs, params))
            if self.profile_memory:
                event.self_memory = _new_bytes(result, inputs)
            return result
        finally:
            self.close(event)

    def record_inplace(self, primitive, target, others, params):
        outer = self._outer[0]
        if outer is not None:
            outer.record_inplace(primitive, target, others, params)

    def node_started(self, node, previous):
        """The engine moves on to ``node`` (None: the walk ended): the previous node's events
        close, ``node``'s open, as PyTorch's ``evaluate_function`` and the node's own range."""
        if previous is not None:
            self.close(previous[1])
            self.close(previous[0])
        if node is None:
            return None
        name = _node_name(node)
        return (self.open("autograd::engine::evaluate_function: " + name, None),
                self.open(name, None))
