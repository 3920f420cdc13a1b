"""tapegrad.profiler: which operations and backward nodes ran, nested and timed, summarised in
PyTorch's table."""
import gzip
import json
import os
import re
import warnings

import pytest

import tapegrad
from tapegrad import _profiling, nn
from tapegrad.ops import registry
from tapegrad.profiler import (ProfilerAction, ProfilerActivity, profile, record_function,
                               schedule, tensorboard_trace_handler)

EVALUATE = "autograd::engine::evaluate_function: "


def _mlp(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Linear(8, 16), lib.nn.ReLU(), lib.nn.Linear(16, 2))


def _profile_training_step(lib, **options):
    model, x = _mlp(lib), lib.ones(4, 8)
    with lib.profiler.profile(**options) as prof:
        with lib.profiler.record_function("model_inference"):
            loss = model(x).sum()
        loss.backward()
    return prof


def test_forward_operations_and_backward_nodes_are_recorded_and_nested():
    prof = _profile_training_step(tapegrad)
    events = prof.events()
    by_name = {}
    for event in events:
        by_name.setdefault(event.name, []).append(event)
    inference = by_name["model_inference"][0]
    assert {c.name for c in inference.cpu_children} == {"aten::t", "aten::addmm", "aten::relu",
                                                         "aten::sum"}
    for evaluate in by_name[EVALUATE + "AddmmBackward0"]:
        (node,) = evaluate.cpu_children
        assert node.name == "AddmmBackward0"
        assert "aten::mm" in {c.name for c in node.cpu_children}
    assert len(by_name[EVALUATE + "torch::autograd::AccumulateGrad"]) == 4
    for event in events:
        assert event.cpu_time_total >= 0
        assert event.self_cpu_time_total <= event.cpu_time_total + 1e-9
        assert sum(c.cpu_time_total for c in event.cpu_children) <= event.cpu_time_total + 1e-9
        start, end = event.start_ns, event.end_ns
        assert all(start <= c.start_ns and c.end_ns <= end for c in event.cpu_children)


def test_key_averages_count_calls_per_name():
    averages = {a.key: a for a in _profile_training_step(tapegrad).key_averages()}
    assert averages["aten::addmm"].count == 2
    assert averages[EVALUATE + "AddmmBackward0"].count == 2
    assert averages["aten::relu"].count == 1
    total = averages["model_inference"]
    assert total.cpu_time == pytest.approx(total.cpu_time_total)


def test_the_same_backward_nodes_as_pytorch():
    torch = pytest.importorskip("torch")

    def evaluated(lib):
        return {a.key for a in _profile_training_step(lib).key_averages()
                if a.key.startswith(EVALUATE)}
    assert evaluated(tapegrad) == evaluated(torch)


def _masked(text):
    return re.sub(r"\d+\.\d+(%|us|ms|s)", "T", text)


def test_table_is_laid_out_as_pytorchs():
    torch = pytest.importorskip("torch")
    tables = []
    for lib in (torch, tapegrad):
        with lib.profiler.profile() as prof:
            for name in ("load", "a rather longer range name"):
                with lib.profiler.record_function(name):
                    pass
        tables.append(prof.key_averages().table(sort_by="self_cpu_time_total"))
    theirs, ours = (_masked(t).splitlines() for t in tables)
    assert ours[:3] == theirs[:3] and ours[-2] == theirs[-2]
    assert ours[-1].split(":")[0] == theirs[-1].split(":")[0]
    assert [len(line) for line in tables[1].splitlines()[:-1]] == \
        [len(line) for line in tables[0].splitlines()[:-1]]  # the columns' widths

    def cells(lines):  # the rows' texts, whatever the widths of the numbers
        return sorted(" ".join(line.split()) for line in lines)
    assert cells(ours[3:-2]) == cells(theirs[3:-2])


def test_table_with_shapes_memory_and_limits():
    prof = _profile_training_step(tapegrad, record_shapes=True, profile_memory=True)
    table = prof.key_averages(group_by_input_shape=True).table(sort_by="cpu_time_total",
                                                               row_limit=3)
    lines = table.splitlines()
    assert lines[1].split()[-3:] == ["Calls", "Input", "Shapes"]
    assert "CPU Mem" in lines[1] and "Self CPU Mem" in lines[1]
    assert len(lines) == 3 + 3 + 2  # header, three rows, separator and total
    assert lines[-1].startswith("Self CPU time total: ")
    addmm = [a for a in prof.key_averages(group_by_input_shape=True) if a.key == "aten::addmm"]
    assert sorted(map(str, (a.input_shapes for a in addmm))) == [
        "[[16], [4, 8], [8, 16]]", "[[2], [4, 16], [16, 2]]"]
    with pytest.raises(AssertionError, match="record_shapes"):
        _profile_training_step(tapegrad).key_averages(group_by_input_shape=True)


def test_memory_counts_the_arrays_an_operation_made():
    x = tapegrad.ones(1000)
    with profile(profile_memory=True) as prof:
        y = x * 2
        y.view(10, 100)
    memory = {a.key: a.self_cpu_memory_usage for a in prof.key_averages()}
    assert memory["aten::mul"] == 4000
    assert memory["aten::view"] == 0


