"""Turning result rows into ratios and a printed table.

A row is a dict ``{"workload", "impl", "median_s", ...}`` (``iqr_s``, ``samples`` and
``calls_per_sample`` when the runner measured it). Implementations whose name starts with
"tapegrad" are ours; every other implementation is a peer. A ratio is ours ÷ peer on the same
workload: below 1 tapegrad is faster.
"""
__all__ = ["format_other_rows", "format_table", "format_time", "is_ours", "ratios"]


def is_ours(impl):
    return impl.startswith("tapegrad")


def ratios(rows):
    """``[{"workload", "impl", "peer", "ratio"}]`` for every (ours, peer) pair on a workload."""
    timed = [r for r in rows if "median_s" in r]
    result = []
    for ours in (r for r in timed if is_ours(r["impl"])):
        for peer in timed:
            if peer["workload"] == ours["workload"] and not is_ours(peer["impl"]):
                result.append({"workload": ours["workload"], "impl": ours["impl"],
                               "peer": peer["impl"], "ratio": ours["median_s"] / peer["median_s"]})
    return result


def format_table(rows):
    """Median and IQR per (workload, impl), and for our rows one ratio column per peer."""
    timed = [r for r in rows if "median_s" in r]
    peers = sorted({r["impl"] for r in timed if not is_ours(r["impl"])})
    by_pair = {(q["workload"], q["impl"], q["peer"]): q["ratio"] for q in ratios(timed)}
    header = ["workload", "impl", "median", "IQR"] + [f"÷ {p}" for p in peers]
    lines = [header]
    previous = None
    for r in timed:
        cells = [r["workload"] if r["workload"] != previous else "", r["impl"],
                 format_time(r["median_s"]),
                 format_time(r["iqr_s"]) if r.get("iqr_s") is not None else ""]
        for p in peers:
            ratio = by_pair.get((r["workload"], r["impl"], p))
            cells.append(f"{ratio:.2f}×" if ratio is not None else "")
        lines.append(cells)
        previous = r["workload"]
    return _align(lines)


def format_other_rows(rows):
    """Rows that carry no time (e.g. peak memory), one ``key=value`` line each."""
    return "\n".join("  ".join(f"{k}={v}" for k, v in r.items())
                     for r in rows if "median_s" not in r)


def format_time(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _align(lines):
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    text = []
    for line in lines:
        cells = [c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths))]
        text.append("  ".join(cells).rstrip())
    return "\n".join(text)
