"""Differences found by the timm-style programs (tmm_*): channels-last layouts as ATen gives them.
A fresh channels-last output has PyTorch's exact strides, size-1 dims included (a 1x1 map of C
channels: (C, 1, C, C)), from pooling, resampling, pixel shuffling and convolution; the 1x1
adaptive average is ATen's mean restrided in place (``AsStridedBackward1``); a tensor with those
strides reads as channels-last again; ``sigmoid`` and its backward keep their operand's layout.
``nn.init.trunc_normal_`` samples by rejection as PyTorch 2.13 does (its errors for integer
tensors come from the kernel its interval picks). Compared with PyTorch where installed; plus
independent truths (the formula for the strides, values equal to the contiguous computation,
the truncated normal's mean) without it."""
import math
import warnings

import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as TF

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _values(shape):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.37) * 2).reshape(shape).astype(np.float32)


def _channels_last(lib, shape):
    """(``to`` restrides a one-channel batch too; ``contiguous`` would keep its C strides.)"""
    return lib.tensor(_values(shape)).to(memory_format=lib.channels_last)


def _fresh_channels_last_strides(shape):
    """PyTorch's strides for a new channels-last tensor: dense with channels innermost."""
    n, c, h, w = shape
    return (h * w * c, 1, w * c, c)


# (name, function of (lib, functional)) producing a channels-last result with size-1 dims
_SIZE_ONE_OUTPUTS = [
    ("adaptive_avg_pool2d to 1x1",
     lambda lib, fn: fn.adaptive_avg_pool2d(_channels_last(lib, (2, 3, 4, 5)), 1)),
    ("adaptive_max_pool2d to 1x1",
     lambda lib, fn: fn.adaptive_max_pool2d(_channels_last(lib, (2, 3, 4, 5)), 1)),
    ("adaptive_max_pool2d indices",
     lambda lib, fn: fn.adaptive_max_pool2d(_channels_last(lib, (2, 3, 4, 5)), 1,
                                            return_indices=True)[1]),
    ("avg_pool2d over the whole map",
     lambda lib, fn: fn.avg_pool2d(_channels_last(lib, (2, 3, 2, 4)), (2, 4))),
    ("max_pool2d over the whole map",
     lambda lib, fn: fn.max_pool2d(_channels_last(lib, (2, 3, 2, 4)), (2, 4))),
    ("nearest resize to 1x1",
     lambda lib, fn: fn.interpolate(_channels_last(lib, (2, 3, 4, 4)), size=(1, 1))),
    ("pixel_shuffle to one channel",
     lambda lib, fn: fn.pixel_shuffle(_channels_last(lib, (2, 4, 2, 3)), 2)),
    ("pad of a one-channel map",
     lambda lib, fn: fn.pad(_channels_last(lib, (2, 1, 3, 3)), (1, 1, 1, 1))),
]


@pytest.mark.parametrize("name, make", _SIZE_ONE_OUTPUTS, ids=[n for n, _ in _SIZE_ONE_OUTPUTS])
def test_channels_last_outputs_have_fresh_strides(name, make):
    out = make(tapegrad, TF)
    assert out.stride() == _fresh_channels_last_strides(out.shape)
    assert out.is_contiguous(memory_format=tapegrad.channels_last)


@needs_torch
@pytest.mark.parametrize("name, make", _SIZE_ONE_OUTPUTS, ids=[n for n, _ in _SIZE_ONE_OUTPUTS])
def test_channels_last_outputs_match_torch(name, make):
    ours, theirs = make(tapegrad, TF), make(torch, F)
    assert ours.stride() == theirs.stride()
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_global_average_is_a_restrided_mean():
    x = _channels_last(tapegrad, (2, 3, 4, 5)).requires_grad_()
    out = TF.adaptive_avg_pool2d(x, 1)
    assert out.stride() == (3, 1, 3, 3)
    assert type(out.grad_fn).__name__ == "AsStridedBackward1"
    assert type(out.grad_fn.next_functions[0][0]).__name__ == "MeanBackward1"
    expected = _values((2, 3, 4, 5)).mean((2, 3), keepdims=True)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-6)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full((2, 3, 4, 5), 1 / 20), rtol=1e-6)
    # a contiguous batch keeps the plain mean
    plain = TF.adaptive_avg_pool2d(tapegrad.tensor(_values((2, 3, 4, 5)), requires_grad=True), 1)
    assert type(plain.grad_fn).__name__ == "MeanBackward1"


def test_global_average_3d_keeps_channels_last_3d():
    x = tapegrad.tensor(_values((2, 3, 2, 2, 2))).contiguous(
        memory_format=tapegrad.channels_last_3d)
    assert TF.adaptive_avg_pool3d(x, 1).stride() == (3, 1, 3, 3, 3)


