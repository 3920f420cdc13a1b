"""The notebooks under notebooks/ are committed with their outputs and still run top to bottom.

Executing them is slow (a kernel per notebook), so those tests carry the ``notebook`` marker:
``pytest -m "not notebook"`` leaves them out.
"""
import json
import pathlib
import time

import pytest

NOTEBOOK_DIR = pathlib.Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
SECONDS_PER_NOTEBOOK = 300


def test_there_are_notebooks():
    assert [p.name for p in NOTEBOOKS][:1] == ["01_the_tape.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_with_outputs(path):
    cells = [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]
    unexecuted = [i for i, c in enumerate(cells) if c["execution_count"] is None]
    assert cells and not unexecuted, f"code cells {unexecuted} of {path.name} have no outputs"
    errors = [o["ename"] for c in cells for o in c["outputs"] if o["output_type"] == "error"]
    assert not errors, f"{path.name} was saved with errors: {errors}"


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_top_to_bottom(path):
    nbformat = pytest.importorskip("nbformat", reason="executing notebooks needs nbformat")
    nbclient = pytest.importorskip("nbclient", reason="executing notebooks needs nbclient")
    pytest.importorskip("ipykernel", reason="executing notebooks needs ipykernel")
    pytest.importorskip("matplotlib", reason="the notebooks plot with matplotlib")
    notebook = nbformat.read(path, as_version=4)
    deadline = time.monotonic() + SECONDS_PER_NOTEBOOK
    client = nbclient.NotebookClient(
        notebook, kernel_name="python3",
        timeout_func=lambda cell: max(1, int(deadline - time.monotonic())),
        resources={"metadata": {"path": str(NOTEBOOK_DIR)}})
    client.execute()  # raises CellExecutionError (naming the cell and its traceback) on any error
