"""Differences found by differential fuzzing of torch.nn.functional against PyTorch (fzn):
empty batches through pooling, resampling, losses, embeddings and convolutions; the order and
words of the pooling checks; layouts of fold, transposed convolutions and pixel (un)shuffles;
and the checks of batch and instance norm."""
import math

import numpy as np
import pytest

import tapegrad
from same_as_torch import assert_same

try:
    import torch
except ImportError:
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _x(lib, *shape, dtype="float32", grad=True):
    values = np.random.RandomState(0).uniform(-2, 2, shape).astype(dtype)
    return lib.tensor(values, requires_grad=grad and dtype.startswith("float"))


# -- empty batches ---------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("name, shape, size", [
    ("adaptive_avg_pool1d", (0, 2, 4), 2), ("adaptive_max_pool1d", (0, 2, 4), 2),
    ("adaptive_avg_pool2d", (0, 2, 3, 5), 2), ("adaptive_max_pool2d", (0, 1, 4, 4), 3),
    ("adaptive_avg_pool3d", (0, 2, 5, 6), 2), ("adaptive_max_pool3d", (0, 2, 5, 6), 2),
    ("adaptive_avg_pool2d", (1, 0, 2, 3), 2)])
def test_adaptive_pooling_of_empty_inputs_as_torch(name, shape, size):
    def case(lib):
        x = _x(lib, *shape)
        out = getattr(lib.nn.functional, name)(x, size)
        return out, lib.autograd.grad(out.sum(), x)[0]
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("name, shape", [
    ("adaptive_max_pool1d", (1, 0, 2)), ("adaptive_max_pool1d", (2, 0)),
    ("adaptive_avg_pool1d", (2, 0)), ("adaptive_avg_pool3d", (1, 1, 0, 2, 3)),
    ("adaptive_max_pool2d", (1, 0, 1, 2))])
def test_adaptive_pooling_refuses_empty_non_batch_dimensions_as_torch(name, shape):
    assert_same(lambda lib: getattr(lib.nn.functional, name)(lib.zeros(shape), 2), torch)


@needs_torch
@pytest.mark.parametrize("name, shape, size", [
    ("adaptive_avg_pool1d", (1, 1, 5), 0), ("adaptive_max_pool2d", (1, 1, 3, 3), (0, 2)),
    ("adaptive_avg_pool3d", (2, 2, 3, 3, 3), 0)])
def test_adaptive_pooling_backward_refuses_empty_gradients_as_torch(name, shape, size):
    def case(lib):
        x = _x(lib, *shape)
        return lib.autograd.grad(getattr(lib.nn.functional, name)(x, size).sum(), x)
    assert_same(case, torch)


@needs_torch
def test_adaptive_average_of_empty_integers_as_torch():
    assert_same(lambda lib: lib.nn.functional.adaptive_avg_pool2d(
        lib.zeros(0, 1, 3, 3, dtype=lib.int64), 2).shape, torch)
    out = tapegrad.nn.functional.adaptive_avg_pool1d(tapegrad.zeros(0, 3, dtype=tapegrad.int64), 2)
    assert out.dtype == tapegrad.int64 and out.shape == (0, 2)


@needs_torch
@pytest.mark.parametrize("mode", ["nearest", "linear", "area"])
def test_resampling_an_empty_batch_and_its_gradient_as_torch(mode):
    def case(lib):
        x = _x(lib, 0, 2, 4)
        out = lib.nn.functional.interpolate(x, size=3, mode=mode)
        return out, lib.autograd.grad(out.sum(), x)[0]
    assert_same(case, torch)


@needs_torch
@pytest.mark.parametrize("reduction", ["none", "sum"])
def test_losses_of_empty_batches_as_torch(reduction):
    def case(lib):
        x = _x(lib, 0, 4, 1)
        out = lib.nn.functional.nll_loss(x, lib.zeros(0, 1, dtype=lib.int64), reduction=reduction)
        margin = lib.nn.functional.multi_margin_loss(_x(lib, 0, 3), lib.zeros(0, dtype=lib.int64),
                                                     reduction=reduction)
        return out, lib.autograd.grad(out.sum(), x)[0], margin.shape  # (ATen's sum: unset)
    assert_same(case, torch)


@needs_torch
def test_multi_margin_loss_still_refuses_no_classes():
    assert_same(lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(2, 0), lib.zeros(2, dtype=lib.int64)), torch)


