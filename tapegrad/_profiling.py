"""Where the profiler listens (``tapegrad.profiler`` sets ``active``).

Kept below the engine and the compiler, which report to it, so that neither imports the profiler.
While nothing profiles, each report costs one ``is None`` test.
"""

active = None  # the running profiler's recorder, or None


class Range:
    """``with Range(name): ...`` records one event named ``name`` while a profiler runs."""

    __slots__ = ("name", "event")

    def __init__(self, name):
        self.name, self.event = name, None

    def __enter__(self):
        if active is not None:
            self.event = active.open(self.name, None)
        return self

    def __exit__(self, *exc_info):
        if self.event is not None:
            self.event.recorder.close(self.event)
            self.event = None
