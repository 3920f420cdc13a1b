"""Real users' PyTorch programs, run against PyTorch and against tapegrad; the outputs must agree.

Each ``tests/programs/<name>.py`` is a small program in the idiom of a public tutorial or a Q&A
answer. It is run twice, in subprocesses: once with real PyTorch, once with ``torch`` resolving to
tapegrad (``tests/programs/_shim`` first on ``PYTHONPATH``). What each printed must agree, memory
addresses masked. tapegrad's generator is PyTorch's (``tapegrad/random.py``): a program may seed it
and print what ``rand``, ``randn``, ``randint``, ``randperm``, the in-place fills, dropout and
``nn.init`` drew; draws tapegrad makes through numpy's samplers (exponential, multinomial, ...)
only for facts that do not depend on their values.

Numbers are compared token by token: the text around them must be identical and each number must
be printed with the same digits up to one unit in its last place — float32 kernels of numpy and
PyTorch may round the last bit differently, which may flip a printed digit, never more.

PyTorch's output is recorded (``programs/_record.py``, ``programs/_pytorch/``) with the hash of the
program and PyTorch's version; a recording that no longer matches both is not used: PyTorch runs.
"""
import functools
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# One worker runs every program test: each worker would otherwise start its own two runs of
# all programs (with pytest-xdist's --dist loadgroup, see pyproject.toml).
pytestmark = pytest.mark.xdist_group("programs")

PROGRAMS = Path(__file__).parent / "programs"
SHIM = PROGRAMS / "_shim"
REPO = Path(__file__).parent.parent
NAMES = sorted(p.name for p in PROGRAMS.glob("[!_]*.py"))

ADDRESS = re.compile(r"0x[0-9A-Fa-f]+")
NUMBER = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:e[+-]?\d+)?")


