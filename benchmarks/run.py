"""The benchmark runner: ``python -m benchmarks`` or ``python benchmarks/run.py``.

For each workload it first checks that all implementations agree on one step, then times them
interleaved in one process (``benchmarks.timing``), prints medians, IQRs and ratios (tapegrad ÷
peer) with a line describing the machine, and optionally writes everything as JSON.

Other benchmark modules join the run when they exist: a module in ``EXTRA_SUITES`` exposes
``run(**options)`` returning rows in the same format (see ``benchmarks/README.md``).
"""
import argparse
import datetime
import importlib
import inspect
import json
import sys
import traceback
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import machine
from benchmarks.check import check_workload
from benchmarks.report import format_other_rows, format_table, ratios
from benchmarks.timing import FULL, QUICK, measure, timed_rows
from benchmarks.workloads import IMPLEMENTATIONS, WORKLOADS

EXTRA_SUITES = ("overhead", "compiled", "checkpoint_memory")


def main(argv=None):
    """Exit status 0, or 1 when an implementation disagreed or raised, or a suite failed."""
    args = _parser().parse_args(argv)
    eager = [WORKLOADS[name] for name in (args.workloads or WORKLOADS) if name in WORKLOADS]
    impls = [i for i in (args.impls or IMPLEMENTATIONS) if i in IMPLEMENTATIONS]
    if args.check:
        return _check(eager, impls, args.size)

    settings = QUICK if args.quick else FULL
    repeat = args.repeat or settings["repeat"]
    rows, notes, ok = run_eager(eager, impls, args.size, repeat, settings["sample_s"])
    for suite in EXTRA_SUITES:
        extra_rows, extra_notes, extra_ok = _run_extra(suite, args, repeat)
        rows, notes, ok = rows + extra_rows, notes + extra_notes, ok and extra_ok
    notes += _unmatched(args, rows)

    info = machine.describe()
    print(format_table(rows))
    other = format_other_rows(rows)
    if other:
        print("\n" + other)
    for note in notes:
        print(f"note: {note}")
    print(machine.summary_line(info))
    if args.json:
        _write_json(args, repeat, info, rows, notes)
    return 0 if ok else 1


def run_eager(workloads, impls, size, repeat, sample_s):
    """Time every workload × implementation that runs here and agrees with the reference.

    Returns ``(rows, notes, ok)``: notes say what was skipped or disagreed; ``ok`` is False if
    anything disagreed or raised.
    """
    rows, notes, ok = [], [], True
    for workload in workloads:
        agreeing = []
        for result in check_workload(workload, impls, size):
            if result.ok:
                agreeing.append(result.impl)
            elif result.ok is None:
                notes.append(f"{workload.name} / {result.impl}: {result.detail}")
            else:
                notes.append(f"{workload.name} / {result.impl}: {result.detail}; not timed")
                ok = False
        print(f"timing {workload.name}: {', '.join(agreeing)}", file=sys.stderr, flush=True)
        steps = {impl: workload.build(impl, size) for impl in agreeing}
        rows += timed_rows(workload.name, measure(steps, repeat=repeat, sample_s=sample_s))
    return rows, notes, ok


def _check(workloads, impls, size):
    failed = False
    for workload in workloads:
        for result in check_workload(workload, impls, size):
            verdict = {True: "ok", False: "DISAGREES", None: "skipped"}[result.ok]
            print(f"{workload.name:<18} {result.impl:<10} {verdict:<10} {result.detail}")
            failed |= result.ok is False
    return 1 if failed else 0


def _run_extra(suite, args, repeat):
    """``(rows, notes, ok)`` from ``benchmarks/<suite>.py``; nothing if it does not exist."""
    try:
        module = importlib.import_module(f"benchmarks.{suite}")
    except ModuleNotFoundError as exc:
        if exc.name == f"benchmarks.{suite}":
            return [], [], True  # not written (yet)
        raise
    offered = {"workloads": args.workloads, "impls": args.impls, "repeat": repeat,
               "quick": args.quick, "size": args.size}
    accepted = inspect.signature(module.run).parameters
    options = {k: v for k, v in offered.items() if k in accepted and v is not None}
    print(f"running benchmarks/{suite}.py", file=sys.stderr, flush=True)
    try:
        rows = module.run(**options)
    except Exception:  # noqa: BLE001  a failing suite is reported; the others' results stay
        return [], [f"benchmarks/{suite}.py failed:\n{traceback.format_exc()}"], False
    rows = [r for r in rows if (not args.workloads or r["workload"] in args.workloads)
            and (not args.impls or r["impl"] in args.impls)]
    return rows, [], True


def _unmatched(args, rows):
    """Notes for requested workloads or implementations that produced no row."""
    notes = [f"no results for workload {name!r} (eager workloads: {', '.join(WORKLOADS)})"
             for name in args.workloads or () if not any(r["workload"] == name for r in rows)]
    notes += [f"no results for implementation {impl!r}"
              for impl in args.impls or () if not any(r["impl"] == impl for r in rows)]
    return notes


def _write_json(args, repeat, info, rows, notes):
    document = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": info,
        "options": {"workloads": args.workloads, "impls": args.impls, "repeat": repeat,
                    "quick": args.quick, "size": args.size},
        "rows": rows,
        "ratios": ratios(rows),
        "notes": notes,
    }
    Path(args.json).write_text(json.dumps(document, indent=2) + "\n")


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Time tapegrad eager against hand-written numpy and PyTorch, interleaved in "
                    "one process; print medians, IQRs and ratios (tapegrad ÷ peer).")
    parser.add_argument("--workloads", nargs="+", metavar="NAME",
                        help=f"workloads to run (default: all; eager: {', '.join(WORKLOADS)})")
    parser.add_argument("--impls", nargs="+", metavar="NAME",
                        help=f"implementations to run (default: all; eager: "
                             f"{', '.join(IMPLEMENTATIONS)})")
    parser.add_argument("--repeat", type=_positive_int, metavar="N",
                        help=f"samples per implementation (default {FULL['repeat']}, "
                             f"--quick {QUICK['repeat']})")
    parser.add_argument("--quick", action="store_true",
                        help="fewer and shorter samples: a fast, rougher run")
    parser.add_argument("--size", choices=("full", "small"), default="full",
                        help="problem sizes; 'small' shrinks the large ones (default: full)")
    parser.add_argument("--check", action="store_true",
                        help="only verify that all implementations compute the same numbers")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    return parser


def _positive_int(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


if __name__ == "__main__":
    raise SystemExit(main())
