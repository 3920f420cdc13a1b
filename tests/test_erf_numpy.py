"""erf, erfc and erfinv in plain numpy (``tapegrad/ops/erf.py``): values against the C library
and PyTorch to the ulp, over grids reaching the tails where erfc underflows, the edge values,
the dtypes, gradients, GELU, and that eager mode never imports Numba for them."""
import importlib
import math
import subprocess
import sys

import numpy as np
import pytest

import tapegrad
from tapegrad.autograd import gradcheck

erf_module = importlib.import_module("tapegrad.ops.erf")  # ``tapegrad.ops.erf`` is the op

# a dense grid, the tails to where erfc(x) is subnormal and then 0, and tiny and huge magnitudes
GRID = np.concatenate([np.linspace(-30.0, 30.0, 120_001),
                       np.geomspace(1e-320, 40.0, 20_000), -np.geomspace(1e-320, 40.0, 20_000),
                       [0.46875, -0.46875, 4.0, -4.0, 26.5, 27.0, 27.2, 1e300, -1e300]])
EDGES = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -5e-324, 2.2e-308, 1e300, -1e300])


def _ulps(ours, reference):
    """The distance in units in the last place of ``reference`` (0 where equal)."""
    ours, reference = np.asarray(ours, np.float64), np.asarray(reference, np.float64)
    with np.errstate(invalid="ignore"):  # inf - inf where equal
        distance = np.abs(ours - reference) / np.spacing(np.abs(reference))
    return np.where(ours == reference, 0.0, distance)


def _float32_ulps(ours, reference):
    """The distance in float32 steps, by their ordered bit patterns."""
    def ordered(values):
        bits = values.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)
    return np.abs(ordered(ours) - ordered(reference))


@pytest.mark.parametrize("name", ["erf", "erfc"])
def test_float64_is_within_a_few_ulps_of_the_c_library(name):
    points = np.concatenate([np.linspace(-8.0, 8.0, 4001), np.geomspace(1e-300, 27.0, 2000)])
    ours = getattr(erf_module, name)(points)
    theirs = np.array([getattr(math, name)(x) for x in points])
    assert _ulps(ours, theirs).max() <= 8


@pytest.mark.parametrize("name", ["erf", "erfc"])
def test_float64_is_within_a_few_ulps_of_torch(name):
    torch = pytest.importorskip("torch")
    ours = getattr(erf_module, name)(GRID)
    theirs = getattr(torch, name)(torch.from_numpy(GRID)).numpy()
    assert _ulps(ours, theirs).max() <= 8
    np.testing.assert_array_equal(ours == 0, theirs == 0)  # the same underflow point


@pytest.mark.parametrize("name", ["erf", "erfc"])
def test_float32_is_within_an_ulp_of_torch(name):
    torch = pytest.importorskip("torch")
    points = GRID[np.abs(GRID) < 1e38].astype(np.float32)
    ours = getattr(erf_module, name)(points)
    theirs = getattr(torch, name)(torch.from_numpy(points)).numpy()
    assert ours.dtype == np.float32
    assert _float32_ulps(ours, theirs).max() <= 1
    assert np.mean(ours == theirs) > 0.98


def test_edge_values():
    erf, erfc = erf_module.erf(EDGES), erf_module.erfc(EDGES)
    np.testing.assert_array_equal(erf[:7], [np.nan, 1.0, -1.0, 0.0, -0.0, 5e-324, -5e-324])
    assert _ulps(erf[7], math.erf(2.2e-308)) <= 1
    np.testing.assert_array_equal(erf[8:], [1.0, -1.0])
    assert np.signbit(erf[4]) and not np.signbit(erf[3])
    np.testing.assert_array_equal(erfc, [np.nan, 0.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 2.0])
    # subnormal results, and the last one before 0
    np.testing.assert_array_equal(erf_module.erfc(np.array([26.6, 27.2, 27.3])),
                                  [math.erfc(26.6), math.erfc(27.2), 0.0])


def test_edge_values_equal_torchs():
    torch = pytest.importorskip("torch")
    for name in ("erf", "erfc", "erfinv"):
        for dtype in (np.float32, np.float64):
            points = np.concatenate([EDGES, [1.0, -1.0, 2.0, 1 - 1e-7, -0.5]])
            points = np.clip(points, -3e38, 3e38).astype(dtype)  # 1e300 -> float32's largest
            ours = getattr(erf_module, name)(points)
            theirs = getattr(torch, name)(torch.from_numpy(points)).numpy()
            np.testing.assert_allclose(ours, theirs, rtol=4e-16 if dtype == np.float64 else 1e-6)
            number = ~np.isnan(theirs)
            np.testing.assert_array_equal(np.signbit(ours[number]), np.signbit(theirs[number]))


