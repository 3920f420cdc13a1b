"""The on-disk kernel cache: a new process loads compiled kernels instead of compiling, and a
corrupt entry is rebuilt (checked through the compiler's own record, never through timing)."""
import glob
import os
import subprocess
import sys
import textwrap

import pytest

PROGRAM = textwrap.dedent("""
    import tapegrad
    tapegrad.compile.set_logs(kernels=True)

    @tapegrad.compile
    def f(x, w):
        return (tapegrad.tanh(x * w) + w).sum()

    x = tapegrad.arange(6.0)
    w = tapegrad.ones(6, requires_grad=True)
    f(x, w)
    out = f(x, w)
    out.backward()
    program = f.explain().specializations[-1].program
    print("loaded" if program.loaded_from_cache else "compiled", round(out.item(), 4),
          w.grad.tolist()[1])
""")


def _run(cache_dir):
    env = dict(os.environ, TAPEGRAD_CACHE_DIR=str(cache_dir))
    done = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.split(), done.stderr


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    cache_dir = tmp_path_factory.mktemp("kernel-cache")
    return cache_dir, _run(cache_dir)


def test_second_process_loads_the_kernels(first_run):
    cache_dir, (first, _) = first_run
    second, log = _run(cache_dir)
    assert first[0] == "compiled" and second[0] == "loaded", log
    assert first[1:] == second[1:]
    assert "loaded from" in log


def test_corrupt_source_is_rebuilt(first_run):
    cache_dir, (first, _) = first_run
    (source,) = glob.glob(os.path.join(cache_dir, "kernels", "k_*.py"))
    with open(source, "a") as file:
        file.write("\nthis is not python(\n")
    result, log = _run(cache_dir)
    assert "did not match its graph: rebuilt" in log
    assert result[0] == "compiled" and result[1:] == first[1:]


def test_corrupt_machine_code_is_rebuilt(first_run):
    cache_dir, (first, _) = first_run
    _run(cache_dir)  # make sure the entry is complete again
    files = glob.glob(os.path.join(cache_dir, "kernels", "__pycache__", "k_*"))
    assert files
    for path in files:
        with open(path, "wb") as file:
            file.write(b"\x00garbage" * 10)
    result, log = _run(cache_dir)
    assert result[1:] == first[1:], log