def test_size_one_channels_last_feeds_a_channels_last_conv():
    """(N, C, 1, 1) with strides (C, 1, C, C) reads as channels-last (suggest_memory_format), so
    a 1x1 conv head after global pooling stays channels-last, as in PyTorch."""
    pooled = TF.adaptive_avg_pool2d(_channels_last(tapegrad, (2, 3, 4, 4)), 1)
    conv = tapegrad.nn.Conv2d(3, 5, 1)
    out = conv(pooled)
    assert out.stride() == (5, 1, 5, 5)
    expected = conv(tapegrad.tensor(pooled.detach().numpy().copy()))
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-6)


def test_sigmoid_keeps_the_layout():
    x = _channels_last(tapegrad, (2, 3, 4, 5)).requires_grad_()
    h = x * 1
    gate = h.sigmoid()
    assert gate.is_contiguous(memory_format=tapegrad.channels_last)
    swish = h * h.sigmoid()
    assert swish.is_contiguous(memory_format=tapegrad.channels_last)
    np.testing.assert_allclose(gate.detach().numpy(), 1 / (1 + np.exp(-_values((2, 3, 4, 5)))),
                               rtol=1e-6)
    grad = tapegrad.ones(2, 3, 4, 5).contiguous(memory_format=tapegrad.channels_last)
    (dx,) = tapegrad.autograd.grad(gate, h, grad)
    assert dx.is_contiguous(memory_format=tapegrad.channels_last)
    s = 1 / (1 + np.exp(-_values((2, 3, 4, 5)).astype(np.float64)))
    np.testing.assert_allclose(dx.numpy(), s * (1 - s), rtol=1e-5)


@needs_torch
def test_sigmoid_layouts_match_torch():
    def case(lib):
        x = _channels_last(lib, (2, 3, 4, 5))
        sliced = lib.tensor(_values((2, 3, 4))).transpose(1, 2)
        return [x.sigmoid().stride(), (x * x.sigmoid()).stride(), sliced.sigmoid().stride()]
    assert case(tapegrad) == case(torch)


def _truncated_normal_mean(a, b):
    """The mean of the standard normal truncated to [a, b]: (pdf(a) - pdf(b)) / mass."""
    pdf = lambda x: np.exp(-x * x / 2) / np.sqrt(2 * np.pi)  # noqa: E731
    cdf = lambda x: (1 + math.erf(x / np.sqrt(2))) / 2  # noqa: E731
    return (pdf(a) - pdf(b)) / (cdf(b) - cdf(a))


@pytest.mark.parametrize("a, b", [(-1.0, 0.5), (2.0, 3.0), (-0.25, 0.25)])
def test_trunc_normal_samples_the_truncated_distribution(a, b):
    """Both of PyTorch's samplers (normals redrawn outside a wide interval, uniform proposals
    accepted by density on a narrow or far one) keep to [a, b] with the truncated mean."""
    tapegrad.manual_seed(0)
    values = tapegrad.nn.init.trunc_normal_(tapegrad.empty(40000), 0.0, 1.0, a, b).numpy()
    assert values.min() >= a and values.max() <= b
    assert abs(values.mean() - _truncated_normal_mean(a, b)) < 0.01
    assert np.unique(values).size > 39000  # no clamped pile-up at a bound


@pytest.mark.parametrize("shape", [(), (0, 3), (2, 1, 3)])
def test_trunc_normal_fills_any_shape(shape):
    for a, b in [(-2.0, 2.0), (2.0, 3.0)]:
        values = tapegrad.nn.init.trunc_normal_(tapegrad.empty(shape), 0.0, 1.0, a, b)
        assert values.shape == shape and bool(((values >= a) & (values <= b)).all())


def test_trunc_normal_keeps_float16_inside_its_bounds():
    values = tapegrad.nn.init.trunc_normal_(tapegrad.empty(5000, dtype=tapegrad.float16), 0.0, 0.02,
                                            -0.03, 0.03)
    assert values.dtype == tapegrad.float16 and float(values.abs().max()) <= np.float16(0.03)


@pytest.mark.parametrize("mean", [0.0, 5.0])  # the normal sampler, the uniform one
def test_trunc_normal_refuses_integer_tensors(mean):
    kernel = "normal_kernel_cpu" if mean == 0.0 else "check_uniform_bounds"
    with pytest.raises(NotImplementedError, match=f'"{kernel}" not implemented for \'Int\''), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (mean 5 is far from [-2, 2])
        tapegrad.nn.init.trunc_normal_(tapegrad.empty(3, dtype=tapegrad.int32), mean=mean)


@needs_torch
@pytest.mark.parametrize("kwargs", [dict(), dict(mean=5.0), dict(a=1.0, b=-1.0), dict(std=0.0)])
def test_trunc_normal_errors_match_torch(kwargs):
    def case(lib):
        outcomes = []
        for dtype in (lib.int32, lib.float32):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    filled = lib.nn.init.trunc_normal_(lib.empty(3, dtype=dtype), **kwargs)
                    outcomes.append(filled.dtype)
                except Exception as error:  # noqa: BLE001  the outcome compared
                    outcomes.append((type(error).__name__, str(error)))
        return [str(o) for o in outcomes]
    assert case(tapegrad) == case(torch)