def test_embedding_scaled_by_frequency_of_no_indices_has_a_zero_gradient():
    weight = tapegrad.ones(5, 2, requires_grad=True)
    tapegrad.nn.functional.embedding(tapegrad.zeros(1, 0, dtype=tapegrad.int64), weight,
                                     scale_grad_by_freq=True).sum().backward()
    assert weight.grad.shape == (5, 2) and not weight.grad.any()


@needs_torch
@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.conv2d(_x(lib, 0, 1, 3, 3, dtype="float64"), _x(lib, 1, 1, 2, 2)),
    lambda lib: lib.nn.functional.conv_transpose2d(_x(lib, 0, 1, 3, 3), _x(lib, 1, 1, 2, 2),
                                                   output_padding=1),
    lambda lib: lib.nn.functional.conv_transpose2d(_x(lib, 0, 1, 2, 7), _x(lib, 1, 1, 2, 2),
                                                   stride=(1, 2), output_padding=1)])
def test_convolving_an_empty_batch_skips_the_kernels_checks_as_torch(call):
    assert_same(lambda lib: (call(lib), str(call(lib).dtype)[-7:]), torch)


@needs_torch
@pytest.mark.parametrize("padding", ["valid", "same"])
def test_string_padding_casts_the_bias_as_torch(padding):
    def case(lib):
        x, bias = _x(lib, 1, 2, 5, dtype="float64"), _x(lib, 2)
        out = lib.nn.functional.conv1d(x, _x(lib, 2, 2, 3, dtype="float64"), bias, padding=padding)
        return out, str(out.dtype)[-7:], lib.autograd.grad(out.sum(), bias)[0]
    assert_same(case, torch)


# -- pooling checks, in ATen's order ---------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("name, shape, args, kwargs", [
    ("avg_pool3d", (2, 0, 3, 7, 3), (2,), {}), ("max_pool3d", (0, 3, 7, 3), (2,), {}),
    ("avg_pool3d", (2, 1, 3, 3, 0), (2,), {}), ("avg_pool3d", (2, 0, 3, 7, 3), (3,), {"padding": 2}),
    ("avg_pool3d", (1, 1, 3, 3, 3), (0,), {"stride": 1}),
    ("avg_pool3d", (1, 1, 3, 3, 3), ((1, 0, 1),), {"stride": 1}),
    ("max_pool3d", (1, 1, 3, 3, 3), (0,), {"stride": 1, "dilation": 0}),
    ("max_pool2d", (2, 0, 3, 3), (0,), {"stride": 1}), ("avg_pool2d", (2, 1, 3, 3), (0,), {"stride": 1}),
    ("avg_pool1d", (2, 1, 3), (0,), {"stride": 1}),
    ("avg_pool2d", (0, 5, 1), (2,), {"divisor_override": 0}),
    ("avg_pool1d", (0, 0, 4), (3,), {"padding": 2}),
    ("max_pool2d", (1, 1, 6, 6), (3,), {"padding": 2, "dilation": 2}),
    ("max_pool2d", (1, 1, 6, 6), ((3, 1),), {"padding": (2, 0), "dilation": 2}),
    ("max_pool3d", (1, 1, 6, 6, 6), (3,), {"padding": (0, 2, 0), "dilation": 2}),
    ("max_pool2d", (1, 1, 3, 3), (3,), {"padding": 1, "dilation": 0}),
    ("avg_pool3d", (1, 1, 1, 1, 6), ((3, 2, 3),), {"stride": 1, "padding": 1, "ceil_mode": True}),
    ("lp_pool3d", (2, 1, 5, 1), (1, 3), {"ceil_mode": True}),
    ("lp_pool2d", (0, 1, 5), (2, 0), {})])
def test_pooling_checks_as_torch(name, shape, args, kwargs):
    assert_same(lambda lib: getattr(lib.nn.functional, name)(lib.zeros(shape), *args, **kwargs),
                torch)


def test_dilated_max_pooling_may_pad_half_the_dilated_kernel():
    out = tapegrad.nn.functional.max_pool1d(tapegrad.arange(6.).view(1, 1, 6), 2, padding=1,
                                            dilation=2)
    assert out.tolist() == [[[1.0, 3.0, 5.0]]]  # windows (-1, 1), (1, 3), (3, 5)


@needs_torch
@pytest.mark.parametrize("norm_type", [math.inf, -math.inf])
@pytest.mark.parametrize("name, shape", [("lp_pool1d", (1, 2, 6)), ("lp_pool2d", (1, 2, 4, 4))])
def test_infinite_lp_pooling_records_the_max_pooling_as_torch(name, shape, norm_type):
    def case(lib):
        out = getattr(lib.nn.functional, name)(_x(lib, *shape), norm_type, 2)
        return out, type(out.grad_fn).__name__
    assert_same(case, torch)


