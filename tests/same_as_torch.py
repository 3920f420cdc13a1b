"""One case run on tapegrad and on PyTorch: the same values (float32 tolerance), or the same
exception type and message. ``case(lib)`` takes the library as its argument."""
import functools
import re
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


# -- what this machine's PyTorch does, asked at run time ------------------------------------------
# Some of PyTorch's last bits and messages depend on the CPU (its SIMD kernels, oneDNN's
# support of float16). Bitwise tests compare bits where this PyTorch rounds as their reference
# assumes, and fall back to a stated bound where it does not.

@functools.lru_cache(maxsize=None)
def torch_rounds_as_numpy(torch, name, dtype, low, high, log2=False):
    """Whether ``torch.<name>`` gives numpy's bits in ``dtype`` on this machine, on 65,543 values
    drawn from [low, high) (2 to those powers if ``log2``), its vectorised loop and its tail."""
    values = np.random.default_rng(0).uniform(low, high, 65543)
    values = (np.exp2(values) if log2 else values).astype(dtype)
    theirs = getattr(torch, name)(torch.from_numpy(values)).numpy()
    return bool(np.array_equal(getattr(np, name)(values), theirs))


def torch_convolves_half_on_onednn(torch):
    """Whether ATen's ``use_mkldnn`` sends float16 convolutions to oneDNN, as tapegrad assumes:
    only on CPUs with AVX512-FP16, AMX-FP16 or AVX-NE-CONVERT (``mkldnn_fp16_device_check``).
    Elsewhere its native kernels run them, and word a dtype mismatch their own way."""
    try:
        supported = torch.ops.mkldnn._is_mkldnn_fp16_supported()
    except (AttributeError, RuntimeError):
        supported = False
    return bool(torch.backends.mkldnn.is_available() and torch.backends.mkldnn.enabled
                and supported)


def as_worded_by_onednn(torch, message):
    """``message``, a native kernel's float16 dtype mismatch ("expected scalar type Half but
    found Float"), as oneDNN words it (this PyTorch's wording, taken from a float32
    convolution that oneDNN runs on any CPU: a batch of 16); any other message unchanged."""
    match = re.fullmatch(r"expected scalar type (Half) but found (\w+)", message)
    if match is None:
        return message
    try:
        torch.nn.functional.conv1d(torch.zeros(16, 1, 4), torch.ones(1, 1, 1, dtype=torch.float64))
    except RuntimeError as error:
        template = str(error)
    else:
        raise AssertionError("PyTorch accepted a float64 weight for a float32 input")
    return (template.replace("torch.FloatTensor", f"torch.{match[1]}Tensor")
            .replace("torch.DoubleTensor", f"torch.{match[2]}Tensor"))


def assert_float32_as_close_as_torch(ours, theirs, ours64, reference, ulps=4):
    """Where PyTorch's float32 kernels round differently here: ``ours`` within ``ulps`` units
    of the last place of the largest magnitude in ``theirs`` (measured so, as a difference of
    last bits carried to an element near zero is not thousands of that element's ulps); no
    farther from ``reference`` (PyTorch in float64) than ``theirs`` but for one such unit; and
    ``ours64`` (tapegrad in float64) equal to ``reference`` but for float64 rounding, which
    catches a wrong formula long before float32 would."""
    ours, theirs, reference = (np.asarray(a, np.float64) for a in (ours, theirs, reference))
    unit = float(np.spacing(np.float32(np.abs(theirs).max())))
    assert np.abs(ours - theirs).max() <= ulps * unit, np.abs(ours - theirs).max() / unit
    assert np.abs(ours - reference).max() <= np.abs(theirs - reference).max() + unit
    np.testing.assert_allclose(ours64, reference, rtol=1e-12, atol=1e-14)
