"""Differences found by the audio / 1-D signal programs (aud_*): convolutions and max pooling of
an empty batch, ATen's order and wording of convolution checks (weight rank, string padding,
oneDNN's dtype-mismatch message), a transposed layer given a padding string, the size checks of
the 1-d poolings, ``lp_pool`` with an infinite norm, adaptive max pooling of integers, and a
window function's length argument."""
import numpy as np
import pytest

import tapegrad
import tapegrad.nn.functional as TF
from same_as_torch import (as_worded_by_onednn, assert_same, outcome,
                           torch_convolves_half_on_onednn)

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _wave(lib, *shape):
    return lib.sin(lib.arange(float(np.prod(shape))).reshape(*shape) * 0.7)


# -- empty batches ------------------------------------------------------------------------------

@pytest.mark.parametrize("call, expected", [
    (lambda x: TF.conv1d(x, tapegrad.ones(4, 4, 3)), (0, 4, 8)),
    (lambda x: TF.conv1d(x, tapegrad.ones(4, 2, 3), groups=2, padding="same"), (0, 4, 10)),
    (lambda x: TF.conv_transpose1d(x, tapegrad.ones(4, 4, 3), stride=2), (0, 4, 21)),
    (lambda x: TF.max_pool1d(x, 2), (0, 4, 5)),
    (lambda x: TF.max_pool1d(x, 3, 2, 1, return_indices=True)[1], (0, 4, 5)),
])
def test_an_empty_batch_gives_an_empty_result_and_gradient(call, expected):
    x = tapegrad.zeros(0, 4, 10, requires_grad=True)
    out = call(x)
    assert tuple(out.shape) == expected
    if out.requires_grad:
        out.sum().backward()
        assert tuple(x.grad.shape) == (0, 4, 10)


def test_conv2d_of_an_empty_batch_has_a_zero_weight_gradient():
    w = tapegrad.ones(4, 4, 3, 3, requires_grad=True)
    out = TF.conv2d(tapegrad.zeros(0, 4, 6, 6), w)
    assert tuple(out.shape) == (0, 4, 4, 4)
    out.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), np.zeros((4, 4, 3, 3)))


# -- convolution checks ------------------------------------------------------------------------

CONV_ERRORS = [
    lambda t: t.nn.functional.conv1d(_wave(t, 2, 4, 10), t.ones(4, 4)),
    lambda t: t.nn.functional.conv1d(_wave(t, 2, 4, 10), t.ones(4)),
    lambda t: t.nn.functional.conv2d(_wave(t, 2, 4, 6, 6), t.ones(4, 4)),
    lambda t: t.nn.functional.conv_transpose1d(_wave(t, 2, 4, 10), t.ones(4, 4)),
    lambda t: t.nn.functional.conv1d(_wave(t, 2, 4, 10), t.ones(4, 2, 3), padding="same",
                                     stride=2),
    lambda t: t.nn.functional.conv1d(_wave(t, 4, 10), t.ones(4, 2, 3), padding="same", stride=2),
    lambda t: t.nn.functional.conv1d(_wave(t, 2, 4, 10), t.ones(4, 4, 3), padding="same",
                                     stride=2, groups=0),
    lambda t: t.nn.functional.conv1d(_wave(t, 2, 4, 10).double(), t.ones(4, 4, 3),
                                     padding="same", stride=2),
    lambda t: t.nn.functional.conv1d(_wave(t, 2, 4, 10), t.ones(4, 4, 3, 3), padding="same"),
    lambda t: t.nn.functional.conv1d(_wave(t, 2, 4, 10), t.ones(4, 4, 3, 3)),
    lambda t: t.nn.functional.conv1d(_wave(t, 2, 4, 10), t.ones(4, 4, 3), padding="foo",
                                     groups=3),
]


@needs_torch
@pytest.mark.parametrize("case", CONV_ERRORS)
def test_convolution_checks_in_atens_order(case):
    assert_same(case, torch)


def _mismatch(shape, kernel, **kw):
    dims = len(shape) - 2
    conv = ["conv1d", "conv2d", "conv3d"][dims - 1]
    return lambda t: getattr(t.nn.functional, conv)(
        t.zeros(*shape), t.ones(*shape[1:2], *shape[1:2], *kernel, dtype=t.float64), **kw)