# -- layouts ---------------------------------------------------------------------------------------

@needs_torch
@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.fold(_x(lib, 2, 36), (4, 4), 1, padding=1),
    lambda lib: lib.nn.functional.conv_transpose1d(_x(lib, 2, 1, 6), _x(lib, 1, 1, 3), stride=2,
                                                   padding=1),
    lambda lib: lib.nn.functional.pixel_unshuffle(_x(lib, 2, 1, 4, 2), 2),
    lambda lib: lib.nn.functional.pixel_shuffle(_x(lib, 2, 4, 1, 2), 2)])
def test_results_are_contiguous_as_torch(call):
    assert_same(lambda lib: (call(lib), call(lib).is_contiguous(), call(lib).stride()), torch)


# -- losses, norms ---------------------------------------------------------------

@needs_torch
def test_multilabel_soft_margin_loss_words_a_bad_reduction_as_torch():
    assert_same(lambda lib: lib.nn.functional.multilabel_soft_margin_loss(
        lib.zeros(2, 3), lib.zeros(2, 3), reduction="bad"), torch)


@needs_torch
@pytest.mark.parametrize("mean, var", [(True, False), (False, True)])
def test_batch_norm_in_training_wants_both_running_statistics_or_neither(mean, var):
    assert_same(lambda lib: lib.nn.functional.batch_norm(
        lib.zeros(3, 2, dtype=lib.int64), lib.zeros(2) if mean else None,
        lib.ones(2) if var else None, training=True), torch)


@needs_torch
def test_batch_norm_of_an_empty_batch_checks_no_dtypes_as_torch():
    def case(lib):
        out = lib.nn.functional.batch_norm(
            lib.zeros(0, 1, 3, 2, dtype=lib.float16), lib.zeros(1, dtype=lib.float64),
            lib.ones(1), weight=lib.ones(1, dtype=lib.float64), training=True)
        return out.shape, str(out.dtype)[-7:]
    assert_same(case, torch)


@needs_torch
def test_instance_norm_without_input_statistics_wants_running_ones_as_torch():
    assert_same(lambda lib: lib.nn.functional.instance_norm(
        lib.zeros(2, 3, 4), use_input_stats=False), torch)


@needs_torch
@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.multi_margin_loss(lib.zeros(2, 3), lib.zeros(2, dtype=lib.int64),
                                                    p=3, reduction="bad"),
    lambda lib: lib.nn.functional.multi_margin_loss(
        lib.zeros(2, 3), lib.zeros(2, dtype=lib.int64), weight=lib.ones(3, requires_grad=True),
        reduction="bad"),
    lambda lib: lib.nn.functional.binary_cross_entropy(
        lib.full((2, 2), 0.5), lib.full((2, 2), 0.5), weight=lib.ones(2, requires_grad=True),
        reduction="bad")])
def test_losses_read_the_reduction_first_as_torch(call):
    assert_same(call, torch)


@needs_torch
def test_a_zero_dilation_is_refused_before_the_output_padding_as_torch():
    assert_same(lambda lib: lib.nn.functional.conv_transpose2d(
        lib.zeros(2, 6, 6), lib.zeros(2, 1, 1, 2), stride=(1, 2), dilation=0, output_padding=1),
        torch)


@needs_torch
@pytest.mark.parametrize("call", [
    lambda lib: lib.nn.functional.conv_transpose1d(_x(lib, 1, 4, 2), _x(lib, 4, 2, 2), stride=2,
                                                   padding=2, groups=2),
    lambda lib: lib.nn.functional.conv_transpose1d(_x(lib, 1, 4, 2), _x(lib, 4, 2, 2), stride=2,
                                                   padding=2),
    lambda lib: lib.nn.functional.conv_transpose1d(_x(lib, 2, 1), _x(lib, 2, 2, 2), padding=2),
    lambda lib: lib.nn.functional.conv_transpose2d(_x(lib, 1, 4, 1, 2), _x(lib, 4, 2, 1, 2),
                                                   stride=2, padding=(0, 3), groups=2),
    lambda lib: lib.nn.functional.conv_transpose2d(_x(lib, 1, 4, 1, 2, dtype="float64"),
                                                   _x(lib, 4, 2, 1, 2, dtype="float64"),
                                                   stride=2, padding=(0, 2), groups=2)])
def test_transposed_convolutions_without_output_positions_as_torch(call):
    assert_same(lambda lib: (call(lib), call(lib).shape), torch)
