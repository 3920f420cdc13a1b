"""Per-op dispatch overhead: what one tiny operation costs tapegrad, PyTorch and numpy.

On 0-d tensors the arithmetic is free, so the time is all overhead: argument handling, type
promotion, wrapping the result, and — when an input requires grad — building the graph node. The
backward case times the engine on the smallest graph there is (one MulBackward0 feeding one
AccumulateGrad). These figures are what to profile when the tiny-graph and small-MLP workloads are
slow.

``python -m benchmarks.overhead`` prints them; ``python -m benchmarks`` includes them as the
``op_*`` workloads.
"""
import argparse
import operator
from functools import partial

import numpy as np

from . import machine
from .report import format_table
from .timing import FULL, QUICK, measure, timed_rows
from .workloads import Unavailable, import_framework

__all__ = ["OPS", "run"]


def _binary(op, requires_grad, lib):
    a = lib.tensor(2.0, requires_grad=requires_grad)
    b = lib.tensor(3.0)
    return partial(op, a, b)


def _numpy_binary(op):
    return partial(op, np.array(2.0, np.float32), np.array(3.0, np.float32))


def _backward_one_node(lib):
    a = lib.tensor(2.0, requires_grad=True)
    y = a * lib.tensor(3.0)
    return partial(y.backward, retain_graph=True)  # a.grad accumulates; the graph is kept


# name -> (what it times, builder(lib) for tapegrad and torch, numpy callable or None)
OPS = {
    "op_add_0d": ("0-d a + b, nothing requires grad",
                  partial(_binary, operator.add, False), _numpy_binary(operator.add)),
    "op_mul_0d": ("0-d a * b, nothing requires grad",
                  partial(_binary, operator.mul, False), _numpy_binary(operator.mul)),
    "op_add_0d_grad": ("0-d a + b with a.requires_grad: records AddBackward0",
                       partial(_binary, operator.add, True), None),
    "op_mul_0d_grad": ("0-d a * b with a.requires_grad: records MulBackward0, saves a and b",
                       partial(_binary, operator.mul, True), None),
    "op_backward_1node": ("y.backward(retain_graph=True) for y = a * b: one node + AccumulateGrad",
                          _backward_one_node, None),
}


def run(workloads=None, impls=None, repeat=None, quick=False):
    """Rows ``{"workload", "impl", "median_s", "iqr_s", ...}`` for the ops named in ``workloads``
    (default: all) × implementations."""
    settings = QUICK if quick else FULL
    impls = impls or ("tapegrad", "numpy", "torch")
    rows = []
    for name, (_, build, numpy_step) in OPS.items():
        if workloads and name not in workloads:
            continue
        steps = {}
        for impl in impls:
            if impl == "numpy":
                if numpy_step is not None:
                    steps[impl] = numpy_step
            elif impl in ("tapegrad", "torch"):
                try:
                    steps[impl] = build(import_framework(impl))
                except Unavailable:
                    continue
        stats = measure(steps, repeat=repeat or settings["repeat"], sample_s=settings["sample_s"])
        rows += timed_rows(name, stats)
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.overhead", description=__doc__)
    parser.add_argument("--impls", nargs="+", metavar="NAME", help="tapegrad, numpy, torch")
    parser.add_argument("--repeat", type=int, metavar="N", help="samples per implementation")
    parser.add_argument("--quick", action="store_true", help="fewer and shorter samples")
    args = parser.parse_args(argv)
    print(format_table(run(impls=args.impls, repeat=args.repeat, quick=args.quick)))
    for name, (what, _, _) in OPS.items():
        print(f"  {name:<18} {what}")
    print(machine.summary_line(machine.describe()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