@needs_torch
@pytest.mark.parametrize("case", [
    _mismatch((2, 4, 10), (3,)), _mismatch((1, 4, 10), (3,)), _mismatch((1, 4, 10), (3,), stride=2),
    _mismatch((2, 4, 10), (1,)), _mismatch((16, 4, 10), (1,)), _mismatch((1, 4, 6000), (3,)),
    _mismatch((1, 4, 10, 10), (3, 3)), _mismatch((1, 4, 10, 10), (5, 5)),
    _mismatch((2, 4, 5, 5, 5), (3, 3, 3)),
    lambda t: t.nn.functional.conv1d(t.zeros(1, 4, 10), t.ones(4, 2, 3, dtype=t.float64),
                                     groups=2),
    lambda t: t.nn.functional.conv_transpose1d(t.zeros(2, 4, 10), t.ones(4, 4, 3,
                                                                          dtype=t.float64)),
    lambda t: t.nn.functional.conv1d(t.zeros(1, 4, 10).half(), t.ones(4, 4, 1)),
    lambda t: t.nn.functional.conv1d(t.zeros(2, 4, 10).double(), t.ones(4, 4, 3)),
])
def test_dtype_mismatch_is_worded_by_the_backend_aten_picks(case, one_thread):
    """tapegrad words a float16 input's mismatch as oneDNN, which runs float16 convolutions
    only on CPUs with float16 support; elsewhere PyTorch's native kernels word it."""
    theirs = outcome(torch, case)
    if not torch_convolves_half_on_onednn(torch):
        theirs = (theirs[0], as_worded_by_onednn(torch, theirs[1]))
    assert outcome(tapegrad, case) == theirs


def test_with_more_threads_float32_convolutions_go_to_onednn():
    previous = tapegrad.get_num_threads()
    tapegrad.set_num_threads(2)
    try:
        with pytest.raises(RuntimeError, match="should be the same or input should be a MKLDNN"):
            TF.conv1d(tapegrad.zeros(2, 4, 10), tapegrad.ones(4, 4, 1, dtype=tapegrad.float64))
    finally:
        tapegrad.set_num_threads(previous)


def _conv_with(input_shape, weight_shape, transposed=False, weight_dtype=None, **kw):
    def case(t):
        name = "conv_transpose1d" if transposed else "conv1d"
        weight = t.ones(*weight_shape, dtype=weight_dtype and getattr(t, weight_dtype))
        return getattr(t.nn.functional, name)(t.zeros(*input_shape), weight, **kw)
    return case


ORDER_CASES = [  # two faults at once: which one ATen reports
    _conv_with((2, 4, 10), (4, 4, 3), bias=None, padding=-1, stride=0),
    _conv_with((2, 4, 10), (4, 4, 3), stride=0, dilation=-1),
    _conv_with((2, 3, 10), (4, 4, 3), dilation=-1),
    _conv_with((2, 3, 10), (4, 4, 3), dilation=0),
    _conv_with((2, 4, 10), (4, 4, 3, 3), padding=-1),
    _conv_with((2, 4, 10), (4, 4, 3), weight_dtype="float64", padding=-1),
    _conv_with((2, 4, 10), (4, 4, 3), weight_dtype="float64", dilation=-1),
    _conv_with((2, 4, 10), (4, 4, 3), weight_dtype="float64", dilation=0),
    _conv_with((1, 4, 10), (4, 4, 1), weight_dtype="float64", dilation=0),
    _conv_with((2, 3, 10), (4, 4, 3), weight_dtype="float64"),
    _conv_with((2, 4, 2), (4, 4, 3), weight_dtype="float64"),
    _conv_with((2, 4, 10), (4, 4, 3), weight_dtype="float64", bias=None, padding=(-1,)),
    _conv_with((2, 4, 10), (4, 4, 3), dilation=(0,)),
    _conv_with((1, 4, 10), (4, 4, 1), dilation=0),
    _conv_with((2, 4, 10), (4, 4, 3), padding="same", dilation=0),
    _conv_with((2, 4, 10), (3, 4, 3), True, padding=-1),
    _conv_with((2, 4, 10), (3, 4, 3), True, output_padding=-1),
    _conv_with((2, 4, 10), (4, 4, 3), True, weight_dtype="float64", dilation=-1),
    _conv_with((2, 4, 10), (4, 4, 3), True, weight_dtype="float64", stride=0),
    _conv_with((2, 4, 10), (4, 4, 3), True, weight_dtype="float64", output_padding=2),
    _conv_with((2, 3, 10), (4, 4, 3), True, weight_dtype="float64", dilation=0),
    _conv_with((2, 4, 10), (4, 4, 3), True, dilation=0),
    _conv_with((1, 4, 10), (4, 4, 3), True, dilation=0),
    lambda t: t.nn.functional.conv1d(t.zeros(2, 4, 10), t.ones(4, 4, 3),
                                     t.zeros(4, dtype=t.float64), padding=-1),
    lambda t: t.nn.functional.conv1d(t.zeros(2, 4, 10), t.ones(4, 4, 3, dtype=t.float64),
                                     t.zeros(3)),
]


