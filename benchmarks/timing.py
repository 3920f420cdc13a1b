"""Timing several implementations of one job, interleaved, on a shared and noisy machine.

Each implementation's step is first calibrated to a number of calls per sample (so a 2 µs step is
timed over thousands of calls and a 20 ms step over a few). Then samples are taken round by round,
one sample of every implementation per round, in a freshly shuffled order: drift on the machine
(another process, frequency changes) hits all implementations alike instead of whichever happened
to run last. The garbage collector stays on, as in real use: collecting is part of the cost of
allocating many Python objects.

Before each sample the runner pauses (``SETTLE_S``) and makes one untimed call. Interleaving
alone is unfair to whoever runs second: after a matrix product OpenBLAS (numpy's BLAS) keeps its
worker threads spinning for about 2**28 cycles, a tenth of a second, and on two cores they take
the cores PyTorch's own threads want. Unsettled, PyTorch's small-MLP step measured 750-1240 µs
next to tapegrad and numpy against 340 µs alone; settled, 365-380 µs.
"""
import random
import time
from dataclasses import dataclass

import numpy as np

__all__ = ["FULL", "QUICK", "SETTLE_S", "Stats", "measure", "settle", "timed_rows"]

# Samples per implementation, and the shortest a sample may last (seconds).
FULL = {"repeat": 21, "sample_s": 0.05}
QUICK = {"repeat": 5, "sample_s": 0.01}  # --quick: a fast, rougher run
SETTLE_S = 0.15  # the pause before a sample, for other implementations' spinning threads


@dataclass(frozen=True)
class Stats:
    """Seconds per call: the median over samples and the interquartile range around it."""

    median_s: float
    iqr_s: float
    samples: int
    calls_per_sample: int


def measure(steps, *, repeat, sample_s, settle_s=SETTLE_S, seed=0):
    """Time every ``steps[name]()`` (a no-argument callable) and return ``{name: Stats}``."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    calls = {name: _calibrate(step, sample_s) for name, step in steps.items()}
    times = {name: [] for name in steps}
    order = list(steps)
    shuffle = random.Random(seed).shuffle
    for _ in range(repeat):
        shuffle(order)
        for name in order:
            settle(steps[name], settle_s)
            times[name].append(_sample(steps[name], calls[name]))
    return {name: _stats(times[name], calls[name]) for name in steps}


def timed_rows(workload, stats):
    """``measure``'s result as result rows (the format of ``benchmarks/README.md``)."""
    return [{"workload": workload, "impl": impl, "median_s": s.median_s, "iqr_s": s.iqr_s,
             "samples": s.samples, "calls_per_sample": s.calls_per_sample}
            for impl, s in stats.items()]


def _calibrate(step, sample_s):
    """Calls per sample so that one sample lasts at least ``sample_s`` (one call warms up)."""
    step()
    calls = 1
    while True:
        elapsed = _sample(step, calls) * calls
        if elapsed >= sample_s:
            return calls
        calls = max(calls * 2, int(calls * sample_s / max(elapsed, 1e-9) * 1.1))


def settle(step, seconds=SETTLE_S):
    """Let threads other implementations left spinning go idle, then warm ``step`` up again."""
    time.sleep(seconds)
    step()


def _sample(step, calls):
    start = time.perf_counter()
    for _ in range(calls):
        step()
    return (time.perf_counter() - start) / calls


def _stats(times, calls):
    q1, median, q3 = np.percentile(times, [25, 50, 75])
    return Stats(float(median), float(q3 - q1), len(times), calls)
