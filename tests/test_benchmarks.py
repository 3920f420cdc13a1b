"""The benchmark suite computes the right thing: every implementation of every workload agrees with
the hand-written numpy one on a step (small sizes), and the check, timing and report machinery
do what they claim. No timing is asserted."""
import dataclasses
import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/ sits beside tests/

from benchmarks import run
from benchmarks.check import check_workload
from benchmarks.report import format_table, ratios
from benchmarks.timing import measure
from benchmarks.workloads import WORKLOADS


@pytest.mark.parametrize("name", list(WORKLOADS))
def test_tapegrad_agrees_with_handwritten_numpy(name):
    (result,) = check_workload(WORKLOADS[name], ["tapegrad"], size="small")
    assert result.ok is True, result.detail


@pytest.mark.parametrize("name", list(WORKLOADS))
def test_torch_agrees_with_handwritten_numpy(name):
    pytest.importorskip("torch")
    (result,) = check_workload(WORKLOADS[name], ["torch"], size="small")
    assert result.ok is True, result.detail


def test_handwritten_line_fit_learns_the_line():
    """The numpy reference itself is right: the seed's fit finds w ≈ 2, b ≈ -1."""
    loss, w, b = WORKLOADS["line_fit"].build("numpy")()
    assert abs(w[0] - 2) < 0.05 and abs(b[0] + 1) < 0.05 and loss < 0.02


def test_handwritten_chain_gradient_matches_finite_differences():
    data = {k: np.array([0.3, -1.2], np.float64) for k in ("x", "w", "b")}
    f_and_grads = WORKLOADS["elementwise_chain"].numpy_step(data)
    _, grad_x, grad_w, grad_b = f_and_grads()
    eps = 1e-6
    for key, grad in (("x", grad_x), ("w", grad_w), ("b", grad_b)):
        for i in range(2):
            up = {k: v.copy() for k, v in data.items()}
            down = {k: v.copy() for k, v in data.items()}
            up[key][i] += eps
            down[key][i] -= eps
            numeric = (WORKLOADS["elementwise_chain"].numpy_step(up)()[0]
                       - WORKLOADS["elementwise_chain"].numpy_step(down)()[0]) / (2 * eps)
            assert grad[i] == pytest.approx(numeric, rel=1e-6)


def test_check_catches_a_wrong_implementation():
    tiny = WORKLOADS["tiny_graph"]

    def off_by_one_percent(lib, data):
        step = tiny.framework_step(lib, data)
        return lambda: tuple(v * 1.01 for v in step())

    wrong = dataclasses.replace(tiny, framework_step=off_by_one_percent)
    (result,) = check_workload(wrong, ["tapegrad"])
    assert result.ok is False and "worst error" in result.detail


def test_check_catches_a_wrong_shape():
    tiny = WORKLOADS["tiny_graph"]
    wrong = dataclasses.replace(
        tiny, framework_step=lambda lib, data: (lambda: (np.zeros(1), np.zeros(1))))
    (result,) = check_workload(wrong, ["tapegrad"])
    assert result.ok is False and "shape" in result.detail


def test_measure_takes_repeat_samples_of_every_step():
    calls = {"a": 0, "b": 0}

    def counter(name):
        def step():
            calls[name] += 1
        return step

    stats = measure({"a": counter("a"), "b": counter("b")}, repeat=3, sample_s=1e-4,
                    settle_s=1e-3)
    assert set(stats) == {"a", "b"}
    for name, s in stats.items():
        assert s.samples == 3 and s.calls_per_sample >= 1 and s.median_s > 0 and s.iqr_s >= 0
        # warm-up, calibration and one untimed call after each settling pause come on top
        assert calls[name] >= 3 * s.calls_per_sample + 1 + 3


def test_measure_refuses_zero_samples():
    with pytest.raises(ValueError, match="repeat must be at least 1"):
        measure({"a": lambda: None}, repeat=0, sample_s=1e-4)


def test_ratios_divide_ours_by_each_peer():
    rows = [{"workload": "w", "impl": "tapegrad", "median_s": 1.0},
            {"workload": "w", "impl": "tapegrad.compile", "median_s": 0.25},
            {"workload": "w", "impl": "numpy", "median_s": 0.5},
            {"workload": "w", "impl": "torch", "median_s": 4.0},
            {"workload": "v", "impl": "torch", "median_s": 1.0}]
    got = {(r["impl"], r["peer"]): r["ratio"] for r in ratios(rows)}
    assert got == {("tapegrad", "numpy"): 2.0, ("tapegrad", "torch"): 0.25,
                   ("tapegrad.compile", "numpy"): 0.5, ("tapegrad.compile", "torch"): 0.0625}
    table = format_table(rows)
    assert "2.00×" in table and "0.25×" in table and "÷ torch" in table


def test_check_mode_exit_status(capsys):
    assert run.main(["--check", "--size", "small", "--workloads", "tiny_graph", "line_fit",
                     "--impls", "tapegrad", "numpy"]) == 0
    out = capsys.readouterr().out
    assert out.count(" ok ") == 4


def test_run_writes_json_rows_and_ratios(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(run, "EXTRA_SUITES", ("overhead",))
    path = tmp_path / "bench.json"
    assert run.main(["--quick", "--repeat", "2", "--workloads", "tiny_graph", "op_add_0d",
                     "--impls", "tapegrad", "numpy", "--json", str(path)]) == 0
    document = json.loads(path.read_text())
    pairs = {(r["workload"], r["impl"]) for r in document["rows"]}
    assert pairs == {("tiny_graph", "tapegrad"), ("tiny_graph", "numpy"),
                     ("op_add_0d", "tapegrad"), ("op_add_0d", "numpy")}
    assert all(r["samples"] == 2 and r["median_s"] > 0 for r in document["rows"])
    assert {(q["workload"], q["peer"]) for q in document["ratios"]} == {
        ("tiny_graph", "numpy"), ("op_add_0d", "numpy")}
    assert document["machine"]["numpy"] == np.__version__
    assert "machine:" in capsys.readouterr().out


def test_compiled_line_fit_implementations_agree_with_handwritten_numpy():
    """benchmarks/compiled.py's line fit, as 200 compiled calls, as one repeat(200, ...) launch
    and as 200 calls of the hand-written one-step kernel, ends where the hand-written numpy loop
    does."""
    from benchmarks import compiled as compiled_benchmarks
    builders = compiled_benchmarks._builders(
        "line-fit", ["tapegrad-compiled", "tapegrad-repeat", "numba-hand-steps", "numpy"])
    expected = builders.pop("numpy")()
    assert len(builders) == 3
    for impl, step in builders.items():
        for _ in range(2):  # the first call traces and compiles
            result = step()
        loss = result[0] if isinstance(result, tuple) else result
        assert float(loss) == pytest.approx(float(expected), rel=1e-4), impl
