"""float32 ``a + alpha * b`` rounded once (PyTorch's fused multiply-add), in and out of place."""
import numpy as np
import pytest

import tapegrad

rng = np.random.default_rng(5)
A = rng.standard_normal(10_001).astype(np.float32)
B = rng.standard_normal(10_001).astype(np.float32)


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def rounded_once(a, b, alpha):
    """The exact a + alpha * b (float32 products are exact in float64), rounded to float32."""
    return (a.astype(np.float64) + np.float64(np.float32(alpha)) * b.astype(np.float64)).astype(
        np.float32)


def test_add_and_sub_with_alpha_round_once():
    a, b = tapegrad.from_numpy(A.copy()), tapegrad.from_numpy(B.copy())
    assert np.array_equal(tapegrad.add(a, b, alpha=0.3).numpy(), rounded_once(A, B, 0.3))
    assert np.array_equal(tapegrad.sub(a, b, alpha=0.7).numpy(), rounded_once(A, B, -0.7))
    a.add_(b, alpha=-0.013)
    assert np.array_equal(a.numpy(), rounded_once(A, B, -0.013))
    twice = A + np.float32(-0.013) * B
    assert not np.array_equal(twice, a.numpy())  # numpy's two roundings differ somewhere


def test_the_same_as_pytorch(torch):
    def results(lib):
        a, b = lib.from_numpy(A.copy()), lib.from_numpy(B.copy())
        c = a[:7].clone()
        c.sub_(b[:7], alpha=1e-3)
        d = a.clone()
        d.add_(b, alpha=-0.013)
        return [lib.add(a, b, alpha=0.3).numpy(), lib.sub(a, b, alpha=0.7).numpy(), c.numpy(),
                d.numpy()]
    for ours, theirs in zip(results(tapegrad), results(torch)):
        assert np.array_equal(ours, theirs)


def test_other_cases_keep_their_paths_and_gradients():
    x = tapegrad.from_numpy(A[:6].copy())
    x.add_(x, alpha=2)  # the same array on both sides
    np.testing.assert_allclose(x.numpy(), A[:6] * 3, rtol=1e-6)
    row = tapegrad.from_numpy(B[:3].copy())
    grid = tapegrad.from_numpy(A[:6].reshape(2, 3).copy())
    np.testing.assert_allclose(tapegrad.add(grid, row, alpha=2).numpy(),
                               A[:6].reshape(2, 3) + 2 * B[:3], rtol=1e-6)  # broadcast
    a = tapegrad.from_numpy(A[:4].astype(np.float64)).requires_grad_()
    b = tapegrad.from_numpy(B[:4].astype(np.float64)).requires_grad_()
    tapegrad.sub(a, b, alpha=0.5).sum().backward()
    assert a.grad.tolist() == [1.0] * 4 and b.grad.tolist() == [-0.5] * 4


def fused(a, b, c):
    """``a + b * c`` rounded once: float64 products of float32 numbers are exact."""
    return (a.astype(np.float64) + b.astype(np.float64) * c.astype(np.float64)).astype(np.float32)


def test_addcmul_is_a_fused_multiply_add():
    a, b, c = (tapegrad.from_numpy(v) for v in (A, B, B[::-1].copy()))
    value = np.float32(0.3)
    expected = fused(A, value * B, B[::-1])
    assert np.array_equal(tapegrad.addcmul(a, b, c, value=0.3).numpy(), expected)
    inplace = a.clone()
    inplace.addcmul_(b, c, value=0.3)
    assert np.array_equal(inplace.numpy(), expected)
    assert not np.array_equal(A + value * B * B[::-1], expected)  # two roundings differ
    column = tapegrad.addcmul(a[:5].view(5, 1), b[:3], c[:3], value=0.3)  # broadcasting
    assert np.array_equal(column.numpy(), fused(A[:5, None], value * B[:3], B[::-1][:3]))


def test_addcmul_and_addcdiv_as_pytorch_forward_and_backward(torch):
    def results(lib, dtype):
        i = lib.arange(3001, dtype=dtype)
        a, b, c = (((i * k) % 1013 - 506) * 0.0009765625 * (1 + k / 1024) for k in (37, 91, 13))
        x, y, z = (v.clone().requires_grad_() for v in (a, b, c + 3))
        (lib.addcmul(x, y, z, value=0.3) + lib.addcdiv(x, y, z, value=-0.7)).backward(c)
        return [t.detach().numpy() for t in (lib.addcmul(a, b, c, value=0.1), x.grad, y.grad,
                                             z.grad)]

    for dtype in ("float32", "float64"):
        for ours, theirs in zip(results(tapegrad, getattr(tapegrad, dtype)),
                                results(torch, getattr(torch, dtype))):
            np.testing.assert_array_equal(ours, theirs)
