"""Shared pytest configuration."""
import os
import sys

import pytest
from hypothesis import settings

# HYPOTHESIS_PROFILE=ci (set by .ci/run): property tests draw the same examples on every run, so
# whether a change lands never depends on what a random search happens to find that day. Run
# without it (the default) to keep exploring new examples.
settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "notebook: executes a notebook under notebooks/ (slow; deselect with -m 'not notebook')")


@pytest.fixture(autouse=True)
def _pytorch_validates_distribution_arguments():
    """The first ``torch.compile`` call switches off PyTorch's distribution argument checks for the
    whole process (``TorchPatcher.patch``). Tests that compare against those checks must not depend
    on whether a compile test ran earlier in the same worker, so each test starts from PyTorch's
    default."""
    torch = sys.modules.get("torch")
    if torch is not None and "torch.distributions" in sys.modules:
        torch.distributions.Distribution.set_default_validate_args(__debug__)
    yield


@pytest.fixture
def one_thread():
    """PyTorch and tapegrad both on one thread: some ATen kernels are chosen by the thread
    count (oneDNN's convolutions, the bilinear kernel of 3-channel images)."""
    torch = pytest.importorskip("torch")
    import tapegrad
    previous = torch.get_num_threads(), tapegrad.get_num_threads()
    for lib in (torch, tapegrad):
        lib.set_num_threads(1)
    yield
    for lib, threads in zip((torch, tapegrad), previous):
        lib.set_num_threads(threads)