def test_in_place_writes_and_compiled_kernels_are_events():
    model = nn.Linear(3, 1)
    optimizer = tapegrad.optim.SGD(model.parameters(), lr=0.1)
    step = tapegrad.compile(lambda x: model(x).sum())
    x = tapegrad.ones(2, 3)
    step(x)  # traced and compiled outside the profile
    with profile() as prof:
        step(x).backward()
        optimizer.step()
    names = {a.key for a in prof.key_averages()}
    assert {"CompiledFunction", EVALUATE + "CompiledFunctionBackward", "aten::add_",
            "Optimizer.step#SGD.step"} <= names
    with profile() as prof:
        optimizer.zero_grad()
    assert [e.name for e in prof.events()] == ["Optimizer.zero_grad#SGD.zero_grad"]


def test_profiling_the_first_call_of_a_compiled_function_gives_its_results():
    f = tapegrad.compile(lambda x: (x * 3).sum())
    with profile():
        assert f(tapegrad.ones(4)).item() == 12.0
    assert registry._interceptor is None and _profiling.active is None
    assert f(tapegrad.ones(4)).item() == 12.0


def test_profilers_nest_and_an_error_inside_still_stops_them():
    with profile() as outer:
        with profile() as inner:
            tapegrad.ones(2) + 1
        tapegrad.ones(2) * 2
    assert [e.name for e in inner.events()] == ["aten::add"]
    assert [e.name for e in outer.events()] == ["aten::add", "aten::mul"]
    with pytest.raises(ValueError):
        with profile():
            with record_function("failing"):
                raise ValueError("inside")
    assert registry._interceptor is None and _profiling.active is None


def test_record_function_decorates_and_costs_nothing_without_a_profiler():
    @record_function("helper")
    def helper(t):
        return t * 2
    assert helper(tapegrad.ones(1)).item() == 2.0
    with profile() as prof:
        helper(tapegrad.ones(1))
    (event,) = [e for e in prof.events() if e.name == "helper"]
    assert [c.name for c in event.cpu_children] == ["aten::mul"]


def test_schedule_actions_match_pytorchs():
    torch = pytest.importorskip("torch")
    for options in [dict(wait=1, warmup=1, active=2), dict(wait=1, warmup=1, active=2, repeat=1),
                    dict(wait=2, warmup=1, active=1, repeat=2, skip_first=3),
                    dict(wait=3, warmup=1, active=2, skip_first=2, skip_first_wait=1)]:
        ours, theirs = schedule(**options), torch.profiler.schedule(**options)
        assert [ours(i).name for i in range(16)] == [theirs(i).name for i in range(16)]


def test_schedule_checks_its_arguments():
    with pytest.raises(AssertionError, match=r"active=0 \(need > 0\)"):
        schedule(wait=1, warmup=1, active=0)
    with pytest.warns(UserWarning, match="won't be using warmup"):
        schedule(wait=1, warmup=0, active=1)


def test_a_schedule_saves_each_active_window_and_discards_warmup():
    saved = []
    x = tapegrad.ones(2)

    def ready(prof):
        saved.append((prof.step_num, [e.name for e in prof.events()]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with profile(schedule=schedule(wait=1, warmup=1, active=2, repeat=2),
                     on_trace_ready=ready) as prof:
            for step in range(10):
                x + step
                prof.step()
    assert [step for step, _ in saved] == [4, 8]
    for _, names in saved:
        assert names.count("aten::add") == 2  # the two active steps, not the warm-up
        assert names.count("ProfilerStep*") == 2


def test_acc_events_keeps_every_cycle():
    x = tapegrad.ones(2)
    with profile(schedule=schedule(wait=0, warmup=1, active=1, repeat=3),
                 acc_events=True) as prof:
        for step in range(6):
            x * step
            prof.step()
    assert [e.name for e in prof.events()].count("aten::mul") == 3


def test_traces_are_written_for_chrome_and_tensorboard(tmp_path):
    prof = _profile_training_step(tapegrad, record_shapes=True)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    names = {e["name"] for e in trace["traceEvents"]}
    assert {"model_inference", "aten::addmm", EVALUATE + "AddmmBackward0"} <= names
    assert all(e["ph"] == "X" and e["dur"] >= 0 for e in trace["traceEvents"])
    for use_gzip in (False, True):
        folder = tmp_path / f"tb{use_gzip}"
        with profile(on_trace_ready=tensorboard_trace_handler(str(folder), "worker0",
                                                              use_gzip=use_gzip)):
            tapegrad.ones(2) * 2
        (name,) = os.listdir(folder)
        assert name.startswith("worker0.") and name.endswith(
            ".pt.trace.json" + (".gz" if use_gzip else ""))
        opener = gzip.open if use_gzip else open
        with opener(folder / name, "rt") as file:
            assert json.load(file)["traceEvents"][0]["name"] == "aten::mul"


def test_legacy_autograd_profiler():
    with tapegrad.autograd.profiler.profile() as prof:
        with tapegrad.autograd.profiler.record_function("block"):
            tapegrad.ones(2).exp()
    assert [a.key for a in prof.key_averages()] == ["block", "aten::exp"]
    assert "Self CPU time total" in prof.table()
    with tapegrad.autograd.profiler.profile(enabled=False) as off:
        tapegrad.ones(2).exp()
    with pytest.raises(RuntimeError, match="Profiler didn't finish running"):
        off.key_averages()


def test_activities():
    assert tapegrad.profiler.supported_activities() == {ProfilerActivity.CPU}
    assert ProfilerAction.RECORD_AND_SAVE.value == 3
