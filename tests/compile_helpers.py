"""Shared pieces of the compiled-mode tests: a kernel cache for the session, comparisons."""
import os
import warnings

import numpy as np
import pytest

import tapegrad
from tapegrad.compile import CompileWarning


@pytest.fixture(scope="session", autouse=True)
def kernel_cache(tmp_path_factory):
    """One on-disk kernel cache for the whole session (and never the user's own)."""
    directory = tmp_path_factory.mktemp("tapegrad-kernels")
    previous = os.environ.get("TAPEGRAD_CACHE_DIR")
    os.environ["TAPEGRAD_CACHE_DIR"] = str(directory)
    yield directory
    if previous is None:
        os.environ.pop("TAPEGRAD_CACHE_DIR", None)
    else:
        os.environ["TAPEGRAD_CACHE_DIR"] = previous


@pytest.fixture
def no_fallback():
    """Fail on any tapegrad.compile warning (a graph break or a fallback to eager)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", CompileWarning)
        yield


def assert_close(compiled, eager, rtol=2e-5, atol=2e-6, what=""):
    compiled = compiled._array if isinstance(compiled, tapegrad.Tensor) else np.asarray(compiled)
    eager = eager._array if isinstance(eager, tapegrad.Tensor) else np.asarray(eager)
    assert compiled.shape == eager.shape, f"{what}: shape {compiled.shape} != {eager.shape}"
    assert compiled.dtype == eager.dtype, f"{what}: dtype {compiled.dtype} != {eager.dtype}"
    if compiled.dtype.kind in "biu":
        np.testing.assert_array_equal(compiled, eager, err_msg=what)
    else:
        np.testing.assert_allclose(compiled, eager, rtol=rtol, atol=atol, err_msg=what)


def fresh_leaves(tensors):
    """Independent copies of ``tensors`` (leaves keep requiring grad), for a second run."""
    copies = []
    for t in tensors:
        copy = tapegrad.Tensor._make(t._array.copy())
        if t.requires_grad:
            copy.requires_grad_(True)
        copies.append(copy)
    return copies
