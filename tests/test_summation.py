"""Sums over leading axes add up in PyTorch's cascade order: as accurate as PyTorch's (the error
no longer grows with the row count) and, where PyTorch takes that path, bit for bit its sums."""
import numpy as np
import pytest

import tapegrad
from tapegrad.ops.summation import add_reduce

SHAPES = [((64, 128), (0,)), ((300, 64), (0,)), ((5000, 32), (0,)), ((70000, 64), (0,)),
          ((4, 50, 32), (0, 1)), ((100, 4, 8), (0,)), ((17, 64), (0,)), ((600000, 32), (0,))]


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


@pytest.mark.parametrize("shape, dims", SHAPES)
def test_leading_sums_are_pytorchs_bit_for_bit(shape, dims, torch):
    a = np.random.default_rng(len(shape) * shape[0]).standard_normal(shape).astype(np.float32)
    for name in ("sum", "mean"):
        ours = getattr(tapegrad.from_numpy(a), name)(dims).numpy()
        theirs = getattr(torch.from_numpy(a), name)(dims).numpy()
        assert np.array_equal(ours, theirs), name


def test_the_error_of_a_long_float32_sum_stays_small():
    a = np.full((40000, 64), 1 / 80000, dtype=np.float32)
    total = tapegrad.from_numpy(a).sum(0).numpy()
    sequential = np.add.reduce(a, axis=0)  # one running total: off in the fourth digit
    assert abs(sequential[0] - 0.5) > 1e-4
    np.testing.assert_allclose(total, 0.5, rtol=1e-6)


def test_a_bias_gradient_is_the_cascade_sum_of_its_output_gradient():
    x = tapegrad.from_numpy(np.random.default_rng(0).standard_normal((300, 8)).astype(np.float32))
    layer = tapegrad.nn.Linear(8, 64)
    out = layer(x)
    out.retain_grad()
    out.tanh().sum().backward()
    expected = add_reduce(out.grad.numpy(), (0,), False)
    assert np.array_equal(layer.bias.grad.numpy(), expected)
    assert np.allclose(expected, out.grad.numpy().astype(np.float64).sum(0), rtol=1e-6)


def test_other_sums_are_numpys():
    a = np.random.default_rng(1).standard_normal((40, 3, 5)).astype(np.float32)
    for axis in [(1,), (0, 2), (2,)]:  # not leading axes
        assert np.array_equal(add_reduce(a, axis, False), np.add.reduce(a, axis=axis))
    ints = np.arange(100).reshape(50, 2)
    assert np.array_equal(add_reduce(ints, (0,), True), np.add.reduce(ints, axis=(0,),
                                                                       keepdims=True))


def test_float16_sums_accumulate_in_float32(torch):
    a = (np.sin(np.linspace(-3, 3, 240)).reshape(2, 4, 5, 6) * 7).astype(np.float16)
    for dims in [(0, 2, 3), (1,), (0,), None]:
        ours = tapegrad.from_numpy(a.copy()).sum(dims) if dims else tapegrad.from_numpy(a).sum()
        theirs = torch.from_numpy(a.copy()).sum(dims) if dims else torch.from_numpy(a).sum()
        assert np.array_equal(ours.numpy(), theirs.numpy()), dims
    once = np.add.reduce(a.astype(np.float32), axis=(0, 2, 3)).astype(np.float16)
    assert np.array_equal(tapegrad.from_numpy(a).sum((0, 2, 3)).numpy(), once)
