"""Run PyTorch programs and report what each printed, as one JSON object on stdout.

    python tests/programs/_run.py prog_a.py prog_b.py ...

``torch`` is whatever ``import torch`` finds (real PyTorch, or tapegrad through ``_shim``). The
library is imported once; every program then runs in its own process forked from this one, so no
program sees another's global state (seeds, grad mode, default dtype) and none pays the import.
Result per program: ``stdout``, ``error`` (``"Type: message"`` of an exception that ended it, or
null), ``traceback`` and ``seconds`` (its run time).
"""
import contextlib
import io
import json
import multiprocessing
import os
import runpy
import sys
import time
import traceback

import torch  # imported before forking: the children inherit it

TIMEOUT_SECONDS = 120


def warm_up():
    """Take the lazy imports of a first training step (PyTorch's optimizers import
    ``torch._dynamo`` on first use, seconds each time) once, before forking."""
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model(torch.ones(1, 2)).sum().backward()
    optimizer.step()


def run_program(path):
    out = io.StringIO()
    error = trace = None
    start = time.perf_counter()
    with contextlib.redirect_stdout(out):
        try:
            runpy.run_path(path, run_name="__main__")
        except BaseException as exc:  # noqa: BLE001  any ending is a result to report
            error = f"{type(exc).__name__}: {exc}"
            trace = traceback.format_exc()
    return {"stdout": out.getvalue(), "error": error, "traceback": trace,
            "seconds": time.perf_counter() - start}


def main(paths):
    warm_up()
    context = multiprocessing.get_context("fork")
    with context.Pool(processes=os.cpu_count() or 1, maxtasksperchild=1) as pool:
        pending = {os.path.basename(p): pool.apply_async(run_program, (p,)) for p in paths}
        results = {}
        for name, result in pending.items():
            try:
                results[name] = result.get(TIMEOUT_SECONDS)
            except multiprocessing.TimeoutError:
                results[name] = {"stdout": "", "error": "TimeoutError", "traceback": None,
                                 "seconds": TIMEOUT_SECONDS}
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
