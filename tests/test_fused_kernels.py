"""float32 ``a + alpha * b`` rounded once (PyTorch's fused multiply-add), in and out of place;
numpy's path and Numba's loops giving the same bits (``ops.single_rounding``)."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tapegrad
from tapegrad.ops import fused_kernels, single_rounding

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


# float32 operands whose sum a + b * c rounded to float64 lies exactly halfway between two
# float32 numbers, on the other side of the exact sum: rounding twice goes the wrong way
HALFWAY_A = np.array([2.0 ** 30 + 2 ** 7, -(2.0 ** 30 + 2 ** 7), 1.5], np.float32)
HALFWAY_B = np.array([2.0 ** 6 * (1 + 2 ** -18), -2.0 ** 6 * (1 + 2 ** -18), 1.0], np.float32)
HALFWAY_C = np.array([1 - 2 ** -18, 1 - 2 ** -18, 2.0 ** -149], np.float32)


def test_halfway_sums_round_once_on_both_paths():
    twice = (HALFWAY_A.astype(np.float64) + HALFWAY_B.astype(np.float64) * HALFWAY_C).astype(
        np.float32)
    assert (twice[:2] - HALFWAY_A[:2]).tolist() == [128.0, -128.0]
    expected = HALFWAY_A.copy()  # the exact sums lie below halfway: the first two stay put
    numpy_path = single_rounding._multiply_add_blocks(HALFWAY_A, HALFWAY_B, HALFWAY_C, (3,))
    loop = np.empty(3, np.float32)
    fused_kernels.multiply_add(loop, HALFWAY_A, HALFWAY_B, HALFWAY_C)
    assert np.array_equal(numpy_path, expected) and np.array_equal(loop, expected)
    for a, b, c in zip(HALFWAY_A, HALFWAY_B, HALFWAY_C):  # one 0-d value at a time
        scalar = single_rounding._multiply_add_blocks(*map(np.array, (a, b, c)), ())
        assert scalar.shape == () and scalar == a


@pytest.mark.parametrize("size", [1, 1000, 20_000])
def test_numpy_path_and_numba_loops_give_the_same_bits(size):
    rng = np.random.default_rng(size)
    exponents = rng.integers(-40, 40, (3, size))
    a, b, c = (rng.standard_normal((3, size)) * 2.0 ** exponents).astype(np.float32)
    a[:min(size, 4)] = [np.inf, np.nan, -0.0, 1e-40][:min(size, 4)]  # specials, a subnormal
    alpha = np.float32(-0.013)
    numpy_sum = single_rounding._multiply_add_blocks(a, alpha, b, a.shape)
    loop_sum = np.empty_like(a)
    fused_kernels.scaled_add(loop_sum, a, b, alpha)
    numpy_fma = single_rounding._multiply_add_blocks(a, b, c, a.shape)
    loop_fma = np.empty_like(a)
    fused_kernels.multiply_add(loop_fma, a, b, c)
    for ours, loops in ((numpy_sum, loop_sum), (numpy_fma, loop_fma)):
        assert np.array_equal(ours.view(np.int32), loops.view(np.int32))


def test_small_updates_do_not_import_numba():
    """Importing Numba costs a script's first optimizer step half a second: small float32
    updates round once without it."""
    program = textwrap.dedent("""
        import sys
        import tapegrad
        model = tapegrad.nn.Linear(64, 32)
        optimizer = tapegrad.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        for _ in range(2):
            optimizer.zero_grad()
            model(tapegrad.ones(4, 64)).square().mean().backward()
            optimizer.step()
        tapegrad.addcmul(tapegrad.ones(3), tapegrad.ones(3), tapegrad.ones(3), value=0.5)
        print("numba" in sys.modules)
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["False"]


def test_a_long_run_of_small_updates_moves_to_the_loops():
    """Once numpy has done its budget of small updates, Numba's loops take over (same bits)."""
    program = textwrap.dedent("""
        import sys
        import tapegrad
        from tapegrad.ops import single_rounding
        parameter = tapegrad.nn.Parameter(tapegrad.ones(10))
        optimizer = tapegrad.optim.SGD([parameter], lr=0.1)
        parameter.grad = tapegrad.ones(10)
        optimizer.step()
        before = "numba" in sys.modules
        single_rounding._numpy_work = single_rounding.NUMPY_BUDGET
        optimizer.step()
        import numpy as np
        twice = np.float32(np.float32(1) - np.float32(0.1)) - np.float32(0.1)  # (exact products)
        print(before, "numba" in sys.modules, parameter.tolist() == [float(twice)] * 10)
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["False", "True", "True"]
