"""Differences found by differential fuzzing of convolution, normalization and pooling layers
against PyTorch (fzb): random conv1d/2d/3d and transposed convolutions (strides, paddings,
dilations, groups, padding modes, non-contiguous and channels-last inputs, ``output_size``),
batch/instance/layer/group/RMS/local-response norms and ``F.normalize`` over several training
steps, and every pooling function, compared by values, gradients, layouts and errors.

Found: a 3-d convolution of a channels-last input is channels-last only on oneDNN (float64 and
tiny float32 ones run ``Slow3d``, whose output is contiguous); ``use_mkldnn``'s size heuristic
reads a 3-d input's depth and height, and refuses a transposed convolution whose output padding
is a stride or more (so such an output too small is refused in the native words); oneDNN's
refusal of a negative output size of a channels-last transposed convolution; "same" padding
amounts of a module whose kernel tuple is longer than its dilation; ``F.batch_norm`` of fewer
than two dims (the batch-size check first, ATen's channel count of 0, then the dim error) and
of an empty input (before the statistics are checked; ``weight.select(0, 0)``);
``F.instance_norm``'s dim errors; unbatched 3-d pooling of a 4-d input laid out channels-last
(contiguous results of the average and adaptive pools, max_pool3d's "Unsupported memory
format"); fractional_max_pool3d's strict size check and its order (time, width, height), and
an output size of 0; max_unpool into an empty output (no index checked, the backward's error).
"""
import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same, outcome

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

F = tapegrad.nn.functional


def _values(*shape):
    return np.cos(np.arange(int(np.prod(shape)))).reshape(shape)


# -- convolutions ----------------------------------------------------------------------------------

