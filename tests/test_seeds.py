"""The tutorial programs of shared/seeds, run unchanged with ``torch`` meaning tapegrad.

Each ``tests/seeds/<seed>_<n>_<name>.py`` is a tutorial snippet byte for byte, ``<name>.out`` what
the tutorial shows it printing. The pieces of one tutorial run in order in one interpreter session
(``seeds/_session.py``), as the tutorial runs them. Printed output must equal the tutorial's with
memory addresses masked; where the numbers come from the random generator (tapegrad's is not
PyTorch's), the program's behaviour is checked instead: training converges, the line fit finds
y = 2x - 1, forgetting zero_grad makes the loss bounce back up.
"""
import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SEEDS = Path(__file__).parent / "seeds"
REPO = Path(__file__).parent.parent

ADDRESS = re.compile(r"0x[0-9A-Fa-f]+")
NUMBER = re.compile(r"-?\d+\.\d+")


def _piece_number(path):
    seed, n, _ = path.stem.split("_", 2)
    return seed, int(n)


PIECES = sorted(SEEDS.glob("[0-9][0-9][0-9]_*.py"), key=_piece_number)


@functools.cache
def _session(seed):
    """Run all pieces of one tutorial in one subprocess; results by piece name."""
    pieces = [p.name for p in PIECES if p.name.startswith(seed + "_")]
    proc = subprocess.run([sys.executable, "_session.py", *pieces], cwd=SEEDS, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == 0, proc.stderr
    return {Path(r["piece"]).stem: r for r in json.loads(proc.stdout)}


def _run(name):
    return _session(name[:3])[name]


def _expected(name, suffix=".out"):
    return (SEEDS / (name + suffix)).read_text()


def _clean(result):
    """The piece ran to the end; on failure show where it stopped."""
    assert result["error"] is None, result["traceback"]


def _words(text):
    return " ".join(text.split())


def _losses(stdout, pattern):
    return [float(m) for m in re.findall(pattern, stdout)]


def _same_format(actual, expected):
    """Equal line for line once every decimal number is masked (for random-dependent values)."""
    assert NUMBER.sub("<n>", actual) == NUMBER.sub("<n>", expected)


# -- the pieces whose printed output is fully determined -------------------------------------------

RANDOM_DEPENDENT = {"000_7_training_loop", "002_4_zero_grad_fit", "002_7_fit_line_loop"}
ERROR_DEMOS = {"000_8_backward_twice", "000_9_leaf_inplace"}
EXACT = [p.stem for p in PIECES if p.stem not in RANDOM_DEPENDENT | ERROR_DEMOS]


@pytest.mark.parametrize("name", EXACT)
def test_prints_what_the_tutorial_shows(name):
    result = _run(name)
    _clean(result)
    assert ADDRESS.sub("0x...", result["stdout"]) == ADDRESS.sub("0x...", _expected(name))


@pytest.mark.parametrize("name", sorted(ERROR_DEMOS))
def test_error_demonstration_raises_the_tutorials_error(name):
    result = _run(name)
    assert result["error"] is not None, "the snippet was expected to raise"
    # The tutorial wraps the message over lines and may cut it short: compare as words, as a prefix.
    assert _words(result["error"]).startswith(_words(_expected(name)))


def test_non_leaf_grad_access_warns_with_pytorchs_text():
    result = _run("000_5_leaf")
    shown = _words(_expected("000_5_leaf", ".warn"))
    assert len(result["warnings"]) == 1
    assert _words(result["warnings"][0]).startswith(shown)


def test_only_the_non_leaf_access_warns():
    for name in EXACT:
        if name != "000_5_leaf":
            assert _run(name)["warnings"] == [], name


# -- random-dependent pieces: the behaviour the tutorial describes ---------------------------------

def test_training_loop_reduces_the_loss_every_epoch():
    result = _run("000_7_training_loop")
    _clean(result)
    assert re.fullmatch(r"(epoch \d \| loss \d+\.\d{4}\n){3}", result["stdout"])
    losses = _losses(result["stdout"], r"loss (\d+\.\d+)")
    assert losses[0] > losses[1] > losses[2]


def test_forgetting_zero_grad_makes_the_loss_bounce_back():
    result = _run("002_4_zero_grad_fit")
    _clean(result)
    _same_format(result["stdout"], _expected("002_4_zero_grad_fit"))
    with_reset, without_reset = result["stdout"].split("WITHOUT zero_grad:")
    steady = _losses(with_reset, r"loss\s+(\d+\.\d+)")
    bouncing = _losses(without_reset, r"loss\s+(\d+\.\d+)")
    assert steady[0] == bouncing[0]  # same seed, same starting point
    assert all(a >= b for a, b in zip(steady, steady[1:]))  # "falls steadily"
    assert steady[-1] < 0.02  # the noise floor: 0.1 ** 2
    assert bouncing[-1] > 3 * min(bouncing)
    assert bouncing[-1] > 10 * steady[-1]


def test_fit_line_learns_y_equals_2x_minus_1():
    assert _run("002_6_fit_line_data")["stdout"] == ""
    result = _run("002_7_fit_line_loop")
    _clean(result)
    _same_format(result["stdout"], _expected("002_7_fit_line_loop"))
    losses = _losses(result["stdout"], r"loss (\d+\.\d+)")
    assert all(a >= b for a, b in zip(losses, losses[1:]))
    assert 0.005 < losses[-1] < 0.02  # settles at the noise level, as the tutorial explains
    w, b = map(float, re.search(r"learned: y = (\S+) x (\S+)", result["stdout"]).groups())
    assert w == pytest.approx(2.0, abs=0.05)
    assert b == pytest.approx(-1.0, abs=0.05)


def test_example_fit_line_is_the_tutorials_program():
    """examples/fit_line.py prints exactly what the tutorial's two pieces print (same seed)."""
    proc = subprocess.run([sys.executable, str(REPO / "examples" / "fit_line.py")], cwd=REPO,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == _run("002_7_fit_line_loop")["stdout"]
