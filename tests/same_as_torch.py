"""One case run on tapegrad and on PyTorch: the same values (float32 tolerance), or the same
exception type and message. ``case(lib)`` takes the library as its argument."""
import warnings

import numpy as np

import tapegrad


def outcome(lib, case):
    """What ``case(lib)`` gives: numpy arrays for tensors (nested in tuples), else the
    exception's type name and message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = case(lib)
    except Exception as error:  # noqa: BLE001  the exception is the outcome being compared
        return type(error).__name__, str(error)
    return arrays(result)


def arrays(value):
    if isinstance(value, (tuple, list)):
        return tuple(arrays(v) for v in value)
    if hasattr(value, "detach"):
        return np.asarray(value.detach().numpy(), dtype=np.float64)
    return value


def assert_same(case, torch):
    """``case`` gives the same outcome with tapegrad as with ``torch``."""
    assert_equal(outcome(tapegrad, case), outcome(torch, case))


def assert_equal(ours, theirs):
    if isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), ours
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)  # float32 kernels
    elif isinstance(theirs, tuple) and theirs and not isinstance(theirs[0], str):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            assert_equal(a, b)
    else:
        assert ours == theirs
