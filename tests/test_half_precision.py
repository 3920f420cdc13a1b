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


ALL_HALVES = np.arange(0, 65536, 3, dtype=np.uint16).view(np.float16)
FINITE_HALVES = ALL_HALVES[np.isfinite(ALL_HALVES)]


def _rounded(value):
    return value.astype(np.float16)


def test_float16_times_a_scalar_reads_the_scalar_in_float32():
    # PyTorch's kernels compute half * scalar in float32 with float32(scalar), rounding once
    wide = FINITE_HALVES.astype(np.float32)
    x = tapegrad.from_numpy(FINITE_HALVES.copy())
    for scalar in (0.1, 1.7, 1e-3):
        s = np.float32(scalar)
        assert np.array_equal((x * scalar).numpy(), _rounded(wide * s))
        assert np.array_equal((scalar * x).numpy(), _rounded(wide * s))
        assert np.array_equal((x / scalar).numpy(), _rounded(wide / s))
        assert np.array_equal((x * tapegrad.tensor(scalar)).numpy(), _rounded(wide * s))
        inplace = x.clone()
        inplace.mul_(scalar)
        assert np.array_equal(inplace.numpy(), _rounded(wide * s))
        inplace = x.clone()
        inplace /= scalar
        assert np.array_equal(inplace.numpy(), _rounded(wide / s))
    assert (x * 0.1).dtype == tapegrad.float16 and (x / 3).dtype == tapegrad.float16
    assert not np.array_equal((x * 0.1).numpy(), FINITE_HALVES * np.float16(0.1))


def test_float16_add_with_alpha_computes_in_float32():
    wide = FINITE_HALVES.astype(np.float32)
    x = tapegrad.from_numpy(FINITE_HALVES.copy())
    y = x.flip(0)
    alpha = np.float32(np.float16(0.3))  # the kernel's scalar type
    expected = _rounded(wide + alpha * wide[::-1])
    assert np.array_equal(tapegrad.add(x, y, alpha=0.3).numpy(), expected)
    inplace = x.clone()
    inplace.add_(y, alpha=0.3)
    assert np.array_equal(inplace.numpy(), expected)


def test_float16_scalar_arithmetic_matches_pytorch():
    torch = pytest.importorskip("torch")

    def results(lib):
        x = lib.from_numpy(FINITE_HALVES.copy())
        y = x.flip(0)
        w = x.clone().requires_grad_()
        ((w * 0.3) / 1.3).backward(y)
        out = [x * 0.1, x / 0.3, 0.7 / x, lib.add(x, y, alpha=0.3), lib.sub(x, y, alpha=1.7),
               lib.addcmul(x, x, y, value=0.1), lib.addcdiv(x, x, y.abs() + 1, value=0.3),
               w.grad]
        return [t.detach().float().numpy() for t in out]

    for ours, theirs in zip(results(tapegrad), results(torch)):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("scale, factor", [(lambda loss: loss * 2.0, 2.0),
                                           (lambda loss: 2.0 * loss, 2.0),
                                           (lambda loss: loss / 4.0, 0.25)])
def test_a_scaled_half_loss_backpropagates_in_half(scale, factor):
    """Loss scaling (``(loss * scale).backward()``): the backward rule's saved number is still
    a number beside the 0-d float16 gradient, which stays float16 through the matmul."""
    w = tapegrad.ones(2, 2, dtype=tapegrad.float16, requires_grad=True)
    loss = (tapegrad.ones(2, 2, dtype=tapegrad.float16) @ w).sum()
    scale(loss).backward()
    assert w.grad.dtype == tapegrad.float16
    np.testing.assert_array_equal(w.grad.numpy(), np.full((2, 2), 2 * factor, np.float16))
