"""The digits examples learn: their accuracy on a reduced budget, and the --compile switch."""
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sklearn")
pytest.importorskip("tqdm")

EXAMPLES = Path(__file__).parent.parent / "examples"
sys.path.insert(0, str(EXAMPLES))

import digits_cnn  # noqa: E402
import digits_mlp  # noqa: E402
import tapegrad  # noqa: E402
from digits_training import accuracy, digits_datasets, train  # noqa: E402


@pytest.mark.parametrize("example, image_shape, epochs, floor", [
    (digits_mlp, (64,), 4, 0.93),
    (digits_cnn, (1, 8, 8), 3, 0.85),
])
def test_example_learns_on_a_reduced_budget(example, image_shape, epochs, floor):
    tapegrad.manual_seed(0)
    model = example.build_model()
    train_set, test_set = digits_datasets(image_shape)
    assert (len(train_set), len(test_set)) == (1438, 359)
    assert accuracy(model, test_set) < 0.3  # untrained: chance level
    train(model, train_set, epochs=epochs, batch_size=64, lr=3e-3, seed=0, progress=False)
    assert accuracy(model, test_set) >= floor


def test_compile_flag_trains_the_compiled_model():
    proc = subprocess.run([sys.executable, "digits_mlp.py", "--compile", "--epochs", "3"],
                          cwd=EXAMPLES, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    accuracy_line = [line for line in proc.stdout.splitlines() if "test accuracy" in line][-1]
    assert float(accuracy_line.split(":")[1].strip(" %")) >= 85.0
