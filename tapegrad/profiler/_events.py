"""What a profile holds: timed events, their per-name averages, and PyTorch's summary table."""

import json
import os

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg"]


def format_time(time_us):
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def format_memory(nbytes):
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if abs(nbytes) >= size:
            return f"{nbytes / size:.2f} {unit}"
    return f"{nbytes} B"


def _format_share(time_us, total_us):
    return "NaN" if total_us == 0 else f"{time_us * 100.0 / total_us:.2f}%"


class _Timings:
    """The derived figures both kinds of event show, in microseconds, and their text."""

    # No accelerator: its figures are zero (a ``sort_by="cuda_time_total"`` still sorts).
    device_time_total = self_device_time_total = device_time = 0.0
    cuda_time_total = self_cuda_time_total = cuda_time = 0.0
    device_memory_usage = self_device_memory_usage = 0
    flops = 0
    node_id = -1
    is_async = False

    @property
    def cpu_time(self):
        """Average CPU time per call."""
        return self.cpu_time_total / self.count if self.count else 0.0

    @property
    def cpu_time_str(self):
        return format_time(self.cpu_time)

    @property
    def cpu_time_total_str(self):
        return format_time(self.cpu_time_total)

    @property
    def self_cpu_time_total_str(self):
        return format_time(self.self_cpu_time_total)


class FunctionEvent(_Timings):
    """One call of an operation, a backward node or a ``record_function`` range."""

    count = 1

    def __init__(self, recorder, id, name, thread, start_ns, input_shapes, parent):
        self.recorder = recorder
        self.id, self.name, self.thread = id, name, thread
        self.start_ns, self.end_ns = start_ns, None
        self.input_shapes = input_shapes
        self.cpu_parent = parent
        self.cpu_children = []
        self.self_memory = 0  # bytes of the new arrays the operation itself returned

    @property
    def key(self):
        return self.name

    @property
    def cpu_time_total(self):
        return (self.end_ns - self.start_ns) / 1e3

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(child.cpu_time_total for child in self.cpu_children)

    @property
    def cpu_memory_usage(self):
        return self.self_memory + sum(child.cpu_memory_usage for child in self.cpu_children)

    @property
    def self_cpu_memory_usage(self):
        return self.self_memory

    def __repr__(self):
        return (f"<FunctionEvent id={self.id} name={self.name} "
                f"cpu_time={self.cpu_time_total_str} thread={self.thread} "
                f"input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage}>")


class FunctionEventAvg(_Timings):
    """The events of one name (and input shapes, if grouped by them), summed."""

    def __init__(self, key, input_shapes):
        self.key, self.input_shapes = key, input_shapes
        self.count = 0
        self.cpu_time_total = self.self_cpu_time_total = 0.0
        self.cpu_memory_usage = self.self_cpu_memory_usage = 0
        self.cpu_parent = None  # the first event's parent (``top_level_events_only``)
        self.cpu_children = []

    def add(self, event):
        if not self.count:
            self.cpu_parent = event.cpu_parent
        self.count += event.count
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total
        self.cpu_memory_usage += event.cpu_memory_usage
        self.self_cpu_memory_usage += event.self_cpu_memory_usage
        return self

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
                f"cpu_time={self.cpu_time_str} input_shapes={self.input_shapes} "
                f"cpu_memory_usage={self.cpu_memory_usage}>")


