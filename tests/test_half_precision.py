"""float16 sigmoid and tanh, forward and backward, rounded where PyTorch's CPU kernels round."""
import numpy as np
import pytest

import tapegrad


def _values(lib):
    return lib.linspace(-8, 8, 257).half()


def _sigmoid_and_tanh(lib):
    results = []
    for name in ("sigmoid", "tanh"):
        x = _values(lib).requires_grad_()
        y = getattr(x, name)()
        y.backward(lib.linspace(-2, 2, 257).half())
        results += [y.detach().float().numpy(), x.grad.float().numpy()]
    return results


def test_float16_sigmoid_and_tanh_match_pytorch_bit_for_bit():
    torch = pytest.importorskip("torch")
    for ours, theirs in zip(_sigmoid_and_tanh(tapegrad), _sigmoid_and_tanh(torch)):
        np.testing.assert_array_equal(ours, theirs)


def test_float16_sigmoid_is_the_float32_value_rounded_once():
    x = _values(tapegrad)
    exact = 1 / (1 + np.exp(-x.float().numpy().astype(np.float64)))
    assert np.array_equal(x.sigmoid().numpy(), exact.astype(np.float32).astype(np.float16))