def test_erfinv_is_within_a_few_ulps_of_torch():
    torch = pytest.importorskip("torch")
    points = np.concatenate([np.linspace(-1.0, 1.0, 200_001), 1 - np.geomspace(1e-16, 1, 2000),
                             np.geomspace(1e-320, 1, 2000)])
    theirs = torch.erfinv(torch.from_numpy(points)).numpy()
    assert _ulps(erf_module.erfinv(points), theirs).max() <= 8
    points = points.astype(np.float32)
    theirs = torch.erfinv(torch.from_numpy(points)).numpy()
    assert _float32_ulps(erf_module.erfinv(points), theirs).max() <= 1


def test_shapes_blocks_and_dtypes():
    values = np.random.default_rng(0).normal(size=(3, 20_001)) * 3  # several blocks
    for function in (erf_module.erf, erf_module.erfc, erf_module.erfinv):
        out = function(values[:, ::2])  # not contiguous
        assert out.shape == (3, 10_001) and out.dtype == np.float64
        assert function(np.float64(0.25)).shape == ()
        assert function(np.empty((0, 2))).shape == (0, 2)
        assert function(np.array([1, 0], dtype=np.int64)).dtype == np.float64
        assert function(np.array([0.5], dtype=np.float16)).dtype == np.float16


@pytest.mark.parametrize("name", ["erf", "erfc", "erfinv"])
def test_tensor_forms_and_dtypes_equal_torchs(name):
    torch = pytest.importorskip("torch")
    for values, dtype in [([0.1, -0.7, 0.3], "float32"), ([0.5, -0.25], "float16"),
                          ([1, 0, -2], "int64"), ([0.2, -0.9], "float64")]:
        ours = getattr(tapegrad, name)(tapegrad.tensor(values, dtype=getattr(tapegrad, dtype)))
        theirs = getattr(torch, name)(torch.tensor(values, dtype=getattr(torch, dtype)))
        assert str(ours.dtype) == str(theirs.dtype)
        np.testing.assert_allclose(ours.numpy().astype(float), theirs.numpy().astype(float),
                                   rtol=1e-3 if dtype == "float16" else 1e-6)
    ours, theirs = tapegrad.tensor([0.25, -0.5]), torch.tensor([0.25, -0.5])
    getattr(ours, name + "_")()
    getattr(theirs, name + "_")()
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-7)
    np.testing.assert_allclose(getattr(tapegrad.special, name)(tapegrad.tensor([0.3])).numpy(),
                               getattr(torch.special, name)(torch.tensor([0.3])).numpy(), rtol=1e-7)


@pytest.mark.parametrize("name", ["erf", "erfc"])
def test_gradients(name):
    x = tapegrad.tensor([-2.5, -0.4, 0.0, 0.3, 1.7, 4.5], dtype=tapegrad.float64,
                        requires_grad=True)
    assert gradcheck(getattr(tapegrad, name), (x,))
    assert type(getattr(tapegrad, name)(x).grad_fn).__name__ == name.capitalize() + "Backward0"


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gelu_values_and_gradients_equal_torchs(dtype):
    torch = pytest.importorskip("torch")
    values = np.concatenate([np.linspace(-12, 12, 2001), [0.0, -0.0, 1e-30, -40.0]])
    ours = tapegrad.tensor(values, dtype=getattr(tapegrad, dtype), requires_grad=True)
    theirs = torch.tensor(values, dtype=getattr(torch, dtype), requires_grad=True)
    ours_out = tapegrad.nn.GELU()(ours)
    theirs_out = torch.nn.GELU()(theirs)
    # for x << 0, x (1 + erf(x / sqrt 2)) / 2 cancels: an ulp of erf near -1 is |x| ulp(1) / 2
    tol = {"rtol": 1e-13, "atol": 1e-300} if dtype == "float64" else {"rtol": 2e-6, "atol": 1e-6}
    np.testing.assert_allclose(ours_out.detach().numpy(), theirs_out.detach().numpy(), **tol)
    ours_out.sum().backward()
    theirs_out.sum().backward()
    np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), **tol)


def test_gelu_gradcheck():
    x = tapegrad.tensor([-3.0, -0.6, 0.1, 0.9, 2.2], dtype=tapegrad.float64, requires_grad=True)
    assert gradcheck(tapegrad.nn.functional.gelu, (x,))


def test_eager_erf_does_not_import_numba():
    code = ("import sys, tapegrad as t\n"
            "x = t.randn(4, requires_grad=True)\n"
            "t.nn.GELU()(x).sum().backward()\n"
            "t.erf(x); t.erfc(x); t.erfinv(x.tanh()); t.special.erf(x)\n"
            "t.nn.init.trunc_normal_(t.empty(3))\n"
            "print('numba' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"