def _conv_layouts(lib, dtype, n, kernel, groups, transposed=False):
    x = lib.tensor(_values(n, 3, 4, 4, 4), dtype=dtype)
    x = x.contiguous(memory_format=lib.channels_last_3d).requires_grad_()
    w = lib.tensor(_values(3, 3 // groups, *(kernel,) * 3), dtype=dtype).requires_grad_()
    conv = lib.nn.functional.conv_transpose3d if transposed else lib.nn.functional.conv3d
    out = conv(x, w, groups=groups)
    out.backward(lib.ones_like(out))
    return (out, x.grad, w.grad, out.is_contiguous(),
            out.is_contiguous(memory_format=lib.channels_last_3d))


@pytest.mark.parametrize("transposed", [False, True])
def test_a_float64_3d_convolution_of_a_channels_last_input_is_contiguous(transposed):
    out = _conv_layouts(tapegrad, tapegrad.float64, 2, 2, 1, transposed)
    assert out[3] and not out[4]


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n, kernel, groups", [(1, 1, 1), (2, 2, 1), (1, 2, 3)])
@pytest.mark.parametrize("transposed", [False, True])
def test_3d_convolution_layouts(dtype, n, kernel, groups, transposed):
    assert_same(lambda lib: _conv_layouts(lib, getattr(lib, dtype), n, kernel, groups,
                                          transposed), torch)


@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_2d_convolution_of_a_channels_last_input_stays_channels_last(dtype):
    def case(lib):
        x = lib.tensor(_values(2, 3, 5, 5), dtype=getattr(lib, dtype))
        y = lib.nn.functional.conv2d(x.contiguous(memory_format=lib.channels_last),
                                     lib.tensor(_values(3, 3, 2, 2), dtype=getattr(lib, dtype)),
                                     dilation=2)
        return y, y.is_contiguous(memory_format=lib.channels_last)
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("args", [
    # (spatial, stride, padding, output_padding, dilation): an output padding of the stride
    # (below the dilation) takes the native kernel, whose message names the sizes
    ((1,), 1, 1, 1, 2),
    ((2, 1, 3), (2, 3, 1), (0, 1, 2), (0, 0, 1), (2, 1, 2)),
])
def test_transposed_output_too_small_with_a_big_output_padding(args):
    spatial, stride, padding, output_padding, dilation = args

    def case(lib):
        x = lib.ones(1, 4, *spatial)
        w = lib.ones(4, 2, *(1,) * len(spatial))
        conv = getattr(lib.nn.functional, f"conv_transpose{len(spatial)}d")
        return conv(x, w, None, stride, padding, output_padding, 2, dilation)
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("out", [(1, -1), (3, -3), (-1, 0), (0, -1), (-1, -1), (1, 1, -1),
                                 (-1, 0, 1), (2, 0, -1), (1, 2, -3), (-3, 0, 4)])
def test_negative_output_of_a_channels_last_transposed_convolution(out):
    sizes = {-3: (1, 2), -1: (1, 1), 0: (2, 2), 1: (1, 0), 2: (2, 1), 3: (3, 2), 4: (2, 0)}
    spatial, padding = zip(*(sizes[n] for n in out))  # (n - 1) * 3 - 2 * p + 1 == out

    def case(lib):
        fmt = lib.channels_last if len(out) == 2 else lib.channels_last_3d
        x = lib.ones(2, 2, *spatial).contiguous(memory_format=fmt)
        conv = getattr(lib.nn.functional, f"conv_transpose{len(out)}d")
        return conv(x, lib.ones(2, 1, *(1,) * len(out)), stride=3, padding=padding, groups=2)
    assert_same(case, torch)


def test_oneDNN_refuses_a_negative_channels_last_output_by_its_sizes():
    x = tapegrad.ones(2, 2, 2, 1).contiguous(memory_format=tapegrad.channels_last)
    with pytest.raises(RuntimeError, match="numel: integer multiplication overflow"):
        F.conv_transpose2d(x, tapegrad.ones(2, 1, 1, 1), stride=3, padding=(0, 2), groups=2)


@needs_torch
def test_same_padding_amounts_follow_the_kernel_tuple():
    def case(lib):
        m = lib.nn.Conv1d(2, 4, (1, 2), padding="same", dilation=0, groups=2,
                          padding_mode="circular")
        return m._reversed_padding_repeated_twice
    assert_same(case, torch)
    assert case(tapegrad) == [0, 0, 0, 0]


# -- normalization ---------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("shape", [(), (1,), (3,), (0, 3), (2, 0)])
@pytest.mark.parametrize("training", [False, True])
@pytest.mark.parametrize("stats, weight", [(None, None), (0, None), (2, None), (None, 2),
                                           (3, 0), (2, 3)])
def test_batch_norm_checks_in_aten_order(shape, training, stats, weight):
    if shape == () and not training and stats == 0:
        pytest.skip("ATen reads past the sizes of a 0-d input here (undefined behaviour)")

    def case(lib):
        rm = None if stats is None else lib.zeros(stats)
        rv = None if stats is None else lib.ones(stats)
        w = None if weight is None else lib.ones(weight)
        return lib.nn.functional.batch_norm(lib.ones(shape), rm, rv, w, w, training=training)
    assert_same(case, torch)


def test_batch_norm_of_an_empty_input_checks_no_statistics():
    out = F.batch_norm(tapegrad.ones(0, 3), tapegrad.zeros(2), tapegrad.ones(2))
    assert tuple(out.shape) == (0, 3)


@needs_torch
@pytest.mark.parametrize("shape", [(), (3,)])
def test_instance_norm_without_batch_and_channel_dims(shape):
    assert_same(lambda lib: lib.nn.functional.instance_norm(
        lib.ones(shape), lib.zeros(1), lib.ones(1), use_input_stats=False), torch)


# -- pooling ---------------------------------------------------------------------------------------

def _unbatched_volume(lib):
    x = lib.tensor(_values(1, 2, 1, 3)).contiguous(memory_format=lib.channels_last)
    return x.requires_grad_()


@needs_torch
@pytest.mark.parametrize("pool", [
    lambda F, x: F.adaptive_avg_pool3d(x, (4, 3, 1)), lambda F, x: F.adaptive_max_pool3d(x, 2),
    lambda F, x: F.avg_pool3d(x, 1), lambda F, x: F.max_pool3d(x, 1),
    lambda F, x: F.max_pool3d(x, 1, stride=0), lambda F, x: F.max_pool3d(x, (1, 1))])
def test_3d_pooling_of_an_unbatched_channels_last_volume(pool):
    def case(lib):
        x = _unbatched_volume(lib)
        out = pool(lib.nn.functional, x)
        out = out[0] if isinstance(out, tuple) else out
        out.backward(lib.ones_like(out))
        return out, x.grad, out.stride()
    assert_same(case, torch)


def test_average_pool3d_of_an_unbatched_channels_last_volume_is_contiguous():
    assert F.avg_pool3d(_unbatched_volume(tapegrad), 1).is_contiguous()
    with pytest.raises(RuntimeError, match="Unsupported memory format"):
        F.max_pool3d(_unbatched_volume(tapegrad), 1)


@needs_torch
@pytest.mark.parametrize("shape, kernel, size", [
    ((2, 1, 3, 2, 1), 2, (2, 5, 3)), ((1, 1, 2, 3), (2, 4, 2), (0, 1, 1)),
    ((2, 2, 4, 3, 2), (1, 4, 3), 2), ((2, 2, 3, 4, 1), (2, 4, 2), (1, 2, 0)),
    ((1, 1, 2, 2), 3, 2)])
def test_fractional_max_pool_size_checks(shape, kernel, size):
    def case(lib):
        pool = getattr(lib.nn.functional, f"fractional_max_pool{len(shape) - 2}d")
        return pool(lib.ones(shape), kernel, output_size=size).shape
    assert_same(case, torch)


@needs_torch
def test_fractional_max_pool_of_an_output_size_of_zero():
    def case(lib):
        x = lib.tensor(_values(1, 4, 3, 1)).requires_grad_()
        out, indices = lib.nn.FractionalMaxPool3d(1, output_ratio=0.5, return_indices=True)(x)
        out.sum().backward()
        return out, indices.shape, x.grad
    assert_same(case, torch)
    assert case(tapegrad)[1] == (1, 2, 1, 0)


@needs_torch
@pytest.mark.parametrize("spatial", [1, 2, 3])
def test_max_unpool_into_an_empty_output(spatial):
    def case(lib, backward):  # (a kernel of 4 padded by 2 unpools a size of 1 to 0)
        x = lib.ones(2, 2, *(1,) * spatial, requires_grad=True)
        indices = lib.full(x.shape, 3)
        out = getattr(lib.nn.functional, f"max_unpool{spatial}d")(x, indices, 4, padding=2)
        if backward:
            out.sum().backward()
        return out
    assert_same(lambda lib: case(lib, False), torch)
    assert_same(lambda lib: case(lib, True), torch)
    assert tuple(case(tapegrad, False).shape) == (2, 2, *(0,) * spatial)