@needs_torch
@pytest.mark.parametrize("case", ORDER_CASES)
def test_convolution_faults_are_reported_in_atens_order(case, one_thread):
    assert_same(case, torch)


# -- transposed layers given a padding string --------------------------------------------------

def test_conv_transpose_keeps_a_padding_string_as_a_sequence_as_pytorch_does():
    layer = tapegrad.nn.ConvTranspose1d(3, 3, 3, padding="same")
    assert layer.padding == ("s", "a", "m", "e")
    with pytest.raises(TypeError, match=r"conv_transpose1d\(\): argument 'padding' \(position 5\) "
                                        r"must be tuple of ints, but found element of type str "
                                        r"at pos 0"):
        layer(tapegrad.zeros(1, 3, 8))


@needs_torch
@pytest.mark.parametrize("case", [
    lambda t: t.nn.ConvTranspose1d(3, 3, 3, padding="valid")(t.zeros(1, 3, 8)),
    lambda t: t.nn.functional.conv_transpose1d(t.zeros(1, 4, 5), t.ones(4, 4, 3), None, 1,
                                               (1.5,)),
    lambda t: t.nn.functional.conv_transpose1d(t.zeros(1, 4, 5), t.ones(4, 4, 3),
                                               padding="same"),
    lambda t: repr(t.nn.ConvTranspose1d(3, 3, 3, padding="same")),
])
def test_conv_transpose_padding_arguments_match_torch(case):
    assert_same(case, torch)


# -- 1-d pooling -------------------------------------------------------------------------------

POOL_CASES = [
    lambda t: t.nn.functional.avg_pool1d(_wave(t, 2, 3, 10), 2, (2, 2)),
    lambda t: t.nn.functional.avg_pool1d(_wave(t, 2, 3, 10), 2, 2, (1, 1)),
    lambda t: t.nn.functional.avg_pool1d(_wave(t, 2, 3, 10), [2, 2]),
    lambda t: t.nn.functional.avg_pool1d(_wave(t, 2, 3, 10), ()),
    lambda t: t.nn.functional.max_pool1d(_wave(t, 2, 3, 10), (2, 2)),
    lambda t: t.nn.functional.max_pool1d(_wave(t, 2, 3, 10), 2, (2, 2)),
    lambda t: t.nn.functional.max_pool1d(_wave(t, 2, 3, 10), 2, 2, (1, 1)),
    lambda t: t.nn.functional.max_pool1d(_wave(t, 2, 3, 10), 2, 2, 0, (1, 1)),
    lambda t: t.nn.functional.max_pool1d(_wave(t, 2, 3, 10), ()),
    lambda t: t.nn.functional.max_pool1d(_wave(t, 2, 3, 10), (2, 2), return_indices=True),
    lambda t: t.nn.functional.max_pool1d(_wave(t, 2, 3, 10), 2, 2, 0, (1, 1),
                                         return_indices=True),
    lambda t: t.nn.functional.max_pool1d(_wave(t, 2, 3, 10), 3, 2, (1,), return_indices=True),
    lambda t: t.nn.functional.avg_pool1d(_wave(t, 2, 3, 10), 3, 2, [1]),
    lambda t: t.nn.functional.max_pool1d(t.zeros(2, 3, 0), 2),
    lambda t: t.nn.functional.max_pool1d(t.zeros(2, 0, 4), 2),
    lambda t: t.nn.functional.max_pool1d(t.zeros(0, 10), 2),
    lambda t: t.nn.functional.max_pool1d(t.zeros(2, 3, 0), 2, return_indices=True),
    lambda t: t.nn.functional.max_pool2d(t.zeros(2, 3, 0, 4), 2),
    lambda t: t.nn.functional.avg_pool2d(t.zeros(3, 0, 4), 2),
    lambda t: t.nn.functional.lp_pool1d(_wave(t, 2, 3, 10), 2, (2, 2)),
    lambda t: t.nn.functional.lp_pool1d(_wave(t, 2, 3, 10), float("inf"), 3),
    lambda t: t.nn.functional.lp_pool1d(_wave(t, 2, 3, 10), -float("inf"), 3, 2, True),
    lambda t: t.nn.functional.lp_pool2d(_wave(t, 2, 3, 10), float("inf"), 2),
    lambda t: t.nn.functional.adaptive_avg_pool1d(_wave(t, 2, 3, 10), None),
    lambda t: t.nn.functional.adaptive_max_pool1d(_wave(t, 2, 3, 10), 2.0),
    lambda t: t.nn.functional.adaptive_avg_pool1d(_wave(t, 2, 3, 10), (None,)),
    lambda t: t.nn.functional.adaptive_max_pool1d(_wave(t, 2, 3, 10).long(), 2),
    lambda t: t.nn.functional.adaptive_max_pool2d(_wave(t, 2, 3, 10).int(), 2),
    lambda t: t.nn.functional.adaptive_max_pool3d(t.zeros(1, 2, 2, 2, 2).long(), 2),
]


