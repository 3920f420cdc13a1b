"""What the figures were measured on: CPU, threads, library versions, BLAS.

Eager speed on small graphs is Python overhead (CPU and interpreter); on the large MLP it is the
BLAS (numpy's OpenBLAS for tapegrad and numpy, MKL inside PyTorch), so the BLAS build, its thread
count and the core type OpenBLAS picked are part of every large-MLP figure.
"""
import importlib
import os
import platform

import numpy as np

__all__ = ["describe", "summary_line"]


def describe():
    """A flat dict of the machine and library facts, for the JSON output."""
    numba, torch = _module("numba"), _module("torch")
    info = {
        "cpu": _cpu_model(),
        "physical_cores": _physical_cores(),
        "logical_cpus": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba and numba.__version__,
        "torch": torch and torch.__version__,
        "blas": _blas(),
        "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
        # Other processes share the cores: a load above 0 means they competed with the run.
        "load_average_1min": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }
    if torch is not None:
        info["torch_threads"] = torch.get_num_threads()
    return info


def summary_line(info):
    """One line for the table's footer."""
    parts = [
        info["cpu"],
        (f"{info['physical_cores'] or '?'} cores / {info['logical_cpus']} threads "
         f"({info['usable_cpus']} usable)"),
        f"Python {info['python']}",
        f"numpy {info['numpy']}",
        f"numba {info['numba'] or 'not installed'}",
    ]
    if info["torch"]:
        parts.append(f"torch {info['torch']} ({info.get('torch_threads', '?')} threads)")
    else:
        parts.append("torch not installed")
    parts.append(f"BLAS {info['blas']}")
    if info["load_average_1min"] is not None:
        parts.append(f"load {info['load_average_1min']:.1f}")
    if info["OPENBLAS_CORETYPE"]:
        parts.append(f"OPENBLAS_CORETYPE={info['OPENBLAS_CORETYPE']}")
    return "machine: " + " | ".join(parts)


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _physical_cores():
    """Distinct (socket, core) pairs in /proc/cpuinfo; None where that file does not exist."""
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
    except OSError:
        return None
    cores = set()
    for block in text.split("\n\n"):
        fields = dict(line.split(":", 1) for line in block.splitlines() if ":" in line)
        fields = {k.strip(): v.strip() for k, v in fields.items()}
        if "core id" in fields:
            cores.add((fields.get("physical id"), fields["core id"]))
    return len(cores) or None


def _blas():
    """numpy's BLAS as it runs (threadpoolctl: library, version, threads, core type) or as built."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        built = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return (f"{built.get('name')} {built.get('version')} (as built; install threadpoolctl "
                "for the runtime core type and threads)")
    pools = [p for p in threadpool_info() if p["user_api"] == "blas"]
    return "; ".join(
        f"{p['internal_api']} {p.get('version')} {p.get('architecture') or ''} "
        f"{p['num_threads']} threads".replace("  ", " ") for p in pools) or "none loaded"


def _module(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