def _load_recorder():
    spec = importlib.util.spec_from_file_location("_record", PROGRAMS / "_record.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORDER = _load_recorder()
TORCH_VERSION = RECORDER.installed_torch()


@functools.cache
def _recorded():
    """PyTorch's recorded results that are current (see ``programs/_record.py``)."""
    found = {name: RECORDER.recorded(name, TORCH_VERSION) for name in NAMES}
    return {name: result for name, result in found.items() if result is not None}


@functools.cache
def _runs():
    """Start one run of all programs with tapegrad, and one with PyTorch of the programs it has no
    current recording for (if installed), side by side."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SHIM), str(REPO)]),
           "OMP_NUM_THREADS": "1"}
    runs = {"tapegrad": subprocess.Popen(
        [sys.executable, str(PROGRAMS / "_run.py"), *(str(PROGRAMS / n) for n in NAMES)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=PROGRAMS)}
    unrecorded = [name for name in NAMES if name not in _recorded()]
    if TORCH_VERSION is not None and unrecorded:
        runs["torch"] = RECORDER.run_with_torch(unrecorded)
    return runs


@functools.cache
def _outputs(library):
    """What the programs printed with ``library`` ("torch" or "tapegrad") as ``torch``; for
    PyTorch, the programs without a current recording."""
    proc = _runs().get(library)
    if proc is None:
        return {}
    stdout, stderr = proc.communicate(timeout=600)
    assert proc.returncode == 0, stderr
    return json.loads(stdout)


def _torch_output(name):
    """What PyTorch printed for program ``name``: recorded, or run now (skip if it cannot be)."""
    recorded = _recorded().get(name)
    if recorded is not None:
        return recorded
    if TORCH_VERSION is None:
        pytest.skip("PyTorch is not installed and this program's output is not recorded")
    return _outputs("torch")[name]


def _ulp(token):
    """One unit in the last printed place of a number token; 0 for a whole number printed
    without decimals (counts, sizes, ``1.`` in a tensor), which must match exactly."""
    mantissa, _, exponent = token.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    if not decimals and not exponent:
        return 0.0
    return 10.0 ** (-decimals + (int(exponent) if exponent else 0))


def assert_same_output(ours, theirs):
    """Same text, addresses masked; numbers equal up to one unit in the last printed place.

    A one-ulp difference can change how PyTorch formats a whole tensor: ``1.`` (all values
    whole) against ``1.0000``, or ``-0.0000`` widening every column. Such a line passes when its
    numbers agree to the finer printed place, and its padding may differ only where a number's
    printed width did."""
    ours, theirs = ADDRESS.sub("0x…", ours), ADDRESS.sub("0x…", theirs)
    if ours == theirs:
        return
    ours_lines, theirs_lines = ours.splitlines(), theirs.splitlines()
    for i, (a, b) in enumerate(zip(ours_lines, theirs_lines), 1):
        a_numbers, b_numbers = NUMBER.findall(a), NUMBER.findall(b)
        a_text, b_text = NUMBER.sub("#", a), NUMBER.sub("#", b)
        if any(len(x) != len(y) for x, y in zip(a_numbers, b_numbers)):
            a_text, b_text = " ".join(a_text.split()), " ".join(b_text.split())
        same = (a_text == b_text and len(a_numbers) == len(b_numbers)
                and all(_numbers_agree(x, y) for x, y in zip(a_numbers, b_numbers)))
        assert same, f"line {i} differs:\n tapegrad: {a}\n pytorch:  {b}"
    assert len(ours_lines) == len(theirs_lines), (
        f"tapegrad printed {len(ours_lines)} lines, PyTorch {len(theirs_lines)}:\n"
        + "\n".join(ours_lines[len(theirs_lines):] or theirs_lines[len(ours_lines):]))


def _numbers_agree(x, y):
    """Equal, or one unit apart in the last place of a shared format, or the same value in a
    whole-valued tensor's format (``1.``) and a fractional one."""
    if x == y:
        return True
    if _same_format(x, y):
        return abs(float(x) - float(y)) <= 1.01 * _ulp(y)
    whole_and_fraction = (x.endswith(".") != y.endswith(".")
                          and "e" not in x.lower() + y.lower())
    return whole_and_fraction and abs(float(x) - float(y)) <= 1.01 * max(_ulp(x), _ulp(y))


def _same_format(x, y):
    """Printed alike: same number of decimals and the same exponent notation."""
    return _ulp(x) == _ulp(y) and ("e" in x.lower()) == ("e" in y.lower())


@pytest.mark.parametrize("name", NAMES)
def test_runs_to_the_end_on_tapegrad(name):
    result = _outputs("tapegrad")[name]
    assert result["error"] is None, result["traceback"]


@pytest.mark.parametrize("name", NAMES)
def test_prints_what_pytorch_prints(name):
    theirs = _torch_output(name)
    assert theirs["error"] is None, f"the program fails on PyTorch itself:\n{theirs['traceback']}"
    ours = _outputs("tapegrad")[name]
    assert ours["error"] is None, ours["traceback"]
    assert_same_output(ours["stdout"], theirs["stdout"])


def test_comparison_tolerates_one_unit_in_the_last_place_only():
    assert_same_output("loss 0.1235 at 0x1f", "loss 0.1234 at 0x2e")
    for ours, theirs in [("loss 0.1236", "loss 0.1234"), ("loss 0.12340", "loss 0.1234"),
                         ("tensor([2.])", "tensor([1.])"), ("correct 99", "correct 100"),
                         ("loss: 0.1234", "loss 0.1234"), ("a\nb", "a")]:
        with pytest.raises(AssertionError):
            assert_same_output(ours, theirs)


def test_comparison_tolerates_a_format_flip_of_equal_values_only():
    assert_same_output("tensor(1.) tensor([0, 1])", "tensor(1.0000) tensor([0, 1])")
    assert_same_output("tensor([0.0000, 1.2679])", "tensor([-0.0000,  1.2679])")
    for ours, theirs in [("tensor(1.)", "tensor(1.0002)"), ("tensor([0.0000, 1.2679])",
                                                          "tensor([-0.0000,  1.2681])"),
                         ("tensor([0.0000, 1.2679])", "tensor([0.0000,  1.2679])"),
                         ("count 1", "count 1.0000"), ("tensor(1.)", "tensor(1.0000e+00)")]:
        with pytest.raises(AssertionError):
            assert_same_output(ours, theirs)
