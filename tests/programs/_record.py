"""Record what real PyTorch prints for the programs, for ``tests/test_programs.py`` to compare with.

    python tests/programs/_record.py            # programs without a current recording
    python tests/programs/_record.py NAME.py …  # these programs, recorded again
    python tests/programs/_record.py --all      # every program

Running PyTorch is most of the cost of the program tests (its ``torch.compile`` alone takes
minutes), and its output for a given program and PyTorch version never changes. So it is recorded
once, in ``_pytorch/<name>.json`` beside the programs, with the SHA-256 of the program's source
and the PyTorch version that printed it. The tests use a recording while both still match, and run
PyTorch itself otherwise; write a new program, run this, commit the recording with it.
"""
import hashlib
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

PROGRAMS = Path(__file__).parent
RECORDINGS = PROGRAMS / "_pytorch"


def source_hash(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def installed_torch():
    """The installed PyTorch's version, or None (read without importing it)."""
    try:
        return metadata.version("torch")
    except metadata.PackageNotFoundError:
        return None


def recorded(name, torch_version):
    """The recorded result of program ``name`` if it is current: same source, and printed by
    ``torch_version`` (when PyTorch is not installed, by any version). None otherwise."""
    path = RECORDINGS / (Path(name).stem + ".json")
    if not path.exists():
        return None
    entry = json.loads(path.read_text())
    if entry["source_sha256"] != source_hash(PROGRAMS / name):
        return None
    if torch_version is not None and entry["torch"] != torch_version:
        return None
    return entry["result"]


def run_with_torch(names, cwd=PROGRAMS):
    """Start ``_run.py`` on ``names`` with real PyTorch; the running process."""
    return subprocess.Popen(
        [sys.executable, str(PROGRAMS / "_run.py"), *(str(PROGRAMS / n) for n in names)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
        env={**os.environ, "OMP_NUM_THREADS": "1"})


def record(names, torch_version):
    proc = run_with_torch(names)
    stdout, stderr = proc.communicate()
    if proc.returncode:
        sys.exit(stderr)
    RECORDINGS.mkdir(exist_ok=True)
    for name, result in json.loads(stdout).items():
        if result["error"] is not None:
            print(f"{name}: fails on PyTorch itself, not recorded: {result['error']}")
            continue
        result = {key: result[key] for key in ("stdout", "error", "traceback")}
        entry = {"source_sha256": source_hash(PROGRAMS / name), "torch": torch_version,
                 "result": result}
        (RECORDINGS / (Path(name).stem + ".json")).write_text(json.dumps(entry, indent=1) + "\n")
        print(f"recorded {name}")


def main(argv):
    torch_version = installed_torch()
    if torch_version is None:
        sys.exit("PyTorch is not installed: nothing to record with")
    every = sorted(p.name for p in PROGRAMS.glob("[!_]*.py"))
    if argv == ["--all"]:
        names = every
    elif argv:
        names = [Path(a).name for a in argv]
    else:
        names = [n for n in every if recorded(n, torch_version) is None]
    if names:
        record(names, torch_version)


if __name__ == "__main__":
    main(sys.argv[1:])
