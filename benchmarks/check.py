"""Agreement check: every implementation of a workload must compute the same numbers.

One step of each implementation runs on the same data; its outputs (loss, gradients, updated
parameters) are compared with the hand-written numpy step's, within the workload's float32
tolerance. A benchmark cannot be fast by being wrong: the runner times only implementations that
pass.
"""
from dataclasses import dataclass

import numpy as np

from .workloads import Unavailable, to_numpy

__all__ = ["Agreement", "check_workload"]

REFERENCE = "numpy"


@dataclass(frozen=True)
class Agreement:
    """How one implementation compares with the reference; ``ok`` is None when it could not run."""

    workload: str
    impl: str
    ok: bool | None
    detail: str


def check_workload(workload, impls, size="full", seed=0):
    """One ``Agreement`` per implementation in ``impls`` (the reference included, trivially)."""
    reference = [to_numpy(v) for v in workload.build(REFERENCE, size, seed)()]
    results = []
    for impl in impls:
        try:
            outputs = [to_numpy(v) for v in workload.build(impl, size, seed)()]
        except Unavailable as exc:
            results.append(Agreement(workload.name, impl, None, f"skipped: {exc}"))
            continue
        except Exception as exc:  # noqa: BLE001  a broken implementation fails its check
            results.append(Agreement(workload.name, impl, False,
                                     f"raised {type(exc).__name__}: {exc}"))
            continue
        ok, detail = _compare(outputs, reference, workload.rtol, workload.atol)
        results.append(Agreement(workload.name, impl, ok, detail))
    return results


def _compare(outputs, reference, rtol, atol):
    if len(outputs) != len(reference):
        return False, f"{len(outputs)} outputs, the reference has {len(reference)}"
    worst = 0.0
    for i, (got, want) in enumerate(zip(outputs, reference)):
        if got.shape != want.shape:
            return False, f"output {i} has shape {got.shape}, the reference {want.shape}"
        got, want = got.astype(np.float64), want.astype(np.float64)
        # Error as a fraction of the allowed tolerance: at most 1 passes (as np.allclose);
        # NaN or infinity anywhere fails.
        error, allowed = np.abs(got - want), atol + rtol * np.abs(want)
        excess = np.divide(error, allowed, out=np.where(error == 0, 0.0, np.inf), where=allowed > 0)
        excess[~np.isfinite(got)] = np.inf
        worst = max(worst, float(np.max(excess, initial=0.0)))
    return worst <= 1, f"worst error {worst:.2g} of tolerance (rtol={rtol:g}, atol={atol:g})"