@needs_torch
@pytest.mark.parametrize("case", POOL_CASES)
def test_1d_pooling_arguments_match_torch(case):
    assert_same(case, torch)


def test_lp_pool_with_an_infinite_norm_is_the_max_of_magnitudes():
    x = tapegrad.tensor([[[1.0, -3.0, 2.0, 0.5, -0.25, 4.0]]], requires_grad=True)
    out = TF.lp_pool1d(x, float("inf"), 3)
    np.testing.assert_array_equal(out.detach().numpy(), [[[3.0, 4.0]]])
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[[0.0, -1.0, 0.0, 0.0, 0.0, 1.0]]])
    low = TF.lp_pool1d(x, -float("inf"), 3)
    np.testing.assert_array_equal(low.detach().numpy(), [[[1.0, 0.25]]])


def test_lp_pool_of_a_finite_norm_approaches_the_max_as_the_norm_grows():
    x = tapegrad.tensor([[[1.0, -3.0, 2.0, 0.5, -0.25, 4.0]]], dtype=tapegrad.float64)
    np.testing.assert_allclose(TF.lp_pool1d(x.abs(), 200.0, 3).numpy(),
                               TF.lp_pool1d(x, float("inf"), 3).numpy(), rtol=1e-2)


# -- window functions --------------------------------------------------------------------------

@pytest.mark.parametrize("length", [5.0, None, "5"])
def test_a_window_length_must_be_an_int(length):
    with pytest.raises(TypeError, match=r"hann_window\(\): argument 'window_length' "
                                        r"\(position 1\) must be int, not"):
        tapegrad.hann_window(length)


def test_a_window_length_may_be_anything_with_index():
    np.testing.assert_allclose(tapegrad.hamming_window(np.int64(4)).numpy(),
                               tapegrad.hamming_window(4).numpy())


# -- torch.signal.windows ----------------------------------------------------------------------

def test_signal_windows_is_reachable_from_the_top_level_package():
    assert tapegrad.signal.windows.hann is tapegrad.signal.hann


@pytest.mark.parametrize("M", [2, 5, 8])
def test_scipy_style_windows_match_their_formulas(M):
    windows = tapegrad.signal.windows
    n = np.arange(M)
    np.testing.assert_allclose(windows.hann(M, dtype=tapegrad.float64).numpy(),
                               0.5 - 0.5 * np.cos(2 * np.pi * n / (M - 1)), atol=1e-12)
    np.testing.assert_allclose(windows.hamming(M, sym=False).numpy(),
                               tapegrad.hamming_window(M, periodic=True).numpy(), atol=1e-6)
    np.testing.assert_allclose(windows.bartlett(M, dtype=tapegrad.float64).numpy(),
                               1 - np.abs(2 * n / (M - 1) - 1), atol=1e-12)
    np.testing.assert_allclose(windows.gaussian(M, std=1.5, dtype=tapegrad.float64).numpy(),
                               np.exp(-0.5 * ((n - (M - 1) / 2) / 1.5) ** 2), atol=1e-12)
    np.testing.assert_allclose(windows.kaiser(M, beta=5.0, dtype=tapegrad.float64).numpy(),
                               np.kaiser(M, 5.0), atol=1e-12)
    np.testing.assert_allclose(windows.cosine(M, dtype=tapegrad.float64).numpy(),
                               np.sin(np.pi * (n + 0.5) / M), atol=1e-12)