class EventList(list):
    """A list of events that can summarise itself."""

    def __init__(self, events=(), profile_memory=False):
        super().__init__(events)
        self._profile_memory = profile_memory

    @property
    def self_cpu_time_total(self):
        return sum(event.self_cpu_time_total for event in self)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0,
                     group_by_overload_name=False):
        """One ``FunctionEventAvg`` per name (per name and input shapes), in first-seen order."""
        groups = {}
        for event in self:
            key = (event.key, str(event.input_shapes)) if group_by_input_shape else event.key
            if key not in groups:
                groups[key] = FunctionEventAvg(
                    event.key, event.input_shapes if group_by_input_shape else None)
            groups[key].add(event)
        return EventList(groups.values(), self._profile_memory)

    def total_average(self):
        total = FunctionEventAvg("Total", None)
        for event in self:
            total.add(event)
        return total

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False, time_unit=None):
        """PyTorch's summary table: per row, self and total CPU time (with their shares of
        all the self time), average time per call and number of calls."""
        return _table(self, sort_by, row_limit, max_name_column_width, max_shapes_column_width,
                      header, top_level_events_only, time_unit, self._profile_memory)

    def export_chrome_trace(self, path):
        """Write the events in the Chrome trace format (chrome://tracing, Perfetto)."""
        trace = {"schemaVersion": 1, "traceEvents": [_trace_event(e) for e in self]}
        with open(path, "w", encoding="utf-8") as file:
            json.dump(trace, file)

    def __str__(self):
        return self.table()


def _trace_event(event):
    args = {} if not event.input_shapes else {"Input Dims": event.input_shapes}
    return {"ph": "X", "cat": "cpu_op" if event.name.startswith("aten::") else "user_annotation",
            "name": event.name, "pid": os.getpid(), "tid": event.thread,
            "ts": event.start_ns / 1e3, "dur": event.cpu_time_total, "args": args}


def _time_text(time_us, unit):
    scale = {"s": 1e6, "ms": 1e3, "us": 1.0}.get(unit)
    return format_time(time_us) if scale is None else f"{time_us / scale:.3f}{unit}"


def _table(events, sort_by, row_limit, max_name_width, max_shapes_width, header,
           top_level_only, time_unit, profile_memory):
    if not events:
        return ""
    if sort_by is not None:
        attribute = sort_by.replace("cuda", "device").replace("xpu", "device")
        events = sorted(events, key=lambda event: getattr(event, attribute), reverse=True)
    name_width = max(len(event.key) for event in events) + 4
    if max_name_width is not None:
        name_width = min(name_width, max_name_width)
    headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if profile_memory:
        headers += ["CPU Mem", "Self CPU Mem"]
    headers.append("# of Calls")
    widths = [name_width] + [12] * (len(headers) - 1)
    if any(event.input_shapes for event in events):
        headers.append("Input Shapes")
        shapes_width = max(len(str(event.input_shapes)) for event in events) + 4
        widths.append(shapes_width if max_shapes_width is None else
                      min(shapes_width, max_shapes_width))
    row_format = "".join(f"{{:>{width}}}  " for width in widths)
    separator = "".join("-" * width + "  " for width in widths)
    line_length = sum(width + 2 for width in widths) - 2
    total = sum(event.self_cpu_time_total for event in events)

    lines = []
    if header is not None:
        lines += ["=" * line_length, header]
    if top_level_only:
        lines += ["=" * line_length, "This report only display top-level ops statistics"]
    lines += [separator, row_format.format(*headers), separator]
    shown = 0
    for event in events:
        if shown == row_limit:
            break
        if top_level_only and event.cpu_parent is not None:
            continue
        shown += 1
        name = event.key
        if max_name_width is not None and len(name) >= max_name_width - 3:
            name = name[:max_name_width - 3] + "..."
        row = [name, _format_share(event.self_cpu_time_total, total),
               _time_text(event.self_cpu_time_total, time_unit),
               _format_share(event.cpu_time_total, total),
               _time_text(event.cpu_time_total, time_unit),
               _time_text(event.cpu_time, time_unit)]
        if profile_memory:
            row += [format_memory(event.cpu_memory_usage),
                    format_memory(event.self_cpu_memory_usage)]
        row.append(event.count)
        if len(widths) > len(row):
            row.append(str(event.input_shapes)[:widths[-1]])
        lines.append(row_format.format(*row))
    lines += [separator, f"Self CPU time total: {_time_text(total, time_unit)}"]
    return "".join(line + "\n" for line in lines)
