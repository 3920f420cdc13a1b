"""Where tapegrad's eager time goes: cProfile over a workload's tapegrad step.

``python -m benchmarks.hotspots tiny_graph mlp_small`` runs each workload's tapegrad step under
cProfile for a few seconds and prints the tapegrad functions with the largest cumulative share of
the run, then the functions (any library's, builtins included) with the largest own time. cProfile
adds a fixed cost to every Python call, so it overstates small functions: use it to find the hot
path, and ``python -m benchmarks`` to measure a change.
"""
import argparse
import cProfile
import os
import pstats
import time

from .workloads import WORKLOADS

__all__ = ["format_hotspots", "profile_workload"]

PACKAGE_DIR = os.sep + "tapegrad" + os.sep


def profile_workload(name, seconds=2.0, impl="tapegrad"):
    """``pstats.Stats`` of calling the workload's step repeatedly for about ``seconds``."""
    step = WORKLOADS[name].build(impl)
    step()  # warm up outside the profile
    profiler = cProfile.Profile()
    deadline = time.perf_counter() + seconds
    calls = 0
    profiler.enable()
    while time.perf_counter() < deadline:
        step()
        calls += 1
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.calls = calls
    return stats


def format_hotspots(stats, top=15):
    """Two ranked lists: tapegrad functions by cumulative share, all functions by own share."""
    entries = stats.stats  # (file, line, function) -> (primitive calls, calls, own, cumulative, _)
    total = sum(own for _, _, own, _, _ in entries.values())
    per_step = total / stats.calls
    lines = [f"{stats.calls} steps, {per_step * 1e6:.1f} µs per step under the profiler"]
    ours = sorted(((cum, key, calls) for key, (_, calls, _, cum, _) in entries.items()
                   if PACKAGE_DIR in key[0]), reverse=True)[:top]
    lines.append("  cumulative  calls/step  tapegrad function")
    lines += [f"  {cum / total:9.1%}  {calls / stats.calls:10.1f}  {_label(key)}"
              for cum, key, calls in ours]
    own = sorted(((own, key, calls) for key, (_, calls, own, _, _) in entries.items()),
                 reverse=True)[:top]
    lines.append("  own time    calls/step  function (any)")
    lines += [f"  {t / total:9.1%}  {calls / stats.calls:10.1f}  {_label(key)}"
              for t, key, calls in own]
    return "\n".join(lines)


def _label(key):
    filename, line, function = key
    if filename == "~":
        return function  # a builtin, e.g. <built-in method numpy.asarray>
    marker = filename.rfind(PACKAGE_DIR)
    short = filename[marker + 1:] if marker >= 0 else os.path.basename(filename)
    return f"{function} ({short}:{line})"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hotspots", description=__doc__)
    parser.add_argument("workloads", nargs="*", default=["tiny_graph", "mlp_small"],
                        choices=list(WORKLOADS), metavar="WORKLOAD")
    parser.add_argument("--seconds", type=float, default=2.0, help="profiled time per workload")
    parser.add_argument("--top", type=int, default=15, help="functions per list")
    args = parser.parse_args(argv)
    for name in args.workloads:
        print(f"== {name}: {WORKLOADS[name].title}")
        print(format_hotspots(profile_workload(name, args.seconds), args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
