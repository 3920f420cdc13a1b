"""Run tutorial pieces in one interpreter session, with ``torch`` meaning tapegrad.

    python tests/seeds/_session.py 000_1_tracking.py 000_2_graph.py ...

The tutorials run their snippets one after another in one session (later pieces use names the
earlier ones defined), so the pieces share one namespace here too, and a piece that raises does
not stop the next, as in a REPL. ``import torch``, ``import torch.nn as nn`` and
``from torch import nn`` resolve to tapegrad's modules, so the piece files stay the tutorials' code
byte for byte.

Prints one JSON list on stdout: per piece, what it printed, the warnings it raised and the
exception that ended it (``"RuntimeError: ..."``, or null).
"""
import contextlib
import importlib
import importlib.abc
import importlib.util
import io
import json
import sys
import traceback
import warnings


class TorchIsTapegrad(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves ``torch`` and ``torch.<sub>`` to the already importable ``tapegrad`` modules."""

    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("tapegrad" + spec.name[len("torch"):])

    def exec_module(self, module):
        pass  # the tapegrad module is already executed


def run_piece(path, namespace):
    out = io.StringIO()
    error = trace = None
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        try:
            with open(path, encoding="utf-8") as f:
                code = compile(f.read(), path, "exec")
            exec(code, namespace)
        except Exception as exc:  # reported, like a REPL that goes on to the next snippet
            error = f"{type(exc).__name__}: {exc}"
            trace = traceback.format_exc()
    return {"piece": path, "stdout": out.getvalue(), "error": error, "traceback": trace,
            "warnings": [f"{w.category.__name__}: {w.message}" for w in caught]}


def main(paths):
    sys.meta_path.insert(0, TorchIsTapegrad())
    namespace = {"__name__": "__main__"}
    results = [run_piece(path, namespace) for path in paths]
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