def test_a_window_asked_to_require_grad_carries_its_graph():
    window = tapegrad.signal.windows.gaussian(5, requires_grad=True)
    assert window.requires_grad and window.grad_fn is not None


SIGNAL_CASES = [
    lambda t: t.signal.windows.hann(6, sym=False),
    lambda t: t.signal.windows.blackman(7, dtype=t.float64),
    lambda t: t.signal.windows.nuttall(6),
    lambda t: t.signal.windows.general_cosine(6, a=[0.5, 0.3, 0.2]),
    lambda t: t.signal.windows.general_hamming(6, alpha=0.6, sym=False),
    lambda t: t.signal.windows.exponential(7, tau=2.0),
    lambda t: t.signal.windows.exponential(6, center=1.0, sym=False),
    lambda t: t.signal.windows.kaiser(6, beta=4.0, sym=False),
    lambda t: t.signal.windows.exponential(6, center=1.0),
    lambda t: t.signal.windows.gaussian(5, std=-1.0),
    lambda t: t.signal.windows.kaiser(5, beta=-1.0),
    lambda t: t.signal.windows.general_cosine(5, a=[]),
    lambda t: t.signal.windows.general_cosine(5, a=3),
    lambda t: t.signal.windows.hann(-2),
    lambda t: t.signal.windows.blackman(-1),
    lambda t: t.signal.windows.hann(5, dtype=t.float16),
    lambda t: t.signal.windows.hann(0),
    lambda t: t.signal.windows.bartlett(1),
]


@needs_torch
@pytest.mark.parametrize("case", SIGNAL_CASES)
def test_signal_windows_match_torch(case):
    import torch.signal  # noqa: F401  (older PyTorch builds load it lazily)
    assert_same(case, torch)


# -- the layers' hooks for subclasses ----------------------------------------------------------

def test_conv_forward_convolves_with_the_weight_it_is_given():
    layer = tapegrad.nn.Conv1d(2, 3, 3, padding=1, padding_mode="circular")
    x = _wave(tapegrad, 1, 2, 7)
    doubled = layer._conv_forward(x, layer.weight * 2, None)
    expected = 2 * (layer(x) - layer.bias.view(1, 3, 1))
    np.testing.assert_allclose(doubled.detach().numpy(), expected.detach().numpy(), atol=1e-5)


@needs_torch
@pytest.mark.parametrize("size", [[20], [23], [2, 4, 21], [30]])
def test_output_padding_takes_pytorchs_geometry_arguments(size):
    def case(t):
        layer = t.nn.ConvTranspose1d(4, 2, 4, stride=4)
        return layer._output_padding(t.zeros(2, 4, 5), size, [4], [0], [4], 1, [1])
    assert_same(case, torch)


# -- half-precision 1-d interpolation ------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("size, align_corners", [(3, False), (7, False), (23, False), (16, True),
                                                 (40, True)])
def test_half_linear_interpolation_rounds_as_atens_kernel(size, align_corners):
    def case(t):
        x = t.sin(t.arange(60.0).reshape(2, 3, 10) * 1.3).half().requires_grad_()
        out = t.nn.functional.interpolate(x, size=size, mode="linear",
                                          align_corners=align_corners)
        (out * t.arange(float(size)).half()).sum().backward()
        return out.float(), x.grad.float()
    (out, grad), (expected_out, expected_grad) = (
        [v.detach().numpy() for v in case(lib)] for lib in (tapegrad, torch))
    np.testing.assert_array_equal(out, expected_out)
    # the gradient: ATen accumulates in its own order and precision, so close, not bit-equal
    np.testing.assert_allclose(grad, expected_grad, rtol=2e-3, atol=2e-3)


def test_half_interpolation_is_close_to_float32():
    x = _wave(tapegrad, 1, 2, 9)
    half = TF.interpolate(x.half(), size=20, mode="linear").float().numpy()
    full = TF.interpolate(x, size=20, mode="linear").numpy()
    np.testing.assert_allclose(half, full, atol=2e-3)
