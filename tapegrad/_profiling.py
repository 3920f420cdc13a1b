"""Where the profiler listens (``tapegrad.profiler`` sets ``active``).

Kept below the engine and the compiler, which report to it, so that neither imports the profiler.
While nothing profiles, each report costs one ``is None`` test.
"""

active = None  # the running profiler's recorder, or None


class Range:
    """``with Range(name): ...`` records one event named ``name`` while a profiler runs (in
    ``recorder``, if given, else in the innermost running profiler)."""

    __slots__ = ("name", "event", "recorder")

    def __init__(self, name, recorder=None):
        self.name, self.event, self.recorder = name, None, recorder

    def __enter__(self):
        recorder = self.recorder or active
        if recorder is not None:
            self.event = recorder.open(self.name, None)
        return self

    def __exit__(self, *exc_info):
        if self.event is not None:
            self.event.recorder.close(self.event)
            self.event = None
